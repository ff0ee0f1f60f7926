"""Headings and bylines printed on lines of their own that were read as text (issue 27, point 4):
a tls edition's 篇 heading with a stray number before it, a 篇's name under its numbered heading
(北齊書), and the 大題 and the commentator each on a line of his own with their notes (毛詩
四部叢刊 卷一). Each file still writes back byte for byte."""
from pathlib import Path

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def _read(path: Path):
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, path.name)
    assert render_mandoku(doc) == text
    return doc


def test_a_tls_heading_with_a_stray_number_before_it_is_a_heading():
    """史記 (tls, KR2a0001_100) prints ``1 1.12《孝武本紀》``: the 篇 was text of 孝景本紀's last section
    and its sections were titled 孝景本紀."""
    doc = _read(CORPUS / "kanripo-commentary" / "KR2a0001" / "KR2a0001_100.txt")
    titles = [c.title for c in doc.chapters]
    assert titles[titles.index("孝景本紀") + 1] == "孝武本紀"
    chapter = next(c for c in doc.chapters if c.title == "孝武本紀")
    assert chapter.heading == "1 1.12《孝武本紀》"
    assert chapter.sections[0].pieces[0].text.startswith("孝武皇帝者，")
    assert {s.title for s in chapter.sections} == {"孝武本紀"}
    assert not any("《孝武本紀》" in p.text for s in doc.sections for p in s.pieces)


def test_a_pians_name_under_its_numbered_heading_titles_its_section():
    """北齊書 (WYG) 卷二 prints 「　帝紀第二」 then 「神武下」 alone at the top of the column, the text
    opening on the next line: 神武下 was glued to 天平元年正月壬辰…."""
    doc = _read(Path(__file__).parent / "fixtures" / "unseen" / "KR2a0021_002.txt")
    section = doc.chapters[0].sections[0]
    assert (doc.chapters[0].title, section.title) == ("帝紀第二", "神武下")
    assert [(p.kind, p.text[:9]) for p in section.pieces] == [(LABEL, "神武下"), (TEXT, "天平元年正月壬辰神")]


def test_the_great_title_and_the_commentator_on_lines_of_their_own_are_a_heading_and_a_byline():
    """毛詩 (四部叢刊, KR1c0002) 卷一 prints under 「周南關雎詁訓傳第一」 and its note
    「　毛詩國風(詩是此書之名…」 and 「　鄭氏箋(本作牋…」, each with its note running on (大題在下): both
    were stored as text. The 大題 is a label, 鄭氏箋 a label whose person joins the juan's byline
    (after 陸德明, printed under the juan's title)."""
    doc = _read(CORPUS / "kanripo-references" / "KR1c0002" / "KR1c0002_001.txt")
    heads = [(p.kind, p.text) for para in doc.sections[0].paragraphs[:4] for p in para if p.kind != NOTE]
    assert heads == [(LABEL, "毛詩國風"), (LABEL, "鄭氏箋")]
    assert doc.bylines == [{"dynasty": "唐", "place": "", "name": "陸德明", "role": "釋文"},
                           {"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}]
    assert doc.sections[0].paragraphs[4][1].text.startswith("關雎后妃之德也")
    assert not any(p.kind == TEXT and p.text in ("毛詩國風", "鄭氏箋") for p in doc.all_pieces())
