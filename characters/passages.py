"""Which stretches of a section's text are read as one passage: the one rule the index and the
folding evaluation share.

A passage is what search reads as one run of characters: a phrase is found inside it and never
across two, and an ambiguous simplified form's reading is decided from its neighbours inside it
(``characters.simplified.decide_keys``). ``search.documents.section_passages`` cuts a stored
section into passages with ``join_runs``; ``scripts/juan_passages.py`` cuts the juans and the
book it measures with the same function, so the figures it prints are those of the index.

The rule (docs/decisions/0002, 0009): the pieces of a layer read continuously -- the classic (經),
a section's records, the main text of another layer -- are ONE passage per layer, every other
layer left out (戒射【…】宰戒 reads 戒射宰戒); each note (注, 疏, 音義 …) is a passage of its own,
however many printed lines or columns it runs over.

Pure Python, no Django.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

__all__ = ["join_runs"]

T = TypeVar("T")


def join_runs(items: Iterable[tuple[str, bool, T]], order: Sequence[str]) -> list[tuple[str, list[T]]]:
    """The passages of one section from its items in text order, each ``(layer, continuous,
    item)``: ``[(layer, [item, …]), …]``, first one passage for each layer that has continuous
    items (every continuous item of that layer, in text order), the layers in ``order`` (a continuous
    item's layer not in ``order`` raises ``ValueError``), then one passage for each other item (a note), in text
    order. ``join_runs([("classic", True, "戒射"), ("commentary", False, "…"), ("classic", True, "宰戒")],
    ("classic", "commentary"))`` is ``[("classic", ["戒射", "宰戒"]), ("commentary", ["…"])]``."""
    runs: dict[str, list[T]] = {}
    singles: list[tuple[str, list[T]]] = []
    for layer, continuous, item in items:
        if continuous:
            runs.setdefault(layer, []).append(item)
        else:
            singles.append((layer, [item]))
    return [(layer, runs[layer]) for layer in sorted(runs, key=order.index)] + singles
