"""A measurement, not shipped: an ambiguous form read as another edition of the same text prints it.

Editions of one text print most of it alike: 莊子注 (郭象) and 南華真經註疏 (成玄英, which prints 莊子
and 郭象's 注 whole), 儀禮鄭註句讀 (張爾岐) and the 四部叢刊 儀禮 鄭氏注 (the same 經 and 注). Where the
library holds a traditional edition of the text a simplified edition prints, the window round a
place (``SHAPES``: four or three characters on each side, written as a simplified edition prints
them, as ``build_reading_context.library_windows`` keys the library's windows) is looked up in that
edition; printed there, always one way, it decides the place's reading before the neighbours do.
``evaluate_folding.py --same-text kanripo-commentary/KR5c0138=kanripo-commentary/KR5c0139``
measures it (docs/decisions/0021); with ``--habit 0.9`` a place neither that edition's windows nor
the neighbours decide is read as that edition writes the word (``usage_of``, docs/decisions/0037).
The index does not read it: the library does not know which of
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


def usage(paths: list[Path], forms: dict[str, set[str]]) -> dict[frozenset, Counter]:
    """``{the folded readings of an ambiguous form: Counter of the readings printed}`` over the
    traditional juans ``paths``: how that edition writes each word a simplified form stands for
    (南華真經註疏 prints 係 where 郭象 ties one thing to another, never 繫), over every place where it
    prints one of the readings."""
    out: dict[frozenset, Counter] = defaultdict(Counter)
    key_of: dict[str, str] = {}
    for path in paths:
        for seg in passages(path.read_text(encoding="utf-8", errors="replace")):
            for c in seg:
                form = key_of.get(c) or key_of.setdefault(c, fold_char(_match_key(c)))
                printed = fold_char(c)
                if form in forms and printed in forms[form]:
                    out[frozenset(forms[form])][printed] += 1
    return out


#: ``usage_of``: the share of its places an edition must print one reading at, and how many places
#: it must print, for its habit to decide a place that nothing else decides.
USAGE_SHARE, USAGE_PLACES = 0.9, 20


def usage_of(habit: dict[frozenset, Counter], reading_set, share: float = USAGE_SHARE,
             places: int = USAGE_PLACES) -> str | None:
    """The reading the other edition prints at ``share`` or more of its places of the readings
    ``reading_set`` (``usage``), when it prints them at ``places`` places or more; None otherwise."""
    seen = habit.get(frozenset(reading_set))
    if not seen or sum(seen.values()) < places:
        return None
    best, n = seen.most_common(1)[0]
    return best if n >= share * sum(seen.values()) else None


@contextmanager
def read_with(paths: list[Path], habit_share: float | None = None):
    """Within the block, a simplified edition's places are read first by the traditional juans
    ``paths`` of the same text (``printed_there``), then as shipped (``characters.readings.decide``);
    with ``habit_share``, a place neither decides is read as those juans write the word
    (``usage_of``: the reading they print at that share of their places or more)."""
    forms = _forms_of()
    found = windows(paths, forms)
    habit = usage(paths, forms) if habit_share is not None else {}
    forms_for: dict[frozenset, list[str]] = defaultdict(list)
    for form, reading_set in forms.items():
        forms_for[frozenset(reading_set)].append(form)
    shipped = sc.decide

    def decide(reading_set, before, after, *args, **kwargs):
        return printed_there(found, forms_for, reading_set, before, after) or \
            readings.decide(reading_set, before, after, *args, **kwargs) or \
            (usage_of(habit, reading_set, habit_share) if habit_share is not None else None)

    sc.decide = decide
    sc._decided_key.cache_clear()
    try:
        yield
    finally:
        sc.decide = shipped
        sc._decided_key.cache_clear()
