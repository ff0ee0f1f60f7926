"""The head of a printed 卷 that opens inside a juan's file, and the end titles after a 卷's text, on
the page, in the API and in the TEI (``reader.chapter_heads``, decision 0068). A breaker found them
shown nowhere but in the source export: 前漢書 KR2a0007_001's 前漢書卷一下 and its two bylines (the
file's second printed 卷), 世説新語 KR3l0002_002's 世說新語卷下之上, 世說新語卷下之下 with theirs and
the closing line 世說新語下卷下(終). And 三國志's juans print 魏志卷一 as their title line: a citation
names that part of the work, 《三國志・魏志》."""
import re

import pytest

from reader.citation import citation_text, juan_citation_text
from reader.juan_heads import BYLINE, TITLE, HeadLine, chapter_around, work_part
from reader.models import Chapter, Section

from .test_printed_heads import COMMENTARY
from .test_printed_juans import HANSHU, SHISHUO, imported
from .tei import tei_errors

S = "\u3000"
BAN_GU = [{"kind": "byline", "text": f"漢{S * 2}蘭{S * 3}臺{S * 2}令{S * 2}史班{S}固撰"},
          {"kind": "byline", "text": "唐正議大夫行秘書少監琅邪縣開國子顏師古注"}]
LIU = [{"kind": "byline", "text": f"宋{S}臨川王義慶{S}撰"}, {"kind": "byline", "text": f"梁{S}劉孝標{S}注"}]


def printed(data):
    """The chapters of a juan payload that print a head or an end: (position, title, head, end)."""
    return [(c["position"], c["title"], c["printed_head"], c["printed_end"]) for c in data["chapters"]
            if c["printed_head"] or c["printed_end"]]


def test_a_chapters_head_and_end_are_read_from_its_layout():
    """The layout at offset 0 of the heading and of the first piece holds the head; the last piece's
    layout at or after its text's end, the end title; a note's bracket left alone on a line is markup."""
    heading = [(0, "#+PROPERTY: JUAN 卷一下\n<pb:KR2a0007_WYG_001-48a>¶\n欽定四庫全書¶\n" + S + "前漢書卷一下¶\n"
                + S * 2 + "唐正議大夫行秘書少監琅邪縣開國子顏師古注¶\n" + S)]
    last = [(3, "¶\n"), (7, ")¶\n" + S + "¶\n<pb:KR2a0007_WYG_001-78b>¶\n" + S + "前漢書卷一下¶\n")]
    assert chapter_around(heading, [(0, "(")], last, 7) == (
        [HeadLine(TITLE, "前漢書卷一下"), HeadLine(BYLINE, "唐正議大夫行秘書少監琅邪縣開國子顏師古注")], ["前漢書卷一下"])
    assert chapter_around([], [(0, "(")], [(7, ")¶\n")], 7) == ([], [])


@pytest.mark.django_db
def test_each_printed_juans_head_and_end_in_the_api(tmp_path, client):
    """前漢書 /juans/1/ (卷一上・卷一下): 卷一下's head is 高帝紀第一下's, each 卷 and 考證 its end title, the
    file's last line the juan's; 世説新語 /juans/2/: 卷下之上's and 卷下之下's heads, 卷下之上's end title
    and the closing line 世說新語下卷下(終). No other chapter prints either."""
    (first,) = imported(tmp_path, HANSHU, "KR2a0007_001.txt")
    data = client.get(f"/api/editions/{first.edition.pk}/juans/1/").json()
    assert data["printed_head"] == [  # 卷一上's, the juan's own (reader.juan_heads): 祕, where 卷一下 prints 秘
        {"kind": "title", "text": "前漢書卷一上"}, {"kind": "byline", "text": f"漢{S * 2}蘭{S * 2}臺{S * 2}令{S * 3}史班{S}固撰"},
        {"kind": "byline", "text": "唐正議大夫行祕書少監琅邪縣開國子顏師古注"}]
    assert printed(data) == [
        (1, "高帝紀第一上", [], ["前漢書卷一上"]),
        (2, "卷一上考證", [{"kind": "title", "text": "前漢書卷一上考證"}], ["前漢書卷一上考證"]),
        (3, "高帝紀第一下", [{"kind": "title", "text": "前漢書卷一下"}] + BAN_GU, ["前漢書卷一下"]),
        (4, "卷一下考證", [{"kind": "title", "text": "前漢書卷一下考證"}], [])]
    assert data["printed_end"] == ["前漢書卷一下考證"]
    (second,) = imported(tmp_path, SHISHUO, "KR3l0002_002.txt")
    data = client.get(f"/api/editions/{second.edition.pk}/juans/2/").json()
    assert printed(data) == [
        (5, "容止第十四", [{"kind": "title", "text": "世說新語卷下之上"}] + LIU, []),
        (15, "簡傲第二十四", [], ["世說新語卷下之上"]),
        (16, "排調第二十五", [{"kind": "title", "text": "世說新語卷下之下"}] + LIU, [])]
    assert data["printed_end"] == ["世說新語下卷下(終)"]
    (export,) = client.get(f"/api/editions/{second.edition.pk}/juans/2/export/json/").json()["juans"]
    assert printed(export) == printed(data) and export["printed_end"] == ["世說新語下卷下(終)"]


@pytest.mark.django_db
def test_each_printed_juans_head_on_the_page_and_in_the_tei(tmp_path, client):
    """The page gives 卷一下's head under 高帝紀第一下's heading, in a group told to screen readers, and
    each end title after its chapter; the TEI gives the head after the chapter's <head> and the end
    titles as its last <trailer type="printed">; valid TEI."""
    (first,) = imported(tmp_path, HANSHU, "KR2a0007_001.txt")
    section = Section.objects.filter(juan=first, chapter__position=3).order_by("position").first()
    page = client.get(f"/works/{first.edition.slug}/juan/1/{section.position}/").content.decode()
    head = re.search(r'<h2 class="chapter-title">高帝紀第一下</h2>\s*(<div class="printed-head".*?</div>)', page, re.S)[1]
    assert head == ('<div class="printed-head" role="group" aria-label="此卷卷首所印卷題與署名">'
                    '<p class="printed-title"><span class="visually-hidden">卷題：</span>前漢書卷一下</p>'
                    f'<p class="printed-byline"><span class="visually-hidden">署名：</span>漢{S * 2}蘭{S * 3}臺{S * 2}令{S * 2}史班{S}固撰</p>'
                    '<p class="printed-byline"><span class="visually-hidden">署名：</span>唐正議大夫行秘書少監琅邪縣開國子顏師古注</p></div>')
    whole = client.get(f"/works/{first.edition.slug}/juan/1/").content.decode()
    ends = re.findall(r'<p class="printed-end"><span class="visually-hidden">卷末所印卷題：</span>([^<]*)</p>', whole)
    assert ends == ["前漢書卷一上", "前漢書卷一上考證", "前漢書卷一下", "前漢書卷一下考證"]
    xml = client.get(f"/api/editions/{first.edition.pk}/juans/1/export/tei/").content.decode()
    start = xml.index('<div type="chapter" n="3">')
    assert xml[start:xml.index('<div type="section"', start)] == (
        '<div type="chapter" n="3"><head>高帝紀第一下</head><head type="printed">前漢書卷一下</head>'
        f'<byline>漢{S * 2}蘭{S * 3}臺{S * 2}令{S * 2}史班{S}固撰</byline><byline>唐正議大夫行秘書少監琅邪縣開國子顏師古注</byline>')
    end = xml.index('<div type="chapter" n="4">')
    assert xml[end - 60:end].endswith('</div><trailer type="printed">前漢書卷一下</trailer></div>')
    assert xml.index('<trailer type="printed">前漢書卷一下考證</trailer></div>') > end
    assert tei_errors(xml.encode()) == []


def test_the_part_of_the_work_a_title_line_names():
    """魏志卷一 names 三國志's 魏志; 後漢書卷十一, 前漢書卷一上 and 六臣註文選卷第十九 name the work itself."""
    assert work_part("欽定四庫全書¶\n" + S + "魏志卷一¶\n晉著作郎巴西中正安漢陳" + S + "壽撰¶", "三國志") == "魏志"
    assert work_part(S + "蜀志卷三¶", "三國志") == "蜀志"
    assert [work_part(line, title) for line, title in (("後漢書卷十一", "後漢書"), ("前漢書卷一上", "前漢書"),
                                                       ("六臣註文選卷第十九", "六臣註文選"), ("", "三國志"))] == ["", "", "", ""]


@pytest.mark.django_db
def test_a_juan_of_sanguozhi_is_cited_under_its_part(tmp_path, client):
    """三國志 卷一 prints 魏志卷一: the juan and its sections are cited 《三國志・魏志》卷一〈…〉, on the page and in
    the API; 後漢書 卷十一 (後漢書卷十一) stays 《後漢書》."""
    (juan,) = imported(tmp_path, COMMENTARY / "KR2a0012", "KR2a0012_001.txt")
    chapters = list(Chapter.objects.filter(juan=juan).order_by("position"))
    assert juan_citation_text(juan, chapters) == (
        "〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷一〈武帝〉（四庫全書・文淵閣本，Kanripo KR2a0012_001）")
    second = Section.objects.filter(juan=juan).order_by("position")[1]
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(pk=second.pk)
    cited = "〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷一〈武帝〉「金城邊章韓遂殺刺…」（四庫全書・文淵閣本，葉 1-4b）"
    assert (section.position, citation_text(section)) == (2, cited)
    assert cited in client.get(f"/works/KR2a0012/juan/1/{section.position}/").content.decode()
    assert client.get(f"/api/editions/{juan.edition_id}/juans/1/").json()["citation"].startswith(
        "〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷一〈武帝〉（")
    (hou,) = imported(tmp_path, COMMENTARY / "KR2a0009", "KR2a0009_011.txt")
    assert "《後漢書》卷十一〈律厯志第一〉" in juan_citation_text(hou, Chapter.objects.filter(juan=hou).order_by("position"))


@pytest.mark.django_db
def test_a_juan_bound_in_another_juans_file_is_cited_under_its_list(tmp_path, client):
    """三國志 KR2a0012_030 binds 卷二十九 after 卷二十八's 考證 (decision 0094): its chapter is titled by its list
    of lives, as in 卷二十九's own file, and its sections are cited under that chapter and the file's 卷
    (the file records no printed 卷); the juan page heads the chapter with its heading, 華佗."""
    (juan,) = imported(tmp_path, COMMENTARY / "KR2a0012", "KR2a0012_030.txt")
    chapters = list(Chapter.objects.filter(juan=juan).order_by("position"))
    huatuo = "華佗\u3000杜䕫\u3000朱建平\u3000周宣\u3000管輅"
    assert [c.title for c in chapters][1:4] == ["卷二十八考證", huatuo, "卷二十九考證"]
    first = Section.objects.filter(chapter=chapters[2]).order_by("position").first()
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(pk=first.pk)
    assert citation_text(section).startswith(f"〔晉〕陳壽　〔南朝宋〕裴松之注《三國志・魏志》卷三十〈{huatuo}〉「")
    page = client.get(f"/works/KR2a0012/juan/30/{section.position}/").content.decode()
    assert "華佗字元化沛國譙人也" in page and "呉普樊阿" in page
