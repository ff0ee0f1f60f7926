"""經典釋文's 篇 headings that print their note after the number (儀禮音義 ``士昬禮第二(鄭云…)納采``):
a chapter with its note, never text of the classic; the note running on over columns stays the
heading's (毛詩音義 ``邶(…)柏(…)舟第三(鄭云…)`` over ``(…)``)."""
from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.divisions import number_noted_heading

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu" / "KR1g0003"   # 經典釋文 (四部叢刊)


def _read(path):
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    return doc


def _chapter(doc, title):
    return next(c for c in doc.chapters if c.title == title)


def _first(chapter, n):
    return [(p.kind, p.text, p.layout) for p in chapter.sections[0].paragraphs[0][:n]]


def test_a_heading_whose_note_follows_its_number_is_a_chapter_with_its_note():
    """儀禮音義 卷十 prints each of its 17 篇 at the top of a column, its name and number, then 鄭玄's
    word on the 篇 (``士昬禮第二(鄭云士娶妻之禮…/…)納采``): the 16 mid-juan were text of the classic
    after the last lemma of the 篇 before (``…而諡(時志/反)``); each is a chapter, its note the
    heading's own (the chapter's first piece), the lemma after it text."""
    doc = _read(JINGBU / "KR1g0003_010.txt")
    assert [c.title for c in doc.chapters] == [
        "士冠禮第一", "士昬禮第二", "士相見禮第三", "郷飲酒禮第四", "郷射禮第五", "燕禮第六", "大射儀第七", "聘禮第八",
        "公食大夫禮第九", "覲禮第十", "喪服經傳第十一", "士喪禮第十二", "旣夕禮第十三", "士虞禮第十四", "特牲饋食禮第十五",
        "少牢饋食禮第十六", "有司第十七"]
    chapter = _chapter(doc, "士昬禮第二")
    assert (chapter.category, chapter.heading) == ("", "士昬禮第二")
    assert _first(chapter, 3) == [
        (NOTE, "鄭云士娶妻之禮以昬爲期因而名焉必以昬者取其陽往而隂來", [(0, "("), (13, "/"), (26, ")")]),
        (TEXT, "納采", [(2, "¶\n")]), (NOTE, "亡在反擇也", [(0, "("), (3, "/"), (5, ")")])]
    assert [p.text for p in doc.chapters[0].sections[-1].paragraphs[-1][-2:]] == ["而諡", "時志反"]
    assert not [p.text for p in doc.all_pieces() if p.kind == TEXT and "第" in p.text]
    # 莊子音義 names how the 篇 is named (``馬蹄第九(舉事以/名篇)``), 爾雅音義 reads its name (``釋言第二(魚鞬反…)``)
    assert [c.title for c in _read(JINGBU / "KR1g0003_027.txt").chapters] == [
        "莊子外篇駢拇第八", "馬蹄第九", "胠篋第十", "在宥第十一", "天地第十二", "天道第十三", "天運第十四", "刻意第十五",
        "繕性第十六", "秋水第十七", "至樂第十八", "達生第十九", "山木第二十", "田子方第二十一", "知北遊第二十二"]
    assert _first(_chapter(_read(JINGBU / "KR1g0003_029.txt"), "釋言第二"), 2)[1][:2] == (TEXT, "中")
    # 毛詩音義 卷七 prints the division the 什 opens after its number, the note on it (``文王之什第二十三大雅(自此以下
    # 至卷阿十八/篇是文王武王成王周)`` over ``(公之正大雅…)``), as ``淸廟之什第二十六　周頌`` prints it over its note
    chapters = _read(JINGBU / "KR1g0003_007.txt").chapters
    assert [(c.title, c.category, c.heading) for c in chapters[:2]] == [
        ("文王之什第二十三", "大雅", "文王之什第二十三大雅"), ("生民之什第二十四", "", "生民之什第二十四")]
    assert [(p.kind, p.text[:8]) for p in chapters[0].sections[0].paragraphs[0][:2]] == [
        (NOTE, "自此以下至卷阿十"), (TEXT, "文王而王")]
    assert ("淸廟之什第二十六", "周頌") in [(c.title, c.category) for c in chapters]


def test_the_old_juan_after_the_note_is_the_headings_category():
    """禮記音義 prints after a 篇's note the juan of the old edition the 篇 opens (卷十一 ``檀弓第三(…)卷之二``,
    as ``檀弓下第四　卷之三`` prints it apart): the chapter's category, laid out after the note, not a lemma;
    卷十三's first 篇 ``學記第十八(…)卷之十一`` had it glued to its first lemma (卷之十一慮憲)."""
    doc = _read(JINGBU / "KR1g0003_011.txt")
    assert [(c.title, c.category) for c in doc.chapters] == [
        ("曲禮第一", ""), ("曲禮下第二", ""), ("檀弓第三", "卷之二"), ("檀弓下第四", "卷之三"), ("王制第五", "卷之四"),
        ("月令第六", "卷之五")]
    assert _first(_chapter(doc, "檀弓第三"), 2) == [
        (NOTE, "檀弓魯人檀大丹反姓也弓名以其善於禮故以名篇", [(0, "("), (11, "/"), (21, ")卷之二¶\n")]),
        (TEXT, "公儀仲子", [])]
    chapter = _read(JINGBU / "KR1g0003_013.txt").chapters[0]
    assert (chapter.title, chapter.category) == ("學記第十八", "卷之十一")
    assert [p.text for p in chapter.sections[0].paragraphs[0][:2]] == ["鄭云學記者以其記人學敎之義", "慮憲"]
    # where the note runs on, on the line where it closes (卷十四 ``中庸第三十一(…)`` over ``(德/也)卷之十六``), the
    # line end maybe cutting it (``奔喪第三十四(…)卷`` over ``之十八``): it was glued to the lemma (卷之十六率性)
    doc = _read(JINGBU / "KR1g0003_014.txt")
    assert [(c.title, c.category) for c in doc.chapters if c.category] == [
        ("中庸第三十一", "卷之十六"), ("表記第三十二", "卷之十七"), ("奔喪第三十四", "卷之十八"), ("投壺第四十", "卷之十九"),
        ("冠義第四十三", "卷之二十")]
    first = _chapter(doc, "奔喪第三十四").sections[0].paragraphs[0]
    assert (first[0].layout[-1], first[1].text) == ((22, ")卷¶\n之十八¶\n"), "奔")
    assert not [p.text for p in doc.all_pieces() if "卷之" in p.text]


def test_a_headings_note_running_on_over_columns_is_the_headings():
    """毛詩音義 卷五 ``邶(蒲對反…)柏(音百…)舟第三(鄭云邶鄘衛者…/…)`` over two lines opening with the note
    (``(自紂城而北曰邶…)``, ``(傷從其本國…)柏舟(柏木/名以)``), and ``召南鵲巢第二(召亦地名也…)`` likewise: one
    heading, every note its own, the first lemma (柏舟, 鵲巢) after them text."""
    doc = _read(JINGBU / "KR1g0003_005.txt")
    assert [c.title for c in doc.chapters] == ["周南關雎故訓傳第一", "召南鵲巢第二", "邶柏舟第三", "鄘柏舟第四", "衛淇奥第五", "王黍離第六",
                                               "鄭緇衣第七", "齊雞鳴第八", "魏葛屨第九", "唐蟋蟀第十", "秦車鄰第十一"]
    chapter = _chapter(doc, "邶柏舟第三")
    assert chapter.heading == "邶"
    assert _first(chapter, 4) == [
        (NOTE, "蒲對反本又作鄁字林方代反", [(0, "("), (6, "/"), (12, ")柏")]),
        (NOTE, "音百字又作栢", [(0, "("), (3, "/"), (6, ")舟第三")]),
        (NOTE, "鄭云邶鄘衛者殷紂畿内地名屬古冀州自紂城而北曰邶南曰鄘東曰衛衛在汲郡朝歌縣時康叔正封於衛其末子孫稍并兼彼二國"
               "混其地而名之作者各有所傷從其本國而異之故有邶鄘衞之詩王肅同從此訖豳七月十三國並變風也",
         [(0, "("), (8, "/"), (16, ")¶\n("), (40, "/"), (64, ")¶\n("), (80, "/"), (95, ")")]),
        (TEXT, "柏舟", [])]
    first = _chapter(doc, "召南鵲巢第二").sections[0].paragraphs[0]
    assert (first[0].kind, first[0].text[:5], len(first[0].text), first[1].text) == (NOTE, "召亦地名也", 96, "鵲巢")
    # the juan's first heading glosses its words over three lines, each of the first two full (``周南(…)`` /
    # ``(…)關雎(…)故訓`` / ``傳第一(舊本多作故…)``, its number's note running on over ``(章句有故言…)毛詩(…)``)
    chapter = doc.chapters[0]
    assert chapter.heading == "周南"
    first = chapter.sections[0].paragraphs[0]
    assert [(p.kind, p.text[:6], p.layout[-1]) for p in first[:3]] == [
        (NOTE, "周者代名其地", (64, ")關雎")), (NOTE, "七胥反依字且", (17, ")故訓¶\n傳第一")), (NOTE, "舊本多作故今", (71, ")"))]
    assert (first[3].kind, first[3].text) == (LABEL, "毛詩")  # the 大題 over 鄭氏箋, the chapter's byline (pian_bylines)
    # 儀禮音義 ``士冠(古亂/反)禮第一(鄭云童子…)`` over ``(諸侯之士…)士冠(…)``
    assert _first(_read(JINGBU / "KR1g0003_010.txt").chapters[0], 3)[1:] == [
        (NOTE, "鄭云童子狅職居士位年二十而冠主人玄冠朝服則是仕於天子諸侯之士朝服皮弁素積古者四民世事士之子恒爲士",
         [(0, "("), (13, "/"), (26, ")¶\n("), (37, "/"), (48, ")")]), (TEXT, "士冠", [])]


def test_what_is_no_such_heading():
    """Not a heading: the rest of a heading's word that the full line before cut (毛詩音義 卷五 ``(…)關雎(…)故訓``
    over ``傳第一(舊本多作故…)``), a juan's end title, a number not past the juan's last 篇's, a note that does not speak of the 篇
    (春秋左傳注疏 卷首's list of the 篇 ``桓公第二(十八/年)``), and such a line in a book that is no book of readings
    (後漢書 卷四十六 ``…擁兵萬人據`` over ``髙平第一(髙平縣屬安定郡…)帝使待詔…``: 第一 names a city)."""
    assert "傳第一" not in [c.title for c in _read(JINGBU / "KR1g0003_005.txt").chapters]
    # the juan's end title with its count of characters (卷十六 ``經典釋文卷第十六(經四千四百九十六字/注九千四百八十三字)``)
    doc = _read(JINGBU / "KR1g0003_016.txt")
    assert [c.title for c in doc.chapters if c.title.startswith("經典釋文")] == []
    assert [(p.kind, p.text) for p in doc.all_pieces() if p.text.startswith("經典釋文卷第十六")] == [(TEXT, "經典釋文卷第十六")]
    line = "士昬禮第二(鄭云士娶妻之禮以昬爲期因而/名焉必以昬者取其陽往而隂來)納采¶"  # 儀禮音義 卷十, line 76
    unit, rest, column, after = number_noted_heading(line, 76, "", [])
    assert (unit.chapter.title, unit.chapter.category, rest, column, after) == ("士昬禮第二", "", line[5:], 5, "")
    last = number_noted_heading("有司第十七(本或作有司徹鄭云大/夫旣祭儐尸於堂之禮)¶", 884, "", [unit])[0]
    assert last.chapter.title == "有司第十七"
    assert number_noted_heading(line, 76, "", [unit, last]) is None  # 第二 after 第十七
    assert number_noted_heading("桓公第二(十八/年)¶", 1111, "", []) is None
    path = SHARED / "corpus" / "kanripo-commentary" / "KR2a0009" / "KR2a0009_046.txt"
    doc = _read(path)
    assert [c.title for c in doc.chapters if "髙平" in c.title] == []
    assert [p.text for p in doc.all_pieces() if p.text.endswith("髙平第一")] == [
        "乃留恂長社鎮撫吏人受納餘降初隗囂將安定髙峻擁兵萬人據髙平第一"]
