"""Importing into the database: counts, idempotency, atomicity, the command's summary."""
import shutil

import pytest
from django.core.management import CommandError, call_command

from reader.importers.errors import TextFormatError
from reader.importers.loader import import_file, render_source
from reader.importers import loader
from reader.models import Chapter, Juan, Piece, Section, Work

from .conftest import CASES, SEED


def counts():
    return (Work.objects.count(), Juan.objects.count(), Chapter.objects.count(), Section.objects.count(),
            Piece.objects.count())


@pytest.mark.usefixtures("empty_db")
def test_seed_import_counts(seed_text):
    result = import_file(SEED)
    juan = result.juan
    assert (juan.work.title, juan.work.author, juan.work.native_place, juan.number, juan.label) == \
        ("禮書綱目", "江永", "婺源", 10, "卷十")
    assert (result.sections, result.notes, result.replaced) == (45, 328, False)
    assert juan.sections.count() == 45
    assert Piece.objects.filter(kind__in=["note", "record_note"]).count() == 328
    assert Piece.objects.filter(kind="record_note").count() == 6  # 1 + 4 + 1 on lines 44, 56, 60
    assert list(juan.sections.order_by("position").values_list("title", flat=True)[:2]) == ["戒百官", "張侯"]
    assert juan.sections.get(position=45).title == "賓出公入"
    note = Piece.objects.get(kind="record_note", source_tag="同上")
    assert (note.text, note.source) == ("不袒纁襦厭於君也今文無射", "鄉射記")
    assert render_source(juan) == seed_text


@pytest.mark.usefixtures("empty_db")
def test_reimport_replaces_without_duplicates():
    import_file(SEED)
    before = counts()
    result = import_file(SEED)
    assert result.replaced is True
    assert counts() == before == (1, 1, 1, 45, before[4])


@pytest.mark.usefixtures("empty_db")
def test_rejected_file_stores_nothing():
    import_file(SEED)
    before = counts()
    for name in ["empty.txt", "binary.bin", "gbk_encoded.txt"]:
        with pytest.raises(TextFormatError):
            import_file(CASES / name)
    assert counts() == before


@pytest.mark.usefixtures("empty_db")
@pytest.mark.parametrize("name,note,sections,notes", [
    ("stray_close.txt", "stray_close.txt:8:4: 】 without a matching 【: kept as text", 2, 7),
    ("unclosed_note.txt", "unclosed_note.txt:5:92: 【 is not closed before the next 【 at column 159 "
                          "(notes cannot nest): kept as text", 2, 6),
])
def test_damaged_brackets_import_with_a_located_note(name, note, sections, notes, capsys):
    """A stray or unclosed 【】 in the seed form is kept as text: the juan lands whole, the
    command names file, line and column, and the file writes back byte for byte."""
    call_command("import_texts", str(CASES / name))
    out, err = capsys.readouterr()
    assert f"note: {CASES / note}" in err + out
    juan = Juan.objects.get()
    assert (juan.sections.count(), Piece.objects.filter(section__juan=juan, kind="note").count()) == (sections, notes)
    assert render_source(juan) == (CASES / name).read_text(encoding="utf-8")


@pytest.mark.usefixtures("empty_db")
def test_failure_during_load_rolls_back(monkeypatch):
    import_file(SEED)
    before = counts()

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(loader, "_insert_pieces", boom)  # the pieces are the last rows written
    with pytest.raises(RuntimeError):
        import_file(SEED)
    assert counts() == before
    assert render_source(Juan.objects.get()) == SEED.read_text(encoding="utf-8")


@pytest.mark.usefixtures("empty_db")
def test_bom_crlf_imports_like_lf_and_writes_back_exactly():
    juan = import_file(CASES / "bom_crlf.txt").juan
    assert [s.title for s in juan.sections.all()] == ["戒百官", "張侯"]
    assert render_source(juan).encode("utf-8") == (CASES / "bom_crlf.txt").read_bytes()


@pytest.mark.django_db(transaction=True)
def test_command_summary_and_rejections(tmp_path, search_backend, capsys):
    folder = tmp_path / "texts"
    folder.mkdir()
    shutil.copy(SEED, folder / "a_seed.txt")
    shutil.copy(CASES / "binary.bin", folder / "b_bad.txt")
    eleven = (CASES / "markup_in_note.txt").read_text(encoding="utf-8").replace("禮書綱目卷十", "禮書綱目卷十一")
    (folder / "c_eleven.txt").write_text(eleven, encoding="utf-8")
    shutil.copy(SEED, folder / "d_same_juan.txt")
    with pytest.raises(CommandError) as info:
        call_command("import_texts", str(folder))
    assert str(info.value) == "2 of 4 files rejected; nothing was stored from them"
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == "1 works, 2 juans, 47 sections, 335 notes imported; 2 files rejected"
    assert f"rejected {folder / 'b_bad.txt'}:1:1: not a text file: NUL byte (binary data?)" in err
    assert (f"rejected {folder / 'd_same_juan.txt'}:1:1: claims the same work and juan (禮書綱目 卷十) as "
            f"{folder / 'a_seed.txt'}, imported earlier in this run") in err
    # stderr is not a terminal here (a log, a pipe): the rejections and notes, no progress bar redrawn with \r.
    assert "\r" not in err and "file/s" not in err
    # (a seed an earlier test left in the database is replaced, and the import says so first)
    assert [line.split(":")[0] for line in err.splitlines() if not line.startswith("replacing 禮書綱目")] == [
        f"rejected {folder / 'b_bad.txt'}", f"rejected {folder / 'd_same_juan.txt'}"]
    assert list(Juan.objects.order_by("number").values_list("number", "label")) == [(10, "卷十"), (11, "卷十一")]
    assert Section.objects.count() == 47
    # The index followed the commits: both juans' passages are there, nothing else.
    assert search_backend.juan_ids() == set(Juan.objects.values_list("pk", flat=True))


@pytest.mark.usefixtures("empty_db")
def test_command_names_a_headless_file(capsys):
    call_command("import_texts", str(CASES / "no_header.txt"), "--work", "禮書綱目", "--juan", "10")
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"imported {CASES / 'no_header.txt'}: 禮書綱目 卷十 (2 sections, 7 notes)",
        "1 works, 1 juans, 2 sections, 7 notes imported",
    ]
    assert err == ""


@pytest.mark.usefixtures("empty_db")
def test_command_gb18030(capsys):
    call_command("import_texts", str(CASES / "gbk_encoded.txt"), "--encoding", "gb18030")
    assert Juan.objects.get().sections.count() == 2


def test_command_missing_path():
    with pytest.raises(CommandError, match="nowhere.txt: no such file or folder"):
        call_command("import_texts", "nowhere.txt")


def test_headless_file_named_with_work_joins_the_existing_work(seed_juan, capsys):
    # its 2 sections replace the seed's 45 only when asked (decision 0125)
    call_command("import_texts", str(CASES / "no_header.txt"), "--work", "禮書綱目", "--juan", "10", "--allow-shrink")
    out, _ = capsys.readouterr()
    assert out.splitlines()[0] == f"replaced {CASES / 'no_header.txt'}: 禮書綱目 卷十 (2 sections, 7 notes)"
    assert list(Work.objects.values_list("title", "author")) == [("禮書綱目", "江永")]
    assert Juan.objects.get().sections.count() == 2


@pytest.mark.usefixtures("empty_db")
def test_overriding_the_juan_number_relabels_the_juan():
    juan = import_file(CASES / "bom_crlf.txt", work_title="測試書", juan_number=3).juan
    assert (juan.work.title, juan.number, juan.label) == ("測試書", 3, "卷三")


def test_an_import_rolled_back_leaves_the_default_index_as_it_was(seed_backend, capsys):
    """The command inside a caller's transaction (the test's, rolled back after it) writes the
    index only when that transaction commits: the session's default index keeps the seed for the
    tests after this file (before, a replaced seed juan left the index without its 鼓 and 鼔, and
    tests/test_api.py::test_exact_values failed when run after this file)."""
    from search.backends import SearchQuery

    before = (seed_backend.version(), seed_backend.juan_ids(), seed_backend.search(SearchQuery("鼔")).count)
    call_command("import_texts", str(CASES / "no_header.txt"), "--work", "禮書綱目", "--juan", "10", "--allow-shrink")
    assert "replaced" in capsys.readouterr().out
    assert (seed_backend.version(), seed_backend.juan_ids(), seed_backend.search(SearchQuery("鼔")).count) == before
    assert before[2] > 0


#: What the importer does with each file of ``../shared/cases/import`` (its README names what
#: a user expects), as docs/importing.md ("The import cases") says: ``("rejected", message)``
#: or ``("imported", sections, notes, warning)``. The folder's README expects the two damaged
#: brackets to be refused; the importer keeps damaged markup as text (docs/importing.md).
IMPORT_CASES = {
    "unclosed_note.txt": ("imported", 2, 6, "unclosed_note.txt:5:92: 【 is not closed before the next 【 at column "
                                            "159 (notes cannot nest): kept as text"),
    "stray_close.txt": ("imported", 2, 7, "stray_close.txt:8:4: 】 without a matching 【: kept as text"),
    "gbk_encoded.txt": ("rejected", "gbk_encoded.txt:1:1: not valid utf-8"),
    "bom_crlf.txt": ("imported", 2, 7, None),
    "empty.txt": ("rejected", "empty.txt:1:1: empty file: there is no text to import"),
    "binary.bin": ("rejected", "binary.bin:1:1: not a text file: NUL byte (binary data?)"),
    "no_header.txt": ("imported", 2, 7, "no_header.txt: no title line; the work title is taken from the file "
                                        "name: 'no_header' (use --work to name it)"),  # and juan 1 (--juan)
    "markup_in_note.txt": ("imported", 2, 7, None),
    "astral_chars.txt": ("imported", 45, 328, None),
}


def test_every_import_case_is_listed_in_the_cases_readme_and_in_the_docs():
    """Each file of the cases folder has its row in the folder's README and in the docs'
    table, whose outcome is the one ``IMPORT_CASES`` holds the importer to."""
    from pathlib import Path

    readme = (CASES / "README.md").read_text(encoding="utf-8")
    docs = (Path(__file__).resolve().parents[1] / "docs" / "importing.md").read_text(encoding="utf-8")
    files = sorted(p.name for p in CASES.iterdir() if p.name != "README.md")
    assert files == sorted(IMPORT_CASES)
    for name, expected in IMPORT_CASES.items():
        assert f"| {name} |" in readme
        row = next(line for line in docs.splitlines() if line.startswith(f"| `{name}` |"))
        assert row.split("|")[3].strip().startswith("rejected" if expected[0] == "rejected" else "imported"), row


@pytest.mark.usefixtures("empty_db")
@pytest.mark.parametrize("name", sorted(IMPORT_CASES))
def test_each_import_case_as_documented(name):
    expected = IMPORT_CASES[name]
    if expected[0] == "rejected":
        with pytest.raises(TextFormatError) as info:
            import_file(CASES / name)
        assert str(info.value).startswith(f"{CASES / name}:{expected[1].split(':', 1)[1]}")
        assert counts() == (0, 0, 0, 0, 0)
        return
    result = import_file(CASES / name)
    juan = result.juan
    assert (juan.sections.count(), Piece.objects.filter(section__juan=juan, kind__in=["note", "record_note"]).count()
            ) == expected[1:3]
    warned = [w for w in result.warnings if "work title" in w or "kept as text" in w]
    assert warned == ([f"{CASES / expected[3]}"] if expected[3] else [])


@pytest.mark.django_db(transaction=True)
def test_a_reimport_keeps_the_juans_a_file_does_not_change_and_indexes_only_what_changed(
        tmp_path, search_backend, empty_transactional_db, capsys):
    """Importing a folder again stores and indexes only the juans whose rows the files change
    (``reader.importers.loader.StoredForm``): an unchanged juan is kept as it is (same id, no
    index write, said so); a juan with one character changed is stored and re-indexed; a juan
    the index lacks is stored again (the import repairs the index); ``--store-unchanged`` stores
    every juan again."""
    from reader.signals import juans_changed
    from search.backends.base import SearchQuery

    folder = tmp_path / "texts"
    folder.mkdir()
    shutil.copy(SEED, folder / "a_seed.txt")
    eleven = (CASES / "markup_in_note.txt").read_text(encoding="utf-8").replace("禮書綱目卷十", "禮書綱目卷十一")
    (folder / "c_eleven.txt").write_text(eleven, encoding="utf-8")
    call_command("import_texts", str(folder))
    capsys.readouterr()
    ten, first_eleven = Juan.objects.get(number=10), Juan.objects.get(number=11)
    before, generation = counts(), search_backend.version()
    indexed = search_backend.indexed_juans()
    sent = []

    def told(sender, changes, **kwargs):
        sent.append(list(changes))

    juans_changed.connect(told, dispatch_uid="test_reimport_told")
    try:
        call_command("import_texts", str(folder))
        out, _ = capsys.readouterr()
        assert out.splitlines() == [
            f"unchanged {folder / 'a_seed.txt'}: 禮書綱目 卷十 (45 sections, 328 notes): kept as stored, not indexed again",
            f"unchanged {folder / 'c_eleven.txt'}: 禮書綱目 卷十一 (2 sections, 7 notes): kept as stored, not indexed "
            f"again",
            "1 works, 2 juans, 47 sections, 335 notes imported (2 juans unchanged, kept as stored and not indexed again)"]
        # nothing written: the same rows, the same juans, no index write, the same generation
        assert counts() == before and set(Juan.objects.values_list("pk", flat=True)) == {ten.pk, first_eleven.pk}
        assert sent == [] and search_backend.version() == generation and search_backend.indexed_juans() == indexed

        # one character of 卷十一's main text changed: that juan alone is stored and re-indexed
        assert eleven.count("大射之儀") == 1
        (folder / "c_eleven.txt").write_text(eleven.replace("大射之儀", "大射之禮"), encoding="utf-8")
        call_command("import_texts", str(folder))
        out, _ = capsys.readouterr()
        new_eleven = Juan.objects.get(number=11)
        assert out.splitlines()[:2] == [
            f"unchanged {folder / 'a_seed.txt'}: 禮書綱目 卷十 (45 sections, 328 notes): kept as stored, not indexed again",
            f"replaced {folder / 'c_eleven.txt'}: 禮書綱目 卷十一 (2 sections, 7 notes)"]
        assert new_eleven.pk != first_eleven.pk and Juan.objects.get(number=10).pk == ten.pk
        assert sent == [[(new_eleven.pk, first_eleven.pk)]]
        assert search_backend.juan_ids() == {ten.pk, new_eleven.pk}
        assert [h.juan_id for h in search_backend.search(SearchQuery("大射之禮")).hits] == [new_eleven.pk]
        assert [h.juan_id for h in search_backend.search(SearchQuery("大射之儀")).hits] == [ten.pk]

        # a juan the index lacks is stored again, whatever the file: the import repairs the index
        sent.clear()
        search_backend.remove_juan(ten.pk)
        call_command("import_texts", str(folder / "a_seed.txt"))
        out, _ = capsys.readouterr()
        assert out.splitlines() == [f"replaced {folder / 'a_seed.txt'}: 禮書綱目 卷十 (45 sections, 328 notes)",
                                    "1 works, 1 juans, 45 sections, 328 notes imported"]
        new_ten = Juan.objects.get(number=10)
        assert sent == [[(new_ten.pk, ten.pk)]] and search_backend.juan_ids() == {new_ten.pk, new_eleven.pk}

        # --store-unchanged: every juan stored and indexed again
        sent.clear()
        call_command("import_texts", str(folder), "--store-unchanged")
        out, _ = capsys.readouterr()
        assert [line.split(" ")[0] for line in out.splitlines()[:2]] == ["replaced", "replaced"]
        assert len(sent) == 2 and {old for changes in sent for _, old in changes} == {new_ten.pk, new_eleven.pk}
    finally:
        juans_changed.disconnect(dispatch_uid="test_reimport_told")
