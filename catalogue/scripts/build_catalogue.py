"""Build ``catalogue/data/classes.tsv`` and ``catalogue/data/works.tsv`` from a checkout of
Kanripo's catalogue (github.com/kanripo/KR-Catalog, its ``KR/`` folder of org files).

    python catalogue/scripts/build_catalogue.py PATH/TO/KR-Catalog [--out catalogue/data]

Sources read (the catalogue's own layout):

- ``KR/KR1.txt`` … ``KR/KR6.txt``: one 部 each, ``* KR1 經部`` then one line per 類,
  ``** [[file:KR1a.txt][KR1a 易類]]``. The 部 takes its code from the file name (``KR5.txt``
  heads its 部 ``ZB5 道部``, an older code).
- ``KR/KR1a.txt`` …: one 類 each, headed ``** KR1d ZB1d 禮類``; a 類 whose 部 file does not list
  it (``KR2p 簡牘金石類``) takes its name from that heading. A work is a level-3 heading whose
  first word is a KR ID:
  ``*** KR1d0003 周禮注疏-漢-鄭玄`` (title-dynasty-author), or, in files of another hand,
  ``*** KR2a0001 [[mandoku:ZB2a0001.org][ZB2a0001]] 史記`` / ``*** KR1g0020 ZB1g0020 七經孟子考文補遺``
  (the title is the last word; the dynasty is then the first person's). Its ``:DYNASTY:``
  property, when the work has one, wins over the heading's. The people responsible are the
  level-5 headings under its ``**** 人物`` heading, each with ``:DYNASTY:`` and ``:FUNCTION:``
  (撰, 注, 疏 …); people of an appendix (``**** (附)考證`` and its ``***** 人物``) are not the
  work's and are left out. An entry without its 人物 (a copy that keeps the heading lines only)
  has the heading's author as its one person, without a role.
- A 屬 (group inside a 類) is a level-3 heading without a KR ID ending in 之屬 (``*** 周禮之屬``);
  it holds the works after it until the next 屬. Headings that are commented out
  (``# *** 周禮之屬``) are not read: in the catalogue they are notes, incomplete (KR1d marks
  周禮之屬 twice and no 儀禮之屬), so they would put works in the wrong group.

Output (UTF-8, tab-separated, a header line, sorted by code):

- ``classes.tsv``: ``code  parent  name`` — a 部 has no parent (``KR1  -  經部``), a 類 its 部
  (``KR1d  KR1  禮類``).
- ``works.tsv``: ``kr_id  class  title  dynasty  people  shu`` — ``people`` is
  ``name:role:dynasty`` joined by ``;`` (role or dynasty may be empty), ``shu`` the 屬 or empty.

Errors: a file that cannot be read, or a class file whose works name another class, stop the
script with the file and line. Pure text processing: no Django.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

BU_FILE = re.compile(r"^KR(\d)\.txt$")
CLASS_FILE = re.compile(r"^KR\d[a-z]\.txt$")
CLASS_LINE = re.compile(r"^\*\*\s+\[\[file:[^\]]*\]\[(KR\d[a-z])\s+([^\]]+)\]\]")
BU_LINE = re.compile(r"^\*\s+\S+\s+(\S+)")
WORK_HEADING = re.compile(r"^\*\*\*\s+(KR\d[a-z]\d{4})\s+(.*?)\s*$")
CLASS_HEADING = re.compile(r"^\*\*\s+(KR\d[a-z])\s+(.+?)\s*$")
SHU_HEADING = re.compile(r"^\*\*\*\s+(\S+之屬)\s*$")
HEADING = re.compile(r"^(\*+)\s+(.*?)\s*$")
PROPERTY = re.compile(r"^\s*:([A-Z_]+):\s*(.*?)\s*$")
LINK = re.compile(r"\[\[[^\]]*\]\[[^\]]*\]\]")


class CatalogueError(ValueError):
    """A file of the catalogue that breaks its layout: names the file and the line."""


@dataclass
class Person:
    """One person of a work as the catalogue lists them: name (鄭玄), role (注, 撰; "" when none is given) and
    dynasty (漢; "" when none)."""

    name: str
    role: str = ""
    dynasty: str = ""


@dataclass
class CatalogueWork:
    """One work of the catalogue: Kanripo ID (KR1d0003), class (KR1d), title, dynasty, people (``Person``), 屬
    (``shu``) and the author line of its heading as written."""

    kr_id: str
    cls: str
    title: str
    dynasty: str = ""
    people: list[Person] = field(default_factory=list)
    shu: str = ""
    heading_author: str = ""


def parse_bu(path: Path) -> tuple[str, str, list[tuple[str, str]]]:
    """``(code, name, [(class code, class name), ...])`` of one 部 file (``KR1.txt``)."""
    code = "KR" + BU_FILE.match(path.name).group(1)
    name, classes = "", []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if match := CLASS_LINE.match(line):
            if not match.group(1).startswith(code):
                raise CatalogueError(f"{path}:{number}: the class {match.group(1)} is not in {code}")
            classes.append((match.group(1), match.group(2).strip()))
        elif not name and (match := BU_LINE.match(line)):
            name = match.group(1)
    if not name:
        raise CatalogueError(f"{path}:1: no '* {code} 名' heading")
    return code, name, classes


def class_heading(path: Path) -> str:
    """The 類's name its own file gives in its ``** KR2p 簡牘金石類`` heading (``** KR1d ZB1d
    禮類``: the last word), "" when the file has none."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := CLASS_HEADING.match(line):
            return match.group(2).split()[-1] if match.group(1) == path.stem else ""
    return ""


def _split_heading(kr_id: str, rest: str) -> tuple[str, str, str]:
    """(title, dynasty, author) from a work heading after its ID."""
    rest = LINK.sub(" ", rest).strip()
    words = rest.split()
    if words and re.fullmatch(r"ZB\w+", words[0]):  # the older catalogue's ID before the title
        words = words[1:]
    rest = " ".join(words)
    parts = rest.split("-")
    if len(parts) >= 3:
        return "-".join(parts[:-2]).strip(), parts[-2].strip(), parts[-1].strip()
    return rest.strip(), "", ""


def parse_class(path: Path) -> list[CatalogueWork]:
    """The works of one 類 file (``KR1d.txt``), in the file's order."""
    cls = path.stem
    works: list[CatalogueWork] = []
    work: CatalogueWork | None = None
    shu = ""
    level_of_people = 0      # the level of the 人物 heading we are under (0: none)
    person: Person | None = None
    in_work_props = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if match := WORK_HEADING.match(line):
            kr_id = match.group(1)
            if not kr_id.startswith(cls):
                raise CatalogueError(f"{path}:{number}: the work {kr_id} is not in the class {cls}")
            title, dynasty, author = _split_heading(kr_id, match.group(2))
            work = CatalogueWork(kr_id=kr_id, cls=cls, title=title, dynasty=dynasty, shu=shu)
            work.heading_author = author
            works.append(work)
            level_of_people, person, in_work_props = 0, None, True
            continue
        if match := SHU_HEADING.match(line):
            shu, work, level_of_people, person = match.group(1), None, 0, None
            continue
        if match := HEADING.match(line):
            level, text = len(match.group(1)), match.group(2)
            in_work_props = False
            person = None
            if work is None:
                continue
            if text == "人物" and level == 4:
                level_of_people = level
            elif level_of_people and level == level_of_people + 1:
                person = Person(name=text)
                work.people.append(person)
            elif level <= 4:
                level_of_people = 0   # 版本, an appendix: its people are not the work's
            continue
        if work is None or not (match := PROPERTY.match(line)):
            continue
        key, value = match.groups()
        if person is not None:
            if key == "DYNASTY" and not person.dynasty:
                person.dynasty = value
            elif key == "FUNCTION" and not person.role:
                person.role = value
        elif in_work_props and key == "DYNASTY" and value:
            work.dynasty = value.rstrip("?")
    for work in works:
        if not work.people and work.heading_author:
            # an entry without its 人物 (a copy of the headings only): the heading's person,
            # without a role (the heading does not give one)
            work.people.append(Person(name=work.heading_author, dynasty=work.dynasty))
        if not work.dynasty:
            work.dynasty = next((p.dynasty for p in work.people if p.dynasty), "")
    return works


def build(root: Path) -> tuple[list[tuple[str, str, str]], list[CatalogueWork]]:
    """The classes (``(code, parent, name)``, 部 and 類) and the works of the checkout ``root``
    (the repository's top folder, or its ``KR`` folder)."""
    folder = root / "KR" if (root / "KR").is_dir() else root
    classes: list[tuple[str, str, str]] = []
    works: list[CatalogueWork] = []
    bu_files = sorted(p for p in folder.iterdir() if BU_FILE.match(p.name))
    if not bu_files:
        raise CatalogueError(f"{folder}: no KR1.txt … KR6.txt")
    for path in bu_files:
        code, name, members = parse_bu(path)
        classes.append((code, "", name))
        classes.extend((c, code, n) for c, n in members)
    listed = {code for code, _parent, _name in classes}
    for path in sorted(p for p in folder.iterdir() if CLASS_FILE.match(p.name)):
        works.extend(parse_class(path))
        if path.stem not in listed and (named := class_heading(path)):
            # a 類 its 部 file does not list yet (KR2p 簡牘金石類): its own file names it
            classes.append((path.stem, path.stem[:3], named))
    return sorted(classes), sorted(works, key=lambda w: w.kr_id)


def write(out: Path, classes, works) -> None:
    """Write ``classes.tsv`` (code, parent, name; ``-`` for a 部's parent) and ``works.tsv`` (kr_id, class, title,
    dynasty, people as ``name:role:dynasty`` joined by ``;``, shu) into ``out``, UTF-8 with LF line ends."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "classes.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("code\tparent\tname\n")
        for code, parent, name in classes:
            f.write(f"{code}\t{parent or '-'}\t{name}\n")
    with open(out / "works.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("kr_id\tclass\ttitle\tdynasty\tpeople\tshu\n")
        for w in works:
            people = ";".join(f"{p.name}:{p.role}:{p.dynasty}" for p in w.people)
            f.write(f"{w.kr_id}\t{w.cls}\t{w.title}\t{w.dynasty}\t{people}\t{w.shu}\n")


def main(argv=None) -> int:
    """The command line: build the tables from a checkout and write them; 0, or 1 with the error on stderr
    (``CatalogueError``, ``OSError``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of kanripo/KR-Catalog (or its KR folder)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "data")
    args = parser.parse_args(argv)
    try:
        classes, works = build(args.checkout)
    except (CatalogueError, OSError) as exc:
        print(f"build_catalogue: {exc}", file=sys.stderr)
        return 1
    write(args.out, classes, works)
    print(f"{len(classes)} classes, {len(works)} works → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
