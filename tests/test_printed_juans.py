"""Juans, editions and the editors' notes as the print names them, on two books a new user found
wrong (issue 27 point 4): 世説新語 (四部叢刊, Kanripo KR3l0002), whose files hold several juans and,
before 卷上之上, 孫毓修's 世説新語校語; and 河上公's 老子 (KR5c0065), a branch that transcribes the
正統道藏 涵芬樓 print under the repository's ``BASEEDITION SBCK``, its 卷之一 and 卷之二 in one file.
Parser rules: ``header.file_juans``, ``header.collation_part``, ``header.held_juans``,
``header.page_edition``; on real files of ``../shared/corpus/kanripo-commentary``."""
import re
import shutil

import pytest

from reader.citation import citation_text, juan_citation_text
from reader.importers.document import EDITORIAL
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.header import collation_part, file_juans, held_juans, page_edition, parse_readme
from reader.importers.mandoku.printed_juans import part_lines
from reader.juans import JuanCount, juan_contents, juan_count, matching_juans
from reader.models import Chapter, Juan, Section

from .conftest import SHARED
from .test_juan_labels import FakeJuan

BOOKS = SHARED / "corpus" / "kanripo-commentary"
SHISHUO = BOOKS / "KR3l0002"
HESHANG = BOOKS / "KR5c0065"
WANG_BI = BOOKS / "KR5c0073"
HANSHU = BOOKS / "KR2a0007"
HOU_HANSHU = BOOKS / "KR2a0009"
JINGBU = SHARED / "corpus" / "kanripo"


def parsed(path):
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path), (path.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    return doc


def test_a_file_is_labelled_by_the_juans_its_file_lines_name():
    """Each part of a 四部叢刊 file has a ``#+PROPERTY: FILE`` line naming the part (卷中之下); the
    title line of KR3l0002_003 misprints 世説新語卷之下 over 中之下 (its end title 世説新語中之下), and
    _001 and _002 hold two and three juans, their title lines naming one or none."""
    labels = [parsed(SHISHUO / f"KR3l0002_00{n}.txt").juan_label for n in range(4)]
    assert labels == ["序", "卷上之上・卷上之下", "卷中之上・卷下之上・卷下之下", "卷中之下"]
    raw = (SHISHUO / "KR3l0002_001.txt").read_text(encoding="utf-8")
    # the 校語 is another book's part (世説新語校語 一卷): no juan of the work
    assert file_juans(raw, "世説新語") == ["卷上之上", "卷上之下"]
    assert collation_part("SB03n0059-001世説新語校語-一卷.", "世説新語") == "校語"
    assert collation_part("SB03n0058-001世説新語-卷上之上.", "世説新語") == ""
    # a file of collation notes alone keeps its label and its chapters (經典釋文校勘記 卷上)
    jingbu = SHARED / "corpus" / "kanripo-jingbu" / "KR1g0003" / "KR1g0003_031.txt"
    assert file_juans(jingbu.read_text(encoding="utf-8"), "經典釋文") == []


def test_the_collation_notes_before_the_first_juan_are_the_editors_and_no_chapters():
    """KR3l0002_001 opens with 世説新語校語 (孫毓修's collation of the 袁本 with a 宋本, with the 宋本's
    postfaces), which prints the 篇 names its notes are on: one chapter 〈校語〉 of the editors'
    layer, its 篇 names section titles, and the juan's own chapters after it in the book's order. Its first
    line, 董弅's 題 on the book 「　　右世說三十六篇世所傳釐爲十卷…」, opens the chapter: nothing above it to
    close, it is the chapter's text, not a 右 closer titling an empty section."""
    doc = parsed(SHISHUO / "KR3l0002_001.txt")
    assert [c.title for c in doc.chapters] == ["校語", "德行第一", "言語第二", "政事第三", "文學第四"]
    notes = doc.chapters[0]
    # its title line 「世說新語校語」 under the 題 and 跋 of its volume is a section of its own (decision 0124)
    assert [s.title for s in notes.sections][:5] == ["", "世說新語校語", "德行第一", "言語第二", "政事第三"]
    assert len(notes.sections) == 36 and notes.sections[-1].title == "仇隟第三十六"
    assert notes.sections[0].closer is None and notes.sections[0].pieces[0].text.startswith(
        "右世說三十六篇世所傳釐爲十卷或作四十五篇而末卷但重出前九卷中所載")
    layers = {}
    for s in notes.sections:
        for p in s.pieces + s.records:
            key = (p.kind, p.layer, p.layer_name, p.commentator)
            layers[key] = layers.get(key, 0) + len(p.text)
    assert layers == {("text", EDITORIAL, "校語", ""): 5685 + len("右世說三十六篇世所傳釐爲十卷或作四十") - len("世說新語校語"),
                      ("note", EDITORIAL, "校語", ""): 2756, ("label", EDITORIAL, "校語", ""): 195 + len("世說新語校語")}
    # the book's own text is 劉義慶's, its notes 劉孝標's, as before
    first = doc.chapters[1].sections[0].pieces
    assert first[0].text.startswith("陳仲舉言為士則行為世範") and first[0].layer != EDITORIAL
    assert {(p.layer_name, p.commentator) for c in doc.chapters[1:] for s in c.sections for p in s.pieces
            if p.kind == "note"} == {
        ("注", "劉孝標")}


def test_the_juans_of_the_daozang_print_a_file_holds_are_its_label():
    """河上公 (KR5c0065): _000 and _001 hold a header only; _002 holds 卷之一 (its end title
    ``道德眞經註¶卷之一``) and 卷之二 (``道德眞經註卷之二知二`` … ``卷之¶二``), then 卷之三's title on the
    pages bound after it; _003 卷之三 and 卷之四. The edition is the 道藏 涵芬樓 print its page
    breaks name, not the repository's BASEEDITION."""
    docs = [parsed(HESHANG / f"KR5c0065_00{n}.txt") for n in (2, 3)]
    assert [(d.juan_label, d.juan_number, d.file_sequence, d.edition) for d in docs] == [
        ("卷之一・卷之二", 1, 2, "HFL"), ("卷之三・卷之四", 3, 3, "HFL")]
    raw = (HESHANG / "KR5c0065_002.txt").read_text(encoding="utf-8")
    assert held_juans(raw, "道德真經注") == ["卷之一", "卷之二"]
    assert page_edition(raw) == "HFL" and "BASEEDITION SBCK" in raw
    # the 王弼 edition's title lines name its juans, one a file; one stray page of another print
    # (``<pb:KR5c0073_SJB_…>``) does not name its edition
    docs = [parsed(WANG_BI / f"KR5c0073_00{n}.txt") for n in (1, 2, 3, 4)]
    assert [(d.juan_label, d.edition) for d in docs] == [("卷之一", "HFL"), ("卷之二", "HFL"), ("卷之三", "HFL"),
                                                         ("卷之四", "HFL")]


def imported(tmp_path, folder, *names):
    into = tmp_path / folder.name
    into.mkdir()
    for name in names:
        shutil.copy(folder / name, into)
    shutil.copy(folder / "Readme.org", into)
    return [import_file(into / name).juan for name in names]


@pytest.mark.django_db
def test_the_citations_and_the_work_page_name_the_printed_juans(tmp_path, client):
    """Imported: 卷上之上・卷上之下 is cited by its own chapters in their order, each printed 卷 before its
    own, not the 校語's 篇 names before 德行第一; the work page lists 〈校語〉 as the juan's appendix. 河上公's edition is named
    正統道藏・涵芬樓版本 and its juans 卷之一・卷之二 and 卷之三・卷之四: no 卷 looks missing."""
    first, third = imported(tmp_path, SHISHUO, "KR3l0002_001.txt", "KR3l0002_003.txt")
    chapters = list(Chapter.objects.filter(juan=first).order_by("position"))
    assert juan_citation_text(first, chapters) == (
        "〔南朝宋〕劉義慶　〔梁〕劉孝標注《世説新語》卷上之上〈德行第一〉〈言語第二〉・卷上之下〈政事第三〉〈文學第四〉"
        "（四部叢刊本，Kanripo KR3l0002_001）")
    assert juan_citation_text(third, Chapter.objects.filter(juan=third).order_by("position")).split("》")[1] == \
        "卷中之下〈賞譽第八〉〈品藻第九〉〈規箴第十〉〈捷悟第十一〉〈夙惠第十二〉〈豪爽第十三〉（四部叢刊本，Kanripo KR3l0002_003）"
    juans = list(Juan.objects.filter(edition=first.edition).order_by("number"))
    juan_contents(juans)
    assert [(j.label, [c.title for c in j.contents], j.appendices) for j in juans] == [
        ("卷上之上・卷上之下", ["德行第一", "言語第二", "政事第三", "文學第四"], ["校語"]),
        ("卷中之下", ["賞譽第八", "品藻第九", "規箴第十", "捷悟第十一", "夙惠第十二", "豪爽第十三"], [])]
    body = client.get(f"/works/{first.edition.slug}/").content.decode()
    assert "附〈校語〉" in body
    second, fourth = imported(tmp_path, HESHANG, "KR5c0065_002.txt", "KR5c0065_003.txt")
    assert second.edition.cited_name == "正統道藏・涵芬樓版本"
    assert [(j.number, j.label) for j in (second, fourth)] == [(2, "卷之一・卷之二"), (3, "卷之三・卷之四")]
    assert juan_citation_text(second).split("《")[1] == "道德真經注》卷之一・卷之二（正統道藏・涵芬樓版本，Kanripo KR5c0065_002）"


def test_each_chapter_of_a_file_of_several_printed_juans_knows_its_own():
    """KR3l0002_002 holds 卷中之上, 卷下之上 and 卷下之下, each under its ``#+PROPERTY: FILE`` line (lines 8,
    1140 and 2270); _001 卷上之上 and 卷上之下 after the 校語, which falls in none; _003 holds one 卷 and
    marks nothing. The file still writes back byte for byte (``parsed``)."""
    raw = (SHISHUO / "KR3l0002_002.txt").read_text(encoding="utf-8")
    assert part_lines(raw, "世説新語") == [(8, "卷中之上"), (1140, "卷下之上"), (2270, "卷下之下")]
    doc = parsed(SHISHUO / "KR3l0002_002.txt")
    by_juan: dict[str, list[str]] = {}
    for chapter in doc.chapters:
        by_juan.setdefault(chapter.printed_juan, []).append(chapter.title)
    assert by_juan == {
        "卷中之上": ["方正第五", "雅量第六", "識鑒第七", "賞譽第八"],
        "卷下之上": ["容止第十四", "自新第十五", "企羡第十六", "傷逝第十七", "棲逸第十八", "賢媛第十九", "術解第二十",
                 "巧蓺第二十一", "寵禮第二十二", "任誕第二十三", "簡傲第二十四"],
        "卷下之下": ["排調第二十五", "輕詆第二十六", "假譎第二十七", "黜免第二十八", "儉嗇第二十九", "汰侈第三十",
                 "忿狷第三十一", "讒險第三十二", "尤悔第三十三", "紕漏第三十四", "惑溺第三十五", "仇隟第三十六"]}
    first = parsed(SHISHUO / "KR3l0002_001.txt")
    assert [(c.title, c.printed_juan) for c in first.chapters] == [
        ("校語", ""), ("德行第一", "卷上之上"), ("言語第二", "卷上之上"), ("政事第三", "卷上之下"), ("文學第四", "卷上之下")]
    assert {c.printed_juan for c in parsed(SHISHUO / "KR3l0002_003.txt").chapters} == {""}


@pytest.mark.django_db
def test_a_section_is_cited_under_the_printed_juan_it_falls_in(tmp_path, client):
    """/works/KR3l0002/juan/2/149/ (容止第十四's first 條, 「1」 in its 門) is cited under 卷下之上, the 卷 it is
    printed in, not the file's 「卷中之上・卷下之上・卷下之下」; its URL keeps the file's number. The whole
    juan's citation names each printed 卷 before its chapters."""
    (second,) = imported(tmp_path, SHISHUO, "KR3l0002_002.txt")
    assert (second.number, second.label) == (2, "卷中之上・卷下之上・卷下之下")
    chapters = list(Chapter.objects.filter(juan=second).order_by("position"))
    assert [c.printed_juan for c in chapters].count("卷下之上") == 11
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(juan=second, position=149)
    assert citation_text(section) == (
        "〔南朝宋〕劉義慶　〔梁〕劉孝標注《世説新語》卷下之上〈容止第十四〉「1」"
        "（四部叢刊本，葉 2-1a）")
    last = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(juan=second, position=148)
    assert citation_text(last).split("》")[1].startswith("卷中之上〈賞譽第八〉")
    assert juan_citation_text(second, chapters) == (
        "〔南朝宋〕劉義慶　〔梁〕劉孝標注《世説新語》卷中之上〈方正第五〉〈雅量第六〉〈識鑒第七〉〈賞譽第八〉"
        "・卷下之上〈容止第十四〉〈自新第十五〉〈企羡第十六〉〈傷逝第十七〉〈棲逸第十八〉〈賢媛第十九〉〈術解第二十〉"
        "〈巧蓺第二十一〉〈寵禮第二十二〉〈任誕第二十三〉〈簡傲第二十四〉"
        "・卷下之下〈排調第二十五〉〈輕詆第二十六〉〈假譎第二十七〉〈黜免第二十八〉〈儉嗇第二十九〉〈汰侈第三十〉"
        "〈忿狷第三十一〉〈讒險第三十二〉〈尤悔第三十三〉〈紕漏第三十四〉〈惑溺第三十五〉〈仇隟第三十六〉"
        "（四部叢刊本，Kanripo KR3l0002_002）")
    body = client.get(f"/works/{second.edition.slug}/juan/2/149/").content.decode()
    assert "《世説新語》卷下之上〈容止第十四〉" in body


@pytest.mark.django_db
def test_the_work_page_lists_the_printed_juans_in_the_books_order(tmp_path, client):
    """Files 1, 2 and 3 hold 卷上之上・卷上之下, 卷中之上・卷下之上・卷下之下 and 卷中之下: the work page lists
    the six 卷 as the book prints them, each with its chapters and sections, a 卷 that opens inside its
    file linked to its first section (/juan/2/149/ for 卷下之上), the juan's tools once, on its first 卷."""
    first, second, third = imported(tmp_path, SHISHUO, "KR3l0002_001.txt", "KR3l0002_002.txt", "KR3l0002_003.txt")
    slug = first.edition.slug
    body = client.get(f"/works/{slug}/").content.decode()
    juans = body.split('<ol class="juans">')[1].split("</ol>")[0]
    items = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in juans.split("<li>")[1:]]
    links = re.findall(r'<li><a href="([^"]+)">', juans)
    assert [item.split(" ")[0] for item in items] == ["卷上之上", "卷上之下", "卷中之上", "卷中之下", "卷下之上", "卷下之下"]
    assert [link.split(f"/works/{slug}/juan/")[1] for link in links] == ["1/", "1/182/", "2/", "3/", "2/149/", "2/349/"]
    assert items[0].startswith("卷上之上 〈德行第一〉 〈言語第二〉 附〈校語〉 ")
    assert items[4].startswith("卷下之上 〈容止第十四〉 〈自新第十五〉")
    counts = [int(re.search(r"(\d+) 節", item)[1]) for item in items]
    sections_of = {j.number: j.sections.count() for j in (first, second, third)}
    assert counts[0] + counts[1] == sections_of[1] and counts[2] + counts[4] + counts[5] == sections_of[2]
    assert counts[2] == 148 and counts[4] == 200
    assert ["引文" in item for item in items] == [True, False, True, True, False, False]


def test_a_four_ku_file_of_several_printed_juans_marks_them_by_its_juan_parts():
    """The 四庫 files mark each printed 卷 they hold by a ``#+PROPERTY: JUAN`` part (the header's, then
    mid-file ones), each followed by the editors' 考證 on it: 前漢書 KR2a0007_001 holds 卷一上 and 卷一下,
    _027 卷二十七上 … 卷二十七下之下, _099 卷九十九上, 中 and 下; 後漢書 KR2a0009_001 卷一上 and 卷一下;
    禮書綱目 KR1d0086_002 卷首中 and 卷首下; 讀禮通考 KR1d0051_056 卷五十六 and its 補遺. Each chapter
    names its own 卷, a 考證 the 卷 it follows. 後漢書 KR2a0009_084's second part Kanripo writes 卷八十四考燈
    (a misreading of 考證); its title line prints 後漢書卷八十四考證: one printed 卷 and its 考證, labelled
    卷八十四, nothing marked. The files write back byte for byte."""
    raw = (HANSHU / "KR2a0007_001.txt").read_text(encoding="utf-8")
    assert part_lines(raw, "前漢書") == [(6, "卷一上"), (854, "卷一下")]
    assert [(c.title, c.printed_juan) for c in parsed(HANSHU / "KR2a0007_001.txt").chapters] == [
        ("高帝紀第一上", "卷一上"), ("卷一上考證", "卷一上"), ("高帝紀第一下", "卷一下"), ("卷一下考證", "卷一下")]
    # a 篇 printed in parts of parts heads its chapter: 五行志第七中之上, not the part's label
    assert [(c.title, c.printed_juan) for c in parsed(HANSHU / "KR2a0007_027.txt").chapters] == [
        ("五行志第七上", "卷二十七上"), ("卷二十七上考證", "卷二十七上"),
        ("五行志第七中之上", "卷二十七中之上"), ("卷二十七中之上考證", "卷二十七中之上"),
        ("五行志第七中之下", "卷二十七中之下"), ("卷二十七中之下考證", "卷二十七中之下"),
        ("五行志第七下之上", "卷二十七下之上"), ("卷二十七下之上考證", "卷二十七下之上"),
        ("五行志第七下之下", "卷二十七下之下"), ("卷二十七下之下考證", "卷二十七下之下")]
    assert [(c.title, c.printed_juan) for c in parsed(HANSHU / "KR2a0007_099.txt").chapters] == [
        ("王莽𫝊第六十九上", "卷九十九上"), ("卷九十九上考證", "卷九十九上"), ("王莽傳第六十九中", "卷九十九中"),
        ("卷九十九中考證", "卷九十九中"), ("王莽傳第六十九下", "卷九十九下"), ("卷九十九下考證", "卷九十九下")]
    assert [(c.title, c.printed_juan) for c in parsed(HOU_HANSHU / "KR2a0009_001.txt").chapters] == [
        ("光武帝紀第一上", "卷一上"), ("卷一上考證", "卷一上"), ("光武帝紀第一下", "卷一下"), ("卷一下考證", "卷一下")]
    assert [(c.title, c.printed_juan) for c in parsed(JINGBU / "KR1d0086" / "KR1d0086_002.txt").chapters] == [
        ("", "卷首中"), ("", "卷首下")]
    assert [(c.title, c.printed_juan) for c in parsed(JINGBU / "KR1d0051" / "KR1d0051_056.txt").chapters] == [
        ("", "卷五十六"), ("", "卷五十六補遺")]
    odd = parsed(HOU_HANSHU / "KR2a0009_084.txt")
    assert (odd.juan_label, {c.printed_juan for c in odd.chapters}) == ("卷八十四", {""})
    kaozheng = odd.chapters[1]
    assert (kaozheng.title, len(kaozheng.sections)) == ("卷八十四考證", 1)
    assert {(p.effective_layer, p.layer_name) for p in kaozheng.sections[0].pieces} == {(EDITORIAL, "考證")}
    assert kaozheng.sections[0].pieces[1].text.startswith("河間男子趙騰詣闕上書")
    assert part_lines((HANSHU / "KR2a0007_002.txt").read_text(encoding="utf-8"), "前漢書") == []


@pytest.mark.django_db
def test_a_section_of_qian_hanshu_is_cited_under_its_own_printed_juan(tmp_path, client):
    """/works/KR2a0007/juan/1/ holds 卷一上 and 卷一下: a section of 高帝紀第一下 is cited under 卷一下, the
    whole juan names each 卷 once before its 篇, never the 考證; 禮書綱目 KR1d0086_002's 卷首中 prints no
    篇 title and is named all the same. Its URL keeps the file's number."""
    (first,) = imported(tmp_path, HANSHU, "KR2a0007_001.txt")
    assert (first.number, first.label) == (1, "卷一上・卷一下")
    chapters = list(Chapter.objects.filter(juan=first).order_by("position"))
    assert juan_citation_text(first, chapters) == (
        "〔漢〕班固　〔唐〕顏師古注《前漢書》卷一上〈高帝紀第一上〉・卷一下〈高帝紀第一下〉"
        "（四庫全書・文淵閣本，Kanripo KR2a0007_001）")
    opening = Section.objects.filter(juan=first, chapter=chapters[2]).order_by("position").first()
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(pk=opening.pk)
    assert (section.position, citation_text(section)) == (
        12, "〔漢〕班固　〔唐〕顏師古注《前漢書》卷一下〈高帝紀第一下〉「五年冬十月漢王追…」（四庫全書・文淵閣本，葉 1-48a）")
    body = client.get(f"/works/{first.edition.slug}/juan/1/{section.position}/").content.decode()
    assert "《前漢書》卷一下〈高帝紀第一下〉" in body
    (head,) = imported(tmp_path, JINGBU / "KR1d0086", "KR1d0086_002.txt")
    assert juan_citation_text(head, Chapter.objects.filter(juan=head).order_by("position")).split("》")[1] == \
        "卷首中・卷首下（四庫全書・文淵閣本，Kanripo KR1d0086_002）"


@pytest.mark.django_db
def test_the_work_page_lists_qian_hanshus_printed_juans_each_linked_to_its_first_section(tmp_path, client):
    """前漢書's files 1, 2 and 27 hold 卷一上・卷一下, 卷二 and 卷二十七上 … 卷二十七下之下: the work page
    lists 卷一上, 卷一下, 卷二, 卷二十七上, 卷二十七中之上, 卷二十七中之下, 卷二十七下之上, 卷二十七下之下,
    each with its 篇 and its 考證, a 卷 that opens inside its file linked to its first section."""
    juans = imported(tmp_path, HANSHU, "KR2a0007_001.txt", "KR2a0007_002.txt", "KR2a0007_027.txt")
    slug = juans[0].edition.slug
    body = client.get(f"/works/{slug}/").content.decode()
    listed = body.split('<ol class="juans">')[1].split("</ol>")[0]
    items = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in listed.split("<li>")[1:]]
    links = re.findall(r'<li><a href="([^"]+)">', listed)
    assert items == [
        "卷一上 〈高帝紀第一上〉 附〈卷一上考證〉 11 節 引文", "卷一下 〈高帝紀第一下〉 附〈卷一下考證〉 8 節",
        "卷二 〈惠帝紀第二〉 附〈卷二考證〉 3 節 引文", "卷二十七上 〈五行志第七上〉 附〈卷二十七上考證〉 7 節 引文",
        "卷二十七中之上 〈五行志第七中之上〉 附〈卷二十七中之上考證〉 10 節",
        "卷二十七中之下 〈五行志第七中之下〉 附〈卷二十七中之下考證〉 7 節",
        "卷二十七下之上 〈五行志第七下之上〉 附〈卷二十七下之上考證〉 7 節",
        "卷二十七下之下 〈五行志第七下之下〉 附〈卷二十七下之下考證〉 8 節"]
    # 卷一上's 9 sections and its 考證's 2: 卷一下 opens at section 12
    assert [link.split(f"/works/{slug}/juan/")[1] for link in links] == [
        "1/", "1/12/", "2/", "27/", "27/8/", "27/18/", "27/25/", "27/32/"]
    assert '<p class="juan-count">3 卷（分爲 8 卷）</p>' in body


def test_a_book_is_counted_by_its_juans_and_its_printed_juans():
    """A catalogue counts 前漢書 by its printed 卷 (its 提要: 「今本作一百二十卷」, 卷一上 and 卷一下 two) and
    後漢書 by its numbered ones (「後漢書一百二十卷」, 卷一上 and 卷一下 one): the work page gives both
    figures, as for 世説新語, three books 上中下 printed in six 卷. From the Readme's labels, as the
    importer reads them."""
    def readme_juans(folder):
        _, labels = parse_readme((folder / "Readme.org").read_text(encoding="utf-8"))
        return [FakeJuan(int(name[-7:-4]), "・".join(dict.fromkeys(lab for _, lab in parts)))
                for name, parts in sorted(labels.items())]

    assert juan_count(readme_juans(HANSHU)) == JuanCount(juans=100, head=0, other=2, parts=120)
    assert str(juan_count(readme_juans(HANSHU))) == "100 卷（分爲 120 卷；另有卷外 2）"
    assert str(juan_count(readme_juans(HOU_HANSHU))) == "120 卷（分爲 130 卷；另有卷外 5）"
    shishuo = [FakeJuan(0, "序"), FakeJuan(1, "卷上之上・卷上之下"), FakeJuan(2, "卷中之上・卷下之上・卷下之下"),
               FakeJuan(3, "卷中之下")]
    assert juan_count(shishuo) == JuanCount(juans=3, head=0, other=1, parts=6)
    assert str(juan_count(shishuo)) == "3 卷（分爲 6 卷；另有卷外 1）"


MENGZI = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0003"


def test_a_file_of_several_printed_juans_marks_them_by_the_titles_it_prints():
    """孟子注疏 (四庫, KR1h0003) names its 卷 only by the title lines it prints (its ``JUAN`` a number):
    ``_001`` 孟子注疏卷一上 at lines 11 and 381, 卷一下 at 464 and 790, each 卷 with its 考證. 河上公's
    ``_002`` opens inside 卷之一 (its end title ``道德眞經註¶卷之一`` at line 299, after 歸根第十六) and
    prints 卷之二's head (``卷之二知二``, the 道藏's case mark) at 303, then 卷之三's head on the pages
    bound after 卷之二's end, in which no chapter falls. A 目錄 names each 卷 by such a line: no head."""
    raw = (MENGZI / "KR1h0003_001.txt").read_text(encoding="utf-8")
    assert part_lines(raw, "孟子注疏") == [(11, "卷一上"), (464, "卷一下")]
    doc = parsed(MENGZI / "KR1h0003_001.txt")
    assert [(c.title, c.printed_juan) for c in doc.chapters] == [
        ("梁恵王章句上", "卷一上"), ("卷一上考證", "卷一上"), ("梁惠王章句上", "卷一下"), ("卷一下考證", "卷一下")]
    raw = (HESHANG / "KR5c0065_002.txt").read_text(encoding="utf-8")
    assert part_lines(raw, "道德真經注") == [(1, "卷之一"), (303, "卷之二"), (674, "卷之三")]
    second, third = (parsed(HESHANG / f"KR5c0065_00{n}.txt") for n in (2, 3))
    marked = [(c.title, c.printed_juan) for c in second.chapters + third.chapters]
    assert marked[:2] == [("", "卷之一"), ("體道第一", "卷之一")]
    assert marked[16:18] == [("歸根第十六", "卷之一"), ("淳風第十七", "卷之二")]
    assert marked[37:40] == [("爲政第三十七", "卷之二"), ("論德第三十八", "卷之三"), ("法本第三十九", "卷之三")]
    assert marked[59:61] == [("守道第五十九", "卷之三"), ("居位第六十", "卷之四")]
    assert marked[-1] == ("顯質第人十一", "卷之四") and len(marked) == 82
    # 前漢書's 目錄 lists ``前漢書卷一上`` over ``帝紀第一上``: a contents list's entries, no 卷's head
    contents = (HANSHU / "KR2a0007_000.txt").read_text(encoding="utf-8")
    assert part_lines(contents, "前漢書") == []


@pytest.mark.django_db
def test_mengzi_zhushu_is_cited_and_listed_by_its_printed_juans(tmp_path, client):
    """Imported, 孟子注疏's files 1 and 2: a section of 卷一下 is cited under 卷一下 and the 篇 heading
    printed under its title line (梁惠王章句上, the 篇's second half), as 卷一上's heads its chapter; the
    juan names each 卷 once with its 篇; the work page lists 卷一上, 卷一下, 卷二上, 卷二下 with their 篇,
    each 卷 that opens inside its file linked to its first section, and counts 2 卷 printed in 4."""
    first, second = imported(tmp_path, MENGZI, "KR1h0003_001.txt", "KR1h0003_002.txt")
    chapters = list(Chapter.objects.filter(juan=first).order_by("position"))
    assert juan_citation_text(first, chapters).split("》")[1] == (
        "卷一上〈梁恵王章句上〉・卷一下〈梁惠王章句上〉（四庫全書・文淵閣本，Kanripo KR1h0003_001）")
    opening = Section.objects.filter(juan=first, chapter=chapters[2]).order_by("position").first()
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(pk=opening.pk)
    assert (section.position, citation_text(section)) == (8, (
        "〔漢〕趙岐注　〔宋〕孫奭疏《孟子注疏》卷一下〈梁惠王章句上〉「孟子見梁襄王出語…」（四庫全書・文淵閣本，葉 1-24a）"))
    slug = first.edition.slug
    body = client.get(f"/works/{slug}/").content.decode()
    listed = body.split('<ol class="juans">')[1].split("</ol>")[0]
    items = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in listed.split("<li>")[1:]]
    links = re.findall(r'<li><a href="([^"]+)">', listed)
    assert items == ["卷一上 〈梁恵王章句上〉 附〈卷一上考證〉 7 節 引文", "卷一下 〈梁惠王章句上〉 附〈卷一下考證〉 4 節",
                     "卷二上 〈梁惠王章句下〉 附〈卷二上考證〉 10 節 引文", "卷二下 〈梁惠王章句下〉 附〈卷二下考證〉 8 節"]
    # 卷一上's 6 sections and its 考證's 1: 卷一下 opens at section 8; 卷二上's 9 and 1: 卷二下 at 11
    assert [link.split(f"/works/{slug}/juan/")[1] for link in links] == ["1/", "1/8/", "2/", "2/11/"]
    assert '<p class="juan-count">2 卷（分爲 4 卷）</p>' in body


LISHU = SHARED / "corpus" / "kanripo-jingbu"


def test_a_printed_juan_whose_title_line_opens_inside_the_file_is_a_part_of_it():
    """Three 四庫 files bind a second 卷 that neither a ``JUAN`` line nor a 考證 before it marks: after the
    first 卷's end title, its leaf opens with 欽定四庫全書, its title line and its byline (禮書
    KR1d0084_041 禮書卷四十二 and 宋　陳祥道　撰; 儀禮經傳通解 KR1d0085_013 儀禮經傳通解巻十四; 七經孟子考文補遺
    KR1g0020_071 七經孟子考文補遺卷七十一下 over 日本山井鼎 / 物觀　撰, then 春秋左傳註疏第十九下). Each is
    a part (``printed_juans.inner_heads``) whose chapters name that 卷; the head is layout, no text (禮書's
    欽定四庫全書 and byline were a section 〈宋　陳祥道　撰〉), Kanripo's bare 卷 label over the collection
    line (``卷十四``, ``卷七十一下``) with it; the first 卷's end title ends its last chapter."""
    lishu = parsed(LISHU / "KR1d0084" / "KR1d0084_041.txt")
    assert [(c.title, c.printed_juan, len(c.sections)) for c in lishu.chapters] == [
        ("", "卷四十一", 3), ("", "卷四十二", 3)]
    assert not any("陳祥道" in p.text or "欽定四庫全書" in p.text for p in lishu.all_pieces())
    assert [s.title for s in lishu.sections] == ["明堂朝諸侯之位", "壇壝宫", "", "", "", "聘儀"]
    yili = parsed(LISHU / "KR1d0085" / "KR1d0085_013.txt")
    # 巻十四's 篇 heading, flush as the book's every line (``flush_heads``), titles its chapter: the 卷's label
    # names the 卷 it falls in, never a chapter (no later juan goes on with 〈巻十四〉)
    assert [(c.title, c.category, c.printed_juan) for c in yili.chapters] == [("", "", "卷十三"), ("詩樂", "學禮七", "巻十四")]
    assert not any(p.text.startswith(("卷十四", "欽定四庫全書")) for p in yili.all_pieces())
    kaowen = parsed(LISHU / "KR1g0020" / "KR1g0020_071.txt")
    assert [(c.title, c.printed_juan) for c in kaowen.chapters] == [
        ("春秋左傳註疏第十九上", "卷七十一上"), ("春秋左傳註疏第十九下", "卷七十一下")]
    assert [s.title for s in kaowen.chapters[1].sections][:2] == ["文公十一年", "文公十二年"]
    assert not any("山井鼎" in p.text or p.text == "卷七十一下" for p in kaowen.all_pieces())


@pytest.mark.django_db
def test_each_printed_juan_of_such_a_file_is_cited_by_its_own_number(tmp_path, client):
    """Imported, 禮書 KR1d0084_041: a section of 卷四十二 is cited under 卷四十二, the juan names both 卷; the
    chapter of 卷四十二 shows the head its leaf prints and the chapter of 卷四十一 its end title (API)."""
    (juan,) = imported(tmp_path, LISHU / "KR1d0084", "KR1d0084_041.txt")
    chapters = list(Chapter.objects.filter(juan=juan).order_by("position"))
    assert juan_citation_text(juan, chapters) == "〔宋〕陳祥道《禮書》卷四十一・卷四十二（四庫全書・文淵閣本，Kanripo KR1d0084_041）"
    opening = Section.objects.filter(juan=juan, chapter=chapters[1]).order_by("position").first()
    section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(pk=opening.pk)
    assert (section.position, citation_text(section)) == (4, "〔宋〕陳祥道《禮書》卷四十二「盟珠盤玉敦周禮司…」（四庫全書・文淵閣本，葉 41-13a）")
    data = client.get(f"/api/editions/{juan.edition_id}/juans/41/").json()
    assert [(c["title"], c["printed_head"], c["printed_end"]) for c in data["chapters"]] == [
        ("", [], ["禮書卷四十一"]),
        ("", [{"kind": "title", "text": "禮書卷四十二"}, {"kind": "byline", "text": "宋\u3000陳祥道\u3000撰"}], [])]


@pytest.mark.django_db
def test_a_kaozheng_kanripo_misnames_is_cited_as_its_title_line_prints_it(tmp_path, client):
    """後漢書 KR2a0009_084: Kanripo's ``JUAN 卷八十四考燈`` (and its Readme) misread the title line
    後漢書卷八十四考證; the juan is cited and listed as 卷八十四 with its 考證, as 卷八十三 is."""
    (juan,) = imported(tmp_path, HOU_HANSHU, "KR2a0009_084.txt")
    chapters = list(Chapter.objects.filter(juan=juan).order_by("position"))
    assert juan.label == "卷八十四"
    assert juan_citation_text(juan, chapters).split("》")[1] == "卷八十四〈楊震列傳第四十四〉（四庫全書・文淵閣本，Kanripo KR2a0009_084）"
    last = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(
        juan=juan, chapter=chapters[1])
    assert citation_text(last).split("》")[1] == "卷八十四〈卷八十四考證〉（四庫全書・文淵閣本，葉 84-33a）"


@pytest.mark.django_db
def test_a_file_of_several_printed_juans_is_named_by_their_range_everywhere(tmp_path, client):
    """前漢書 KR2a0007_027 holds 卷二十七上 … 卷二十七下之下 and _028 卷二十八上 and 卷二十八下: each is named by the
    range of its printed 卷, both ends in full (decision 0089), on its page's title and heading, in the
    links to the juans before and after it, the breadcrumb and the API; it was 「卷二十七上至下之下」 on one
    page, 「卷二十八上・卷二十八下」 on another and 「卷二十八上等 →」 in a link. A section's breadcrumb names
    the printed 卷 it is in, as its citation does: /juan/1/12/ is in 卷一下 (it read 卷一上至下). The range
    typed in the search form's 卷 field names its juan."""
    juans = imported(tmp_path, HANSHU, "KR2a0007_001.txt", "KR2a0007_027.txt", "KR2a0007_028.txt")
    assert [j.display_label for j in juans] == ["卷一上至卷一下", "卷二十七上至卷二十七下之下", "卷二十八上至卷二十八下"]
    slug = juans[0].edition.slug
    page = client.get(f"/works/{slug}/juan/28/").content.decode()
    assert re.search(r"<title>(.*?)</title>", page)[1] == "前漢書（四庫全書・文淵閣本）卷二十八上至卷二十八下 · 經注閱讀"
    assert re.search(r'<span class="juan-label">(.*?)</span>', page)[1] == "卷二十八上至卷二十八下"
    assert re.findall(r'<a rel="prev" href="[^"]+"[^>]*>(.*?)</a>', page)[0] == "← 卷二十七上至卷二十七下之下"
    page = client.get(f"/works/{slug}/juan/27/").content.decode()
    assert re.findall(r'<a rel="next" href="[^"]+"[^>]*>(.*?)</a>', page)[0] == "卷二十八上至卷二十八下 →"
    assert re.findall(r'<a rel="prev" href="[^"]+"[^>]*>(.*?)</a>', page)[0] == "← 卷一上至卷一下"
    crumbs = re.search(r'<nav class="crumbs" aria-label="位置">(.*?)</nav>', page)[1]
    assert crumbs.endswith('<span aria-current="page">卷二十七上至卷二十七下之下</span>')
    section = client.get(f"/works/{slug}/juan/1/12/").content.decode()
    crumbs = re.search(r'<nav class="crumbs" aria-label="位置">(.*?)</nav>', section)[1]
    assert re.sub(r"<[^>]+>", "", crumbs).split(" › ")[-2:] == ["卷一下", "五年冬十月漢王追…"]
    assert f'<a href="/works/{slug}/juan/1/#s12">卷一下</a>' in crumbs
    first = client.get(f"/works/{slug}/juan/1/").content.decode()
    crumbs = re.search(r'<nav class="crumbs" aria-label="位置">(.*?)</nav>', first)[1]
    assert crumbs.endswith('<span aria-current="page">卷一上至卷一下</span>')
    edition = juans[0].edition_id
    data = client.get(f"/api/editions/{edition}/juans/28/").json()
    assert data["label"] == "卷二十八上至卷二十八下"
    data = client.get(f"/api/editions/{edition}/juans/1/sections/12/").json()
    assert data["juan"] == {"number": 1, "label": "卷一上至卷一下"}
    assert data["citation"].split("》")[1].split("〉")[0] == "卷一下〈高帝紀第一下"
    rows = client.get(f"/api/editions/{edition}/").json()["juans"]
    assert [(r["number"], r["label"]) for r in rows] == [
        (1, "卷一上至卷一下"), (27, "卷二十七上至卷二十七下之下"), (28, "卷二十八上至卷二十八下")]
    assert [j.number for j in matching_juans("卷二十八上至卷二十八下", juans)] == [28]
    assert [j.number for j in matching_juans("卷二十八下", juans)] == [28]
