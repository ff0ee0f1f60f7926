"""Who writes a part of a note (``Voice``) and the formulas of the books of several commentators:
the commentators' names as each book prints them, the data ``profiles.PROFILES`` reads
(see ``commentators`` for how these books are made). Pure data."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..document import COMMENTARY


@dataclass(frozen=True)
class Voice:
    """Who writes a part of a note and in which layer: ``commentator`` (李善; "" when the
    book does not say), ``layer`` (one of ``document.LAYERS``) and ``layer_name`` as
    readers name it (注, 章句, 補注, 集解, 音義, 按)."""

    commentator: str
    layer: str = COMMENTARY
    layer_name: str = "注"


#: 五臣 and 李善 in 六臣註文選 (四部叢刊): each part opens with the commentator's given name and 曰;
#: the older commentaries 李善 keeps (薛綜 on 二京賦, 劉逵 on 三都賦) open with 綜曰, 劉曰; those a juan
#: signs (王逸 on the 騷, 「屈平(王逸註)」) open with theirs where it signs them (``commentators.signed_formulas``).
LIUCHEN = {"綜曰": Voice("薛綜", COMMENTARY, "注"), "劉曰": Voice("劉逵", COMMENTARY, "注"),
           "善曰": Voice("李善", COMMENTARY, "注"), "銑曰": Voice("張銑", COMMENTARY, "注"),
           "良曰": Voice("劉良", COMMENTARY, "注"), "向曰": Voice("呂向", COMMENTARY, "注"),
           "翰曰": Voice("李周翰", COMMENTARY, "注"), "濟曰": Voice("呂延濟", COMMENTARY, "注")}
#: A commentator a 文選 juan signs by his courtesy name, named by his own as the formulas name him: 劉逵, 字
#: 淵林, whose 注 on 吳都 and 蜀都 both books keep (文選註 卷四 「劉淵林注」; 六臣註文選 signs him 「劉淵林註」 and
#: opens his parts with 劉曰, ``LIUCHEN``), so ``commentator=劉逵`` finds his notes in both books.
SIGNED_NAMES = {"劉淵林": "劉逵"}
#: The men 何晏 collects in his 論語集解, as the book lists them whole: 論語注疏's front matter (KR1h0007_000,
#: 陸德明's 序錄 quoted under 論語注解傳述人) 「何晏集孔安國包咸周氏馬融鄭玄陳羣王肅周生烈之說」. The 集解 prints
#: each by his surname and 曰 (孔曰, 包曰, 周曰), its own 序 by surname and 氏 (「包氏周氏章句出焉」), and so
#: do the books that quote its glosses (史記集解 and 文選注: 包氏曰).
LUNYU_JIJIE_MEN = ("孔安國", "包咸", "周氏", "馬融", "鄭玄", "陳羣", "王肅", "周生烈")


def jijie_man(printed: str) -> str:
    """The man of ``LUNYU_JIJIE_MEN`` that ``printed``, a surname alone or with 氏 as the 集解 and
    the books quoting it print him (包, 包氏, 孔), stands for: the man the list names so (周氏 is
    周氏, whose given name nobody knew), else the one man of the list whose name begins with the
    surname (包 → 包咸, 孔 → 孔安國). ``printed`` itself when the list names nobody so, or several
    (a surname of two men)."""
    surname = printed.removesuffix("氏")
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
HANSHU = {name + "曰": Voice(who, COMMENTARY, "注") for name, who in HANSHU_NAMES.items() if not name.endswith("曰")}

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
JIJIE = {name + "曰": Voice(who, COMMENTARY, "集解") for name, who in JIJIE_NAMES.items()}
JIJIE.update({own: Voice("裴駰", COMMENTARY, "集解") for own in ("駰案", "駰按", "駰謂")})

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
WENXUAN = {name + "曰": Voice(who) for name, who in WENXUAN_NAMES.items()}
WENXUAN["善曰"] = Voice("李善")
#: The books 李善 cites by title and 曰 most often in 文選注 (every title cited at a quotation's start
#: at least eight times): such a citation, like 又曰 (the book cited last, again) and a man cited by
#: his book (杜預左氏傳注曰, 郭璞山海經注曰: ``WENXUAN_CITATION``), is his and ends the quoted man's
#: part before it (「爾雅曰…郭璞曰治玉名也説文曰…」: 郭璞's part is 「郭璞曰治玉名也」).
WENXUAN_BOOKS = (
    "毛詩 漢書 楚辭 楚詞 説文 說文 尚書 爾雅 廣雅 周易 左氏傳 左傳 禮記 淮南子 史記 莊子 荘子 毛萇詩傳 周禮 魏志 論語 方言 孟子 "
    "老子 范曄後漢書 謝承後漢書 續漢書 後漢書 蒼頡篇 西京賦 東京賦 西都賦 東都賦 南都賦 魏都賦 毛詩序 字林 古詩 吕氏春秋 "
    "呂氏春秋 春秋 蕭子顯齊書 臧榮緒晉書 王隠晉書 王隱晉書 沈約宋書 晉中興書 干寶晉紀 列子 國語 上林賦 子虚賦 文子 山海經 "
    "孫卿子 管子 埤蒼 漢書音義 東觀漢記 韓子 韓詩 韓詩外傳 孝經 字書 公羊傳 榖梁傳 穀梁傳 聲類 尚書大傳 法言 班固漢書贊 "
    "班固漢書述 吳志 呉志 蜀志 小雅 列仙傳 列女傳 風俗通 論衡 儀禮 尸子 家語 仲長子昌言 鶡冠子 周書 越絶書 桓子新論 "
    "戰國䇿 戰國策 大戴禮 春秋元命苞 春秋説題辭 春秋漢含孳 墨子 釋名 説苑 新序 羽獵賦 神女賦 髙唐賦 長楊賦 甘泉賦 "
    "魯靈光殿賦 李陵詩 李陵書 舞賦 過秦論 典引 劉璠梁典 封禪書 風賦 孫子兵法 解嘲 孔叢子 六韜 慎子 七發 王命論 "
    "琴操 西京雜記 思𤣥賦 歸田賦 晏子 長門賦 抱朴子 博物志 洞簫賦 難蜀父老 穆天子傳 西征賦 維摩經 白虎通 漢官儀"
).split()
#: A man of ``WENXUAN_NAMES`` cited by his book (鄭𤣥毛詩箋曰, 王逸楚辭注曰, 郭璞上林賦注曰): his name, the
#: book's title (at most eight characters, ending in a word that names a book), then 曰.
BOOK_ENDS = "注|註|箋|章句|傳|音義|解詁|訓|書|記|志|論|賦|序|紀|語|義|經|林|言|雅|通|篇|斷|典|詩"
#: Any other title cited after a gloss's last 也 (「如淳曰藺石城上礧石也杜篤論都賦曰…」): at most eight
#: characters ending in a word that names a book or a piece (``TITLE_ENDS``), then 曰.
TITLE_ENDS = BOOK_ENDS + "|賦|頌|表|銘|誄|樞|辭|詞|文|子|策|䇿|録|錄|圖|緯|讚|贊"
WENXUAN_CITATION = re.compile(
    "又曰|(?:" + "|".join(sorted(WENXUAN_BOOKS, key=len, reverse=True)) + ")曰|(?:"
    + "|".join(sorted(WENXUAN_NAMES, key=len, reverse=True)) + ")[^曰]{0,7}?(?:" + BOOK_ENDS + ")曰"
    + "|(?<=也)[^曰也]{0,7}?(?:" + TITLE_ENDS + ")曰")

#: 九家集注杜詩 (郭知達 編): the notes of the nine 宋 commentators on 杜甫 in one note, the
#: first part with no name (the old notes, 舊注, most of them 王洙's), each later part led by its
#: commentator's surname or book and 云/曰 as this edition prints it (趙云 趙次公, 杜補遺 and
#: 杜正謬 杜田's 注杜詩補遺正謬, 鮑云 鮑彪, 薛云 薛夢符, 師曰 師尹, 洙曰 王洙, 蔡正異云 蔡興宗's
#: 杜詩正異). Quoted speech (子貢曰) and a book's name (莊子曰) open no part: they are no formula.
JIUJIA = {"趙云": Voice("趙次公"), "趙曰": Voice("趙次公"), "杜補遺": Voice("杜田"), "杜正謬": Voice("杜田"),
          "鮑云": Voice("鮑彪"), "鮑曰": Voice("鮑彪"), "薛云": Voice("薛夢符"), "薛曰": Voice("薛夢符"),
          "師曰": Voice("師尹"), "洙曰": Voice("王洙"), "蔡正異云": Voice("蔡興宗")}
