"""The names collected commentaries print their men by, and the men they are: the formula tables of
前漢書, 史記集解 and 文選註 (the man's name as each book prints it before his 曰, variant forms
included), the courtesy names a juan signs a commentator by, and the men of 何晏's 論語集解 by its own
list. The importer builds each book's formulas from them (``reader.importers.mandoku.voices``); the
search reads a name printed so as its man (``QUOTED_NAMES``: ``commentator=師古`` is 顏師古). Pure data:
no ORM, no I/O.
"""
from __future__ import annotations

#: A man a book signs by his surname and courtesy name (字), named by his own as the formulas and the
#: catalogue name him: 劉逵, 字 淵林, whose 注 on 吳都 and 蜀都 both 文選 books keep (文選註 卷四 「劉淵林注」;
#: 六臣註文選 signs him 「劉淵林註」 and opens his parts with 劉曰, ``LIUCHEN``), so ``commentator=劉逵`` finds his
#: notes in both books; 班固, 字 孟堅, whose 離騷贊序 楚辭補注 heads 「離騷贊序　班孟堅」 (the 四部叢刊 楚辭 alike).
SIGNED_NAMES = {"劉淵林": "劉逵", "班孟堅": "班固"}
#: The men 何晏 collects in his 論語集解, as the book lists them whole: 論語注疏's front matter (KR1h0007_000,
#: 陸德明's 序錄 quoted under 論語注解傳述人) 「何晏集孔安國包咸周氏馬融鄭玄陳羣王肅周生烈之說」. The 集解 prints
#: each by his surname and 曰 (孔曰, 包曰, 周曰), its own 序 by surname and 氏 (「包氏周氏章句出焉」), and so
#: do the books that quote its glosses (史記集解 and 文選注: 包氏曰).
LUNYU_JIJIE_MEN = ("孔安國", "包咸", "周氏", "馬融", "鄭玄", "陳羣", "王肅", "周生烈")
#: Another form of a surname of ``LUNYU_JIJIE_MEN`` the books print for the one the list writes: 論語 四部叢刊 and
#: 論語集解義疏 print 包咸 as 苞氏 (苞氏曰 194 and 192 times, 包氏曰 once), and 皇侃's 疏 there says whom it names:
#: 「何集注皆呼人名唯苞獨云氏者苞名咸何家諱咸故不言也」 (論語集解義疏 卷一, on 學而's 苞氏曰同門曰朋也).
JIJIE_SURNAME_FORMS = {"苞": "包"}
#: A surname two men of ``LUNYU_JIJIE_MEN`` share (周氏, 周生烈), printed alone before 曰, is the man the other
#: editions of the 集解 print in its place: each of 論語注疏's 14 glosses opened 周曰 (公冶長 「周曰齊大夫晏姓」 …
#: 陽貨 「周曰所至之鄉輒原其人情」; not 公冶長's 「殷曰璉周曰簠簋」, a list of sayings) is opened 周生烈曰 in 論語 四部叢刊
#: or 論語集解義疏 (12 of them in both), and neither prints 周氏曰 anywhere.
JIJIE_SURNAME_MEN = {"周": "周生烈"}


def jijie_man(printed: str) -> str:
    """The man of ``LUNYU_JIJIE_MEN`` that ``printed``, a surname alone or with 氏 as the 集解 and
    the books quoting it print him (包, 包氏, 苞氏: ``JIJIE_SURNAME_FORMS``, 孔), stands for: the man the list names so (周氏 is
    周氏, whose given name nobody knew), a surname of two men alone the one the other editions print there
    (周 → 周生烈: ``JIJIE_SURNAME_MEN``), else the one man of the list whose name begins with the
    surname (包 → 包咸, 孔 → 孔安國). ``printed`` itself when the list names nobody so, or several."""
    if printed in JIJIE_SURNAME_MEN:
        return JIJIE_SURNAME_MEN[printed]
    surname = printed.removesuffix("氏")
    surname = JIJIE_SURNAME_FORMS.get(surname, surname)
    if surname + "氏" in LUNYU_JIJIE_MEN:
        return surname + "氏"
    men = [man for man in LUNYU_JIJIE_MEN if man.startswith(surname)]
    return men[0] if len(men) == 1 else printed


#: The commentators 顏師古 collects in his 漢書注 (the names as the WYG text writes them,
#: variant forms included), each opening his part with 曰.
HANSHU_NAMES = {
    "師古": "顏師古", "應劭": "應劭", "如淳": "如淳", "孟康": "孟康", "張晏": "張晏", "服䖍": "服虔", "服虔": "服虔",
    "晉灼": "晉灼", "蘇林": "蘇林", "李竒": "李奇", "李奇": "李奇", "張揖": "張揖", "韋昭": "韋昭", "文穎": "文穎",
    "文頴": "文穎", "鄭氏": "鄭氏", "郭璞": "郭璞", "臣瓚": "臣瓚", "臣瓉": "臣瓚", "鄧展": "鄧展", "李斐": "李斐",
    "劉德": "劉德", "項昭": "項昭", "伏儼": "伏儼", "蔡謨": "蔡謨", "崔浩": "崔浩", "荀悦": "荀悅", "荀悅": "荀悅",
    "劉寶": "劉寶", "服䖍曰": "服虔",
}
#: The earlier commentators 裴駰 collects in his 史記集解 (his 序: 「采經傳百家并先儒之說」, 徐廣's 音義
#: first), each part opened by the man's name and 曰 as the WYG text writes it (variant forms
#: included): every person the book quotes so at least three times, never a book (漢書音義曰, 皇覽曰,
#: 地理志曰 stay 裴駰's, the quotations he chose); 裴駰's own words after a part open with 駰案 (駰按, 駰謂).
JIJIE_NAMES = {
    "徐廣": "徐廣", "鄭𤣥": "鄭玄", "鄭玄": "鄭玄", "孔安國": "孔安國", "服䖍": "服虔", "服虔": "服虔",
    "如淳": "如淳", "杜預": "杜預", "賈逵": "賈逵", "張晏": "張晏", "應劭": "應劭", "韋昭": "韋昭", "王肅": "王肅",
    "馬融": "馬融", "郭璞": "郭璞", "孟康": "孟康", "晉灼": "晉灼", "晋灼": "晉灼", "蘇林": "蘇林", "蘓林": "蘇林",
    "李竒": "李奇", "李奇": "李奇", "何晏": "何晏", "文穎": "文穎", "文頴": "文穎", "文潁": "文穎", "包氏": jijie_man("包氏"),
    "王逸": "王逸", "皇甫謐": "皇甫謐", "蔡邕": "蔡邕", "何休": "何休", "虞翻": "虞翻", "孫炎": "孫炎", "唐固": "唐固",
    "司馬彪": "司馬彪", "譙周": "譙周", "張華": "張華", "宋忠": "宋忠", "李斐": "李斐", "劉熈": "劉熙", "劉熙": "劉熙",
    "許慎": "許慎", "孫檢": "孫檢", "鄧展": "鄧展", "班固": "班固", "瓚": "臣瓚", "瓉": "臣瓚", "臣瓚": "臣瓚", "臣瓉": "臣瓚",
}
#: The earlier commentators whose glosses 李善 quotes by name and 曰 in his 文選注 (KR4h0002), as the
#: WYG text writes each name (variant forms and the names by which the book calls a man included:
#: 曹大家 班昭, 鄭司農 鄭眾, 薛君 薛漢, 顔延年 顏延之): every glossator the book quotes so at least three
#: times (郭璞 on 爾雅, 方言, 山海經 and the 賦 of 司馬相如; 張揖 on 上林賦; 司馬彪 on 莊子; 高誘 on 淮南子
#: …), never a speaker of a book he quotes (孔子曰, 子貢曰 stay in the quotation). His own statement
#: of how he keeps the old commentaries, 卷二 under 「薛綜注」: 「善曰舊注是者因而留之並於篇首題其姓名
#: 其有乖繆臣乃具釋並稱臣善以別之」. docs/decisions/0058.
WENXUAN_NAMES = {
    "郭璞": "郭璞", "鄭𤣥": "鄭玄", "鄭玄": "鄭玄", "應劭": "應劭", "韋昭": "韋昭", "張揖": "張揖", "張楫": "張揖",
    "如淳": "如淳", "服䖍": "服虔", "服虔": "服虔", "晉灼": "晉灼", "晋灼": "晉灼", "司馬彪": "司馬彪", "張晏": "張晏",
    "杜預": "杜預", "曹大家": "班昭", "項岱": "項岱", "李竒": "李奇", "李奇": "李奇", "孟康": "孟康", "蘇林": "蘇林",
    "蘓林": "蘇林", "顔師古": "顏師古", "顏師古": "顏師古", "文頴": "文穎", "文穎": "文穎", "髙誘": "高誘", "高誘": "高誘",
    "毛萇": "毛萇", "何休": "何休", "郭象": "郭象", "孔安國": "孔安國", "王逸": "王逸", "薛綜": "薛綜", "宋均": "宋均",
    "王弼": "王弼", "許慎": "許慎", "賈逵": "賈逵", "王肅": "王肅", "趙岐": "趙岐", "馬融": "馬融", "鄭司農": "鄭眾",
    "臣瓚": "臣瓚", "臣瓉": "臣瓚", "徐廣": "徐廣", "薛君": "薛漢", "劉熙": "劉熙", "劉熈": "劉熙", "李軌": "李軌",
    "沈約": "沈約", "顔延年": "顏延之", "蔡邕": "蔡邕", "鄧展": "鄧展", "李斐": "李斐", "宋衷": "宋衷", "杜子春": "杜子春",
    "包咸": "包咸", "包氏": jijie_man("包氏"), "向秀": "向秀", "孫炎": "孫炎", "劉兆": "劉兆",
}


def _quoted_names() -> dict[str, str]:
    """``{a name as a collected commentary prints it: the person}`` where the name is not the
    person's own, from the books' formula tables (前漢書's 師古曰 is 顏師古's, 史記集解's 瓚曰 臣瓚's,
    文選注's 曹大家曰 班昭's, both books' 包氏曰 包咸's), each name the tables read as one person alone."""
    read: dict[str, set[str]] = {}
    for table in (HANSHU_NAMES, JIJIE_NAMES, WENXUAN_NAMES, SIGNED_NAMES):
        for printed, person in table.items():
            read.setdefault(printed.removesuffix("曰"), set()).add(person)
    return {printed: next(iter(people)) for printed, people in read.items()
            if len(people) == 1 and printed not in people}


#: The names collected commentaries print their men by (``_quoted_names``): a commentator filter
#: reads 師古 as 顏師古, whose 注 of 前漢書 opens every part 師古曰.
QUOTED_NAMES = _quoted_names()
