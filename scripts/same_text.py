"""A measurement, not shipped: an ambiguous form read as another edition of the same text prints it.

Editions of one text print most of it alike: 莊子注 (郭象) and 南華真經註疏 (成玄英, which prints 莊子
and 郭象's 注 whole), 儀禮鄭註句讀 (張爾岐) and the 四部叢刊 儀禮 鄭氏注 (the same 經 and 注). Where the
library holds a traditional edition of the text a simplified edition prints, the window round a
place (``SHAPES``: four or three characters on each side, written as a simplified edition prints
them, as ``build_reading_context.library_windows`` keys the library's windows) is looked up in that
edition; printed there, always one way, it decides the place's reading before the neighbours do.
``evaluate_folding.py --same-text kanripo-commentary/KR5c0138=kanripo-commentary/KR5c0139``
measures it (docs/decisions/0021). The index does not read it: the library does not know which of
its editions print the same text as another, and the part it helps is only the text an edition
shares with another (not 張爾岐's own notes, nor a work the library holds once: 荀子, 周禮詳解's
commentary, the 儀禮釋宮增注).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path

from characters import readings
from characters import simplified as sc
from characters.folding import fold_char
from build_reading_context import _forms_of, passages
from characters.scripts.script_labels import _match_key

#: The windows read, widest first: ``(characters before, characters after)``.
SHAPES = ((4, 4), (4, 3), (3, 4), (3, 3))


def windows(paths: list[Path], forms: dict[str, set[str]]) -> dict[tuple[str, str, str], Counter]:
    """``{(form, before, after): Counter of the readings printed there}`` over the traditional juans
    ``paths`` (read in the passages the index reads, ``build_reading_context.passages``), each window
    of ``SHAPES`` round a place where the juan prints a reading of the ambiguous form ``form``
    (``forms``: ``{form: its folded readings}``), keyed as a simplified edition prints it."""
    out: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    key_of: dict[str, str] = {}
    for path in paths:
        for seg in passages(path.read_text(encoding="utf-8", errors="replace")):
            keys = "".join([key_of.get(c) or key_of.setdefault(c, fold_char(_match_key(c))) for c in seg])
            for i, form in enumerate(keys):
                printed = fold_char(seg[i])
                if form in forms and printed in forms[form]:
                    for a, b in SHAPES:
                        if i >= a and i + b < len(keys):
                            out[(form, keys[i - a:i], keys[i + 1:i + 1 + b])][printed] += 1
    return out


def printed_there(found: dict, forms_for: dict[frozenset, list[str]], reading_set, before: str,
                  after: str) -> str | None:
    """The reading the other edition prints in the widest window of ``SHAPES`` round the place that
    it prints with one of ``reading_set``, when it prints it always one way; None otherwise."""
    wanted = set(reading_set)
    for a, b in SHAPES:
        if len(before) < a or len(after) < b:
            continue
        seen: Counter = Counter()
        for form in forms_for.get(frozenset(wanted), ()):
            seen.update(found.get((form, before[len(before) - a:], after[:b]), {}))
        seen = Counter({r: n for r, n in seen.items() if r in wanted})
        if seen:
            return next(iter(seen)) if len(seen) == 1 else None
    return None


@contextmanager
def read_with(paths: list[Path]):
    """Within the block, a simplified edition's places are read first by the traditional juans
    ``paths`` of the same text (``printed_there``), then as shipped (``characters.readings.decide``)."""
    forms = _forms_of()
    found = windows(paths, forms)
    forms_for: dict[frozenset, list[str]] = defaultdict(list)
    for form, reading_set in forms.items():
        forms_for[frozenset(reading_set)].append(form)
    shipped = sc.decide

    def decide(reading_set, before, after, *args, **kwargs):
        return printed_there(found, forms_for, reading_set, before, after) or \
            readings.decide(reading_set, before, after, *args, **kwargs)

    sc.decide = decide
    sc._decided_key.cache_clear()
    try:
        yield
    finally:
        sc.decide = shipped
        sc._decided_key.cache_clear()
