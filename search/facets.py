"""Facets of a search: where in the library its hits fall (部, 類, dynasty, author, edition),
counted from the index's own answer, and the filters that narrow a search by them.

Every engine's ``SearchResults.layer_counts()`` gives the hits per juan, layer and commentator,
each headed by its edition's id; a small table maps each edition to its work's class, dynasty and
own authors (``facet_table``: one query, kept in process memory per index version and corpus
stamp, as ``search.service.edition_places``). So a facet count reads no hit from the database:
之 on the whole library is a sum over a few thousand groups.

Where the values come from: the class is ``Work.classification`` (``catalogue``; its 部 is the
code's first three characters). The author is who wrote the layer a hit is in
(``writers``): a hit in a passage whose commentator the book names (``SearchDocument.commentator``:
杜預's 注, 孔穎達's 疏) counts under him; a hit in the main text (``MAIN_LAYERS``: the classic,
its records, the titles) under the work's main text's authors (``reader.book_writers.main_writers``:
those the catalogue, else the byline, names as writing it, 撰 or 著, not its commentators: 左丘明
for 春秋左傳注疏, nobody for 毛詩注疏, whose 詩 the catalogue gives no author; never a commentary
book's commentator: 史記集解's 史記 is 司馬遷's, 楚辭章句's text the writer each 章句's 序 names, decision 0106, else nobody's known); a hit in a note that
names nobody under the work's authors where the work has no commentator (周禮詳解's notes are
王昭禹's 詳解) or under the commentator a book named after its notes names as its author
(楚辭章句: 王逸), else under
nobody known (""). Each person by one name (``reader.person_names``: the catalogue's 范甯 of
春秋穀梁傳 and 范寧 of 春秋穀梁注疏 are one value, 范寧, as the work pages and the notes name him),
and an author filter takes any of his names (``author=范甯``: ``filter_value``) and keeps the hits
the facet counts under him (``written_by_for``: a ``WrittenBy`` passage filter, which every engine
applies). A filter on several values of one facet keeps hits in any of them
(``class=KR1d&class=KR2a``); filters on different facets all apply.

The dynasty follows the writer of the layer too (``dynasties_of``): a note counts under its
commentator's dynasty, the main text under its authors' (the work's where no author is named),
unknown ("") otherwise: one map of each written name to one dynasty (``reader.book_writers``:
the held editions' catalogue entries and bylines, 〔唐〕孔穎達, 〔漢〕鄭玄, else the catalogue's).
So 鵠 with ``dynasty=唐`` finds 孔穎達's 疏 in the 注疏 editions. The editors' layer, nobody's known,
counts under the dynasty it was written in where the library knows it (``editors_dynasty``: a 四庫
copy's 提要 and 考證 under 清), so ``dynasty=清`` keeps what ``work=`` finds in a 清 book's 提要. A
dynasty filter keeps the hits the facet counts under it (``written_by_for``, a ``WrittenBy``
naming the commentators of that dynasty among the query's own, from its unfiltered
``layer_counts``).
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from catalogue.catalogue import bu_of, entry, get_class
from reader.book_writers import main_dynasties, main_writers, writer_dynasty
from reader.importers.mandoku.paratext import QING, SIKU_EDITIONS
from reader.importers.mandoku.profiles import collection
from reader.catalogue_writers import dynasty_spelling, known_dynasty
from reader.models import Edition, Piece
from reader.people import work_people
from reader.piece_authors import edition_piece_authors
from reader.printed_people import library_dynasties as byline_people, one_person, surname_forms, typed_author
from reader.quoted_names import listed_dynasty
from reader.stamp import KeptPerStamp, corpus_version

from .backends import SearchQuery, SearchResults, WrittenBy, get_search_backend
from .collected import both, kept_parts, quoted_parts
from .documents import CLASSIC, EDITORIAL, MAIN_LAYERS, NOBODYS_UNSIGNED, quoted_part
from .service import edition_places, index_and_corpus_version, run_search

#: The facets, in the order the API and the page give them.
FACETS = ("bu", "class", "dynasty", "author", "edition")
#: The name of an unclassified work's class and 部 in the facets.
UNCLASSIFIED = "未分類"
#: How the search page names the hits of works whose dynasty or author is not known.
UNKNOWN = "未詳"
#: How an edition's collection names the 四庫全書 (``editors_dynasty``), in either script.
SIKU_NAMES = ("四庫", "四库")


@dataclass(frozen=True)
class EditionFacets:
    """What one edition contributes to each facet: ``cls`` (a 類 or 部 code, "" unclassified),
    ``bu`` ("" unclassified), ``authors`` (who wrote its main text) and ``notes_by`` (who wrote
    its notes that name nobody: ``reader.book_writers.main_writers``), ``main_dynasties`` and
    ``notes_dynasties`` (theirs, ``reader.book_writers``; ``()`` unknown), ``slug`` and
    ``name`` (the edition's, as the search page names it), ``people`` (everyone the work's
    catalogue entry, else the edition's byline, names, every role: ``reader.people.work_people``;
    whom a commentator filter reads a typed name among), ``editors_dynasties`` (the dynasty its
    editors' layer was written under, ``editors_dynasty``; ``()`` unknown), ``collector`` and ``quoted``
    (a collected commentary's collector and the men it quotes, ``profiles.collection``: decision 0058),
    ``quoted_dynasties`` (``(man, dynasty)`` of each quoted man: ``quoted_dynasty``; "" unknown)."""

    cls: str
    bu: str
    authors: tuple[str, ...]
    notes_by: tuple[str, ...]
    main_dynasties: tuple[str, ...]
    notes_dynasties: tuple[str, ...]
    slug: str
    name: str
    people: tuple[str, ...] = ()
    editors_dynasties: tuple[str, ...] = ()
    collector: str = ""
    quoted: frozenset = frozenset()
    quoted_dynasties: tuple[tuple[str, str], ...] = ()
    #: The authors its pieces' own bylines name (``reader.piece_authors``: 文選's 班固, 丘遲; decision 0097),
    #: whom its main text's passages name as their writer (``search.documents.passage_writer``).
    piece_authors: tuple[str, ...] = ()


class FacetTable(dict):
    """``{edition id: EditionFacets}``, with ``names``: ``{edition slug: its name}``, as the
    ``edition`` facet names its values."""

    names: dict[str, str]


def editors_dynasty(edition: Edition) -> str:
    """The dynasty the unsigned editors' layer (``EDITORIAL``: a 提要, a 考證, an editors' 按) of
    ``edition`` was written under, "" when the library cannot tell. 清 in a 四庫 copy: Kanripo's
    transcription of a 四庫 print (``kanripo_edition`` WYG, WJG or SKQS:
    ``reader.importers.mandoku.paratext.SIKU_EDITIONS``), a copy whose collection is the 四庫全書
    (``collection``, as the seed's 欽定四庫全書), or a plain-text copy, whose editors' layer is the 四庫
    提要 page alone (``reader.importers.plaintext``: 提要 is the one piece it gives that layer, and
    only after a 四庫 提要 heading). The editors are nobody the book names (decision 0044), but
    the 四庫全書's 提要 date themselves (「乾隆四十六年四月恭校上」) and the 考證 it copied are those of
    the 乾隆 palace edition: every one was written under the 清. Another edition's editors (a 四部叢刊
    print's 校記) are of no dynasty the library knows."""
    if (edition.kanripo_edition in SIKU_EDITIONS or any(name in edition.collection for name in SIKU_NAMES)
            or not (edition.kanripo_id or edition.kanripo_edition or edition.collection)):
        return QING
    return ""


def quoted_dynasty(edition: Edition, man: str) -> str:
    """The dynasty a part of a collected commentary that ``man`` said counts under (decision 0086): the
    one the book's own list of the men it quotes sets him under (``reader.quoted_names.listed_dynasty``:
    前漢書's 敘例, 「應劭字仲瑗…汝南南頓人後漢蕭令」 漢, 「晉灼河南人晉尚書郎」 晉), "" where it lists him with none
    (「臣瓚不詳姓氏及郡縣」); for a man the book lists nowhere (史記集解's, 文選註's) the library's date of him
    (``writer_dynasty``: 鄭玄 漢), "" unknown; never the collector's. Each as the facets show it."""
    for book in dict.fromkeys((edition.kanripo_id, edition.work.kanripo_id)):
        found = listed_dynasty(book, man) if book else None
        if found is not None:
            return dynasty_spelling(found)
    return writer_dynasty(man)


def _read_facet_table() -> FacetTable:
    out = FacetTable()
    places = edition_places()  # the names every list of search gives an edition
    pieces_by = edition_piece_authors()
    for e in Edition.objects.select_related("work"):
        work = e.work
        writers = main_writers(work, e)
        notes_dynasties = tuple(dict.fromkeys(d for d in map(writer_dynasty, writers.notes) if d))
        name = places[e.pk]["full_name"] if e.pk in places else work.title
        collector, quoted = collection(work.title) or ("", frozenset())
        out[e.pk] = EditionFacets(work.classification, bu_of(work.classification), writers.main, writers.notes,
                                  main_dynasties(work, writers), notes_dynasties, e.slug, name,
                                  tuple(p["name"] for p in work_people(work, e)),
                                  tuple(d for d in (editors_dynasty(e),) if d), collector, quoted,
                                  tuple((man, quoted_dynasty(e, man)) for man in sorted(quoted)),
                                  pieces_by.get(e.pk, ()))
    out.names = {f.slug: f.name for f in out.values()}
    return out


#: Kept per index generation and corpus stamp, the two newest (``reader.stamp.KeptPerStamp``:
#: requests answered from the generation before a swap read theirs while the new one warms).
_tables = KeptPerStamp(_read_facet_table, key=index_and_corpus_version, kept=2)


def facet_table() -> FacetTable:
    """``{edition id: EditionFacets}`` for every edition (a ``FacetTable``): one query, kept
    while the index version and the corpus stamp stay the same (a work's class, dynasty or
    author changed in the admin touches the stamp); after a change one thread reads it again
    while the others count from the table before (an edition it does not hold counts under no
    facet, ``facet_counts``); a backend with no version keeps nothing."""
    return _tables.get()


def writer_counts(results: SearchResults | None, per_layer: tuple[list, list] | None = None) -> Counter:
    """``Counter({(edition id, layer, commentator): hits})`` from the results' hits per juan,
    layer and commentator (``SearchResults.layer_counts()``: no database), the juans of an
    edition summed. ``per_layer``: those counts when the caller has them (then ``results`` is
    not read)."""
    heads, counts = per_layer if per_layer is not None else results.layer_counts()
    out: Counter = Counter()
    for (edition, _, layer, commentator), count in zip(heads, counts):
        out[edition, layer, commentator] += count
    return out


def writers(f: EditionFacets, layer: str, commentator: str) -> tuple[str, ...]:
    """Who wrote a passage of ``layer`` naming ``commentator`` in an edition of ``f``: the
    commentator; else the work's main text's authors for the main text (``MAIN_LAYERS``) and
    the writers of its unnamed notes (``notes_by``) for a note; nobody (``()``) for a reader's
    annotation, for front or back matter nobody signs and for the editors' layer (a 提要, a
    考證: ``NOBODYS_UNSIGNED``, decision 0044); a quoted man's part (``search.documents.quoted_part``:
    never the main text naming him, his piece's, decision 0097) his and its collector's (0058)."""
    if commentator:
        return (commentator, f.collector) if quoted_part(layer, commentator, f.quoted) else (commentator,)
    if layer in MAIN_LAYERS:
        return f.authors
    return f.notes_by if layer not in NOBODYS_UNSIGNED else ()


def dynasties_of(f: EditionFacets, layer: str, commentator: str) -> tuple[str, ...]:
    """The dynasties a passage of ``layer`` naming ``commentator`` in an edition of ``f`` counts
    under (``writers``'): the commentator's (``writer_dynasty``); the main text's
    (``main_dynasties``: its authors', else the work's); the editors' layer's, whose writers are
    nobody known but whose time is (``editors_dynasties``: a 四庫 copy's 清); an unnamed note's
    writers'; ``()`` unknown. A quoted man's part of a collected commentary: his own, as the book's list of
    the men it quotes dates him (``quoted_dynasties``, decision 0086), never the collector's."""
    if commentator:
        found = (dict(f.quoted_dynasties).get(commentator, "") if quoted_part(layer, commentator, f.quoted)
                 else writer_dynasty(commentator))
        return (found,) if found else ()
    if layer in MAIN_LAYERS:
        return f.main_dynasties
    if layer == EDITORIAL:
        return f.editors_dynasties
    return f.notes_dynasties if layer not in NOBODYS_UNSIGNED else ()


def typed_writers(typed: str) -> tuple[str, ...]:
    """The author facet's values an author filter typed as ``typed`` stands for
    (``reader.printed_people.typed_author`` among the writers of ``facet_table``: the authors,
    the writers of unnamed notes and everyone the held works name, their commentators among them,
    as a commentator filter reads a name): a whole name by any of its spellings (鄭氏, the 注疏
    bylines' 鄭玄, is 鄭玄 and 鄭氏), else the writers whose names begin with it, each of them (江:
    江永 and 江聲; 鄭: 鄭玄, with the notes stored under 鄭氏), as ``/api/works/?author=`` reads it.
    ``author=鄭`` found only the notes stored under the byline's 鄭氏: 鄭玄, a commentator, was not
    among the names read."""
    return typed_author(typed, _writer_names(facet_table()))


def _writer_names(table) -> set[str]:
    """The names an author filter may name (``typed_writers``): the held works' authors, the
    writers of their unnamed notes and everyone they name."""
    return {name for f in table.values() for name in f.authors + f.notes_by + f.people + f.piece_authors}


def _commentator_names(table) -> set[str]:
    """The names a commentator filter may name (``typed_commentators``): the people the held
    works name (``EditionFacets.people``, every role), the writers of unnamed notes and the men a
    collected commentary quotes."""
    return {name for f in table.values() for name in (*f.people, *f.notes_by, *f.quoted)}


def typed_commentators(typed: str) -> tuple[str, ...]:
    """The commentators a ``commentator`` filter typed as ``typed`` stands for, by the author
    filter's rule (``reader.printed_people.typed_author``) among the people the held works name
    (``_commentator_names``), a name a collected commentary prints a man by read as him
    (``reader.quoted_names.QUOTED_NAMES``: 師古 → 顏師古): a whole name by any of its spellings (范甯 → 范寧), else the
    people whose names begin with it (鄭 → 鄭玄; 呂 → 呂延濟, 呂向 in 六臣註文選), never a dynasty or
    a role word (唐, 注: nobody); a name nothing holds is kept as typed (``typed_people``), which
    keeps nothing (``unknown_people`` tells it). Sorted; ``()`` for "", which reads nothing
    (no filter asks no query)."""
    if not typed:
        return ()
    return typed_author(typed, _commentator_names(facet_table()))


class PersonFilter(NamedTuple):
    """A person filter of the search: ``read(typed)``, the written names a typed value stands for;
    ``named(table)``, the names it may name (``facet_table``'s); ``label``, what the pages call it."""

    read: Callable[[str], tuple[str, ...]]
    named: Callable[[object], set[str]]
    label: str


#: The person filters (``commentator``, ``author``), in the order answers list them.
PERSON_FILTERS = {"commentator": PersonFilter(typed_commentators, _commentator_names, "注者"),
                  "author": PersonFilter(typed_writers, _writer_names, "作者")}
#: At most this many people a value that names nobody is offered (``people_holding``).
MAX_HOLDING = 5


def people_read(cleaned) -> list[dict]:
    """``[{"parameter", "label", "typed", "people"}]``: each value of a person filter
    (``PERSON_FILTERS``, in that order; ``cleaned`` the search form's cleaned data, each filter's
    values as given) that stands for people other than the name as typed, with the names it is
    read as: a courtesy name (``author=班孟堅``: ``["班固"]``), a surname (``commentator=鄭``:
    ``["鄭玄"]``), another spelling (``author=范甯``: ``["范寧"]``). A value that is its one person's
    own name is left out; ``[]`` when every one is."""
    return [{"parameter": key, "label": f.label, "typed": typed, "people": list(people)}
            for key, f in PERSON_FILTERS.items() for typed in cleaned.get(key) or ()
            if (people := f.read(typed)) != (typed,)]


def _read_writers() -> dict[str, bool]:
    """``{name: whether a note names him}`` for everyone a stored piece names as its writer
    (``Piece.commentator``: a commentator the book names by his formula, 楚辭's 洪興祖 by 補曰, whom no
    catalogue entry or byline names; a section's own byline, 楚辭補注's 班孟堅 read as 班固), a note being
    a piece of any layer but the classic: one query over the pieces, kept while the corpus stamp stays
    the same (``_writers``), as ``facet_table`` is."""
    out: dict[str, bool] = {}
    for layer, name in Piece.objects.exclude(commentator="").order_by().values_list("layer", "commentator").distinct():
        out[name] = out.get(name, False) or layer != CLASSIC
    return out


#: Kept while the corpus stamp stays the same (``reader.stamp.KeptPerStamp``).
_writers = KeptPerStamp(_read_writers)


def held_writers() -> frozenset[str]:
    """Everyone a stored piece names as its writer (``_read_writers``), kept per corpus stamp:
    what ``gunicorn.conf.post_worker_init`` warms, so that a worker's first search with a person
    filter asks the pieces nothing."""
    return frozenset(_writers.get())


def _held_names() -> set[str]:
    """The names a person filter's value must read as one of to name somebody the library holds
    (``unknown_people``, ``people_holding``): everyone a held
    work names in any role (both filters' ``PersonFilter.named``: authors, commentators, the writers
    of unnamed notes, the men a collected commentary quotes), everyone a held edition's byline prints
    (``reader.printed_people.library_dynasties``) and every writer a stored piece names
    (``_read_writers``)."""
    table = facet_table()
    return set().union(*(f.named(table) for f in PERSON_FILTERS.values()), byline_people(), held_writers())


def unknown_people(param: str, typed) -> list[str]:
    """The values of ``typed`` (the person filter ``param``'s, ``commentator`` or ``author``, as
    given) that name nobody the library holds: none of the people the filter reads it as
    (``PersonFilter.read``: ``typed_commentators``, ``typed_writers``) is among the names it may
    name (``_held_names``). Such a value is a 400 naming it, alone or among several, as a work or
    juan that names nothing is (``search.forms``): alone it answered a 200 with nothing found, and
    among several the union dropped it silently (``author=江永&author=nobody``). ``[]`` with
    nothing read when ``typed`` is empty (a search with no person filter asks no query)."""
    if not typed:
        return []
    named = _held_names()
    read = PERSON_FILTERS[param].read
    return [value for value in typed if not named.intersection(read(value))]


def note_writers() -> set[str]:
    """Everyone the library holds a note by: the writers of a held edition's unnamed notes, the men a
    collected commentary quotes and its collector, the people a work names who are not its main text's
    authors (周禮注疏's 鄭玄, 楚辭補注's 洪興祖), every writer a stored note names (``_read_writers``).
    Not a main text's author alone (楚辭's 屈原, decision 0106): what a commentator filter is offered."""
    people = {n for f in facet_table().values() for n in (*f.notes_by, *f.quoted, f.collector,
                                                          *(p for p in f.people if p not in f.authors)) if n}
    return people | {name for name, of_notes in _writers.get().items() if of_notes}


def people_holding(typed: str, param: str = "author") -> list[str]:
    """The names that hold ``typed`` and are longer (``commentator=玄``: 鄭玄), sorted, at most ``MAX_HOLDING``:
    what a value of the person filter ``param`` that names nobody is offered; for ``author`` every name the
    library holds (``_held_names``), for ``commentator`` its note writers (``note_writers``: 屈 no 屈原)."""
    names = note_writers() if param == "commentator" else _held_names()
    return sorted(name for name in names if typed in name and name != typed)[:MAX_HOLDING]


#: How a facet filter's value, as typed, reads as values of its facet (``filter_values``): an
#: author is the written names of the people it stands for (``typed_writers``, typed with no
#: dynasty: 范甯, and 范寗 where a byline prints him with 晉, are 范寧; 劉昞 is not the
#: catalogue's 劉炳; 衛湜, which nobody is written with, is 衞湜; a surname, 江, is every writer
#: whose name begins with it); a dynasty as the facet shows it (淸 is 清, 劉宋 is 南朝宋:
#: ``reader.catalogue_writers.dynasty_spelling``); a facet not named here reads its value as typed.
TYPED_VALUES = {"author": typed_writers, "dynasty": lambda typed: (dynasty_spelling(typed),)}


def filter_value(param: str, typed: str) -> str:
    """The value ``typed`` of the filter ``param`` (``class``, ``dynasty``, ``author``,
    ``edition``) as its facet names it (``TYPED_VALUES``): the one value it stands for (an author
    written two ways, the byline's 鄭氏 and the catalogue's 鄭玄, by the catalogue's name:
    ``reader.printed_people.one_person``), else ``typed`` itself (a name that stands for several
    people, as a chip names it)."""
    read = TYPED_VALUES.get(param)
    values = read(typed) if read else (typed,)
    if len(values) == 1:
        return values[0]
    return (one_person(values) if param == "author" else "") or typed


def filter_values(param: str, typed) -> tuple[str, ...]:
    """Every value each of ``typed`` stands for (``TYPED_VALUES``), each once, in the order given."""
    read = TYPED_VALUES.get(param)
    return tuple(dict.fromkeys(v for x in typed for v in (read(x) if read else (x,))))


def edition_dynasties(f: EditionFacets) -> frozenset[str]:
    """Every dynasty a hit in an edition of ``f`` can count under (``dynasties_of``) by who wrote
    it: its main text's, its unnamed notes' and those of the people its catalogue entry or byline
    names (``writer_dynasty``: its commentators among them) and the men a collected commentary quotes
    (``quoted_dynasties``). Not its editors' (``editors_dynasties``):
    every 四庫 copy's 提要 is 清's, and a works list filtered by 清 lists the works 清 writers wrote or
    annotated, not every book the 四庫 editors described."""
    return frozenset(f.main_dynasties) | frozenset(f.notes_dynasties) | {
        d for d in map(writer_dynasty, f.people) if d} | {d for _, d in f.quoted_dynasties if d}


def library_dynasties() -> tuple[str, ...]:
    """The dynasties the library's editions count hits under (``edition_dynasties`` of each),
    in code-point order: what an unknown ``dynasty`` filter is told to choose from."""
    return tuple(sorted(set().union(*map(edition_dynasties, facet_table().values()))))


def works_of_dynasties(typed) -> set[int]:
    """The ids of the works one of whose editions counts hits under one of the dynasties
    ``typed`` (as the dynasty filter reads them, ``filter_values``; ``edition_dynasties``): the
    works a search filtered by them can find, its authors', commentators' or other writers'."""
    wanted = set(filter_values("dynasty", typed))
    editions = [pk for pk, f in facet_table().items() if wanted & edition_dynasties(f)]
    return set(Edition.objects.filter(pk__in=editions).values_list("work_id", flat=True))


def unknown_dynasties(typed) -> list[str]:
    """The values of ``typed`` that name no dynasty at all (``reader.catalogue_writers.known_dynasty``:
    火星); a dynasty the library holds no writer of (元 in a library of 清 books) is known, and
    finds nothing."""
    return [x for x in typed if not known_dynasty(x)]


def unknown_dynasty_message(unknown: list[str]) -> str:
    """The error for ``dynasty`` values that name no dynasty: both languages, naming the
    library's dynasties (``library_dynasties``)."""
    held = "、".join(library_dynasties()) or "—"
    return (f"沒有「{'、'.join(unknown)}」這個朝代；本館所收：{held} (not a dynasty: {', '.join(unknown)}; "
            f"the library's dynasties are {held})")


def matches(f: EditionFacets, classes=()) -> bool:
    """Whether an edition passes the class filter: one of ``classes`` is its 類 or its 部. An
    empty filter passes."""
    return not classes or f.cls in classes or f.bu in classes


def editions_for(classes=()) -> tuple[int, ...] | None:
    """The edition ids that pass the class filter (sorted), None when none is given: a class
    filter is an edition filter, which every engine has."""
    if not classes:
        return None
    return tuple(sorted(pk for pk, f in facet_table().items() if matches(f, classes)))


def written_by_for(authors=(), dynasties=(), per_writer: Counter | None = None) -> WrittenBy | None:
    """The passage filter (``SearchQuery.written_by``) that keeps the hits the author facet
    counts under any of ``authors`` and the dynasty facet under any of ``dynasties`` (each as
    typed: ``filter_values``), None when neither is given: the notes naming them (or a
    commentator of those dynasties), the main text and the unnamed notes of the editions whose
    writers they are (``writers``, ``dynasties_of``). A dynasty filter names the commentators
    of those dynasties that ``per_writer`` holds (the ``writer_counts`` of the search without
    its facet filters: a commentator with no hit there has none to keep; required with
    ``dynasties``), and the editors' layer of the editions whose editors wrote under them
    (``editors_dynasty``); an author filter keeps no editors' layer (nobody known's). Both given:
    the passages both keep. Neither given: None, with no table read (a search with no facet
    filter touches neither the database nor the index here)."""
    if not authors and not dynasties:
        return None
    quoted = quoted_parts(table := facet_table())
    kept = []
    if authors:
        wanted = set(filter_values("author", authors))
        kept.append(WrittenBy(tuple(sorted(wanted)),
                              tuple(sorted(pk for pk, f in table.items() if wanted.intersection(f.authors))),
                              tuple(sorted(pk for pk, f in table.items() if wanted.intersection(f.notes_by))),
                              (), quoted, kept_parts(quoted, table, wanted, writers)))
    if dynasties:
        wanted = set(filter_values("dynasty", dynasties))
        names = {who for pk, _, who in per_writer if who and (pk, who) not in quoted and writer_dynasty(who) in wanted}
        kept.append(WrittenBy(tuple(sorted(names)),
                              tuple(sorted(pk for pk, f in table.items() if wanted.intersection(f.main_dynasties))),
                              tuple(sorted(pk for pk, f in table.items() if wanted.intersection(f.notes_dynasties))),
                              tuple(sorted(pk for pk, f in table.items() if wanted.intersection(f.editors_dynasties))),
                              quoted, kept_parts(quoted, table, wanted, dynasties_of)))
    return both(*kept)


def _class_name(code: str) -> str:
    found = get_class(code)
    return found.name if found else UNCLASSIFIED


def facet_counts(results: SearchResults | None, classes=(), dynasties=(), authors=(),
                 per_writer: Counter | None = None) -> dict[str, list[dict]]:
    """``{"bu": [...], "class": [...], "dynasty": [...], "author": [...], "edition": [...]}``:
    each a list of ``{"value", "count"}`` (``bu``, ``class`` and ``edition`` with ``"name"`` too),
    most hits first, then by value. ``results`` are those of the query without the facet filters;
    each facet counts the hits that pass the other facets' filters, so that every value of the
    facet one filters by stays in view with its count (the usual way of faceted search). The
    author facet counts each hit under who wrote the layer it is in (``writers``; a hit of a main
    text of several authors under each), the dynasty facet under his dynasty (``dynasties_of``);
    a value's count is the total of the search filtered by it (``written_by_for``). An unclassified work's hits count under class and 部 "" (named
    ``UNCLASSIFIED``); an unknown dynasty or author under "". ``per_writer``: the results'
    ``writer_counts``, when the caller has them (then ``results`` is not read)."""
    table = facet_table()
    if per_writer is None:
        per_writer = writer_counts(results)
    bu, cls, dynasty, author, edition = (Counter() for _ in FACETS)
    wanted = set(filter_values("author", authors))
    wanted_dynasties = set(filter_values("dynasty", dynasties))
    # a note stored under a byline's surname form counts under the person it names (鄭氏: 鄭玄)
    named = {form: next(iter(people)) for form, people in surname_forms().items() if len(people) == 1}
    passes: dict = {}
    for (pk, layer, commentator), count in per_writer.items():
        f = table.get(pk)
        if f is None:
            continue
        # each facet counts the hits that pass the other facets' filters
        if pk not in passes:
            passes[pk] = matches(f, classes)
        in_class = passes[pk]
        people = tuple(named.get(p, p) for p in writers(f, layer, commentator))
        times = dynasties_of(f, layer, commentator)
        in_author = not wanted or not wanted.isdisjoint(people)
        in_dynasty = not wanted_dynasties or not wanted_dynasties.isdisjoint(times)
        if in_dynasty and in_author:
            bu[f.bu] += count
            cls[f.cls] += count
        if in_class and in_author:
            for d in times or ("",):
                dynasty[d] += count
        if in_class and in_dynasty:
            for a in people or ("",):
                author[a] += count
            if in_author:
                edition[f.slug] += count
    names = table.names
    return {"bu": _rows(bu, _class_name), "class": _rows(cls, _class_name), "dynasty": _rows(dynasty),
            "author": _rows(author), "edition": _rows(edition, lambda slug: names.get(slug, slug))}


def _by_count(item: tuple) -> tuple:
    return -item[1], item[0]


def _rows(counter: Counter, name=None) -> list[dict]:
    """``[{"value", "count"}]`` (``"name"`` between them when ``name`` is given), most first."""
    ordered = sorted(counter.items(), key=_by_count)
    if name is None:
        return [{"value": value, "count": count} for value, count in ordered]
    return [{"value": value, "name": name(value), "count": count} for value, count in ordered]


#: How many unfiltered searches ``unfaceted_writer_counts`` keeps the counts of.
UNFACETED_KEEP = 512
_unfaceted: OrderedDict = OrderedDict()
_unfaceted_lock = threading.Lock()


def unfaceted_writer_counts(query: SearchQuery, results: SearchResults | None = None) -> Counter:
    """``writer_counts`` of the search ``query`` without its facet filters, which a faceted
    search counts its facets from. A reader who narrows a search by a facet (a 類, then a
    dynasty) asks for the same unfiltered search with every click, so the counts of the last
    ``UNFACETED_KEEP`` such searches are kept in process memory, keyed by the query, the
    index version and the corpus stamp (as ``facet_table``; nothing is kept for a backend
    that has no version): only the first filtered search of a query searches twice
    (``search.service.run_search``). ``results``: the query's own results when the caller has
    them (an unfiltered search, whose counts are then kept for the filtered ones that follow)."""
    version = get_search_backend().version()
    key = (version, corpus_version(), query)
    if version is not None:
        with _unfaceted_lock:
            found = _unfaceted.get(key)
            if found is not None:
                _unfaceted.move_to_end(key)
                return found
    counts = writer_counts(results if results is not None else run_search(query))
    if version is not None:
        with _unfaceted_lock:
            _unfaceted[key] = counts
            _unfaceted.move_to_end(key)
            while len(_unfaceted) > UNFACETED_KEEP:
                _unfaceted.popitem(last=False)
    return counts


#: How many facet answers (a query and its facet filters) ``search_facet_counts`` keeps: one
#: for 之 on the 107 M library (93 editions, 107 authors) holds about 54 KB.
FACETS_KEEP = 128
_counted: OrderedDict = OrderedDict()


def search_facet_counts(form, results: SearchResults) -> dict[str, list[dict]]:
    """``facet_counts`` of a valid search form (``search.forms.SearchForm``) and its results:
    counted from the search without the facet filters (``unfaceted_writer_counts``), which
    is ``results`` themselves when the form has no facet filter (its query then is the
    results' own, not parsed again). The answers of the last ``FACETS_KEEP`` queries and
    filters are kept as the unfiltered counts are (a query's next page has the same facets):
    the caller must not change the dict or its lists."""
    filters = form.cleaned_data["facet_filters"]
    filtered = form.facets_filtered()
    query = form.search_query(unfaceted=True) if filtered else results.query
    version = get_search_backend().version()
    key = (version, corpus_version(), query, *(tuple(filters[name]) for name in ("classes", "dynasties", "authors")))
    if version is not None:
        with _unfaceted_lock:
            found = _counted.get(key)
            if found is not None:
                _counted.move_to_end(key)
                return found
    per_writer = unfaceted_writer_counts(query) if filtered else unfaceted_writer_counts(query, results)
    counted = facet_counts(None, per_writer=per_writer, **filters)
    if version is not None:
        with _unfaceted_lock:
            _counted[key] = counted
            while len(_counted) > FACETS_KEEP:
                _counted.popitem(last=False)
    return counted
