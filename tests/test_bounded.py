"""Bounded work per request (issue 17): highlighting is linear in the text shown.

A section of one long line with a note after every character used to cost pieces × hits
steps to highlight (1,318 s for one 2 MB line with ``?hl=射``). The steps are counted
(``reader.highlight.STEPS``), not timed.
"""
from reader.highlight import STEPS, apply_highlights
from reader.importers.loader import load_document
from reader.importers.siku import parse_siku
from reader.reading import chapter_views
from search.query import parse_query

NUMERALS = {500: "九十", 2000: "九十一", 3: "九十二"}


def long_line_juan(units: int):
    """A juan whose one section is one line of ``units`` × ``射【注】`` (2 × units pieces)."""
    header = f"欽定四庫全書\n禮書綱目卷{NUMERALS[units]} 婺源江永撰\n大射儀 嘉禮十五\n"
    doc = parse_siku(header + "射【注】" * units + "\n右長段\n", "long.txt")
    return load_document(doc, index=False).juan


def highlight_steps(juan, query: str) -> tuple[int, int]:
    before = STEPS["pairs"]
    hits = apply_highlights(chapter_views(juan), parse_query(query))
    return hits, STEPS["pairs"] - before


def test_highlighting_is_linear_in_pieces_and_hits(db):
    small, large = long_line_juan(500), long_line_juan(2000)
    # One step per hit: each 射 is found in its own piece by bisection (and one in 大射儀).
    assert highlight_steps(small, "射") == (501, 501)
    assert highlight_steps(large, "射") == (2001, 2001)
    # Four times the text, four times the work (it was sixteen times: 250,000 → 4,000,000).
    assert highlight_steps(large, "注") == (2000, 2000)
    # A phrase across a note touches the two pieces it joins.
    assert highlight_steps(large, "射射") == (1000, 2000)


def test_marks_land_in_their_pieces(db):
    juan = long_line_juan(3)
    views = chapter_views(juan)
    apply_highlights(views, parse_query("射射"))
    pieces = views[0].sections[0].paragraphs[0]
    assert [(p.kind, p.segments) for p in pieces] == [
        ("text", [("射", True)]), ("note", [("注", False)]), ("text", [("射", True)]), ("note", [("注", False)]),
        ("text", [("射", False)]), ("note", [("注", False)])]
