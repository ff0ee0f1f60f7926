"""A commentator's formula printed with a variant form of one of its characters is his formula
(``commentators._voices_of`` reads the note and the formulas folded, ``characters.folding``): 六臣註文選
writes 呂延濟's 濟曰 as 済曰 in 卷二十五, 卷三十 and 卷三十五 (15 times); 前漢書 writes 蘇林曰 as 蘓林曰,
晉灼曰 as 晋灼曰, 劉德曰 as 劉徳曰; the 四部叢刊 毛詩 writes 鄭玄's 箋云 as 䇳云 once. The reading page reads
them so too: a note that opens with its writer's formula in a variant form (服䖍曰 of 服虔) carries no box
of his name (``reader.templatetags.pieces.opens_with_formula``). On real files of ``../shared/corpus``."""
import re
from collections import Counter

from django.test import Client

from reader.importers.loader import import_file
from reader.models import Piece
from reader.templatetags.pieces import opens_with_formula
from search.signals import muted

from .conftest import SHARED
from .test_commentary_editions import notes, parse

BOOKS = SHARED / "corpus" / "kanripo-commentary"
#: a commentator's box, the hidden label after it and the note's first words
BOXED = re.compile(r'<span class="layer-tag commentator" aria-hidden="true">([^<]+)</span>'
                   r'<span class="visually-hidden">[^<]*</span>([^<]{0,6})')
#: a note's layer box, its writer's box if any and its first words (只看注)
ROW_BOXES = re.compile(r'<span class="layer-tag" aria-hidden="true">([^<]+)</span>(?:<span class="layer-tag commentator" '
                       r'aria-hidden="true">([^<]+)</span>)?<span class="visually-hidden">[^<]*</span>([^<]{0,4})')


def test_liuchen_ji_written_with_its_variant_opens_lu_yanjis_part():
    """六臣註文選 卷三十 (謝靈運 田南樹園…): ``…兩都賦曰序時時間作済曰卧疾養疾也…`` was one 李善 part;
    済曰 opens 呂延濟's, and every 済曰 of the book does (they were 李善's, one nobody's)."""
    got = notes(parse("kanripo-commentary/KR4h0003/KR4h0003_030.txt"))
    at = next(k for k, n in enumerate(got) if n[3] == "兩都賦曰序時時間作")
    assert [(c, t) for c, _, _, t in got[at - 1:at + 3]] == [
        ("李善", "善曰國語憂施"), ("李善", "兩都賦曰序時時間作"), ("呂延濟", "済曰卧疾養疾也豊多也翰墨文"),
        ("李善", "之事君韋昭曰暇閑也豫樂也㱕田賦曰揮翰墨以奮藻")]
    opened = Counter()
    for name in ("025", "030", "035"):
        opened.update(c for c, _, _, t in notes(parse(f"kanripo-commentary/KR4h0003/KR4h0003_{name}.txt"))
                      if t.startswith("済曰"))
    assert opened == Counter({"呂延濟": 15})
    # the 16th: 済 at a column's end, 曰 in the next printed line's note
    assert ("呂延濟", "済") in [(c, t) for c, _, _, t in got]


def test_hanshu_and_maoshi_variant_formulas():
    """前漢書 卷二: 蘓林曰 is 蘇林's part of 顏師古's 注 (it was 顏師古's); 毛詩 (四部叢刊) 卷十八: 䇳云 opens
    鄭玄's 箋 after 毛亨's 傳 (it was 毛亨's)."""
    hanshu = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_002.txt"))
    assert ("蘇林", "蘓林曰外郎散郎也") in [(c, t) for c, _, _, t in hanshu]
    maoshi = notes(parse("kanripo-references/KR1c0002/KR1c0002_018.txt"))
    at = next(k for k, n in enumerate(maoshi) if n[3] == "毖慎也")
    assert [(c, name, t) for c, _, name, t in maoshi[at:at + 2]] == [
        ("毛亨", "傳", "毖慎也"), ("鄭玄", "箋", "䇳云女爲軍旅之謀爲重慎兵事也而亂滋甚扵此日見侵削言其所任非賢")]


def test_a_formula_is_read_folded_and_after_a_circle():
    """The formula names its writer in any variant form of his name's characters, read folded as the credits
    read it (服䖍曰 of 服虔, 李竒曰 of 李奇, 荀悦曰 of 荀悅) and after the ○ that sets an editor's words apart
    (○宋祁曰). ``generic=False`` (只看注) counts his name's and his layer's characters only: 正義曰 names no man.
    楚辭 四部叢刊's 𥙷曰 is not 補曰 to the folding table (𥙷 folds to 輔), so it names nobody."""
    def note(text, layer="注"):
        return Piece(kind="note", text=text, layer_name=layer)

    assert opens_with_formula(note("服䖍曰瑕丘縣"), "服虔") is True
    assert opens_with_formula(note("李竒曰在上洛"), "李奇") is True
    assert opens_with_formula(note("荀悦曰諱邦"), "荀悅") is True
    assert opens_with_formula(note("○宋祁曰瑕丘", "按"), "宋祁") is True
    assert opens_with_formula(note("服䖍曰瑕丘縣"), "應劭") is False
    assert opens_with_formula(note("補曰沈括存中", "補注"), "洪興祖", generic=False) is True
    assert opens_with_formula(note("師古曰岡山脊也"), "顏師古", generic=False) is True
    assert opens_with_formula(note("正義曰毛以為", "疏"), "孔穎達") is True
    assert opens_with_formula(note("正義曰毛以為", "疏"), "孔穎達", generic=False) is False
    assert opens_with_formula(note("𥙷曰撫循也", "補注"), "洪興祖") is False
    # a formula of the layer's characters names the layer, not the man (the page modes, which box no layer)
    assert opens_with_formula(note("補曰沈括存中", "補注"), "洪興祖") is True
    assert opens_with_formula(note("補曰沈括存中", "補注"), "洪興祖", layer=False) is False
    assert opens_with_formula(note("師古曰岡山脊也"), "顏師古", layer=False) is True


def test_a_later_commentators_part_after_wang_yis_carries_his_name(db):
    """楚辭補注 卷二 §2 (吉日兮辰良): one printed note, 王逸's gloss then 洪興祖's 補曰. In 夾注 the first part
    was boxed 王逸 and the 補曰 part nothing (補曰 was read as naming him), so the whole note read as 王逸's:
    補曰 names his layer, not him, and the page boxes no layer of the commentary, so the part carries 洪興祖."""
    with muted():
        import_file(BOOKS / "KR4a0003" / "KR4a0003_002.txt")
    page = Client().get("/works/KR4a0003/juan/2/2/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    assert ('<span class="layer-tag commentator" aria-hidden="true">王逸</span><span class="visually-hidden">'
            '章句（王逸）：</span>日謂甲乙辰謂寅卯</span><span class="note joins-previous layer-commentary" '
            'data-layer="補注" id="s2-p2" role="note"><span class="layer-tag commentator" aria-hidden="true">洪興祖'
            '</span><span class="visually-hidden">補注（洪興祖）：</span>補曰沈括存中云') in page
    # the section's 10 補曰 parts: 4 right after 王逸's words, boxed; 6 after a collation remark of his own
    # (瑱一作鎭, 五臣云…: decision 0096), which carries his box, go on in his voice, in the one bracket of the
    # printed note (the remark, cut out of 王逸's part, has no markup of its own: reading.one_printed_note)
    assert Counter(who for who, words in BOXED.findall(page) if words.startswith("補曰")) == {"洪興祖": 4}
    assert page.count('<span class="visually-hidden">補注（洪興祖）：</span>補曰') == 4
    assert ('<span class="visually-hidden">補注（洪興祖）：</span>瑱一作鎭</span><span class="note joins-previous '
            'layer-commentary" data-layer="補注" id="s2-p16" role="note">補曰瑶音遥一曰美玉也') in page


def test_a_surname_and_shi_names_its_man_in_the_form_the_book_prints():
    """包咸's glosses open 包氏曰, or 苞氏曰 in 論語 四部叢刊 and 論語集解義疏 (何晏 avoiding his father's name
    咸: ``reader.quoted_names.JIJIE_SURNAME_FORMS``): his surname and 氏 name him, 苞 read as 包, and carry no
    box of his name (苞 is no character of it); another man's surname and 氏 does not name him."""
    def note(text):
        return Piece(kind="note", text=text, layer_name="集解")

    assert opens_with_formula(note("苞氏曰同門曰朋也"), "包咸") is True
    assert opens_with_formula(note("包氏曰同門曰朋也"), "包咸") is True
    assert opens_with_formula(note("苞氏曰同門曰朋也"), "包咸", generic=False) is True
    assert opens_with_formula(note("鄭氏曰"), "鄭玄") is True
    assert opens_with_formula(note("苞氏曰同門曰朋也"), "孔安國") is False
    assert opens_with_formula(note("王氏曰"), "包咸") is False


def test_hanshu_boxes_no_name_its_variant_formula_gives(db):
    """前漢書 卷一 §5: a box 服虔 stood before 服䖍曰 (four times), 李奇 before 李竒曰, 宋祁, 劉攽 and 朱子文 before
    ○宋祁曰 (3 of his 4 remarks), ○劉攽曰 (2), ○朱子文曰 (11 boxes), where 應劭曰 had none. None now; each note is
    still named to a screen reader."""
    with muted():
        import_file(BOOKS / "KR2a0007" / "KR2a0007_001.txt")
    page = Client().get("/works/KR2a0007/juan/1/5/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    assert BOXED.findall(page) == []
    assert {(label, words): page.count(f'<span class="visually-hidden">{label}</span>{words}')
            for label, words in (("注（服虔）：", "服䖍曰"), ("注（李奇）：", "李竒曰"), ("按（宋祁）：", "○宋祁曰"),
                                 ("按（劉攽）：", "○劉攽曰"), ("按（朱子文）：", "○朱子文曰"))} == {
        ("注（服虔）：", "服䖍曰"): 4, ("注（李奇）：", "李竒曰"): 1, ("按（宋祁）：", "○宋祁曰"): 4, ("按（劉攽）：", "○劉攽曰"): 2,
        ("按（朱子文）：", "○朱子文曰"): 1}


def test_notes_only_boxes_no_name_his_formula_gives(db):
    """楚辭補注 卷二 §2 (東皇太一, with its title printed after it and that title's note) in 只看注 boxed each 補曰 row 補注 洪興祖 (the mode boxes every note's layer and
    writer); 補曰 names him, as the other modes read it: the layer's box 補注 stays, his name goes, 王逸's stays on
    his 章句. In 楚辭 四部叢刊 the rows that open 𥙷曰 (a form the folding table reads as 輔) keep 洪興祖."""
    with muted():
        import_file(BOOKS / "KR4a0003" / "KR4a0003_002.txt")
        import_file(BOOKS / "KR4a0002" / "KR4a0002_002.txt")
    client = Client()
    page = client.get("/works/KR4a0003/juan/2/2/", {"notes": "only", "layout": "horizontal"}).content.decode()
    rows = re.findall(r'<div class="gloss"><dt class="lemma">(.*?)</dt><dd>(.*?)</dd></div>', page, re.S)
    # (吉日兮辰良's note is one printed note, 王逸's part and 洪興祖's 補曰: one row, each part boxed; reading.Gloss.more)
    assert rows[0][1] == (
        '<span class="note joins-next layer-commentary" data-layer="章句" id="s2-p1" role="note"><span class="layer-tag" '
        'aria-hidden="true">章句</span><span class="layer-tag commentator" aria-hidden="true">王逸</span>'
        '<span class="visually-hidden">章句（王逸）：</span>日謂甲乙辰謂寅卯</span>'
        '<span class="note joins-previous layer-commentary" data-layer="補注" id="s2-p2" role="note"><span class="layer-tag" '
        'aria-hidden="true">補注</span><span class="visually-hidden">補注（洪興祖）：</span>補曰沈括存中云吉日兮辰良葢相錯成文'
        '則語勢矯健如杜子美詩云紅豆啄餘鸚鵡粒碧梧棲老鳯凰枝韓退之云春與猿吟兮秋鶴與飛皆用此體也</span>')
    boxes = ROW_BOXES.findall(page)
    # 4 補曰 rows right after 王逸's words; the other 6 follow a collation remark of his (瑱一作鎭, 五臣云…:
    # decision 0096), boxed with his name, and go on in his box (the remark, cut out of 王逸's part, has no
    # markup of its own: reading.one_printed_note)
    assert [(layer, who) for layer, who, words in boxes if words.startswith("補曰")] == [("補注", "")] * 4
    assert Counter((layer, who) for layer, who, words in boxes if not words.startswith("補曰")) == Counter(
        {("章句", "王逸"): 15, ("補注", "洪興祖"): 11})  # with the note on the title printed after it (0098)
    sbck = ROW_BOXES.findall(client.get("/works/KR4a0002/juan/2/2/", {"notes": "only", "layout": "horizontal"})
                             .content.decode())
    assert Counter((layer, who, words[:2]) for layer, who, words in sbck if layer == "補注") == Counter(
        {("補注", "", "補曰"): 4, ("補注", "洪興祖", "𥙷曰"): 1, ("補注", "洪興祖", "五臣"): 6, ("補注", "洪興祖", "鏘釋"): 1,
         ("補注", "洪興祖", "瑱一"): 1, ("補注", "洪興祖", "蒸一"): 1, ("補注", "洪興祖", "枹一"): 1, ("補注", "洪興祖", "姣一"): 1})
