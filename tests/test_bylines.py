"""Bylines are metadata (issue 27): each person with his dynasty, native place and role, on
the edition; shown on the work page; the author of citations, dynasty included."""
import re

from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.bylines import byline_people, clean_author
from reader.citation import citation_text
from reader.models import Edition, Section, Work
from reader.people import cited_people, work_byline
from search.signals import muted

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_byline_people():
    assert byline_people("漢鄭氏注　唐陸德明音義　賈公彥疏") == [
        {"dynasty": "漢", "place": "", "name": "鄭氏", "role": "注"},
        {"dynasty": "唐", "place": "", "name": "陸德明", "role": "音義"},
        {"dynasty": "唐", "place": "", "name": "賈公彥", "role": "疏"}]
    assert byline_people("梁昭明太子撰　唐李善并五臣註")[1:] == [
        {"dynasty": "唐", "place": "", "name": "李善", "role": "註"},
        {"dynasty": "唐", "place": "", "name": "五臣", "role": "註"}]
    assert byline_people("婺源江永撰") == [{"dynasty": "", "place": "婺源", "name": "江永", "role": "撰"}]
    assert byline_people("後　魏　酈　道　元　撰") == [{"dynasty": "後魏", "place": "", "name": "酈道元", "role": "撰"}]
    assert clean_author("朝散大夫行太學博士弘文館學士臣賈公彦等") == "賈公彦"
    assert clean_author("上護軍曲阜縣開國子臣孔穎逹等奉勑") == "孔穎逹"
    assert clean_author("江永") == "江永"


def test_offices_are_no_part_of_the_author():
    path = JINGBU / "KR1d0027" / "KR1d0027_004.txt"  # 唐朝散大夫行太學博士弘文館學士臣賈　公彦　等撰
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    assert (doc.dynasty, doc.native_place, doc.author) == ("唐", "", "賈公彦")
    assert doc.bylines == [{"dynasty": "唐", "place": "", "name": "賈公彦", "role": "撰"}]


def test_zhouli_zhushu_byline_keeps_every_dynasty(client, db):
    """Front matter (卷〇, no byline) imported first, then 卷一: the work still gets 漢."""
    with muted():
        import_file(JINGBU / "KR1d0003" / "KR1d0003_000.txt")
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
    work = juan.work
    assert (work.dynasty, work.author) == ("漢", "鄭氏注　〔唐〕陸德明音義　賈公彥疏")
    edition = Edition.objects.get(slug="KR1d0003")
    assert edition.byline == [{"dynasty": "漢", "place": "", "name": "鄭氏", "role": "注"},
                              {"dynasty": "唐", "place": "", "name": "陸德明", "role": "音義"},
                              {"dynasty": "唐", "place": "", "name": "賈公彥", "role": "疏"}]
    section = Section.objects.filter(juan=juan).order_by("position").first()
    assert citation_text(section).startswith("〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義《周禮注疏》卷一")
    page = client.get("/works/KR1d0003/").content.decode()
    assert '<p class="byline">〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義' in page


def test_every_page_the_api_and_citations_name_a_works_people_by_one_rule(client, db):
    """The catalogue, work and juan pages, the API's work, juan and section and the citations
    name 周禮注疏's people by one rule (reader.people): Kanripo's catalogue lists the work, so
    its people (鄭玄, not the book's 鄭氏), each 〔dynasty〕name role; the juan page gave
    「婺源 江永」-like forms, the API the author field 「鄭氏注　〔唐〕陸德明音義　賈公彥疏」."""
    with muted():
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
    byline = "〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義"
    people = [{"dynasty": "漢", "name": "鄭玄", "role": "注"}, {"dynasty": "唐", "name": "賈公彥", "role": "疏"},
              {"dynasty": "唐", "name": "陸德明", "role": "音義"}]
    assert work_byline(juan.work, juan.edition) == byline
    assert f'<p class="byline">{byline}' in client.get("/works/KR1d0003/").content.decode()
    # under the juan's printed byline, the people by name, dynasty and role, not a second byline
    page = client.get("/works/KR1d0003/juan/1/").content.decode()
    assert f'<p class="byline">{byline}</p>' not in page and \
        '<p class="writers"><span class="writers-label">著者</span><span class="writer">鄭玄<span class="writer-facts">（漢，注）</span></span><span class="writer">賈公彥<span class="writer-facts">（唐，疏）</span></span><span class="writer">陸德明<span class="writer-facts">（唐，音義）</span></span></p>' in page
    assert f'<span class="byline">{byline}</span>' in client.get("/classes/KR1d/").content.decode()
    assert f'<span class="byline">{byline}</span>' in client.get("/").content.decode()
    work = client.get(f"/api/works/{juan.work_id}/").json()
    assert (work["author"], work["people"], work["dynasty"]) == (byline, people, "漢")
    head = {"id": juan.work_id, "title": "周禮注疏", "author": byline, "people": people}
    assert client.get(f"/api/editions/{juan.edition_id}/juans/1/").json()["work"] == head
    section = client.get(f"/api/editions/{juan.edition_id}/juans/1/sections/1/").json()
    assert section["work"] == head
    assert section["citation"].startswith(f"{byline}《周禮注疏》卷一〈天官冢宰第一〉「惟王建國辨方正位」")
    # A work the catalogue does not list: the people of the book's byline, read as printed.
    Work.objects.filter(pk=juan.work_id).update(kanripo_id="")
    Edition.objects.filter(pk=juan.edition_id).update(kanripo_id="")
    printed = "〔漢〕鄭氏注　〔唐〕陸德明音義　〔唐〕賈公彥疏"
    assert f'<p class="byline">{printed}</p>' in client.get("/works/KR1d0003/").content.decode()
    assert '<span class="writer">鄭氏<span class="writer-facts">（漢，注）</span></span>' \
        in client.get("/works/KR1d0003/juan/1/").content.decode()
    assert client.get(f"/api/works/{juan.work_id}/").json()["author"] == printed


def cited(client, edition, juan, position):
    """The citation of a section in every form the site gives it: the section page's cite
    box, the juan page's 引用 of that section, the juan page's 引用本卷 (the juan's citation)
    and the API's ``citation`` field."""
    section_page = client.get(f"/works/{edition.slug}/juan/{juan}/{position}/").content.decode()
    juan_page = client.get(f"/works/{edition.slug}/juan/{juan}/").content.decode()
    api = client.get(f"/api/editions/{edition.pk}/juans/{juan}/sections/{position}/").json()
    return (re.search(rf'<span class="citation" id="cite-s{position}" lang="zh-Hant">([^<]*)</span>', section_page)[1],
            re.search(rf'<span class="citation" id="cite-s{position}">([^<]*)</span>', juan_page)[1],
            re.search(r'<span class="citation" id="cite-juan" lang="zh-Hant">([^<]*)</span>', juan_page)[1],
            api["citation"])


def test_citations_name_the_editions_byline_in_every_form(client, db, seed_juan):
    """A citation names the work's people as every page does (reader.people: the catalogue's
    for a work it lists), each with his dynasty and role (〔唐〕 for 賈公彥 too, not the work's
    author field's 〔漢〕鄭氏注　〔唐〕陸德明音義　賈公彥疏); an author's own 撰 is left unsaid
    (〔清〕江永撰 → 〔清〕江永), and the seed's edition, one of the work KR1d0086, names the same."""
    with muted():
        zhouli = import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt").juan
        lishu = import_file(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt").juan
    assert zhouli.work.author == "鄭氏注　〔唐〕陸德明音義　賈公彥疏"  # the work's field, as before
    host = "http://testserver"
    people = "〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義"
    section = f"{people}《周禮注疏》卷一〈天官冢宰第一〉「惟王建國辨方正位」（四庫全書・文淵閣本，葉 1-1a）"
    assert cited(client, zhouli.edition, 1, 1) == (
        f"{section} {host}/works/KR1d0003/juan/1/1/", f"{section} {host}/works/KR1d0003/juan/1/1/",
        f"{people}《周禮注疏》卷一〈天官冢宰第一〉（四庫全書・文淵閣本，Kanripo KR1d0003_001） {host}/works/KR1d0003/juan/1/",
        f"{section} {host}/works/KR1d0003/juan/1/1/")
    assert lishu.edition.byline == [{"dynasty": "", "place": "婺源", "name": "江永", "role": "撰"}]
    section = "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（四庫全書・文淵閣本，葉 12-1b）"
    assert cited(client, lishu.edition, 12, 2) == (
        f"{section} {host}/works/KR1d0086/juan/12/2/", f"{section} {host}/works/KR1d0086/juan/12/2/",
        f"〔清〕江永《禮書綱目》卷十〈大射儀〉（四庫全書・文淵閣本，Kanripo KR1d0086_012） {host}/works/KR1d0086/juan/12/", f"{section} {host}/works/KR1d0086/juan/12/2/")
    assert seed_juan.edition.byline == []  # the seed's edition is one of the work KR1d0086: its people
    # the seed is one of 禮書綱目's two editions here (with KR1d0086): named as the other is
    section = "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（欽定四庫全書・純文字本）"
    assert cited(client, seed_juan.edition, 10, 2) == (
        f"{section} {host}/works/禮書綱目/juan/10/2/", f"{section} {host}/works/禮書綱目/juan/10/2/",
        f"〔清〕江永《禮書綱目》卷十〈大射儀〉（欽定四庫全書・純文字本） {host}/works/禮書綱目/juan/10/", f"{section} {host}/works/禮書綱目/juan/10/2/")
    # The TEI export's <author>s (the title statement's and the source's) name the same people as the citations.
    for edition, number, author in ((zhouli.edition, 1, people), (lishu.edition, 12, "〔清〕江永撰"),
                                    (seed_juan.edition, 10, "〔清〕江永撰")):
        tei = client.get(f"/api/editions/{edition.pk}/juans/{number}/export/tei/").content.decode()
        # one <author> per person: his role, dynasty (roleName) and name (persName), in both places
        authors = re.findall(r'<author role="([^"]*)"><roleName type="dynasty">([^<]*)</roleName><persName>([^<]*)</persName></author>', tei)
        assert "".join(f"〔{d}〕{n}{r}" for r, d, n in authors) == 2 * author.replace("\u3000", ""), authors
        assert re.search(r"<sourceDesc><bibl><author ", tei)
        assert ('<availability status="free"><licence target="https://creativecommons.org/licenses/by-sa/4.0/">'
                in tei) == bool(edition.kanripo_id)


REFERENCES = SHARED / "corpus" / "kanripo-references"


def test_a_shared_role_names_each_person_before_it():
    """同編: the people before it edited the book together, each kept apart as printed with the
    dynasty before them (左傳杜林合注's 「明　王道焜」 / 「趙如源　同編」 read 「趙如 源同 編」)."""
    assert byline_people("明　王道焜　趙如源　同編") == [
        {"dynasty": "明", "place": "", "name": "王道焜", "role": "同編"},
        {"dynasty": "明", "place": "", "name": "趙如源", "role": "同編"}]
    path = REFERENCES / "KR1e0092" / "KR1e0092_001.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    assert doc.bylines == byline_people("明　王道焜　趙如源　同編")


def test_offices_filling_a_line_and_a_title_before_the_commentator():
    """毛詩 (四部叢刊, KR1c0002): 卷一's 「唐國子愽士兼太子中允贈齊州刺史」 / 「呉縣開國男陸　德明釋文附」
    is 陸德明, whose 釋文 is attached (附); 卷十's heading line 「毛詩小雅　鄭氏箋」 is the book's
    title and 鄭氏's 箋 (it was read as 毛詩 of the native place 小雅鄭氏). 卷一 prints 鄭氏箋 too, on a line
    of its own under the 篇 heading with its note (``glued_titles.own_line_titles``): after 陸德明."""
    found = []
    for name in ("KR1c0002_001.txt", "KR1c0002_010.txt"):
        path = REFERENCES / "KR1c0002" / name
        found.append(parse_mandoku(path.read_text(encoding="utf-8"), str(path)).bylines)
    assert found == [[{"dynasty": "唐", "place": "", "name": "陸德明", "role": "釋文"},
                      {"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}],
                     [{"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}]]


def test_a_works_people_in_the_api_and_its_citation(client, db):
    """左傳杜林合注's API work names its four people as Kanripo's catalogue does (it said
    author 「源同」, dynasty 「晉」); its edition keeps the byline as printed; 六臣註文選 is cited
    by all its people (its citation dropped 「唐李善并五臣註」)."""
    with muted():
        juan = import_file(REFERENCES / "KR1e0092" / "KR1e0092_001.txt").juan
    work = client.get(f"/api/works/{juan.work_id}/").json()
    assert (work["author"], work["dynasty"]) == ("〔晉〕杜預注　〔宋〕林堯叟注　〔明〕王道焜編　〔明〕趙如源編", "晉")
    assert work["people"] == [{"dynasty": "晉", "name": "杜預", "role": "注"}, {"dynasty": "宋", "name": "林堯叟", "role": "注"},
                              {"dynasty": "明", "name": "王道焜", "role": "編"}, {"dynasty": "明", "name": "趙如源", "role": "編"}]
    assert juan.edition.byline == byline_people("明　王道焜　趙如源　同編")
    assert cited_people(Work(title="六臣註文選", kanripo_id="KR4h0003"), Edition()) == (
        "〔梁〕蕭統編　〔唐〕李善註　〔唐〕呂延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕呂向註　〔唐〕李周翰註")


def test_a_title_and_byline_line_is_neither_a_section_title_nor_text():
    """毛詩 卷二 and 卷七: 「毛詩國風　鄭氏箋」 on a line of its own was a section's title; it is
    layout, its person the juan's byline (once, though 卷七 prints it three times), and the file
    is written back byte for byte."""
    for name in ("KR1c0002_002.txt", "KR1c0002_007.txt"):
        path = REFERENCES / "KR1c0002" / name
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert [s.title for s in doc.sections if "鄭氏" in (s.title or "")] == []
        assert [p.text for p in doc.all_pieces() if "鄭氏箋" in p.text] == []
        assert doc.bylines == [{"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}]
        assert render_mandoku(doc) == text


def test_a_title_and_byline_after_a_headings_note_is_neither_text_nor_a_title():
    """毛詩 (KR1c0002, 四部叢刊) 卷三 五 九 十二 二十 print the 大題 and the commentator on the line
    of the 篇 heading's note, after it (卷三:12 ``(鄘音容…/…)毛詩國風　鄭氏箋``; 卷九 ``(…)鄭氏箋``):
    layout, as on a line of its own, and 鄭氏 the juan's byline; the 序 under them starts a
    paragraph of its own, and the file is written back byte for byte."""
    alone, titled = ["note"], ["note", "label", "note"]  # 卷九, 二十: 毛詩小雅(…), its own note, then 鄭氏箋
    for name, heading, kinds, opening in (("KR1c0002_003.txt", "鄘柏舟詁訓傳第四", alone, "柏舟共姜自誓也"),
                                          ("KR1c0002_005.txt", "齊雞鳴詁訓傳第八", alone, "雞鳴思賢妃也"),
                                          ("KR1c0002_009.txt", "鹿鳴之什詁訓傳第十六", titled, "鹿鳴燕羣臣嘉賔也"),
                                          ("KR1c0002_012.txt", "節南山之什詁訓傳第十九", alone, "節南山家父刺幽王也"),
                                          ("KR1c0002_020.txt", "駉詁訓傳第二十九", titled, "駉頌僖公也")):
        path = REFERENCES / "KR1c0002" / name
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert [p.text for p in doc.all_pieces() if "鄭氏箋" in p.text or "毛詩國風" in p.text] == [], name
        assert doc.bylines == [{"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}], name
        first = doc.chapters[0].sections[0]
        assert (doc.chapters[0].heading, [p.kind for p in first.paragraphs[0]], first.paragraphs[1][0].text[:len(opening)]) \
            == (heading, kinds, opening), name
        if kinds == titled:
            assert first.paragraphs[0][1].text in ("毛詩小雅", "毛詩魯頌")
        assert render_mandoku(doc) == text, name
    # 卷十九 (and 卷二十 那): the 大題 on a line of its own, printed lower, its note running on to 鄭氏箋
    path = REFERENCES / "KR1c0002" / "KR1c0002_019.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path))
    first = doc.chapters[0].sections[0]
    assert [[(p.kind, p.text[:4]) for p in para[:1]] for para in first.paragraphs[:3]] == [
        [("label", "毛詩周頌")], [("note", "也歌誦盛")], [("text", "清廟祀文")]]
    assert [p.text for p in doc.all_pieces() if "鄭氏箋" in p.text] == [] and render_mandoku(doc) == text


def test_the_title_of_a_book_of_readings_is_no_person():
    """經典釋文 (KR1g0003, 四部叢刊) prints each part's title under the juan's (卷二十三 ``　　　　孝經音義``)
    and its author's byline under that (``　　唐國子博士…陸德明撰``, one U+3000 in in 卷二 and 卷二十四):
    孝經 is no person with the role 音義 (nor 周 a dynasty and 易 a name in 周易音義); 陸德明 is the byline."""
    lu = [{"dynasty": "唐", "place": "", "name": "陸德明", "role": "撰"}]
    for name, people in (("KR1g0003_023.txt", lu), ("KR1g0003_002.txt", lu), ("KR1g0003_024.txt", lu),
                         ("KR1g0003_025.txt", lu),
                         ("KR1g0003_021.txt", [{"dynasty": "唐", "place": "", "name": "陸徳明", "role": "撰"}])):
        path = JINGBU / "KR1g0003" / name
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert doc.bylines == people, name
        assert render_mandoku(doc) == text, name


def test_a_numbered_part_of_a_book_of_readings_is_a_title_and_its_author_the_byline():
    """經典釋文 prints a book of readings in several juans with the part's number (卷三 ``尚書音義上``,
    卷十一 ``禮記音義之一``, 卷十六 ``春秋左氏音義之二``), most with the 篇 it holds in small print after it
    (``(起第六/盡第十)``, 卷二十六 ``(内篇/七)``), and 卷二十二 prints its 陸德明 flush under
    ``春秋榖梁音義``. The part's title and the byline were text glued to the first heading or lemma
    (``唐國子博士…陸德明撰僖中第六　杜氏　盡二十六年經十六年隕石``), or a section's title (卷二十九): both
    are the header now, 陸德明 the byline, and the juan's text opens with its first heading or lemma."""
    lu = [{"dynasty": "唐", "place": "", "name": "陸德明", "role": "撰"}]
    for name, part, first in (("KR1g0003_003.txt", "　　　尚書音義上(起第一/盡第五)¶", "尚書序"),
                              ("KR1g0003_011.txt", "　　　　禮記音義之一(起第一/盡第五)¶", "本或作曲禮上"),  # 曲禮第一's note
                              ("KR1g0003_016.txt", "　　　春秋左氏音義之二(起第六/盡第十)¶", "經十六年隕石"),
                              ("KR1g0003_022.txt", "春秋榖梁音義¶", "春秋榖梁序乾綱"),
                              ("KR1g0003_026.txt", "　　　莊子音義上(内篇/七)¶", "内者對外立名"),  # 内篇逍遥遊第一's note
                              ("KR1g0003_029.txt", "　　　　爾雅音義上¶", "爾雅序夫")):
        path = JINGBU / "KR1g0003" / name
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert doc.bylines == lu, name
        assert part in doc.header_lines and doc.header_lines[-1].endswith("陸德明撰¶"), name
        assert doc.all_pieces()[0].text.startswith(first), name
        title = part.strip("\u3000¶").split("(")[0]
        assert not [p.text for p in doc.all_pieces() if p.text.startswith(title) or "陸德明撰" in p.text], name
        assert render_mandoku(doc) == text, name


def test_a_byline_printed_flush_with_offices_and_native_place():
    """三國志 WYG prints its two bylines flush under the juan's title, each on a line of its own, the
    people led by dynasty, offices and native place (晉 著作郎 巴西中正, 安漢 陳壽; 宋 太中大夫 國子博士,
    聞喜 裴松之). They were classic text of the juan's first section in 29 files (and twice more in
    卷三十's file, which holds the ends of 卷二十八 and 卷二十九 too)."""
    assert byline_people("晉著作郎巴西中正安漢陳　壽撰") == [{"dynasty": "晉", "place": "安漢", "name": "陳壽", "role": "撰"}]
    assert byline_people("宋太中大夫國子博士聞喜裴松之注") == [
        {"dynasty": "宋", "place": "聞喜", "name": "裴松之", "role": "注"}]
    # after the humble 臣 no native place is printed; a surname of two characters begins the name
    assert byline_people("唐朝散大夫行太學博士弘文館學士臣賈公彦等撰")[0]["name"] == "賈公彦"
    assert byline_people("唐國子博士長孫無忌撰") == [{"dynasty": "唐", "place": "", "name": "長孫無忌", "role": "撰"}]
    # 舊唐書 WYG (kanripo-scale, not in the corpus the rule was made on) prints its byline so too
    assert byline_people("後晉司空同中書門下平章事劉　昫撰") == [{"dynasty": "後晉", "place": "", "name": "劉昫", "role": "撰"}]
    text = ("# -*- mode: mandoku-view -*-\n#+TITLE: 舊唐書\n#+PROPERTY: ID KR2a0026\n#+PROPERTY: JUAN 卷二\n"
            "<pb:KR2a0026_WYG_002-1a>¶\n欽定四庫全書¶\n　舊唐書卷二¶\n後晉司空同中書門下平章事劉　昫撰¶\n¶\n"
            "太宗上¶\n太宗文武大聖大廣孝皇帝諱世民髙祖第二子也¶\n　舊唐書卷二¶\n")
    doc = parse_mandoku(text, "KR2a0026_002.txt")
    assert render_mandoku(doc) == text
    assert doc.bylines == [{"dynasty": "後晉", "place": "", "name": "劉昫", "role": "撰"}]
    assert "".join(p.text for p in doc.all_pieces()) == "太宗上太宗文武大聖大廣孝皇帝諱世民髙祖第二子也"
    assert doc.trailer_lines == ["　舊唐書卷二¶"]
    folder = SHARED / "corpus" / "kanripo-commentary" / "KR2a0012"
    people = [{"dynasty": "晉", "place": "安漢", "name": "陳壽", "role": "撰"},
              {"dynasty": "宋", "place": "聞喜", "name": "裴松之", "role": "注"}]
    named = 0
    for path in sorted(folder.glob("KR2a0012_0*.txt")):
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert render_mandoku(doc) == text, path.name
        assert not [p.text for p in doc.all_pieces() if re.search(r"陳　[壽夀]撰|聞喜裴松之注|^魏志[卷巻]", p.text)], path.name
        assert not [s.title for s in doc.sections if s.title.startswith("魏志")], path.name
        printed = [dict(p, name="陳壽") if p["name"] == "陳夀" else p for p in doc.bylines]  # 7 juans print 夀
        named += printed == people
    assert named == 29  # 卷十六's file opens with no title page; 000 is the front matter


def test_a_courtesy_name_after_the_name_is_its_own_where_the_catalogue_decides():
    """Held-out 史部 bylines (kanripo-scale): 文獻通考 ``鄱　陽　馬　端　臨　貴　與　著``, 通典
    ``唐　京　兆　杜　佑　君　卿　纂`` and 通志 ``宋　右　廸　功　郎　鄭　樵　漁　仲　撰`` print the courtesy
    name after the name; the catalogue writes 馬端臨, 杜佑 and 鄭樵. 周易略例序's
    ``唐　四　　門　助　教　郉　璹　撰``: 四門助教 is his office, not his name."""
    assert byline_people("鄱\u3000陽\u3000馬\u3000端\u3000臨\u3000貴\u3000與\u3000著") == [
        {"dynasty": "", "place": "鄱陽", "name": "馬端臨", "role": "著", "courtesy": "貴與"}]
    assert byline_people("唐\u3000京\u3000兆\u3000杜\u3000佑\u3000君\u3000卿\u3000纂") == [
        {"dynasty": "唐", "place": "京兆", "name": "杜佑", "role": "纂", "courtesy": "君卿"}]
    assert byline_people("宋\u3000右\u3000廸\u3000功\u3000郎\u3000鄭\u3000樵\u3000漁\u3000仲\u3000撰") == [
        {"dynasty": "宋", "place": "", "name": "鄭樵", "role": "撰", "courtesy": "漁仲"}]
    assert byline_people("唐\u3000四\u3000\u3000門\u3000助\u3000教\u3000郉\u3000璹\u3000撰") == [
        {"dynasty": "唐", "place": "", "name": "郉璹", "role": "撰"}]


def test_a_juans_citation_names_its_own_chapters_on_its_page_and_in_the_api(client, db):
    """周禮注疏 卷八 goes on with 〈天官冢宰第一〉 and holds its 考證: its citation read
    《周禮注疏》卷八〈卷八考證〉, naming the editors' appendix as its chapter, and the juan API gave
    none. The page (引用本卷) and the API's ``citation`` give the same string, without the 考證."""
    with muted():
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_008.txt").juan
    page = client.get("/works/KR1d0003/juan/8/").content.decode()
    api = client.get(f"/api/works/{juan.work_id}/juans/8/").json()
    expected = ("〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義《周禮注疏》卷八（四庫全書・文淵閣本，Kanripo KR1d0003_008）"
                " http://testserver/works/KR1d0003/juan/8/")
    assert re.search(r'<span class="citation" id="cite-juan" lang="zh-Hant">([^<]*)</span>', page)[1] == expected
    people = [{"dynasty": "漢", "name": "鄭玄", "role": "注"}, {"dynasty": "唐", "name": "賈公彥", "role": "疏"},
              {"dynasty": "唐", "name": "陸德明", "role": "音義"}]
    assert {k: v for k, v in api.items() if k != "chapters"} == {
        "work": {"id": juan.work_id, "title": "周禮注疏", "author": "〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義",
                 "people": people},
        "edition": {"id": juan.edition_id, "slug": "KR1d0003", "name": "四庫全書・文淵閣本",
                    "url": f"http://testserver/api/editions/{juan.edition_id}/"},
        "number": 8, "label": "卷八", "printed_head": [
            {"kind": "title", "text": "周禮注疏卷八"}, {"kind": "byline", "text": "漢鄭氏注　唐陸徳明音義　賈公彥疏"}],
        "printed_end": ["周禮注疏卷八考證"],
        "reading_url": "http://testserver/works/KR1d0003/juan/8/", "citation": expected}
    assert [c["title"] for c in api["chapters"]] == ["", "卷八考證"]


def test_a_juan_that_goes_on_with_a_chapter_names_it_in_its_citations(client, db):
    """周禮注疏 卷二 goes on with 天官冢宰第一, which 卷一 heads (the work page lists it 〈天官冢宰第一〉（續））,
    and prints no heading of its own: its citation named no chapter, 《周禮注疏》卷二（…）, nor did its
    sections'. The juan's citation on its page and in the API, and each section's of that chapter,
    name the chapter as 卷一's do; its 考證 is still no chapter of the juan's citation, and a section of it
    is cited under its own title, the editors' (no byline). 卷一's citation is as it was."""
    with muted():
        import_file(JINGBU / "KR1d0003" / "KR1d0003_001.txt")
        juan = import_file(JINGBU / "KR1d0003" / "KR1d0003_002.txt").juan
    byline = "〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義"
    page = client.get("/works/KR1d0003/juan/2/").content.decode()
    api = client.get(f"/api/works/{juan.work_id}/juans/2/").json()
    expected = (f"{byline}《周禮注疏》卷二〈天官冢宰第一〉（四庫全書・文淵閣本，Kanripo KR1d0003_002）"
                " http://testserver/works/KR1d0003/juan/2/")
    assert re.search(r'<span class="citation" id="cite-juan" lang="zh-Hant">([^<]*)</span>', page)[1] == expected
    assert api["citation"] == expected
    assert [c["title"] for c in api["chapters"]] == ["", "卷二考證"]
    first, kaozheng = api["chapters"][0]["sections"][0], api["chapters"][1]["sections"][0]
    assert first["citation"] == (f"{byline}《周禮注疏》卷二〈天官冢宰第一〉「大宰之職掌建邦之…」"
                                 "（四庫全書・文淵閣本，葉 2-1a） http://testserver/works/KR1d0003/juan/2/1/")
    assert kaozheng["citation"] == ("《周禮注疏》卷二〈卷二考證〉（四庫全書・文淵閣本，葉 2-37a）"
                                    " http://testserver/works/KR1d0003/juan/2/12/")
    section = client.get("/works/KR1d0003/juan/2/1/").content.decode()
    assert "《周禮注疏》卷二〈天官冢宰第一〉「大宰之職掌建邦之…」" in section
    assert client.get(f"/api/works/{juan.work_id}/juans/1/").json()["citation"] == (
        f"{byline}《周禮注疏》卷一〈天官冢宰第一〉（四庫全書・文淵閣本，Kanripo KR1d0003_001）"
        " http://testserver/works/KR1d0003/juan/1/")


def test_a_person_who_led_others_has_his_role_and_and_others(client, db):
    """儀禮疏: Kanripo's catalogue lists 賈公彥 with the role 等撰 (the byline
    ``臣賈公彦等撰``: 賈公彥 and others wrote it), and the API gave ``{"name": "賈公彥", "role": "等撰"}``.
    His role is 撰; 等 is ``and_others``, shown as printed (〔唐〕賈公彥等撰) and cited with 撰 unsaid."""
    with muted():
        juan = import_file(JINGBU / "KR1d0027" / "KR1d0027_001.txt").juan
    people = [{"dynasty": "唐", "name": "賈公彥", "role": "撰", "and_others": True}]
    work = client.get(f"/api/works/{juan.work_id}/").json()
    assert (work["people"], work["author"]) == (people, "〔唐〕賈公彥等撰")
    api = client.get(f"/api/works/{juan.work_id}/juans/1/").json()
    assert api["work"] == {"id": juan.work_id, "title": "儀禮疏", "author": "〔唐〕賈公彥等撰", "people": people}
    assert api["citation"] == "〔唐〕賈公彥等《儀禮疏》卷第一〈士冠禮第一〉（四部叢刊本，Kanripo KR1d0027_001） http://testserver/works/KR1d0027/juan/1/"
    assert '<p class="writers"><span class="writers-label">著者</span><span class="writer">賈公彥等<span class="writer-facts">（唐，撰）</span></span></p>' in client.get("/works/KR1d0027/juan/1/").content.decode()


def test_a_work_nobody_names_is_shown_so(client, db):
    """The tls 周禮 (KR1d0001) stood on ``/classes/KR1d/`` with an empty byline: Kanripo's catalogue lists
    its plain text, ``周禮(正文)``, with no 人物 and no dynasty, and its files print no byline. Every page
    says 撰人未詳 (``reader.people.shown_byline``), beside 鄭玄's 周禮 (KR1d0002); the API's author and
    the citations name nobody, as before."""
    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo" / "KR1d0001" / "KR1d0001_006.txt").juan
        import_file(SHARED / "corpus" / "kanripo" / "KR1d0002" / "KR1d0002_001.txt")
    assert (work_byline(juan.work, juan.edition), cited_people(juan.work, juan.edition)) == ("", "")
    html = client.get("/classes/KR1d/").content.decode()
    assert re.findall(r'<li><a href="[^"]+">周禮</a>\s*<span class="byline">([^<]*)</span>', html) == [
        "撰人未詳", "〔漢〕鄭玄注　〔唐〕陸德明音義"]
    assert '<p class="byline">撰人未詳</p>' in client.get("/works/KR1d0001/").content.decode()
    assert '<p class="byline">撰人未詳</p>' in client.get("/works/KR1d0001/juan/6/").content.decode()
    assert client.get(f"/api/works/{juan.work_id}/").json()["author"] == ""
    assert citation_text(juan.sections.order_by("position").first()).startswith("《周禮》")


def test_a_classics_own_text_takes_its_author_from_the_catalogues_entry_of_its_commentaries(client, db):
    """春秋左傳 (the tls 正文, KR1e0001) stood on ``/classes/KR1e/`` as 撰人未詳: Kanripo's catalogue lists
    ``春秋左傳(正文)`` with nobody, while its ``春秋左傳注疏`` (KR1e0004) names 左丘明 撰 before 杜預 注, 孔穎達 疏,
    陸德明 音義. The catalogue's own entry of the same classic's commentaries names its author
    (``reader.commented_classic.plain_text_author``): of the catalogue's 13 entries of a classic's own text,
    the three 春秋 傳 take one (春秋穀梁注疏 names its 傳 without 傳); the others' commentaries name their
    commentator first (周禮注疏: 鄭玄 注) and stay 撰人未詳. Pages show the entry he was taken from; the API
    gives it as ``source``; citations and the author facet name him, the edition's own notes (its years,
    「(722 B.C.)」) are not his."""
    from catalogue.catalogue import PLAIN_TEXT
    from reader.book_writers import BookWriters, main_writers
    from reader.catalogue_writers import all_entries
    from reader.commented_classic import plain_text_author
    found = {e.kr_id: plain_text_author(e.kr_id) for e in all_entries() if e.title.endswith(PLAIN_TEXT)}
    assert len(found) == 13
    assert {k: (v[0].name, v[0].role, v[0].dynasty, v[1].kr_id, v[1].title) for k, v in found.items() if v} == {
        "KR1e0001": ("左丘明", "撰", "周", "KR1e0004", "春秋左傳注疏"),
        "KR1e0005": ("公羊高", "撰", "周", "KR1e0006", "春秋公羊傳注疏"),
        "KR1e0008": ("穀梁赤", "撰", "周", "KR1e0010", "春秋穀梁注疏")}
    assert plain_text_author("KR1e0004") is None and plain_text_author("KR1h0011") is None  # 孟子解: 蘇轍, no role
    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo" / "KR1e0001" / "KR1e0001_001.txt").juan
    shown = "〔周〕左丘明撰（據目錄《春秋左傳注疏》條）"
    html = client.get("/classes/KR1e/").content.decode()
    assert re.findall(r'<li><a href="[^"]+">春秋左傳</a>\s*<span class="byline">([^<]*)</span>', html) == [shown]
    assert f'<p class="byline">{shown}</p>' in client.get("/works/KR1e0001/").content.decode()
    assert f'<p class="byline">{shown}</p>' in client.get("/works/KR1e0001/juan/1/").content.decode()
    work = client.get(f"/api/works/{juan.work_id}/").json()
    assert (work["author"], work["people"], work["dynasty"]) == (
        "〔周〕左丘明撰", [{"dynasty": "周", "name": "左丘明", "role": "撰", "source": "KR1e0004"}], "周")
    assert citation_text(juan.sections.order_by("position").first()).startswith("〔周〕左丘明《春秋左傳》")
    assert main_writers(juan.work, juan.edition) == BookWriters(("左丘明",), ())


def test_one_dynasty_is_named_one_way_on_the_catalogue_the_api_citations_and_facets(client, db):
    """The catalogue wrote 〔宋〕范曄 (後漢書) and 〔劉宋〕劉義慶 (世說新語) as Kanripo's catalogue prints them, while the
    facets said 南朝宋 of 劉義慶 and 宋, the dynasty of 960-1279, of 范曄. Decision 0084: one dynasty, one name, the
    facets' (``reader.catalogue_writers.shown_people``): 劉宋 is 南朝宋, and 范曄, whom 梁 劉昭 and 唐 李賢 annotate, is
    of 南朝宋; the API's people and dynasty, the citations and the facets' writer dynasty say the same."""
    from reader.book_writers import _kept, writer_dynasty
    with muted():
        hou_han = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR2a0009" / "KR2a0009_123.txt").juan
        shishuo = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR3l0002" / "KR3l0002_003.txt").juan
    shown = "〔南朝宋〕范曄撰　〔晉〕司馬彪撰志　〔唐〕李賢注　〔梁〕劉昭注志"
    html = client.get("/classes/KR2a/").content.decode()
    assert re.findall(r'<li><a href="[^"]+">後漢書</a>\s*<span class="byline">([^<]*)</span>', html) == [shown]
    # the work's page names its one edition's people: 卷一百二十三 (a 札子) holds no note, its makers alone (0056)
    assert '<p class="byline">〔南朝宋〕范曄撰</p>' in client.get("/works/KR2a0009/").content.decode()
    html = client.get("/classes/KR3l/").content.decode()
    assert re.findall(r'<li><a href="[^"]+">世説新語</a>\s*<span class="byline">([^<]*)</span>', html) == [
        "〔南朝宋〕劉義慶撰　〔梁〕劉孝標注"]
    work = client.get(f"/api/works/{hou_han.work_id}/").json()
    assert (work["author"], work["dynasty"], work["people"][0]) == (
        shown, "南朝宋", {"dynasty": "南朝宋", "name": "范曄", "role": "撰"})
    assert client.get(f"/api/works/{shishuo.work_id}/").json()["dynasty"] == "南朝宋"
    assert citation_text(shishuo.sections.order_by("position").first()).startswith(
        "〔南朝宋〕劉義慶　〔梁〕劉孝標注《世説新語》卷中之下〈賞譽第八〉")
    _kept.clear()
    assert (writer_dynasty("范曄"), writer_dynasty("劉義慶"), writer_dynasty("李賢")) == ("南朝宋", "南朝宋", "唐")


def test_an_office_before_the_name_and_two_roles_joined():
    """後漢書 志 (KR2a0009 卷十一 onward) 「梁　剡　令劉　昭補幷注」: 劉昭, 令 of 剡縣 (an office, no part of
    his name), who supplied the 志 (補) and wrote their notes (注); 令狐 is a surname and 令史 an office
    of its own (蘭臺令史班固)."""
    liu = [{"dynasty": "梁", "place": "", "name": "劉昭", "role": "補"},
           {"dynasty": "梁", "place": "", "name": "劉昭", "role": "注"}]
    assert byline_people("梁　　　　剡　　　　令劉　昭補幷注") == liu
    assert byline_people("梁　　　剡　　　　　令劉　昭補并注") == liu
    assert byline_people("唐令狐德棻撰") == [{"dynasty": "唐", "place": "", "name": "令狐德棻", "role": "撰"}]
    assert byline_people("漢　　蘭　　臺　　令　　史班　固撰") == [{"dynasty": "漢", "place": "", "name": "班固", "role": "撰"}]
    assert clean_author("剡令劉昭") == "劉昭"
    path = SHARED / "corpus" / "kanripo-commentary" / "KR2a0009" / "KR2a0009_011.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    assert doc.bylines == liu


def test_a_byline_wrapped_onto_a_short_indented_line_is_the_byline():
    """春秋正義 (四部叢刊, KR1e0003) prints 孔穎達's byline under each juan's title, indented one or two
    U+3000, its last words wrapped onto the next line (``　　国子祭酒上護軍曲阜縣開国子臣孔穎達等奉`` over
    ``　　敕撰``; 卷十二 two U+3000 over one): it was stored as the first text of 孔穎達's 疏 (卷二: of the
    classic), the juan naming nobody. It is the byline (``header.Header.wrapped_byline``), layout under the
    title, in 29 juans (32 with the three printed three U+3000 in, read before; 卷三, 卷二十 and 卷二十七 open
    in mid-text, 卷二十九 prints no role): 卷一 too, whose title line is printed after the end of the 序 (``late_titles``).
    開国 and 開囯 end his offices as 開國 does. 胡安國's 春秋傳, bound in the same files, signs so under its
    part's title (「…臣胡安國奉」 / 「聖旨纂修」): a part's head is no juan's, and his signature stays the label
    of its section (``test_bound_books``)."""
    people, texts = {}, []
    for path in sorted((JINGBU / "KR1e0003").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, str(path))
        assert render_mandoku(doc) == text
        people[int(path.stem[-3:])] = [(p["name"], p["role"]) for p in doc.bylines]
        texts += [p.text for p in doc.all_pieces() if p.text.startswith(("国子祭酒", "國子祭酒", "國子癸酒"))]
    assert {n: v for n, v in people.items() if v} == {
        n: [(name, role)] for n, name, role in [
            (1, "孔穎達", "奉敕撰"), (2, "孔穎達", "奉敕撰"), (4, "孔穎逹", "奉勑撰"), (5, "孔穎達", "奉勑撰"),
            (6, "孔颖達", "奉勑撰"), (7, "孔穎逹", "奉勑撰"), (8, "孔穎逹", "奉勑撰"), (9, "孔穎逹", "奉敕撰"),
            (10, "孔穎達", "奉敕撰"), (11, "孔穎達", "奉敕撰"), (12, "孔頴逹", "奉敕撰"), (13, "孔穎逹", "奉敕撰"),
            (14, "孔穎達", "奉敕撰"), (15, "孔頴逹", "奉敕撰"), (16, "孔穎逹", "奉勑撰"), (17, "孔潁逹", "奉勑撰"),
            (18, "孔潁逹", "奉勑撰"), (19, "孔穎逹", "奉勑撰"), (21, "孔潁逹", "奉敕撰"), (22, "孔穎達", "奉敕撰"),
            (23, "孔穎逹", "奉勑撰"), (24, "孔穎達", "奉敕撰"), (25, "孔頴達", "奉敕撰"), (26, "孔穎達", "奉勑撰"),
            (28, "孔穎逹", "奉勑撰"), (30, "孔頴逹", "奉勑撰"), (31, "孔穎達", "奉勑撰"), (32, "孔頴逹", "奉敕撰"),
            (33, "孔穎逹", "奉敕撰"), (34, "孔頴達", "奉勑撰"), (35, "孔穎逹", "奉勑撰"), (36, "孔頴逹", "奉勑撰")]}
    assert texts == ["國子癸酒上護軍曲阜縣開國子臣孔\u3000頴達\u3000等奉"]  # 卷二十九 prints no role: no byline


def test_names_run_together_before_their_role_are_read_by_the_catalogues_people():
    """六臣註文選 卷首 ``唐吕延濟劉良張銑吕向李周`` over ``翰註``: the 五臣 printed with no space between them, one
    dynasty and one role for all (``bylines.listed_run``); each name must be one the catalogue lists with that
    role, in any variant form (吕 for 呂), and the whole run read, else nothing is read."""
    from catalogue.catalogue import Person
    from reader.importers.bylines import listed_entries, listed_run

    listed = tuple(Person(name=n, role="註", dynasty="唐") for n in ("李善", "呂延濟", "劉良", "張銑", "呂向", "李周翰"))
    assert listed_run("唐吕延濟劉良張銑吕向李周翰註", listed) == [
        ("唐吕延濟", "註"), ("唐劉良", "註"), ("唐張銑", "註"), ("唐吕向", "註"), ("唐李周翰", "註")]
    assert [listed_run(t, listed) for t in ("唐吕延濟劉良張銑吕向李周註", "唐李善註", "唐吕延濟劉良撰")] == [None] * 3
    five = [(f"唐{n}", "註") for n in ("吕延濟", "劉良", "張銑", "吕向", "李周翰")]
    assert listed_entries("梁昭明太子撰　唐李善註　唐吕延濟劉良張銑吕向李周翰註", listed) == [
        ("梁昭明太子", "撰"), ("唐李善", "註"), *five]
    assert listed_entries("唐吕延濟劉良張銑吕向李周翰註", ()) is None
    assert byline_people("唐吕延濟劉良張銑吕向李周翰註") == []  # (the catalogue not given: nothing read)
    assert byline_people("唐吕延濟劉良張銑吕向李周翰註", listed) == [
        {"dynasty": "唐", "place": "", "name": who[1:], "role": "註"} for who, _ in five]
