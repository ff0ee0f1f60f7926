"""Bylines in the 文選 books' front matter credit the part; they never title a section (issue 27: a
byline is metadata, never text and never a section title)."""
from reader.importers.document import LABEL, NOTE, PARATEXT, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"
JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def _read(name: str, books=BOOKS):
    path = books / name[:8] / f"{name}.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    return doc


def test_liuchens_preface_bylines_under_the_note_on_its_first():
    """六臣註文選 卷首 prints under 六臣註文選序 the byline 梁昭明太子撰, a note on it (``(昭明/施謚曰)``), then
    ``唐李善註`` and ``唐吕延濟劉良張銑吕向李周`` over ``　翰註`` (李周翰's name cut by the line end). The last two
    lines were text of 昭明's 序 (``唐李善註唐吕延濟劉良張銑吕向李周``) and ``翰註`` a label titling its section; now
    they are layout, and 李善 and the 五臣 are the juan's byline with 昭明太子: the five names printed with no
    space between them before the role they share are read by the people the catalogue lists for the book
    (``bylines.listed_run``; 吕 as printed, the catalogue's 呂), each of 唐 and 註."""
    doc = _read("KR4h0003_000")
    assert doc.bylines == [{"dynasty": "梁", "place": "", "name": "昭明太子", "role": "撰"},
                           {"dynasty": "唐", "place": "", "name": "李善", "role": "註"}] + [
        {"dynasty": "唐", "place": "", "name": name, "role": "註"} for name in ("吕延濟", "劉良", "張銑", "吕向", "李周翰")]
    assert doc.author == "昭明太子撰　〔唐〕李善註　〔唐〕吕延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕吕向註　〔唐〕李周翰註"
    preface = doc.chapters[0].sections
    assert [s.title for s in preface[:2]] == ["", ""]
    assert "翰註" not in [s.title for s in doc.sections]
    first = preface[0].paragraphs
    assert [(p.kind, p.text) for p in first[0]] == [(NOTE, "昭明"), (NOTE, "施謚曰")]
    assert (first[1][0].kind, first[1][0].layer, first[1][0].text) == (TEXT, PARATEXT, "式觀元始眇覿玄風")
    # the byline lines are the layout before the 序's first words
    assert "".join(raw for _, raw in first[1][0].layout).startswith(
        "　　　　　　唐李善註¶\n　　　　　　唐吕延濟劉良張銑吕向李周¶\n　　　　　　　翰註¶\n")
    assert not [p for p in doc.all_pieces() if p.text.startswith(("唐李善註", "唐吕延濟")) or p.text == "翰註"]


def test_li_shans_preface_is_titled_by_its_title_not_its_byline():
    """文選註 卷首 prints ``文選原序`` over ``　　　梁昭明太子撰``: the section was titled 梁昭明太子撰; it is titled
    文選原序, and the byline line, a label, is its byline (昭明太子 with his dynasty and role)."""
    doc = _read("KR4h0002_000")
    chapter = next(c for c in doc.chapters if c.title == "原序")
    section = chapter.sections[0]
    assert section.title == "文選原序"
    assert section.bylines == [{"dynasty": "梁", "place": "", "name": "昭明太子", "role": "撰"}]
    assert [(p.kind, p.layer, p.commentator, p.text) for p in section.pieces[:2]] == [
        (LABEL, PARATEXT, "昭明太子", "文選原序"), (LABEL, PARATEXT, "昭明太子", "梁昭明太子撰")]
    assert "梁昭明太子撰" not in [s.title for s in doc.sections]
    # 六臣註文選 卷三 ``張平子　薛綜注`` (an author over his commentator, neither with a dynasty) is no writer's byline
    liuchen = _read("KR4h0003_003")
    assert not [s for s in liuchen.sections if any(b["name"] == "子薛綜" for b in s.bylines)]


def test_a_prefaces_writer_under_its_title_in_a_book_the_rule_was_not_made_on():
    """春秋左傳注疏 卷首 (KR1e0004, held back) prints ``春秋正義序`` over ``唐孔穎達著`` over the 序's flush text: the
    section was titled 唐孔穎達著; it is titled 春秋正義序 and 孔穎達 is its byline. A preface whose text under the
    writer's line is indented (論語集解義疏 卷首, its lines set apart by blank lines) is left as it was read."""
    doc = _read("KR1e0004_000", JINGBU)
    section = next(s for s in doc.sections if s.title == "春秋正義序")
    assert section.bylines == [{"dynasty": "唐", "place": "", "name": "孔穎達", "role": "著"}]
    assert "唐孔穎達著" not in [s.title for s in doc.sections]


def test_liuchens_edition_byline_names_the_five_officials(db):
    """The edition takes the 卷首's byline (the first juan with one): 昭明太子, 李善 and each of the 五臣, as printed."""
    from reader.importers.loader import import_file

    juan = import_file(BOOKS / "KR4h0003" / "KR4h0003_000.txt").juan
    assert [(p["dynasty"], p["name"], p["role"]) for p in juan.edition.byline] == [
        ("梁", "昭明太子", "撰"), ("唐", "李善", "註"), ("唐", "吕延濟", "註"), ("唐", "劉良", "註"), ("唐", "張銑", "註"),
        ("唐", "吕向", "註"), ("唐", "李周翰", "註")]
