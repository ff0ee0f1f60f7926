"""Cutting a text where classic and commentary run together into the two, by a reference
text of the classic: the classic is the reference's text printed once, in order, in
stretches, and a note stands between two stretches.

A book that prints its classic and a commentary at one size with no marker (the 道藏's
老子 editions, ``undecided``) is made phrase by phrase: a stretch of the classic, then the
commentator's note on it, then the next stretch. Every character of the reference stands
once in the book's classic (or the book lacks it), in the reference's order; the note
between two stretches is free to repeat the classic's words (河上公 ``生而不有`` then
``元氣生萬物而不有``, 王弼 ``觀其妙`` then ``妙者…之妙``). So the book's text is read, in one
pass of dynamic programming over (book character, reference character), as stretches of
the classic aligned with the reference and notes between them, at the least cost
(``segment``):

* a character of a stretch that is the reference's next one costs nothing; one the editions
  write otherwise costs ``SUBSTITUTE``, a character of a stretch the reference lacks
  ``INSERT``, a reference character the book lacks ``DELETE``; a substitution costs more
  than leaving a character out, so a character beside a note that the reference lacks goes
  with the note (則無不治 | 德化厚, the 白文 則無不治矣), and one inside a stretch is read as
  the reference's (強其骨, the 白文 彊其骨: 1.2 against 2 for leaving one out and adding one);
* a character of a note costs nothing, each note ``NOTE``, less than one character left
  out (so that a word the book lacks does not join two notes into one across the classic
  between: 生而不有, 河上公 元氣生萬物而不有) but more than half of one (a single character of a
  note is never taken as the classic: it would cut the note in two), and a note of one or
  two characters ``SHORT`` more (a commentator's gloss holds three or more: 以其無私 |
  聖人…非以其公正無私所致乎, not 非以其 | 公正 | 無私 taken from the note).

Where two readings cost the same (a word repeats at a seam, and either copy could be the
classic's), the book's way of glossing decides: a note opens by repeating the last word of
the classic it explains (``同謂之玄`` | ``玄天也``, ``使民不爭`` | ``不爭功名``: ``GLOSS``),
and otherwise the classic is the first copy of its words, the note the one that repeats
them (``EARLIER``: 生而不有 | 元氣生萬物而不有 | 爲而不恃, not 生 | 而不有元氣生萬物 |
而不有爲而不恃). The costs were set on 河上公 chapters 1–9 and 王弼 21–22 and checked on 河上公
60–64 (``tests/test_laozi.py``).

Pure: strings in, flags out. Memory: one byte per (book character, reference character)
for the way back (a juan of 11,000 characters against a stretch of 3,000 of the
reference: about 33 MB). Time: each book character is read against the band of the
reference around the places the two texts are found to agree (``bands``), not all of it:
河上公 卷三 (10,823 characters) 1.5 s of CPU to parse, 2.5 s against the whole stretch.
"""
from __future__ import annotations

import numpy as np

#: Costs of the reading (see the module docstring); ``EDGE_DELETE`` is ``segment``'s margin.
SUBSTITUTE = 1.2
INSERT = 1.0
DELETE = 1.0
EDGE_DELETE = 0.5
NOTE = 0.8
#: What a note of one or two characters costs more: a commentator's gloss holds three or more.
SHORT = 0.8
#: Tie-breaks, far below any cost: a note opening with the classic's last word (up to
#: ``GLOSS_MAX`` characters repeated), and each character of the classic by its offset in
#: the book (the first copy of the classic's words is the classic).
GLOSS = 1e-2
GLOSS_MAX = 3
EARLIER = 1e-7
INF = 1e18
#: The ways a character of the classic is reached: after the classic, a note of one, two,
#: three or more characters (+ 0–3), inserted after them (+ 4–7), or a reference character left out.
_C_DELETE = 8
#: Below the smallest tie-break: two costs closer than this are one.
TOLERANCE = 1e-9


def _gloss(ed: str, j: int) -> bool:
    """Whether a note opening at ``ed[j]`` starts by repeating the last 1–``GLOSS_MAX``
    characters before it."""
    return any(j - k >= 0 and ed[j:j + k] == ed[j - k:j] for k in range(1, GLOSS_MAX + 1))


def segment(ref: str, ed: str, edges: tuple[int, int] = (0, 0),
            classic_at: frozenset[int] = frozenset(), bands: list[tuple[int, int]] | None = None) -> list[bool]:
    """For each character of ``ed`` (the book's text, folded, text characters only),
    whether it is the classic, read against ``ref`` (the stretch of the reference the book
    holds, folded the same way; every character of it the book leaves out costs ``DELETE``).
    ``edges``: how many of ``ref``'s first and last characters are a margin around the
    chapters the book is known to hold, each left out at ``EDGE_DELETE``: the book may hold
    them (a juan's first words, before any stretch found for certain) or not, so a stretch
    of them in the book is read as the classic, but a character of a note is not taken to
    save leaving one out. ``classic_at``: offsets of ``ed`` that must
    be the classic (a chapter's first character: a chapter opens with its classic).
    ``bands``: for each character of ``ed``, the first and last number of ``ref``'s characters
    read once it is read (nondecreasing both; from the places where the two texts are found
    to agree, widened): the reading keeps within them, which saves time and changes nothing
    while they hold the best reading; None, all of ``ref``. See the module docstring for the
    costs."""
    n, m = len(ed), len(ref)
    if not n:
        return []
    if not m:
        return [False] * n
    ref_codes = np.frombuffer(ref.encode("utf-32-le"), dtype=np.uint32)
    unit = np.full(m, DELETE)
    unit[:edges[0]] = EDGE_DELETE
    if edges[1]:
        unit[m - edges[1]:] = EDGE_DELETE
    steps = np.concatenate([[0.0], np.cumsum(unit)])  # leaving out ref[:i] costs steps[i]
    # states: the classic, a note of one, of two, of three or more characters; the
    # reference's characters before the book's first are left out at their cost
    classic = steps.copy()
    notes = [np.full(m + 1, INF), np.full(m + 1, INF), np.full(m + 1, INF)]
    # the way back, one byte per (book character, reference character): bits 0-3 how the
    # classic was reached (0-3 after the classic or a note of one, two, three or more
    # characters, 4-7 inserted after them, ``_C_DELETE``), bit 4 note 1 (0 opened, 1 a reference
    # character left out), bit 5 note 2 (0 from note 1, 1 left out), bits 6-7 note 3 (0 from
    # note 2, 1 from note 3, 2 left out)
    back = np.zeros((n, m + 1), dtype=np.uint8)
    for j in range(n):
        # the states after ``ed[j]`` are worked out in its band ``[lo, hi)``, from those before
        # it in ``[before, hi)``; every other is out of reach
        lo, hi = (bands[j][0], bands[j][1] + 1) if bands else (0, m + 1)
        before = max(lo - 1, 0)
        # what a character of the classic follows: the classic, or a note it closes
        short1, short2 = notes[0][before:hi] + SHORT, notes[1][before:hi] + SHORT
        best01, from1 = np.minimum(classic[before:hi], short1), short1 < classic[before:hi]
        best23, from3 = np.minimum(short2, notes[2][before:hi]), notes[2][before:hi] < short2
        best = np.minimum(best01, best23)
        came = np.where(best23 < best01, 2 + from3, from1).astype(np.uint8)  # the first of equals
        new_c = np.full(m + 1, INF)
        how_c = np.zeros(m + 1, dtype=np.uint8)
        first = max(lo, 1)  # the first reached by reading a reference character
        new_c[first:hi] = best[first - 1 - before:hi - 1 - before] + np.where(
            ref_codes[first - 1:hi - 1] == ord(ed[j]), 0.0, SUBSTITUTE) + EARLIER * j
        how_c[first:hi] = came[first - 1 - before:hi - 1 - before]
        ins = best[lo - before:hi - before] + INSERT + EARLIER * j
        better = ins < new_c[lo:hi] - TOLERANCE
        new_c[lo:hi][better] = ins[better]
        how_c[lo:hi][better] = 4 + came[lo - before:hi - before][better]
        new_n = [np.full(m + 1, INF) for _ in range(3)]
        how_n = [np.zeros(m + 1, dtype=np.uint8) for _ in range(3)]
        if j not in classic_at:
            new_n[0][lo:hi] = classic[lo:hi] + NOTE - (GLOSS if _gloss(ed, j) else 0.0)
            new_n[1][lo:hi] = notes[0][lo:hi]
            new_n[2][lo:hi] = np.minimum(notes[1][lo:hi], notes[2][lo:hi])
            how_n[2][lo:hi] = notes[2][lo:hi] < notes[1][lo:hi] - TOLERANCE
        for arr, how, deleted in ((new_c, how_c, _C_DELETE), (new_n[0], how_n[0], 1), (new_n[1], how_n[1], 1),
                                  (new_n[2], how_n[2], 2)):
            part, cost = arr[lo:hi], steps[lo:hi]
            scanned = np.minimum.accumulate(part - cost) + cost
            moved = scanned < part - TOLERANCE  # not a rounding of the same cost
            part[moved] = scanned[moved]
            how[lo:hi][moved] = deleted
        back[j, lo:hi] = how_c[lo:hi] | (how_n[0][lo:hi] << 4) | (how_n[1][lo:hi] << 5) | (how_n[2][lo:hi] << 6)
        classic, notes = new_c, new_n
    # end: the reference's characters after the book's last are left out at their cost
    tail = steps[m] - steps
    finals = [classic + tail] + [x + tail for x in notes]
    state = min(range(4), key=lambda k: finals[k].min())
    i = int(finals[state].argmin())
    flags = [False] * n
    j = n - 1
    while j >= 0:
        code = int(back[j, i])
        if state == 0:
            how = code & 15
            if how == _C_DELETE:
                i -= 1
                continue
            flags[j] = True
            if how < 4:
                i -= 1
            state = how % 4
        else:
            how = (code >> 4) & 1 if state == 1 else (code >> 5) & 1 if state == 2 else code >> 6
            if how == (2 if state == 3 else 1):
                i -= 1
                continue
            state = 3 if (state == 3 and how == 1) else state - 1
        j -= 1
    return flags
