"""A person's name as a reader types it, without a dynasty (a search's ``commentator=``, an
``author=`` filter), named as the importer named his notes.

The importer names each note's writer with the dynasty the juan's byline prints him with
(``reader.person_names``: the byline's 范寗 of 晉 is the catalogue's 范寧; 劉昞 of 凉 stays
劉昞, for the catalogue's 劉炳 is of 明). A typed name carries no dynasty, so it is read with the
dynasties the catalogue and the library's own bylines know that very name with
(``person_names.known_dynasties``): 范寗, printed by 春秋穀梁注疏's byline with 晉, is 范寧;
劉昞, printed by 人物志's with 凉, is 劉昞; 劉炳, which no byline of another dynasty prints, is
the catalogue's 劉炳 of 明. A name nothing places is kept as typed: folding alone never makes
it another's.

The bylines read are the editions' (``Edition.byline``, everyone the edition's first byline
names, each with his dynasty): one query, kept while the corpus stamp (``reader.stamp``) stays
the same (every committed import or edit touches it), so a search by commentator or author
asks the database nothing once they are read, as ``search.facets.facet_table``.
"""
from __future__ import annotations

from .models import Edition
from .person_names import known_dynasties, person_name, printed_dynasties, spellings
from .stamp import corpus_version

_printed: dict[str, dict[str, frozenset[str]]] = {}


def library_dynasties() -> dict[str, frozenset[str]]:
    """``{name: the dynasties the editions' bylines print it with}`` (``printed_dynasties`` of
    every ``Edition.byline``): one query, kept while the corpus stamp stays the same."""
    key = corpus_version()
    known = _printed.get(key)
    if known is None:
        people = (p for byline in Edition.objects.values_list("byline", flat=True) for p in byline or ())
        known = printed_dynasties(people)
        _printed.clear()
        _printed[key] = known
    return known


def _dynasties(name: str) -> frozenset[str]:
    return known_dynasties(name, library_dynasties().get(name, ()))


def typed_person(name: str) -> str:
    """The one name the notes of the person a typed ``name`` stands for are stored under
    (``person_name`` with the dynasties the catalogue and the library's bylines know ``name``
    with): 范甯, 范寧 and 范寗 (printed with 晉) → 范寧; 劉昞 → 劉昞 where 人物志 is held (凉)
    and where nothing prints it; 劉炳 → 劉炳; "" for ""."""
    return person_name(name, _dynasties(name)) if name else name


def typed_spellings(name: str) -> tuple[str, ...]:
    """``person_names.spellings`` of a typed ``name``, read as ``typed_person`` reads it:
    ``name`` and every name of the catalogue written for the same person, sorted; ``()``
    for ""."""
    return spellings(name, _dynasties(name)) if name else ()
