"""Other editions of a classic as evidence beside its reference: where a book prints classic
and commentary together with no marker (``undecided``), the reference (a 白文 edition) is
one witness of the classic's words, and the library's other commentary editions of the same
work are more.

The 道藏's two 老子 editions print, in their classic, words the 白文 道德真經 lacks or writes
otherwise, and where such a word stands beside a note it was read as the note's: 故常無欲 and
斯不善已 (the 白文 常無欲, 斯不善矣), 侯王若能守之 (the 白文 王侯若能守). The other edition
prints the same words (王弼 故常無欲以觀其妙, 斯不善已, 侯王若能守之): a commentator's edition of
the classic is the classic as the tradition he read printed it, and two such traditions that
agree against the 白文 are evidence of what the classic reads. So a book is read against its
reference merged with every shipped witness but its own (``merge``): at each place the
characters any of them prints there read as the reference's, and a character some of them
lack costs, left out, only the share of the texts that print it (``Merged.held``), so that a
word one tradition adds is the classic where a book prints it and costs little where it
does not. A witness counts only where it prints ``FLANK`` characters alike with the
reference on each side of a difference: it is itself a reading, and where it was misread the
two disagree over several places at once.

The witnesses are the classic of each edition as the reading against the reference alone
finds it (``data/classics/laozi.wang_bi.txt``, ``laozi.heshang_gong.txt``, built by
``scripts/build_laozi_witnesses.py`` from ``../shared/corpus/kanripo-commentary``), so an
edition is never read against itself. Pure: strings in, a ``Merged`` out.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Indel

from .segmenting import NONE

#: Characters printed alike on each side of a difference between the reference and a witness
#: for the witness's words to count there: where the two do not agree around it (天下之交牝化常, the
#: 王弼 classic as read 天下之也牝常, a 也 of the note taken for the classic), the witness is as
#: likely misread as the book, and the reference's words stand.
FLANK = 2


@dataclass(frozen=True)
class Merged:
    """A reference merged with witnesses: ``text``, one character for each place (the
    reference's, or the witness's where only a witness prints one); ``alternates``, strings as
    long as ``text`` giving the other characters printed at each place (``segmenting.NONE``
    where none), as many as the most at one place; ``held``, for each place the share (0–1] of
    the texts (the reference and each witness) that print a character there."""

    text: str
    alternates: tuple[str, ...]
    held: tuple[float, ...]


@lru_cache(maxsize=8)
def merge(reference: str, witnesses: tuple[str, ...]) -> Merged:
    """``reference`` merged with each of ``witnesses`` in turn (all folded the same way, text
    characters only): aligned by their longest common subsequence (rapidfuzz's Indel
    opcodes), a character both print is one place; a difference between two runs of at least
    ``FLANK`` such (else the reference's words stand, held by both), where the two print as
    many characters, makes each of the witness's another character printed at the reference's
    place (斯不善矣 and 斯不善已), else the reference's characters stand, then the witness's,
    each a place only the texts that print it hold (故 of 故常無欲). ``Merged(reference, (),
    all 1)`` for no witnesses. Cached: a juan's reading merges the same texts as the last."""
    places = [[ch] for ch in reference]
    counts = [1] * len(reference)
    total = 1
    for witness in witnesses:
        text = "".join(p[0] for p in places)
        new_places: list[list[str]] = []
        new_counts: list[int] = []
        ops = list(Indel.opcodes(text, witness))
        k = 0
        while k < len(ops):
            tag, a1, a2, b1, b2 = ops[k]
            if tag == "equal":
                new_places += places[a1:a2]
                new_counts += [c + 1 for c in counts[a1:a2]]
                k += 1
                continue
            ours: list[int] = []
            theirs = ""
            flanks = [ops[k - 1][2] - ops[k - 1][1] if k else FLANK]
            while k < len(ops) and ops[k][0] != "equal":
                tag, a1, a2, b1, b2 = ops[k]
                ours += range(a1, a2)
                theirs += witness[b1:b2]
                k += 1
            flanks.append(ops[k][2] - ops[k][1] if k < len(ops) else FLANK)
            if min(flanks) < FLANK:  # not where the two agree around it: the reference's words stand
                new_places += [places[a] for a in ours]
                new_counts += [counts[a] + 1 for a in ours]
            elif len(ours) == len(theirs):
                for a, ch in zip(ours, theirs):
                    new_places.append(places[a] + ([ch] if ch not in places[a] else []))
                    new_counts.append(counts[a] + 1)
            else:
                new_places += [places[a] for a in ours] + [[ch] for ch in theirs]
                new_counts += [counts[a] for a in ours] + [1] * len(theirs)
        places, counts, total = new_places, new_counts, total + 1
    most = max((len(p) for p in places), default=1)
    alternates = tuple("".join(p[n] if n < len(p) else NONE for p in places) for n in range(1, most))
    return Merged("".join(p[0] for p in places), alternates, tuple(c / total for c in counts))


def merged_slice(merged: Merged, lo: int, hi: int) -> tuple[tuple[str, ...], Sequence[float]]:
    """``(alternates, held)`` of ``merged``'s places ``[lo, hi)``, as ``segmenting.segment``
    takes them."""
    return tuple(a[lo:hi] for a in merged.alternates), merged.held[lo:hi]
