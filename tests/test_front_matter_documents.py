"""Where a document of front matter ends (``reader.importers.mandoku.paratext``, ``documents``): a
part Kanripo names as one may hold several documents, each opened by its own title (at a page's
head, under a 四庫 copy's head, or with a byline) and each with its own writer, so a 御製 part's
writer ends where the next document starts. On real files of ``../shared/corpus``; each still
writes back byte for byte (``parse_written_back``)."""
import pytest

from reader.importers.document import COMMENTARY, PARATEXT
from reader.importers.mandoku.paratext import documents, front_juan
from reader.importers.mandoku.voices import OWN_NOTE
from search import facets
from search.backends import SearchQuery

from .conftest import SHARED
from .conftest import parse_written_back as parse
from .test_front_matter_notes import voices
from .test_paratext import engine_for, imported_copy
from .test_search_contract import BACKENDS

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
KANRIPO = SHARED / "corpus" / "kanripo"
LUNYU_0 = JINGBU / "KR1h0007" / "KR1h0007_000.txt"


def front_text(doc) -> dict:
    """Characters of ``doc``'s full-size front matter per (layer name, writer)."""
    return {(k[2], k[3]): n for k, n in voices(doc).items() if k[0] == "full" and k[1] == PARATEXT}


def test_lunyu_zhushu_front_matter_is_four_documents_not_one_imperial_writing():
    """論語注疏's ``_000`` is one part opening with 高宗's 御製讀論語: the 目錄 (under the 四庫 head and
    the book's title line on a page of its own), 陸德明's 論語注解傳述人 (his byline 陸徳明録) and 何晏's
    論語集解序 (何晏撰) were all 高宗's 御製; 御製無倦齊繹論語義 (a title of its own) stays his."""
    doc = parse(LUNYU_0, readme=True)
    assert front_juan(doc)
    assert [(title, [s.line for s in sections]) for title, sections in
            documents(doc, "", doc.chapters[0].sections)] == [
        ("", [9]), ("御製無倦齊繹論語義", [32]), ("目錄", [67, 156]), ("論語注解傳述人", [188]),
        ("論語集解序", [256, 265, 330, 372, 410])]
    # the 四庫 head over each page a document opens on (``欽定四庫全書　　　　　經部八`` and ``論語注疏　　　　　　　四書類``
    # over the 目錄, after the last line of 御製無倦齊繹論語義; ``欽定四庫全書`` over the 傳述人 and the 序) is the
    # book's, none of its writers' (book_head): 28 characters were 高宗's, 6 陸德明's, 6 何晏's
    assert front_text(doc) == {("御製", "高宗弘曆"): 272, ("目錄", ""): 107, ("傳述人", "陸德明"): 551,
                               ("序", "何晏"): 415, ("", ""): 40}
    head = [(p.text, p.layer_name, p.commentator) for p in doc.all_pieces() if p.text.startswith(("欽定四庫全書", "論語注疏"))]
    assert head == [("欽定四庫全書　　　　　經部八", "", ""), ("論語注疏　　　　　　　四書類", "", ""),
                    ("欽定四庫全書", "", ""), ("欽定四庫全書", "", "")]
    assert voices(doc)[("note", "readings", "音義", "陸德明")] == 410  # his notes in the 傳述人 and 序, as before


def test_the_emperors_note_on_his_own_poem_is_his():
    """御製無倦齊繹論語義 ends 「詎惟姑使自深思」 with 高宗's small-print note on it (「末句反程子註語意…」), which
    the 注疏's layer step left nobody's small print: it is his own note (自注), as his notes on his poems in
    前漢書's 卷首 are. The writers of the first sections' full-size pieces: 高宗 for his two poems, nobody for the
    四庫 heads (the one after 御製無倦齊繹論語義's last line heads the 目錄's page), the 目錄 and the 提要 (the
    editors'), 陸德明 for the 傳述人, 何晏 for his 序."""
    doc = parse(LUNYU_0, readme=True)
    note = next(p for p in doc.all_pieces() if p.text.startswith("末句反程子註語意"))
    assert (note.kind, note.effective_layer, note.layer_name, note.commentator) == (
        "note", COMMENTARY, OWN_NOTE, "高宗弘曆")
    writers = [(s.title, sorted({(p.layer_name, p.commentator) for p in s.pieces if p.kind != "note" and p.layer == PARATEXT}))
               for s in doc.chapters[0].sections[:6]]
    assert writers == [("御製讀論語", [("御製", "高宗弘曆")]), ("御製無倦齊繹論語義", [("", ""), ("御製", "高宗弘曆")]),
                       ("目錄", [("目錄", "")]), ("", []), ("論語注解傳述人", [("", ""), ("傳述人", "陸德明")]),
                       ("論語集解序", [("", ""), ("序", "何晏")])]


def test_books_not_looked_at_follow_the_same_rule():
    """孟子注疏 (KR1h0007's twin layout): its 目錄 and 孫奭's 孟子音義序 were 高宗's 御製 too. 尚書注疏
    (四部叢刊, no page break before it): 孔穎達's 尚書正義序, a title with his byline under it, after the
    editors' memorials. 禮書綱目 卷首上: 楊復's 序 (signed 楊復謹序) ends where 張虙's 序 starts on a new
    page. A title that ends in a word of front matter inside a page of text opens nothing: 儀禮義疏's
    釋宮 entry 「堂之東西牆謂之序」 (a wall) is not a 序."""
    mengzi = parse(JINGBU / "KR1h0003" / "KR1h0003_000.txt", readme=True)
    assert {k: n for k, n in front_text(mengzi).items() if k[0] in ("御製", "目錄", "序")} == {
        ("御製", "高宗弘曆"): 310, ("目錄", ""): 264, ("序", "孫奭"): 433}  # the 四庫 heads (28, 6) the book's
    shangshu = parse(JINGBU / "KR1b0003" / "KR1b0003_000.txt", readme=True)
    assert front_text(shangshu) == {("序", "秦奭"): 438, ("序", "無忌"): 368, ("序", "孔穎達"): 865}
    lishu = parse(KANRIPO / "KR1d0086" / "KR1d0086_001.txt", readme=True)
    assert front_text(lishu) == {("", ""): 2961, ("", "楊復"): 1066, ("序", "張虙"): 303}
    yili = parse(JINGBU / "KR1d0037" / "KR1d0037_002.txt", readme=True)
    assert front_text(yili) == {("", ""): 14766}
    assert len(documents(yili, "卷首下", yili.chapters[0].sections)) == 1


def test_a_signature_before_the_end_title_signs_the_document():
    """周禮詳解's 原序 ends 「…王昭禹光逺序」, then its title again on a line of its own (周禮詳解原序): the
    end title closes the document and is not its last words, so the signature names 王昭禹."""
    doc = parse(KANRIPO / "KR1d0005" / "KR1d0005_000.txt", readme=True)
    assert front_text(doc)[("序", "王昭禹")] == 485 + 6


def test_front_matter_text_read_as_commentary_by_layout_is_the_parts_text():
    """水經注's 提要 (in its 目録 part, no known writer) prints 「昌運發其光于蠧簡之中若有神物撝呵以待」 one
    place up for 昌運, as 酈道元's 注 is indented: it was 酈道元's 注."""
    doc = parse(SHARED / "corpus" / "kanripo-commentary" / "KR2k0058" / "KR2k0058_000.txt", readme=True)
    assert [p.text for p in doc.all_pieces() if p.effective_layer == COMMENTARY and p.kind == "text"] == []
    piece = next(p for p in doc.all_pieces() if p.text.startswith("昌運發其光"))
    assert (piece.effective_layer, piece.layer_name, piece.commentator) == (PARATEXT, "目録", "")


@pytest.fixture
def lunyu_0(tmp_path):
    yield imported_copy(tmp_path, LUNYU_0, readme=True)
    facets._tables.clear()


@pytest.fixture(params=sorted(BACKENDS))
def engine(request, settings, tmp_path, lunyu_0):
    return engine_for(settings, tmp_path, request.param, "frontdocs", lunyu_0)


@pytest.mark.django_db
def test_search_credits_he_yans_preface_to_him(engine):
    """「今集諸家之善」 is 何晏's 論語集解序: the author facet counts it under 何晏 of 魏, not 高宗弘曆 of 清;
    ``author=高宗弘曆`` no longer finds it."""
    results = engine.search(SearchQuery("今集諸家之善", exact=True))
    assert results.count == 1
    counted = facets.facet_counts(results)
    assert (counted["author"], counted["dynasty"]) == ([{"value": "何晏", "count": 1}], [{"value": "魏", "count": 1}])
    by_emperor = engine.search(SearchQuery("今集諸家之善", exact=True, written_by=facets.written_by_for(("高宗弘曆",))))
    assert by_emperor.count == 0
