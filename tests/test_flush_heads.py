"""儀禮經傳通解 (KR1d0085), a 四庫 copy whose Kanripo transcription keeps no indentation: its byline and 篇
headings are read by their lines, not their depth (``reader.importers.mandoku.flush_heads``,
``header.Header.flush_byline``), and a printed 卷's label titles no chapter (``printed_juans``)."""
import shutil

import pytest

from reader.citation import citation_text, juan_citation_text
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.flush_heads import flush_heading, second_half
from reader.models import Chapter, Section

from .conftest import SHARED

YILI = SHARED / "corpus" / "kanripo-jingbu" / "KR1d0085"


def parsed(name):
    raw = (YILI / name).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(YILI / name), (YILI / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    return doc


def test_the_byline_and_the_pian_headings_of_a_file_without_indentation():
    """卷二十一: 宋朱子撰 the byline; 邦國禮二之上 / 大射儀 / 經七 the heading (the book's division, the 篇, the
    part of 儀禮), then 邦國禮二之下 / 大射義 / 記 its second half; the classic opens with 大射之儀 (was
    「宋朱子撰邦國禮二之上大射儀經七大射之儀君有命戒射」, one piece of classic)."""
    doc = parsed("KR1d0085_020.txt")
    assert doc.bylines == [{"dynasty": "宋", "place": "", "name": "朱子", "role": "撰"}]
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [
        ("大射儀", "邦國禮二之上\u3000經七", "邦國禮二之上大射儀經七"), ("大射義", "邦國禮二之下\u3000記", "邦國禮二之下大射義記")]
    first = doc.chapters[0].sections[0].paragraphs[0][0]
    assert (first.kind, first.text) == ("text", "大射之儀君有命戒射")
    assert not any("宋朱子撰" in p.text or "邦國禮" in p.text for p in doc.all_pieces())
    # the 篇 title's note is the chapter's first text (卷十七 中庸(中者不偏不倚…)); 卷十三's second 卷 (巻十四)
    # is titled by its heading under its own byline
    zhongyong = parsed("KR1d0085_016.txt")
    assert [(c.title, c.category) for c in zhongyong.chapters] == [("中庸", "學禮十二")]
    assert zhongyong.all_pieces()[0].text == "中者不偏不倚無過不及之名庸平常也"
    assert [(c.title, c.category, c.printed_juan) for c in parsed("KR1d0085_013.txt").chapters] == [
        ("", "", "卷十三"), ("詩樂", "學禮七", "巻十四")]


def test_a_heading_is_two_or_three_short_lines_before_the_text():
    """Pure: 學禮九 / 書數 / 此一篇原闕 before the juan's end is a heading and one line of text (卷十五 prints its
    篇 lost); a line that fills its column is never a heading; 之下 names a second half only of a group read."""
    lines = ["學禮九¶", "書數¶", "此一篇原闕¶", "", "<pb:KR1d0085_WYG_014-1b>¶"]
    assert flush_heading(lines, 0, 3, 20) == ([0, 1], "")
    assert flush_heading(["邦國禮二之上¶", "大射儀¶", "經七¶", "大射之儀君有命戒射(將有…)¶"], 0, 4, 20) == ([0, 1, 2], "")
    assert flush_heading(["學禮十二¶", "中庸(中者不偏)¶", "子程子曰¶"], 0, 3, 20) == ([0, 1], "(中者不偏)")
    assert flush_heading(["學禮十二¶", "古之王者建國君民教學為先故舜命契曰百姓¶", "x¶"], 0, 3, 20) is None
    assert second_half("邦國禮二之下¶", ["邦國禮二之上\u3000經七"]) is True
    assert second_half("邦國禮三之下¶", ["邦國禮二之上\u3000經七"]) is False


@pytest.mark.django_db
def test_no_juan_goes_on_with_a_printed_juans_label(tmp_path):
    """Imported 卷十三 (with 巻十四) and 卷二十一: 卷二十一 is cited under its own 篇, not 〈巻十四〉（續）."""
    into = tmp_path / "KR1d0085"
    into.mkdir()
    for name in ("KR1d0085_013.txt", "KR1d0085_020.txt", "Readme.org"):
        shutil.copy(YILI / name, into)
    juan = import_file(into / "KR1d0085_020.txt").juan
    other = import_file(into / "KR1d0085_013.txt").juan
    chapters = list(Chapter.objects.filter(juan=juan).order_by("position"))
    assert [c.title for c in chapters] == ["大射儀", "大射義"]
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").filter(juan=juan).order_by("position").first()
    assert citation_text(section) == "〔宋〕朱熹《儀禮經傳通解》卷二十一〈大射儀〉「大射之儀君有命戒…」（四庫全書・文淵閣本，葉 20-1a）"
    assert juan_citation_text(other, list(Chapter.objects.filter(juan=other).order_by("position"))) == \
        "〔宋〕朱熹《儀禮經傳通解》卷十三・巻十四〈詩樂〉（四庫全書・文淵閣本，Kanripo KR1d0085_013）"
