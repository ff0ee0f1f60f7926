"""Where a KWIC snippet begins and ends in the stored text: ``width`` displayed characters
on each side of a hit, a gaiji entity or a description counting as one and never cut, the
selectors after a character kept with it (``characters.clusters``: the units of
``search.analysis``, counted on the stored text itself, which the snippet is cut from).
"""
from __future__ import annotations

import itertools
import re
from functools import lru_cache

from characters.clusters import clusters
from characters.folding import SELECTOR
from characters.units import code_class


@lru_cache(maxsize=None)
def _multi_code_point() -> re.Pattern:
    """What makes a displayed character more than one code point: an entity's ``&`` or ``;``,
    a description's ``[`` or ``]``, or an invisible that attaches to the character before it."""
    return re.compile(r"[&;\[\]" + code_class(SELECTOR) + "]")


def single_code_points(text: str) -> bool:
    """Whether every displayed character of ``text`` is one code point: no gaiji entity and no
    invisible that attaches to the character before it. Then ``context_bounds`` is plain
    arithmetic anywhere in it."""
    return not _multi_code_point().search(text)


def context_bounds(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    """Where a KWIC snippet of ``width`` characters on each side of ``text[start:end]``
    begins and ends: ``text[b:start]`` holds the last ``width`` displayed characters before
    the hit and ``text[end:e]`` the first ``width`` after it, a gaiji entity counting as one
    and never cut, selectors kept with their character."""
    if width <= 0:
        return start, end
    # Most snippets hold neither a gaiji entity nor a selector: then a displayed character is a
    # code point, and the bounds are plain arithmetic (one C-level search, not a match per
    # character: a hit list of 50,000 hits spent most of its time here).
    b, e = max(0, start - width), min(len(text), end + width)
    special = _multi_code_point()
    if not special.search(text, max(0, b - 12), start) and not special.search(text, end, min(len(text), e + 1)):
        return b, e
    lo = max(0, start - width * 10)
    window = text[lo:start]
    marks = [m.start() for m in clusters().finditer(window)]
    b = lo + marks[-width] if len(marks) >= width else lo
    after = [m.end() for m in itertools.islice(clusters().finditer(text, end, min(len(text), end + width * 10)), width)]
    e = after[-1] if after else end
    return b, e
