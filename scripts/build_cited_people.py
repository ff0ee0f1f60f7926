"""Build the list of the men the 欽定 義疏 of the 禮 quote, with the dynasty each book lists him under.

Reads the 引用姓氏 of 欽定禮記義疏 (KR1d0068, file ``_000``) and 欽定儀禮義疏 (KR1d0037, file ``_000``) in
``../shared/corpus/kanripo-jingbu`` (Kanripo, CC BY-SA 4.0) and writes
``reader/importers/mandoku/data/cited_people.tsv``: a header of ``#`` lines naming the sources, their
commit and the licence, then one line per name a man may be quoted by, ``name<TAB>dynasty``: his surname
and each name the list prints after it (his 名, his 字; the place that follows is listed too, and is
never a quoted name), under the dynasty heading above him (``　唐¶``).

The lists print a man a line, ``　　孔氏(穎達/)　(仲達/)　(衡水/)`` (禮記義疏) or ``孔氏　安國　(子國)``
(儀禮義疏), under a heading of his dynasty on a line of its own, one column in. The importer
(``reader.importers.mandoku.collected_blocks.cited_name``) reads a quoted name's dynasty here, by
which the catalogue's spelling of the man is found (``reader.person_names.person_name``: 孔穎逹 of 唐 is
孔穎達).

    .venv/bin/python scripts/build_cited_people.py
"""
from __future__ import annotations

import re
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
JINGBU = BASE.parent / "shared" / "corpus" / "kanripo-jingbu"
OUT = BASE / "reader" / "importers" / "mandoku" / "data" / "cited_people.tsv"
#: The files read and the Kanripo commit of each book (``../shared/corpus/SOURCES.md``).
SOURCES = (("KR1d0068", "欽定禮記義疏", "babef0ee052ca3f8d54a01367ad57f2dc2afa6fe"),
           ("KR1d0037", "欽定儀禮義疏", "ce151b63e96f33d3b431ef19fd5708604eb6c128"))
#: The list's own heading.
LIST = "引用姓氏"
#: A dynasty heading: one to three characters alone on a line, one column in.
DYNASTY = re.compile(r"^\u3000([^\u3000(]{1,3})$")
#: A man's line: a surname of one to three characters and 氏, then his names, in brackets or not.
MAN = re.compile(r"^\u3000*([^\u3000(]{1,3})氏(.*)$")
#: One name on a man's line: the characters up to a bracket, a space or a column mark.
NAME = re.compile(r"[^\u3000()/\s]+")


def people(text: str) -> list[tuple[str, str]]:
    """``(name, dynasty)`` of each name the 引用姓氏 in ``text`` (a Kanripo file) prints: the surname
    with each name after it on the man's line, in the order the list prints them."""
    lines = [re.sub(r"<pb:[^>]*>", "", line).rstrip("¶") for line in text.split("\n")]
    start = next(k for k, line in enumerate(lines) if line.strip("\u3000") == LIST)
    out: list[tuple[str, str]] = []
    dynasty = ""
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        m = DYNASTY.match(line)
        if m:
            dynasty = m.group(1)
            continue
        m = MAN.match(line)
        if m and dynasty:
            out.extend((m.group(1) + name, dynasty) for name in NAME.findall(m.group(2)))
    return out


def main() -> None:
    rows: dict[str, str] = {}
    for kid, _, _ in SOURCES:
        for name, dynasty in people((JINGBU / kid / f"{kid}_000.txt").read_text(encoding="utf-8")):
            rows.setdefault(name, dynasty)
    head = ["# The men the 欽定 義疏 of the 禮 quote, by the 引用姓氏 of each book (scripts/build_cited_people.py):",
            *(f"# {title} {kid}_000.txt, Kanripo commit {commit}" for kid, title, commit in SOURCES),
            "# Kanripo (https://www.kanripo.org), CC BY-SA 4.0; shared alike under the same licence.",
            "# name<TAB>dynasty"]
    OUT.write_text("\n".join(head + [f"{name}\t{dynasty}" for name, dynasty in rows.items()]) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(BASE)}: {len(rows)} names")


if __name__ == "__main__":
    main()
