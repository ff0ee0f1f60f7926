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

"The classic read so far" (``Read``) is every classic piece before the note, as aligned, and
the characters after its last aligned one that are the reference's next. A tail goes on from
it when the reference characters between the two are few (``JUMP``), or are found, in order,
among the classic read since (short pieces a run of ``MIN_RUN`` leaves out, ``COVERED_MAX``),
or when the reference's words just before the tail are read and the tail's are not (a passage
the reference prints elsewhere). A tail that starts with words already read, after 曰 (a note
quoting them, ``故曰艮其止止其所也``), starts where the words not yet read begin; a note whose
end is, word for word, the reference's words right after the classic read so far ends in them
even where the alignment took another copy (``Read.direct``). The alignment here is made in
up to three passes (``alignment.align_moved``: a block the reference prints elsewhere, the 詩序
collected after the poems) and each run is carried over the next characters that are the
reference's, or one written otherwise (``_extend_runs``). A passage of ``INNER_MIN``
characters or more inside a note, going on from the classic read so far, with more of the
note after it (the next note's marker missing or misprinted, 傅 for 傳) is the classic too
(``_inner_passage``), unless the classic just read holds it already (``_recap``); the words
after it stay the note.

The alignment itself (``align``, ``align_moved``) is ``alignment``'s. Pure: pieces in,
pieces changed in place.
"""
from __future__ import annotations

from characters.folding import fold

from ..document import CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE, TEXT, PieceDoc
from .alignment import GRAM, MIN_RUN, align, align_moved  # noqa: F401  (align: the layer check's, here as before)

#: A tail holds at least this many aligned characters, and four in five of its characters.
TAIL_MIN = 2
#: Unaligned characters allowed at a tail's very end, and in one hole inside it (characters
#: the two editions write differently, or runs too short to count).
END_SLACK = 3
HOLE = 2
#: A tail with this many aligned characters is judged by its share of aligned characters
#: without the unaligned ones at its very end.
LONG_TAIL = 6
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
#: 苖 苗), and words editions interchange (于 於, 脩 修, 閒 間, 悌 弟, 饗 享: 穀梁傳 莊公四年
#: ``饗齊侯所以病齊侯也``, 享 in 欽定春秋傳說彙纂's quotation). Matching a juan with
#: its reference only; search and storage keep them apart.
MATCH_VARIANTS = str.maketrans({"巳": "已", "榖": "穀", "毁": "毀", "苖": "苗", "于": "於", "脩": "修",
                                "閒": "間", "悌": "弟", "齋": "齊", "饗": "享"})


def match_form(text: str) -> str:
    """``text`` as the reference step matches it: folded (``characters.folding.fold``), then
    ``MATCH_VARIANTS``; the same length as ``text``, so offsets hold."""
    return fold(text).translate(MATCH_VARIANTS)


def is_text(ch: str) -> bool:
    """Whether a (folded) character takes part in matching: CJK characters, not ○, not
    CJK punctuation (U+3000–303F), not full-width forms (U+FF00–FFEF)."""
    o = ord(ch)
    return o >= 0x2E80 and not (0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF)


def match_letters(text: str) -> str:
    """The characters of ``text`` that take part in matching, in their match form
    (``match_form``, then ``is_text``): ``"鄭伯克段于鄢。"`` → ``"鄭伯克段於鄢"``; what a block, a
    tail or a reference is compared as, never stored."""
    return "".join(ch for ch in match_form(text) if is_text(ch))


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` folded, text characters only (``is_text``), and each one's offset."""
    folded = match_form(text)
    keep = [k for k, ch in enumerate(folded) if is_text(ch)]
    return "".join(folded[k] for k in keep), keep


def _folded_note(flat: list[PieceDoc], n: int) -> tuple[str, list[int]]:
    """``_folded`` of ``flat[n]``'s text; for a note whose marker label is printed with its
    formula (``commentary_markers.MARKER_FORMULAS``: ``箋云``), the formula's words after the marker
    first, as the book prints them before the note (offset 0 each), so that the note is
    matched as the words it is printed as whether or not its label holds them."""
    folded, keep = _folded(flat[n].text)
    label = flat[n - 1] if n else None
    if flat[n].kind == NOTE and label is not None and label.kind == LABEL and len(label.text) > 1 \
            and label.layer == COMMENTARY:
        extra = _folded(label.text[1:])[0]
        return extra + folded, [0] * len(extra) + keep
    return folded, keep


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
           if (p.layer == CLASSIC and p.kind in (TEXT, NOTE)) or (p.kind == NOTE and p.layer == COMMENTARY)
           or (p.kind == NOTE and p.layer == EDITORIAL and p.layer_basis == LAYOUT)]
    if not any(flat[n].layer != CLASSIC for n in ids):
        return []
    folded = {n: _folded_note(flat, n) for n in ids}
    stream = "".join(folded[n][0] for n in ids)
    classic = [folded[n][0] for n in ids if flat[n].layer == CLASSIC]
    win = _window(reference, classic, len(stream) // 2 + 200)
    if win is None:
        return []
    ref = reference[win[0]:win[1]]
    ref_of = [-1] * len(stream)
    for r, s in enumerate(align_moved(ref, stream)):
        if s >= 0:
            ref_of[s] = r
    _extend_runs(ref, stream, ref_of)
    is_classic = [False] * len(stream)
    start = 0
    for n in ids:
        if flat[n].layer == CLASSIC:
            is_classic[start:start + len(folded[n][0])] = [True] * len(folded[n][0])
        start += len(folded[n][0])
    read = Read(ref, stream, ref_of, is_classic)
    cuts: list[tuple[int, int]] = []
    start = 0
    for n in ids:
        note, keep = folded[n]
        end = start + len(note)
        if flat[n].layer == CLASSIC or end == start:
            read.text(start, end)
            start = end
            continue
        t = tail(ref_of, start, end)
        if t == start:
            # the whole piece reads as the classic that goes on: a piece that only runs a
            # commentary on from the line before (no marker before it), or one whose
            # marker word is itself a word of the classic
            label = n and flat[n - 1].kind == LABEL
            if not label and read.continues(start, start) is not None:
                cuts.append((n, 0))
                read.text(start, end)
                start = end
                continue
            if label and _false_marker(flat, n, ref, ref_of, start):
                cuts.extend([(n - 1, 0), (n, 0)])
                read.text(start, end)
                start = end
                continue
            # the note's own words aligned with the classic too (再拜稽首 before the
            # classic 洗象觶…): the tail starts at a later break in the alignment
            t = _later_start(ref_of, start, end, read)
        found = None
        while t is not None and t > start:
            prev = read.continues(t, start, size=sum(1 for k in range(t, end) if ref_of[k] >= 0))
            if note[t - start - 1] not in QUOTE_INTRO and prev is not None:
                found = _extend_back(ref_of, start, _grow(stream, ref, ref_of[t], t, prev, start), read, note)
                break
            t = _later_start(ref_of, t, end, read)
        if found is None:
            # the alignment took another copy of the words (a note that quotes them after
            # 故曰): the note ends in the words that go on from the classic read so far
            found = read.direct(start, end, note)
        if found is None:
            inner = _inner_passage(note, ref_of, start, end, read)
            if inner is not None:
                # a passage with more of the note after it: the marker of the note that
                # follows it is missing or misprinted (``…予曰有禦侮傅率下親上…``)
                cuts.append((n, keep[inner[0] - start], keep[inner[1] - start]))
                read.text(*inner)
        if found is not None:
            found = _past_read(ref_of, read, _take_back(stream, ref, ref_of, read, start, found), end)
        if found is not None:
            cut = keep[found - start]
            if flat[n].text[cut - 1] == RESUME_MARK:
                cut -= 1
            cuts.append((n, cut))
            read.text(found, end)
        start = end
    return cuts


def _extend_runs(ref: str, stream: str, ref_of: list[int]) -> None:
    """Each aligned run of ``ref_of`` (stream offset → reference offset) extended, in place,
    over the unaligned characters just after it that are the reference's next characters,
    or a character the two editions write otherwise when the next ``MIN_RUN - 1`` are the
    reference's (不皇朝矣 where the reference writes 不遑朝矣); not before it (a note's last
    也 would join the classic's first words): the alignment of a repeated line (``武人東征不皇朝矣``,
    ``…不皇出矣``, ``…不皇他矣``) may give a run's last characters to another copy."""
    n = len(stream)
    for k in range(1, n):
        r = ref_of[k - 1]
        if ref_of[k] < 0 <= r and r + 1 < len(ref) and (
                stream[k] == ref[r + 1] or stream[k + 1:k + 1 + MIN_RUN - 1] == ref[r + 2:r + 1 + MIN_RUN]):
            ref_of[k] = r + 1


#: The fewest characters of a passage of the classic inside a note with more of the note
#: after it (``_inner_passage``).
INNER_MIN = GRAM
#: What stands before a quotation inside a note: it quotes, the passage is not the classic.
QUOTES = QUOTE_INTRO + "云"


def _inner_passage(note: str, ref_of: list[int], start: int, end: int, read: "Read") -> tuple[int, int] | None:
    """``(first, stop)`` stream offsets of a passage of the classic inside the note
    ``start``…``end`` with more of the note after it: at least ``INNER_MIN`` characters
    aligned one after another, not after 曰 or 云, going on from the classic read so far
    (``Read.continues`` without the characters aligned inside the note); None when there
    is none."""
    k = start + 1
    while k < end - INNER_MIN:
        r = ref_of[k]
        if r < 0 or (ref_of[k - 1] >= 0 and ref_of[k - 1] == r - 1):
            k += 1
            continue
        j = k
        while j + 1 < end and ref_of[j + 1] == ref_of[j] + 1:
            j += 1
        if j + 1 - k >= INNER_MIN and j + 1 < end and note[k - start - 1] not in QUOTES \
                and read.continues(k, start, near=False) is not None and not _recap(read, k, j + 1):
            return k, j + 1
        k = j + 1
    return None


#: How far back (stream characters) a passage inside a note is looked for among the classic
#: just read (``_recap``).
RECAP_WINDOW = 200


def _recap(read: "Read", first: int, stop: int) -> bool:
    """True when the words ``first``…``stop`` of the stream stand, as they are, in the classic
    read (classic pieces and words cut out of notes) within ``RECAP_WINDOW`` characters before
    them: the note goes over the passage it
    explains, which the book has just printed in short pieces the alignment left out
    (尚書注疏 舜典 ``舜生三十徵庸傳…三十在位傳…五十載陟方乃死傳…葬焉三十徵庸三十在位服喪三年…``,
    孔傳 summing up), not the classic going on: the classic does not print eight words again
    within one entry."""
    lo = max(0, first - RECAP_WINDOW)
    before = "".join(read.stream[x] for x in range(lo, first) if read.is_classic[x] or read.cut[x])
    return read.stream[first:stop] in before


#: The fewest characters a note's end must share with the words that go on from the
#: classic read so far for ``Read.direct`` to take them as the classic.
DIRECT_MIN = 4
#: The most reference characters between the classic read so far and a tail that the
#: classic pieces read in between may account for (``Read.continues``): short pieces of
#: classic, each under ``MIN_RUN`` characters, that the alignment leaves out
#: (``溫原絺樊隰成欑茅向盟州陘隤懷``, each with its 注).
COVERED_MAX = 80
#: A tail of this many aligned characters goes on from the classic read so far across up to
#: ``COVERED_MAX`` reference characters the edition lacks.
LONG_GAP_TAIL = 12


class Read:
    """The classic read so far while ``reference_tails`` walks a juan: ``last`` is the
    reference offset of its last aligned character and ``at`` that character's stream
    offset (None before any)."""

    def __init__(self, ref: str, stream: str, ref_of: list[int], is_classic: list[bool]):
        self.ref, self.stream, self.ref_of, self.is_classic = ref, stream, ref_of, is_classic
        #: the stream characters cut out of notes as the classic so far (``text``)
        self.cut = [False] * len(stream)
        self.last: int | None = None
        self.at: int | None = None
        self.direct_at: dict[int, int] = {}
        self.done = [False] * len(ref)
        #: the reference characters read as a classic piece's last characters the alignment left out
        self.trailing = [False] * len(ref)

    def text(self, start: int, end: int) -> None:
        """Stream ``start``…``end`` is classic: its last aligned character (or the end of a
        direct match) is now the last read."""
        last = None
        self.cut[start:end] = [True] * (end - start)
        for k in range(start, end):
            r = self.direct_at.get(k, self.ref_of[k])
            if r >= 0:
                self.done[r] = True
                last = (r, k)
        if last is None:
            return
        # the piece's last characters the alignment left out (a run too short to count,
        # or taken by a note that quotes them) are read too when they are the reference's
        # next characters (形乃謂之器, with 器 aligned to the 注 成形曰器 after it)
        # (one of them may be written otherwise when the piece's characters after it, to its end, are
        # the reference's: 孝經注疏 ``卜其宅兆而安措之`` where the reference writes 安厝之)
        r, k = last
        while k + 1 < end and r + 1 < len(self.ref) and (
                self.stream[k + 1] == self.ref[r + 1] or self._otherwise(k + 1, r + 1, end)):
            r, k = r + 1, k + 1
            self.done[r] = self.trailing[r] = True
        self.last, self.at = r, k

    def _otherwise(self, k: int, r: int, end: int) -> bool:
        """Whether stream ``k`` stands for reference ``r``, written otherwise: the stream's
        characters after it up to ``end`` (one at least) are the reference's after ``r``."""
        rest = self.stream[k + 1:end]
        return bool(rest) and rest == self.ref[r + 1:r + 1 + len(rest)]

    def continues(self, t: int, start: int, near: bool = True, size: int = 0) -> int | None:
        """The reference offset the tail at stream ``t`` goes on from, or None: the last
        character aligned before ``t`` within ``JUMP`` reference characters before it, or
        the classic read so far, within ``JUMP`` or with the reference characters between
        found, in order, among the classic characters read since (``COVERED_MAX``), all but
        ``JUMP // 2`` of them (a name the two editions write otherwise, 成/郕)."""
        r = self.ref_of[t]
        if near:
            near = next((self.ref_of[k] for k in range(t - 1, -1, -1) if self.ref_of[k] >= 0), None)
            if near is not None and 0 < r - near <= JUMP:
                return near
        if not self.done[r]:
            # the words just before the tail's in the reference are read, the tail's are
            # not: the classic goes on there, wherever the reference prints that passage
            # (a block it moves, 繫辭's 天數)
            back = next((p for p in range(r - 1, max(-1, r - 1 - JUMP), -1) if self.done[p]), None)
            if back is not None:
                return back
        if self.last is None or r <= self.last:
            return None
        if r - self.last <= JUMP:
            return self.last
        gap = self.ref[self.last + 1:r]
        if len(gap) > COVERED_MAX:
            return None
        read = "".join(self.stream[k] for k in range(self.at + 1, start) if self.is_classic[k])
        k = 0
        found = 0
        for ch in gap:
            j = read.find(ch, k)
            if j >= 0:
                found += 1
                k = j + 1
        if len(gap) - found <= JUMP // 2:
            return self.last
        # a long tail: the reference has words the edition lacks between (欽定春秋傳說彙纂's
        # 傳 with 古者天子封諸侯… that 范甯's text has not)
        return self.last if size >= LONG_GAP_TAIL else None

    def direct(self, start: int, end: int, note: str) -> int | None:
        """The stream offset where the note ``start``…``end`` ends in the words that go on,
        in the reference, right after the classic read so far (within ``JUMP``), at least
        ``DIRECT_MIN`` of them and not after 曰; None when it does not."""
        if self.last is None:
            return None
        after = self.ref[self.last + 1:self.last + 1 + JUMP + (end - start)]
        best = None
        for size in range(DIRECT_MIN, end - start):
            if after.find(note[-size:], 0, JUMP + size) < 0:
                break
            if note[-size - 1] not in QUOTE_INTRO:
                best = size
        if best is None:
            return None
        at = after.find(note[-best:], 0, JUMP + best) + self.last + 1
        for i in range(best):
            self.direct_at[end - best + i] = at + i
        return end - best


def _later_start(ref_of: list[int], t: int, end: int, read: "Read | None" = None) -> int | None:
    """The next place after ``t`` where the aligned run breaks (an unaligned character, or
    a jump in the reference), or where it goes on from the classic read so far (``read``:
    a note that quotes words of the classic already read, ``故曰艮其止止其所也``, then the
    classic goes on, ``上下敵應…``), and an aligned tail (``tail``) still runs from it to
    ``end``; None when there is none."""
    last = read.last if read is not None else None
    for k in range(t + 1, end - TAIL_MIN + 1):
        if ref_of[k] < 0:
            continue
        brk = ref_of[k - 1] < 0 or ref_of[k] != ref_of[k - 1] + 1
        resumes = last is not None and ref_of[k] == last + 1 and 0 <= ref_of[k - 1] <= last
        if (brk or resumes) and tail(ref_of, k, end) == k:
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


def _extend_back(ref_of: list[int], start: int, found: int, read: "Read", note: str) -> int:
    """The tail's start ``found`` moved back, as long as the words before it in the note are
    an aligned tail too (``tail``) that goes on from the classic read so far, and the
    reference goes on from them to the tail within ``JUMP``: a hole of up to ``END_SLACK``
    characters the two editions write otherwise (``…貶而戎之也楚邱衛之邑也`` where the
    reference writes ``貶而戎之楚丘衛之邑也``) does not cut the classic in two."""
    while True:
        first = next((ref_of[k] for k in range(found, len(ref_of)) if ref_of[k] >= 0), -1)
        j, gap = found - 1, 0
        while j >= start and ref_of[j] < 0 and gap < END_SLACK:
            j, gap = j - 1, gap + 1
        if j < start or ref_of[j] < 0 or not 0 < first - ref_of[j] <= JUMP:
            return found
        t = tail(ref_of, start, j + 1)
        while t is not None and t < found and (t == start or note[t - start - 1] in QUOTE_INTRO
                                               or read.continues(t, start) is None):
            # the words before aligned with a quotation elsewhere (天子之命): a later break
            t = _later_start(ref_of, t, j + 1, read)
        if t is None or t >= found:
            return found
        found = t


def _take_back(stream: str, ref: str, ref_of: list[int], read: "Read", start: int, found: int) -> int:
    """The tail's start ``found`` moved back over the note's last characters the alignment left
    out because it gave their reference characters to a note's words before them, unread as the
    classic (論語注疏 卷十二 ``…何如注孔曰…以止姦孔子對曰…``: the reference's 孔 of 孔子對曰 went to
    the 注's 孔 of 孔曰, so the classic began at 子對曰): each unaligned character just before
    the tail that is the reference's character before the tail's first, not read yet."""
    r = read.direct_at.get(found, ref_of[found])
    while found > start and r > 0 and ref_of[found - 1] < 0 and stream[found - 1] == ref[r - 1] \
            and not read.done[r - 1]:
        found, r = found - 1, r - 1
    return found


def _past_read(ref_of: list[int], read: "Read", found: int, end: int) -> int | None:
    """The tail's start ``found`` moved on over its first characters whose reference characters
    a classic piece read before ended in (``Read.trailing``: its last characters, left out of the
    alignment, which gave their reference characters to the note's last words instead; 孝經注疏
    喪親章 ``…卜其宅兆而安措之注宅墓穴也…葬事大故卜之為之宗廟…``: the reference's 之 of 安厝之 went to
    the 注's 之 of 卜之, and the classic began at that 之; 周易註疏 序卦 ``晉者進也注…要是進也進必有所傷…``):
    a reference character is read once. None when every character of the tail is read so."""
    while found < end:
        r = read.direct_at.get(found, ref_of[found])
        if r < 0 or not read.trailing[r]:
            return found
        found += 1
    return None


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
    aligned (``ref_of`` ≥ 0) one after another up to ``end``, up to three unaligned allowed
    at the very end and holes of up to ``HOLE`` inside; at least ``TAIL_MIN`` aligned and four
    in five (the unaligned ones at the very end not counted for a tail of ``LONG_TAIL``
    aligned, or of ``MIN_RUN`` with one or two at the end); None when there is none."""
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
    # four in five aligned, the characters at the very end left out of the count when the
    # tail is long enough (明辯晢也 where the reference writes 明辨晰也)
    if hits < TAIL_MIN or hits * 10 < ((last if hits >= LONG_TAIL or (hits >= MIN_RUN and end - last < END_SLACK)
                                        else end) - k) * 8:
        return None
    return k
