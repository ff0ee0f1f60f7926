"""What a reader sees as one character of stored text, so that a label, a message or a KWIC
snippet is cut between characters, never inside one (``「…之&…」``, an entity cut after its
``&``, showed the entity's letters instead of its 〓):

- a Kanripo gaiji entity (``&KR1234;``, ``characters.gaiji.GAIJI``) or U+0001;
- a description of a character Unicode lacks (``[門@里]``, ``characters.units.DESCRIPTION``);
- one code point with the variation selectors and joiners after it (``characters.folding.SELECTOR``:
  葛 U+E0100 stays whole).

Python strings hold code points, so a character outside the BMP (𥙷 U+2565D) is one code point
and no cut splits it into halves of a surrogate pair. Pure Python, no Django.
"""
from __future__ import annotations

import re
from functools import lru_cache

from characters.folding import SELECTOR
from characters.units import DESCRIPTION, code_class


@lru_cache(maxsize=None)
def clusters() -> re.Pattern:
    """One displayed character (module docstring): a gaiji entity, a description, or a code
    point with the selectors after it; ``findall`` of a text gives its characters in order,
    joining back to the text."""
    return re.compile(r"&KR\d{1,5};|" + DESCRIPTION.pattern + "|.[" + code_class(SELECTOR) + "]*", re.S)


def clip(text: str, limit: int, mark: str = "…") -> str:
    """``text`` whole when it holds at most ``limit`` displayed characters (``clusters``), else
    its first ``limit`` of them followed by ``mark``: ``clip("之&KR1234;乎者也", 2)`` is
    ``"之&KR1234;…"``, never ``"之&…"``."""
    if len(text) <= limit:
        return text
    found = clusters().findall(text)
    return text if len(found) <= limit else "".join(found[:limit]) + mark
