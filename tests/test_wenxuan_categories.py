"""文選's 類 (情, 物色, 京都上 …) head the chapters of their pieces (``anthology_titles.category_headings``):
the 類's line, with the note it carries, is read as a chapter heading in both 文選 editions, so the
work page lists each juan's 類 and a piece is cited under its own 類, not under the last one the
structure step happened to read (六臣註文選 卷十四–三十六 were all 〈物色〉（續）, 卷十九's 洛神賦 cited as
卷第十九〈物色〉). Real files of ``../shared/corpus/kanripo-commentary``; each writes back byte for byte."""
import re

from reader.citation import citation_text
from reader.importers.document import LABEL, NOTE
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.lines import stacked_heads
from reader.juans import juan_contents
from reader.models import Juan

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"


def parse(rel: str):
    path = BOOKS / f"{rel}.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    return doc


def heads(doc):
    return [(c.title, c.category, c.heading) for c in doc.chapters]


def test_each_category_heads_a_chapter_in_both_editions():
    # 六臣 (四部叢刊) prints the 部 at one U+3000, the 類 at two, the piece's title at three: 　賦癸 over
    # 　　情(…) over 　　　髙唐賦; the 部 printed over the 類 is the chapter's category
    liuchen = parse("KR4h0003/KR4h0003_019")
    assert heads(liuchen) == [("情", "賦癸", "賦癸情"), ("詩甲", "", "詩甲"), ("述德", "", "述德"), ("勸勵", "", "勸勵")]
    first = liuchen.chapters[0].sections[0]
    assert (first.title, [(p.kind, p.text[:6]) for p in first.pieces]) == (
        "", [(NOTE, "情者外染也於"), (NOTE, "善曰易曰利貞")])  # 情's note: the heading's
    assert [s.title for s in liuchen.chapters[0].sections if s.title] == ["髙唐賦", "神女賦", "豋徒子好色賦", "洛神賦"]
    assert [p.text for p in liuchen.chapters[2].sections[0].pieces[:1]] == ["述祖德詩二首"]
    # 李善 (四庫全書) prints no 部 after 卷一 and each line one U+3000 higher: 　情(…) over 　　髙唐賦; its 類
    # alone in a section of its own there, over the section of the piece
    li = parse("KR4h0002/KR4h0002_019")
    # (the 部 詩 over the 類 補亡, each alone on its line: test_wenxuan_headings)
    assert heads(li) == [("情", "", "情"), ("補亡", "詩", "詩補亡"), ("述徳", "", "述徳"), ("勸勵", "", "勸勵")]
    # a 類 whose line the structure step left text with its note (勸勵) leaves the classic too
    assert [(p.kind, p.text[:4]) for p in li.chapters[3].sections[0].pieces] == [(NOTE, "勸者進善")]
    assert [(p.kind, p.text) for p in li.chapters[3].sections[1].pieces[:1]] == [(LABEL, "諷諫詩")]


def test_the_heads_of_other_juans():
    assert heads(parse("KR4h0003/KR4h0003_014"))[:2] == [("鳥獸", "", "鳥獸"), ("志上", "", "志上")]
    # 卷十五: 　　志中 alone on its line, the 類, over 思玄賦 (its title read as text: no author printed)
    assert heads(parse("KR4h0003/KR4h0003_015")) == [("志中", "", "志中")]
    # 卷第一: 　　京都上 titles its section over the group 班孟堅兩都賦二首 printed deeper; 賦甲 with its note
    # stays the juan's first section, before any 類
    assert heads(parse("KR4h0003/KR4h0003_001")) == [("", "", None), ("京都上", "", "京都上")]
    assert heads(parse("KR4h0002/KR4h0002_001")) == [("", "", None), ("京都上", "", "京都上")]
    # 卷三十三 closes 山鬼 with 右山鬼: 騷下, printed higher than that closer, is the 類; 渉江, printed as
    # low, is the title of the piece above (closing_titles), no 類
    assert heads(parse("KR4h0003/KR4h0003_033")) == [("騷下", "", "騷下")]
    # 卷五十: 史論下; the parts of 史述贊三首 (述成紀第十 …) are the group's pieces (test below)
    assert [t for t, _, _ in heads(parse("KR4h0003/KR4h0003_050"))] == ["史論下"]
    # a group's title (樂府十七首) between the 類 and the piece is no 類; an author's name ending in 首
    # (曹元首 under 六代論) is no group
    assert heads(parse("KR4h0003/KR4h0003_028"))[0] == ("樂府下", "", "樂府下")
    assert heads(parse("KR4h0002/KR4h0002_052")) == [("論上", "", "論上")]
    # front matter: the 目錄 prints 部, 類 and titles stacked the same way; they stay its labels
    assert [c.title for c in parse("KR4h0003/KR4h0003_000").chapters] == ["", "目録", "表"]


def test_a_piece_is_cited_under_its_own_category(db):
    juans = [import_file(BOOKS / "KR4h0003" / f"KR4h0003_0{n}.txt").juan for n in (18, 19, 20)]
    for juan in juans:
        assert render_source(juan) == (BOOKS / "KR4h0003" / juan.source_name.rsplit("/", 1)[-1]).read_text(encoding="utf-8")
    nineteen = juans[1]
    luoshen = nineteen.sections.get(title="洛神賦")
    assert citation_text(luoshen) == (
        "〔梁〕蕭統編　〔唐〕李善註　〔唐〕呂延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕呂向註　〔唐〕李周翰註"
        "《六臣註文選》卷第十九〈情〉曹子建「洛神賦」（四部叢刊本，葉 19-14b）")
    ordered = list(Juan.objects.filter(edition=nineteen.edition).order_by("number").prefetch_related("chapters"))
    juan_contents(ordered)
    assert [[(c.title, c.continued) for c in j.contents] for j in ordered] == [
        [("音樂下", False)], [("情", False), ("詩甲", False), ("述德", False), ("勸勵", False)],
        [("獻詩", False), ("公讌", False)]]


def bylines(doc):
    return [(s.line, s.title, [b["name"] + b["role"] for b in s.bylines]) for s in doc.sections if s.title]


def test_an_author_with_his_note_over_a_commentator_with_his_preface():
    # 六臣 卷二: ``　　　　張平子(…`` and its note running on, then ``　　　　薛綜註(…``: the piece's author and its
    # commentator, as 卷一 reads 兩都賦序's 班孟堅; so the juan prints its authors, and its 類 heads it
    second = parse("KR4h0003/KR4h0003_002")
    assert heads(second) == [("京都上", "", "京都上")]
    assert bylines(second) == [(14, "西京賦一首", ["張平子", "薛綜註"])]
    assert {tuple(b["name"] for b in s.bylines) for s in second.sections} == {("張平子", "薛綜")}
    # 卷三十二: 屈平(…) over 王逸註(…) under 離騷經, and under 九歌四首 (its first piece 東皇太一 too, under
    # ``　　　王逸注(…``, a commentator's line and no title over an author)
    騷 = parse("KR4h0003/KR4h0003_032")
    assert heads(騷) == [("騷上", "", "騷上")]
    assert bylines(騷) == [(14, "離騷經", ["屈平", "王逸註"]), (536, "九歌四首", ["屈平", "王逸注"]),
                          (543, "東皇太一", ["屈平", "王逸注"]), (566, "雲中君", ["屈平", "王逸注"]),
                          (589, "湘君", ["屈平", "王逸注"]), (650, "湘夫人", ["屈平", "王逸注"])]
    # 卷四 三都賦序 and 卷九 射雉賦 the same, in both editions
    assert [b for b in bylines(parse("KR4h0003/KR4h0003_004")) if b[1] == "三都賦序"] == [
        (306, "三都賦序", ["左太沖", "劉淵林註"])]
    assert [b for b in bylines(parse("KR4h0003/KR4h0003_009")) if b[1] == "射雉賦"] == [
        (235, "射雉賦", ["潘安仁", "徐爰註"])]
    assert [b for b in bylines(parse("KR4h0002/KR4h0002_009")) if b[1] == "射雉賦"] == [
        (177, "射雉賦", ["潘安仁", "徐爰注"])]


def test_the_notes_under_a_commentator_and_the_old_commentary():
    # 文選註 卷二 prints 薛綜's notes unsigned and 李善's after 善曰, as 卷三 (東京賦): the unsigned notes
    # under ``　　　　薛綜注(…`` are his; the note on 薛綜注 is one with its rest hung a column deeper under it
    # (並稱臣善以别之: ``mandoku.hung_notes``)
    li = parse("KR4h0002/KR4h0002_002")
    said = [(p.commentator, p.text[:6]) for p in li.all_pieces() if p.kind == NOTE][2:7]
    assert said == [("李善", "善曰舊注是者"), ("薛綜", "凴依託也虚無"), ("李善", "善曰博物志曰"), ("薛綜", "奓汰言公子生"),
                    ("李善", "善曰聲類曰奓")]
    assert [p.text for p in li.all_pieces() if p.kind == NOTE][2] == (
        "善曰舊注是者因而留之並於篇首題其姓名其有乖繆臣乃具釋並稱臣善以别之他皆類此")
    # 六臣 卷十五 ``　　　　張平子舊注(…`` under ``　　　思玄賦(…``: the author's name and 舊注 (李善 does not know
    # its maker), no commentator 張平子舊 nor 舊 (舊注 names nobody); 志中 stays the 類 (the piece's byline:
    # test_wenxuan_authors)
    fifteen = parse("KR4h0003/KR4h0003_015")
    assert heads(fifteen) == [("志中", "", "志中")] and [(b["name"], b["role"]) for b in fifteen.sections[0].bylines] == [
        ("張平子", ""), ("", "舊注")]


def test_headings_printed_as_deep_as_one_another():
    # 六臣 卷四十三 prints its 類, the title and the author each on a line of its own at one depth: they were
    # read as one heading 書下與山巨源絶交書一首 and 與嵇茂齊書一首趙景真 (text, under 孫子荆's byline)
    assert stacked_heads("　　書下¶", "　　與山巨源絶交書一首(山濤為選曹郎舉/善曰魏氏春秋曰)¶",
                         "(薄湯武大將軍聞而惡焉/翰曰山濤為吏/康自代康荅書拒絶因自説不堪流俗而非)¶")
    # a list's entries, one a line, go on as read (楚辭 卷十六's 篇 over its flush 序; the 目錄's titles)
    assert not stacked_heads("　　　思古¶", "　　　逺遊(遊一/作逝)¶", "九歎者護左都水使者光禄大夫劉向¶")
    assert not stacked_heads("　　　王仲宣登樓賦一首¶", "　　　孫興公遊天台山賦一首(并序)¶", "　　　鮑明遠蕪城賦一首¶")
    # ... and a block's label under a short line, its note going on indented (欽定書經傳說彙纂 卷五)
    assert not stacked_heads("　　　集傳今文古文皆有¶", "　　　集說(彭氏勗曰此篇綱領在迪德知人安民三者而已蓋)¶",
                             "　　　(故臯陶首推廣迪德之義中陳知人安民之事)¶")
    assert stacked_heads("　　　碑文上¶", "　　　郭有道碑文一首(并序)¶", "　　　　蔡伯喈(陳留人也)¶")
    forty_three = parse("KR4h0003/KR4h0003_043")
    assert heads(forty_three) == [("書下", "", "書下")]
    assert bylines(forty_three)[:3] == [(12, "與山巨源絶交書一首", ["嵇叔夜"]), (194, "為石仲容與孫皓書一首", ["孫子荆"]),
                                        (376, "與嵇茂齊書一首", ["趙景真"])]
    # 卷五十八 ``　　　碑文上`` over ``　　　郭有道碑文一首(并序)``, mid-juan: the 類 heads its chapter, as deep as the title
    fifty_eight = parse("KR4h0003/KR4h0003_058")
    assert heads(fifty_eight) == [("哀下", "", "哀下"), ("碑文上", "", "碑文上")]
    assert bylines(fifty_eight)[2:4] == [(242, "郭有道碑文一首", ["蔡伯喈"]), (316, "陳太丘碑文一首", ["蔡伯喈"])]
    assert [s.title for s in fifty_eight.chapters[1].sections if s.title][:2] == ["郭有道碑文一首", "陳太丘碑文一首"]


def test_a_group_titled_with_its_class_is_no_class():
    # 六臣 卷二十八 ``　樂府詩`` over ``　　㑹吟行(…`` and ``　　　謝靈運``, printed as high as ``　樂府下``: 謝靈運's
    # 樂府 of one piece (the 目錄: 樂府下 謝靈運樂府一首; 文選註 prints it as deep as 樂府詩八首), in 樂府下
    twenty_eight = parse("KR4h0003/KR4h0003_028")
    assert heads(twenty_eight) == [("樂府下", "", "樂府下"), ("雜歌", "", "雜歌")]
    huiyin = next(s for s in twenty_eight.sections if s.title == "㑹吟行")
    assert ([(p.kind, p.text) for p in huiyin.pieces if p.kind != NOTE][:3], huiyin.bylines[0]["name"]) == (
        [(LABEL, "樂府詩"), (LABEL, "㑹吟行"), (LABEL, "謝靈運")], "謝靈運")
    assert huiyin in twenty_eight.chapters[0].sections


def test_the_parts_of_a_group_are_its_pieces_not_chapters():
    # 卷五十: ``　　　史述賛三首`` over ``　　　　班孟堅`` over three 篇 headings of 漢書 (述髙紀第一 …), the pieces
    # 述髙紀贊, 述成紀贊, 述韓彭英盧吳傳贊 of the 目錄: each a section titled by its line, 班孟堅's; they were
    # chapters, and the 類's next piece, 後漢書光武紀賛, fell into 述韓英彭盧呉傳第四 without its author
    for rel, tail in (("KR4h0003/KR4h0003_050", [
            (479, "史述賛三首", ["班孟堅"]), (481, "述髙紀第一", ["班孟堅"]), (509, "述成紀第十", ["班孟堅"]),
            (516, "述韓英彭盧呉傳第四", ["班孟堅"]), (530, "後漢書光武紀賛", ["范蔚宗"])]), ("KR4h0002/KR4h0002_050", [
            (390, "史述贊三首", ["班孟堅"]), (392, "述高帝紀第一", ["班孟堅"]), (416, "述成紀第十", ["班孟堅"]),
            (423, "述韓英彭盧吳傳第四", ["班孟堅"]), (434, "後漢書光武紀贊", ["范蔚宗"])])):
        doc = parse(rel)
        assert bylines(doc)[-5:] == tail
    assert heads(parse("KR4h0003/KR4h0003_050")) == [("史論下", "", "史論下")]
    assert heads(parse("KR4h0002/KR4h0002_050")) == [("", "", None)]  # 李善 prints no 類 at its head


def test_the_pages_of_the_juans_whose_heads_changed(db, client):
    juans = {n: import_file(BOOKS / "KR4h0003" / f"KR4h0003_0{n:02d}.txt").juan for n in (2, 50)}
    for juan in juans.values():
        assert render_source(juan) == (BOOKS / "KR4h0003" / juan.source_name.rsplit("/", 1)[-1]).read_text(encoding="utf-8")
    assert [c.title for c in juans[2].chapters.order_by("position")] == ["京都上"]
    assert [c.title for c in juans[50].chapters.order_by("position")] == ["史論下"]
    shu = juans[50].sections.get(title="述成紀第十")
    assert citation_text(shu) == (
        "〔梁〕蕭統編　〔唐〕李善註　〔唐〕呂延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕呂向註　〔唐〕李周翰註"
        "《六臣註文選》卷第五十〈史論下〉班孟堅「述成紀第十」（四部叢刊本，葉 50-25b）")
    page = client.get(f"/works/KR4h0003/juan/50/").content.decode()
    assert "述成紀第十" in page and "述韓英彭盧呉傳第四" in page
    assert client.get("/works/KR4h0003/juan/2/").status_code == 200


def test_the_work_page_names_a_part_printed_over_its_class_before_it(db, client):
    """六臣 卷七 prints ``　賦`` over ``　　郊祀(…``, 卷十九 ``　賦癸`` over ``　　情(…``: the work page listed
    卷第七 〈郊祀〉賦〈畋獵〉 and 卷第十九 〈情〉賦癸〈詩甲〉, the 部 read as a word of the chapter list; it names the 部
    before the 類 it is printed over."""
    for n in (7, 19):
        import_file(BOOKS / "KR4h0003" / f"KR4h0003_{n:03d}.txt")
    page = client.get("/works/KR4h0003/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR4h0003/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    part = '<span class="category category-over">{}</span>'
    title = '<span class="chapter-title">〈{}〉</span>'
    assert rows == [("卷第七", part.format("賦") + title.format("郊祀") + title.format("畋獵")),
                    ("卷第十九", part.format("賦癸") + "".join(title.format(t) for t in ("情", "詩甲", "述德", "勸勵")))]
