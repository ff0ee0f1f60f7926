"""The quotation map of a juan (引文地圖): for each section, the places in the library that
carry its main text, exactly as ``collation.parallels.find_parallels`` finds them section by
section, with the work shared across the juan's sections.

* every distinct probe (``parallels.probe_weights``) of the whole juan is looked up in the
  index at once (``parallels.probes_holding``: the search layer's batched look-up, one pass
  of the positional index), and each section's candidates are counted and ranked from those
  look-ups (``parallels.ranked_candidates``: same probes, same weights, same order);
* the candidates of every section are read from the database together
  (``parallels.candidate_pieces``), and each candidate text is folded once, its n-grams
  collected once, whichever sections it is a candidate of (``parallels.CandidateText``);
* the sections kept are read with their juan, edition and work in one query;
* the character-by-character differences of each place (``collation.align.align``) are left
  out unless asked for (``sites``): the map lists where the text is, not how it differs.

A section with less than ``parallels.MIN_SPAN`` characters of main text has no row of
places (as on its own page). ``tests/test_quotations.py`` checks that every row equals
``find_parallels`` on the section, for every search engine.
"""
from __future__ import annotations

from django.db.models import Sum
from django.db.models.functions import Length

from reader.importers.document import TEXT
from reader.models import Piece, Section, count_siblings
from search.backends import get_search_backend

from .parallels import (MIN_SPAN, Parallel, best_places, candidate_pieces, candidate_texts, kept_places, parallels_from,
                        probe_weights, probes_holding, ranked_candidates)


def section_texts(juan) -> list[tuple[Section, str]]:
    """``[(section, main text), ...]`` of ``juan`` in order: each section's ``text`` pieces
    joined (its notes left out, as ``parallels.section_main_text``), in two queries."""
    sections = list(juan.sections.order_by("position"))
    texts: dict[int, list] = {}
    for section_id, text in Piece.objects.filter(section__juan=juan, kind=TEXT).order_by(
            "section__position", "position").values_list("section_id", "text"):
        texts.setdefault(section_id, []).append(text)
    for s in sections:
        s.juan = juan
    return [(s, "".join(texts.get(s.pk, []))) for s in sections]


#: Characters of main text whose sections' candidates are looked up and read together: a map
#: is made batch by batch, each batch's probes, candidate sections and their folded texts and
#: n-grams dropped before the next, so that a juan's size bounds the time a map takes but not
#: the memory it holds (a candidate read by two batches is read twice). Measured in
#: docs/performance.md (quotation map of a large juan).
BATCH_CHARS = 20_000


def batches(rows: list[tuple[Section, str]], chars: int = BATCH_CHARS) -> list[list[tuple[Section, str]]]:
    """``rows`` (``section_texts``) cut in order into runs of sections whose main text adds up
    to ``chars`` characters at most (a longer section is a run of its own); ``[]`` for none."""
    out, size = [], 0
    for row in rows:
        if not out or size + len(row[1]) > chars:
            out.append([])
            size = 0
        out[-1].append(row)
        size += len(row[1])
    return out


def main_text_chars(juan) -> int:
    """Characters (code points) of ``juan``'s main text: its sections' ``text`` pieces, notes
    left out, as ``section_texts`` joins them; one query, no text read."""
    return Piece.objects.filter(section__juan=juan, kind=TEXT).aggregate(n=Sum(Length("text")))["n"] or 0


def juan_parallels(juan, backend=None, limit: int = 50, sites: bool = False,
                   batch_chars: int = BATCH_CHARS) -> list[tuple[Section, list[Parallel]]]:
    """``[(section, [Parallel, ...]), ...]`` for every section of ``juan`` in order: the
    parallels ``find_parallels(main text, exclude=the section, limit=limit, own_work=the juan's
    work)`` gives, in its
    order (``[]`` for a section with less than ``MIN_SPAN`` characters of main text).
    ``backend``: the default search backend when None; ``sites``: also align each place
    character by character (``Parallel.sites``; left empty otherwise); ``batch_chars``: the
    sections are looked up ``batches`` of that many characters at a time (the rows are the
    same whatever it is). Raises ``config.budget.BudgetExceeded`` past the request's deadline,
    as ``find_parallels``."""
    backend = backend or get_search_backend()
    rows = section_texts(juan)
    found: dict[int, list] = {}
    for batch in batches(rows, batch_chars):
        found.update(_batch_places(juan, batch, backend, limit))
    kept = {row[1] for places in found.values() for row in places}
    sections = Section.objects.select_related("juan__edition__work", "chapter").in_bulk(sorted(kept))
    count_siblings(s.juan.edition for s in sections.values())  # each column names its edition (cited_name)
    return [(s, parallels_from(text, found[s.pk], sections, sites) if s.pk in found else []) for s, text in rows]


def _batch_places(juan, rows: list[tuple[Section, str]], backend, limit: int) -> dict[int, list]:
    """``{section id: kept_places(best_places(...), limit, the juan's work)}`` for the sections of ``rows`` (one of
    ``batches``) that have candidates: every distinct probe of the batch looked up in the index
    at once (one pass on the positional engine), each candidate text folded once for the batch."""
    weights = {s.pk: probe_weights(text) for s, text in rows if len(text.strip()) >= MIN_SPAN}
    holding = probes_holding(list(dict.fromkeys(g for w in weights.values() for g, _ in w)), backend).__getitem__
    ranked = {}
    for s, text in rows:
        if s.pk in weights:
            ranked[s.pk] = ranked_candidates(text, (juan.edition_id, juan.number, s.position), holding=holding)
    stored = candidate_pieces(key for keys in ranked.values() for key in keys)
    prepared: dict[tuple, tuple | None] = {}

    def texts_of(key):
        if key not in prepared:
            prepared[key] = (stored[key][0], candidate_texts(stored[key][1])) if key in stored else None
        return prepared[key]

    return {s.pk: kept_places(best_places(text, ranked[s.pk], texts_of), limit, juan.work_id)
            for s, text in rows if ranked.get(s.pk)}
