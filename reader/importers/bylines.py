"""Bylines read as people, each with dynasty, native place, name and role: how the title
pages of these books print who wrote and who commented. Shared by the Siku parser (the title
line's byline), the plain-text parser (the byline line under a 提要 file's title) and the
mandoku header (``reader.importers.mandoku.header``, which finds the byline lines). Pure.

How bylines are printed (the rules below follow it):

- An entry is ``[dynasty] [offices] name role``: 漢鄭氏注, 唐國子博士…陸德明釋文附, 婺源江永撰
  (a Qing author's native place instead of a dynasty: the Siku convention, ``parse_byline``).
  The role ends the entry: 撰 著 編 輯 纂 述 注 註 箋 傳 學 疏 解 音義 釋文 集解 集傳 義疏 章句 補注 訂定 校
  訂 …; 解 only after a dynasty or an office (道德真經解 ``丞議郎陳象古解``: 陳象古's 解), since a
  title ends so too (孟子題辭解, ``EXPLAINED``).
- A line may print several entries with no space between them, each a short name and its
  role (書集傳纂疏 ``朱子訂定蔡氏集傳``: 朱子 訂定, 蔡氏 集傳, the 集傳 the book comments on):
  a name is at most ``NAME_MAX`` characters once dynasty and offices are left out, so a
  longer "name" is read as entries run together (``run_entries``).
- Entries are set apart by U+3000; one entry's words may be spaced too (魏　何晏　集解). A
  byline spaced out character by character (晉書 ``唐　太　宗　文　皇　帝　御　撰``, 唐書
  ``宋　翰　林　學　士　歐　陽　修　撰``) is read as its words written together: its spaces set no
  entries apart, so 學 of 學士 is no role (``spaced_out``). An emperor signs by his title and
  御撰 (太宗文皇帝); a history compiled by a board signs with its chief's offices, his name, 等
  and 修 (宋史 ``元中書右丞相總裁托克托等修``, 明史 ``大學士張廷玉等奉　敕修``): 修, 奉敕修 and 監修
  are roles, 修 only after 等 or offices (歐陽修 ends in 修).
- People who did one thing together share one role led by 同 (同編, 同撰, 同校): 「明　王道焜」 /
  「趙如源　同編」 is 王道焜 and 趙如源, both of 明, who edited the book together; the names
  stay apart as printed. People joined by 并 share the role after them (李善并五臣註).
- A later entry without a dynasty is of the dynasty before it, as the book prints it; not a
  master named by his surname and 子 or 氏 (書集傳纂疏 「元　陳櫟　撰」 / 「朱子訂定蔡氏集傳」: 朱子 and
  蔡氏, the 宋 masters whose 集傳 the book comments on, ``MASTER``).
- An entry whose offices fill its first line goes on on the next (毛詩 卷一: 「唐國子愽士兼
  太子中允贈齊州刺史」 / 「呉縣開國男陸　德明釋文附」): ``OFFICE_LINE``.
- A heading line that prints the book's title before the commentator (大題在下: 「毛詩國風　鄭氏箋」)
  is a title and a byline: the header drops the title before reading the entry.
- A classic's name before 音義 is the title of a book of readings, not a person (經典釋文 prints
  each part's title under the juan's: 「孝經音義」, 「周易音義」, 「老子道經音義」; its author signs
  on the next line, 「…陸德明撰」): ``PART_TITLE``. People are named before 音義 by their names
  (唐陸德明音義).
- A heading word that opens a part of a book (附錄 the appended records, 目錄 the table of contents,
  卷首 and 卷末 the juans before and after the text) is no person's name: a heading line that ends
  in a role's character is a heading, not a byline (欽定春秋傳說彙纂 卷三十八 「附錄經傳」, the 經 and 傳 it
  appends, not a man 附錄經 and his 傳): ``HEADING_WORD``.
- The dynasty is printed first and set apart by a space (「宋　衛湜　撰」). A word of one character set
  apart there, before a name the book's catalogue entry names, fills the dynasty slot even where it
  is no dynasty, a copyist's slip (禮記集說 卷一百五十五 「宗　衛湜　撰」, 宗 for 宋, where every other juan
  prints 宋): it is no part of the name, and the person is the catalogue's, of the catalogue's
  dynasty (``byline_people``'s ``listed``; ``slot_person``).
"""
from __future__ import annotations

import re

from catalogue.catalogue import Person
from characters.folding import fold

from ..catalogue_writers import courtesy_split, known_name

#: Dynasty prefixes of Siku bylines (宋朱熹撰); 國朝 marks a Qing author. The 涼 states of the
#: Sixteen Kingdoms (人物志 四部叢刊: ``凉　儒林祭酒劉　昞　注``, 劉昞 of 西涼 and 北涼) are printed
#: as 涼 or 凉.
DYNASTIES = ("國朝", "皇朝", "後漢", "東漢", "西漢", "南唐", "後梁", "後唐", "後晉", "後周", "北魏", "北齊", "北周",
             "西涼", "北涼", "前涼", "後涼",
             "漢", "魏", "晉", "宋", "齊", "梁", "陳", "隋", "唐", "元", "明", "清", "周", "涼", "凉")
#: The names of the classics (and of the books 經典釋文 reads with them) that a book of readings
#: is titled by: 孝經 in 「孝經音義」 (``PART_TITLE``).
CLASSIC_NAMES = ("周易", "尚書", "毛詩", "周禮", "儀禮", "禮記", "春秋", "左氏", "公羊", "穀梁", "榖梁", "孝經",
                 "論語", "孟子", "爾雅", "老子", "莊子")
#: A line that is the title of a book of readings of a classic (經典釋文 卷二十三 「孝經音義」, 卷二
#: 「周易音義」, 卷二十五 「老子道經音義」, 「春秋公羊音義」), spaces left out: a title, not a byline.
#: A book of readings in several juans numbers its part (卷三 「尚書音義上」, 卷十一 「禮記音義之一」,
#: 卷十六 「春秋左氏音義之二」) and may print the 篇 the part holds in small print after the number
#: (``(起第六/盡第十)``, 卷二十六 ``(内篇/七)``); a title with a note and no number is a heading with its
#: note's label (毛詩注疏 原目 ``毛詩國風音義(毛詩詩是此書之名…)``: 毛詩國風 and 陸德明's 音義 on it).
PART_TITLE = re.compile(r"^(?:" + "|".join(CLASSIC_NAMES) + r")[^()<>音]{0,4}音義"
                        r"(?:(?:之[一二三四五六七八九十]+|[上中下])(?:\([^()]*\))?)?$")
#: A role of two words (編輯: 唐劉蛻集 ``明吳馡編輯``) is one role, not a name's last character and a role.
ROLE = re.compile(r"(撰集|同撰|奉勅撰|編輯|撰|著|編|輯|纂|述|注|註|集注|集解|疏|訂|校)$")
IDEO_SPACE = "\u3000"
#: A role shared by the people before it (同編: they edited the book together).
SHARED_ROLE = r"同(?:編輯|撰|編|輯|纂|校|訂|註|注|述)"


def readings_part(header_lines: list[str]) -> bool:
    """Whether a juan's header lines print the title of a book of readings (``PART_TITLE``, spaces and
    ``¶`` left out: 經典釋文 卷二 ``　　　　周易音義``, 卷十六 ``春秋左氏音義之二(起第六/盡第十)``): the juan
    is one part of 陸德明's readings, its text the lemmas he reads and their notes."""
    return any(PART_TITLE.match(line.strip("\u3000¶").replace(IDEO_SPACE, "")) for line in header_lines)


def parse_byline(byline: str) -> tuple[str, str, str]:
    """Split a Siku byline into ``(dynasty, native_place, author)``.

    ``"婺源江永撰"`` → ``("", "婺源", "江永")``; ``"宋朱熹撰"`` → ``("宋", "", "朱熹")``.
    Rule (the Siku convention): strip the role word (撰, 注, …); a leading dynasty name
    is the dynasty; otherwise four or more characters are a two-character native place
    followed by the name (Qing authors are written 籍貫 + 姓名). A heuristic: a
    three-character place name would be split wrongly, and the raw line is kept.
    """
    rest = ROLE.sub("", byline.strip())
    for dynasty in DYNASTIES:
        if rest.startswith(dynasty) and len(rest) - len(dynasty) >= 2:
            return dynasty, "", rest[len(dynasty):]
    if len(rest) >= 4:
        return "", rest[:2], rest[2:]
    return "", "", rest


#: One entry of a byline: who (dynasty, name) and the role (撰, 注, 音義, 疏, …; 集解 also as 集觧,
#: as 論語 四部叢刊 prints it in ``論語顔淵第十二　何晏集觧(…)``).
BYLINE_ENTRY = re.compile(r"^(?P<who>[^()<>]{2,12}?)(?P<role>" + SHARED_ROLE + r"|奉勅撰|勑撰|御注|御撰|集注|集[解觧]|音義[幷并][疏䟽]|音義|音[註注]|"
                          r"奉[勑勅敕敇]修|(?<=[等䓁])修|監修|"
                          r"釋文附|釋文|義疏|章句|[補𥙷][幷并]注|[補𥙷]注|集傳|訂定|編輯|撰|著|編|輯|纂|述|注|註|箋|傳|𫝊|學|疏|䟽)$")
#: A work presented to the throne signs with the humble 臣 and 上 (楚辭 ``校書郎臣王逸上``:
#: 王逸 presented his 章句): the role 上 is taken only after a name that 臣 leads.
PRESENTED = re.compile(r"^(?P<who>[^()<>]{0,12}臣[^()<>臣]{2,4}?)(?P<role>上)$")
#: An entry whose person is led by his offices, longer than ``BYLINE_ENTRY`` allows
#: (前漢書: ``唐正議大夫行祕書少監琅邪縣開國子顏師古注``): taken when the offices end before
#: a name of at most ``OFFICE_NAME_MAX`` characters (``LAST_OFFICE``).
OFFICE_ENTRY = re.compile(r"^(?P<who>[^()<>\u3000 ]{13,40}?)(?P<role>奉聖旨纂修|奉[勑勅敕]撰|[勑勅敕]撰|奉[勑勅敕敇]修|修|御注|集注|集解|音義|釋文附|釋文|"
                          r"撰|注|註|疏|䟽|[録錄])$")
OFFICE_NAME_MAX = 5
#: The office titles, ranks and honours that end a person's offices in the bylines of these books,
#: each as the bylines print it (愽士 for 博士, 舎人 for 舍人, 𨳩國 for 開國 with it, 開国 and 開囯 in 春秋正義
#: KR1e0003's). Source: the bylines of the shared corpus (``../shared/corpus/kanripo*/``, SOURCES.md), e.g. 儀禮疏
#: ``朝散大夫行太學博士弘文館學士臣賈公彦等``, 前漢書 ``唐正議大夫行祕書少監琅邪縣開國子顏師古注``, 毛詩 卷一
#: ``唐國子愽士兼太子中允贈齊州刺史``, 論語注疏 ``魏尚書駙馬都尉關内侯何晏撰``, 荀子 ``登仕郎守大理評事楊倞注``,
#: 南華真經註疏 ``西華法師成玄英``, 春秋正義 (胡安國's 春秋傳) ``…賜紫金魚袋臣胡安國奉``, and the 四庫 editors'
#: (``按察使沈廷芳撰``); the 中正 of a commandery (三國志 ``晉著作郎巴西中正安漢陳壽撰``: 巴西's 中正), and
#: the chief ministers' 同中書門下平章事 and the 三公's 司空 (舊唐書 ``後晉司空同中書門下平章事劉　昫撰``).
#: The teachers of the 國子監's schools (周易略例序 ``唐四門助教郉璹撰``: 四門學's 助教).
#: The magistrate of a county, its name and 令 (後漢書 志 ``梁　剡　令劉　昭補幷注``: 劉昭, 令 of 剡縣), and the
#: 令 of a ministry (尚書令, 中書令): 令 after a word, never the first character (令狐, a surname) nor
#: that of 令史 (蘭臺令史班固, an office of its own).
#: ``OFFICES``, ``LAST_OFFICE`` and ``OFFICE_LINE`` all read this one list.
OFFICE_TITLES = (r"(?:常侍|尚書|[侍書作中議]郎|學士|祭酒|博士|愽士|御史|教授|編修|檢討|司業|知府|知縣|大夫|令史|太守|"
                 r"少監|[開𨳩][國国囯][公侯伯子男]|關[内內]侯|都尉|魚袋|法師|評事|按察使|刺史|中允|[舍舎]人|中正|平章事|司空|"
                 r"丞相|[總縂総搃]裁|國史|特進|助教|(?<=[^\u3000 ])令(?![狐史]))")
#: A byline's offices up to the first title of ``OFFICE_TITLES`` (lazy) and the rest: ``登仕郎守大理評事楊倞`` →
#: 登仕郎守大理評事, 楊倞.
OFFICES = re.compile(r"^(?P<office>.*?" + OFFICE_TITLES + r")(?P<rest>.{2,})$")
#: The last office title of a byline (greedy): ``朝散大夫行太學博士弘文館學士臣賈公彦等`` → 臣賈公彦等;
#: Han and Wei titles and ranks too (論語集解序 ``魏尚書駙馬都尉關内侯何晏撰`` → 何晏), and the Song
#: honour that closes a list of offices (胡安國 春秋傳 ``…賜紫金魚袋臣胡安國奉`` / ``聖旨纂修``).
LAST_OFFICE = re.compile(r"^(?P<office>.*" + OFFICE_TITLES + r")(?P<rest>.{2,})$")
#: A byline line made of offices alone, the name and role on the next line (毛詩 卷一
#: ``唐國子愽士兼太子中允贈齊州刺史``): it ends in an office of ``OFFICE_TITLES``.
OFFICE_LINE = re.compile(r"^[^()<>\u3000 ]{2,30}" + OFFICE_TITLES + r"$")
#: A master named by his surname and 子 or 氏 (朱子, 蔡氏), not by his own name: a later entry so
#: named takes no dynasty from the entry before it.
MASTER = re.compile(r"[^\u3000 ]{1,2}[子氏]")
#: The years a 篇 of the 春秋 runs to, as 經典釋文 prints it in the 篇's heading after the 注 it reads
#: (``僖下第七　杜氏　盡三十三年``: to the 33rd year of 僖公): a part of the heading, no person.
LAST_YEAR = re.compile(r"^盡[一二三四五六七八九十百]+年$")
#: A master's name and that range printed with no space between (``杜氏盡九年``).
MASTER_RANGE = re.compile(r"^(?P<master>[^\u3000 ]{1,2}[子氏])(?P<range>盡[一二三四五六七八九十百]+年)$")
#: The longest name a byline's person has once his dynasty and offices are left out: a native
#: place of two characters and a name of three (``婺源江永``), or a monk's 釋 and his name.
NAME_MAX = 5
#: Two roles of one person joined by 幷/并, each stored as his own entry: 後漢書 志 ``剡令劉昭補幷注``
#: (劉昭 supplied the 志 of 司馬彪's 續漢書, 補, and wrote its notes, 注): 補 and 注. (音義幷疏 is one
#: role, ``layer_writers.BOTH``.)
BOTH_ROLES = re.compile(r"^(?P<first>[補𥙷])[幷并](?P<second>注)$")
#: How a role is stored: 附 (釋文附, the readings attached to the book) is no part of the role;
#: 𫝊 is a form of 傳 (尚書注疏 卷四 ``漢孔氏𫝊　唐陸徳明音義　孔穎達疏``).
ROLE_STORED = {"釋文附": "釋文", "𫝊": "傳"}


def clean_author(name: str) -> str:
    """The author's name without the offices, the humble 臣 and the 等 (and others) a byline
    writes around it: ``朝散大夫行太學博士弘文館學士臣賈公彦等`` → 賈公彦 (儀禮疏),
    ``蘭臺令史班固`` → 班固, ``西華法師成玄英`` → 成玄英; a name without them is returned as it is."""
    m = LAST_OFFICE.match(name)
    if m:
        name = m["rest"]
    name = re.sub(r"(?:奉[勑勅敕]撰?)$", "", name)
    if name.startswith("臣") and len(name) > 2:
        name = name[1:]
    if name.endswith(("等", "䓁")) and len(name) > 2:
        name = name[:-1]
    return name


#: A heading word that opens a part of a book, never a person's name (module docstring): 附錄 (附録),
#: 目錄 (目録), 卷首, 卷末. A byline entry whose name begins with one is no entry (``byline_entries``).
HEADING_WORD = re.compile(r"^(?:附[錄録]|目[錄録]|卷[首末])")


def slot_person(who: str, byline: str, listed: tuple[Person, ...]) -> Person | None:
    """The person of the book's catalogue entry (``listed``: ``catalogue.Person``, name and
    dynasty) a byline entry ``who`` names after a word of one character set apart in ``byline``'s
    dynasty slot that is no dynasty (``dynasty_of`` finds none): ``宗衛湜`` of ``宗　衛湜　撰`` with
    禮記集說's entry (衞湜, 宋) → 衞湜 of 宋, for the rest 衛湜 folds (``characters.folding.fold``)
    as 衞湜 does. None where ``who`` begins with a dynasty, the first word is not set apart before
    the name, the name is shorter than two characters, or not exactly one person of ``listed`` with
    a dynasty is so named (a slip in the slot is read only where the catalogue says whom the byline
    names; the book's other juans print his dynasty, 宋)."""
    if not listed or len(who) < 3 or dynasty_of(who):
        return None
    first, name = who[0], who[1:]
    tokens = re.split(r"[\u3000 ]+", byline.strip("\u3000 ¶"))
    set_apart = any(a == first and b.startswith(name[:2]) for a, b in zip(tokens, tokens[1:]))
    fit = {p for p in listed if p.name and p.dynasty and fold(p.name) == fold(name)}
    return fit.pop() if set_apart and len(fit) == 1 else None


def byline_people(byline: str, listed: tuple[Person, ...] = ()) -> list[dict[str, str]]:
    """Everyone a byline names, each with his dynasty and role, as the edition's metadata
    (``JuanDocument.bylines``): ``漢鄭氏注　唐陸德明音義　賈公彥疏`` →
    ``[{"dynasty": "漢", "name": "鄭氏", "role": "注"}, {"dynasty": "唐", "name": "陸德明",
    "role": "音義"}, {"dynasty": "唐", "name": "賈公彥", "role": "疏"}]`` (a later entry
    without a dynasty is of the dynasty before it, as the book prints it); offices and the
    humble 臣 are left out (``clean_author``); a courtesy name printed after the name is its own
    ``"courtesy"`` (``鄱陽馬端臨貴與著``: place 鄱陽, name 馬端臨, courtesy 貴與; where the catalogue
    decides, ``reader.catalogue_writers.courtesy_split``: the words before the name are his native
    place when two characters, else offices, left out); ``[]`` when the byline is not made of
    entries. ``listed``: the people of the book's catalogue entry
    (``reader.catalogue_writers.work_people``), who fill a dynasty slot the byline misprints
    (``slot_person``: 禮記集說 ``宗　衛湜　撰`` → ``{"dynasty": "宋", "place": "", "name": "衛湜",
    "role": "撰"}``, the name as printed)."""
    out: list[dict[str, str]] = []
    dynasty = ""
    for who, role in byline_entries(byline) or listed_entries(byline, listed) or []:
        own = dynasty_of(who)
        slot = slot_person(who, byline, listed)
        if slot is not None:  # a slip in the dynasty slot (宗 for 宋): the catalogue's dynasty, no part of the name
            who, own = slot.dynasty + who[1:], slot.dynasty
        dynasty = own or dynasty
        for one in _joined(who[len(own):]):
            place, name = split_name(one, bool(dynasty))
            before, name, courtesy = courtesy_split(name, dynasty)
            place = place or (before if len(before) == 2 else "")
            master = not own and MASTER.fullmatch(name) is not None
            person = {"dynasty": "" if master else dynasty, "place": place, "name": name, "role": role}
            out.append(person | ({"courtesy": courtesy} if courtesy else {}))
    return out


def listed_entries(byline: str, listed: tuple[Person, ...]) -> list[tuple[str, str]] | None:
    """``byline_entries`` of ``byline``, each word between its U+3000 read alone, a word of names run together
    before one role read by the people the book's catalogue lists (``listed_run``); None where any word is
    neither, or nobody is listed."""
    out: list[tuple[str, str]] = []
    for token in re.split(r"[\u3000 ]+", byline.strip("\u3000 ¶")) if listed else ():
        entries = byline_entries(token) or listed_run(token, listed)
        if not entries:
            return None
        out.extend(entries)
    return out or None


def listed_run(token: str, listed: tuple[Person, ...]) -> list[tuple[str, str]] | None:
    """The entries of a byline word whose names run together before the role they share, the dynasty printed
    once before them, each name one of the people the book's catalogue lists with that role (``listed``; any
    variant form, ``characters.folding``: 吕 is 呂): 六臣註文選 卷首 ``唐吕延濟劉良張銑吕向李周`` over ``翰註``, the
    五臣, read ``[("唐吕延濟", "註"), ("唐劉良", "註"), ("唐張銑", "註"), ("唐吕向", "註"), ("唐李周翰", "註")]``,
    names as printed. None unless the whole word is two or more such names and a role."""
    dynasty = dynasty_of(token)
    for role in sorted({p.role for p in listed if p.role and token.endswith(p.role)}, key=len, reverse=True):
        names = sorted({fold(p.name) for p in listed if p.role == role and len(p.name) >= 2}, key=len, reverse=True)
        run, k, out = fold(token[len(dynasty):-len(role)]), 0, []
        while k < len(run):
            name = next((n for n in names if run.startswith(n, k)), None)
            if name is None:
                break
            out.append((dynasty + token[len(dynasty) + k:len(dynasty) + k + len(name)], role))
            k += len(name)
        if k == len(run) and len(out) >= 2:
            return out
    return None


def _joined(who: str) -> list[str]:
    """The people of one byline entry that joins them with 并/幷 before their one role
    (六臣註文選 ``李善并五臣註``: 李善 and the 五臣, each 註): ``["李善", "五臣"]``; the entry
    alone when a side is shorter than two characters (a name is two or more)."""
    parts = re.split(r"[并幷]", who)
    return parts if len(parts) > 1 and all(len(p) >= 2 for p in parts) else [who]


def split_name(who: str, dated: bool) -> tuple[str, str]:
    """``(native place, name)`` of a byline's person without his dynasty: offices left out
    (``clean_author``); a name of four characters or more with no office and no dynasty
    before it is a two-character native place and the name (``婺源江永``, ``山陽王弼``: the
    Siku convention, ``siku.parse_byline``), and so is one of four or five characters after
    offices, unless a surname of two characters begins it (``COMPOUND_SURNAMES``)."""
    name = clean_author(who)
    if name == who and not dated and len(name) >= 4:
        return name[:2], name[2:]
    office = LAST_OFFICE.match(who)
    if office and name == office["rest"] and 4 <= len(name) <= 5 and name[:2] not in COMPOUND_SURNAMES:
        # offices, then the native place and the name, as the 晉 and 宋 bylines print them
        # (三國志: 晉著作郎巴西中正安漢陳壽 → 安漢, 陳壽; 宋太中大夫國子博士聞喜裴松之 → 聞喜, 裴松之);
        # a name after the humble 臣 has no native place before it (臣賈公彦等)
        return name[:2], name[2:]
    return "", name


#: Surnames of two characters (複姓), which begin a name of four characters (長孫無忌, 令狐德棻,
#: 歐陽修's kin): after offices such a name is a name, not a native place and a name.
COMPOUND_SURNAMES = frozenset((
    "司馬", "長孫", "令狐", "歐陽", "諸葛", "皇甫", "上官", "夏侯", "公孫", "宇文", "獨孤", "尉遲", "慕容", "東方",
    "鮮于", "澹臺", "太史", "申屠", "端木", "呼延", "赫連", "拓跋", "賀蘭", "聞人", "淳于", "西門", "南宮", "鍾離",
    "毌丘", "万俟", "司空", "公冶", "軒轅", "令孤"))


#: The titles of the 易's 十翼, its commentary in ten 篇 (彖 上下, 象 上下, 繫辭 上下, 文言, 說卦, 序卦,
#: 雜卦: 漢書·藝文志), as the editions head them (御纂周易折中 卷十七 「說卦傳」, 「序卦傳」, 「繫辭上傳」):
#: a 篇's title, whose 傳 is what the 篇 is, not a role, and whose name is no person's.
YI_WINGS = re.compile(r"^(?:彖|象|繫辭|系辭|文言|說卦|説卦|序卦|雜卦)[上下]?[傳𫝊][上下]?$")


def byline_entries(byline: str) -> list[tuple[str, str]] | None:
    """``[(who, role), ...]`` when ``byline`` is made only of byline entries separated by
    U+3000 or spaces, else None. ``漢鄭氏注　唐陸德明音義　賈公彥疏`` →
    ``[("漢鄭氏", "注"), ("唐陸德明", "音義"), ("賈公彥", "疏")]``; words spaced out inside
    one entry are joined (``魏　何晏　集解`` → ``[("魏何晏", "集解")]``), but the names before
    a shared role stay apart, each with it (``明　王道焜　趙如源　同編`` →
    ``[("明王道焜", "同編"), ("趙如源", "同編")]``: ``shared_entries``); a role stored as
    ``ROLE_STORED`` says (釋文附 → 釋文); None for the title of a 篇 of the 易 (``YI_WINGS``:
    ``說卦傳``)."""
    tokens = re.split(r"[\u3000 ]+", byline.strip("\u3000 ¶"))
    if YI_WINGS.match("".join(tokens)):
        return None
    if spaced_out(byline):
        # a byline spaced out character by character (晉書 ``唐　太　宗　文　皇　帝　御　撰``, 唐書
        # ``宋　翰　林　學　士　歐　陽　修　撰``): its spaces set no entries apart, so a word inside it
        # (學 of 學士) is no role; read it as the words written together
        joined = byline_entries("".join(tokens))
        if joined:
            return joined
    entries: list[tuple[str, str]] = []
    buf: list[str] = []
    for token in tokens:
        buf.append(token)
        joined = "".join(buf)
        m = BYLINE_ENTRY.match(joined) or _office_entry(joined) or PRESENTED.match(joined) or _explained(joined)
        if m:
            role = ROLE_STORED.get(m["role"], m["role"])
            run = run_entries(joined) if len(buf) == 1 and _too_long(m["who"]) else None
            both = BOTH_ROLES.match(role)
            one = [(m["who"], both["first"]), (m["who"], both["second"])] if both else [(m["who"], role)]
            entries.extend(run or (shared_entries(buf, role) if re.fullmatch(SHARED_ROLE, role) else one))
            buf = []
    if any(HEADING_WORD.match(who[len(dynasty_of(who)):]) for who, _ in entries):
        return None  # a heading (附錄經傳: the 經 and 傳 appended), no person (``HEADING_WORD``)
    return entries if entries and not buf else None


def spaced_out(byline: str) -> bool:
    """Whether ``byline`` is spaced out character by character, every word between its U+3000
    (or spaces) one character and three words at least (晉書 ``唐　太　宗　文　皇　帝　御　撰``)."""
    tokens = re.split(r"[\u3000 ]+", byline.strip("\u3000 ¶"))
    return len(tokens) >= 3 and all(len(t) == 1 for t in tokens)


#: An entry whose role is 解 (his explanation of the text): taken only where a dynasty or an office
#: leads the name (``丞議郎陳象古解``), for a title may end in 解 too (孟子注疏 ``孟子題辭解``).
EXPLAINED = re.compile(r"^(?P<who>[^()<>\u3000 ]{2,12}?)(?P<role>解)$")


def _explained(buf: str) -> re.Match | None:
    """``EXPLAINED``'s match of ``buf`` when a dynasty or an office leads its name, else None."""
    m = EXPLAINED.match(buf)
    return m if m and (dynasty_of(m["who"]) or LAST_OFFICE.match(m["who"])) else None


def _too_long(who: str) -> bool:
    """Whether ``who`` (an entry's person as printed) is longer than one person's name once
    his dynasty and offices are left out (``NAME_MAX``)."""
    return len(clean_author(who[len(dynasty_of(who)):])) > NAME_MAX


def run_entries(token: str) -> list[tuple[str, str]] | None:
    """Entries printed with no space between them, each a name of at most ``NAME_MAX``
    characters and its role (``BYLINE_ENTRY``): ``朱子訂定蔡氏集傳`` → ``[("朱子", "訂定"),
    ("蔡氏", "集傳")]``; None unless the whole token splits into two or more such entries
    (the split with the fewest entries, the earlier entries as long as they can be)."""
    best: list[tuple[str, str]] | None = None
    for end in range(len(token) - 2, 2, -1):
        m = BYLINE_ENTRY.match(token[:end])
        if not m or _too_long(m["who"]):
            continue
        rest = token[end:]
        tail = BYLINE_ENTRY.match(rest)
        more = [(tail["who"], tail["role"])] if tail and not _too_long(tail["who"]) else run_entries(rest)
        if more and (best is None or len(more) + 1 < len(best)):
            best = [(m["who"], m["role"]), *more]
    return [(who, ROLE_STORED.get(role, role)) for who, role in best] if best else None


def shared_entries(tokens: list[str], role: str) -> list[tuple[str, str]]:
    """The people of an entry whose role they share (同編), as the book spaces them:
    ``["明", "王道焜", "趙如源", "同編"]`` → ``[("明王道焜", "同編"), ("趙如源", "同編")]``: a
    dynasty standing alone leads the name after it; a role written apart is dropped; one
    entry of the names joined when any word left is a single character (a name spaced out)."""
    words = [t for t in tokens if t != role]
    if words and words[-1].endswith(role):
        words[-1] = words[-1][:-len(role)]
    people: list[str] = []
    lead = ""
    for word in filter(None, words):
        if word in DYNASTIES or word in ("後魏", "北魏", "魏", "晋"):
            lead += word
            continue
        people.append(lead + word)
        lead = ""
    if not people or lead or any(len(p[len(dynasty_of(p)):]) < 2 for p in people):
        return [("".join(words), role)]
    return [(p, role) for p in people]


def _office_entry(buf: str) -> re.Match | None:
    """``OFFICE_ENTRY``'s match of ``buf`` when offices lead a short name, else None."""
    m = OFFICE_ENTRY.match(buf)
    if not m:
        return None
    who = m["who"][len(dynasty_of(m["who"])):]
    office = LAST_OFFICE.match(who)
    return m if office and len(clean_author(who)) <= OFFICE_NAME_MAX else None


def shared_role(byline: str) -> bool:
    """Whether ``byline`` is made of entries whose first role is shared by people named
    before it (``趙如源　同編``: the title line names 王道焜 before it), so that the line before
    it is read with it; a byline whose first entry has its own role (``唐　李善　註`` under
    ``梁　蕭統　統``) is not."""
    entries = byline_entries(byline)
    return bool(entries) and re.fullmatch(SHARED_ROLE, entries[0][1]) is not None


#: A byline under a juan's title that prints its writer's offices and name and leaves out his role
#: (``bylines.OFFICE_TITLES``): 荀子 四部叢刊 卷四 ``　　　　　登仕郎守大理評事揚　倞``, where every other juan
#: prints ``…揚　倞　注``, and 卷七 ``…大理評事揚``, the name cut short; set as deep as a byline is.
UNSIGNED_BYLINE = re.compile(r"^\u3000{3,}(?P<office>[^()<>¶\u3000/]*?" + OFFICE_TITLES + r")(?P<name>[^()<>¶/]{1,5})¶?$")


def unsigned_byline(line: str) -> bool:
    """Whether ``line`` is a byline without its role (``UNSIGNED_BYLINE``): offices and then a name of
    one to four characters once the spaces that set it out are left out. The juan's people are
    none the wiser (no role, no entry: ``byline_people`` finds nobody), but the line is its head's,
    not text, and the 篇 heading under it opens the juan's first chapter."""
    m = UNSIGNED_BYLINE.match(line)
    return m is not None and 1 <= len(m["name"].replace(IDEO_SPACE, "")) <= 4


def office_line(line: str) -> bool:
    """Whether a byline line holds only a person's offices, his name and role on the next
    line (``OFFICE_LINE``: 毛詩 卷一 ``唐國子愽士兼太子中允贈齊州刺史``)."""
    return bool(OFFICE_LINE.match(line.strip("\u3000 ¶")))


def dynasty_of(who: str) -> str:
    """The dynasty a byline entry's name begins with (``漢鄭氏`` → 漢), "" if none."""
    return next((d for d in ("後魏", "北魏", *DYNASTIES, "魏", "晋") if who.startswith(d) and len(who) > len(d)), "")


def several_authors(entries: list[tuple[str, str]]) -> tuple[str, str]:
    """``(dynasty, author)`` for a byline naming several people, each with his role, as
    printed: ``[("漢鄭氏", "注"), ("唐陸德明", "音義"), ("賈公彥", "疏")]`` →
    ``("漢", "鄭氏注　〔唐〕陸德明音義　賈公彥疏")``. The first person's dynasty is the work's
    (``Work.byline`` writes it in 〔〕 before the whole); a later one keeps his own in 〔〕.
    The entries are separated by U+3000 as the book prints them."""
    first = dynasty_of(entries[0][0])
    out = []
    for k, (who, role) in enumerate(entries):
        dynasty = dynasty_of(who)
        name = clean_author(who[len(dynasty):])
        out.append((f"〔{dynasty}〕" if dynasty and k else "") + name + role)
    return first, IDEO_SPACE.join(out)


def role_apart(words: str, role: str) -> bool:
    """Whether a line printing ``words``, a gap and ``role`` is a byline whose role stands apart
    (北齊書 ``隋太子通事舎人李百藥　撰``), not a chapter line with its category (``大射儀　嘉禮十五``):
    ``role`` is a role alone and ``words`` and it make byline entries ending in it."""
    role = role.strip("\u3000 ")
    entries = byline_entries(words + role)
    return bool(entries) and entries[-1][1] == ROLE_STORED.get(role, role)


def category_byline(category: str) -> tuple[str, str]:
    """``(group, byline)`` of the words a 篇 heading prints after its title (its category):
    the last words that make byline entries (``byline_entries``), with a dynasty printed
    apart before them, are the commentator's byline, metadata and no part of the heading's
    group; the words before them the group. ``虞書　孔氏傳`` (尚書 四部叢刊 ``舜典第二　虞書　孔氏傳``)
    → ``("虞書", "孔氏傳")``; ``儀禮　鄭氏注`` → ``("儀禮", "鄭氏注")``; ``子夏傳　鄭氏注`` (儀禮 喪服)
    → ``("", "子夏傳　鄭氏注")``; ``魏　王弼　撰`` → ``("", "魏　王弼　撰")``; a master's name among
    other words (``杜氏　盡三十三年``) → ``("盡三十三年", "杜氏")``; the name of a person Kanripo's
    catalogue knows (``catalogue_writers.known_name``), alone or not, the commentator whose text the
    篇 is read in, as a master's (莊子音義 ``内篇逍遥遊第一　郭象`` → ``("", "郭象")``: a 篇 heading is
    the book's, its group no person); a group alone (``嘉禮十五``,
    ``離騷``) → ``(category, "")``. A byline is taken from the end only, word by word (``儀禮``
    before ``鄭氏注`` is no name: the shortest words that make entries, then the words before
    them that are entries or a dynasty alone). A master's name and the range run together with no
    space between are the two words (經典釋文 ``襄元(…)第十四　杜氏盡九年``, ``宣上(…)第十杜氏盡十一年``:
    ``杜氏盡九年`` → ``("盡九年", "杜氏")``, ``MASTER_RANGE``)."""
    words = [part for w in category.split(IDEO_SPACE) if w for part in _apart(w)]
    start = next((j for j in range(len(words) - 1, -1, -1) if byline_entries(IDEO_SPACE.join(words[j:]))), None)
    if start is None:
        # a master's name alone before the 篇's range (經典釋文 ``僖下第七　杜氏　盡三十三年``: 杜預's 注),
        # or a commentator's name, the catalogue's person (莊子音義 ``内篇逍遥遊第一　郭象``: 郭象's 注)
        masters = [w for w in words if MASTER.fullmatch(w) and len(words) > 1 or known_name(w)]
        return (IDEO_SPACE.join(w for w in words if w not in masters), IDEO_SPACE.join(masters)) \
            if masters else (category, "")
    while start > 0 and (words[start - 1] in DYNASTIES or byline_entries(words[start - 1])):
        start -= 1
    return IDEO_SPACE.join(words[:start]), IDEO_SPACE.join(words[start:])


def _apart(word: str) -> tuple[str, ...]:
    """``word`` as the words it prints: a master's name and a range run together are two
    (``MASTER_RANGE``: ``杜氏盡九年`` → ``("杜氏", "盡九年")``), any other word one."""
    m = MASTER_RANGE.match(word)
    return (m["master"], m["range"]) if m else (word,)


def heading_people(byline: str) -> list[dict[str, str]]:
    """The people of the byline a 篇 heading prints after its title (``category_byline``'s second
    part), each as ``byline_people`` gives them, with his dynasty and role where printed: ``何休學`` →
    ``[{"dynasty": "", "place": "", "name": "何休", "role": "學"}]``; a master's name or a name
    Kanripo's catalogue knows printed alone, without a role (經典釋文 ``僖中第六　杜氏　盡二十六年``,
    莊子音義 ``…第一　郭象``: the 注 the 篇 is read in, named by its writer), is that person with no
    role: ``杜氏`` → ``[{"dynasty": "", "place": "", "name": "杜氏", "role": ""}]``."""
    return byline_people(byline) or [{"dynasty": "", "place": "", "name": word, "role": ""}
                                     for word in byline.split(IDEO_SPACE) if word]
