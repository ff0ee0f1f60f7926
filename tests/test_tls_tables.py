"""The tls 史記 (``../shared/corpus/kanripo-commentary/KR2a0001``): its ten 表 are juans named by
their chapters, its numbered headings under org stars are titled without the tls number, and the
rows of its tables are text, never headings (``reader.importers.mandoku.tls``)."""
import ast

from reader.importers.mandoku import tls
from reader.importers.mandoku.tls import org_title
from reader.table_cells import table_row, table_rows
from reader.tables import paragraph_blocks

from .conftest import BASE_DIR, SHARED
from .conftest import parse_written_back as parse  # written back byte for byte

SHIJI = SHARED / "corpus" / "kanripo-commentary" / "KR2a0001"
ZHOUYI = SHARED / "corpus" / "kanripo-references" / "KR1a0001"


def test_each_biao_file_is_labelled_by_its_chapter():
    """The ten files of the 表 opened with ``** 2 表`` and were all labelled 表; each holds one
    chapter (``*** 2.1　《三代世表》``), whose name labels it. The group files keep their group's
    name (紀, 書, 世家, 傳: several chapters each)."""
    docs = {path.stem[-3:]: parse(path) for path in sorted(SHIJI.glob("KR2a0001_*.txt"))}
    assert {k: d.juan_label for k, d in docs.items()} == {
        "100": "紀", "201": "三代世表", "202": "十二諸侯年表", "203": "六國年表", "204": "秦楚之際月表",
        "205": "漢興以來諸侯王年表", "206": "高祖功臣侯者年表", "207": "惠景閒侯者年表", "208": "建元以來侯者年表",
        "209": "建元已來王子侯者年表", "210": "漢興以來將相名臣年表", "300": "書", "400": "世家", "500": "傳"}
    for key in [f"2{n:02d}" for n in range(1, 11)]:  # one chapter, titled without its tls number
        assert [c.title for c in docs[key].chapters] == [docs[key].juan_label]
    assert [c.title for c in docs["300"].chapters][:3] == ["禮書第一", "樂書第二", "律書第三"]


def test_a_table_row_with_org_stars_is_no_chapter():
    """KR2a0001_205.txt:196 ``*** 公元前|206高祖元年|楚|　|¶`` (the 年表's header row) was a
    chapter of its own, titled by the row, over the table's sections."""
    doc = parse(SHIJI / "KR2a0001_205.txt")
    assert [c.title for c in doc.chapters] == ["漢興以來諸侯王年表"]
    texts = ["".join(p.text for p in s.pieces) for s in doc.chapters[0].sections]
    assert len(texts) == 7
    assert any("***公元前|206高祖元年|楚|" in t.replace("\u3000", "").replace(" ", "") for t in texts)


def test_table_and_heading_rules():
    assert (table_row("*** 公元前|206高祖元年|楚|　|¶"), table_row("*** 2.10　《漢興以來將相名臣年表》|"),
            table_row("** 2 表")) == (True, False, False)
    assert [org_title(t) for t in ("2.1　《三代世表》　　　　", "2.10　《漢興以來將相名臣年表》|", "表", "《乾第一》")] == [
        "三代世表", "漢興以來將相名臣年表", "表", "《乾第一》"]
    raw = "帝王世國號|顓頊屬|俈屬||\n黃帝號有熊。|¶\n黃帝生昌意。|¶\n　||\n帝外壬，¶\n中丁弟。|¶\n　|　|"
    assert table_rows(raw) == [["帝王世國號", "顓頊屬", "俈屬"], ["黃帝號有熊。", "黃帝生昌意。", ""],
                               ["帝外壬，中丁弟。", "", ""]]
    assert table_rows("太史公曰：¶\n五帝、三代之記，尚矣。|") is None
    # a run of three marks closes a cell, an empty cell and the row
    assert table_rows("公元前|206高祖元年|¶\n淮陽|長沙|||\n205二|都彭城。|¶\n　||") == [
        ["公元前", "206高祖元年", "淮陽", "長沙", ""], ["205二", "都彭城。", ""]]


def test_zhouyi_headings_keep_their_form():
    """周易 (tls, ``** 《乾第一》``): a heading with no tls number is left as it is, and its file
    keeps its heading for label (the Readme.org names it 〈乾〉第一 on import, ``reader.juans``)."""
    assert [parse(ZHOUYI / f"KR1a0001_{n:03d}.txt").juan_label for n in (1, 2, 3)] == ["《乾第一》", "《坤第二》", "《屯第三》"]


def test_the_reading_pages_read_cells_with_the_parsers_rule_from_reader_not_from_the_importer():
    """``reader.tables`` (the reading pages) read a table's cells with the one rule the parser uses to
    tell a row from a heading, ``reader.table_cells``: it imported it from the mandoku parser's
    ``tls`` module, an importer's internals. The parser takes it from there too."""
    tree = ast.parse((BASE_DIR / "reader" / "tables.py").read_text(encoding="utf-8"))
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "reader.table_cells" in modules
    assert not {m for m in modules if m.startswith("reader.importers.mandoku")}
    assert (tls.table_rows, tls.table_row) == (table_rows, table_row)


def test_a_biao_section_shows_its_table_with_the_same_rule():
    """三代世表 (KR2a0001_201.txt:44): its first section's paragraphs show two paragraphs of text, then
    one table of 33 rows, read by the rule the parser uses (``reader.table_cells``)."""
    section = parse(SHIJI / "KR2a0001_201.txt").sections[0]
    blocks = paragraph_blocks(section.paragraphs)
    assert [len(b.rows) if b.rows else None for b in blocks] == [None, None, 33]
    assert [["".join(part.text for part in cell) for cell in row] for row in blocks[2].rows[:2]] == [
        ["帝王世國號", "顓頊屬", "俈屬", "堯屬", "舜屬", "夏屬", "殷屬", "周屬"],
        ["黃帝號有熊。", "黃帝生昌意。", "黃帝生玄囂。", "黃帝生玄囂。", "黃帝生昌意。", "黃帝生昌意。", "黃帝生玄囂。", "黃帝生玄囂。"]]


def test_a_table_cell_is_rendered_as_text_with_its_highlight_corrections_and_annotations(db, client):
    """A cell goes through the rendering of every piece (``{% pieces %}`` on ``reader.tables.cell_part``):
    a search's hits are marked in it, an accepted correction of characters inside the table shows
    in its cell with its 「校」 link, an annotation stands beside its characters in the cell, and
    each part of the table's piece has an id of its own."""
    import re

    from django.contrib.auth.models import Group, User

    from corrections.workflow import accept, propose
    from reader.importers.loader import import_file
    from reader.models import Piece
    from search.signals import muted

    with muted():
        juan = import_file(SHIJI / "KR2a0001_201.txt").juan
    table = Piece.objects.get(section__juan=juan, section__position=1, text__startswith="帝王世國號")
    people = []
    for name, role in (("contributor", "contributor"), ("editor", "editor")):
        people.append(User.objects.create_user(name))
        people[-1].groups.add(Group.objects.get_or_create(name=role)[0])
    at = table.text.index("有熊")
    fix = propose(people[0], juan, kind="text", section=1, piece=table.position, start=at, end=at + 2,
                  replacement="有熊氏", reason="他本作有熊氏")
    at = table.text.index("顓頊屬")
    note = propose(people[0], juan, kind="annotation", section=1, piece=table.position, start=at, end=at + 2,
                   replacement="顓頊之後", reason="注")
    accept(fix, people[1])
    accept(note, people[1])
    html = client.get("/works/KR2a0001/juan/13/1/", {"hl": "黃帝生"}).content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 33
    header, first = rows[0], rows[1]
    assert re.search(r'<td><span class="text" id="s1-p\d+-\d+"><span class="annotated-text">顓頊</span>'
                     r'<input type="checkbox" class="annotation-toggle" id="an-\d+">'
                     r'<label class="annotation-marker" for="an-\d+" title="讀者注記：點擊展開">注記</label>'
                     r'<span class="annotation" role="note"><a href="[^"]+">注記</a><span class="annotated">「顓頊」</span>'
                     r'顓頊之後<span class="annotator">—contributor</span></span>屬</span></td>', header), header
    assert re.search(r'<th scope="row"><span class="text" id="s1-p\d+-\d+">黃帝號<span class="corrected">有熊氏</span>'
                     r'<a class="corr-mark" href="[^"]+" title="[^"]*">', first), first
    assert re.findall(r"<td>(.*?)</td>", first, re.S)[0].startswith(f'<span class="text" id="s1-p{table.position}-')
    assert first.count("<mark>黃帝生</mark>") == 7
    ids = re.findall(r' id="(s1-p\d+(?:-\d+)?)"', html)
    assert len(ids) == len(set(ids))
    # the piece writes the header row and the first row: sixteen cells, none empty, one element each
    assert len([i for i in ids if i.split("-")[1] == f"p{table.position}"]) == 16
    # the simplified display converts a cell as it converts text, the stored characters kept for the look-up
    simplified = client.get("/works/KR2a0001/juan/13/1/", {"script": "simp"}).content.decode()
    first = re.findall(r"<tr>(.*?)</tr>", simplified, re.S)[1]
    assert re.search(r'<th scope="row"><span class="text" id="s1-p\d+-\d+" data-orig="黃帝號有熊氏。">黄帝号'
                     r'<span class="corrected">有熊氏</span>', first), first
