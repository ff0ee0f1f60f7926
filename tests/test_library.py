"""The library is always recoverable (issue 17): export_library writes every juan's source
as imported with a manifest; import_library into an empty database gives the same library."""
import hashlib
import io
import json
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reader.importers.loader import import_file, render_source
from reader.library import LibraryError, export_library, import_library, read_manifest
from reader.models import Juan, Piece, Work
from search.backends import SearchQuery
from search.backends.memory import MemoryBackend
from search.documents import LAYER_GROUPS, documents_for_juan
from search.signals import muted

from .conftest import SEED, SHARED

KANRIPO = SHARED / "corpus" / "kanripo"
#: A Kanripo work in three files (front matter with its Readme label, a juan with gaiji,
#: 卷一) and an SBCK juan with U+0001.
KANRIPO_FILES = [("KR1d0086", "KR1d0086_000.txt"), ("KR1d0086", "KR1d0086_003.txt"),
                 ("KR1d0086", "KR1d0086_012.txt"), ("KR1d0026", "KR1d0026_001.txt")]
QUERIES = ["鵠", "射", "大射", "從豆?聲", "之 -射", "君 OR 公", "&KR1969;"]


def snapshot() -> dict:
    """Everything a reader can see, without database ids."""
    out = {}
    for juan in Juan.objects.select_related("work", "edition").order_by("edition__slug", "number"):
        w = juan.work
        pieces = list(Piece.objects.filter(section__juan=juan).order_by("section__position", "position").values_list(
            "section__position", "position", "paragraph", "kind", "text", "source_tag", "tag_separator", "source",
            "layout", "layer", "layer_name"))
        sections = list(juan.sections.order_by("position").values_list(
            "position", "chapter__position", "title", "closer", "record_separator", "paragraph_count", "line",
            "blank_lines_after", "closer_layout", "page"))
        chapters = list(juan.chapters.order_by("position").values_list("position", "title", "category", "heading",
                                                                       "heading_layout"))
        out[(juan.edition.slug, juan.number)] = {
            "work": (w.title, w.author, w.native_place, w.dynasty, w.collection, w.kanripo_id),
            "edition": (juan.edition.slug, juan.edition.label, juan.edition.kanripo_edition),
            "juan": (juan.label, juan.header, juan.trailer, juan.newline, juan.bom, juan.final_newline,
                     juan.source_name, juan.source_format, juan.sha256),
            "source_sha256": hashlib.sha256(render_source(juan).encode()).hexdigest(),
            "chapters": chapters, "sections": sections, "pieces": pieces,
        }
    return out


def search_results(tmp_name) -> dict:
    """Every hit of ``QUERIES`` by a plain scan of the database: place, layer and offsets."""
    backend = MemoryBackend(tmp_name, {})
    backend.rebuild(d for j in Juan.objects.all() for d in documents_for_juan(j))
    out = {}
    for q in QUERIES:
        results = backend.search(SearchQuery(text=q, layers=LAYER_GROUPS["all"]))
        out[q] = [(h.work_slug, h.juan_number, h.section_position, h.layer, h.start, h.end) for h in results.hits]
    return out


@pytest.fixture
def library(seed_juan, tmp_path):
    """The seed plus a Kanripo work and an SBCK juan, imported from folders with their Readme."""
    for folder, name in KANRIPO_FILES:
        (tmp_path / "src" / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(KANRIPO / folder / name, tmp_path / "src" / folder / name)
        shutil.copy(KANRIPO / folder / "Readme.org", tmp_path / "src" / folder / "Readme.org")
    with muted():
        for folder, name in KANRIPO_FILES:
            import_file(tmp_path / "src" / folder / name)
    return tmp_path


def test_round_trip_gives_the_same_library(library, tmp_path):
    before, hits_before = snapshot(), search_results("before")
    assert sorted(before) == [("KR1d0026", 1), ("KR1d0086", 0), ("KR1d0086", 3), ("KR1d0086", 12), ("禮書綱目", 10)]
    assert [len(hits_before[q]) for q in QUERIES] == [len(h) for h in hits_before.values()]
    assert len(hits_before["鵠"]) >= 21 and len(hits_before["&KR1969;"]) == 1

    manifest = export_library(tmp_path / "backup")
    assert (manifest["works"], manifest["juans"]) == (2, 5)  # the seed and KR1d0086 are editions of one work
    entry = next(e for e in manifest["files"] if e["juan"] == 12)
    assert {k: entry[k] for k in ("path", "work", "work_slug", "kanripo_edition", "kanripo_id", "juan", "label")} == {
        "path": "KR1d0086/KR1d0086_012.txt", "work": "禮書綱目", "work_slug": "禮書綱目", "kanripo_edition": "WYG",
        "kanripo_id": "KR1d0086", "juan": 12, "label": "卷十"}
    assert entry["edition"] == Juan.objects.get(edition__slug="KR1d0086", number=12).edition.slug
    # Exactly as imported: the bytes of every source file, byte for byte.
    assert (tmp_path / "backup" / "KR1d0086" / "KR1d0086_012.txt").read_bytes() == \
        (KANRIPO / "KR1d0086" / "KR1d0086_012.txt").read_bytes()
    assert (tmp_path / "backup" / "禮書綱目" / SEED.name).read_bytes() == SEED.read_bytes()
    for e in manifest["files"]:
        assert e["sha256"] == e["imported_sha256"] == hashlib.sha256(
            (tmp_path / "backup" / e["path"]).read_bytes()).hexdigest()
    assert json.loads((tmp_path / "backup" / "manifest.json").read_text()) == manifest

    with muted():
        Work.objects.all().delete()
    assert snapshot() == {}
    restored = import_library(tmp_path / "backup", index=False)
    assert (len(restored.files), restored.replaced, restored.index_problem) == (5, 0, None)
    assert snapshot() == before
    assert search_results("after") == hits_before


def test_changed_or_missing_files_are_refused(library, tmp_path):
    export_library(tmp_path / "backup")
    with pytest.raises(LibraryError, match="a library is already exported there"):
        export_library(tmp_path / "backup")
    path = tmp_path / "backup" / "KR1d0026" / "KR1d0026_001.txt"
    path.write_bytes(path.read_bytes() + b"x")
    with pytest.raises(LibraryError, match=r"KR1d0026_001.txt: changed since it was exported \(sha256 "):
        read_manifest(tmp_path / "backup")
    path.unlink()
    count = Juan.objects.count()
    with pytest.raises(CommandError, match="KR1d0026_001.txt: listed in the manifest but missing"):
        call_command("import_library", str(tmp_path / "backup"))
    assert Juan.objects.count() == count  # nothing imported


def test_commands(library, tmp_path, capsys):
    call_command("export_library", str(tmp_path / "out"))
    assert capsys.readouterr().out == (f"exported 2 works, 5 juans to {tmp_path / 'out'} (manifest.json); checked: "
                                       f"every juan stored is in it once and reads back as itself\n")
    with muted():
        Work.objects.all().delete()
    call_command("import_library", str(tmp_path / "out"))
    assert capsys.readouterr().out == f"imported 2 works, 5 juans from {tmp_path / 'out'}\n"
    assert Juan.objects.count() == 5


def test_a_restore_into_a_database_that_holds_juans_is_refused_unless_asked(library, tmp_path, capsys):
    """``import_library DIR`` into a database that held 214 juans replaced them without a word,
    where the docs say "into an empty, migrated database": it is refused, naming what is stored
    and ``--replace``; with ``--replace`` each juan of the backup replaces its stored one and a
    juan the backup does not hold stays."""
    export_library(tmp_path / "backup")
    capsys.readouterr()
    call_command("import_texts", str(SEED), "--work", "別名", "--juan", "11", stdout=io.StringIO())
    before = snapshot()
    assert len(before) == 6
    with pytest.raises(CommandError) as info:
        call_command("import_library", str(tmp_path / "backup"))
    assert str(info.value) == (
        f"{tmp_path / 'backup'}: the database already holds 6 juans of 3 works; a backup is restored into an empty "
        f"database, so nothing was imported. To import it over them, run import_library --replace: each juan of the "
        f"backup replaces the stored juan of its edition and number, and the others stay")
    assert snapshot() == before
    call_command("import_library", str(tmp_path / "backup"), "--replace")
    assert capsys.readouterr().out == (f"imported 2 works, 5 juans from {tmp_path / 'backup'} "
                                       f"(5 replaced a juan already stored)\n")
    assert snapshot() == before  # the same juans again, and 別名 卷十一, which the backup does not hold


def test_a_manifest_reads_only_files_inside_its_folder(library, tmp_path):
    """``import_library`` took the manifest's paths as they were, so a
    backup folder could name an absolute path, ``../`` or a link to a file elsewhere
    (import_texts refuses those, issue 19), and a manifest without keys was a traceback."""
    export_library(tmp_path / "backup")
    backup = tmp_path / "backup"
    manifest = json.loads((backup / "manifest.json").read_text())
    outside = tmp_path / "outside.txt"
    shutil.copy(backup / "KR1d0026" / "KR1d0026_001.txt", outside)
    (backup / "KR1d0026" / "link.txt").symlink_to(outside)
    (backup / "linked").symlink_to(backup / "KR1d0026")
    for path, shown in ((str(outside), outside), ("../outside.txt", backup / "../outside.txt"),
                        ("KR1d0026/link.txt", backup / "KR1d0026" / "link.txt"),
                        ("linked/KR1d0026_001.txt", backup / "linked" / "KR1d0026_001.txt")):
        entry = {**manifest["files"][0], "path": path, "sha256": hashlib.sha256(outside.read_bytes()).hexdigest()}
        (backup / "manifest.json").write_text(json.dumps({**manifest, "files": [entry]}))
        with pytest.raises(LibraryError) as info:
            read_manifest(backup)
        assert str(info.value) == (f"{shown}: not read: a manifest names only files inside its folder, not links "
                                   f"or paths outside it"), path
    (backup / "manifest.json").write_text(json.dumps({**manifest, "files": [{"path": "a.txt"}]}))
    with pytest.raises(LibraryError, match='every entry of "files" needs the keys imported_sha256, juan, path, '
                                           'sha256, source_format, work'):
        read_manifest(backup)


def _two_of_one_name(tmp_path):
    """卷十 and 卷十一 of the seed's work, imported from two folders as files named juan.txt."""
    text = SEED.read_text(encoding="utf-8")
    for folder, label in (("a", "十"), ("b", "十一")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "juan.txt").write_text(text.replace("禮書綱目卷十", f"禮書綱目卷{label}"), encoding="utf-8")
        with muted():
            import_file(tmp_path / folder / "juan.txt")


def test_two_juans_from_files_of_one_name_are_both_backed_up_and_restored(empty_db, tmp_path, capsys):
    """They were written one over the other, the export still said it succeeded, and
    import_library then refused the whole backup (issue 29)."""
    _two_of_one_name(tmp_path)
    before = snapshot()
    call_command("export_library", str(tmp_path / "backup"))
    assert capsys.readouterr().out.endswith("checked: every juan stored is in it once and reads back as itself\n")
    manifest = read_manifest(tmp_path / "backup")
    assert [(e["path"], e["juan"], e["label"]) for e in manifest["files"]] == [
        ("禮書綱目/juan.txt", 10, "卷十"), ("禮書綱目/juan_011.txt", 11, "卷十一")]
    with muted():
        Work.objects.all().delete()
    call_command("import_library", str(tmp_path / "backup"))
    assert capsys.readouterr().out == f"imported 1 works, 2 juans from {tmp_path / 'backup'}\n"
    assert snapshot() == before


def test_a_backup_that_lost_a_file_is_not_reported_written(empty_db, tmp_path, monkeypatch):
    from reader import library as module

    _two_of_one_name(tmp_path)
    monkeypatch.setattr(module, "_file_name", lambda juan, taken: "juan.txt")  # the old naming: one over the other
    with pytest.raises(CommandError) as info:
        call_command("export_library", str(tmp_path / "backup"))
    assert str(info.value).startswith(f"the backup in {tmp_path / 'backup'} is not complete: "
                                      f"{tmp_path / 'backup' / '禮書綱目' / 'juan.txt'}: ")


def test_a_backup_that_misses_a_juan_of_the_database_is_refused(empty_db, tmp_path):
    _two_of_one_name(tmp_path)
    export_library(tmp_path / "backup")
    twelve = tmp_path / "juan12.txt"
    twelve.write_text(SEED.read_text(encoding="utf-8").replace("禮書綱目卷十", "禮書綱目卷十二"), encoding="utf-8")
    import_file(twelve)  # stored after the backup: the backup no longer matches the database
    from reader.library import verify_export

    with pytest.raises(LibraryError) as info:
        verify_export(tmp_path / "backup")
    assert str(info.value) == (f"{tmp_path / 'backup' / 'manifest.json'}: the backup does not match the database "
                               f"(not in the backup: 禮書綱目 juan 12); the library changed while it was exported, or "
                               f"the backup is incomplete: export it again into an empty folder")


def test_named_editions_of_one_work_are_restored_apart(empty_db, tmp_path, capsys):
    """import_library put every juan of a work without a Kanripo ID into its unnamed edition,
    so a second edition's 卷十 replaced the first's."""
    call_command("import_texts", str(SEED), stdout=io.StringIO())
    call_command("import_texts", str(SEED), "--edition", "校本", stdout=io.StringIO())
    before = snapshot()
    assert sorted(before) == [("禮書綱目", 10), ("禮書綱目-校本", 10)]
    export_library(tmp_path / "backup")
    with muted():
        Work.objects.all().delete()
    import_library(tmp_path / "backup", index=False)
    assert snapshot() == before


def test_a_backup_file_that_is_another_juan_replaces_nothing(library, tmp_path):
    """A backup replaces only the juans its manifest names: a file listed as 卷十 that is 卷十一
    is refused before anything is imported."""
    export_library(tmp_path / "backup")
    backup = tmp_path / "backup"
    path = backup / "禮書綱目" / SEED.name
    path.write_text(SEED.read_text(encoding="utf-8").replace("禮書綱目卷十", "禮書綱目卷十一"), encoding="utf-8")
    manifest = json.loads((backup / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"] == f"禮書綱目/{SEED.name}")
    entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (backup / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False))
    before = snapshot()
    with pytest.raises(CommandError) as info:
        call_command("import_library", str(backup))
    assert str(info.value) == (f"{path}: listed as 禮書綱目 juan 10, but the file is 禮書綱目 juan 11; nothing was "
                               f"imported (a backup replaces only the juans it names)")
    assert snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_restore_whose_index_cannot_follow_fails_naming_the_repair(empty_transactional_db, tmp_path, monkeypatch,
                                                                     search_backend):
    import errno

    from search import indexing

    _two_of_one_name(tmp_path)
    export_library(tmp_path / "backup")
    with muted():
        Work.objects.all().delete()

    def full(backend, changes):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(indexing, "reindex_juans", full)
    with pytest.raises(CommandError) as info:
        call_command("import_library", str(tmp_path / "backup"), stdout=io.StringIO())
    assert str(info.value).startswith("2 juans imported, but the search index could not be updated (cannot write ")
    assert "run `python manage.py check_index --repair`" in str(info.value)
    assert Juan.objects.count() == 2


def test_an_export_writes_only_inside_its_folder(empty_db, tmp_path):
    """A juan's stored source name is only a name: one that reads as a path (``../../x.txt``,
    an absolute path) is written inside the edition's folder, and the backup still restores."""
    _two_of_one_name(tmp_path)
    first, second = Juan.objects.order_by("number")
    Juan.objects.filter(pk=first.pk).update(source_name="../../outside.txt")
    Juan.objects.filter(pk=second.pk).update(source_name=str(tmp_path / "absolute.txt"))
    manifest = export_library(tmp_path / "out" / "backup")
    assert [e["path"] for e in manifest["files"]] == ["禮書綱目/outside.txt", "禮書綱目/absolute.txt"]
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["a/juan.txt", "b/juan.txt", "out/backup/manifest.json", "out/backup/禮書綱目/absolute.txt",
                       "out/backup/禮書綱目/outside.txt"]


def test_an_export_writes_nothing_into_a_folder_that_holds_files_or_links(empty_db, tmp_path):
    """A link left in the target was written through (a file
    elsewhere got a juan's text; a linked edition folder got the backup's files), and the
    files of an earlier, interrupted export were written over. Only an empty folder is taken."""
    _two_of_one_name(tmp_path)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "secret.txt").write_text("precious\n")
    for name, make in (("file-link", lambda t: ((t / "禮書綱目").mkdir(), (t / "禮書綱目" / "juan.txt").symlink_to(
                           victim / "secret.txt"))),
                       ("folder-link", lambda t: (t / "禮書綱目").symlink_to(victim)),
                       ("stale", lambda t: (t / "notes.txt").write_text("mine\n"))):
        target = tmp_path / name
        target.mkdir()
        make(target)
        before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
        with pytest.raises(CommandError) as info:
            call_command("export_library", str(target))
        held = {"file-link": "禮書綱目", "folder-link": "禮書綱目", "stale": "notes.txt"}[name]
        assert str(info.value) == (f"the backup in {target} is not complete: {target}: not empty (it holds {held}); "
                                   f"a backup is written only into an empty or new folder; nothing was exported")
        assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before
        assert (victim / "secret.txt").read_text() == "precious\n"
        assert sorted(p.name for p in victim.iterdir()) == ["secret.txt"]
    (tmp_path / "empty").mkdir()
    assert export_library(tmp_path / "empty")["juans"] == 2  # an empty folder is taken


def test_a_malformed_manifest_is_a_clear_error_not_a_traceback(library, tmp_path):
    """A manifest that is a JSON list or not UTF-8, or an entry whose
    path holds a NUL or is too long for the file system, or whose juan is a list, ended
    import_library in a traceback (AttributeError, UnicodeDecodeError, ValueError, OSError,
    TypeError)."""
    export_library(tmp_path / "backup")
    backup = tmp_path / "backup"
    good = json.loads((backup / "manifest.json").read_text())
    where = backup / "manifest.json"
    count = Juan.objects.count()

    def refused(data: bytes) -> str:
        where.write_bytes(data)
        with pytest.raises(CommandError) as info:
            call_command("import_library", str(backup), stdout=io.StringIO())
        assert Juan.objects.count() == count
        return str(info.value)

    def entry(**change) -> bytes:
        return json.dumps({**good, "files": [{**good["files"][0], **change}]}, ensure_ascii=False).encode()

    assert refused(b"[1]") == f"{where}: not a manifest (a JSON list, not an object)"
    assert refused(b"\xff\xfe{}") == (f"{where}: not UTF-8 text (byte 0: invalid start byte); is this a manifest "
                                      f"written by export_library?")
    prefix = f'{where}: entry 1 of "files" is not one export_library writes: '
    assert refused(entry(path="KR1d0086/a\u0000b.txt")) == (
        prefix + "'path' 'KR1d0086/a\\x00b.txt' is not a file name (empty, a control character, or over 1024 "
                 "bytes); nothing was read")
    assert refused(entry(juan=[1])) == prefix + "'juan' is list '[1]'; nothing was read"
    assert refused(entry(path=5)) == prefix + "'path' is int '5'; nothing was read"
    assert refused(entry(edition=["KR1d0086"])) == prefix + "'edition' is list \"['KR1d0086']\"; nothing was read"
    assert refused(entry(sha256="0" * 63)) == prefix + f"'sha256' is not 64 hexadecimal digits ('{'0' * 63}'); " \
                                                       f"nothing was read"
    long = "KR1d0086/" + "a" * 300 + ".txt"
    assert refused(entry(path=long)) == f"{backup / long}: cannot be read (File name too long)"


def test_juans_imported_with_work_and_juan_are_backed_up_and_restored(empty_db, tmp_path, capsys):
    """A juan imported with --work/--juan (a file without a title
    line, or the seed named 別名 卷十一) read back from the backup as another juan (plain 卷一,
    禮書綱目 卷十), so export_library failed for the whole library, which could not be backed up."""
    plain = tmp_path / "src" / "plain.txt"
    plain.parent.mkdir()
    plain.write_text("".join(SEED.read_text(encoding="utf-8").splitlines(keepends=True)[2:50]), encoding="utf-8")
    call_command("import_texts", str(plain), "--work", "測試", "--juan", "3", stdout=io.StringIO(), stderr=io.StringIO())
    call_command("import_texts", str(SEED), "--work", "別名", "--juan", "11", stdout=io.StringIO())
    before = snapshot()
    assert sorted(before) == [("別名", 11), ("測試", 3)]
    manifest = export_library(tmp_path / "backup")
    assert sorted((e["work"], e["juan"], e.get("given_work"), e.get("given_juan")) for e in manifest["files"]) == [
        ("別名", 11, True, True), ("測試", 3, True, True)]
    with muted():
        Work.objects.all().delete()
    call_command("import_library", str(tmp_path / "backup"))
    assert capsys.readouterr().out == f"imported 2 works, 2 juans from {tmp_path / 'backup'}\n"
    assert snapshot() == before


def test_a_class_and_a_script_the_operator_gave_are_backed_up_and_restored(empty_db, tmp_path):
    """A work given its class with ``import_texts --class`` and an edition given its script with
    ``--script`` keep them through a backup: the seed is 禮類 only because the operator said so
    (it has no Kanripo ID), and a restore once put it under 未分類."""
    call_command("import_texts", str(SEED), "--class", "KR1d", "--script", "mixed", stdout=io.StringIO())
    export_library(tmp_path / "backup")
    entry = read_manifest(tmp_path / "backup")["files"][0]
    assert (entry["classification"], entry["shu"], entry["script"]) == ("KR1d", "", "mixed")
    with muted():
        Work.objects.all().delete()
    import_library(tmp_path / "backup", index=False)
    work = Work.objects.get()
    edition = work.editions.get()
    assert (work.classification, edition.script, edition.script_given) == ("KR1d", "mixed", True)


def test_a_class_the_catalogue_lacks_in_a_manifest_is_refused(empty_db, tmp_path):
    call_command("import_texts", str(SEED), "--class", "KR1d", stdout=io.StringIO())
    export_library(tmp_path / "backup")
    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text())
    manifest["files"][0]["classification"] = "KR9z"
    (tmp_path / "backup" / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False))
    with muted():
        Work.objects.all().delete()
    with pytest.raises(LibraryError, match="'classification' 'KR9z' is not a class of the catalogue"):
        import_library(tmp_path / "backup", index=False)
    assert not Work.objects.exists()  # refused before anything was stored


def test_a_manifest_number_too_long_or_a_boolean_format_is_refused(library, tmp_path):
    """A manifest whose juan is a number of 5,000 digits ended import_library
    in a traceback (ValueError: Python's limit on integer string conversion, raised inside
    ``json.loads``); ``"format": true`` was taken for format 1 (``True == 1``)."""
    export_library(tmp_path / "backup")
    backup = tmp_path / "backup"
    where = backup / "manifest.json"
    text = where.read_text(encoding="utf-8")
    count = Juan.objects.count()

    def refused(data: str) -> str:
        where.write_text(data, encoding="utf-8")
        with pytest.raises(CommandError) as info:
            call_command("import_library", str(backup), stdout=io.StringIO())
        assert Juan.objects.count() == count
        return str(info.value)

    assert '"juan": 10,' in text
    assert refused(text.replace('"juan": 10,', '"juan": ' + "9" * 5000 + ",", 1)) == (
        f"{where}: not valid JSON (a number of more than 4300 digits); is this a manifest written by export_library?")
    assert '"format": 1,' in text
    assert refused(text.replace('"format": 1,', '"format": true,', 1)) == (
        f"{where}: unknown manifest format True (expected 1)")
