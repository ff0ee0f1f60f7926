"""Who writes a part of a note (``Voice``) and the formulas of the books of several commentators:
the commentators' names as each book prints them, the data ``profiles.PROFILES`` reads
(see ``commentators`` for how these books are made). Pure data."""
from __future__ import annotations

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
    "李竒": "李奇", "李奇": "李奇", "何晏": "何晏", "文穎": "文穎", "文頴": "文穎", "文潁": "文穎", "包氏": "包氏",
    "王逸": "王逸", "皇甫謐": "皇甫謐", "蔡邕": "蔡邕", "何休": "何休", "虞翻": "虞翻", "孫炎": "孫炎", "唐固": "唐固",
    "司馬彪": "司馬彪", "譙周": "譙周", "張華": "張華", "宋忠": "宋忠", "李斐": "李斐", "劉熈": "劉熙", "劉熙": "劉熙",
    "許慎": "許慎", "孫檢": "孫檢", "鄧展": "鄧展", "班固": "班固", "瓚": "臣瓚", "瓉": "臣瓚", "臣瓚": "臣瓚", "臣瓉": "臣瓚",
}
JIJIE = {name + "曰": Voice(who, COMMENTARY, "集解") for name, who in JIJIE_NAMES.items()}
JIJIE.update({own: Voice("裴駰", COMMENTARY, "集解") for own in ("駰案", "駰按", "駰謂")})

#: 九家集注杜詩 (郭知達 編): the notes of the nine 宋 commentators on 杜甫 in one note, the
#: first part with no name (the old notes, 舊注, most of them 王洙's), each later part led by its
#: commentator's surname or book and 云/曰 as this edition prints it (趙云 趙次公, 杜補遺 and
#: 杜正謬 杜田's 注杜詩補遺正謬, 鮑云 鮑彪, 薛云 薛夢符, 師曰 師尹, 洙曰 王洙, 蔡正異云 蔡興宗's
#: 杜詩正異). Quoted speech (子貢曰) and a book's name (莊子曰) open no part: they are no formula.
JIUJIA = {"趙云": Voice("趙次公"), "趙曰": Voice("趙次公"), "杜補遺": Voice("杜田"), "杜正謬": Voice("杜田"),
          "鮑云": Voice("鮑彪"), "鮑曰": Voice("鮑彪"), "薛云": Voice("薛夢符"), "薛曰": Voice("薛夢符"),
          "師曰": Voice("師尹"), "洙曰": Voice("王洙"), "蔡正異云": Voice("蔡興宗")}
