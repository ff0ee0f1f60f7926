"""A person's name as a reader types it, without a dynasty (a search's ``commentator=``, an
``author=`` filter), named as the importer named his notes.

The importer names each note's writer with the dynasty the juan's byline prints him with
(``reader.person_names``: the byline's 范寗 of 晉 is the catalogue's 范寧; 劉昞 of 凉 stays
劉昞, for the catalogue's 劉炳 is of 明). A typed name carries no dynasty, so it is read with the
dynasties the catalogue and the library's own bylines know that very name with
(``person_names.known_dynasties``): 范寗, printed by 春秋穀梁注疏's byline with 晉, is 范寧;
劉昞, printed by 人物志's with 凉, is 劉昞; 劉炳, which no byline of another dynasty prints, is
the catalogue's 劉炳 of 明: a name something places keeps that reading, letter for letter.

A name nothing places (neither the catalogue nor a held byline writes it with a dynasty) is read
as the people whose names fold as it does (``characters.folding.fold``; a simplified character
that stands for several read as each, as a query reads it: ``query_folds``, 孔颖达 → 孔穎達), of the
catalogue and of the held bylines: a reader types the common form (衛湜, 陸徳明 for the catalogue's 衞湜 and
陸德明), and a spelling no one in the library is written with can only mean one of them. Where
one person (one written name) folds so, the typed name stands for him (衛湜 → 衞湜, 陸徳明 →
陸德明); where several do, for all of them, and a search then finds the notes of each (劉㶮,
which folds as 劉炳, is both 明 劉炳 and, where 人物志 is held, 凉 劉昞); where none, it is kept
as typed. Folding alone still never makes two people one in the stored notes: the importer
names a writer by his byline's dynasty (``reader.person_names``); this fallback only reads a
search (docs/decisions/0032-one-person-by-name-and-dynasty.md).

The bylines read are the editions' (``Edition.byline``, everyone the edition's first byline
names, each with his dynasty): one query, kept while the corpus stamp (``reader.stamp``) stays
the same (every committed import or edit touches it), so a search by commentator or author
asks the database nothing once they are read, as ``search.facets.facet_table``.
"""
from __future__ import annotations

from functools import lru_cache

from catalogue.catalogue import entry
from characters.folding import fold, query_folds

from .models import Edition
from .quoted_names import QUOTED_NAMES
from .person_names import (
    dynasty_key, folded_catalogue_people, known_dynasties, person_name, printed_dynasties, spellings, surname_form_person,
)
from .stamp import KeptPerStamp


def _read_library_dynasties() -> dict[str, frozenset[str]]:
    people = (p for byline in Edition.objects.values_list("byline", flat=True) for p in byline or ())
    return printed_dynasties(people)


_printed = KeptPerStamp(_read_library_dynasties)


def library_dynasties() -> dict[str, frozenset[str]]:
    """``{name: the dynasties the editions' bylines print it with}`` (``printed_dynasties`` of
    every ``Edition.byline``): one query, kept while the corpus stamp stays the same
    (``reader.stamp.KeptPerStamp``: after a change, one thread reads it again)."""
    return _printed.get()


def _read_surname_forms() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for kanripo_id, work_id, byline in Edition.objects.values_list("kanripo_id", "work__kanripo_id", "byline"):
        listed = entry(work_id or "") or entry(kanripo_id or "")
        for p in (byline or ()) if listed is not None else ():
            person = surname_form_person(p.get("name", ""), p.get("dynasty", ""), listed.people)
            if person:
                found.setdefault(p["name"], set()).add(person)
    return {name: frozenset(people) for name, people in found.items()}


_surname_forms = KeptPerStamp(_read_surname_forms)


def surname_forms() -> dict[str, frozenset[str]]:
    """``{a byline's surname form: the catalogue people it names}``: each held edition's byline
    read against its work's catalogue entry (``person_names.surname_form_person``: 周禮注疏's and
    毛詩注疏's 〔漢〕鄭氏 is their 鄭玄, so ``{"鄭氏": {"鄭玄"}}``); one query, kept while the corpus
    stamp stays the same."""
    return _surname_forms.get()


def _one_person(names: set[str]) -> set[str]:
    """``names`` with the other name each one's person is written with in the held books: the
    catalogue's name of a surname form that names him alone in every book that prints it (鄭氏 →
    鄭玄), and the surname forms that name a person alone (鄭玄 → 鄭氏: a book whose catalogue entry
    gives him no role has its notes stored under the byline's 鄭氏)."""
    forms = surname_forms()
    out = set(names)
    for name in names:
        people = forms.get(name, frozenset())
        if len(people) == 1:
            out |= people
        out |= {form for form, them in forms.items() if them == {name}}
    return out


def one_person(names) -> str:
    """The one person ``names`` (written names, as ``typed_people`` gives them) are written for, by
    his catalogue name: a surname form naming one person is he (``surname_forms``: 鄭氏 and 鄭玄 →
    鄭玄); "" where they are several people's (江永 and 江聲) or none."""
    forms = surname_forms()
    people = {next(iter(forms[n])) if len(forms.get(n, ())) == 1 else n for n in names}
    return next(iter(people)) if len(people) == 1 else ""


def _dynasties(name: str) -> frozenset[str]:
    return known_dynasties(name, library_dynasties().get(name, ()))


def _read_folded() -> dict[str, frozenset[tuple[str, str]]]:
    index: dict[str, set[tuple[str, str]]] = {}
    for name, dynasties in library_dynasties().items():
        index.setdefault(fold(name), set()).update((dynasty_key(d), name) for d in dynasties)
    return {k: frozenset(v) for k, v in index.items()}


_folded = KeptPerStamp(_read_folded)


def _folded_people(typed: str) -> frozenset[tuple[str, str]]:
    """``{(dynasty key, name)}``: the people of the catalogue and of the held bylines (printed
    with a dynasty) whose names fold as a typed name ``typed`` may (``query_folds``: 孔颖达,
    whose 达 may be 達, is 孔穎達); the bylines' index kept per corpus stamp."""
    index = _folded.get()
    found: set[tuple[str, str]] = set()
    for folded in query_folds(typed):
        found.update(folded_catalogue_people(folded))
        found.update(index.get(folded, ()))
    return frozenset(found)


def typed_people(name: str) -> tuple[str, ...]:
    """The names (sorted) the notes of the people a typed ``name`` stands for are stored under
    (module docstring). A name the catalogue or a held byline places: its one reading,
    ``person_name`` with the dynasties they know it with (范寗 → ``("范寧",)`` where
    春秋穀梁注疏 is held; 劉昞 → ``("劉昞",)``; 劉炳 → ``("劉炳",)``). Else the written names of
    the people whose names fold as it does: 衛湜 → ``("衞湜",)``, 陸徳明 → ``("陸德明",)``,
    劉㶮 → ``("劉炳", "劉昞")`` where 人物志 is held; ``(name,)`` where no one's does, ``()``
    for "". Either reading with the other name its person is stored under where a held byline
    prints him by his surname (``_one_person``: 鄭氏 and 鄭玄 → ``("鄭氏", "鄭玄")`` where 周禮注疏
    or 毛詩注疏 is held)."""
    if not name:
        return ()
    dynasties = _dynasties(name)
    if dynasties:
        return tuple(sorted(_one_person({person_name(name, dynasties)})))
    people = _folded_people(name)
    return tuple(sorted(_one_person({person_name(n, [d]) for d, n in people}))) or (name,)


def typed_person(name: str) -> str:
    """The one name the notes of the person a typed ``name`` stands for are stored under
    (``typed_people``): 范甯, 范寧 and 范寗 (printed with 晉) → 范寧; 劉昞 → 劉昞 where 人物志 is
    held (凉) and where nothing prints it; 劉炳 → 劉炳; 衛湜 → 衞湜; ``name`` itself where it
    stands for several people (劉㶮) or none; "" for ""."""
    people = typed_people(name)
    return people[0] if len(people) == 1 else name


def typed_spellings(name: str) -> tuple[str, ...]:
    """``person_names.spellings`` of a typed ``name``, read as ``typed_people`` reads it:
    ``name`` and every name of the catalogue written for the same person (or, for a name
    nothing places, for each person whose name folds as it does: 衛湜 → ``("衛湜", "衞湜")``),
    sorted; ``()`` for ""."""
    if not name:
        return ()
    dynasties = _dynasties(name)
    if dynasties:
        return spellings(name, dynasties)
    found = {name}
    for dynasty, person in _folded_people(name):
        found.update(spellings(person, [dynasty]))
    return tuple(sorted(found))


@lru_cache(maxsize=1)
def _folded_quoted_names() -> dict[str, str]:
    """``QUOTED_NAMES`` by each name's fold (``characters.folding.fold``), a fold two names of different
    men share left out."""
    men: dict[str, set[str]] = {}
    for name, man in QUOTED_NAMES.items():
        men.setdefault(fold(name), set()).add(man)
    return {key: next(iter(found)) for key, found in men.items() if len(found) == 1}


def quoted_man(typed: str) -> str:
    """The man a name a book prints him by stands for (``reader.quoted_names.QUOTED_NAMES``: 班孟堅 →
    班固, 師古 → 顏師古), typed in any form the folding joins, simplified included (班孟坚 → 班固, 师古 →
    顏師古); else ``typed`` as it is."""
    if typed in QUOTED_NAMES:
        return QUOTED_NAMES[typed]
    folded = _folded_quoted_names()
    found = {folded[f] for f in query_folds(typed) if f in folded}
    return found.pop() if len(found) == 1 else typed


def typed_author(typed: str, held=()) -> tuple[str, ...]:
    """The written names an author filter typed as ``typed`` stands for, among the people the
    library names: ``held`` (the names a list or a search can give: the works' people, the
    search's writers) and everyone a held edition's byline names. The people ``typed_people``
    reads it as, where one of them is named there (a whole name by any of its spellings: 范甯 →
    范寧; 王安 is 王安 where someone is written so); else every named person whose name begins
    with it and is longer, folded as ``typed_people`` folds, each as ``typed_people`` reads his
    name (a surname: 江 → 江永, 江聲; 范 → 范寧, whom a byline prints 范寗; not 劉炳 → 劉昞, a
    whole name of another person whose name folds as his); else
    ``typed_people``'s reading, which names nobody held (nothing is found). Never a dynasty or a
    role word of a byline (清, 注, 撰): a filter names people. A name a book prints a man by that is
    not his own is read as him first (``reader.quoted_names.QUOTED_NAMES``: the courtesy name a
    byline signs him by, 班孟堅 → 班固, 劉淵林 → 劉逵, as the importer reads those bylines; the name a
    collected commentary prints before his 曰, 師古 → 顏師古). Sorted; ``()`` for ""."""
    if not typed:
        return ()
    typed = quoted_man(typed)
    people = typed_people(typed)
    named = set(held) | set(library_dynasties())
    if named.intersection(people):
        return people
    starts = tuple(query_folds(typed))
    begun = {p for n in named if len(n) > len(typed) and fold(n).startswith(starts) for p in typed_people(n)}
    return tuple(sorted(begun)) or people
