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

Of one person's names, the one written is the one the most works of the catalogue use (玄宗: two
works, 玄宗明皇帝 one; 劉績 two, 鎦績 one); on a tie, the one whose characters the shared corpus
writes more often (``characters/data/corpus_frequencies.tsv``: 范寧, for 寧 is written 4,744
times and 甯 1,078), the spelling a reader is likelier to type. Every form finds the same notes
(``person_name`` folds a search's commentator as the importer folds the notes'). A name the
books print with characters search folds as one (a byline's 衛湜, the catalogue's 衞湜; 陸徳明 and
陸德明) is the catalogue's, where the catalogue names one person so.

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


@lru_cache(maxsize=1)
def _by_name() -> dict[str, str]:
    """``{name: the name written}`` for the names that stand for one person only, whatever the
    dynasty (高宗 of 清 is 高宗弘曆, but a name several dynasties give different people is not
    folded without one)."""
    written: dict[str, set[str]] = defaultdict(set)
    for (_, name), to in _groups().items():
        written[name].add(to)
    dated = {name for _, name in _catalogue_names()}
    out = {}
    for name, to in written.items():
        others = {d for d, n in _catalogue_names() if n == name}
        if len(to) == 1 and (len(others) == 1 or name not in dated):
            out[name] = next(iter(to))
    return out


@lru_cache(maxsize=1)
def _by_folded() -> dict[str, str]:
    """``{folded name: the name written}`` for the folded names (``characters.folding.fold``) of
    the catalogue's people that stand for one person only."""
    written: dict[str, set[str]] = defaultdict(set)
    by_name = _by_name()
    for _, name in _catalogue_names():
        written[fold(name)].add(by_name.get(name, name))
    return {key: next(iter(names)) for key, names in written.items() if len(names) == 1}


def person_name(name: str) -> str:
    """The one name written for the person ``name`` stands for (module docstring): 范甯 →
    范寧, 玄宗明皇帝 → 玄宗; a name written with characters search folds as one
    (``characters.folding``) as the catalogue writes it, where it names one person so (a
    byline's 衛湜 → the catalogue's 衞湜, 陸徳明 → 陸德明); ``name`` itself for any other (and ""
    for "")."""
    if not name:
        return name
    return _by_name().get(name) or _by_folded().get(fold(name), name)



def spellings(name: str) -> tuple[str, ...]:
    """``name`` and every name of the catalogue written for the same person (``person_name``
    gives them one name), sorted: 范寧 → ``("范寧", "范甯")``, 玄宗 → ``("玄宗", "玄宗明皇帝")``;
    ``(name,)`` for a person the catalogue writes one way, ``()`` for ""."""
    if not name:
        return ()
    written = person_name(name)
    return tuple(sorted({name, written} | {n for _, n in _catalogue_names() if person_name(n) == written}))


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
