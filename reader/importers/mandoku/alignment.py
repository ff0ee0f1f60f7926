"""Aligning two texts character by character: which character of the edition each
character of the reference stands for (``align``), used by the reference step
(``boundaries``) and the layer check (``collation.layercheck``).

8-character grams found once in each text are anchors; the longest chain of anchors in the
same order in both (a longest increasing subsequence) fixes the alignment, and the
stretches between anchors are aligned by rapidfuzz's Indel (LCS) opcodes; only runs of
``MIN_RUN`` characters aligned one after another count. ``align_moved`` aligns again what
is left, for blocks one text prints elsewhere; ``nearer_copies`` takes, among copies of the
same words, the one in reading order with the passages around it (``_prefer_near``). Pure:
strings in, offsets out; neither text's layers are looked at.
"""
from __future__ import annotations

import bisect
from collections import Counter

from rapidfuzz.distance import Indel

#: Anchor length (characters) and the shortest aligned run that counts.
GRAM = 8
MIN_RUN = 3
#: A stretch between anchors is aligned only when its two sides' lengths multiply to at
#: most this (a bit-parallel LCS of 20,000 by 20,000 characters takes about a second).
GAP_LIMIT = 4 * 10 ** 8
#: Edition characters between two runs the reference reads one after another that still
#: make them one copy (``_prefer_near``: 動而愈健, the note's 愈).
RUN_HOLE = 2


def _anchors(ref: str, ed: str) -> list[tuple[int, int]]:
    """``(ref offset, ed offset)`` of every ``GRAM``-gram found once in each, reduced to
    their longest chain increasing in both."""
    counts = Counter(ref[i:i + GRAM] for i in range(len(ref) - GRAM + 1))
    wanted = {g for g, n in counts.items() if n == 1}
    where: dict[str, int] = {}
    seen: Counter = Counter()
    for i in range(len(ed) - GRAM + 1):
        g = ed[i:i + GRAM]
        if g in wanted:
            seen[g] += 1
            where[g] = i
    pairs = [(i, where[g]) for i in range(len(ref) - GRAM + 1)
             if (g := ref[i:i + GRAM]) in wanted and seen[g] == 1]
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(pairs)
    for n, (_, e) in enumerate(pairs):
        k = bisect.bisect_left(tails, e)
        if k == len(tails):
            tails.append(e)
            tail_at.append(n)
        else:
            tails[k] = e
            tail_at[k] = n
        back[n] = tail_at[k - 1] if k else -1
    chain = []
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    return chain[::-1]


def align(ref: str, ed: str, near: bool = False, nearer_copies: bool = False) -> list[int]:
    """For each character of ``ref``, the offset of the character of ``ed`` aligned with it,
    or -1 (see the module docstring). ``ref`` and ``ed`` are folded text without
    punctuation; a run shorter than ``MIN_RUN`` does not count. ``near``: the text of
    ``ed`` before the first anchor is aligned only with the reference just before that
    anchor (twice its length and ``GRAM`` more), not with all of it, where equal
    characters far apart would scatter it (a juan that opens with words its reference
    has twice, ``震來虩虩笑言啞啞``). ``nearer_copies``: among copies of the same words the
    one in reading order with the passages around it is taken (``_prefer_near``)."""
    match = [-1] * len(ref)
    r_end = e_end = 0
    anchors = _anchors(ref, ed)
    if near and anchors:
        r_end = max(0, anchors[0][0] - 2 * anchors[0][1] - GRAM)
    for r, e in anchors:
        if r < r_end or e < e_end:
            # overlaps the block before: on its diagonal it extends it, else it is dropped
            if r - e == r_end - e_end and r + GRAM > r_end:
                for k in range(r_end, r + GRAM):
                    match[k] = k - r + e
                r_end, e_end = r + GRAM, e + GRAM
            continue
        a, b = ref[r_end:r], ed[e_end:e]
        if a and b and len(a) * len(b) <= GAP_LIMIT:
            for tag, i1, i2, j1, _ in Indel.opcodes(a, b):
                if tag == "equal":
                    for k in range(i2 - i1):
                        match[r_end + i1 + k] = e_end + j1 + k
        for k in range(GRAM):
            match[r + k] = e + k
        r_end, e_end = r + GRAM, e + GRAM
    ref_stop = min(len(ref), r_end + 2 * (len(ed) - e_end) + GRAM) if near else len(ref)
    if r_end < ref_stop and e_end < len(ed) and r_end and (ref_stop - r_end) * (len(ed) - e_end) <= GAP_LIMIT:
        for tag, i1, i2, j1, _ in Indel.opcodes(ref[r_end:ref_stop], ed[e_end:]):
            if tag == "equal":
                for k in range(i2 - i1):
                    match[r_end + i1 + k] = e_end + j1 + k
    _keep_runs(match)
    if nearer_copies and _prefer_near(ref, ed, match):
        _fill_gaps(ref, ed, match)
        _keep_runs(match)
    return match


def _keep_runs(match: list[int]) -> None:
    """Unset, in place, every aligned run shorter than ``MIN_RUN`` (``_runs``)."""
    for k, j in list(_runs(match)):
        if j - k < MIN_RUN:
            match[k:j] = [-1] * (j - k)


#: How far back (edition characters) ``_prefer_near`` looks for a nearer copy of a run, and
#: how many characters a nearer copy that does not join the run before must hold.
NEAR_REACH = 400
NEAR_MIN = 6
#: Characters of a run its nearer copy may write otherwise (于 for 於), each left unaligned.
NEAR_SKIP = 2


def _runs(match: list[int]):
    """``(r1, r2)`` of each aligned run of ``match``: ``match[r] == match[r1] + r - r1`` for
    ``r1 <= r < r2``."""
    k, n = 0, len(match)
    while k < n:
        if match[k] < 0:
            k += 1
            continue
        j = k + 1
        while j < n and match[j] == match[j - 1] + 1:
            j += 1
        yield k, j
        k = j


def _prefer_near(ref: str, ed: str, match: list[int]) -> bool:
    """Among copies of the same words, the one in reading order with the passages around it:
    a run whose first words stand, unaligned, between the character aligned before it and the
    run (within ``NEAR_REACH``) is moved there, in place, as far as its words are found in
    order in pieces of ``MIN_RUN`` characters or more (the first may be shorter where it goes
    on right after the character before), leaving ``MIN_RUN`` or more, or nothing, where it
    was; a moved part that does not go on from the character before holds ``NEAR_MIN``
    characters or more. A note that quotes the classic just read (``…動而愈健剛中而應``
    after ``剛自外來而為主於內 / 動而健 / 剛中而應`` with notes between) then does not take
    the classic's words from the classic printed before it. Returns whether anything moved.
    The alignment looks at the two texts only, never at what either is stored as."""
    moved = False
    prev = -1
    groups: list[list[int]] = []
    for r1, r2 in _runs(match):
        # runs the reference reads one after another, a character or two apart in the
        # edition (動而愈健: the note's 愈), are one copy
        if groups and groups[-1][1] == r1 and 0 < match[r1] - match[r1 - 1] - 1 <= RUN_HOLE:
            groups[-1][1] = r2
        else:
            groups.append([r1, r2])
    for r1, r2 in groups:
        e1 = match[r1]
        if prev >= 0 and 1 < e1 - prev <= NEAR_REACH:
            placed: list[tuple[int, int]] = []  # (ref offset, ed offset) of each piece's start
            sizes: list[int] = []
            skipped: list[int] = []
            r, q = r1, prev + 1
            while r < r2:
                found = None
                if ed[q] == ref[r] and (not placed or placed[-1][1] + sizes[-1] == q):
                    # goes on right after the character before (or the piece before)
                    size = 1
                    while r + size < r2 and q + size < e1 and ed[q + size] == ref[r + size]:
                        size += 1
                    found = (q, size)
                else:
                    for size in range(min(r2 - r, e1 - q), MIN_RUN - 1, -1):
                        at = ed.find(ref[r:r + size], q, e1)
                        if at >= 0:
                            found = (at, size)
                            break
                if found is None:
                    if len(skipped) < NEAR_SKIP and r + 1 < r2 and q + 1 < e1 and q - prev - 1 == r - r1 \
                            and ed[q + 1] == ref[r + 1]:
                        # a character the two copies write otherwise (于 / 於): left out
                        skipped.append(r)
                        r, q = r + 1, q + 1
                        continue
                    break
                placed.append((r, found[0]))
                sizes.append(found[1])
                r, q = r + found[1], found[0] + found[1]
            while skipped and skipped[-1] >= r:
                skipped.pop()
            rest = r2 - r
            joined = bool(placed) and placed[0][1] - prev - 1 == placed[0][0] - r1 <= NEAR_SKIP
            if placed and (rest == 0 or rest >= MIN_RUN) and (joined or r - r1 >= NEAR_MIN):
                for (pr, pe), size in zip(placed, sizes):
                    for i in range(size):
                        match[pr + i] = pe + i
                for k in skipped:
                    match[k] = -1
                moved = True
        prev = match[r2 - 1]
    return moved


def _fill_gaps(ref: str, ed: str, match: list[int]) -> None:
    """Each stretch of unaligned reference characters aligned, in place, by Indel with the
    unaligned edition characters between its two aligned neighbours (the classic's words a
    moved run no longer stands before)."""
    n = len(ref)
    k = 0
    while k < n:
        if match[k] >= 0:
            k += 1
            continue
        j = k
        while j < n and match[j] < 0:
            j += 1
        lo = match[k - 1] + 1 if k else 0
        hi = match[j] if j < n else len(ed)
        if k and j < n and hi > lo and (j - k) * (hi - lo) <= GAP_LIMIT // 1000:
            for tag, i1, i2, j1, _ in Indel.opcodes(ref[k:j], ed[lo:hi]):
                if tag == "equal":
                    for d in range(i2 - i1):
                        match[k + i1 + d] = lo + j1 + d
        k = j


#: Alignment passes of ``align_moved``: blocks printed elsewhere in the reference (the 詩序
#: collected after the poems in 欽定詩經傳說彙纂, each before its poem in 毛詩注疏) are
#: found by a later pass.
PASSES = 3


def align_moved(ref: str, ed: str) -> list[int]:
    """``align``, then again over what is left unaligned on each side, up to ``PASSES``
    times: a block the reference prints elsewhere than the edition (a 序 collected in one
    place and set before each poem or chapter in the other, a passage moved) is aligned in
    a later pass instead of being lost to the one chain of anchors. Same result shape as
    ``align``; runs never join across what an earlier pass aligned."""
    match = align(ref, ed, near=True)
    for _ in range(PASSES - 1):
        used = set(m for m in match if m >= 0)
        ref_idx = [k for k in range(len(ref)) if match[k] < 0]
        ed_idx = [j for j in range(len(ed)) if j not in used]
        ref2, ref_at = _joined(ref, ref_idx, "\x00")
        ed2, ed_at = _joined(ed, ed_idx, "\x01")
        if len(ref2) < GRAM or len(ed2) < GRAM:
            break
        found = 0
        for i, j in enumerate(align(ref2, ed2)):
            if j >= 0 and ref_at[i] >= 0 and ed_at[j] >= 0:
                match[ref_at[i]] = ed_at[j]
                found += 1
        if not found:
            break
    return match


def _joined(text: str, idx: list[int], sep: str) -> tuple[str, list[int]]:
    """The characters of ``text`` at ``idx`` joined, ``sep`` where two are not next to each
    other in ``text``; and each joined character's offset in ``text`` (-1 for ``sep``)."""
    out: list[str] = []
    at: list[int] = []
    for n, k in enumerate(idx):
        if n and k != idx[n - 1] + 1:
            out.append(sep)
            at.append(-1)
        out.append(text[k])
        at.append(k)
    return "".join(out), at
