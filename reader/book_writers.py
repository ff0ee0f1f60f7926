"""Who wrote each layer of a book, and each writer's dynasty: what the search facets count a hit
under (``search.facets``; docs/decisions/0020-catalogue-classes-and-facets-from-the-index.md).

A note names its writer per passage (``Piece.commentator``, the index's
``SearchDocument.commentator``: 杜預's 注, 孔穎達's 疏). A passage naming nobody is written by the
book's people: its main text (the classic, its records, its titles) by the work's own authors
(``main_writers``), its notes naming nobody by the people ``main_writers`` gives as their writers.

**The main text's author is never the commentator.** Kanripo's catalogue and the bylines often
name a commentary book's commentator as its only author (史記集解: 「裴駰撰」; 楚辭章句: 王逸 撰;
水經注: 酈道元 撰; 道德真經註: 河上公): the book is named after its notes
(``reader.commented_classic.COMMENTARY_TITLE``: a title ending in 注, 註, 集解, 章句, 索隱, 正義,
疏 …), and what he 撰 is the notes. Then the
book's named authors wrote its notes, and its main text is the classic's author's, as the
catalogue lists the classic it comments on (``reader.commented_classic.classic_of``, the layer
check's rule: 史記集解 → 史記: 司馬遷 撰), less those commentators (楚辭章句 → 楚辭: 王逸 編, the
commentator again: nobody), else nobody known (莊子注: the catalogue lists 莊子 as 南華真經).

**A writer's dynasty** (``writer_dynasties``) is one map of every name the index can store (each
person by one name, ``reader.person_names.person_name``) to one dynasty: what the held editions'
catalogue entries and bylines print with him (〔唐〕孔穎達, 〔漢〕鄭玄), else what the catalogue
prints with him for its other works (應劭, 如淳 quoted in 漢書's notes). Where the data print
one name with several dynasties, the one printed by the most held editions wins, then the
catalogue's most works, then the earlier spelling in code-point order (the importer's rule too:
``reader.catalogue_writers.choose_dynasty``; docs/decisions/0038): 李賢 is 唐 (後漢書's 章懷太子)
though the catalogue also lists a 明 李賢. A dynasty is written as the facets show it
(``reader.catalogue_writers.dynasty_spelling``: 淸 is 清, 劉宋 is 南朝宋), a held work's catalogue people's
as every page shows them (``shown_people``: 後漢書's 范曄 is 南朝宋, decision 0084); 闕名 (anonymous) has none.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache
from typing import NamedTuple

from catalogue.catalogue import entry

from .catalogue_writers import (all_entries, choose_dynasty, dynasty_spelling, shown_people, writes_main_text,
                                written_dynasties)
from .commented_classic import classic_of, commentary_word, plain_text_author
from .importers.mandoku.profiles import INDENT_LAYERS, MARKED_BLOCKS, PROFILES, title_key
from .models import Edition
from .people import work_dynasty, work_people
from .person_names import person_name
from .stamp import KeptPerStamp

#: Names that say nobody is known (the catalogue's 闕名 of many dynasties): no dynasty.
NOBODY = frozenset({"闕名", "佚名", "無名氏"})


@lru_cache(maxsize=1)
def _by_title() -> dict[str, tuple]:
    """``{title: the people of the catalogue's first work of that title}``, read once."""
    out: dict[str, tuple] = {}
    for listed in all_entries():
        out.setdefault(listed.title, listed.people)
    return out


def profile_writers(title: str) -> frozenset[str]:
    """The commentators the importer names the notes of the book titled ``title`` after, by its
    profile (``reader.importers.mandoku.profiles``: ``PROFILES``, ``INDENT_LAYERS``,
    ``MARKED_BLOCKS``, the title read by ``title_key``: 史记集解 as 史記集解): 楚辭 王逸 and 洪興祖, 史記集解
    裴駰, 水經注 酈道元; empty for a book with none."""
    key = title_key(title or "")
    voices = [v for p in PROFILES if key in p.titles for v in (p.default, *p.formulas.values()) if v is not None]
    voices += [INDENT_LAYERS[key]] if key in INDENT_LAYERS else []
    voices += list(MARKED_BLOCKS.get(key, {}).values())
    return frozenset(v.commentator for v in voices if v.commentator)


def book_people(work, edition) -> list[tuple[str, str, str]]:
    """``[(name, role, dynasty)]``: the work's people as its page and the API name them, by one
    rule (``reader.people.work_people``): the catalogue's people, one it lists with no role taking
    the role (and dynasty) the edition's byline prints for him (南華真經註疏: 郭象 注, 〔唐〕成玄英 䟽);
    else the byline's; else ``Work.author``."""
    return [(p["name"], p["role"], p["dynasty"]) for p in work_people(work, edition)]


class BookWriters(NamedTuple):
    """Who wrote a book's layers (``main_writers``): ``main`` its main text, ``notes`` its notes
    that name nobody, each person by one name; ``commentary_book``: the people the catalogue or
    the byline names as its authors are its commentators (楚辭章句, 史記集解, 水經注), or it names
    commentators only (周禮注疏, 莊子注), so its dynasty (theirs) says nothing of its main
    text's (``main_dynasties``)."""

    main: tuple[str, ...]
    notes: tuple[str, ...]
    commentary_book: bool = False


def main_writers(work, edition) -> BookWriters:
    """``BookWriters`` of an edition's work, each person by one name (``person_name``):
    ``main``, who wrote its main text; ``notes``, who wrote its notes that name nobody (``()``
    where the work names a commentator: such a note's writer is not known). The people named
    with an author's role (``reader.catalogue_writers.writes_main_text``) wrote the main text (左丘明 撰 for 春秋左傳注疏,
    not 杜預 注) and, in a work naming no commentator, its notes (王昭禹's 周禮詳解 aside, below).
    But where the book is named after its notes (``commentary_word``, its title or the
    catalogue's) and its people all have an author's role, they wrote the notes, and the main
    text is the classic's authors' by the catalogue (``classic_of``). Where it names
    people but none with an author's role (周禮注疏: 鄭玄 注, 賈公彥 疏; 莊子注: 郭象 注), they are
    all commentators: the main text is the classic's authors' likewise (``()`` for 周禮, which
    the catalogue lists under its 注 alone), and it is a commentary book (``commentary_book``),
    whose catalogue dynasty is its commentators'. And nobody the
    importer names a note layer after (``profile_writers``) is the main text's author (module
    docstring: 楚辭章句 王逸, 楚辭補注 王逸 and 洪興祖, 史記集解 裴駰). A classic's own text whose
    author is the one its commentaries' entry names (``plain_text_author``: 春秋左傳(正文), 左丘明)
    has its main text by him and its notes by nobody known: he wrote the classic, not the notes an
    edition of it adds (the tls 左傳's years, 「(722 B.C.)」)."""
    people = book_people(work, edition)
    named = [person_name(name, [dynasty] if dynasty else None) for name, _, dynasty in people]
    authors = tuple(dict.fromkeys(n for n, (_, role, _) in zip(named, people) if writes_main_text(role)))
    listed = entry(work.kanripo_id) or entry(edition.kanripo_id)
    titles = (work.title, listed.title if listed else "")
    commentators = {person_name(n) for t in titles for n in profile_writers(t)}
    own = tuple(n for n in authors if n not in commentators)
    if listed is not None and plain_text_author(listed.kr_id) is not None:
        return BookWriters(own, ())
    if people and not authors:
        return BookWriters(_classic_authors(titles, commentators, work, listed), (), True)
    if not people or not all(writes_main_text(role) for _, role, _ in people):
        return BookWriters(own, (), bool(authors) and not own)
    if not any(map(commentary_word, titles)):
        return BookWriters(own, own, bool(authors) and not own)
    return BookWriters(_classic_authors(titles, {*authors, *commentators}, work, listed), authors, True)


def _classic_authors(titles, others, work, listed) -> tuple[str, ...]:
    """The authors (``writes_main_text``) the catalogue lists for the classic the first of
    ``titles`` that names one comments on (``classic_of``, in ``work``'s 類, the catalogue entry
    ``listed`` its own or None: 史記集解 → 史記's 司馬遷), each by one name, less ``others``; ``()``
    where no title names a classic or the catalogue lists no author of it (周禮注疏 → 周禮: 鄭玄 注
    only; 莊子注: none)."""
    kanripo_id = listed.kr_id if listed is not None else ""
    classic = next((c for t in titles if (c := classic_of(t, work.classification, kanripo_id))), "")
    theirs = _by_title().get(classic, ()) if classic else ()
    main = dict.fromkeys(person_name(p.name, [p.dynasty] if p.dynasty else None)
                         for p in theirs if writes_main_text(p.role))
    return tuple(n for n in main if n not in others)


def _read_writer_dynasties() -> dict[str, str]:
    held: dict[str, Counter] = defaultdict(Counter)
    for kanripo_id, work_id, byline in Edition.objects.values_list("kanripo_id", "work__kanripo_id", "byline"):
        listed = entry(work_id) or entry(kanripo_id)
        people = {(p.name, p.dynasty, shown.dynasty) for p, shown in zip(listed.people, shown_people(listed.people))} \
            if listed else set()
        people |= {(p.get("name", ""), p.get("dynasty", ""), p.get("dynasty", "")) for p in byline or ()}
        for name, dynasty, as_shown in people:
            if name and dynasty:
                held[person_name(name, [dynasty])][dynasty_spelling(as_shown)] += 1
    listed = written_dynasties()
    return {name: choose_dynasty(held.get(name, Counter()), listed.get(name, Counter()))
            for name in set(held) | set(listed) if name not in NOBODY}


_kept = KeptPerStamp(_read_writer_dynasties)


def writer_dynasties() -> dict[str, str]:
    """``{name written: dynasty}`` for every person the held editions' catalogue entries and
    bylines or the catalogue name with a dynasty (module docstring): one query, kept while the
    corpus stamp stays the same (``reader.stamp.KeptPerStamp``: after a change, one thread
    reads it again)."""
    return _kept.get()


def writer_dynasty(name: str) -> str:
    """The dynasty of the person written ``name`` (``writer_dynasties``); "" when unknown."""
    return writer_dynasties().get(name, "") if name else ""


def main_dynasties(work, writers: BookWriters) -> tuple[str, ...]:
    """The dynasties a book's main text counts under: its authors' (``writer_dynasty``), the
    work's (``work_dynasty``, as the catalogue writes it) where no author is named or the
    map knows none of them, but not a commentary book's (``BookWriters.commentary_book``: the
    catalogue gives 楚辭章句 王逸's 漢, 水經注 酈道元's 後魏); ``()`` when nothing is known."""
    found = tuple(dict.fromkeys(d for d in map(writer_dynasty, writers.main) if d))
    if found or writers.commentary_book:
        return found
    own = dynasty_spelling(work_dynasty(work))
    return (own,) if own else ()
