"""The 屬 a work is shelved under (a group inside its 類: 周禮之屬), one rule for the catalogue
pages (``/``, ``/classes/<code>/``), the work page and the API (``/api/classes/``,
``/api/classes/<code>/works/?shu=``, a work's ``shu``): the 屬 the work was given (``Work.shu``:
Kanripo's catalogue entry, the 提要 page a 四庫 text prints, ``import_texts --class`` or the
admin), else the 屬 its title names (``shu_of_title``) among those its 類 has (``title_names``);
else "" (未分屬). Pure: works are read by their ``pk``, ``title``, ``classification`` and
``shu``; the database is read by the callers (``reader.models.stored_shu``)."""
from __future__ import annotations

import re
from collections.abc import Iterable

from catalogue.catalogue import class_books
from characters.folding import fold

#: What the pages and the API call the works of a divided 類 that have no 屬 (``shu`` ""): the
#: heading of their group, last on the class's shelf, and the API's name of that group
#: (``/api/classes/``'s ``shu``, ``?shu=未分屬``), so that they are not read as a 屬's works.
UNSORTED = "未分屬"
#: What a title puts before the book it treats: the emperor's commission, in the titles of the
#: 四庫's imperial editions (欽定儀禮義疏, 御纂周易折中, 御定…, 御製…, 日講禮記解義).
TITLE_PREFIX = re.compile(r"^(?:欽定|御纂|御定|御製|御選|日講)+")
#: A classic's other name as titles write it: 周官, the name 周禮 bore until the Han (漢書·藝文志
#: 「周官經」); the 四庫總目 files 周官新義 and 欽定周官義疏 under 周禮之屬.
OTHER_NAMES = {"周官": "周禮"}


def shu_of_title(title: str, names: Iterable[str]) -> str:
    """The 屬 among ``names`` (``["周禮之屬", "儀禮之屬", …]``) that ``title`` names by opening with
    its book, after an imperial prefix (``TITLE_PREFIX``) and with a book's other name read as
    the book (``OTHER_NAMES``): 周禮注疏, 周禮詳解, 欽定儀禮義疏, 欽定周官義疏, 仪礼释宫増注 (compared
    folded); the longest book wins (春秋左傳 before 春秋); "" when it opens with none (禮書綱目)."""
    title = book_opening(title)
    return next((n for n in sorted(names, key=len, reverse=True) if title.startswith(fold(n[:-2]))), "")


def book_opening(title: str) -> str:
    """``title`` as it is read for the book it opens with (``shu_of_title``,
    ``reader.commented_classic``): folded, an imperial prefix left out (``TITLE_PREFIX``) and a
    book's other name read as the book (``OTHER_NAMES``): 欽定周官義疏 → 周禮義疏, 仪礼释宫増注 →
    儀禮釋宮增注 (folded forms)."""
    title = TITLE_PREFIX.sub("", fold(title)) or fold(title)
    for other, book in OTHER_NAMES.items():
        if title.startswith(fold(other)):
            title = fold(book) + title[len(other):]
    return title


def title_names(code: str, given: Iterable[str]) -> list[str]:
    """The 屬 a title can place a work of the class ``code`` in, given the 屬 its works were given
    (``given``, the stored ``Work.shu`` values of the class, "" left out): those called after a
    book (儀禮之屬, the books on 儀禮) and, once the 類 is divided (a work has a 屬), one for each
    classic the catalogue lists in the 類 (``catalogue.class_books``: 周禮之屬, 儀禮之屬, 禮記之屬
    in 禮類, as the 四庫總目 divides it); sorted. ``[]`` for an undivided class: Kanripo's catalogue
    as shipped names no 屬, so a 屬 comes from a 提要 page or the admin."""
    given = {shu for shu in given if shu}
    names = {shu for shu in given if shu.endswith("之屬")}
    if given and code:
        names.update(f"{book}之屬" for book in class_books(code))
    return sorted(names)


def decided_shu(works: Iterable, given: dict[str, set[str]] | None = None) -> dict[int, str]:
    """``{work id: 屬}`` for ``works`` (of any classes) by the module's rule. ``given``: ``{class
    code: the 屬 its works were given}`` for the whole library (``reader.models.stored_shu``);
    None reads it from ``works``, which must then hold every work of their classes (a class page,
    the whole library). 禮書綱目 stays without one: its title names no book."""
    works = list(works)
    if given is None:
        given = {}
        for work in works:
            given.setdefault(work.classification, set()).add(work.shu)
    names = {code: title_names(code, shus) for code, shus in given.items()}
    return {work.pk: work.shu or shu_of_title(work.title, names.get(work.classification, [])) for work in works}


def shu_anchor(code: str, shu: str) -> str:
    """The anchor of a 屬 on its class's pages (``/classes/KR1d/#KR1d-周禮之屬``, the catalogue's
    heading of the group, ``pages.catalogue.shu_groups``), named by the 屬 itself so that a link
    to it stays where it is when works are added: ``KR1d-周禮之屬``; ``KR1d-noshu`` for the works
    without one (未分屬)."""
    return f"{code}-{shu or 'noshu'}"
