"""The tls 史記 (``../shared/corpus/kanripo-commentary/KR2a0001``) read as the book's 130 juans: its 14
files hold its five groups (紀 ``_100``, the ten 表 ``_201``–``_210``, 書 ``_300``, 世家 ``_400``, 傳 ``_500``,
the 70 列傳 in one file), and each 篇 is a 卷 of the book, numbered by its place in the folder's
``Readme.org`` table (``reader.importers.mandoku.tls.book_juans``, ``juan_cuts``, ``split_juans``;
``reader.importers.loader.file_juans``). The other tls texts (周禮, 左傳, 周易) stay one juan a file."""
import hashlib
import shutil

import pytest

from reader.citation import juan_citation_text
from reader.importers.files import read_document
from reader.importers.loader import file_juans, import_file, juan_key
from reader.importers.mandoku.tls import book_juans, heading_number
from reader.importers.mandoku.writer import render_mandoku
from reader.juans import juan_count
from reader.library import export_library, import_library
from reader.models import Juan, Work
from search.signals import muted

from .conftest import SHARED

CORPUS = SHARED / "corpus"
SHIJI = CORPUS / "kanripo-commentary" / "KR2a0001"
#: The other tls editions of the shared corpus (``#+PROPERTY: BASEEDITION tls``).
OTHER_TLS = [CORPUS / "kanripo" / "KR1d0001", CORPUS / "kanripo" / "KR1e0001", CORPUS / "kanripo-references" / "KR1a0001"]


def test_the_readme_table_numbers_the_books_juans():
    """史記's table lists its 130 篇 in the book's order, 120 of them with their ordinal in their group
    (``5.1 〈伯夷列傳〉第一``; the ten 表 none): the place of each is its juan. 周禮's offices
    (``1.1 〈大宰〉``), 左傳's years (``A1.1 〈隱公元年〉經``) and 周易's files (``〈乾〉第一``) number no 篇."""
    shiji = book_juans((SHIJI / "Readme.org").read_text(encoding="utf-8"), "史記")
    assert len(shiji) == 130
    assert [shiji[n] for n in ("1.1", "1.12", "2.1", "2.10", "3.1", "4.1", "4.27", "5.1", "5.70")] == [
        1, 12, 13, 22, 23, 31, 57, 61, 130]
    assert [book_juans((folder / "Readme.org").read_text(encoding="utf-8")) for folder in OTHER_TLS] == [{}, {}, {}]
    assert book_juans(None) == {}
    assert [heading_number(h) for h in ("5.2《管晏列傳第二》", "*** 2.1\u3000《三代世表》\u3000\u3000", "1 1.12《孝武本紀》",
                                        "A1.1《隱公元年經》", "** 5 傳", None)] == ["5.2", "2.1", "1.12", "A1.1", "", ""]


@pytest.mark.slow
def test_shiji_is_130_juans_numbered_by_the_book_and_every_file_writes_back():
    """Before: 14 juans (juan 500 held the 70 列傳, 305,410 characters); after: 130, 卷一 … 卷一百三十,
    each one chapter (130 chapters before and after, 621 sections), and each file's juans written
    back in order are the file, byte for byte."""
    juans = []
    for path in sorted(SHIJI.glob("KR2a0001_*.txt")):
        doc = read_document(path)
        parts = file_juans(doc)
        assert "".join(render_mandoku(p) for p in parts) == path.read_text(encoding="utf-8")
        juans.extend((path.name, p) for p in parts)
    assert [juan_key(p) for _, p in juans] == list(range(1, 131))
    assert sum(len(p.chapters) for _, p in juans) == 130 and sum(len(p.sections) for _, p in juans) == 621
    by_number = {juan_key(p): (name, p) for name, p in juans}
    name, first = by_number[61]
    assert (name, first.juan_label, [c.title for c in first.chapters]) == ("KR2a0001_500.txt", "卷六十一", ["伯夷列傳第一"])
    assert first.sections[0].pieces[0].text.startswith("夫學者載籍極博，")
    assert first.header_lines[-2:] == ["** 5 傳", ""]  # the group's heading goes with its first 篇
    name, last = by_number[130]
    assert (last.juan_label, [c.title for c in last.chapters], last.header_lines) == ("卷一百三十", ["太史公自序第七十"], [])
    assert last.sections[0].pieces[0].text.startswith("昔在顓頊，命南正重以司天")
    assert [(by_number[n][0], by_number[n][1].juan_label, by_number[n][1].chapters[0].title) for n in (12, 13, 22, 23, 60)] == [
        ("KR2a0001_100.txt", "卷十二", "孝武本紀"), ("KR2a0001_201.txt", "卷十三", "三代世表"),
        ("KR2a0001_210.txt", "卷二十二", "漢興以來將相名臣年表"), ("KR2a0001_300.txt", "卷二十三", "禮書第一"),
        ("KR2a0001_400.txt", "卷六十", "三王世家第三十")]
    assert {name for name, p in juans if p.file_sequence is not None} == set()


@pytest.mark.slow
def test_the_other_tls_files_stay_one_juan_each():
    """周禮 (6 files), 左傳 (12) and 周易 (69): one juan a file, numbered by the file, as before."""
    for folder, files in zip(OTHER_TLS, (6, 12, 69)):
        paths = sorted(folder.glob("*.txt"))
        assert len(paths) == files
        for path in paths:
            doc = read_document(path)
            assert (doc.juan_cuts, [juan_key(p) for p in file_juans(doc)]) == ([], [doc.file_sequence])


def _folder(tmp_path, names, readme=True):
    into = tmp_path / "KR2a0001"
    into.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(SHIJI / name, into)
    if readme:
        shutil.copy(SHIJI / "Readme.org", into)
    return into


@pytest.mark.django_db
def test_imported_as_the_books_juans_replacing_the_files_juan(empty_db, tmp_path, client):
    """A library that held 紀 as juan 100 (the file imported without its Readme) gets 卷一 … 卷十二 in its
    place when the folder is imported again: juan 100 goes, so the text is held once; the work page
    counts the book's juans, and a juan's page is at the book's number."""
    into = _folder(tmp_path, ["KR2a0001_100.txt", "KR2a0001_201.txt"], readme=False)
    with muted():
        assert [import_file(into / n).juan.number for n in ("KR2a0001_100.txt", "KR2a0001_201.txt")] == [100, 201]
    shutil.copy(SHIJI / "Readme.org", into)
    with muted():
        first = import_file(into / "KR2a0001_100.txt")
        table = import_file(into / "KR2a0001_201.txt")
    assert (first.juan.number, table.juan.number) == (1, 13)
    assert len(first.superseded) == 1 and len(table.superseded) == 1
    juans = Juan.objects.filter(edition__slug="KR2a0001").order_by("number")
    assert [(j.number, j.label) for j in juans][:3] + [(j.number, j.label) for j in juans][-2:] == [
        (1, "卷一"), (2, "卷二"), (3, "卷三"), (12, "卷十二"), (13, "卷十三")]
    assert str(juan_count(juans)) == "13 卷"
    assert '<p class="juan-count">13 卷</p>' in client.get("/works/KR2a0001/").content.decode()
    page = client.get("/works/KR2a0001/juan/12/")
    assert page.status_code == 200 and "孝武皇帝者，孝景中子也。" in page.content.decode()
    assert client.get("/works/KR2a0001/juan/100/").status_code == 404
    juan = juans.get(number=12)  # the address's number is the book's: the citation names no file (decision 0045)
    assert juan_citation_text(juan, juan.chapters.order_by("position")) == (
        "〔漢〕司馬遷《史記》卷十二〈孝武本紀〉（TLS標點本）")


@pytest.mark.django_db
def test_a_file_of_several_juans_is_backed_up_as_the_file_and_restored(empty_db, tmp_path):
    """The backup writes 紀 once, as the file (its 12 juans written back in order), each juan listed with
    the 篇 it opens with; restored, the library is the same 13 juans."""
    into = _folder(tmp_path, ["KR2a0001_100.txt", "KR2a0001_201.txt"])
    with muted():
        import_file(into / "KR2a0001_100.txt")
        import_file(into / "KR2a0001_201.txt")
    before = [(j.number, j.label, j.sha256, j.chapters.count(), j.sections.count())
              for j in Juan.objects.filter(edition__slug="KR2a0001").order_by("number")]
    manifest = export_library(tmp_path / "backup")
    assert [(e["juan"], e["path"], e.get("tls_number")) for e in manifest["files"]][::11] == [
        (1, "KR2a0001/KR2a0001_100.txt", "1.1"), (12, "KR2a0001/KR2a0001_100.txt", "1.12")]
    assert manifest["files"][-1]["tls_number"] == "2.1"
    data = (tmp_path / "backup" / "KR2a0001" / "KR2a0001_100.txt").read_bytes()
    assert data == (SHIJI / "KR2a0001_100.txt").read_bytes()
    assert {e["sha256"] for e in manifest["files"][:12]} == {hashlib.sha256(data).hexdigest()}
    with muted():
        Work.objects.all().delete()
    restored = import_library(tmp_path / "backup", index=False)
    assert len(restored.files) == 13
    assert [(j.number, j.label, j.sha256, j.chapters.count(), j.sections.count())
            for j in Juan.objects.filter(edition__slug="KR2a0001").order_by("number")] == before


@pytest.mark.django_db(transaction=True)
def test_import_texts_says_what_a_file_gave_before_and_the_index_follows(empty_transactional_db, tmp_path,
                                                                         search_backend):
    """``import_texts`` over the folder again, now with its Readme: 三代世表 was juan 201 and is 卷十三;
    the command says juan 201 went, and the index holds 卷十三 alone."""
    from io import StringIO

    from django.core.management import call_command

    from search.backends import SearchQuery, get_search_backend

    into = _folder(tmp_path, ["KR2a0001_201.txt"], readme=False)
    call_command("import_texts", str(into), stdout=StringIO(), stderr=StringIO())
    shutil.copy(SHIJI / "Readme.org", into)
    out, err = StringIO(), StringIO()
    call_command("import_texts", str(into), stdout=out, stderr=err)
    assert "removed 1 juan(s) that KR2a0001_201.txt gave before and gives no more" in err.getvalue() + out.getvalue()
    assert list(Juan.objects.values_list("number", "label")) == [(13, "卷十三")]
    found = get_search_backend().search(SearchQuery("黃帝生"))
    assert {h.juan_number for h in found.hits} == {13} and found.count == 7
