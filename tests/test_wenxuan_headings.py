"""文選註 (李善, KR4h0002) 卷十九: a 部 line over a 類 line, each alone on its line as deep as the other
(``　詩`` over ``　補亡``, over the title ``　　補亡詩六首(…``), are two headings, not words of the piece above
(``lines.heads_over_a_piece``): the 類 heads the chapter of 補亡詩六首, the 部 is its category. A 類's notes
alone in a section (``　情(…)``, ``　勸勵(…)``: the chapter heading's notes) name no piece's author
(``anthology_titles.category_headings``). Real files of ``../shared/corpus/kanripo-commentary``; each
writes back byte for byte."""
from reader.citation import citation_text
from reader.importers.document import NOTE, TEXT
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.lines import heads_over_a_piece

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"
NINETEEN = BOOKS / "KR4h0002" / "KR4h0002_019.txt"


def parse(path):
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    return doc


def test_a_genre_line_over_a_class_line_are_two_headings():
    head = ["　　補亡詩六首(四言并序郷補亡詩序曰晳與同業疇人肄修鄉飲之禮然所詠之詩或)¶",
            "　　　(有義無辭音樂取節闕而不備於是遙/想既往存思在昔補著其文以綴舊制)¶", "<pb:KR4h0002_WYG_019-20b>¶",
            "　　　東廣微(王隠晉書曰束晳字廣微平陽陽平人也…)¶", "南陔孝子相戒以養也(…)¶"]
    assert heads_over_a_piece("　詩¶", "　補亡¶", head)
    # the same two short lines over a book's blocks or a list, with no author under a title, are left as read
    assert not heads_over_a_piece("　彖下傳¶", "　咸感也¶", ["　　本義(釋卦/名義)集說(劉氏牧曰卦以)¶", "咸感也…¶"])
    assert not heads_over_a_piece("　引用姓氏¶", "　周¶", ["　　荀氏(况/)¶", "　　左氏(丘明/)¶"])
    # flush lines, or a title no deeper, are no such heads
    assert not heads_over_a_piece("詩¶", "補亡¶", head)
    assert not heads_over_a_piece("　詩¶", "　補亡¶", ["　補亡詩六首(四言)¶"] + head[3:])
    doc = parse(NINETEEN)
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [
        ("情", "", "情"), ("補亡", "詩", "詩補亡"), ("述徳", "", "述徳"), ("勸勵", "", "勸勵")]
    assert [[s.title for s in c.sections] for c in doc.chapters] == [
        ["", "髙唐賦", "", "神女賦", "登徒子好色賦", "洛神賦", ""], ["補亡詩六首"], ["述祖徳詩二首"],
        ["", "諷諫詩", "勵志詩"]]
    luoshen_end = doc.chapters[0].sections[-1]
    assert [p.text for p in luoshen_end.pieces if p.kind == TEXT][-1] == "命僕夫而就駕吾將歸乎東路攬騑轡以抗䇿悵盤桓而不能去"
    assert not any("詩補亡" in p.text for p in doc.all_pieces() if p.kind == TEXT)


def test_a_class_note_alone_names_no_author():
    doc = parse(NINETEEN)
    qing, quanli = doc.chapters[0].sections[0], doc.chapters[3].sections[0]
    assert [(p.kind, p.text) for p in quanli.pieces] == [(NOTE, "勸者進善之名勵者朂已之稱")]
    assert (qing.bylines, quanli.bylines) == ([], [])
    # the piece's sections cut for size keep its author
    assert [[b["name"] for b in s.bylines] for s in doc.chapters[0].sections] == [
        [], ["宋玉"], ["宋玉"], ["宋玉"], ["宋玉"], ["曹子建"], ["曹子建"]]
    # 卷七: 耕藉(…) after 甘泉賦 (揚子雲), 畋獵(…) after 藉田賦 (潘安仁)
    seven = parse(BOOKS / "KR4h0002" / "KR4h0002_007.txt")
    assert [(c.title, c.sections[0].title, c.sections[0].bylines) for c in seven.chapters] == [
        ("郊祀", "", []), ("耕藉", "", []), ("畋獵", "", [])]


def test_citations_of_the_class_and_its_pieces(db):
    juan = import_file(NINETEEN).juan
    assert render_source(juan) == NINETEEN.read_text(encoding="utf-8")
    assert [c.title for c in juan.chapters.order_by("position")] == ["情", "補亡", "述徳", "勸勵"]
    buwang = juan.sections.get(title="補亡詩六首")
    assert citation_text(buwang) == (
        "〔梁〕蕭統編　〔唐〕李善註《文選註》卷十九〈補亡〉東廣微「補亡詩六首」（四庫全書・文淵閣本，葉 19-20a）")
    notes = [s for s in juan.sections.order_by("position") if not s.title and s.line in (11, 480)]
    # the 類's note is cited under its 類, with no piece nor author (勸勵's was cited 〈勸勵〉謝靈運)
    assert [citation_text(s) for s in notes] == [
        "〔梁〕蕭統編　〔唐〕李善註《文選註》卷十九〈情〉（四庫全書・文淵閣本，葉 19-1a）",
        "〔梁〕蕭統編　〔唐〕李善註《文選註》卷十九〈勸勵〉（四庫全書・文淵閣本，葉 19-27a）"]


def test_the_reading_page_shows_the_class_with_its_genre(db, client):
    import_file(NINETEEN)
    page = client.get("/works/KR4h0002/juan/19/").content.decode()
    assert "《文選註》卷十九〈情〉〈補亡〉〈述徳〉〈勸勵〉（四庫全書・文淵閣本，Kanripo KR4h0002_019）" in page
    # each 類 heads its chapter, the 部 printed over 補亡 as its category; 勸勵's note, the whole of
    # §10 (listed 勸勵 in the contents), is §10's text under the heading, no numbered empty section
    heads = [page.index(f'<h2 class="chapter-title">{h}') for h in (
        "情</h2>", '補亡 <span class="category">詩</span></h2>', "述徳</h2>", "勸勵</h2>")]
    assert heads == sorted(heads)
    assert '<li><a href="#s10">勸勵</a>' in page and '<p class="heading-note">' not in page
    assert page.index('<p class="passage"><span class="note layer-commentary" data-layer="注" id="s10-p0" role="note">'
                      '<span class="visually-hidden">注（李善）：</span>勸者進善之名勵者朂已之稱</span></p>') > heads[3]
    assert "卷十九〈勸勵〉（四庫全書・文淵閣本，葉 19-27a）" in page and "〈勸勵〉謝靈運" not in page
    assert "不能去詩補亡" not in page
