"""Marking search hits on reading pages, with the search's own passages and analysis.

``apply_highlights`` gives every piece ``segments`` — ``[(text, marked), ...]`` that
join to the piece's text — plus ``tag_segments`` for a note's source tag and ``has_mark``
(a hit falls in the piece: a hidden or folded note holding one is shown open), and every
section ``title_segments`` and chapter ``title_segments``/``category_segments``.
Hits are found by ``search.matching.match_passage`` on ``search.documents`` passages,
exactly as the index finds them, so a phrase running across a note is marked in both
of its pieces. Offsets are code points: characters outside the BMP stay whole. ``found``, when
given, counts the hits' characters that differ from the query's by how they were found, in the
words the hit list's titles use (``search.hints.marked_runs``: 簡體「后」讀作「後」).
"""
from __future__ import annotations

import bisect
from collections import Counter
from functools import lru_cache

from config.budget import check
from characters.simplified import TRADITIONAL
from search.hints import marked_runs
from search.matching import match_passage, match_runs
from search.documents import chapter_passages, section_passages
from search.query import ParsedQuery

#: What to narrow when highlighting runs out of time.
ADVICE = "Highlight a rarer word (hl=), or read a long section one page at a time (?page=)."


def _segments(text: str, marks: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    out, pos = [], 0
    for start, end in sorted(marks):
        if start > pos:
            out.append((text[pos:start], False))
        out.append((text[start:end], True))
        pos = end
    if pos < len(text) or not out:
        out.append((text[pos:], False))
    return out


#: Work done by ``_distribute`` since start-up: (part, span) pairs visited. Tests read it to
#: check that highlighting is linear (a section of n pieces with m hits costs at most
#: about n + 2m, not n × m as it once did: 1,318 s for one 2 MB line).
STEPS = {"pairs": 0}


def _distribute(passage, spans, marks: dict) -> None:
    """Cut the passage's hit spans at part boundaries into per-part marks.

    ``passage.parts`` are in increasing ``start`` order and ``spans`` are sorted and do not
    overlap (``match_passage``), so each span starts at the part found by bisection and
    runs over the parts it covers: O(parts + spans) with a log factor, never parts × spans."""
    parts = passage.parts
    starts = [part.start for part in parts]
    for start, end in spans:
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        while i < len(parts) and parts[i].start < end:
            part = parts[i]
            STEPS["pairs"] += 1
            if not STEPS["pairs"] % 1000:
                check("marking the highlighted words", ADVICE)
            lo, hi = part.start, part.start + part.length
            s, e = max(start, lo), min(end, hi)
            if s < e:
                marks.setdefault((id(part.piece), part.what), []).append((s - lo, e - lo))
            i += 1


@lru_cache(maxsize=4096)
def _found_titles(match: str, parsed: ParsedQuery, script: str) -> tuple[str, ...]:
    """The titles of a hit's characters found through a query character they differ from
    (``search.hints.marked_runs``); kept, as a page's hits mostly repeat a few texts (之, 后)."""
    return tuple(run["title"] for run in marked_runs(match_runs(match, parsed, script)) if run["title"])


def _count_found(found: Counter | None, text: str, spans, parsed: ParsedQuery, script: str) -> None:
    """Add to ``found`` each marked character of the hits ``spans`` of ``text`` found through a
    query character it differs from, by its title (``_found_titles``)."""
    if found is None:
        return
    for start, end in spans:
        found.update(_found_titles(text[start:end], parsed, script))


def apply_highlights(chapter_views, parsed: ParsedQuery | None, exact: bool = False, script: str = TRADITIONAL,
                     found: Counter | None = None) -> int:
    """Set the ``*segments`` attributes (see module docstring) on the objects of
    ``reader.reading.chapter_views`` output; returns the number of hits marked. ``script``:
    the edition's (``Edition.script``), so that 後 marks 后 in a simplified edition as search
    finds it. ``found``: a Counter to count in how the marked characters that differ from the
    query's were found (``{"簡體「后」讀作「後」": 36}``)."""
    hits = 0
    for cv in chapter_views:
        marks: dict = {}
        if parsed:
            for passage in chapter_passages(cv.chapter):
                spans = match_passage(parsed, passage.text, exact, script, passage.layer)
                hits += len(spans)
                _distribute(passage, spans, marks)
                _count_found(found, passage.text, spans, parsed, script)
        cv.chapter.title_segments = _segments(cv.chapter.title, marks.get((id(None), "chapter"), []))
        cv.chapter.category_segments = _segments(cv.chapter.category, marks.get((id(None), "category"), []))
        for view in cv.sections:
            # a heading's own notes are shown with the heading but stand in the chapter's first section
            lifted = cv.heading_notes if view is cv.sections[0] else []
            pieces = lifted + [p for para in view.paragraphs for p in para] + view.records
            marks = {}
            if parsed:
                for passage in section_passages(view.section, pieces):
                    check("finding the highlighted words", ADVICE)
                    spans = match_passage(parsed, passage.text, exact, script, passage.layer)
                    hits += len(spans)
                    _distribute(passage, spans, marks)
                    _count_found(found, passage.text, spans, parsed, script)
            for p in pieces:
                p.segments = _segments(p.text, marks.get((id(p), "text"), []))
                # Marks in "separator + tag" shifted onto the tag alone (the separator is not shown).
                sep = len(p.tag_separator)
                tag_marks = [(max(s - sep, 0), e - sep) for s, e in marks.get((id(p), "tag"), []) if e > sep]
                p.tag_segments = _segments(p.source_tag, tag_marks) if p.source_tag else []
                p.has_mark = any(m for _, m in p.segments) or any(m for _, m in p.tag_segments)
            view.section.title_segments = _segments(view.section.title, marks.get((id(None), "title"), []))
    return hits
