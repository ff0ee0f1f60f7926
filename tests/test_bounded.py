"""Bounded work per request (issue 17): highlighting is linear in the text shown.

A section of one long line with a note after every character used to cost pieces × hits
steps to highlight (1,318 s for one 2 MB line with ``?hl=射``). The steps are counted
(``pages.highlight.STEPS``), not timed.
"""
from pages.highlight import STEPS, apply_highlights
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


def test_kwic_bounds_take_the_short_way_only_where_characters_are_code_points():
    """``context_bounds`` answers plain text with arithmetic and falls back to reading
    characters (gaiji entities, variation selectors) elsewhere: both give the bounds the
    character-by-character reading gives, at every character of a mixed text."""
    import itertools
    import re

    from characters.clusters import clusters as _clusters
    from search.kwic import context_bounds

    def by_characters(text, start, end, width):
        lo = max(0, start - width * 10)
        marks = [m.start() for m in _clusters().finditer(text[lo:start])]
        b = lo + marks[-width] if len(marks) >= width else lo
        after = [m.end() for m in itertools.islice(_clusters().finditer(text, end, min(len(text), end + width * 10)),
                                                   width)]
        return b, after[-1] if after else end

    text = "大射之儀" * 5 + "&KR0221;射" + "之\ufe00儀" + "君有命" * 4 + "&KR1969;" + "戒射" * 6
    starts = [m.start() for m in re.finditer(_clusters(), text)]
    checked = 0
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        for width in (1, 2, 3, 5, 15):
            assert context_bounds(text, start, end, width) == by_characters(text, start, end, width), (start, width)
            checked += 1
    assert checked == len(starts) * 5 == 245


def test_a_hits_snippet_is_cut_as_context_bounds_cuts_it():
    """``Hit.kwic`` reads a passage once to find its shape (``HitPassage._plain``,
    ``search.kwic.text_shape``): every displayed character a code point, its snippets cut by
    arithmetic; characters and punctuation only, the punctuation counted (``separated_bounds``);
    a passage with a gaiji entity or a selector, or longer than ``PLAIN_CHECKED``, has its
    snippets cut by ``context_bounds``: the same snippets every way."""
    from search.kwic import MIXED, SEPARATED, SINGLE, context_bounds
    from search.backends.base import PLAIN_CHECKED, Hit, HitPassage

    def passage(text, width):
        return HitPassage("classic", 1, "w", "W", 1, 1, "卷一", 1, "", 1, "", "d", text, [], width)

    plain = "大射之儀君有命戒射" * 5
    mixed = "大射之儀" * 5 + "&KR0221;射" + "之\ufe00儀" + "君有命" * 4 + "&KR1969;" + "戒射" * 6
    punctuated = "大射之儀。君有命戒射，宰戒百官：「有事於射者。」" * 3
    long = "射之" * (PLAIN_CHECKED // 2) + "儀"
    checked = 0
    for text, flag in ((plain, SINGLE), (punctuated, SEPARATED), (mixed, MIXED), (long, MIXED)):
        for width in (0, 1, 15):
            p = passage(text, width)
            for start in range(0, len(text) - 1, 3):
                b, e = context_bounds(text, start, start + 1, width)
                assert Hit(p, start, start + 1).kwic() == (text[b:start], text[start], text[start + 1:e]), (start, width)
                checked += 1
            assert p._plain is flag
    assert checked == 3 * (15 + 24 + 21 + 667)
    assert Hit(passage(plain, 2), 4, 5).kwic() == ("之儀", "君", "有命")
    assert Hit(passage(mixed, 2), 29, 31).kwic() == ("&KR0221;射", "之\ufe00", "儀君")
    assert Hit(passage(punctuated, 2), 5, 6).kwic() == ("之儀。", "君", "有命")
    assert Hit(passage(punctuated, 3), 2, 3).kwic() == ("大射", "之", "儀。君有")
