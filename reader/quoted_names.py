"""The men each book quotes and the names it prints them by: one table, ``reader/data/quoted_men.tsv``
(its columns, kinds and sources: ``reader/data/README.md``), read once at import (``ROWS``; ``quoted_rows``
selects), and the views of it the importer and the search read. The formulas of 前漢書, 史記集解 and 文選註 (the man's name as
each book prints it before his 曰, variant forms included: ``formula``), the names a book's own list gives
(周禮訂義's 今作 names: ``quoted``; the 義疏's 引用姓氏 and 論語集解's men: ``listed``), the courtesy names a
book signs a commentator by (``signed``). The importer builds each book's formulas from them
(``reader.importers.mandoku.voices``, ``collected_sayings``, ``collected_blocks``); the search reads a name
printed so as its man (``QUOTED_NAMES``: ``commentator=師古`` is 顏師古). No ORM; the one file read is shipped
data.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The table (tab-separated, ``#`` lines a header naming its sources and licence, then a line of the column
#: names): ``book kind name man dynasty place``.
TABLE = Path(__file__).resolve().parent / "data" / "quoted_men.tsv"
#: The kinds of row: the name the book's text prints before 曰 to open the man's words (counted in the text);
#: the name the book's own list says it quotes him by (周禮訂義's 今作…); a name the book's own list prints him
#: by (his 名, his 字, his place; the men of 論語集解 as its list names them); the name the book signs him by.
FORMULA, QUOTED, LISTED, SIGNED = "formula", "quoted", "listed", "signed"
#: The books whose formula tables the importer reads by name: 前漢書 (顏師古's 注), 史記集解 (裴駰), 文選註
#: (李善), and the book whose list names 何晏's men, 論語注疏.
HANSHU_BOOK, JIJIE_BOOK, WENXUAN_BOOK, LUNYU_BOOK = "KR2a0007", "KR2a0002", "KR4h0002", "KR1h0007"


@dataclass(frozen=True)
class QuotedName:
    """One row of ``TABLE``: ``book`` (Kanripo ID), ``kind`` (``FORMULA``, ``QUOTED``, ``LISTED`` or
    ``SIGNED``), ``name`` as the book prints it (without 曰), ``man`` (surname and given name; as printed
    where the book knows no more: 周氏), ``dynasty`` ("" where the source gives none) and ``place``: where
    the book prints it (``KR1d0010_000.txt:512 32a``: file, line, page; "" for a variant form this copy
    does not print)."""

    book: str
    kind: str
    name: str
    man: str
    dynasty: str
    place: str


def _read(path: Path) -> tuple[QuotedName, ...]:
    """The rows of the table at ``path``, in its order. Raises ``ValueError`` on a row of other than six
    fields or of an unknown kind."""
    rows: list[QuotedName] = []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    for line in lines[1:]:  # the first is the column names
        fields = line.split("\t")
        if len(fields) != 6:
            raise ValueError(f"{path.name}: {len(fields)} fields, not 6, in {line!r}")
        row = QuotedName(*fields)
        if row.kind not in (FORMULA, QUOTED, LISTED, SIGNED):
            raise ValueError(f"{path.name}: unknown kind {row.kind!r} in {line!r}")
        rows.append(row)
    return tuple(rows)


#: Every row of ``TABLE``, in its order.
ROWS = _read(TABLE)


def quoted_rows(kind: str, book: str | None = None) -> list[QuotedName]:
    """The rows of ``kind`` (of ``book``, a Kanripo ID, or of every book), in the table's order."""
    return [row for row in ROWS if row.kind == kind and (book is None or row.book == book)]


def book_names(book: str, kind: str) -> dict[str, str]:
    """``{name as printed: the man}`` of ``book``'s rows of ``kind``, in the table's order."""
    return {row.name: row.man for row in quoted_rows(kind, book)}


#: A man a book signs by his surname and courtesy name (字), named by his own as the formulas and the
#: catalogue name him: 劉逵, 字 淵林, whose 注 on 吳都 and 蜀都 both 文選 books keep (文選註 卷四 「劉淵林注」;
#: 六臣註文選 signs him 「劉淵林註」 and opens his parts with 劉曰, ``LIUCHEN``), so ``commentator=劉逵`` finds his
#: notes in both books; 班固, 字 孟堅, whose 離騷贊序 楚辭補注 heads 「離騷贊序　班孟堅」 (the 四部叢刊 楚辭 alike);
#: 曹植, 字 子建, whose pieces both 文選 books sign 「曹子建」 (六臣's note under his 洛神賦: 「魏曹植字子建」), so that
#: ``author=曹植`` finds them where no note of the library held says so (``reader.piece_authors``).
#: And a man both 文選 books sign by his own name where the books of his pieces name him by his 字: 屈平 over
#: 離騷經 and 九歌 (文選註 and 六臣註文選 卷三十二), 屈原 in 王逸's 序 of each of his 章句 (「離騷經者屈原之所作也」);
#: 李善 says whom 屈平 stands for (文選註 卷十八 長笛賦: 「屈平屈原也」), as 洪興祖 (楚辭補注 卷一: 「史記屈原名平」),
#: so ``author=屈原`` finds his pieces in both (``reader.piece_authors``, decision 0106).
SIGNED_NAMES = {row.name: row.man for row in quoted_rows(SIGNED)}
#: The men 何晏 collects in his 論語集解, as the book lists them whole: 論語注疏's front matter (KR1h0007_000,
#: 陸德明's 序錄 quoted under 論語注解傳述人) 「何晏集孔安國包咸周氏馬融鄭玄陳羣王肅周生烈之說」. The 集解 prints
#: each by his surname and 曰 (孔曰, 包曰, 周曰), its own 序 by surname and 氏 (「包氏周氏章句出焉」), and so
#: do the books that quote its glosses (史記集解 and 文選注: 包氏曰).
LUNYU_JIJIE_MEN = tuple(row.man for row in quoted_rows(LISTED, LUNYU_BOOK))
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
HANSHU_NAMES = book_names(HANSHU_BOOK, FORMULA)
#: The earlier commentators 裴駰 collects in his 史記集解 (his 序: 「采經傳百家并先儒之說」, 徐廣's 音義
#: first), each part opened by the man's name and 曰 as the WYG text writes it (variant forms
#: included): every person the book quotes so at least three times, never a book (漢書音義曰, 皇覽曰,
#: 地理志曰 stay 裴駰's, the quotations he chose); 裴駰's own words after a part open with 駰案 (駰按, 駰謂).
#: 包氏 is 包咸 by 論語集解's list (``jijie_man``).
JIJIE_NAMES = book_names(JIJIE_BOOK, FORMULA)
#: The earlier commentators whose glosses 李善 quotes by name and 曰 in his 文選注 (KR4h0002), as the
#: WYG text writes each name (variant forms and the names by which the book calls a man included:
#: 曹大家 班昭, 鄭司農 鄭眾, 薛君 薛漢, 顔延年 顏延之): every glossator the book quotes so at least three
#: times (郭璞 on 爾雅, 方言, 山海經 and the 賦 of 司馬相如; 張揖 on 上林賦; 司馬彪 on 莊子; 高誘 on 淮南子
#: …), never a speaker of a book he quotes (孔子曰, 子貢曰 stay in the quotation). His own statement
#: of how he keeps the old commentaries, 卷二 under 「薛綜注」: 「善曰舊注是者因而留之並於篇首題其姓名
#: 其有乖繆臣乃具釋並稱臣善以別之」. docs/decisions/0058.
WENXUAN_NAMES = book_names(WENXUAN_BOOK, FORMULA)


def _quoted_names() -> dict[str, str]:
    """``{a name as a collected commentary prints it: the person}`` where the name is not the
    person's own, from the books' formulas and signatures (``FORMULA``, ``SIGNED``: 前漢書's 師古曰 is
    顏師古's, 史記集解's 瓚曰 臣瓚's, 文選注's 曹大家曰 班昭's, both books' 包氏曰 包咸's, 文選's 劉淵林 劉逵),
    each name the rows read as one person alone."""
    read: dict[str, set[str]] = {}
    for row in quoted_rows(FORMULA) + quoted_rows(SIGNED):
        read.setdefault(row.name, set()).add(row.man)
    return {printed: next(iter(people)) for printed, people in read.items()
            if len(people) == 1 and printed not in people}


#: A dynasty a book's list prints by a name the catalogue never writes, as the catalogue writes the men of it:
#: 前漢書's 敘例 sets 荀悅, 服虔, 應劭 and 文穎 under 後漢 and 蔡謨 under 東晉, where the catalogue dates 荀悅 and 應劭
#: 漢 (漢紀, 風俗通義) and 郭璞, of 東晉 too, 晉; it writes 後魏 (崔浩's) as printed.
LIST_DYNASTIES = {"後漢": "漢", "東晉": "晉"}


def listed_dynasty(book: str, man: str) -> str | None:
    """The dynasty ``book``'s own list of the men it quotes (``LISTED`` rows: 前漢書's 敘例, the 義疏's 引用姓氏)
    sets ``man`` under (his first row), a dynasty the catalogue writes otherwise as it writes it
    (``LIST_DYNASTIES``: 後漢 → 漢); "" where the list prints none (前漢書's 李奇, 臣瓚), None where the book
    lists no such man."""
    row = next((row for row in quoted_rows(LISTED, book) if row.man == man), None)
    return None if row is None else LIST_DYNASTIES.get(row.dynasty, row.dynasty)


#: The names collected commentaries print their men by (``_quoted_names``): a commentator filter
#: reads 師古 as 顏師古, whose 注 of 前漢書 opens every part 師古曰.
QUOTED_NAMES = _quoted_names()
