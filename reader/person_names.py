"""One person, one name: the names Kanripo's catalogue writes one person with, taken as one.

Who wrote each note is named as the catalogue writes him (``reader.importers.mandoku``:
``layer_writers``, ``appended``; docs/decisions/0027-one-byline-rule.md), and the catalogue
(``catalogue/data/works.tsv``) writes a person as each work's record has him, which do not always
agree: 春秋穀梁傳 (KR1e0009) writes 范甯 and 春秋穀梁注疏 (KR1e0010) 范寧, 孝經 (KR1f0002) 玄宗明皇帝
and 孝經注疏 (KR1f0004) 玄宗. A search by commentator (``commentator=范甯``) then found one
edition's notes and not the other's. Two names of the catalogue are one person's when they have
the same dynasty and

* the same length, and differ in one character, which the dictionary gives as a variant of the
  other (``characters.dictionary``, ``CharEntry.variants``: 甯 寧, 夤 寅, 圴 均, 鎦 劉, 戴 載): a
  name is not folded character by character in search (甯 is a surname of its own), but one
  person's name spelt two ways is one name; or
* one is an emperor's temple name (two characters ending in 宗, 祖 or 帝) and the other that name
  followed by his own name or title (玄宗 and 玄宗明皇帝, 高宗 and 高宗弘曆, 世宗 and 世宗胤禛).
* both fold as one (``characters.folding.fold``: 房玄齡 and 房玄齢, 洪咨夔 and 洪咨虁).

Of one person's names, the one written is the one the most works of the catalogue use (玄宗: two
works, 玄宗明皇帝 one; 劉績 two, 鎦績 one); on a tie, the one whose characters the shared corpus
writes more often (``characters/data/corpus_frequencies.tsv``: 范寧, for 寧 is written 4,744
times and 甯 1,078), the spelling a reader is likelier to type.

A name the books print is one of the catalogue's people only where the dynasty agrees: two
people are one only when their dynasties are one (``dynasty_key``: folded, 淸 清, 凉 涼; 南唐
is not 唐). A byline prints the dynasty (「凉　儒林祭酒劉　昞　注」), and with it a name printed
in characters search folds as one with a catalogue name of that dynasty is that person (the
byline's 衛湜 of 宋 is the catalogue's 衞湜 of 宋; 陸徳明 of 唐 陸德明; 范寗 of 晉 范寧). Where
the dynasty is not known, a name is the catalogue's only as the catalogue writes it, letter
for letter: folding is not enough to call two people one, for it joins characters the books
keep apart in names (昞 and 炳: 人物志's 劉昞 of 凉 and 劉彥昺集's 劉炳 of 明 are two men).
A name the catalogue does not write and no dynasty places is kept as printed.

The importer names each note's writer with the dynasties the juan's bylines print him with
(``reader.importers.mandoku.parser``); a search by commentator or author, typed without a
dynasty, names him with the dynasties the catalogue and the library's bylines know that very
name with (``known_dynasties``, ``reader.printed_people``): both sides reach one name, so
``commentator=劉昞`` finds 人物志's notes, ``commentator=劉炳`` does not, and 范甯, 范寧 and 范寗
find the notes of both 穀梁 editions. A typed name nothing places is read as the people whose
names fold as it does (``folded_catalogue_people``; ``reader.printed_people``: 衛湜 is 衞湜):
that reads a search, never names a note.

Pure: the catalogue and the character tables are shipped data, read once.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from catalogue.catalogue import classes, entries_of
from characters.dictionary import lookup
from characters.folding import fold
from characters.frequencies import read_frequencies

#: An emperor's temple name: two characters ending in 宗, 祖 or 帝 (玄宗, 聖祖, 武帝).
TEMPLE_NAME = re.compile(r"^.[宗祖帝]$")


def _variants(a: str, b: str) -> bool:
    """Whether the dictionary gives ``a`` and ``b`` as variant forms of one another."""
    return b in lookup(a, follow=False).variants or a in lookup(b, follow=False).variants


@lru_cache(maxsize=1)
def _catalogue_names() -> Counter:
    """``{(dynasty, name): works}``: how many works of the catalogue name each person so."""
    count: Counter = Counter()
    for code in classes():
        for work in entries_of(code):
            for person in {(p.dynasty, p.name) for p in work.people if p.name}:
                count[person] += 1
    return count


@lru_cache(maxsize=1)
def _groups() -> dict[tuple[str, str], str]:
    """``{(dynasty, name): the name written}`` for every name of a person the catalogue writes
    in more than one way (module docstring)."""
    count = _catalogue_names()
    parent = {key: key for key in count}

    def find(key):
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(a, b):
        parent[find(a)] = find(b)

    blanked: dict[tuple[str, int, str], list[tuple[str, str]]] = defaultdict(list)
    for dynasty, name in count:
        for i in range(len(name)):
            blanked[(dynasty, i, name[:i] + "\0" + name[i + 1:])].append((dynasty, name))
    for (dynasty, i, _), keys in blanked.items():
        for k, a in enumerate(keys):
            for b in keys[k + 1:]:
                if _variants(a[1][i], b[1][i]):
                    union(a, b)
    for dynasty, name in count:
        if len(name) >= 4 and TEMPLE_NAME.match(name[:2]) and (dynasty, name[:2]) in count:
            union((dynasty, name), (dynasty, name[:2]))
    folded: dict[tuple[str, str], tuple[str, str]] = {}
    for dynasty, name in count:  # 房玄齡 and 房玄齢 of 唐: one name, as search folds it
        union((dynasty, name), folded.setdefault((dynasty, fold(name)), (dynasty, name)))
    members: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for key in count:
        members[find(key)].append(key)
    frequency = _frequencies()
    out = {}
    for keys in members.values():
        if len(keys) < 2:
            continue
        written = max(keys, key=lambda k: (count[k], sum(frequency.get(c, 0) for c in k[1]), k[1]))
        out.update((k, written[1]) for k in keys)
    return out


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, int]:
    return read_frequencies()


#: Dynasties the catalogue writes by two names, each with the name shown for both: the 宋 of the
#: Southern Dynasties (420–479) is 南朝宋 in four works' entries (史記, 史記集解, 三國志, 佛國記)
#: and 劉宋 in three (世說新語, 異苑, 鮑明遠集). 南朝宋 is shown: the catalogue's commoner name, and one that
#: says which 宋 by its period, as 南唐 and 北周 do, where 劉宋 names the ruling house.
DYNASTY_NAMES = {"劉宋": "南朝宋"}


def dynasty_key(dynasty: str) -> str:
    """A dynasty as names are compared by: folded (``characters.folding.fold``: 淸 is 清, 凉
    is 涼), else as printed, one of ``DYNASTY_NAMES`` as the name shown (劉宋 is 南朝宋); ""
    unknown. Two dynasties agree only when their keys are equal: 南唐 is not 唐, 北周 not 周,
    劉宋 not 宋, so no prefix is dropped."""
    return fold(DYNASTY_NAMES.get(dynasty, dynasty)) if dynasty else ""


@lru_cache(maxsize=1)
def _dynasties() -> dict[str, frozenset[str]]:
    """``{name: the dynasties (keys) the catalogue names a person so in}``, read once."""
    out: dict[str, set[str]] = defaultdict(set)
    for dynasty, name in _catalogue_names():
        out[name].add(dynasty_key(dynasty))
    return {name: frozenset(found) for name, found in out.items()}


@lru_cache(maxsize=1)
def _dated() -> dict[tuple[str, str], frozenset[str]]:
    """``{(dynasty key, name): the names written}`` for every person of the catalogue (one
    name but where two of its dynasties fold to one key and write him two ways)."""
    groups = _groups()
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key in _catalogue_names():
        out[(dynasty_key(key[0]), key[1])].add(groups.get(key, key[1]))
    return {key: frozenset(names) for key, names in out.items()}


@lru_cache(maxsize=1)
def _dated_folded() -> dict[tuple[str, str], frozenset[str]]:
    """``{(dynasty key, folded name): the names written}``: whom a name printed with its
    dynasty, in characters search folds as one, is (衛湜 of 宋 is the catalogue's 衞湜)."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (dynasty, name), written in _dated().items():
        out[(dynasty, fold(name))] |= written
    return {key: frozenset(names) for key, names in out.items()}


@lru_cache(maxsize=1)
def _folded_people() -> dict[str, frozenset[tuple[str, str]]]:
    out: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for dynasty, name in _dated():
        out[fold(name)].add((dynasty, name))
    return {key: frozenset(people) for key, people in out.items()}


def folded_catalogue_people(folded: str) -> frozenset[tuple[str, str]]:
    """``{(dynasty key, name)}``: the people of the catalogue whose names fold
    (``characters.folding.fold``) to ``folded`` (衞湜 of 宋 for 衛湜; 劉炳 of 明 for 劉炳), each
    as the catalogue writes him; what a typed name nothing places is read as
    (``reader.printed_people.typed_people``)."""
    return _folded_people().get(folded, frozenset())


def _named(name: str, dynasty: str) -> str:
    """The name written for ``name`` of the dynasty key ``dynasty`` (module docstring)."""
    found = _dated().get((dynasty, name)) or _dated_folded().get((dynasty, fold(name)), frozenset())
    return next(iter(found)) if len(found) == 1 else name


def person_name(name: str, dynasties=None) -> str:
    """The one name written for the person ``name`` stands for (module docstring).

    ``dynasties``: the dynasties the books print him with (a byline's 凉 for 劉昞, 晉 for 范寗;
    any iterable of str, "" ignored). With them: the catalogue's name of the person so named
    in that dynasty (范甯 of 晉 → 范寧), else of the one person of that dynasty whose name
    folds as one with it (``characters.folding``: 衛湜 of 宋 → 衞湜, 陸徳明 of 唐 → 陸德明,
    范寗 of 晉 → 范寧); ``name`` itself where none or several are (劉昞 of 凉 stays 劉昞: the
    catalogue's 劉炳 is of 明) or where the dynasties give different names.

    Without (None or none printed): the catalogue's dynasties of that very name, no folding:
    范甯 → 范寧, 玄宗明皇帝 → 玄宗, 劉炳 → 劉炳, and a name the catalogue does not write
    (劉昞, 衛湜, 范寗) is ``name`` itself. "" for ""."""
    if not name:
        return name
    keys = {dynasty_key(d) for d in dynasties or () if d}
    if not keys:
        keys = _dynasties().get(name, frozenset())
    written = {_named(name, key) for key in keys}
    return next(iter(written)) if len(written) == 1 else name


def known_dynasties(name: str, printed) -> frozenset[str]:
    """The dynasties a name a reader types (no dynasty: a search's ``commentator=``, an
    ``author=`` filter) is known with: the catalogue's for that very name and ``printed``'s,
    the dynasties the library's bylines print it with (``reader.printed_people``). A search
    then names him as the importer named his notes: ``person_name(name,
    known_dynasties(name, printed))``."""
    return _dynasties().get(name, frozenset()) | {dynasty_key(d) for d in printed if d}


def printed_dynasties(people) -> dict[str, frozenset[str]]:
    """``{name: the dynasties printed with it}`` of byline people (``[{"dynasty", "name", …}]``,
    as ``reader.importers.bylines`` reads them; a dynasty "" is left out): what
    ``person_name`` is given for a name the bylines print (凉 for 劉昞)."""
    out: dict[str, set[str]] = defaultdict(set)
    for person in people:
        if person.get("name") and person.get("dynasty"):
            out[person["name"]].add(person["dynasty"])
    return {name: frozenset(found) for name, found in out.items()}


#: How a byline names a commentator by his surname alone: the surname and 氏 (漢鄭氏注: 鄭玄's 注;
#: 晉杜氏注, 漢孔氏傳), the form the 注疏 editions print where the catalogue writes his name.
SURNAME_FORM = re.compile(r"^(.{1,2})氏$")


def surname_form_person(name: str, dynasty: str, people) -> str:
    """The catalogue's name of the person a byline prints by his surname alone (``SURNAME_FORM``:
    〔漢〕鄭氏) among the ``people`` of the book's catalogue entry (``catalogue.Person``: name and
    dynasty): the one person of that dynasty (``dynasty_key``) whose name begins with that
    surname and goes on (〔漢〕鄭玄, the catalogue's 注 of 周禮注疏 and 箋 of 毛詩注疏), written as
    ``person_name`` writes him; "" where the name is no surname form, no dynasty is printed, or
    none or several of the book's people fit (a book of 鄭玄 and 鄭眾 does not tell which 鄭氏 is
    meant). The byline and the catalogue name one man in one book; the importer named a layer's
    writer so where the catalogue gives the role (``reader.importers.mandoku.layer_writers``), and
    a search reads either name as him (``reader.printed_people``)."""
    found = SURNAME_FORM.match(name or "")
    key = dynasty_key(dynasty)
    if found is None or not key:
        return ""
    surname = fold(found.group(1))
    fit = {person_name(p.name, [p.dynasty]) for p in people
           if p.name and p.dynasty and dynasty_key(p.dynasty) == key and len(p.name) > len(found.group(1))
           and fold(p.name).startswith(surname) and not SURNAME_FORM.match(p.name)}
    return next(iter(fit)) if len(fit) == 1 else ""


@lru_cache(maxsize=1)
def _inverse() -> dict[str, frozenset[str]]:
    """``{name written: every name of the catalogue written so}``, read once (``spellings``)."""
    out: dict[str, set[str]] = defaultdict(set)
    for (_, name), written in _dated().items():
        for to in written:
            out[to].add(name)
    return {to: frozenset(names) for to, names in out.items()}


def spellings(name: str, dynasties=None) -> tuple[str, ...]:
    """``name`` and every name of the catalogue written for the same person (``person_name``
    of ``name`` and ``dynasties`` gives them one name), sorted: 范寧 → ``("范寧", "范甯")``,
    玄宗 → ``("玄宗", "玄宗明皇帝")``, 范寗 of 晉 → ``("范寗", "范寧", "范甯")``; ``(name,)``
    for a person the catalogue writes one way or does not write (劉昞: not 劉炳), ``()``
    for ""."""
    if not name:
        return ()
    written = person_name(name, dynasties)
    return tuple(sorted({name, written} | _inverse().get(written, frozenset())))


@lru_cache(maxsize=1)
def _works_by_name() -> dict[str, tuple[str, ...]]:
    out: dict[str, set[str]] = defaultdict(set)
    for code in classes():
        for work in entries_of(code):
            for p in work.people:
                if p.name:
                    out[p.name].add(work.kr_id)
    return {name: tuple(sorted(ids)) for name, ids in out.items()}


def works_of_people(names) -> tuple[str, ...]:
    """The Kanripo IDs (sorted) of the works the catalogue lists any of ``names`` for (an
    author, commentator or editor): ``works_of_people(spellings("范甯"))`` holds KR1e0009 and
    KR1e0010."""
    by_name = _works_by_name()
    return tuple(sorted({kr for name in names for kr in by_name.get(name, ())}))
