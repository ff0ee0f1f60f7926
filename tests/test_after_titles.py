"""楚辭補注 KR4a0003 and 楚辭 KR4a0002 print each piece's title AFTER the piece, as deep as the list of
titles at the juan's head (九歌: 五臣云毎篇之目皆楚之神名所以列於篇後者…): each such title closes and names
the section before it, not the one after (``reader.importers.mandoku.after_titles``, decision 0098). On
real files of ``../shared/corpus``: 卷二 §3 (浴蘭湯兮沐芳…) was titled 東皇太一 and cited so, and 東皇太一
itself by its first words."""
from html import unescape

import pytest

from reader.importers.loader import import_file
from reader.importers.mandoku.after_titles import head_titles
from reader.importers.mandoku.parser import parse_mandoku

from .conftest import SHARED
from .test_commentary_editions import parse

NINE_SONGS = ["東皇太一", "雲中君", "湘君", "湘夫人", "大司命", "少司命", "東君", "河伯", "山鬼", "國殤", "禮魂"]
BUZHU = "kanripo-commentary/KR4a0003/KR4a0003_{:03d}.txt"
SBCK = "kanripo-commentary/KR4a0002/KR4a0002_{:03d}.txt"


def titled(doc):
    """``(title, first words)`` of each section of the juan's chapters."""
    return [(s.title, next((p.text for p in s.pieces if p.kind == "text"), "")[:5]) for s in doc.sections]


def pieces(doc):
    """The titles of the juan's pieces in order (a piece cut for size into sections counted once)."""
    out = []
    for s in doc.sections:
        if s.title and (not out or out[-1] != s.title):
            out.append(s.title)
    return out


def test_the_nine_songs_are_titled_by_the_title_printed_after_each():
    """九歌's eleven pieces, each section titled by the line after its last verse (湘君 and 湘夫人 are cut
    for size in two sections each, both titled); §1 the head list and 王逸's 序, untitled."""
    buzhu = parse(BUZHU.format(2))
    assert titled(buzhu) == [
        ("", "九歌者屈原"), ("東皇太一", "吉日兮辰良"), ("雲中君", "浴蘭湯兮沐"), ("湘君", "君不行兮夷"),
        ("湘君", "心不同兮媒"), ("湘夫人", "帝子降兮北"), ("湘夫人", "擗蕙櫋兮既"), ("大司命", "廣開兮天門"),
        ("少司命", "秋蘭兮麋蕪"), ("東君", "暾將出兮東"), ("河伯", "與女遊兮九"), ("山鬼", "若有人兮山"),
        ("國殤", "操吳戈兮被"), ("禮魂", "成禮兮會皷")]
    assert pieces(buzhu) == NINE_SONGS
    # each title line (with its note) is the last paragraph of the section it names, a label
    last = [(s.paragraphs[-1][0].kind, s.paragraphs[-1][0].text, s.paragraphs[-1][1].text[:6] if len(
        s.paragraphs[-1]) > 1 else "") for s in buzhu.sections[1:3]]
    assert last == [("label", "東皇太一", "五臣云毎篇之"), ("label", "雲中君", "雲神豐隆也一")]
    assert pieces(parse(SBCK.format(2))) == NINE_SONGS
    assert [s.title for s in parse(SBCK.format(2)).sections][:4] == ["", "東皇太一", "雲中君", "湘君"]


def test_every_juan_of_both_books_that_lists_its_pieces():
    """九章, 七諫, 九懷, 九歎, 九思 print their titles the same way; each piece's first words under its own
    title. A title the copy prints otherwise than its list (息悲 for 自悲, 株照 for 株昭) names its piece as
    printed; the 亂曰 a copy prints after the last title keeps that title (九懷 株照: 一本篇目在亂曰之後)."""
    nine = titled(parse(BUZHU.format(4)))
    assert [t for t in nine if t[0] and (t[0], t[1]) in {
        ("惜誦", "惜誦以致愍"), ("渉江", "余㓜好此竒"), ("哀郢", "皇天之不純"), ("悲囘風", "悲囘風之搖")}] == [
        ("惜誦", "惜誦以致愍"), ("渉江", "余㓜好此竒"), ("哀郢", "皇天之不純"), ("悲囘風", "悲囘風之搖")]
    assert pieces(parse(BUZHU.format(4))) == ["惜誦", "渉江", "哀郢", "抽思", "懷沙", "思美人", "惜往日", "橘頌", "悲囘風"]
    assert pieces(parse(BUZHU.format(13))) == ["初放", "沈江", "怨世", "怨思", "息悲", "哀命", "謬諫"]
    assert titled(parse(BUZHU.format(13)))[-1] == ("謬諫", "亂曰鸞皇孔")
    assert titled(parse(BUZHU.format(15)))[1:3] == [("匡機", "極運兮不中"), ("通路", "天門兮墬户")]
    assert titled(parse(BUZHU.format(15)))[-2:] == [("株照", "悲哉于嗟兮"), ("株照", "亂曰皇門開")]
    assert pieces(parse(BUZHU.format(16)))[:3] == ["逢紛", "離世", "怨思"]
    assert titled(parse(BUZHU.format(17)))[1:3] == [("逢尤", "悲兮愁哀兮"), ("怨上", "令尹兮謷謷")]
    assert pieces(parse(SBCK.format(4))) == ["惜誦", "渉江", "哀郢", "抽思", "懷沙", "思美人", "惜往日", "橘頌", "悲回風"]
    # 楚辭 卷十三: the list's last title 謬諫 stood as a heading over 王逸's 序 and the first piece
    assert titled(parse(SBCK.format(13)))[1:4] == [("", "七諫者東方"), ("初放", "平生於國兮"), ("沈江", "惟往古之得")]


def test_a_title_lost_with_a_page_closes_its_piece_at_that_page():
    """楚辭 四部叢刊 lost the pages 沈江, 自悲 (卷十三) and 離世 (卷十六) were printed on after their pieces
    (``<pb:…_013-9a>`` right over ``<pb:…_013-10a>``: 9a holds no line; 楚辭補注 prints the 49 characters
    of the classic and the title that are not there): each skipped title of the list closes its piece
    at the lost page, the note run on over it cut in two there, and the pieces after keep their own
    titles (沈江's piece was titled 怨世, 自悲's 哀命, 離世's 怨思)."""
    thirteen = parse(SBCK.format(13))
    assert titled(thirteen) == [
        ("", ""), ("", "七諫者東方"), ("初放", "平生於國兮"), ("沈江", "惟往古之得"), ("沈江", "追悔過之無"),
        ("怨世", "溷湛湛而日"), ("怨世", "意有所載而"), ("怨思", "賢士窮而隱"), ("自悲", "居愁懃其誰"), ("哀命", "分離"),
        ("謬諫", "怨靈脩之浩"), ("謬諫", "衆鳥皆有行"), ("謬諫", "亂曰鸞皇孔")]
    assert pieces(thirteen) == ["初放", "沈江", "怨世", "怨思", "自悲", "哀命", "謬諫"]
    assert pieces(parse(BUZHU.format(13))) == ["初放", "沈江", "怨世", "怨思", "息悲", "哀命", "謬諫"]
    # 沈江 ends at the lost page: the note 「…補曰戰國䇿云積羽沈舟…」 and the next page's 「補曰殱盡也…」 were one
    before, after = thirteen.sections[4], thirteen.sections[5]
    assert (before.pieces[-1].text[-10:], after.pieces[0].text, after.pieces[1].text) == (
        "羣輕折軸累釋文力瑞切", "補曰殱盡也瀐泉一見一否並音尖", "溷湛湛而日多")
    assert before.pieces[-1].layout[-1] == (len(before.pieces[-1].text), ")¶\n")
    assert after.pieces[0].layout[0] == (0, "<pb:KR4a0002_SBCK_013-9a>¶\n<pb:KR4a0002_SBCK_013-10a>¶\n(")
    # two lost pages between 初放 and 怨世, one title skipped: the second page's piece is undecided
    assert [w.split("KR4a0002_013.txt:")[1] for w in thirteen.warnings if "lost page" in w] == [
        "256:1: 2 lost pages before the title 怨世 and 1 title(s) of the head list not printed (沈江): the text "
        "after the first lost page keeps the title 怨世, undecided"]
    sixteen = parse(SBCK.format(16))
    assert titled(sixteen) == [
        ("", "九歎者護左"), ("逢紛", "伊伯庸之末"), ("離世", "靈懷其不吾"), ("離世", "䰟眷眷而獨"), ("怨思", "身憔悴而考"),
        ("逺逝", "志隱隱而鬱"), ("惜賢", "覽屈氏之離"), ("憂苦", "悲余心之悁"), ("愍命", "昔皇考之嘉"), ("思古", "冥冥深林兮"),
        ("逺遊", "悲余性之不")]
    assert pieces(sixteen) == pieces(parse(BUZHU.format(16))) == [
        "逢紛", "離世", "怨思", "逺逝", "惜賢", "憂苦", "愍命", "思古", "逺遊"]
    assert [(p.kind, p.text) for p in sixteen.sections[3].pieces[-2:] + sixteen.sections[4].pieces[:2]] == [
        ("note", "眷一作睠"), ("note", "補曰睠古倦切顧也"),
        ("note", "皃也言巳放逐心中鬱鬱憂而愁毒雖坎壈不遇志不離於忠信也補曰壈力感切"), ("text", "身憔悴而考旦兮")]
    assert not [w for w in sixteen.warnings if "lost page" in w]


def test_a_skipped_title_with_no_lost_page_is_left_out_and_said():
    """Where the list's title is skipped and no page is lost between the two returns, nothing tells where
    the piece ends: the text keeps the title printed after it, and the warning says so."""
    text = HEAD + POEMS[0] + "　　　　甲篇¶\n" + POEMS[1] + POEMS[2] + "　　　　丙篇¶\n"
    doc = parse_mandoku(text, "KR4a9999_002.txt")
    assert [(s.title, [p.text for p in s.pieces if p.kind != "note"][-2:]) for s in doc.sections] == [
        ("甲篇", ["天地玄黄兮宇宙洪荒", "甲篇"]), ("丙篇", ["寒來暑往兮秋收冬藏", "丙篇"])]
    assert doc.sections[1].pieces[0].text == "日月盈昃兮辰宿列張"
    assert [w for w in doc.warnings if "lost page" in w] == [
        "KR4a9999_002.txt:17:1: 1 title(s) of the head list not printed before the title 丙篇 (乙篇) and 0 lost "
        "page(s): 乙篇 left out, undecided"]
    lost = text.replace(POEMS[2], "<pb:KR4a9999_WYG_002-2a>¶\n<pb:KR4a9999_WYG_002-3a>¶\n" + POEMS[2])
    doc = parse_mandoku(lost, "KR4a9999_002.txt")
    assert [(s.title, [p.text for p in s.pieces if p.kind != "note"][-2:]) for s in doc.sections] == [
        ("甲篇", ["天地玄黄兮宇宙洪荒", "甲篇"]), ("乙篇", ["日月盈昃兮辰宿列張"]), ("丙篇", ["寒來暑往兮秋收冬藏", "丙篇"])]
    assert not [w for w in doc.warnings if "lost page" in w]


def test_the_head_list_is_the_chapters_list_of_its_pieces():
    """九歌's list under its heading is the book's list of the chapter's pieces, not 王逸's 序: each line a
    title of its own (a label in a paragraph of its own, with 洪興祖's note on it), layer name 目録, no
    writer; it was one run of 序跋 text 「雲中君湘君湘夫人大司命少司命東君河伯山鬼國殤禮魂」. 王逸's 序 follows."""
    for book in (BUZHU, SBCK):
        first = parse(book.format(2)).sections[0]
        assert [[(p.kind, p.effective_layer, p.layer_name, p.commentator, p.text[:8]) for p in para]
                for para in first.paragraphs[:3]] == [
            [("label", "paratext", "目録", "", "東皇太一"), ("note", "commentary", "補注", "洪興祖", "一本自東皇太一至")],
            [("label", "paratext", "目録", "", "雲中君")], [("label", "paratext", "目録", "", "湘君")]]
        assert [para[0].text for para in first.paragraphs[:11]] == NINE_SONGS
        assert (first.paragraphs[11][0].layer_name, first.paragraphs[11][0].commentator,
                first.paragraphs[11][0].text[:9]) == ("序", "王逸", "九歌者屈原之所作也")
    # 九歎: each entry keeps its own note (a copy's other reading of the title)
    first = parse(SBCK.format(16)).sections[0]
    assert [(para[0].text, para[1].text if len(para) > 1 else "") for para in first.paragraphs[:4]] == [
        ("逢紛", ""), ("離世", "一作靈懷與諸本異又以怨思爲離世逺逝爲怨思移逺遊在第五皆非是"), ("怨思", "思一作世"), ("逺逝", "逝一作遊")]


def test_the_head_list_is_read_from_the_lines_under_the_chapter_heading():
    """The list: indented titles alone (a note after one), page markers between skipped."""
    lines = (SHARED / "corpus" / BUZHU.format(2)).read_text(encoding="utf-8").split("\n")
    assert head_titles(lines, 12) == (NINE_SONGS, 23)
    assert head_titles(lines, 24) == ([], 0)  # 王逸's 序: no list
    # a title printed again right under the list is its piece's (唐劉蛻集 卷二: 山書一十八篇(并序) over its text)
    liutui = ["唐劉蛻集第二卷¶", "　　山書一十八篇¶", "　　禹書上¶", "　　禹書下¶", "　　古漁父四篇¶", "　　　篇後序¶",
              "　　　山書一十八篇(并序)¶", "<pb:KR4c0080_SBCK_002-1b>¶", "予於山上著書一十八篇大不復物意茫¶"]
    assert head_titles(liutui, 2) == (["山書一十八篇", "禹書上", "禹書下", "古漁父四篇", "篇後序"], 6)


HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某集\n#+PROPERTY: ID KR4a9999\n#+PROPERTY: JUAN 卷二\n" \
       "<pb:KR4a9999_WYG_002-1a>¶\n欽定四庫全書¶\n　某集巻二¶\n　九歌章句第二　　離騷¶\n" \
       "　　　　甲篇¶\n　　　　乙篇¶\n　　　　丙篇¶\n九歌者某之所作(序之注)¶\n"
POEMS = ["天地玄黄兮宇宙洪荒(言天地也)¶\n", "日月盈昃兮辰宿列張(言日月也)¶\n", "寒來暑往兮秋收冬藏(言寒暑也)¶\n"]


def test_titles_printed_over_their_pieces_are_left_as_they_are():
    """A juan whose listed titles come back over their pieces (nothing of the classic but a preface before
    the first, the whole last piece after the last) keeps each title on the section after it; the same
    lines after their pieces close them."""
    over = HEAD + "".join(f"　　　　{t}¶\n{poem}" for t, poem in zip("甲乙丙", POEMS)).replace("¶\n天", "篇¶\n天") \
        .replace("¶\n日", "篇¶\n日").replace("¶\n寒", "篇¶\n寒")
    doc = parse_mandoku(over, "KR4a9999_002.txt")
    assert [(s.title, [p.text for p in s.pieces if p.kind == "text"][-1]) for s in doc.sections] == [
        ("", "九歌者某之所作"), ("甲篇", "天地玄黄兮宇宙洪荒"), ("乙篇", "日月盈昃兮辰宿列張"), ("丙篇", "寒來暑往兮秋收冬藏")]
    after = HEAD + "".join(f"{poem}　　　　{t}篇¶\n" for t, poem in zip("甲乙丙", POEMS))
    doc = parse_mandoku(after, "KR4a9999_002.txt")
    assert [(s.title, [p.text for p in s.pieces if p.kind == "text"][-1], s.pieces[-1].text) for s in doc.sections] == [
        ("甲篇", "天地玄黄兮宇宙洪荒", "甲篇"), ("乙篇", "日月盈昃兮辰宿列張", "乙篇"), ("丙篇", "寒來暑往兮秋收冬藏", "丙篇")]


@pytest.mark.django_db
def test_citation_contents_export_and_page_follow_the_titles(seed_juan, client):
    """The stored titles carry into the citation, the juan's contents, the TEI export and the reading
    page: 卷二 §3 is 雲中君 (浴蘭湯兮沐芳…), no longer 東皇太一."""
    juan = import_file(SHARED / "corpus" / BUZHU.format(2)).juan
    body = client.get(f"/api/works/{juan.work.pk}/juans/2/").json()
    sections = body["chapters"][0]["sections"]
    assert [s["title"] for s in sections] == ["", "東皇太一", "雲中君", "湘君", "湘君", "湘夫人", "湘夫人", "大司命",
                                             "少司命", "東君", "河伯", "山鬼", "國殤", "禮魂"]
    assert sections[2]["citation"].split(" http")[0] == \
        "〔宋〕洪興祖《楚辭補注》卷二〈九歌章句第二〉「雲中君」（四庫全書・文淵閣本，葉 2-4b）"
    tei = client.get(f"/api/works/{juan.work.pk}/juans/2/export/tei/").content.decode()
    second = tei[tei.index('<div type="section" n="2"'):tei.index('<div type="section" n="3"')]
    third = tei[tei.index('<div type="section" n="3"'):tei.index('<div type="section" n="4"')]
    # the title line, a label, closes the section it names: the last paragraph, with its note
    assert second.startswith('<div type="section" n="2" subtype="closed"><p><pb n="KR4a0003_WYG_002-2b" />吉日兮辰良')
    assert second.index("<p><label>東皇太一</label>") > second.index("君欣欣兮樂康") and "雲中君" not in second
    assert third.startswith('<div type="section" n="3" subtype="closed"><p>浴蘭湯兮沐芳')
    assert third.endswith("<p><label>雲中君</label><note type=\"commentary\" place=\"inline\" n=\"章句\" "
                          "resp=\"#王逸\">雲神豐隆也一曰屏翳巳見騷經漢書郊祀志有雲中君</note></p></div>")
    page = unescape(client.get(f"/works/{juan.work.slug}/juan/2/3/").content.decode())
    assert "浴蘭湯兮沐芳" in page and "吉日兮辰良" not in page
    assert "<title>雲中君" in page
