"""Who wrote what, by Kanripo's catalogue: the one reading of ``catalogue/data/works.tsv`` that the
importer (``reader.importers.mandoku``: ``appended``, ``paratext``, ``layer_writers``; the bylines,
``reader.importers.bylines``) and the search facets (``reader.book_writers``) share.

* **A work's people** (``work_people``): the catalogue's people of a Kanripo ID, in its order, each
  with his role and dynasty (周易註疏: 王弼 注, 韓康伯 注, 陸德明 音義, 孔穎達 疏).
* **Whose role is the book's own** (``writes_main_text``): a role ending in 撰, 著, 輯, 編 or 纂
  (撰, 奉敕撰, 等奉勅撰, 編輯, 纂) names a work's author, who wrote its main text, and a person named
  with no role is an author too; every other role names a layer of notes (注, 傳, 箋, 疏, 音義,
  集解, 考證 …).
* **Who annotates** (``annotates``): a role that is no author's and writes no text of his own (注,
  注志, 集解, 疏; not 撰志).

Which classic a book comments on, and so who wrote a classic's own text the catalogue lists with
nobody (春秋左傳(正文): 左丘明, from 春秋左傳注疏), is ``reader.commented_classic``'s rule, read with these
roles.
* **A name's dynasty** (``choose_dynasty``, ``listed_dynasty``, ``written_dynasties``): where the
  data print one name with several dynasties (two people of one name, or one person the sources
  date differently), the dynasty printed by the most held editions wins (the facets count the
  library's editions; the importer, which reads one file, has none), then the one the catalogue
  gives him for the most works, then the earlier spelling in code-point order
  (docs/decisions/0038): 李賢 is 唐 (後漢書's 章懷太子) where the library holds 後漢書, though the
  catalogue also lists a 明 李賢. Each dynasty is written as the facets show it
  (``dynasty_spelling``).
* **A dynasty as shown** (``shown_people``, ``shown_dynasty``; decision 0084): every page, the API, the
  citations and the facets write one dynasty by one name, the facets' (``dynasty_spelling``: the
  catalogue's 劉宋 is 南朝宋); and a 宋 the catalogue gives an author whose work men of a dynasty that
  ended before the 宋 of 960 annotate in the same entry (``ENDED_BEFORE_SONG``) is the 宋 of the Southern
  Dynasties, 南朝宋: 後漢書's 范曄, annotated by 梁 劉昭 and 唐 李賢. The catalogue's text stays as it is.
* **A name and its courtesy name** (``courtesy_split``): a byline may print a man's courtesy name
  (字) right after his name with nothing between (文獻通考 ``鄱陽馬端臨貴與著``, 通典 ``京兆杜佑君卿纂``,
  通志 ``鄭樵漁仲撰``); where the catalogue writes a person by the name's first characters and the
  rest is one or two characters (a 字), the name is those first characters.

Pure: the catalogue and the character tables are shipped data, read once; no database.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache

from catalogue.catalogue import CatalogueEntry, Person, classes, entries_of, entry
from characters.folding import fold

from .person_names import DYNASTY_NAMES, dynasty_key, folded_catalogue_people, person_name

#: The last characters of a role that names a work's own author, who wrote its main text: 撰, 著,
#: 奉敕撰, 等奉勅撰, 輯, 編, 纂 (Kanripo's catalogue and the bylines).
AUTHOR_ROLE_ENDS = "撰著輯編纂"
#: The longest courtesy name (字) a byline prints after a name: one or two characters.
COURTESY_MAX = 2
#: Characters that join or make a byline's roles, never a courtesy name's: 後漢書's
#: ``梁　剡令劉昭補幷注`` is 劉昭 who 補 and 注 (supplemented and annotated), not 劉昭 named 補幷.
ROLE_WORDS = frozenset("并幷補同等奉撰著注註")


#: Dynasties the catalogue writes (``dynasty_key``) that had ended before the 宋 of 960-1279 began: a
#: man of one of them who annotates a work dates it before that 宋 (``shown_people``). Not 南唐 (937-975),
#: 後蜀 (934-965), 吳越 or 遼, which outlived 960; 周, 吳, 蜀 and 後漢 in any of their senses ended before it.
ENDED_BEFORE_SONG = frozenset(map(dynasty_key, (
    "周", "秦", "漢", "漢後期", "後漢", "魏", "吳", "蜀", "晉", "前晉", "南朝宋", "南齊", "齊", "梁", "陳",
    "北魏", "後魏", "北齊", "北周", "隋", "唐", "五代", "後梁", "後唐", "後晉", "後周")))
#: The 宋 that ``shown_people`` tells apart: the catalogue writes the 宋 of 960-1279 and, for some of
#: its men (後漢書's 范曄), the 宋 of the Southern Dynasties by this one name.
SONG, SOUTHERN_SONG = "宋", "南朝宋"
#: Characters of a role that make its holder write a text of his own, not annotate another's (撰志:
#: 後漢書's 司馬彪 wrote its 志, before 范曄's 紀傳, and dates nothing of them).
OWN_TEXT = frozenset("撰著")


def writes_main_text(role: str) -> bool:
    """Whether a person of ``role`` wrote a book's main text (``AUTHOR_ROLE_ENDS``; no role)."""
    return not role or role[-1] in AUTHOR_ROLE_ENDS


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


def annotates(role: str) -> bool:
    """Whether a person of ``role`` annotates another's text (注, 注志, 集解, 疏 …): a role that is no
    author's (``writes_main_text``) and holds no ``OWN_TEXT`` character (撰志 is not)."""
    return bool(role) and not writes_main_text(role) and not OWN_TEXT & set(role)


def shown_people(people: tuple[Person, ...]) -> tuple[Person, ...]:
    """The people of a catalogue entry (``work_people``, in its order) each with his dynasty as every
    page, the API, the citations and the facets show it (module docstring, decision 0084): as the facets
    spell it (``dynasty_spelling``: 劉宋 → 南朝宋, 淸 → 清); and an author (``writes_main_text``) the entry
    dates ``SONG`` whom someone after him annotates (``annotates``) under a dynasty of ``ENDED_BEFORE_SONG``
    is of ``SOUTHERN_SONG``: a work is annotated after it is written (後漢書 KR2a0009: 范曄 宋 → 南朝宋, from
    劉昭 注志 梁 and 李賢 注 唐; 孝經注疏's 邢昺 宋 疏 is no author, and stays 宋)."""
    out = []
    for k, p in enumerate(people):
        dynasty = dynasty_spelling(p.dynasty)
        if (dynasty == SONG and writes_main_text(p.role)
                and any(annotates(q.role) and dynasty_key(q.dynasty) in ENDED_BEFORE_SONG for q in people[k + 1:])):
            dynasty = SOUTHERN_SONG
        out.append(p if dynasty == p.dynasty else Person(p.name, p.role, dynasty))
    return tuple(out)


def shown_dynasty(listed: CatalogueEntry) -> str:
    """A catalogue entry's dynasty as shown (``shown_people``): its first person's where it is his
    (後漢書 宋, of 范曄: 南朝宋), else as the facets spell it (``dynasty_spelling``); "" for none."""
    people = listed.people
    if people and listed.dynasty and dynasty_key(listed.dynasty) == dynasty_key(people[0].dynasty):
        return shown_people(people)[0].dynasty
    return dynasty_spelling(listed.dynasty)


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
