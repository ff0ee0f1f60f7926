"""Where the classic resumes inside a 注疏 edition's full-size commentary, decided by a
reference text of the classic (``data/classics``, built by ``scripts/build_classics.py``).

A 注疏 edition prints the classic and its commentary at one size and marks only where a
commentary starts (注, 傳, 箋); where the book goes back to the classic with no small print
between (``…注相者也工六人坐授瑟乃降注…``), nothing in the file marks it. The classic the
importer has already read and the full-size commentary after each marker are aligned, in
order, with the stretch of the reference the juan's classic stands in (``align``). A
commentary piece whose last characters are aligned one after another up to its end, the
first of them going on in the reference from the last character aligned before them
(``JUMP``), ends in the classic: the words missing from the classic read so far, which is
what keeps a note that quotes the classic it explains (``…故曰黎民敏德``) from being cut. A
piece aligned whole that runs a commentary on from the line before without a marker, or
whose marker word is itself the next word of the classic (``且傳以通經為義``), is the classic
whole. Where the reference does not decide, the book's order stands.

Alignment (``align``, also used by ``collation.layercheck``): 8-character grams found once
in each text are anchors; the longest chain of anchors in the same order in both (a longest
increasing subsequence) fixes the alignment, and the stretches between anchors are aligned
by rapidfuzz's Indel (LCS) opcodes; only runs of ``MIN_RUN`` characters aligned one after
another count. Pure: pieces in, pieces changed in place.
"""
from __future__ import annotations

import bisect
from collections import Counter

from rapidfuzz.distance import Indel

from characters.folding import fold

from ..document import CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, TEXT, PieceDoc

#: Anchor length (characters) and the shortest aligned run that counts.
GRAM = 8
MIN_RUN = 3
#: A stretch between anchors is aligned only when its two sides' lengths multiply to at
#: most this (a bit-parallel LCS of 20,000 by 20,000 characters takes about a second).
GAP_LIMIT = 4 * 10 ** 8
#: A tail holds at least this many aligned characters, and four in five of its characters.
TAIL_MIN = 2
#: Unaligned characters allowed at a tail's very end, and in one hole inside it (characters
#: the two editions write differently, or runs too short to count).
END_SLACK = 3
HOLE = 2
#: How far on in the reference a tail may start from the last aligned character before it:
#: 1 is right after it; more where the edition lacks a few words of the reference or writes
#: them otherwise (巳/已 are not folded together). Measured on the shared pairs (docs/reading.md).
JUMP = 12
#: A note ending with this quotes what follows (``傳例曰非常也``): no cut right after it.
QUOTE_INTRO = "曰"
#: ○ just before the classic words goes with them: it marks where the classic resumes.
RESUME_MARK = "○"
#: Characters two printed editions of one classic write for each other and the folding
#: (``characters.folding``) keeps apart, brought together for matching only: 巳/已 (the
#: printers' 巳 for 已, ``無巳則有一焉``), graphic variants the folding lacks (榖 穀, 毁 毀,
#: 苖 苗), and words editions interchange (于 於, 脩 修, 閒 間, 悌 弟). Matching a juan with
#: its reference only; search and storage keep them apart.
MATCH_VARIANTS = str.maketrans({"巳": "已", "榖": "穀", "毁": "毀", "苖": "苗", "于": "於", "脩": "修",
                                "閒": "間", "悌": "弟"})


def match_form(text: str) -> str:
    """``text`` as the reference step matches it: folded (``characters.folding.fold``), then
    ``MATCH_VARIANTS``; the same length as ``text``, so offsets hold."""
    return fold(text).translate(MATCH_VARIANTS)


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


def align(ref: str, ed: str) -> list[int]:
    """For each character of ``ref``, the offset of the character of ``ed`` aligned with it,
    or -1 (see the module docstring). ``ref`` and ``ed`` are folded text without
    punctuation; a run shorter than ``MIN_RUN`` does not count."""
    match = [-1] * len(ref)
    r_end = e_end = 0
    for r, e in _anchors(ref, ed):
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
    if r_end < len(ref) and e_end < len(ed) and r_end and (len(ref) - r_end) * (len(ed) - e_end) <= GAP_LIMIT:
        for tag, i1, i2, j1, _ in Indel.opcodes(ref[r_end:], ed[e_end:]):
            if tag == "equal":
                for k in range(i2 - i1):
                    match[r_end + i1 + k] = e_end + j1 + k
    k = 0
    n = len(ref)
    while k < n:
        if match[k] < 0:
            k += 1
            continue
        j = k + 1
        while j < n and match[j] == match[j - 1] + 1:
            j += 1
        if j - k < MIN_RUN:
            for i in range(k, j):
                match[i] = -1
        k = j
    return match


def is_text(ch: str) -> bool:
    """Whether a (folded) character takes part in matching: CJK characters, not ○, not
    CJK punctuation (U+3000–303F), not full-width forms (U+FF00–FFEF)."""
    o = ord(ch)
    return o >= 0x2E80 and not (0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF)


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` folded, text characters only (``is_text``), and each one's offset."""
    folded = match_form(text)
    keep = [k for k, ch in enumerate(folded) if is_text(ch)]
    return "".join(folded[k] for k in keep), keep


def _window(reference: str, classic: list[str], size: int) -> tuple[int, int] | None:
    """The stretch of ``reference`` a juan's classic stands in: from the 10th to the 90th
    percentile of where its pieces' first eight characters are found, widened by ``size``
    on each side; None when fewer than three are found."""
    hits = sorted(at for text in classic if len(text) >= GRAM and (at := reference.find(text[:GRAM])) >= 0)
    if len(hits) < 3:
        return None
    lo = hits[len(hits) // 10]
    hi = hits[(len(hits) * 9) // 10]
    return max(0, lo - size), min(len(reference), hi + size)


def reference_tails(flat: list[PieceDoc], reference: str) -> list[tuple[int, int]]:
    """``(n, cut)`` for each full-size commentary piece ``flat[n]`` whose text from code
    point ``cut`` on is the classic, by the folded ``reference`` (see the module
    docstring; matching on text folded by ``characters.folding.fold``). A cut of 0
    means the whole piece is the classic: a piece that runs a commentary on from the line
    before with no marker, or a marker word that is a word of the classic
    (``_false_marker``) and the piece after it.

    The juan's full-size text (classic and commentary, in order) is aligned with the
    stretch of the reference its classic stands in (``_window``). A commentary piece ends
    in classic words when its last characters are aligned one after another up to its end
    (``tail``) and the first of them continues, in the reference, the last character
    aligned before them (at most ``JUMP`` characters on): the words missing from the
    classic read so far, not a quotation of words the classic has already had."""
    ids = [n for n, p in enumerate(flat)
           if (p.kind == TEXT and p.layer == CLASSIC) or (p.kind == NOTE and p.layer == COMMENTARY)
           or (p.kind == NOTE and p.layer == EDITORIAL and p.layer_basis == LAYOUT)]
    if not any(flat[n].kind == NOTE for n in ids):
        return []
    folded = {n: _folded(flat[n].text) for n in ids}
    stream = "".join(folded[n][0] for n in ids)
    classic = [folded[n][0] for n in ids if flat[n].kind == TEXT]
    win = _window(reference, classic, len(stream) // 2 + 200)
    if win is None:
        return []
    ref = reference[win[0]:win[1]]
    ref_of = [-1] * len(stream)
    for r, s in enumerate(align(ref, stream)):
        if s >= 0:
            ref_of[s] = r
    cuts: list[tuple[int, int]] = []
    start = 0
    for n in ids:
        note, keep = folded[n]
        end = start + len(note)
        if flat[n].kind == NOTE and end > start:
            t = tail(ref_of, start, end)
            if t == start:
                # the whole piece reads as the classic that goes on: a piece that only runs a
                # commentary on from the line before (no marker before it), or one whose
                # marker word is itself a word of the classic
                label = n and flat[n - 1].kind == LABEL
                prev = next((ref_of[k] for k in range(start - 1, -1, -1) if ref_of[k] >= 0), None)
                if not label and prev is not None and 0 < ref_of[start] - prev <= JUMP:
                    cuts.append((n, 0))
                elif label and _false_marker(flat, n, ref, ref_of, start):
                    cuts.extend([(n - 1, 0), (n, 0)])
                else:
                    # the note's own words aligned with the classic too (再拜稽首 before the
                    # classic 洗象觶…): the tail starts at a later break in the alignment
                    t = _later_start(ref_of, start, end)
                if t == start or t is None:
                    start = end
                    continue
            while t is not None and t > start:
                prev = next((ref_of[k] for k in range(t - 1, -1, -1) if ref_of[k] >= 0), None)
                if note[t - start - 1] not in QUOTE_INTRO and prev is not None and 0 < ref_of[t] - prev <= JUMP:
                    t = _grow(stream, ref, ref_of[t], t, prev, start)
                    cut = keep[t - start]
                    if flat[n].text[cut - 1] == RESUME_MARK:
                        cut -= 1
                    cuts.append((n, cut))
                    break
                t = _later_start(ref_of, t, end)
        start = end
    return cuts


def _later_start(ref_of: list[int], t: int, end: int) -> int | None:
    """The next place after ``t`` where the aligned run breaks (an unaligned character, or
    a jump in the reference) and an aligned tail (``tail``) still runs from it to ``end``;
    None when there is none."""
    for k in range(t + 1, end - TAIL_MIN + 1):
        if ref_of[k] >= 0 and (ref_of[k - 1] < 0 or ref_of[k] != ref_of[k - 1] + 1) and tail(ref_of, k, end) == k:
            return k
    return None


def _false_marker(flat, n: int, ref: str, ref_of: list[int], start: int) -> bool:
    """Whether the marker word before the commentary piece ``flat[n]`` (aligned whole with
    the reference) is a word of the classic: the reference reads, right after the last
    aligned character before the piece, the marker and then the piece (``且傳以通經為義``
    in 孝經注疏's preface, where 傳 is no 傳 of a commentary)."""
    label = flat[n - 1] if n else None
    if label is None or label.kind != LABEL or len(label.text) != 1:
        return False
    r = ref_of[start]
    prev = next((ref_of[k] for k in range(start - 1, -1, -1) if ref_of[k] >= 0), None)
    return prev is not None and r - prev == 2 and match_form(label.text) == ref[r - 1]


def _grow(stream: str, ref: str, r: int, t: int, prev: int, start: int) -> int:
    """The tail's start moved back over the reference characters between the last aligned
    one (``prev``) and the tail's first (``r``): characters a run too short to count left
    unaligned (``六`` of ``六月`` when 六 also stands in the note) or written otherwise
    (榖/穀). Moved only when at least half of them are the same characters."""
    gap = r - prev - 1
    if gap <= 0 or t - gap < start:
        return t
    same = sum(stream[t - gap + i] == ref[prev + 1 + i] for i in range(gap))
    return t - gap if 2 * same >= gap else t


def tail(ref_of: list[int], start: int, end: int) -> int | None:
    """The stream offset where the aligned tail of ``start``…``end`` begins: characters
    aligned (``ref_of`` ≥ 0) one after another up to ``end``, two unaligned allowed at the
    very end and single unaligned characters inside; at least ``TAIL_MIN`` aligned and
    nine in ten; None when there is none."""
    k = end
    while k > start and end - k < END_SLACK and ref_of[k - 1] < 0:
        k -= 1
    last = k
    while k > start:
        if ref_of[k - 1] >= 0:
            k -= 1
            continue
        # a hole of up to HOLE characters the two editions write differently
        h = 1
        while h <= HOLE and k - h - 1 >= start and ref_of[k - h - 1] < 0:
            h += 1
        if h <= HOLE and k - h - 1 >= start and k < last:
            k -= h
        else:
            break
    while k < last and ref_of[k] < 0:
        k += 1
    hits = sum(1 for i in range(k, end) if ref_of[i] >= 0)
    if hits < TAIL_MIN or hits * 10 < (end - k) * 8:
        return None
    return k
