"""Build the list of the names a collected commentary quotes its men by, as its own list of them prints.

周禮訂義 (KR1d0010, file ``_000``) prints, before its 卷一, a 編類姓氏世次: each man it quotes under the
dynasty he lived in, his place, his surname and 氏, then in small print his name, his 字 and his books,
and the name the book quotes him by (``今作…``)::

    　　漢　　杜氏(子春見本經/注今作杜氏)¶
    　　　　　鄭氏(𤣥字康成見本經/注今作鄭康成)¶
    　　國朝¶
    　　　三山鄭氏(鍔字剛中有全解淳熙/十年經進今作鄭鍔)¶
    　　　　　王氏(未詳誰氏建陽作王狀元/詳説刋行今作王氏詳説)¶

Its closing note gives the rule (「以氏言者或同姓數人以前說者為氏…」): a surname and 氏 quotes the first man
of that surname listed, so a name is kept for the first man printed with it. Reads the file in
``../shared/corpus/kanripo-jingbu`` (Kanripo, CC BY-SA 4.0) and writes
``reader/importers/mandoku/data/quoted_names.tsv``: a header of ``#`` lines naming the source, its commit
and the licence, then one line per name, ``book<TAB>name<TAB>man<TAB>dynasty``: the book's Kanripo ID,
the name as the book quotes it (without 曰), the man's surname and given name (as printed where the list
says 未詳誰氏: the name itself), and his dynasty (國朝, the book's own, is 宋). The importer
(``reader.importers.mandoku.collected_blocks``) names a quoted part's man so.

    .venv/bin/python scripts/build_quoted_names.py
"""
from __future__ import annotations

import re
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
JINGBU = BASE.parent / "shared" / "corpus" / "kanripo-jingbu"
OUT = BASE / "reader" / "importers" / "mandoku" / "data" / "quoted_names.tsv"
#: The book read, its title, Kanripo commit (``../shared/corpus/SOURCES.md``) and its own dynasty (its 國朝).
SOURCES = (("KR1d0010", "周禮訂義", "f18dee0bdcffe635dc4f80bef5200a989896fba5", "宋"),)
#: The list's own heading.
LIST = "編𩔖姓氏世次"
#: A man's line: the dynasty (one or two characters and a space) where it changes, the place, the surname
#: and 氏 (or a book's name: 禮庫, 禮圖說), then his note.
MAN = re.compile(r"^\u3000+(?:([^\u3000(]{1,2})\u3000+)?([^\u3000(]+?)\((.*)\)$")
#: A dynasty heading alone on its line (國朝).
DYNASTY = re.compile(r"^\u3000+([^\u3000(]{1,2})$")
#: His given name: the first one or two characters of the note, before his 字 or his books.
GIVEN = re.compile(r"^(.{1,2}?)(?=字|見|間|有|採|惟)")


def names(text: str, own_dynasty: str) -> list[tuple[str, str, str]]:
    """``(name, man, dynasty)`` of each man the list in ``text`` (a Kanripo file) gives a 今作 name, in its order."""
    lines = [re.sub(r"<pb:[^>]*>", "", line).rstrip("¶") for line in text.split("\n")]
    start = next(k for k, line in enumerate(lines) if line.strip("\u3000") == LIST)
    entries: list[str] = []
    for line in lines[start + 1:]:
        if line.startswith("#") or "已上" in line:
            break
        if line.strip("\u3000").startswith("(") and entries:  # the note goes on on a line of its own
            entries[-1] += line.strip("\u3000")
        elif line.strip():
            entries.append(line)
    out: list[tuple[str, str, str]] = []
    dynasty = ""
    for entry in entries:
        entry = entry.replace("/", "").replace(")(", "")
        m = DYNASTY.match(entry)
        if m:
            dynasty = m.group(1)
            continue
        m = MAN.match(entry)
        if not m:
            continue
        dynasty = m.group(1) or dynasty
        head, note = m.group(2), m.group(3)
        if "今作" not in note:
            continue  # 林氏(掎…): quoted by no name of his own
        name = note.split("今作", 1)[1].removesuffix("曰")
        given = GIVEN.match(note)
        man = head[-2] + given.group(1) if head.endswith("氏") and given and not note.startswith("未詳") else name
        out.append((name, man, own_dynasty if dynasty == "國朝" else dynasty))
    return out


def main() -> None:
    rows: list[str] = []
    for kid, _, _, own in SOURCES:
        seen: set[str] = set()
        for name, man, dynasty in names((JINGBU / kid / f"{kid}_000.txt").read_text(encoding="utf-8"), own):
            if name not in seen:
                seen.add(name)
                rows.append(f"{kid}\t{name}\t{man}\t{dynasty}")
    head = ["# The names a collected commentary quotes its men by, by its own list (scripts/build_quoted_names.py):",
            *(f"# {title} {kid}_000.txt 編類姓氏世次, Kanripo commit {commit}" for kid, title, commit, _ in SOURCES),
            "# Kanripo (https://www.kanripo.org), CC BY-SA 4.0; shared alike under the same licence.",
            "# book<TAB>name<TAB>man<TAB>dynasty"]
    OUT.write_text("\n".join(head + rows) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(BASE)}: {len(rows)} names")


if __name__ == "__main__":
    main()
