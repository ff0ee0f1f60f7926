"""Who wrote each layer of a book (``reader.book_writers``): the main text is never a commentary
book's commentator, on every work of ``kanripo-commentary/`` (their catalogue entries and the
bylines the importer reads, as ``import_texts`` stores them), and one dynasty per person."""
from types import SimpleNamespace

import pytest

from reader.book_writers import BookWriters, book_people, main_dynasties, main_writers
from reader.catalogue_writers import dynasty_spelling
from reader.importers.errors import NoTextError, TextFormatError
from reader.importers.mandoku import parse_mandoku
from reader.importers.source import decode_bytes
from reader.people import work_people

from .conftest import SHARED

COMMENTARY = SHARED / "corpus" / "kanripo-commentary"

#: Each work's main text's authors, its unnamed notes' writers, and whether its catalogue or
#: byline names a commentator as its author (read row by row: decision 0038).
EXPECTED = {
    "KR2a0001": BookWriters(("司馬遷",), ()),
    "KR2a0002": BookWriters(("司馬遷",), ("裴駰",), True),     # 史記集解: 「裴駰撰」 wrote the 集解
    "KR2a0003": BookWriters(("司馬遷",), ("司馬貞",), True),
    "KR2a0004": BookWriters(("司馬遷",), ("張守節",), True),
    "KR2a0007": BookWriters(("班固",), ()),
    "KR2a0009": BookWriters(("范曄",), ()),
    "KR2a0012": BookWriters(("陳壽",), ()),
    "KR2k0058": BookWriters((), ("酈道元",), True),            # 水經注: the 水經's author is not listed
    "KR3a0002": BookWriters(("荀況",), ()),
    "KR3c0001": BookWriters(("管仲",), ()),
    "KR3c0005": BookWriters(("韓非",), ()),
    "KR3l0002": BookWriters(("劉義慶",), ()),
    "KR4a0002": BookWriters((), ("王逸",), True),              # 楚辭章句: 屈原's text is not 王逸's
    "KR4a0003": BookWriters((), ("洪興祖",), True),            # 楚辭補注: nor 王逸's nor 洪興祖's
    "KR4h0002": BookWriters(("蕭統",), ()),                    # 文選: its compiler (編); 李善 註
    "KR4h0003": BookWriters(("蕭統",), ()),
    "KR5c0065": BookWriters((), (), True),                       # 老子: 河上公 章句
    "KR5c0073": BookWriters((), (), True),                       # 老子: 王弼 註
    "KR5c0138": BookWriters((), (), True),                       # 莊子注: 郭象 注
    "KR5c0139": BookWriters((), (), True),                       # 南華真經註疏: 郭象, 成玄英
}


def _first_byline(folder):
    """``(work title, byline)`` as ``import_texts`` stores them: the title of the work's files, the
    byline of its first juan that prints one."""
    title, byline = "", []
    readme = folder / "Readme.org"
    for path in sorted(folder.glob("*.txt")):
        try:
            doc = parse_mandoku(decode_bytes(path.read_bytes(), str(path)), str(path),
                                readme.read_text(encoding="utf-8") if readme.exists() else None)
        except (NoTextError, TextFormatError):  # a file the importer refuses (a control character)
            continue
        title = title or doc.work_title
        if doc.bylines:
            return title, doc.bylines
    return title, byline


@pytest.mark.slow
def test_the_main_text_of_a_commentary_book_is_never_its_commentators():
    got = {}
    for kanripo_id in EXPECTED:
        title, byline = _first_byline(COMMENTARY / kanripo_id)
        work = SimpleNamespace(kanripo_id=kanripo_id, title=title, classification="", author="", dynasty="")
        got[kanripo_id] = main_writers(work, SimpleNamespace(kanripo_id=kanripo_id, byline=byline))
    assert got == EXPECTED


def test_a_dynasty_is_spelt_as_the_facets_show_it():
    assert (dynasty_spelling("淸"), dynasty_spelling("清"), dynasty_spelling("南唐"), dynasty_spelling("")) == (
        "清", "清", "南唐", "")


def _page_people(work, edition):
    """The work page's people (``reader.people.work_people``) as ``(name, role, dynasty)``."""
    return [(p["name"], p["role"], p["dynasty"]) for p in work_people(work, edition)]


@pytest.mark.slow
def test_the_facets_read_the_people_the_work_page_names():
    """南華真經註疏 and the two 老子 editions: the catalogue lists their people with no role, the
    byline prints each with his role; the facets and the page read them by one rule."""
    expected = {"KR5c0139": [("郭象", "注", "晉"), ("成玄英", "䟽", "唐")],
                "KR5c0065": [("河上公", "章句", "")],
                "KR5c0073": [("王弼", "註", "魏")]}
    got = {}
    for kanripo_id in expected:
        title, byline = _first_byline(COMMENTARY / kanripo_id)
        work = SimpleNamespace(kanripo_id=kanripo_id, title=title, classification="", author="", dynasty="")
        edition = SimpleNamespace(kanripo_id=kanripo_id, byline=byline)
        assert book_people(work, edition) == _page_people(work, edition)
        got[kanripo_id] = book_people(work, edition)
    assert got == expected


def test_a_byline_does_not_replace_the_people_the_catalogue_lists_without_a_role():
    """儀禮注疏: the catalogue lists 鄭玄 alone with no role; a byline printing 鄭氏注 and 賈公彥疏
    gives the page 〔漢〕鄭玄 (鄭氏 is not the catalogue's name), and the facets the same one person,
    where they took the byline's two; the classic's text is still no 漢 text."""
    work = SimpleNamespace(kanripo_id="KR1d0028", title="儀禮注疏", classification="", author="", dynasty="")
    edition = SimpleNamespace(kanripo_id="KR1d0028", byline=[{"name": "鄭氏", "role": "注", "dynasty": "漢"},
                                                             {"name": "賈公彥", "role": "疏", "dynasty": "唐"}])
    assert book_people(work, edition) == _page_people(work, edition) == [("鄭玄", "", "漢")]
    writers = main_writers(work, edition)
    assert writers == BookWriters((), ("鄭玄",), True)
    assert main_dynasties(work, writers) == ()
