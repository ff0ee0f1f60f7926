"""A juan goes on with the chapter of the juan before only where its file shows it (``juans.juan_contents``,
``juans.opens_in_mid_text``, decision 0076). A new user found 三國志 卷十六 (KR2a0012_016, whose first leaves
are lost: it opens at 「祖以峻為典農中郎將」, inside 任峻's life) cited under 卷十五's chapter, 〈劉馥 司馬朗 梁習 張既
温恢 賈逵 子充 李孚〉, and listed on the work page as that chapter（續）: the file prints no head, and 卷十六 is a
傳 of its own (任蘇杜鄭倉傳, its end title 魏志卷十六). 穀梁傳 SBCK KR1e0009_007 and _008 (宣公, 成公) opened inside
〈春秋榖梁傳文公第六〉 the same way. 周禮注疏 卷二, which prints its head and goes on with 天官冢宰第一, still does."""
import re

import pytest

from reader.citation import citation_text, juan_citation_text
from reader.juan_heads import work_part
from reader.models import Chapter

from .conftest import SHARED
from .test_printed_heads import COMMENTARY
from .test_printed_juans import imported

REFERENCES = SHARED / "corpus" / "kanripo-references"


def listed(client, edition) -> list[str]:
    """The work page's list of juans, each entry's text."""
    body = client.get(f"/works/{edition.slug}/").content.decode()
    items = body.split('<ol class="juans">')[1].split("</ol>")[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in items.split("<li>")[1:]]


@pytest.mark.django_db
def test_a_juan_opening_in_mid_text_goes_on_with_no_chapter(tmp_path, client):
    """三國志 卷十六's first section is cited with no chapter, not 卷十五's; the whole juan likewise; the
    work page lists no （續）."""
    fifteen, sixteen = imported(tmp_path, COMMENTARY / "KR2a0012", "KR2a0012_015.txt", "KR2a0012_016.txt")
    first = sixteen.sections.get(position=1)
    assert citation_text(first) == (
        "〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷十六「祖以峻為典農中郎…」（四庫全書・文淵閣本，葉 16-1a）")
    assert juan_citation_text(sixteen, Chapter.objects.filter(juan=sixteen).order_by("position")) == (
        "〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷十六（四庫全書・文淵閣本，Kanripo KR2a0012_016）")
    assert listed(client, sixteen.edition) == [
        "卷十五 〈劉馥 司馬朗 梁習 張既 温恢 賈逵 子充 李孚〉 附〈卷十五考證〉 9 節 引文", "卷十六 附〈卷十六考證〉 8 節 引文"]


@pytest.mark.django_db
def test_a_gongs_juan_opening_in_mid_text_is_not_the_gong_befores(tmp_path, client):
    """穀梁傳 SBCK 卷第七 opens at 「以自輔恥賂之故書齊取」 (宣公's, its head lost): not 〈春秋榖梁傳文公第六〉（續）."""
    six, seven = imported(tmp_path, REFERENCES / "KR1e0009", "KR1e0009_006.txt", "KR1e0009_007.txt")
    assert listed(client, seven.edition) == ["卷第六 〈春秋榖梁傳文公第六〉 5 節 引文", "卷第七 5 節 引文"]


def test_a_juan_opening_in_mid_text_names_its_part_by_its_end_title():
    """三國志 KR2a0012_016 prints no head; its trailer's end title 魏志卷十六考證 names its part, as 卷一's
    head 魏志卷一 does; a trailer of another book names none (後漢書卷八十四考證: the work's own title)."""
    assert work_part("#+PROPERTY: JUAN 卷十六\n<pb:KR2a0012_WYG_016-1a>¶", "三國志",
                     "\u3000魏志卷十六考證¶\n<pb:KR2a0012_WYG_016-33b>¶") == "魏志"
    assert work_part("<pb:KR2a0012_WYG_001-1a>¶\n欽定四庫全書¶\n\u3000魏志卷一¶", "三國志", "") == "魏志"
    assert work_part("<pb:x>¶", "後漢書", "\u3000後漢書卷八十四考證¶") == ""
    assert work_part("<pb:x>¶", "三國志", "") == ""


@pytest.mark.django_db
def test_a_later_section_of_an_anthology_piece_names_the_piece(tmp_path):
    """六臣註文選 卷第二: 西京賦 is cut into sections; the second, 「自我髙祖之始入也…」, carries 張平子's byline and
    was cited with no piece title; it names 〈西京賦一首〉 after the byline, the first section its title alone."""
    (two,) = imported(tmp_path, COMMENTARY / "KR4h0003", "KR4h0003_002.txt")
    first, second = two.sections.get(position=1), two.sections.get(position=2)
    assert citation_text(first).split("》")[1] == "卷第二〈京都上〉張平子　薛綜註「西京賦一首」（四部叢刊本，葉 2-1a）"
    assert citation_text(second).split("》")[1] == (
        "卷第二〈京都上〉張平子　薛綜註〈西京賦一首〉「自我髙祖之始入也…」（四部叢刊本，葉 2-4b）")


@pytest.mark.django_db
def test_li_shans_later_sections_name_the_piece_as_six_ministers_do(tmp_path):
    """文選 李善註 卷二 prints 「　　西京賦」 over 「　　　張平子(…」 and 「　　　　薛綜注(…」: the title line titles the
    first section (not its text), and the later sections of 西京賦 name it as 六臣's do."""
    (two,) = imported(tmp_path, COMMENTARY / "KR4h0002", "KR4h0002_002.txt")
    first, second = two.sections.get(position=1), two.sections.get(position=2)
    assert first.title == "西京賦"
    assert citation_text(first).split("》")[1] == "卷二張平子　薛綜注「西京賦」（四庫全書・文淵閣本，葉 2-1a）"
    assert citation_text(second).split("》")[1] == "卷二張平子　薛綜注〈西京賦〉「自我髙祖之始入也…」（四庫全書・文淵閣本，葉 2-5a）"


@pytest.mark.django_db
def test_the_reading_page_and_the_api_name_the_piece(tmp_path, client):
    """The juan's API payload gives section 2 the same citation, the piece named from the sections walked
    (``set_piece_titles``, not a query a section), and every later section of 西京賦 likewise; the reading
    page of section 2 shows it."""
    (two,) = imported(tmp_path, COMMENTARY / "KR4h0003", "KR4h0003_002.txt")
    data = client.get(f"/api/editions/{two.edition_id}/juans/2/").json()
    sections = [s for c in data["chapters"] for s in c["sections"]]
    assert sections[1]["citation"].split("》")[1].startswith("卷第二〈京都上〉張平子　薛綜註〈西京賦一首〉「自我髙祖之始入也…」")
    assert [sum("〈西京賦一首〉" in s["citation"] for s in sections), len(sections)] == [11, 12]
    assert "〈西京賦一首〉" in client.get(f"/works/{two.edition.slug}/juan/2/2/").content.decode()
