"""Who wrote what, by Kanripo's catalogue: the one reading of ``catalogue/data/works.tsv`` that the
importer (``reader.importers.mandoku``: ``appended``, ``paratext``, ``layer_writers``; the bylines,
``reader.importers.bylines``) and the search facets (``reader.book_writers``) share.

* **A work's people** (``work_people``): the catalogue's people of a Kanripo ID, in its order, each
  with his role and dynasty (周易註疏: 王弼 注, 韓康伯 注, 陸德明 音義, 孔穎達 疏).
* **Whose role is the book's own** (``writes_main_text``): a role ending in 撰, 著, 輯, 編 or 纂
  (撰, 奉敕撰, 等奉勅撰, 編輯, 纂) names a work's author, who wrote its main text, and a person named
  with no role is an author too; every other role names a layer of notes (注, 傳, 箋, 疏, 音義,
  集解, 考證 …).
* **A book named after its notes** (``COMMENTARY_TITLE``, ``classic_title``): a title ending in the
  word for notes on a classic (史記集解, 楚辭章句, 莊子注, 南華真經註疏, 周禮詳解, 李太白集注); the
  classic is the title before that word.
* **A name's dynasty** (``choose_dynasty``, ``listed_dynasty``, ``written_dynasties``): where the
  data print one name with several dynasties (two people of one name, or one person the sources
  date differently), the dynasty printed by the most held editions wins (the facets count the
  library's editions; the importer, which reads one file, has none), then the one the catalogue
  gives him for the most works, then the earlier spelling in code-point order
  (docs/decisions/0038): 李賢 is 唐 (後漢書's 章懷太子) where the library holds 後漢書, though the
  catalogue also lists a 明 李賢. Each dynasty is written as the facets show it
  (``dynasty_spelling``).
* **A name and its courtesy name** (``courtesy_split``): a byline may print a man's courtesy name
  (字) right after his name with nothing between (文獻通考 ``鄱陽馬端臨貴與著``, 通典 ``京兆杜佑君卿纂``,
  通志 ``鄭樵漁仲撰``); where the catalogue writes a person by the name's first characters and the
  rest is one or two characters (a 字), the name is those first characters.

Pure: the catalogue and the character tables are shipped data, read once; no database.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from catalogue.catalogue import CatalogueEntry, Person, classes, entries_of, entry
from characters.folding import fold

from .person_names import DYNASTY_NAMES, dynasty_key, folded_catalogue_people, person_name

#: The last characters of a role that names a work's own author, who wrote its main text: 撰, 著,
#: 奉敕撰, 等奉勅撰, 輯, 編, 纂 (Kanripo's catalogue and the bylines).
AUTHOR_ROLE_ENDS = "撰著輯編纂"
#: A book named after its notes on a classic: the word for its notes ends its title (module
#: docstring).
COMMENTARY_TITLE = re.compile(r"(?:[集詳]?解|章句|句讀|索隱|正義|(?:集|箋|詳|補)?[注註](?:疏)?|[注註]?[疏䟽])$")
#: The longest courtesy name (字) a byline prints after a name: one or two characters.
COURTESY_MAX = 2
#: Characters that join or make a byline's roles, never a courtesy name's: 後漢書's
#: ``梁　剡令劉昭補幷注`` is 劉昭 who 補 and 注 (supplemented and annotated), not 劉昭 named 補幷.
ROLE_WORDS = frozenset("并幷補同等奉撰著注註")


def writes_main_text(role: str) -> bool:
    """Whether a person of ``role`` wrote a book's main text (``AUTHOR_ROLE_ENDS``; no role)."""
    return not role or role[-1] in AUTHOR_ROLE_ENDS


def classic_title(title: str) -> str:
    """The classic a book named after its notes comments on (``COMMENTARY_TITLE``): 史記集解 →
    史記, 楚辭章句 → 楚辭, 道德真經注 → 道德真經; "" for any other title."""
    word = commentary_word(title)
    return title[:-len(word)] if word else ""


def commentary_word(title: str) -> str:
    """The word for notes that ends ``title`` (``COMMENTARY_TITLE``): 史記集解 → 集解, 李太白集注 →
    集注, 南華真經註疏 → 註疏; "" for a title that is no more than that word or ends otherwise."""
    match = COMMENTARY_TITLE.search(title or "")
    return match.group() if match and match.start() else ""


@lru_cache(maxsize=1)
def all_entries() -> tuple[CatalogueEntry, ...]:
    """Every work of the catalogue, class by class in the catalogue's order, read once."""
    return tuple(listed for code in classes() for listed in entries_of(code))


def work_people(kanripo_id: str) -> tuple[Person, ...]:
    """The people Kanripo's catalogue lists for the work ``kanripo_id``, in its order, whatever
    the role (``catalogue.catalogue.Person``: name, role, dynasty; 儀禮疏: 賈公彥 等撰); ``()``
    for a work it does not list or lists nobody for."""
    listed = entry(kanripo_id) if kanripo_id else None
    return listed.people if listed is not None else ()


def byline_roles(people: tuple[Person, ...], byline: list[dict[str, str]]) -> tuple[Person, ...]:
    """The catalogue's ``people`` of a work (``work_people``), each the catalogue lists with no
    role given the role the book's byline (``Edition.byline``: dicts with ``name``, ``role``,
    ``dynasty``) prints for him, and his dynasty where the catalogue gives none: the byline holds
    the writers of the book's layers (南華真經註疏 「河南郭象注」「唐西華法師成玄英䟽」, where the
    catalogue lists 郭象 and 成玄英 with neither role nor dynasty: 郭象 注, 〔唐〕成玄英 䟽, the
    writers of the 注 and the 疏, not two authors of the 莊子 they comment on). One person is one
    name (``reader.person_names.person_name``, decision 0032): the catalogue's name is kept. A
    person the byline does not name, or names with no role, is as the catalogue lists him; a
    role the catalogue gives is never replaced. A person still undated takes the one dynasty the
    catalogue gives his name elsewhere (``sole_dynasty``: 郭象注 is 〔晉〕郭象注)."""
    printed: dict[str, dict[str, str]] = {}
    for b in byline or ():
        name = b.get("name", "")
        if name and b.get("role"):
            printed.setdefault(person_name(name, [b["dynasty"]] if b.get("dynasty") else None), b)
    out = []
    for p in people:
        found = None if p.role else printed.get(person_name(p.name, [p.dynasty] if p.dynasty else None))
        p = p if found is None else Person(p.name, found["role"], p.dynasty or found.get("dynasty", ""))
        out.append(p if p.dynasty else Person(p.name, p.role, sole_dynasty(p.name)))
    return tuple(out)


def sole_dynasty(name: str) -> str:
    """The dynasty the catalogue gives ``name`` in its other entries where it gives one only (as
    written, letter for letter: decision 0032): 郭象 晉 (莊子注 KR5c0138), for 南華真經註疏 (KR5c0139),
    whose entry and byline 「河南郭象注」 date him nowhere; 王弼 魏 (周易註), for 道德真經註 (KR5c0073).
    "" for a name it dates with several dynasties (two men, or one it is unsure of) or none."""
    found = _listed(False).get(name) if len(name) >= 2 else None
    return next(iter(found)) if found and len(found) == 1 else ""


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """``{dynasty key: the spelling shown}``: the catalogue's commonest spelling of each key (淸 and
    清: 清), but a dynasty of ``DYNASTY_NAMES`` as that table names it (劉宋 and 南朝宋: 南朝宋)."""
    count: Counter = Counter()
    for listed in all_entries():
        for d in {listed.dynasty, *(p.dynasty for p in listed.people)}:
            if d:
                count[d] += 1
    best: dict[str, tuple[int, str]] = {}
    for d, n in count.items():
        key = dynasty_key(d)
        if key not in best or (n, d) > best[key]:
            best[key] = (n, d)
    shown = {key: d for key, (_, d) in best.items()}
    shown.update((dynasty_key(d), d) for d in DYNASTY_NAMES.values())
    return shown


def dynasty_spelling(dynasty: str) -> str:
    """``dynasty`` as the facets show it (``dynasty_key`` equal: 淸 → 清, 劉宋 → 南朝宋, module
    docstring); itself where the catalogue never writes it; "" for ""."""
    return _spellings().get(dynasty_key(dynasty), dynasty) if dynasty else ""


def known_dynasty(dynasty: str) -> bool:
    """Whether ``dynasty`` names a dynasty in any spelling Kanripo's catalogue writes one with or
    ``DYNASTY_NAMES`` gives (清 and 淸, 劉宋 and 南朝宋): ``known_dynasty("火星")`` is False."""
    return bool(dynasty) and dynasty_key(dynasty) in _spellings()


def choose_dynasty(held: Counter, listed: Counter) -> str:
    """The one dynasty of a name printed with several (module docstring): the most ``held``
    editions', then the most ``listed`` works', then the first in code-point order; each Counter
    ``{dynasty as shown: editions or works}``. "" when both are empty."""
    return min(set(held) | set(listed), key=lambda d: (-held[d], -listed[d], d), default="")


@lru_cache(maxsize=1)
def _listed(written: bool) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    for listed in all_entries():
        for dynasty, name in {(p.dynasty, p.name) for p in listed.people if p.name and p.dynasty}:
            out[person_name(name, [dynasty]) if written else name][dynasty_spelling(dynasty)] += 1
    return dict(out)


def written_dynasties() -> dict[str, Counter]:
    """``{name written (reader.person_names.person_name): Counter({dynasty as shown: works})}`` of
    every person the catalogue lists with a dynasty: what ``choose_dynasty`` is given as
    ``listed`` for a name the index stores."""
    return _listed(True)


def listed_dynasty(name: str) -> str | None:
    """The dynasty of the person the catalogue writes ``name`` (letter for letter, two characters
    or more: as a signature or a label prints him), by ``choose_dynasty`` on the catalogue's works;
    "" for a person it lists with no dynasty; None for a name it does not write."""
    if len(name) < 2:
        return None
    found = _listed(False).get(name)
    if found:
        return choose_dynasty(Counter(), found)
    return "" if name in _undated() else None


@lru_cache(maxsize=1)
def _undated() -> frozenset[str]:
    return frozenset(p.name for listed in all_entries() for p in listed.people if p.name and not p.dynasty)


def known_name(name: str) -> bool:
    """Whether the catalogue writes a person ``name``, letter for letter (``listed_dynasty``)."""
    return listed_dynasty(name) is not None


def folded_name(name: str) -> str:
    """The catalogue's one name of the person whose name folds (``characters.folding``) as
    ``name`` does, where exactly one person does (a label's 衛湜 is the catalogue's 衞湜 of 宋); ""
    where none or several do. The text stays as printed: this only names who it is."""
    found = {n for _, n in folded_catalogue_people(fold(name))} if name else set()
    return found.pop() if len(found) == 1 else ""


def courtesy_split(name: str, dynasty: str = "") -> tuple[str, str, str]:
    """``(words before, name, courtesy name)`` of a byline's name that may run a man's courtesy
    name on after his name (module docstring): 馬端臨貴與 → ``("", "馬端臨", "貴與")``, 京兆杜佑君卿 →
    ``("京兆", "杜佑", "君卿")`` (his native place before), 右廸功郎鄭樵漁仲 → ``("右廸功郎", "鄭樵",
    "漁仲")`` (his office). Only where the catalogue decides: the whole is no name it writes
    (letter for letter or folded, ``folded_name``), and exactly one name it writes, of two or three
    characters (of ``dynasty`` where one is printed, ``dynasty_key`` equal), is followed by the
    last one or two characters (``COURTESY_MAX``), none of them a role's (``ROLE_WORDS``); else
    ``("", name, "")``."""
    if len(name) < 3 or known_name(name) or folded_name(name):
        return "", name, ""
    found = []
    for size in (2, 3):
        for rest in range(1, COURTESY_MAX + 1):
            start = len(name) - rest - size
            if start < 0 or ROLE_WORDS & set(name[-rest:]):
                continue
            head = name[start:start + size]
            listed = _listed(False).get(head)
            if listed is None and head not in _undated():
                continue
            if dynasty and listed is not None and dynasty_key(dynasty) not in {dynasty_key(d) for d in listed}:
                continue
            found.append((name[:start], head, name[start + size:]))
    return found[0] if len(found) == 1 else ("", name, "")
