"""A collected commentary in search (docs/decisions/0058): 前漢書's 注 collected by 顏師古, 史記集解
collected by 裴駰, each quoted man's part naming him (``Piece.commentator``: 應劭, 徐廣) in a layer
whose writer is the collector. The passage filters (``WrittenBy``) that keep a quoted part by its
collection's rule: ``search.facets`` builds the author and dynasty filters with them, the search
form the commentator filter (``commentator_filter``). Pure: the facet table is passed in."""
from __future__ import annotations

from reader.pieces import COMMENTARY

from .backends import WrittenBy


def quoted_parts(table) -> tuple[tuple[int, str], ...]:
    """``WrittenBy.quoted``: every ``(edition id, name)`` of a quoted man's part of a collected
    commentary in ``table`` (``EditionFacets.quoted``), sorted."""
    return tuple(sorted((pk, who) for pk, f in table.items() for who in f.quoted))


def kept_parts(quoted, table, wanted: set, values) -> tuple[tuple[int, str], ...]:
    """``WrittenBy.collected``: the pairs of ``quoted`` (``quoted_parts``) whose part a facet
    counts under one of ``wanted``, its values ``values(edition facets, COMMENTARY, name)``
    (``search.facets.writers``: the man and his collector; ``dynasties_of``: the man's own, decision 0086)."""
    return tuple((pk, who) for pk, who in quoted if wanted.intersection(values(table[pk], COMMENTARY, who)))


def both(*kept: WrittenBy | None) -> WrittenBy | None:
    """The ``WrittenBy`` that keeps the passages each of ``kept`` keeps (None: no filter), None
    when none is given: names and editions in all of them, the same ``quoted`` parts (all are
    made from one ``facet_table``), kept when each keeps them."""
    given = [w for w in kept if w is not None]
    if not given:
        return None
    out = given[0]
    for other in given[1:]:
        fields = [tuple(sorted(set(x).intersection(y))) for x, y in zip(out, other)]
        fields[4] = tuple(sorted(set(out.quoted) | set(other.quoted)))
        out = WrittenBy(*fields)
    return out


def commentator_filter(people: tuple[str, ...], table) -> WrittenBy | None:
    """The commentator filter (``commentator=``, the names ``typed_commentators`` gives) as a
    ``WrittenBy`` where one of ``people`` collected a commentary the library holds (decision
    0058): his parts and the quoted men's parts of his collection (``commentator=裴駰`` finds
    the whole 史記集解, 徐廣's parts too), and every other part naming one of ``people``
    (``commentator=徐廣`` finds 徐廣's parts of 史記集解 without it); None where nobody of
    ``people`` collected one (``SearchQuery.commentator`` then filters by the names alone).
    ``table``: ``search.facets.facet_table()``."""
    wanted = set(people)
    if not any(f.collector in wanted for f in table.values() if f.collector):
        return None
    quoted = quoted_parts(table)
    return WrittenBy(tuple(sorted(wanted)), quoted=quoted,
                     collected=tuple((pk, who) for pk, who in quoted if who in wanted or table[pk].collector in wanted))
