"""Kanripo's catalogue of the library: the 部 (經 史 子 集, 道, 佛) and their 類, and the works it
lists, read from the tables shipped in ``catalogue/data`` (built from github.com/kanripo/KR-Catalog
by ``catalogue/scripts/build_catalogue.py``; licence in ``catalogue/data/ATTRIBUTION.md``).

A class code is Kanripo's: ``KR1`` (經部) is a 部, ``KR1d`` (禮類) a 類 of it; a Kanripo text ID
starts with its 類 (``KR1d0086`` → ``KR1d``, the rule of Kanripo's IDs). Pure data: the tables
are read once per process (``functools.lru_cache``); nothing here touches the database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.core.exceptions import ValidationError

DATA = Path(__file__).resolve().parent / "data"
#: A Kanripo text ID (``KR1d0086``, also with an edition's suffix ``KR1d0086-WYG``): its 類 and 部.
KANRIPO_ID = re.compile(r"^(KR\d)([a-z])\d{4}")
#: A class code: a 部 (``KR1``) or a 類 (``KR1d``).
CLASS_CODE = re.compile(r"^KR\d[a-z]?$")
BU, LEI = "bu", "lei"
#: How the catalogue joins a 類 and the part of it a class holds, and how the site prints the two.
#: Kanripo's catalogue divides the 別集類 of 集部 by period into six classes and writes each, in
#: its 部 file's list and in ``classes.tsv``, with the hyphen of its org headings (which also joins
#: a work's title, dynasty and author, ``周禮注疏-漢-鄭玄``): ``KR4b 別集類-漢六朝``, ``KR4c
#: 別集類-唐`` … ``KR4g 別集類-近``. In Chinese a hyphen joins nothing; the site joins the two
#: names with the middle dot it names an edition's parts with (``四庫全書・文淵閣本``):
#: ``別集類・漢六朝`` (``shown_name``).
CATALOGUE_JOIN, SHOWN_JOIN = "-", "・"


def shown_name(name: str) -> str:
    """A class's name as the catalogue writes it (``classes.tsv``), as the site prints it: the
    parts ``CATALOGUE_JOIN`` joins, joined by ``SHOWN_JOIN`` (``別集類-漢六朝`` → ``別集類・漢六朝``);
    a name of one part (``禮類``) as it is."""
    return SHOWN_JOIN.join(part.strip() for part in name.split(CATALOGUE_JOIN))


@dataclass(frozen=True)
class CatalogueClass:
    """One class: ``code`` (``KR1d``), ``name`` (``禮類``; ``別集類・漢六朝``, as the site prints
    it: ``shown_name``), ``parent`` (the 部's code, "" for a 部) and ``level`` (``"bu"`` or ``"lei"``)."""

    code: str
    name: str
    parent: str
    level: str

    @property
    def short(self) -> str:
        """A 部's one-character name as the library's shelves say it (經部 → 經); a 類's name."""
        return self.name[0] if self.level == BU else self.name


@dataclass(frozen=True)
class Person:
    """One person responsible for a work: ``name``, ``role`` (撰, 注, 疏 … as the catalogue
    gives it, "" when it gives none) and ``dynasty`` ("" when unknown)."""

    name: str
    role: str = ""
    dynasty: str = ""


@dataclass(frozen=True)
class CatalogueEntry:
    """A work of the catalogue: its Kanripo ID, class (類), title, dynasty (the catalogue's, or
    its first person's), the people responsible in the catalogue's order and its 屬 ("" when
    the catalogue gives none)."""

    kr_id: str
    cls: str
    title: str
    dynasty: str
    people: tuple[Person, ...]
    shu: str = ""

    @property
    def authors(self) -> tuple[str, ...]:
        """The people's names, in order, each once."""
        return tuple(dict.fromkeys(p.name for p in self.people))


def _rows(name: str):
    with open(DATA / name, encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            if line.strip():
                yield line.rstrip("\n").split("\t")


@lru_cache(maxsize=1)
def classes() -> dict[str, CatalogueClass]:
    """Every class by code, 部 and 類, in code order (KR1, KR1a, … KR6v), each named as the site
    prints it (``shown_name``: 別集類・漢六朝 where the catalogue writes 別集類-漢六朝)."""
    found = {}
    for code, parent, name in _rows("classes.tsv"):
        parent = "" if parent == "-" else parent
        found[code] = CatalogueClass(code, shown_name(name), parent, LEI if parent else BU)
    return dict(sorted(found.items()))


@lru_cache(maxsize=1)
def _entries() -> dict[str, CatalogueEntry]:
    found = {}
    for kr_id, cls, title, dynasty, people, shu in _rows("works.tsv"):
        persons = tuple(Person(*p.split(":")) for p in people.split(";") if p)
        found[kr_id] = CatalogueEntry(kr_id, cls, title, dynasty, persons, shu)
    return found


def get_class(code: str) -> CatalogueClass | None:
    """The class of ``code`` (``KR1d`` or ``KR1``), None for a code the catalogue lacks."""
    return classes().get(code)


def bus() -> list[CatalogueClass]:
    """The 部, in order: 經 史 子 集 道 佛."""
    return [c for c in classes().values() if c.level == BU]


def members(code: str) -> list[CatalogueClass]:
    """The 類 of the 部 ``code``, in order ([] for a 類 or an unknown code)."""
    return [c for c in classes().values() if c.parent == code]


def bu_of(code: str) -> str:
    """The 部 of a class code (``KR1d`` → ``KR1``, ``KR1`` → ``KR1``); "" for a code that is not one."""
    return code[:3] if CLASS_CODE.match(code or "") else ""


def class_of(kanripo_id: str) -> str:
    """The 類 a Kanripo text ID belongs to by Kanripo's rule (``KR1d0086`` and ``KR1d0086-WYG``
    → ``KR1d``); "" for an ID that is not Kanripo's or names a class the catalogue lacks."""
    match = KANRIPO_ID.match(kanripo_id or "")
    if not match:
        return ""
    code = match.group(1) + match.group(2)
    return code if code in classes() else ""


def entry(kanripo_id: str) -> CatalogueEntry | None:
    """The catalogue's entry for a Kanripo text ID (an edition's suffix is ignored), None when
    the shipped catalogue does not list it."""
    match = KANRIPO_ID.match(kanripo_id or "")
    return _entries().get(match.group(0)) if match else None


def ids_titled(part: str) -> list[str]:
    """The Kanripo IDs of the catalogue's works whose title holds ``part`` (case ignored), in ID
    order: ``ids_titled("道德真經註")`` lists KR5c0065 (道德真經註(一)) among others; ``[]`` for ""."""
    part = part.lower()
    return sorted(kr_id for kr_id, e in _entries().items() if part and part in e.title.lower())


def entries_of(code: str) -> list[CatalogueEntry]:
    """The works the shipped catalogue lists under a class (a 類, or every 類 of a 部), by ID."""
    return list(_entries_by_class().get(code, ()))


@lru_cache(maxsize=1)
def _entries_by_class() -> dict[str, list[CatalogueEntry]]:
    """``{class code: its entries}`` (``entries_of``), each entry under its class and its 部, in
    the catalogue's order, made once: the catalogue's tables of people read every class's
    entries, and a scan of every entry per class took 0.5 s of a process's first search."""
    found: dict[str, list[CatalogueEntry]] = {}
    for e in _entries().values():
        found.setdefault(e.cls, []).append(e)
        bu = bu_of(e.cls)
        if bu != e.cls:
            found.setdefault(bu, []).append(e)
    return found


#: How the catalogue names a classic's own text: an entry ``周禮(正文)`` heads the works on 周禮.
PLAIN_TEXT = "(正文)"


def class_books(code: str) -> tuple[str, ...]:
    """The classics a 類 holds, by the catalogue's entries of their plain text (``周禮(正文)``,
    ``儀禮(正文)``, ``禮記(正文)`` → ``("周禮", "儀禮", "禮記")`` for ``KR1d``), in ID order; ``()``
    for a class with none. The 四庫's 屬 of such a 類 are called after these books (周禮之屬 …)."""
    return tuple(e.title[:-len(PLAIN_TEXT)] for e in entries_of(code)
                 if e.cls == code and e.title.endswith(PLAIN_TEXT))


#: What ``order_key`` puts between its parts: below every character a class code, an ID or a title holds.
ORDER_SEPARATOR = "\t"


#: What ``order_key`` and ``shelf_key`` put for a work without a Kanripo ID (one imported from a
#: file Kanripo does not hold, 仪礼释宫増注): above every ID, so that it stands after the Kanripo
#: works of its class (and 屬), by its title, not before the class's first book.
NO_KANRIPO_ID = "\uffff"


def shelf_key(kanripo_id: str, title: str, work_id: int) -> tuple[bool, str, str, int]:
    """A work's place on its shelf (a 類, a 屬): the Kanripo works in ID order (the catalogue's),
    then the works without an ID (``kanripo_id`` "") by title, then id. The key the catalogue
    pages, the API's class lists and ``order_key`` share (decision 0042)."""
    return (kanripo_id == "", kanripo_id, title, work_id)


def order_key(classification: str, kanripo_id: str, title: str, work_id: int) -> str:
    """A work's place in the catalogue's order as one string, compared by code point: its 部
    and 類 in code order (KR1 經 … KR4 集, KR5 道, KR6 佛; a work classed by its 部 alone before
    that 部's 類, as its shelf stands on ``/``), then its Kanripo ID, its title and its id
    (``work_id``, an int ≥ 0), the order the catalogue pages list a shelf in (``shelf_key``: a
    work without a Kanripo ID after those with one, ``NO_KANRIPO_ID``); unclassified works
    (``classification`` "") after every class. Search sorts its hits in text order by it
    (``search.documents.SearchDocument.catalogue_key``): a 經 work before a 史 work whatever
    their titles. Raises ``ValueError`` for a negative ``work_id``."""
    if work_id < 0:
        raise ValueError(f"a work's id is not negative: {work_id}")
    head = "0" + classification if classification else "1"
    return ORDER_SEPARATOR.join((head, kanripo_id or NO_KANRIPO_ID, title, f"{work_id:012d}"))


def validate_class_code(code: str) -> None:
    """Raises ``ValidationError`` unless ``code`` is "" or a class of the catalogue (a 部 such
    as ``KR1`` or a 類 such as ``KR1d``)."""
    if code and code not in classes():
        raise ValidationError(f"{code!r} is not a class of the catalogue (a 部 such as KR1 or a 類 such as KR1d)")
