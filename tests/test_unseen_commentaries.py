"""Commentary books of kinds the shared corpus lacks, read from excerpts of their Kanripo files in
``tests/fixtures/unseen`` (its README names each file's repository, commit and lines): a 子部 注
that lists its 篇 (人物志, 劉昞注), a 集部 注 of one compiler (李太白集注, 王琦), and a 兵家 book
whose notes are printed at full size, each opening 註曰 (黄石公素書, 張商英註)."""
from pathlib import Path

import pytest

from reader.importers.bylines import parse_byline
from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.appended import compiler_notes
from reader.importers.mandoku.contents import listed_heading
from reader.importers.mandoku.said_blocks import said_marker

FIXTURES = Path(__file__).parent / "fixtures" / "unseen"


def _read(name: str):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return text, parse_mandoku(text, name)


def _pieces(doc):
    return [p for s in doc.sections for p in s.pieces]


def _chars(doc) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in _pieces(doc):
        out[p.effective_layer] = out.get(p.effective_layer, 0) + len(p.text)
    return out


def test_renwuzhi_its_list_of_pian_names_each_pian_heading():
    """人物志 (四部叢刊) lists its four 篇 under the bylines two by two (``九徴一　體别二``) and
    prints each 篇 flush with its note (``體别第二(禀氣隂陽…)``): the list was classic text and
    the 篇 titles were the classic too, their notes 劉昞's notes inside the text."""
    text, doc = _read("KR3j0011_001.txt")
    assert render_mandoku(doc) == text
    assert [c.title for c in doc.chapters] == ["", "九徴第一", "體别第二", "流業第三", "材理第四"]
    assert [(p.kind, p.text) for p in doc.chapters[0].sections[0].pieces] == [
        (LABEL, "九徴一\u3000體别二"), (LABEL, "流業三\u3000材理四")]
    second = doc.chapters[2].sections[0].pieces
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in second[:3]] == [
        (NOTE, "commentary", "劉昞", "禀氣隂陽性有剛柔拘抗文質體越各别"),
        (TEXT, "classic", "", "夫中庸之徳其質無名"),
        (NOTE, "commentary", "劉昞", "汎然不繫一貌人無得而稱焉")]
    assert all("第" not in p.text for p in _pieces(doc) if p.kind == TEXT)
    assert len(_pieces(doc)) == 35
    assert _chars(doc) == {"classic": 157, "commentary": 275}
    # named as his byline prints him: the catalogue's 劉炳 (劉彥昺集, KR4e0035) is of 明, not 凉,
    # though search folds 昞 as 炳 (reader/person_names.py)
    assert {p.commentator for p in _pieces(doc) if p.kind == NOTE} == {"劉昞"}
    assert doc.trailer_lines == ["人物志卷上¶"]


def test_renwuzhi_bylines_keep_the_liang_dynasty_and_leave_offices_out():
    """「魏　散騎常侍劉　邵　撰」 / 「凉　儒林祭酒劉　昞　注」: 劉昞 served 西涼 and 北涼; his
    dynasty was lost (he was given 魏) and 散騎常侍 was read as part of 劉邵's name."""
    _, doc = _read("KR3j0011_001.txt")
    assert doc.bylines == [{"dynasty": "魏", "place": "", "name": "劉邵", "role": "撰"},
                           {"dynasty": "凉", "place": "", "name": "劉昞", "role": "注"}]
    assert parse_byline("北涼劉昞注") == ("北涼", "", "劉昞")


def test_a_listed_title_is_a_heading_only_as_the_list_names_it():
    titles = ["九徴一", "體别二"]
    assert listed_heading("體别第二(禀氣隂陽性有剛柔/拘抗文質體越各别)¶", titles)
    assert listed_heading("九徴第一¶", titles)
    assert not listed_heading("體别第二之人(…)¶", titles)  # the words run on: text
    assert not listed_heading("流業第三(…)¶", titles)  # not in the list
    assert not listed_heading("體别第二(甲)乙¶", titles)  # text after the note


def test_libai_jizhu_notes_are_the_compilers():
    """李太白集注 prints 「錢塘　王𤦺　撰」 and no commentator's role: what 王琦 撰 is the notes
    (he signs his own remarks 琦按 among them), so they are his, not nobody's."""
    text, doc = _read("KR4c0014_002.txt")
    assert render_mandoku(doc) == text
    assert doc.bylines == [{"dynasty": "", "place": "錢塘", "name": "王𤦺", "role": "撰"}]
    assert [s.title for s in doc.sections] == ["古風五十九首", "其二"]
    notes = [(p.commentator, p.layer_name, p.text[:8]) for p in _pieces(doc) if p.kind == NOTE]
    assert notes == [("王𤦺", "注", "一作蹉跎"), ("王𤦺", "注", "繆本作重"),
                     ("王𤦺", "注", "鄭𤣥毛詩箋小雅大"), ("王𤦺", "注", "淮南子精神訓月中")]
    assert _chars(doc) == {"classic": 204, "commentary": 1016}
    assert compiler_notes("李太白集注", doc.bylines) == [("王𤦺", "注")]
    # a book not titled a commentary, or of two authors, names nobody so
    assert compiler_notes("李太白集", doc.bylines) == []
    assert compiler_notes("人物志注", [{"name": "劉邵", "role": "撰"}, {"name": "劉昞", "role": "撰"}]) == []


def test_sushu_notes_opening_with_zhu_yue_are_zhang_shangyings():
    """黄石公素書 (WYG) prints the classic flush and each of 張商英's notes two columns in,
    opening 註曰, a 篇 heading with its own: the notes were the classic, the title line
    「　黄石公素書」 (黄 for the catalogue's 黃) a section title, the byline a label, and short
    sentences of the classic section titles."""
    text, doc = _read("KR3b0009_000.txt")
    assert render_mandoku(doc) == text
    assert doc.bylines == [{"dynasty": "宋", "place": "", "name": "張商英", "role": "註"}]
    assert [c.title for c in doc.chapters] == ["原始章第一", "正道章第二"]
    assert [s.title for s in doc.sections] == ["", ""]
    first = doc.chapters[0].sections[0].pieces
    assert [(p.kind, p.effective_layer, p.commentator, p.text) for p in first[:5]] == [
        (LABEL, "commentary", "張商英", "註曰"), (TEXT, "commentary", "張商英", "道不可以無始"),
        (TEXT, "classic", "", "夫道徳仁義禮五者一體也"),
        (LABEL, "commentary", "張商英", "註曰"),
        (TEXT, "commentary", "張商英", "離而用則有五合而渾之則為一一之所以貫五五所以衍一")]
    assert len(_pieces(doc)) == 19
    assert _chars(doc) == {"classic": 54, "commentary": 158}
    assert {(p.layer_name, p.layer_basis) for p in _pieces(doc) if p.effective_layer == "commentary"} == {("注", "marked")}
    assert doc.trailer_lines == ["\u3000黄石公素書¶"]
    assert said_marker(doc.bylines) == "註曰"
    assert said_marker([{"name": "范祖禹", "role": "撰"}]) == ""


@pytest.mark.django_db(transaction=True)
def test_the_sushu_imports_and_writes_back(empty_transactional_db, tmp_path, client):
    path = tmp_path / "KR3b0009_000.txt"
    path.write_bytes((FIXTURES / "KR3b0009_000.txt").read_bytes())
    juan = import_file(path).juan
    assert render_source(juan) == (FIXTURES / "KR3b0009_000.txt").read_text(encoding="utf-8")
    payload = client.get(f"/api/editions/{juan.edition.pk}/juans/{juan.number}/").json()
    assert [c["title"] for c in payload["chapters"]] == ["原始章第一", "正道章第二"]


def test_wuyuan_zhouyi_jie_its_list_of_gua_is_no_commentary():
    """吳園周易解 卷二 opens with 「　上經(泰/豫)　(否/隨)　(同人臨大有/蠱      觀)　(謙/)」, the 卦
    of 上經 the juan holds: it was read as 張根's 解, indented as his paragraphs are."""
    text, doc = _read("KR1a0019_002.txt")
    head = doc.sections[0].pieces
    # the juan's contents entry: one label as printed, its notes' brackets and column breaks layout
    assert [(p.kind, p.text, p.layout) for p in head] == [
        (LABEL, "上經泰豫\u3000否隨\u3000同人臨大有蠱      觀\u3000謙",
         [(0, "\u3000"), (2, "("), (3, "/"), (4, ")"), (5, "("), (6, "/"), (7, ")"), (8, "("), (13, "/"),
          (21, ")"), (22, "("), (23, "/)¶\n")])]
    assert all(not p.commentator for p in head)
    assert {p.effective_layer for p in head} == {"classic"}
    # in the chapter of the first 卦, 泰, whose figure opens the next section; 否's figure (printed
    # ䷘, 无妄's, over the trigrams 坤下乾上 of 否) opens its chapter
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [("泰", "上經", ""), ("否", "上經", "")]
    assert doc.sections[1].pieces[0].text == "䷊"
    assert doc.chapters[1].sections[0].pieces[:2][0].text == "䷘"
    assert render_mandoku(doc) == text

