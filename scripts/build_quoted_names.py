"""Rebuild the rows of ``reader/data/quoted_men.tsv`` that the books' own lists of the men they quote give.

Three books print, before their 卷一, a list of the men they quote (``reader/data/README.md``):

- 周禮訂義 (KR1d0010, file ``_000``) prints a 編類姓氏世次: each man under the dynasty he lived in, his place,
  his surname and 氏, then in small print his name, his 字 and his books, and the name the book quotes him by
  (``今作…``)::

      　　漢　　杜氏(子春見本經/注今作杜氏)¶
      　　　　　鄭氏(𤣥字康成見本經/注今作鄭康成)¶
      　　國朝¶
      　　　三山鄭氏(鍔字剛中有全解淳熙/十年經進今作鄭鍔)¶
      　　　　　王氏(未詳誰氏建陽作王狀元/詳説刋行今作王氏詳説)¶

  Its closing note gives the rule (「以氏言者或同姓數人以前說者為氏…」): a surname and 氏 quotes the first
  man of that surname listed, so a name is kept for the first man printed with it. Rows of kind ``quoted``:
  the name as the book quotes it (without 曰), the man's surname and given name (as printed where the list
  says 未詳誰氏: the name itself), his dynasty (國朝, the book's own, is 宋).
- 欽定禮記義疏 (KR1d0068) and 欽定儀禮義疏 (KR1d0037), file ``_000``, print an 引用姓氏: a man a line,
  ``　　孔氏(穎達/)　(仲達/)　(衡水/)`` (禮記義疏) or ``孔氏　安國　(子國)`` (儀禮義疏), under a heading of
  his dynasty on a line of its own, one column in. Rows of kind ``listed``: his surname with each name the
  line prints after it (his 名, his 字, the place that follows, which is never a quoted name), the man his
  surname and first name, the dynasty of the heading above him; a name once per book.
- 前漢書 (KR2a0007, file ``_000``): 顏師古's 敘例 lists the men his 注 collects, after 「諸家注釋雖見名氏至於爵里頗
  或難知傳無所存具列如左」, a man an entry (an entry's further lines one column in), each by his surname and one
  name, then his 字, his place and his offices: 「服䖍字子愼滎陽人後漢尚書侍郎…」, 「晉灼河南人晉尚書郎」,
  「臣瓚不詳姓氏及郡縣」 (the 考證 after it: 「師古所列諸家名氏自荀悦至崔浩共二十三人」). Rows of kind ``listed``:
  the name as the list prints it (two characters), the man as the book's formula rows write him (服䖍 is
  服虔; folded: 劉寳 is 劉寶), the dynasty printed right after his place (``…人``; the brackets' small print
  dropped: 後漢, 魏, 呉, 晉, 東晉, 後魏), empty where the entry prints none (李奇南陽人, 臣瓚).

Every row gives its ``place``: the file, the line of the list it comes from and the printed page (``葉``) of
the Kanripo page mark above it. The other rows of the table (the names the text of a book prints before 曰,
the names a book signs a man by, 論語集解's list of its men) are kept as they are, each ``formula`` row's
place refreshed: the first place its book prints the name and 曰 (columns joined, ``/`` dropped). Reads
``../shared/corpus`` (Kanripo, CC BY-SA 4.0; the commits from its ``SOURCES.md``).

    .venv/bin/python scripts/build_quoted_names.py
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the repository's packages
from characters.folding import fold  # noqa: E402

BASE = Path(__file__).resolve().parent.parent
CORPUS = BASE.parent / "shared" / "corpus"
OUT = BASE / "reader" / "data" / "quoted_men.tsv"
COLUMNS = ("book", "kind", "name", "man", "dynasty", "place")
#: The books whose rows their own list gives: Kanripo ID, title, the list's heading, the rows' kind.
LISTS = (("KR1d0010", "周禮訂義", "編𩔖姓氏世次", "quoted"),
         ("KR1d0068", "欽定禮記義疏", "引用姓氏", "listed"),
         ("KR1d0037", "欽定儀禮義疏", "引用姓氏", "listed"),
         ("KR2a0007", "前漢書", "列如左", "listed"))
#: 周禮訂義's own dynasty (its 國朝).
OWN_DYNASTY = {"KR1d0010": "宋"}
#: 周禮訂義: a man's line: the dynasty (one or two characters and a space) where it changes, the place, the
#: surname and 氏 (or a book's name: 禮庫, 禮圖說), then his note.
DINGYI_MAN = re.compile(r"^\u3000+(?:([^\u3000(]{1,2})\u3000+)?([^\u3000(]+?)\((.*)\)$")
#: 周禮訂義: a dynasty heading alone on its line (國朝).
DINGYI_DYNASTY = re.compile(r"^\u3000+([^\u3000(]{1,2})$")
#: 周禮訂義: his given name: the first one or two characters of the note, before his 字 or his books.
GIVEN = re.compile(r"^(.{1,2}?)(?=字|見|間|有|採|惟)")
#: 義疏: a dynasty heading: one to three characters alone on a line, one column in.
YISHU_DYNASTY = re.compile(r"^\u3000([^\u3000(]{1,3})$")
#: 義疏: a man's line: a surname of one to three characters and 氏, then his names, in brackets or not.
YISHU_MAN = re.compile(r"^\u3000*([^\u3000(]{1,3})氏(.*)$")
#: 義疏: one name on a man's line: the characters up to a bracket, a space or a column mark.
NAME = re.compile(r"[^\u3000()/\s]+")
#: 前漢書's 敘例: the dynasty an entry prints right after the man's place (small print dropped).
HANSHU_DYNASTY = re.compile(r"人(後漢|東晉|後魏|魏|呉|吳|晉)")
#: 前漢書's 敘例: a man's name, the entry's first two characters (a surname and one name, 鄭氏 alone).
HANSHU_NAME_LENGTH = 2
PAGE = re.compile(r"<pb:[^>]*?-(\d+[ab])>")


@lru_cache(maxsize=None)
def _lines(path: Path) -> list[tuple[int, str, str]]:
    """``(line number, line, page)`` of each line of a Kanripo file: the line without page marks and ``¶``,
    the printed page of the last page mark at or above it (``32a``)."""
    out: list[tuple[int, str, str]] = []
    page = ""
    for k, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        found = PAGE.findall(raw)
        page = found[-1] if found else page
        out.append((k, re.sub(r"<pb:[^>]*>", "", raw).rstrip("¶"), page))
    return out


def _place(path: Path, number: int, page: str) -> str:
    """A row's place: ``KR1d0010_000.txt:512 32a``."""
    return f"{path.name}:{number} {page}"


def _after_heading(lines: list[tuple[int, str, str]], heading: str) -> list[tuple[int, str, str]]:
    """The lines after the list's own heading line."""
    start = next(k for k, (_, line, _) in enumerate(lines) if line.strip("\u3000") == heading)
    return lines[start + 1:]


def dingyi_names(path: Path, heading: str, own_dynasty: str) -> list[tuple[str, str, str, str]]:
    """``(name, man, dynasty, place)`` of each man 周禮訂義's list (``heading``) in ``path`` gives a 今作 name,
    in its order."""
    entries: list[tuple[str, str]] = []  # (entry, place)
    for number, line, page in _after_heading(_lines(path), heading):
        if line.startswith("#") or "已上" in line:
            break
        if line.strip("\u3000").startswith("(") and entries:  # the note goes on on a line of its own
            entries[-1] = (entries[-1][0] + line.strip("\u3000"), entries[-1][1])
        elif line.strip():
            entries.append((line, _place(path, number, page)))
    out: list[tuple[str, str, str, str]] = []
    dynasty = ""
    for entry, place in entries:
        entry = entry.replace("/", "").replace(")(", "")
        m = DINGYI_DYNASTY.match(entry)
        if m:
            dynasty = m.group(1)
            continue
        m = DINGYI_MAN.match(entry)
        if not m:
            continue
        dynasty = m.group(1) or dynasty
        head, note = m.group(2), m.group(3)
        if "今作" not in note:
            continue  # 林氏(掎…): quoted by no name of his own
        name = note.split("今作", 1)[1].removesuffix("曰")
        given = GIVEN.match(note)
        man = head[-2] + given.group(1) if head.endswith("氏") and given and not note.startswith("未詳") else name
        out.append((name, man, own_dynasty if dynasty == "國朝" else dynasty, place))
    return out


def yishu_names(path: Path, heading: str, own_dynasty: str = "") -> list[tuple[str, str, str, str]]:
    """``(name, man, dynasty, place)`` of each name an 義疏's 引用姓氏 (``heading``) in ``path`` prints: the
    surname with each name after it on the man's line (the man: the surname and the first), in the list's
    order."""
    out: list[tuple[str, str, str, str]] = []
    dynasty = ""
    for number, line, page in _after_heading(_lines(path), heading):
        if line.startswith("#"):
            break
        m = YISHU_DYNASTY.match(line)
        if m:
            dynasty = m.group(1)
            continue
        m = YISHU_MAN.match(line)
        if m and dynasty:
            names = [m.group(1) + name for name in NAME.findall(m.group(2))]
            out.extend((name, names[0], dynasty, _place(path, number, page)) for name in names)
    return out


def hanshu_names(path: Path, heading: str, own_dynasty: str = "") -> list[tuple[str, str, str, str]]:
    """``(name, man, dynasty, place)`` of each man 前漢書's 敘例 lists after the line ending ``heading`` (列如左),
    to the next juan's heading: an entry opens on a line at the margin, its small print in brackets dropped;
    the man as the book's formula rows write him (folded), the dynasty after his place (``HANSHU_DYNASTY``)."""
    men = _formula_men("KR2a0007")
    lines = _lines(path)
    start = next(k for k, (_, line, _) in enumerate(lines) if line.endswith(heading))
    entries: list[list] = []
    for number, line, page in lines[start + 1:]:
        if line.startswith("#"):
            break
        if not line:
            continue
        if line.startswith("\u3000"):
            entries[-1][1] += line.strip("\u3000")
        else:
            entries.append([_place(path, number, page), line])
    out = []
    for place, text in entries:
        text = re.sub(r"\([^)]*\)", "", text)
        name = text[:HANSHU_NAME_LENGTH]
        m = HANSHU_DYNASTY.search(text)
        out.append((name, men.get(fold(name), name), m.group(1) if m else "", place))
    return out


def _formula_men(kid: str) -> dict[str, str]:
    """``{folded name: man}`` of book ``kid``'s ``formula`` rows in the table."""
    out: dict[str, str] = {}
    for line in OUT.read_text(encoding="utf-8").splitlines():
        row = line.split("\t")
        if row[0] == kid and row[1] == "formula":
            out.setdefault(fold(row[2]), row[3])
    return out


def first_place(kid: str, name: str) -> str:
    """Where book ``kid`` (its files in order) first prints ``name`` and 曰: the line it begins on, a line
    read with the next (a formula broken at a line's end: ``師)¶`` ``(古曰``) and its columns' ``/`` dropped;
    "" if nowhere."""
    formula = name + "曰"
    for path in sorted(next(CORPUS.glob(f"kanripo*/{kid}")).glob(f"{kid}_*.txt")):
        lines = [(number, line.replace("/", ""), page) for number, line, page in _lines(path)]
        for k, (number, text, page) in enumerate(lines):
            after = lines[k + 1][1] if k + 1 < len(lines) else ""
            if 0 <= (text.removesuffix(")") + after.removeprefix("(")).find(formula) < len(text.removesuffix(")")):
                return _place(path, number, page)
    return ""


def commits() -> dict[str, str]:
    """``{Kanripo ID: commit}`` of the corpus's ``SOURCES.md`` tables."""
    out: dict[str, str] = {}
    for line in (CORPUS / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        sha = next((c for c in cells if re.fullmatch(r"[0-9a-f]{40}", c)), None)
        if cells and re.fullmatch(r"KR\w+", cells[0]) and sha:
            out.setdefault(cells[0], sha)
    return out


def kept_rows() -> list[list[str]]:
    """The table's rows of the books no list builds, each ``formula`` row's place refreshed (``first_place``)."""
    built = {(kid, kind) for kid, _, _, kind in LISTS}
    out: list[list[str]] = []
    for line in OUT.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#") or line.startswith("book\t"):
            continue
        row = line.split("\t")
        if (row[0], row[1]) in built:
            continue
        if row[1] == "formula":
            row[5] = first_place(row[0], row[2])
        out.append(row)
    return out


def list_rows(kid: str, heading: str, kind: str) -> list[list[str]]:
    """The table's rows of book ``kid`` as its own list (``heading``) gives them: ``[book, kind, name, man,
    dynasty, place]``, a name once (its first listing)."""
    path = next(CORPUS.glob(f"kanripo*/{kid}")) / f"{kid}_000.txt"
    read = dingyi_names if kind == "quoted" else hanshu_names if kid == "KR2a0007" else yishu_names
    rows: dict[str, list[str]] = {}
    for name, man, dynasty, place in read(path, heading, OWN_DYNASTY.get(kid, "")):
        rows.setdefault(name, [kid, kind, name, man, dynasty, place])
    return list(rows.values())


def main() -> None:
    rows = [row for kid, _, heading, kind in LISTS for row in list_rows(kid, heading, kind)]
    rows = kept_rows() + rows
    sha = commits()
    books = list(dict.fromkeys(row[0] for row in rows))
    head = ["# The men each book quotes, by the names it prints them by (reader/data/README.md; the rows of the",
            "# books' own lists rebuilt by scripts/build_quoted_names.py). From Kanripo (https://www.kanripo.org),",
            "# CC BY-SA 4.0, shared alike under the same licence; the books at these commits:",
            *(f"# {kid} {sha.get(kid, '')}" for kid in books),
            "\t".join(COLUMNS)]
    OUT.write_text("\n".join(head + ["\t".join(row) for row in rows]) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(BASE)}: {len(rows)} rows, {len(books)} books")


if __name__ == "__main__":
    main()
