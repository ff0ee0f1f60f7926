"""Commentary editions of layouts the shared corpus does not have (issue 27, "books the team
has not seen"): excerpts of Kanripo files copied exactly, each with its repository and
commit, and what the importer must read in them."""
import json

import pytest

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.explain import explain
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku

# kanripo/KR3j0010 (淮南鴻烈解, 四庫全書 文淵閣), KR3j0010_001.txt at commit
# 9b26e5e829bb4b84097ca429178ff79db908aeb7: the juan's head, its first lines and its end.
# The 篇 title 原道訓 is printed two columns in with its note after it; the text is flush.
HUAINAN = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 淮南鴻烈解\n"
    "#+DATE: 2015-08-24 23:19:27.360998\n"
    "#+PROPERTY: ID KR3j0010\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷一\n"
    "<pb:KR3j0010_WYG_001-1a>¶\n"
    "欽定四庫全書¶\n"
    "　淮南鴻烈解卷一¶\n"
    "　　　　　　　　　　　　　漢　髙誘　注¶\n"
    "　　原道訓(原本也本道根真包裹天地以/歴萬物故曰原道因以題篇)¶\n"
    "夫道者覆天載地廓四方柝(托/)八極(廓張也柝開也/八極八方之極)髙¶\n"
    "不可際深不可測(際至/也)包裹天地稟授無形(萬物之未/形者皆生)¶\n"
    "(於道故曰稟/授無形也)源流泉浡沖而徐盈混混汨(骨/)汨濁而徐¶\n"
    "<pb:KR3j0010_WYG_001-23a>¶\n"
    "(機弩機關/言其疾也)如是則萬物之化無不遇(遇時/也)而百事之變¶\n"
    "無不應¶\n"
    "　¶\n"
    "<pb:KR3j0010_WYG_001-23b>¶\n"
    "　¶\n"
    "　淮南鴻烈解卷一¶\n"
)
HEADING_NOTE = "原本也本道根真包裹天地以歴萬物故曰原道因以題篇"


def test_an_indented_pian_title_over_flush_text_is_a_heading_with_its_note():
    doc = parse_mandoku(HUAINAN, "KR3j0010_001.txt")
    assert [c.title for c in doc.chapters] == ["原道訓"]
    first = doc.sections[0].pieces
    assert [(p.kind, p.text) for p in first[:4]] == [
        (NOTE, HEADING_NOTE), (TEXT, "夫道者覆天載地廓四方柝"), (NOTE, "托"), (TEXT, "八極")]
    assert all(p.text != "原道訓" for s in doc.sections for p in s.pieces)
    assert doc.bylines == [{"dynasty": "漢", "place": "", "name": "髙誘", "role": "注"}]
    assert render_mandoku(doc) == HUAINAN


@pytest.mark.django_db(transaction=True)
def test_the_pian_title_and_its_note_reach_the_api(empty_transactional_db, tmp_path, client):
    path = tmp_path / "KR3j0010_001.txt"
    path.write_bytes(HUAINAN.encode("utf-8"))
    juan = import_file(path).juan
    chapter = json.loads(client.get(f"/api/editions/{juan.edition.pk}/juans/{juan.number}/").content)["chapters"][0]
    assert (chapter["title"], [p["text"] for p in chapter["heading_notes"]]) == ("原道訓", [HEADING_NOTE])
    assert chapter["sections"][0]["pieces"][0]["text"] == "夫道者覆天載地廓四方柝"
    assert juan.trailer == "\u3000淮南鴻烈解卷一¶"
    assert render_source(juan) == HUAINAN



def test_the_same_rule_on_the_shared_shuijingzhu_heading():
    """水經注 卷二 prints 河水 two columns in with the editors' note that calls it the 篇題."""
    from .conftest import SHARED
    path = SHARED / "corpus" / "kanripo-commentary" / "KR2k0058" / "KR2k0058_002.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, path.name)
    assert [c.title for c in doc.chapters] == ["河水"]
    assert [(p.kind, p.text[:10]) for p in doc.sections[0].pieces[:3]] == [
        (NOTE, "作河水二經文上復衍河"), (NOTE, "案二字原本誤連經文今"), (TEXT, "又南入蔥嶺山又從蔥嶺")]
    assert render_mandoku(doc) == text


# kanripo/KR4c0080 (唐劉蛻集, 四部叢刊), KR4c0080_001.txt at commit
# 42cc4466a93a2953690fef715c72103bb2a67bf1: lines 52-63, 65, 101-106 of the file. Each piece's
# title is printed lower than its text, some with a note after them (并序, 文粹爲皮日休作).
LIUTUI = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 唐劉蛻集\n"
    "#+PROPERTY: ID KR4c0080\n"
    "#+PROPERTY: BASEEDITION SBCK    \n"
    "#+PROPERTY: JUAN 1\n"
    "<pb:KR4c0080_SBCK_001-3b>¶\n"
    "風笛搖空兮舞袂衫衫胥不虔祈兮官資¶\n"
    "咲譚胡不戮狡胥兮狥此潔嚴胡不辠己¶\n"
    "之不正兮去此貪婪荷天子之優祿兮胡¶\n"
    "爲而不廉又何役女巫而(一作/兮)禱此空潭¶\n"
    "　　　弔屈原辭三章(并序)¶\n"
    "吁三閭大夫之事司馬相如(一作/長卿)班孟堅¶\n"
    "各有言蛻不載故也噫大夫之賢懷王之¶\n"
    "<pb:KR4c0080_SBCK_001-4a>¶\n"
    "事蛻得之涕泗下衣濡毫瀝(一作/血)辭噫大¶\n"
    "夫之爲臣千萬年其誰肖宋玉淮南王劉¶\n"
    "向東方朔王褒繼有悼語蛻一小儒也思¶\n"
    "賢人之作悲哿(一作/苛)人之佞著吊屈原(一/無)¶\n"
    "(原/字)辭三章吊公之志也雨濛湘波浮檝搖¶\n"
    "歌旣(一無/旣字)而悲伸𥿄波辭祈公兮采之¶\n"
    "　　　哀湘竹¶\n"
    "<pb:KR4c0080_SBCK_001-4b>¶\n"
    "悵二妃之淚竹圓紅滴滴兮臨乎煙沚竦¶\n"
    "尋懷沙之水兮恨之深¶\n"
    "　　　禺謗(文粹爲皮日休作)¶\n"
    "有肪兮墨而謂之不潔有泉兮壅而謂之¶\n"
    "唐劉蛻集第一卷¶\n"
)


def test_an_indented_title_with_its_note_over_flush_text_opens_a_titled_section():
    doc = parse_mandoku(LIUTUI, "KR4c0080_001.txt")
    assert render_mandoku(doc) == LIUTUI
    assert [s.title for s in doc.sections] == ["", "弔屈原辭三章", "哀湘竹", "禺謗"]
    assert [(p.kind, p.text) for p in doc.sections[1].pieces[:3]] == [
        (LABEL, "弔屈原辭三章"), (NOTE, "并序"), (TEXT, "吁三閭大夫之事司馬相如")]
    assert [(p.kind, p.text) for p in doc.sections[3].pieces] == [
        (LABEL, "禺謗"), (NOTE, "文粹爲皮日休作"), (TEXT, "有肪兮墨而謂之不潔有泉兮壅而謂之")]
    assert [(p.kind, p.text) for p in doc.sections[0].pieces] == [
        (TEXT, "風笛搖空兮舞袂衫衫胥不虔祈兮官資咲譚胡不戮狡胥兮狥此潔嚴胡不辠己之不正兮去此貪婪荷天子之優祿兮胡"
               "爲而不廉又何役女巫而"), (NOTE, "一作兮"), (TEXT, "禱此空潭")]


def test_a_short_sentence_with_its_note_at_the_texts_height_is_no_title():
    # the same lines with the title printed at the text's height: a sentence, not a title
    flush = LIUTUI.replace("\u3000\u3000\u3000禺謗(文粹爲皮日休作)", "禺謗(文粹爲皮日休作)")
    doc = parse_mandoku(flush, "KR4c0080_001.txt")
    assert render_mandoku(doc) == flush
    assert [s.title for s in doc.sections] == ["", "弔屈原辭三章", "哀湘竹"]
    assert [(p.kind, p.text) for p in doc.sections[2].pieces[-3:]] == [
        (TEXT, "悵二妃之淚竹圓紅滴滴兮臨乎煙沚竦尋懷沙之水兮恨之深禺謗"), (NOTE, "文粹爲皮日休作"),
        (TEXT, "有肪兮墨而謂之不潔有泉兮壅而謂之")]


def test_a_noted_line_under_a_title_is_its_author_not_a_title():
    """六臣註文選 卷二十九 (shared): ``　　與蘇武詩三首(五言/)`` then ``　　　李少卿(漢書曰…)``."""
    from .conftest import SHARED
    path = SHARED / "corpus" / "kanripo-commentary" / "KR4h0002" / "KR4h0002_029.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    assert "李少卿" not in [s.title for s in doc.sections]
    assert "蘇子卿" not in [s.title for s in doc.sections]
    assert [(s.title, _people(s)) for s in doc.sections if s.bylines][:3] == [
        ("與蘇武詩三首", ["李少卿"]), ("古詩四首", ["蘇子卿"]), ("四愁詩四首", ["張子平"])]


def _people(section):
    return [p["name"] + p["role"] for p in section.bylines]


def test_a_title_whose_note_runs_on_opens_its_section_and_the_author_is_its_byline():
    """六臣註文選 (KR4h0003, 四部叢刊) 卷三十三: ``　　　九章(…`` whose note runs on at the top of the
    next line, then ``　　　屈平(王逸注)`` over the flush text: 九章 titles its section, 屈平 and
    王逸 are its byline, the name a label (not text, not a title); the same for 卜居, 漁父, 九辯五首
    (``　　　宋玉(辭以辯之…`` whose note is commentary: 宋玉 alone), 招魂 and 招隠士; a poem's title
    under a commentator's line (卷三十二 ``　　　王逸注(…`` then ``　　　　東皇太一(…)``) still opens
    its section. The juan prints the titles of its groups' pieces after them and closes 山鬼 with
    ``　　右山鬼`` (``anthology_titles.closing_titles``): ``　　　少司命`` (line 48, after 少司命's last
    line, over 山鬼's first) is a label ending 少司命's section, which it titles (the group's byline
    with it; 山鬼 in two sections, cut for size, each with it), and ``　　渉江`` (卷三十三:151, over
    ``　　　卜居(…``) ends and titles 九章's, 卜居 opening its own section at its title."""
    from .conftest import SHARED
    folder = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003"
    text = (folder / "KR4h0003_033.txt").read_text(encoding="utf-8")
    doc = parse_mandoku(text, "KR4h0003_033.txt")
    assert render_mandoku(doc) == text
    assert [c.title for c in doc.chapters] == ["騷下"]  # the 類 printed at the juan's head, higher than 右山鬼
    assert [s.title for s in doc.sections] == [
        "少司命", "山鬼", "山鬼", "渉江", "卜居", "漁父", "九辯五首", "", "招魂", "", "", "", "招隠士"]
    assert [(s.line, _people(s)) for s in doc.sections if s.bylines] == [
        (14, ["屈平", "王逸註"]), (49, ["屈平", "王逸註"]), (87, ["屈平", "王逸註"]), (90, ["屈平", "王逸注"]),
        (153, ["屈平", "王逸註"]), (195, ["屈平", "王逸注"]),
        (223, ["宋玉"]), (294, ["宋玉"]), (348, ["宋玉", "王逸註"]), (416, ["宋玉", "王逸註"]),
        (486, ["宋玉", "王逸註"]), (548, ["宋玉", "王逸註"]), (587, ["劉安"])]  # untitled sections keep the piece's byline
    assert [(p.kind, p.text) for p in doc.sections[0].pieces[-1:] + doc.sections[1].pieces[:1]] == [
        (LABEL, "少司命"), (TEXT, "若有人兮山之阿被薜荔兮帶女蘿")]
    assert doc.sections[2].closer == "右山鬼" and doc.sections[1].closer is None
    zhang = doc.sections[3].pieces
    assert (zhang[-1].kind, zhang[-1].text) == (LABEL, "渉江")
    assert [(p.kind, p.text) for p in zhang[:9]] == [
        (LABEL, "九章"), (NOTE, "南之野故復作九章章著也眀也言已所陳"), (NOTE, "逸曰序曰九章者屈原之所作也屈原放江"),
        (NOTE, "又作九章自述其志凢義與九歌同"), (NOTE, "忠信之道甚眀著"), (NOTE, "翰曰原既放逐"),
        (LABEL, "屈平"), (NOTE, "王逸注"), (TEXT, "余㓜好此竒服兮年既老而不衰")]
    buju = doc.sections[4].pieces
    assert [(p.kind, p.text) for p in buju[:1]] + [(p.kind, p.text) for p in buju[6:9]] == [
        (LABEL, "卜居"), (LABEL, "屈平"), (NOTE, "王逸註"), (TEXT, "屈平既放三年")]
    assert [(p.kind, p.text) for p in doc.sections[6].pieces[5:9]] == [
        (LABEL, "宋玉"), (NOTE, "辭以辯之皆代原之意九義亦與九歌同"), (NOTE, "向曰玉屈原弟子惜其師忠信見放故作此"),
        (TEXT, "悲哉秋之為氣也")]
    assert doc.sections[0].bylines == [{"dynasty": "", "place": "", "name": "屈平", "role": ""},
                                       {"dynasty": "", "place": "", "name": "王逸", "role": "註"}]
    doc = parse_mandoku((folder / "KR4h0003_032.txt").read_text(encoding="utf-8"), "KR4h0003_032.txt")
    assert "東皇太一" in [s.title for s in doc.sections]
    # 卷十九 prints no 右 closer: ``　　述德`` after 補亡詩's last line is the next 類's name, the heading of
    # the chapter 述祖德詩二首's section opens
    doc = parse_mandoku((folder / "KR4h0003_019.txt").read_text(encoding="utf-8"), "KR4h0003_019.txt")
    assert [(c.heading, s.line, [(p.kind, p.text) for p in s.pieces[:1]]) for c in doc.chapters for s in c.sections
            if s.title == "述祖德詩二首"] == [("述德", 547, [(LABEL, "述祖德詩二首")])]
    assert "  section bylines: 13" in explain(parse_mandoku(text, "KR4h0003_033.txt"))  # 8 pieces, 13 sections


# kanripo/KR4c0080 (唐劉蛻集, 四部叢刊), KR4c0080_002.txt at commit
# 42cc4466a93a2953690fef715c72103bb2a67bf1: lines 1-22, 123-124, 140-141, 155-156, 191-192 and 199.
# The juan's own list of its pieces (山書一十八篇 … 篇後序), each piece's title over its text (the
# first with its note), and the editors' notes of another copy's reading (一作…, 一本無…, 結於一作爲非: the words, then 一作).
LIUTUI_2 = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 唐劉蛻集\n"
    "#+DATE: 2015-09-11 08:37:57.014332\n"
    "#+PROPERTY: ID KR4c0080\n"
    "#+PROPERTY: BASEEDITION SBCK    \n"
    "#+PROPERTY: WITNESS SBCK\n"
    "#+PROPERTY: JUAN 2\n"
    "#+PROPERTY: FILE SB04n0189-002唐劉蛻集-卷第二.\n"
    "<pb:KR4c0080_SBCK_002-1a>¶\n"
    "唐劉蛻集第二卷¶\n"
    "\u3000\u3000山書一十八篇¶\n"
    "\u3000\u3000禹書上¶\n"
    "\u3000\u3000禹書下¶\n"
    "\u3000\u3000古漁父四篇¶\n"
    "\u3000\u3000\u3000篇後序¶\n"
    "\u3000\u3000\u3000山書一十八篇(并序)¶\n"
    "<pb:KR4c0080_SBCK_002-1b>¶\n"
    "予於山上著書一十八篇大不復物意茫¶\n"
    "洋乎無竆自號爲山書¶\n"
    "天地之氣復則結者而爲山也融者而爲¶\n"
    "川也結於(結於一/作爲非)其所者安靜而不動融¶\n"
    "於其時者疏決以(一作/而)忘其及(其及一/作反)故¶\n"
    "\u3000\u3000\u3000禹書上¶\n"
    "以功不就而受誅則可謂勤民而死乎曰¶\n"
    "\u3000\u3000\u3000禹書下¶\n"
    "治天下之野見之於夏功而未見先於夏¶\n"
    "\u3000\u3000\u3000古漁父四篇(有後序)¶\n"
    "叟行山逐禽而逢虞人虞人反以罟而獵¶\n"
    "\u3000\u3000\u3000篇後序¶\n"
    "會昌甲子歲余於西巖下見版洗而得漁¶\n"
    "唐劉蛻集第二卷¶\n"
)


def test_a_juan_whose_notes_are_collation_formulas_gives_them_to_the_editors():
    doc = parse_mandoku(LIUTUI_2, "KR4c0080_002.txt")
    assert render_mandoku(doc) == LIUTUI_2
    notes = [(p.text, p.effective_layer, p.layer_name, p.effective_basis) for p in doc.notes()]
    assert notes == [
        ("并序", "commentary", "", "marked"),
        ("結於一作爲非", "editorial", "校記", "layout"), ("一作而", "editorial", "校記", "layout"),
        ("其及一作反", "editorial", "校記", "layout"), ("有後序", "commentary", "", "marked")]


# kanripo/KR4c0015 (九家集注杜詩, 四庫全書 文淵閣), KR4c0015_001.txt at commit
# 48ae33bec3f7829b7c993c2ff4f343c924f28c75: lines 103-108. A 集注: its 一作 note sits among the
# commentators' notes, and stays in the commentary.
DUSHI = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 九家集注杜詩\n"
    "#+PROPERTY: ID KR4c0015\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷一\n"
    "\u3000\u3000\u3000送高三十五書記(鮑云高書記適也字逹夫渤/海人少落魄客□宋間宋州)¶\n"
    "\u3000\u3000\u3000\u3000(刺史張九臯竒之舉有道調封丘尉不得志/去客河西河西節度使哥舒翰表為左驍衛)¶\n"
    "\u3000\u3000\u3000\u3000(兵曺參軍/掌書記)¶\n"
    "<pb:KR4c0015_WYG_001-6b>¶\n"
    "崆峒小麥熟且(一作/吾)願休王師(家語宓子賤為單父宰/百姓化之齊攻魯道由)¶\n"
    "(單父單父老請曰麥已熟矣今齊冦至不及人人自収/其麥請放民皆使出穫麥可以益種且不資冦三請而)¶\n"
)


def test_a_collation_formula_among_a_commentarys_notes_stays_commentary():
    doc = parse_mandoku(DUSHI, "KR4c0015_001.txt")
    assert render_mandoku(doc) == DUSHI
    notes = doc.notes()
    # the book's profile (voices.JIUJIA) names the layer of a note with no formula 注
    assert ("一作吾", "commentary", "注") in [(p.text, p.effective_layer, p.layer_name) for p in notes]
    assert [p.text[:6] for p in notes if p.effective_layer != "commentary"] == []
    assert sum(len(p.text) for p in notes) == 126


def test_a_juans_own_list_of_its_pieces_is_a_list_of_titles():
    """唐劉蛻集 卷二 lists its pieces before its text; every title of the list is printed again
    over its piece: each line is a title of its own, not one run of text glued to the first
    piece's title."""
    doc = parse_mandoku(LIUTUI_2, "KR4c0080_002.txt")
    assert [s.title for s in doc.sections] == ["", "山書一十八篇", "禹書上", "禹書下", "古漁父四篇", "篇後序"]
    assert [[(p.kind, p.text) for p in para] for para in doc.sections[0].paragraphs] == [
        [(LABEL, "山書一十八篇")], [(LABEL, "禹書上")], [(LABEL, "禹書下")], [(LABEL, "古漁父四篇")],
        [(LABEL, "篇後序")]]
    assert [(p.kind, p.text) for p in doc.sections[1].pieces[:3]] == [
        (LABEL, "山書一十八篇"), (NOTE, "并序"), (TEXT, "予於山上著書一十八篇大不復物意茫洋乎無竆自號爲山書天地之氣復則結者而爲山也融者而爲川也結於")]


def test_lines_the_text_does_not_go_on_to_print_as_titles_are_no_list():
    # the same head with a last line no piece repeats, right before the first piece's title:
    # the lines are not followed by the first entry's piece, so nothing says they are a list
    changed = LIUTUI_2.replace("\u3000\u3000\u3000篇後序¶\n", "\u3000\u3000\u3000篇外序¶\n", 1)
    doc = parse_mandoku(changed, "KR4c0080_002.txt")
    assert render_mandoku(doc) == changed
    assert [(p.kind, p.text) for p in doc.sections[0].pieces[:2]] == [
        (TEXT, "山書一十八篇禹書上禹書下古漁父四篇"), (TEXT, "篇外序山書一十八篇")]


# kanripo/KR4c0080 (唐劉蛻集, 四部叢刊), KR4c0080_000.txt at commit
# 42cc4466a93a2953690fef715c72103bb2a67bf1: lines 1-16 and 49-61. The book's 目錄: the juans'
# titles (第一卷) and their pieces', one a line, then its end title and the next part (紀事).
LIUTUI_0 = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 唐劉蛻集\n"
    "#+DATE: 2015-09-11 08:37:56.867331\n"
    "#+PROPERTY: ID KR4c0080\n"
    "#+PROPERTY: BASEEDITION SBCK    \n"
    "#+PROPERTY: WITNESS SBCK\n"
    "#+PROPERTY: JUAN 0\n"
    "#+PROPERTY: FILE SB04n0189-000唐劉蛻集-目録.\n"
    "<pb:KR4c0080_SBCK_000-1a>¶\n"
    "唐劉蛻集目錄¶\n"
    + "\u3000" * 13 + "明吳馡編輯¶\n"
    "\u3000第一卷¶\n"
    "\u3000\u3000文泉子集序¶\n"
    "\u3000\u3000\u3000憫禱辭¶\n"
    "\u3000\u3000\u3000弔屈原辭三章¶\n"
    "\u3000\u3000\u3000\u3000哀湘竹¶\n"
    "\u3000\u3000第六卷¶\n"
    "<pb:KR4c0080_SBCK_000-3b>¶\n"
    "\u3000\u3000投知已書¶\n"
    "\u3000\u3000答知已書¶\n"
    "\u3000\u3000論江陵耆老書¶\n"
    "\u3000\u3000江南論鄉飲酒禮書¶\n"
    "唐劉蛻集目錄¶\n"
    "#+PROPERTY: JUAN 0\n"
    "#+PROPERTY: FILE SB04n0189-000唐劉蛻集-紀事.\n"
    "<pb:KR4c0080_SBCK_000-4a>¶\n"
    "刻唐劉蛻集紀事¶\n"
    "讀唐代文嘗癖劉蛻恨全書未獲¶\n"
)


def test_a_contents_juan_is_a_list_of_titles_one_a_line():
    doc = parse_mandoku(LIUTUI_0, "KR4c0080_000.txt")
    assert render_mandoku(doc) == LIUTUI_0
    assert doc.bylines == [{"dynasty": "明", "place": "", "name": "吳馡", "role": "編輯"}]
    entries = doc.sections[0]
    assert [[(p.kind, p.text) for p in para] for para in entries.paragraphs] == [
        [(LABEL, t)] for t in ("第一卷", "文泉子集序", "憫禱辭", "弔屈原辭三章", "哀湘竹", "第六卷", "投知已書",
                               "答知已書", "論江陵耆老書", "江南論鄉飲酒禮書")]
    assert all(p.kind != TEXT for p in entries.pieces)
    assert [c.title for c in doc.chapters][1:] == ["紀事"]  # JUAN 0, named by its FILE
    assert [p.text for p in doc.chapters[1].sections[0].pieces] == ["刻唐劉蛻集紀事讀唐代文嘗癖劉蛻恨全書未獲"]


def test_a_title_whose_note_runs_on_lower_over_flush_text_opens_its_section():
    """九家集注杜詩 prints a poem's title three columns in, its note running on over two lines
    four columns in, and the poem flush: the title opens the poem's section, its note one note
    (宋州刺史 read across the line: ``mandoku.hung_notes``)."""
    doc = parse_mandoku(DUSHI, "KR4c0015_001.txt")
    assert [s.title for s in doc.sections] == ["送高三十五書記"]
    assert [(p.kind, p.text[:7]) for p in doc.sections[0].pieces[:5]] == [
        (LABEL, "送高三十五書記"), (NOTE, "鮑云高書記適也"), (TEXT, "崆峒小麥熟且"), (NOTE, "一作吾"), (TEXT, "願休王師")]
    assert doc.sections[0].pieces[1].text.endswith("宋州刺史張九臯竒之舉有道調封丘尉不得志去客河西河西節度使哥舒翰表為左驍衛兵曺參軍掌書記")



# kanripo/KR1b0027 (書集傳纂疏, 四庫全書 文淵閣), KR1b0027_001.txt at commit
# adfff449709111cbc38286deb820c229bfe99968: lines 1-15. 蔡沈's 集傳 in small print after the words
# it explains, then the word 纂疏 full size and 陳櫟's 纂疏 in small print.
ZUANSHU = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 書集傳纂疏\n"
    "#+DATE: 2015-08-24 22:02:37.251566\n"
    "#+PROPERTY: ID KR1b0027\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷一\n"
    "<pb:KR1b0027_WYG_001-1a>¶\n"
    "欽定四庫全書¶\n"
    "\u3000書集傳纂疏卷一\u3000\u3000\u3000\u3000\u3000元\u3000陳櫟\u3000撰¶\n"
    "\u3000\u3000朱子訂定蔡氏集傳¶\n"
    "\u3000虞書(虞舜氏因以為有天下之號也書凡五篇堯典/雖紀唐堯之事然本虞史所作故曰虞書其舜)¶\n"
    "\u3000(典以下夏史所作當曰夏書春秋傳亦多/引為夏書此云虞書或以為孔子所定也)¶\n"
    "\u3000\u3000\u3000堯典(堯唐帝名説文曰典從冊在丌上尊閣之/也此篇以簡册載堯之事故名曰堯典後)¶\n"
    "\u3000\u3000\u3000(世以其所載之事可為常法故/又訓為常也今文古文皆有)纂疏(吕氏曰二/典如易之)¶\n"
    "\u3000\u3000\u3000(有乾坤字丌巨基反愚按丌即今板閣/形也典  册在丌上在六書為象形)¶\n"
)


def test_the_word_a_book_is_named_after_labels_its_own_layer():
    doc = parse_mandoku(ZUANSHU, "KR1b0027_001.txt")
    assert render_mandoku(doc) == ZUANSHU
    # (虞書 and 堯典, the 書's part and 篇, are still read as text with their notes: not pinned here)
    assert [(p.kind, p.text[:6], p.effective_layer, p.layer_name) for p in doc.sections[0].pieces[-3:]] == [
        (NOTE, "堯唐帝名説文", "commentary", ""), (LABEL, "纂疏", "subcommentary", "纂疏"),
        (NOTE, "吕氏曰二典如", "subcommentary", "纂疏")]


def test_the_same_pieces_in_li_shans_wenxuan_with_their_author_and_commentator_lines():
    """文選 李善註 (KR4h0002, 四庫全書) 卷三十三 prints the same pieces another way: the title's note
    runs on indented (``　　九章一首(…`` then ``　　　(所陳忠信之/道甚明著也)``), the author and the
    commentator each on a line of his own (``　　　屈平``, ``　　　　王逸注``), and the piece's title
    under them (``　　　渉江``): a piece of 九章, titled over its text, 屈平's with 王逸's 注 as 九章 is
    (``piece_groups.parted_title``)."""
    from .conftest import SHARED
    path = SHARED / "corpus" / "kanripo-commentary" / "KR4h0002" / "KR4h0002_033.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, path.name)
    assert render_mandoku(doc) == text
    assert [s.title for s in doc.sections] == [
        "九歌二首", "少司命", "山鬼", "九章一首", "渉江", "卜居一首", "漁父一首", "九辯五首", "", "招魂一首", "", "",
        "招隠士一首"]
    # a group's pieces are its author's (九歌二首: 少司命, 山鬼; ``piece_groups``)
    assert [_people(s) for s in doc.sections] == [
        ["屈平", "王逸注"], ["屈平", "王逸注"], ["屈平", "王逸注"], ["屈平", "王逸注"], ["屈平", "王逸注"], ["屈平", "王逸注"], ["屈平", "王逸注"], ["宋玉", "王逸注"],
        ["宋玉", "王逸注"], ["宋玉", "王逸注"], ["宋玉", "王逸注"], ["宋玉", "王逸注"], ["劉安", "王逸注"]]  # untitled: the piece's
    assert [(p.kind, p.text) for p in doc.sections[3].pieces] == [
        (LABEL, "九章一首"), (NOTE, "序曰九章者屈原之所作也屈原放江南之野故復作九章章著也明也言己"),
        (NOTE, "所陳忠信之道甚明著也"), (LABEL, "屈平"), (LABEL, "王逸注")]
    assert [(p.kind, p.text) for p in doc.sections[4].pieces[:2]] == [(LABEL, "渉江"), (TEXT, "余幼好此竒服兮")]


def test_a_category_a_recurring_label_and_a_two_line_byline_are_no_titles():
    """Found when every title of kanripo-commentary and kanripo-jingbu was read with the rules
    above: 欽定詩經傳說彙纂 (KR1c0044) prints
    ``　　　集說(嚴氏粲曰…`` (its note running on) over the next poem's flush text, as a title would
    be, but 集說 opens 83 such lines of 卷五: a block's label; 七經孟子考文補遺 (KR1g0020) prints
    its authors on two lines over one role (``日本山井鼎`` over ``物觀　撰``): the juan's byline,
    not a section titled 日本山井鼎 or 物觀　撰; 文選 (六臣註) 卷二十一 ``　　百一`` over
    ``　　　百一詩(…`` over ``　　　　應璩(…``: 百一詩 is the title, 應璩 its author."""
    from .conftest import SHARED
    jingbu = SHARED / "corpus" / "kanripo-jingbu"
    doc = parse_mandoku((jingbu / "KR1c0044" / "KR1c0044_005.txt").read_text(encoding="utf-8"), "KR1c0044_005.txt")
    assert "集說" not in [s.title for s in doc.sections]
    path = jingbu / "KR1g0020" / "KR1g0020_002.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, path.name)
    assert render_mandoku(doc) == text
    assert doc.bylines == [{"dynasty": "", "place": "日本", "name": "山井鼎", "role": "撰"},
                           {"dynasty": "", "place": "", "name": "物觀", "role": "撰"}]
    assert [c.title for c in doc.chapters] == ["周易兼義上經需傳第二"]
    assert [s.title for s in doc.sections][:3] == ["需", "訟", "師"]
    path = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_021.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    assert [(s.title, _people(s)) for s in doc.sections][:4] == [
        ("詠史詩", ["王仲宣"]), ("三良詩", ["曹子建"]), ("詠史詩八首", ["左太沖"]), ("", ["左太沖"])]
    assert [(s.title, _people(s)) for s in doc.sections][10:13] == [  # a group's pieces are its author's
        ("五君詠五首", ["顔延年"]), ("阮歩兵", ["顔延年"]), ("嵇中散", ["顔延年"])]
    assert [(s.title, _people(s)) for s in doc.sections if s.title.startswith("百一")] == [("百一詩", ["應璩"])]


def test_an_authors_line_under_a_title_is_read_from_below_in_both_editions_of_wenxuan():
    """An anthology prints a piece's title, then its author's name on a line of its own printed
    lower, each possibly with its own note (running on), then the piece's flush text: the name is
    the section's byline, never its title, even where the title itself was not read as one from
    above (a bare title; a title printed under a 類 name with its note, at the same height, going
    on that line's paragraph: 六臣註文選 卷三十五 ``　　冊(…)`` then ``　　冊魏公九錫文(…`` over
    ``　　　潘元茂(…``). Developed on 六臣註文選 (KR4h0003) and measured on 文選 李善註 (KR4h0002,
    held back): sections titled by a name a byline gives 42 -> 7 and 42 -> 4 (``scripts/list_bylines.py
    --sections``). A heading's sub-heading stays one (讀禮通考 ``　　補遺`` over ``　　　慈母``; a
    heading numbered in a series, ``　　變禮四`` over ``　　　喪不助祭(…)``), and so does 集說."""
    from .conftest import SHARED
    books = SHARED / "corpus" / "kanripo-commentary"
    expected = {
        "KR4h0003/KR4h0003_035.txt": [("七命", ["張景陽"]), ("詔", ["漢武帝"]), ("賢良詔", ["漢武帝"]),
                                       ("冊魏公九錫文", ["潘元茂"])],
        "KR4h0003/KR4h0003_042.txt": [("爲曹公作書與孫權", ["阮元瑜"]), ("與梁朝歌令吳質書", ["魏文帝"]),
                                       ("與吳質書", ["魏文帝"])],
        "KR4h0003/KR4h0003_037.txt": [("薦禰衡表", ["孔文舉"]), ("岀師表", ["諸葛孔明"])],
        "KR4h0002/KR4h0002_001.txt": [("兩都賦序", ["班孟堅"])],
        "KR4h0002/KR4h0002_037.txt": [("薦禰衡表", ["孔文舉"]), ("出師表", ["諸葛孔明"]), ("求自試表", ["曹子建"])],
    }
    for name, pieces in expected.items():
        path = books / name
        text = path.read_text(encoding="utf-8")
        doc = parse_mandoku(text, path.name)
        assert render_mandoku(doc) == text, name
        assert [(s.title, _people(s)) for s in doc.sections if s.bylines and s.title][:len(pieces)] == pieces, name
        names = {p["name"] for s in doc.sections for p in s.bylines}
        assert [s.title for s in doc.sections if s.title in names] == [], name
    author = next(s for s in parse_mandoku((books / "KR4h0003" / "KR4h0003_035.txt").read_text(encoding="utf-8"),
                                          "KR4h0003_035.txt").sections if s.title == "冊魏公九錫文")
    assert [(p.kind, p.text[:4]) for p in author.pieces[:9]] == [
        (LABEL, "冊魏公九"), (NOTE, "公加九錫"), (NOTE, "善曰後漢"), (NOTE, "賁四錫樂"), (NOTE, "有徳天子"), (NOTE, "秬鬯謂之"),
        (NOTE, "八錫鈇鉞"), (LABEL, "潘元茂"), (NOTE, "爲尚書郎")]
    path = SHARED / "corpus" / "kanripo" / "KR1d0051" / "KR1d0051_104.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    assert [(s.title, s.bylines) for s in doc.sections][:1] == [("變禮四", [])]
    path = SHARED / "corpus" / "kanripo" / "KR1d0051" / "KR1d0051_007.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    assert [(s.title, s.bylines) for s in doc.sections if s.line == 782] == [("慈母", [])]
    path = SHARED / "corpus" / "kanripo-jingbu" / "KR1c0044" / "KR1c0044_010.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    assert [s.title for s in doc.sections if s.bylines] == []
