"""What a server reads of an index it did not write (issue 29): a pulled generation is
checked against its manifest (SHA-256 of each file, and an HMAC-SHA256 signature when
SEARCH_INDEX_SIGNING_KEY is set) and read only through names its format writes, inside the
index folder; one that fails is refused with what failed, and search keeps working."""
import hashlib
import hmac
import json
import os
import re
import shutil
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan
from search.shipping import ShippingError, publish, pull

ENGINES = {"positional": "search.backends.positional.PositionalIndexBackend",
           "whoosh": "search.backends.whoosh.WhooshBackend"}
KEY = "a secret both servers hold"


@pytest.fixture
def shipped(settings, tmp_path, seed_juan):
    """Server A's index of the seed published in ``shared``; server B has an index of its own
    (the first ten passages), which it must keep when a pull is refused."""
    settings.SEARCH_BACKENDS = {name: {"BACKEND": ENGINES["positional"], "PATH": tmp_path / name, "LOCK_TIMEOUT": 2.0}
                                for name in ("a", "b")}
    a, b = get_search_backend("a"), get_search_backend("b")
    docs = documents_for_juan(seed_juan)
    a.rebuild(docs)
    b.rebuild(docs[:10])
    shared = tmp_path / "shared"
    name = publish(a, shared)
    return a, b, shared, name


def juan_copy(docs):
    """``docs`` as passages of another juan (9001, number 2) of the same work."""
    return [replace(d, juan_id=9001, juan_number=2, doc_id=f"9001{d.doc_id}") for d in docs]


def current(backend) -> str:
    return os.path.basename(os.path.realpath(backend.current_link))


def folder_state(path):
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def refused(b, shared, message: str) -> None:
    """``pull`` refuses with ``message`` (a regular expression), copies nothing and leaves B
    searching its own generation."""
    kept, before = current(b), folder_state(b.path)
    with pytest.raises(ShippingError, match=message) as failure:
        pull(b, shared)
    assert str(failure.value).endswith(f"; this server keeps {kept}")
    assert current(b) == kept and folder_state(b.path) == before  # no .part-… left, nothing swapped in
    assert b.search(SearchQuery("之")).count == b.search(SearchQuery("之")).count > 0
    assert b.document_count() == 10


def rewrite_manifest(gen, change, key=None) -> None:
    """Change ``gen``'s manifest with ``change(manifest)`` as a writer of the shared folder
    could (signing it again only if given the key)."""
    manifest = json.loads((gen / "MANIFEST.json").read_text(encoding="utf-8"))
    change(manifest)
    data = json.dumps(manifest).encode("utf-8")
    (gen / "MANIFEST.json").write_bytes(data)
    if key is not None:
        (gen / "MANIFEST.sig").write_text(hmac.new(key.encode(), data, hashlib.sha256).hexdigest())


def test_every_generation_has_a_manifest_of_its_files(shipped):
    a, _, shared, name = shipped
    gen = a.path / name
    manifest = json.loads((gen / "MANIFEST.json").read_text(encoding="utf-8"))
    assert set(manifest) == {"manifest", "generation", "engine", "created_ns", "analysis", "files"}
    assert (manifest["generation"], manifest["engine"]) == (name, ENGINES["positional"])
    assert manifest["analysis"] == 8  # rebuilt: the passages read by the code's rule (search.documents.ANALYSIS)
    stamp = datetime.strptime(name[4:19], "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc).timestamp()
    assert 0 <= manifest["created_ns"] / 1e9 - stamp < 60  # made when its folder was, to the nanosecond
    files = sorted(p.relative_to(gen).as_posix() for p in gen.rglob("*") if p.is_file() and p.name != "MANIFEST.json")
    assert sorted(manifest["files"]) == files and len(files) == 35  # 26 arrays, 2 of neighbour keys, 5 of places and 2 tables
    raw = manifest["files"]["raw.npy"]
    assert raw == {"sha256": hashlib.sha256((gen / "raw.npy").read_bytes()).hexdigest(),
                   "size": (gen / "raw.npy").stat().st_size}
    assert not (gen / "MANIFEST.sig").exists()  # no key set
    assert (shared / name / "MANIFEST.json").read_bytes() == (gen / "MANIFEST.json").read_bytes()


def test_a_write_hashes_only_the_files_it_adds(shipped, seed_juan, monkeypatch):
    from search.backends import generations

    a, _, _, name = shipped
    hashed = []
    original = generations.file_sha256

    def counted(path):
        hashed.append(path)
        return original(path)

    monkeypatch.setattr(generations, "file_sha256", counted)
    a.replace_juans(set(), juan_copy(documents_for_juan(seed_juan)[:5]))
    gen = a.current_link.resolve()
    assert sorted(p.name for p in gen.iterdir() if p.is_dir()) == ["seg-000001"]
    assert sorted(p.relative_to(gen).as_posix() for p in hashed) == \
        sorted(f"seg-000001/{f.name}" for f in (gen / "seg-000001").iterdir())
    manifest = json.loads((gen / "MANIFEST.json").read_text(encoding="utf-8"))
    for rel, info in manifest["files"].items():  # the linked files' checksums, taken over, are still right
        assert info["sha256"] == hashlib.sha256((gen / rel).read_bytes()).hexdigest(), rel


def test_a_changed_file_is_refused(shipped):
    _, b, shared, name = shipped
    with open(shared / name / "order.npy", "r+b") as fh:  # one byte of the postings
        fh.seek(-1, os.SEEK_END)
        last = fh.read(1)
        fh.seek(-1, os.SEEK_END)
        fh.write(bytes([last[0] ^ 1]))
    refused(b, shared, rf"^refused the published generation {name}: {shared / name}/order\.npy does not match its "
                       rf"checksum in MANIFEST\.json \(changed or damaged since it was published\)")


def test_a_missing_file_and_a_missing_manifest_are_refused(shipped):
    _, b, shared, name = shipped
    (shared / name / "juans.json").unlink()
    refused(b, shared, rf"{shared / name}/juans\.json, listed in its manifest, is missing")
    (shared / name / "MANIFEST.json").unlink()
    refused(b, shared, rf"{shared / name} has no MANIFEST\.json")


def test_a_generation_named_outside_the_index_folder_is_refused(shipped, tmp_path):
    """The publication manifest names the generation: ``../x`` or an absolute path would
    copy from (and into) another folder; neither is read."""
    a, b, shared, name = shipped
    outside = tmp_path / "x"
    shutil.copytree(shared / name, outside)
    for generation in ("../x", str(outside), "gen-../../x", name + "/../../x", "current"):
        (shared / "manifest.json").write_text(json.dumps({"generation": generation, "backend": ENGINES["positional"]}))
        with pytest.raises(ShippingError, match=r"names the generation .*, which is not a generation folder name "
                                                r"\(gen-<stamp>-<8 hex>\); nothing was pulled"):
            pull(b, shared)
        assert current(b) != name and not (tmp_path / "b" / "x").exists() and not (tmp_path / "x.part").exists()
    assert b.document_count() == 10


@pytest.mark.parametrize("listed", ["../x/raw.npy", "/etc/hostname", "seg-000001/../../x/raw.npy", "evil.pkl",
                                    "juans.pkl", "seg-000001/MANIFEST.json", "current/raw.npy", "raw.npy/"])
def test_a_manifest_naming_a_file_outside_the_format_is_refused(shipped, tmp_path, listed):
    _, b, shared, name = shipped
    (tmp_path / "x").mkdir(exist_ok=True)
    (tmp_path / "x" / "raw.npy").write_bytes(b"outside")
    rewrite_manifest(shared / name, lambda m: m["files"].update({listed: {"sha256": "0" * 64, "size": 7}}))
    refused(b, shared, re.escape(f"MANIFEST.json names '{listed}', which is not a file of this index format;"))
    assert (tmp_path / "x" / "raw.npy").read_bytes() == b"outside"


def test_links_are_not_followed(shipped, tmp_path):
    """A file or folder of the published generation that is a symbolic link (to a file
    outside, even one whose checksum the manifest gives) is refused, not read."""
    _, b, shared, name = shipped
    gen = shared / name
    outside = tmp_path / "outside.npy"
    shutil.copyfile(gen / "raw.npy", outside)
    (gen / "raw.npy").unlink()
    os.symlink(outside, gen / "raw.npy")
    refused(b, shared, rf"{gen}/raw\.npy is a link or not a file \(.*\); only plain files are pulled")
    (gen / "raw.npy").unlink()
    shutil.copyfile(outside, gen / "raw.npy")
    # The generation folder itself a link to a copy elsewhere.
    elsewhere = tmp_path / "elsewhere"
    shutil.move(gen, elsewhere)
    os.symlink(elsewhere, gen)
    refused(b, shared, rf"{gen} is a link or not a folder \(.*\); only plain folders are pulled")


def test_a_generation_that_is_not_an_index_is_refused_after_its_checks(shipped):
    """Files whose checksums match but that are no index of this format (a crafted table):
    refused before the swap."""
    _, b, shared, name = shipped
    (shared / name / "juans.json").write_text(json.dumps({"format": 9, "juans": "none"}), encoding="utf-8")
    rewrite_manifest(shared / name, lambda m: m["files"].update({"juans.json": {
        "sha256": hashlib.sha256((shared / name / "juans.json").read_bytes()).hexdigest(),
        "size": (shared / name / "juans.json").stat().st_size}}))
    refused(b, shared, rf"{shared / name} passed its manifest but is not an index this server reads: .*juans\.json")


def test_signed_manifests(settings, shipped, tmp_path):
    a, b, shared, name = shipped
    # Published without a key: a server with one refuses it.
    settings.SEARCH_INDEX_SIGNING_KEY = KEY
    refused(b, shared, rf"{shared / name}/MANIFEST\.json is not signed, and SEARCH_INDEX_SIGNING_KEY is set")
    # Published with the key: pulled.
    assert publish(a, shared) == name
    signed = (shared / name / "MANIFEST.sig").read_text()
    assert signed == hmac.new(KEY.encode(), (shared / name / "MANIFEST.json").read_bytes(), hashlib.sha256).hexdigest()
    assert pull(b, shared) == (name, True)
    assert b.search(SearchQuery("鵠")).count == 21
    # A writer of the shared folder without the key changes a file and its checksum: refused.
    a.rebuild([])  # a new generation on A, published signed
    second = publish(a, shared)
    with open(shared / second / "raw.npy", "ab") as fh:
        fh.write(b"\0")
    size = (shared / second / "raw.npy").stat().st_size
    digest = hashlib.sha256((shared / second / "raw.npy").read_bytes()).hexdigest()
    rewrite_manifest(shared / second, lambda m: m["files"].update({"raw.npy": {"sha256": digest, "size": size}}))
    kept = current(b)
    with pytest.raises(ShippingError, match=rf"^refused the published generation {second}: the signature of "
                                            rf"{shared / second}/MANIFEST\.json does not verify with this server's "
                                            rf"SEARCH_INDEX_SIGNING_KEY \(another key, or the manifest was changed\); "
                                            rf"this server keeps {name}$"):
        pull(b, shared)
    assert current(b) == kept and b.search(SearchQuery("鵠")).count == 21
    # Signed again with another key: refused the same way.
    rewrite_manifest(shared / second, lambda m: None, key="another key")
    with pytest.raises(ShippingError, match="does not verify"):
        pull(b, shared)
    assert current(b) == name


def test_a_whoosh_server_pulls_only_signed_generations(settings, tmp_path, seed_juan):
    """Whoosh reads its table of contents and stored fields with pickle: a Whoosh server
    pulls nothing unsigned, and a signed generation whose files verify."""
    settings.SEARCH_BACKENDS = {name: {"BACKEND": ENGINES["whoosh"], "PATH": tmp_path / name, "LOCK_TIMEOUT": 2.0}
                                for name in ("a", "b")}
    a, b = get_search_backend("a"), get_search_backend("b")
    a.rebuild(documents_for_juan(seed_juan))
    shared = tmp_path / "shared"
    name = publish(a, shared)
    manifest = json.loads((shared / name / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["engine"] == ENGINES["whoosh"] and any(f.endswith(".toc") for f in manifest["files"])
    with pytest.raises(ShippingError, match=r"this server's engine \(search\.backends\.whoosh\.WhooshBackend\) reads "
                                            r"its index files with pickle, so it pulls only signed generations: set "
                                            r"SEARCH_INDEX_SIGNING_KEY here and on the server that publishes; this "
                                            r"server keeps no index$"):
        pull(b, shared)
    assert not b.path.exists() or not list(b.path.glob("gen-*"))
    settings.SEARCH_INDEX_SIGNING_KEY = KEY
    publish(a, shared)
    assert pull(b, shared) == (name, True)
    assert b.search(SearchQuery("鵠")).count == 21
    a.replace_juans(set(), juan_copy(documents_for_juan(seed_juan)[:5]))  # Whoosh's commit, in a generation of its own
    gen = a.current_link.resolve()
    assert gen.name != name
    listed = json.loads((gen / "MANIFEST.json").read_text(encoding="utf-8"))["files"]
    assert sorted(listed) == sorted(p.name for p in gen.iterdir() if p.name not in ("MANIFEST.json", "MANIFEST.sig"))


def test_publish_writes_nothing_through_a_link_in_the_shared_folder(shipped, tmp_path):
    a, b, shared, name = shipped
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(shared / name)
    os.symlink(outside, shared / name)
    assert publish(a, shared) == name
    assert list(outside.iterdir()) == [] and not (shared / name).is_symlink()
    assert pull(b, shared) == (name, True) and b.search(SearchQuery("鵠")).count == 21


def test_a_dangling_link_in_the_shared_folder_does_not_fail_a_publish(shipped, tmp_path):
    """A dangling link named like a generation in the shared folder
    made publish_index fail with FileNotFoundError after it had published."""
    a, b, shared, name = shipped
    os.symlink(tmp_path / "gone", shared / "gen-20000101T000000-00000000")
    (tmp_path / "kept").mkdir()
    os.symlink(tmp_path / "kept", shared / "gen-20000101T000000-00000001")
    assert publish(a, shared) == name
    assert (tmp_path / "kept").is_dir()  # a link is never followed by the clean-up
    assert pull(b, shared) == (name, True)


@pytest.fixture
def alarm():
    """Fail a call that blocks (a FIFO opened for reading waits for a writer) after 10 s,
    instead of hanging the test run."""
    import signal

    def ring(signum, frame):
        raise TimeoutError("blocked for 10 s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_a_fifo_in_the_published_generation_is_refused_without_waiting(shipped, alarm):
    """A FIFO named as an index file (or as the generation's manifest)
    was opened for reading before it was checked, and the pull waited for a writer forever,
    holding this server's writer lock (no import could index meanwhile)."""
    _, b, shared, name = shipped
    gen = shared / name
    saved = (gen / "raw.npy").read_bytes()
    (gen / "raw.npy").unlink()
    os.mkfifo(gen / "raw.npy")
    refused(b, shared, rf"{gen}/raw\.npy is not a regular file")
    (gen / "raw.npy").unlink()
    (gen / "raw.npy").write_bytes(saved)
    (gen / "MANIFEST.json").unlink()
    os.mkfifo(gen / "MANIFEST.json")
    refused(b, shared, rf"{gen}/MANIFEST\.json is not a regular file")


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
def test_the_publication_manifest_is_read_as_carefully_as_a_generation(shipped, alarm, kind):
    """``SHARED/manifest.json`` was read whole through any link, so a
    link to /dev/zero ended the pull in a MemoryError (or the OOM killer), and a FIFO hung it."""
    _, b, shared, name = shipped
    kept, before = current(b), folder_state(b.path)
    (shared / "manifest.json").unlink()
    if kind == "fifo":
        os.mkfifo(shared / "manifest.json")
        message = f"{shared}/manifest.json is not a regular file; nothing was pulled"
    else:
        os.symlink("/dev/zero", shared / "manifest.json")
        message = (f"{shared}/manifest.json is a link or cannot be opened (Too many levels of symbolic links); only "
                   f"plain files are read; nothing was pulled")
    with pytest.raises(ShippingError) as failure:
        pull(b, shared)
    assert str(failure.value) == message
    assert current(b) == kept and folder_state(b.path) == before


def test_an_older_generation_published_again_is_refused(settings, shipped, tmp_path):
    """Freshness (a replay): B pulls A's first and second generations; a writer of the shared
    folder puts the first back, its signed manifest untouched. B refuses it whether it must
    copy it or still holds it, and keeps the second; the operator's --allow-older takes it."""
    from django.core.management import CommandError, call_command

    settings.SEARCH_INDEX_SIGNING_KEY = KEY
    a, b, shared, _ = shipped
    first = publish(a, shared)  # signed now
    assert pull(b, shared) == (first, True)
    saved = tmp_path / "saved"
    shutil.copytree(shared / first, saved)
    saved_publication = (shared / "manifest.json").read_bytes()
    a.rebuild([])
    second = publish(a, shared)
    assert pull(b, shared) == (second, True)
    made = {n: json.loads((shared / n / "MANIFEST.json").read_text())["created_ns"] for n in (first, second)}
    assert made[first] < made[second]
    assert json.loads((b.path / "pulled.json").read_text()) == {"generation": second, "created_ns": made[second]}

    def replay():
        (shared / "manifest.json").write_bytes(saved_publication)

    def stamp(n):
        return datetime.fromtimestamp(made[n] / 1e9, timezone.utc).isoformat(timespec="seconds")

    message = (rf"^refused the published generation {first}: {{where}} was made at {re.escape(stamp(first))}, "
               rf"before {second} \({re.escape(stamp(second))}\), which this server has pulled already: an older "
               rf"generation published again is refused \(`python manage.py pull_index --allow-older` takes it on "
               rf"purpose\); this server keeps {second}$")
    # B still holds the first generation (kept for readers that resolved the link before the swap).
    assert (b.path / first).is_dir()
    replay()
    with pytest.raises(ShippingError, match=message.format(where=re.escape(str(b.path / first)))):
        pull(b, shared)
    assert current(b) == second and b.document_count() == 0
    # Gone from B (a later pull removed it): the copy is refused before a file is copied.
    shutil.rmtree(b.path / first)
    if not (shared / first).exists():
        shutil.copytree(saved, shared / first)
    before = sorted(p.name for p in b.path.iterdir())
    with pytest.raises(ShippingError, match=message.format(where=re.escape(str(shared / first)))):
        pull(b, shared)
    assert sorted(p.name for p in b.path.iterdir()) == before and current(b) == second
    with pytest.raises(CommandError, match="an older generation published again is refused"):
        settings.SEARCH_BACKENDS = {**settings.SEARCH_BACKENDS, "default": settings.SEARCH_BACKENDS["b"]}
        call_command("pull_index", str(shared))
    # The operator goes back on purpose.
    call_command("pull_index", str(shared), "--allow-older")
    assert current(b) == first and b.document_count() == 424
    assert json.loads((b.path / "pulled.json").read_text()) == {"generation": first, "created_ns": made[first]}


def test_a_new_generation_is_always_made_after_the_one_it_follows(shipped, monkeypatch):
    """A clock set back on the server that writes does not make its next generation look
    older to the servers that pull (created_ns is at least the previous one's + 1)."""
    import time as time_module

    a, b, shared, name = shipped
    made = json.loads((a.path / name / "MANIFEST.json").read_text())["created_ns"]
    monkeypatch.setattr(time_module, "time_ns", lambda: made - 10**12)  # 1000 s back
    a.rebuild([])
    second = publish(a, shared)
    assert json.loads((a.path / second / "MANIFEST.json").read_text())["created_ns"] == made + 1
    publish(a, shared)  # published again: the same generation keeps its time
    assert json.loads((shared / second / "MANIFEST.json").read_text())["created_ns"] == made + 1


def test_a_generation_made_in_the_future_is_refused(settings, shipped, tmp_path):
    """An unsigned manifest (a writer of the shared folder) saying its
    generation was made in the year 33,000 (``created_ns`` 10**21) was pulled, so every real
    generation after it was refused as older, and that refusal ended ``pull_index`` in a
    traceback (OverflowError: the time could not be shown). A ``created_ns`` more than a day
    after this server's clock is refused; a damaged record of one already pulled is told
    as such."""
    from django.core.management import CommandError, call_command

    a, b, shared, name = shipped
    rewrite_manifest(shared / name, lambda m: m.update(created_ns=10**21))
    refused(b, shared, rf"^refused the published generation {name}: {re.escape(str(shared / name))}/MANIFEST.json "
                       rf"does not say when its generation was made: its created_ns 1000000000000000000000 is "
                       rf"more than a day after this server's clock")
    # A server that pulled such a generation before this check: its record names a time
    # past what a date can hold; the next real generation is refused with that time said
    # plainly, and --allow-older takes it, as for any older generation.
    (b.path / "pulled.json").write_text(json.dumps({"generation": "gen-x", "created_ns": 10**30}))
    a.rebuild([])
    second = publish(a, shared)
    settings.SEARCH_BACKENDS = {**settings.SEARCH_BACKENDS, "default": settings.SEARCH_BACKENDS["b"]}
    with pytest.raises(CommandError, match=r"before gen-x \(created_ns 1000000000000000000000000000000\), which this "
                                           r"server has pulled already"):
        call_command("pull_index", str(shared))
    call_command("pull_index", str(shared), "--allow-older")
    assert current(b) == second and b.document_count() == 0
