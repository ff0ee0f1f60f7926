"""Who writes a part of a note (``Voice``) and the formulas of the books of several commentators,
made of the names each book prints them by (``reader.quoted_names``): the data ``profiles.PROFILES`` reads
(see ``commentators`` for how these books are made). Pure data."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...quoted_names import HANSHU_NAMES, JIJIE_NAMES, JIJIE_SURNAME_FORMS, LUNYU_JIJIE_MEN, WENXUAN_NAMES, jijie_man
from ..document import COMMENTARY


@dataclass(frozen=True)
class Voice:
    """Who writes a part of a note and in which layer: ``commentator`` (李善; "" when the
    book does not say), ``layer`` (one of ``document.LAYERS``) and ``layer_name`` as
    readers name it (注, 章句, 補注, 集解, 音義, 按)."""

    commentator: str
    layer: str = COMMENTARY
    layer_name: str = "注"

    def give(self, piece, basis: str) -> None:
        """Make ``piece`` (a ``document.PieceDoc``) this voice's: its layer, layer name and
        commentator, and ``basis``, how that was decided (``document.MARKED``, ``LAYOUT`` …)."""
        piece.layer, piece.layer_name, piece.commentator = self.layer, self.layer_name, self.commentator
        piece.layer_basis = basis


#: The layer name of a writer's own note on his own text (自注), what a reader calls it. Three rules give it,
#: each where the book shows its writer its own way (``author_notes`` says why the first two are two): the
#: book's author's notes in its body, told from the collector's by how they open (班固's in 前漢書:
#: ``author_notes``, ``profiles.Profile.author_notes``), a front-matter part's known writer's notes in his
#: part (高宗's on his 御製 poems in 前漢書's 卷首: ``paratext``), and the span of years a chronicle's 紀 heading
#: notes, before its commentator's note (司馬光's in 資治通鑑: ``chronicle_spans``).
OWN_NOTE = "自注"


#: 五臣 and 李善 in 六臣註文選 (四部叢刊): each part opens with the commentator's given name and 曰;
#: the older commentaries 李善 keeps (薛綜 on 二京賦, 劉逵 on 三都賦) open with 綜曰, 劉曰; those a juan
#: signs (王逸 on the 騷, 「屈平(王逸註)」) open with theirs where it signs them (``commentators.signed_formulas``).
LIUCHEN = {"綜曰": Voice("薛綜", COMMENTARY, "注"), "劉曰": Voice("劉逵", COMMENTARY, "注"),
           "善曰": Voice("李善", COMMENTARY, "注"), "銑曰": Voice("張銑", COMMENTARY, "注"),
           "良曰": Voice("劉良", COMMENTARY, "注"), "向曰": Voice("呂向", COMMENTARY, "注"),
           "翰曰": Voice("李周翰", COMMENTARY, "注"), "濟曰": Voice("呂延濟", COMMENTARY, "注")}
#: 前漢書: each man 顏師古 collects (``reader.quoted_names.HANSHU_NAMES``) opens his part with his name and 曰.
HANSHU = {name + "曰": Voice(who, COMMENTARY, "注") for name, who in HANSHU_NAMES.items() if not name.endswith("曰")}

#: 史記集解: each man 裴駰 collects (``reader.quoted_names.JIJIE_NAMES``) opens his part with his name and 曰.
JIJIE = {name + "曰": Voice(who, COMMENTARY, "集解") for name, who in JIJIE_NAMES.items()}
JIJIE.update({own: Voice("裴駰", COMMENTARY, "集解") for own in ("駰案", "駰按", "駰謂")})

#: 論語集解 (何晏), as 論語注疏, 論語 四部叢刊 and 論語集解義疏 print it: each man 何晏 collects (``reader.quoted_names.LUNYU_JIJIE_MEN``)
#: opens his part with his surname and 曰 (孔曰 孔安國, 包曰 包咸, 周曰 周生烈, 陳曰 陳羣, 王曰 王肅:
#: ``jijie_man``), or his whole name and 曰 (周生烈曰); 何晏's own words name no one.
LUNYU_JIJIE = {man[0] + "曰": Voice(jijie_man(man[0]), COMMENTARY, "集解") for man in LUNYU_JIJIE_MEN}
LUNYU_JIJIE.update({man + "曰": Voice(man, COMMENTARY, "集解") for man in LUNYU_JIJIE_MEN if not man.endswith("氏")})
#: … or his surname and 氏, as the 集解's own 序 names its men (「包氏周氏章句出焉」) and 論語 四部叢刊 and
#: 論語集解義疏 print 包咸 (苞氏曰, 包氏曰: his surname in either form, ``JIJIE_SURNAME_FORMS``).
LUNYU_JIJIE.update({form + "氏曰": Voice(jijie_man(form + "氏"), COMMENTARY, "集解") for man in LUNYU_JIJIE_MEN
                    for form in (man[0], *(v for v, s in JIJIE_SURNAME_FORMS.items() if s == man[0]))})

#: 文選註: each man the old notes 李善 keeps unsigned name (``reader.quoted_names.WENXUAN_NAMES``: 張揖, 郭璞,
#: 晉灼 on 上林賦) opens his part so, before 李善's 善曰 (``profiles.Profile.kept``, docs/decisions/0133).
WENXUAN = {name + "曰": Voice(who) for name, who in WENXUAN_NAMES.items()}
#: The books 李善 cites by title and 曰 most often in 文選注 (every title cited at a quotation's start
#: at least eight times): such a citation, like 又曰 (the book cited last, again) and a man cited by
#: his book (杜預左氏傳注曰, 郭璞山海經注曰: ``WENXUAN_CITATION``), is his and ends the part of a man
#: of the old notes before it (``Profile.citation``, read where ``Profile.kept`` is: 「應劭曰…杜預左氏傳注曰掩匿也」).
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
#: A title of ``WENXUAN_BOOKS`` then a chapter or a speaker of the book (at most six characters) and 曰 (左氏傳子太叔曰,
#: 莊子廣成子謂黄帝曰, 楚辭湘君曰, 漢書武帝策詔曰, 尚書序曰): 李善 quotes that book. Not where the characters before 曰
#: are a quoted man's name (「…其事見吕氏春秋髙誘曰」: the title ends the man's sentence, 髙誘曰 opens the next
#: part) or hold a sentence's end (「若今之尚書耳」, 「詩賦通方言耳」: a title in the man's own sentence).
SENTENCE_ENDS = "也耳矣焉"
SPEAKER_CITATION = ("(?:" + "|".join(sorted(WENXUAN_BOOKS, key=len, reverse=True)) + ")[^曰" + SENTENCE_ENDS
                    + "]{1,6}?" + "".join(f"(?<!{name})" for name in sorted(WENXUAN_NAMES)) + "曰")
#: 李善's note that two characters write one word (「離與麗古字通」, 「窬與覦同」, 「龕與戡音義同」, 「偪字與逼同」), as his own
#: part writes it (卷一 「度與羌古字通」): after a quoted man's gloss has closed (也) it is 李善's, and the man's part
#: ends before it, as before a citation. Not where 同 or 通 opens a word of the man's sentence (曹大家's 「言已與楚同祖」,
#: 王逸's 序 「屈與楚同姓」, 杜預's 「悉積與桀同誅」 before 李善's 漢書音義): what follows is the note's end, 也, 古字通, 並,
#: a reading (切, or 音 and its sound) within four characters, or a citation (…曰) (decision 0115).
SAME_WORD = ("(?<=也)[^也曰與]{1,2}字?與[^也曰與]{1,2}(?:古字通|古字同|音義同|字同|同|通)"
             "(?=$|也|古字|並|[^也曰]{0,3}?(?:切|音[^義])|[^也曰]{1,8}曰)")
WENXUAN_CITATION = re.compile(
    "又曰|(?:" + "|".join(sorted(WENXUAN_BOOKS, key=len, reverse=True)) + ")曰|(?:"
    + "|".join(sorted(WENXUAN_NAMES, key=len, reverse=True)) + ")[^曰]{0,7}?(?:" + BOOK_ENDS + ")曰"
    + "|(?<=也)[^曰也]{0,7}?(?:" + TITLE_ENDS + ")曰|" + SPEAKER_CITATION + "|" + SAME_WORD)

#: 九家集注杜詩 (郭知達 編): the notes of the nine 宋 commentators on 杜甫 in one note, the
#: first part with no name (the old notes, 舊注, most of them 王洙's), each later part led by its
#: commentator's surname or book and 云/曰 as this edition prints it (趙云 趙次公, 杜補遺 and
#: 杜正謬 杜田's 注杜詩補遺正謬, 鮑云 鮑彪, 薛云 薛夢符, 師曰 師尹, 洙曰 王洙, 蔡正異云 蔡興宗's
#: 杜詩正異). Quoted speech (子貢曰) and a book's name (莊子曰) open no part: they are no formula.
JIUJIA = {"趙云": Voice("趙次公"), "趙曰": Voice("趙次公"), "杜補遺": Voice("杜田"), "杜正謬": Voice("杜田"),
          "鮑云": Voice("鮑彪"), "鮑曰": Voice("鮑彪"), "薛云": Voice("薛夢符"), "薛曰": Voice("薛夢符"),
          "師曰": Voice("師尹"), "洙曰": Voice("王洙"), "蔡正異云": Voice("蔡興宗")}
