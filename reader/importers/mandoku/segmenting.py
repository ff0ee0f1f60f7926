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

* a character of a stretch that is the reference's next one costs nothing, and so does one
  the character table gives as a form of it (``related_forms``: 柰 奈, the 白文 柰何, 河上公
  and 王弼 奈何; not the loans it also lists, 能 而); one the editions write otherwise costs ``SUBSTITUTE``, a character of a stretch the
  reference lacks ``INSERT``;
* where other editions of the classic are witnesses beside the reference (``witnesses``), a
  character any of them prints at a place reads as the reference's there (``alternates``:
  斯不善已, the 白文 斯不善矣, 王弼 斯不善已), and a place only some of them print costs, left out,
  the share that print it (``held``: the 故 of 王弼 故常無欲, half a character);
* reference characters the book leaves out are a gap, which costs ``GAP_OPEN`` once and
  ``GAP_EXTEND`` each (1): the opening costs nothing more. A gap priced by the word rather
  than the character (its first character 1, each further one 0.6) reads a word the 道藏
  河上公 lacks as one gap instead of matching it character by character inside the note
  beside it (非其鬼不神: 鬼不 | 敢見其精 | 神 taken from its 章句 則鬼不敢見其精神以犯人), and so
  reads all 931 characters of the 章句 of chapters 60–64 right, not 925; but on chapters
  30–34, held back, it loses 11 of the classic's 346 characters (323 right, 312), so the
  gap is priced by the character;
* a substitution costs more than one character left out, so a character beside a note that
  the reference lacks goes with the note (則無不治 | 德化厚, the 白文 則無不治矣), and one
  inside a stretch is read as the reference's (強其骨, the 白文 彊其骨: 1.2 against 2 for
  leaving one out and adding one);
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
而不有爲而不恃). The reading is then read again by how a note is written (``opening_notes``): it glosses
the stretch before it from that stretch's first words, so a note that opens with them takes the
characters it repeats at the seam (大直若屈 | 大直謂…, not 大直若屈大 | 直謂…), and a stretch whose
note repeats its opening with the characters before it takes those (侯王若能守之 | 侯王若能守道…), and
the characters a stretch ends with that open its note with the stretch's first words, where the
reference does not print them all in their places, are the note's (``repeated_openings``: 木强則共 |
木强大則枝葉共生其上, not 木强則共木强大 | 則枝葉…).
The edition's own wording is its classic: a character read alike with the reference's in its place
costs less than one the book lacks (``SOUND``, ``read_alike``: 與善人, the 白文 與善仁), and the reading
is read again where the edition writes one or two of the classic's words otherwise and they were given to
the note beside, which repeats them (``written_otherwise``: 廉而不害 | 聖人廉清…不以傷害人也, the 白文
廉而不劌), or where a note opens with the next stretch's words in another order (之迷其固日乆 | 言人君…
其日固乆, not 之迷其 | 固日乆言人君…其 | 日固乆).
The costs were set on 河上公 chapters 1–9 and 王弼 21–22, and checked on 河上公 60–64 and on
30–34, held back (``tests/test_laozi.py``).

Pure: strings in, flags out. Memory: one byte per (book character, reference character)
for the way back (a juan of 11,000 characters against a stretch of 3,000 of the
reference: about 33 MB). Time: each book character is read against the band of the
reference around the places the two texts are found to agree (``bands``), not all of it,
and all five ways of reaching a place are worked out at once: parsing 河上公 卷三 (10,823
characters) takes 0.7–1.0 s of CPU (1.2–1.3 s a way at a time).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from os.path import commonprefix

import numpy as np

from characters.dictionary import lookup

#: Costs of the reading (see the module docstring).
SUBSTITUTE = 1.2
VARIANT = 0.0
#: A character read as the reference's (``read_alike``: the same usual reading) in its place: less
#: than one reference character left out, so that the edition's word written by another character of
#: its sound stays in the classic beside a note (與善人 | 萬物得水…, the 白文 與善仁).
SOUND = 0.9
INSERT = 1.0
#: A gap (reference characters the book leaves out) costs ``GAP_OPEN`` once and ``GAP_EXTEND`` per
#: character: no opening cost (see the module docstring).
GAP_OPEN = 0.0
GAP_EXTEND = 1.0
NOTE = 0.8
#: Each character of a margin around the chapters a book is known to hold (``segment``'s ``edges``)
#: left out.
EDGE_DELETE = 0.5
#: What a note of one or two characters costs more: a commentator's gloss holds three or more.
SHORT = 0.8
#: Tie-breaks, far below any cost: a note opening with the classic's last word (up to
#: ``GLOSS_MAX`` characters repeated), and each character of the classic by its offset in
#: the book (the first copy of the classic's words is the classic).
GLOSS = 1e-2
GLOSS_MAX = 3
EARLIER = 1e-7
#: ``opening_notes``: how many characters a note's opening (with the words moved into it) must
#: share with the opening of the stretch before it.
OPENING_SHARED = 2
INF = 1e18
#: In ``segment``'s ``alternates``: no other character printed at a place.
NONE = "\0"
#: Below the smallest tie-break: two costs closer than this are one.
TOLERANCE = 1e-9
#: The ways a place (book character, reference character) is reached, one row each: after a
#: character of the classic, in a gap after it (reference characters left out), in a note of
#: one, two, three or more characters.
_CLASSIC, _GAP, _NOTE1, _NOTE2, _NOTE3 = range(5)
#: What closing each way with a character of the classic costs more: a note under three characters.
_CLOSING = np.array([0.0, 0.0, SHORT, SHORT, 0.0])[:, None]


#: The sources of the character table (``characters.dictionary``, codes of
#: ``characters/scripts/build_char_table.py``) whose relation between two characters makes them
#: one character of the classic: Unihan's variants and the MOE 異體字字典, tables of forms of
#: one character. The 漢語大字典's relations are left out: they hold loans between two words
#: (能 而, 已 以), which the editions of a classic do not write for each other at random.
FORM_SOURCES = ("unihan", "moe")


@lru_cache(maxsize=None)
def related_forms(ch: str) -> tuple[str, ...]:
    """The characters the character table gives as forms of ``ch`` by one of ``FORM_SOURCES``
    and which give ``ch`` as a form in turn (柰 奈 by Unihan, 耶 邪 by the MOE table); search
    keeps them apart, the reading of the classic takes them as one character. ``()`` for a
    character the table does not hold or relates by none of them."""
    entry = lookup(ch)
    return tuple(v for v, sources in entry.relations.items()
                 if v != ch and any(x.startswith(FORM_SOURCES) for x in sources) and ch in lookup(v).variants)


@lru_cache(maxsize=None)
def _usual_reading(ch: str) -> str:
    """The character's usual Mandarin reading with its tone (Unihan kMandarin, the first), "" for none."""
    mandarin = lookup(ch, follow=False).mandarin
    return mandarin[0] if mandarin else ""


def read_alike(ch: str, among: Iterable[str]) -> tuple[str, ...]:
    """The characters of ``among`` (``ch`` left out) whose usual reading (Unihan kMandarin, tone
    and all) is ``ch``'s: 人 仁 (rén), 醇 淳 (chún), 訞 祅 (yāo). The editions of a classic write a word
    by another character of its sound (通假: the 道藏 河上公 與善人, 其民醇醇, 善伏爲訞 where the 白文 prints
    與善仁, 其民淳淳, 善復爲祅), so such a character in the reference's place is the classic's word
    (``SOUND``). ``()`` for a character with no reading in the table."""
    sound = _usual_reading(ch)
    return tuple(x for x in _by_sound(frozenset(among)).get(sound, ()) if x != ch) if sound else ()


@lru_cache(maxsize=None)
def _toneless(ch: str) -> str:
    """``_usual_reading`` without its tone (服 fú and 復 fù: fu), "" for none."""
    return "".join(c for c in unicodedata.normalize("NFD", _usual_reading(ch)) if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def _by_sound(among: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The characters of ``among`` by their usual reading (``_usual_reading``)."""
    out: dict[str, list[str]] = {}
    for x in among:
        out.setdefault(_usual_reading(x), []).append(x)
    return {k: tuple(v) for k, v in out.items()}


def _gloss(ed: str, j: int) -> bool:
    """Whether a note opening at ``ed[j]`` starts by repeating the last 1–``GLOSS_MAX``
    characters before it."""
    return any(j - k >= 0 and ed[j:j + k] == ed[j - k:j] for k in range(1, GLOSS_MAX + 1))


#: Words the editions of a classic add or drop at will (particles: 則無不治 | 德化厚, the 白文
#: 則無不治矣): a reference character left out that is one of them is dropped by the edition, not
#: written otherwise (``written_otherwise``).
PARTICLES = frozenset("矣也兮之乎哉焉耶邪與歟者而於于其以夫故則亦是")
#: ``written_otherwise``: how many characters a stretch may take from the note beside it.
OTHERWISE_MAX = 2
#: ``written_otherwise``: the characters a stretch holds of its own to take words from the note beside
#: it (a stretch of the classic is a phrase; one of a character or two is as likely misread).
STRETCH_MIN = 3


def _runs(flags: Sequence[bool]) -> list[list[int]]:
    """``[start, end)`` of each run of True in ``flags``."""
    out, j, n = [], 0, len(flags)
    while j < n:
        if flags[j]:
            k = j
            while k < n and flags[k]:
                k += 1
            out.append([j, k])
            j = k
        else:
            j += 1
    return out


def _otherwise(words: str, places: list[set[str]], note: str) -> bool:
    """Whether each of ``words`` (none of ``PARTICLES``) is none of the characters printed at its place
    (``places``) and ``note`` repeats it."""
    return all(w not in ps and w not in PARTICLES and w in note for w, ps in zip(words, places))


def written_otherwise(ed: str, flags: list[bool], ref: str, read_at: Sequence[int],
                      classic_at: frozenset[int] = frozenset(),
                      alternates: tuple[str, ...] = ()) -> tuple[list[bool], list[int]]:
    """``(flags, read_at)`` (``segment``'s reading of ``ed`` against ``ref``, and for each character of
    the classic how many of ``ref``'s were read with it) read again where the edition writes the
    classic's words otherwise than ``ref`` and the reading gave them to a note beside. A book of
    this kind prints each stretch of its classic whole, in its own wording, and then the note on
    it, which paraphrases the stretch, repeating its words (其民醇醇 | 政教弘大故民醇醇富厚…); so
    between two stretches (``a`` … | note | ``b`` …):

    * where nothing of ``ref`` was left out between them and the note opens with ``b``'s first
      2–``GLOSS_MAX`` characters in another order (之迷其 | 固日乆言人君…以來其 | 日固乆是以, ``ref``
      之迷其日固乆是以), those characters close ``a`` and ``b``'s copy of them opens the note: the
      classic is the first copy of its words (``EARLIER``), written as the edition writes them
      (之迷其固日乆 | 言人君迷惑失正以來其日固乆 | 是以);
    * where characters of ``ref`` were left out between them (none of ``PARTICLES``, which an
      edition drops), the note's first (up to ``OTHERWISE_MAX``) characters written otherwise
      close ``a`` when the note repeats each of them (廉而不 | 害聖人廉清…不以傷害人也, the 白文
      廉而不劌: 廉而不害 | 聖人廉清…), and its last ones open ``b`` when the note after ``b`` repeats
      each of them (…爲訞祥也人 | 之迷其固日乆 | 言人君…, the 白文 民之迷: …爲訞祥也 | 人之迷其固日乆).

    A character of ``ref`` left out is written otherwise only where neither it nor any other
    edition's character at its place (``alternates``, as ``segment`` takes them) is one the note
    between prints (衆人熙熙 | 熙熙淫放多情欲如 | 享太牢: the 如 the note ends with is the classic's
    word, read into the note, not written otherwise). Every character left out there must be so
    accounted for, the note's first characters and its last ones, at most ``OTHERWISE_MAX`` each
    (a longer stretch left out is words the edition lacks); the stretch taking them holds
    ``STRETCH_MIN`` characters of its own, and a note opening with the stretch's last character or
    its first words glosses it (``GLOSS``, ``opening_notes``: 天下之牝 | 牝者陰類也…) and gives nothing.
    A note keeps three characters or more; ``classic_at`` offsets stay the classic. New lists."""
    flags, read_at = list(flags), list(read_at)
    n = len(ed)
    runs = _runs(flags)
    for r in range(len(runs) - 1):
        (a1, b1), (a2, b2) = runs[r], runs[r + 1]
        lo, hi = read_at[b1 - 1], max(read_at[a2] - 1, read_at[b1 - 1])
        if not ref[lo:hi]:
            for k in range(GLOSS_MAX, 1, -1):
                opening, copy = ed[b1:b1 + k], ed[a2:a2 + k]
                if (b2 - a2 > k and a2 - b1 >= k and opening != copy and sorted(opening) == sorted(copy)
                        and not classic_at.intersection(range(a2, a2 + k))):
                    flags[b1:b1 + k] = [True] * k
                    flags[a2:a2 + k] = [False] * k
                    read_at[b1:b1 + k] = [lo + t + 1 for t in range(k)]
                    runs[r][1], runs[r + 1][0] = b1 + k, a2 + k
                    break
            continue
        if hi - lo > OTHERWISE_MAX * 2:
            continue
        between = ed[b1:a2]
        heard = {_toneless(x) for x in between} - {""}
        # the characters printed at each place left out; none the note prints, or reads alike
        printed = [{ref[x]} | {a[x] for a in alternates} - {NONE} for x in range(lo, hi)]
        if any(ps & PARTICLES or ps & set(between) or {_toneless(c) for c in ps} & heard for ps in printed):
            continue
        after = ed[b2:runs[r + 2][0] if r + 2 < len(runs) else n]
        # a note opening with the stretch's last word or first words glosses it (``GLOSS``, ``opening_notes``)
        glossing = ed[b1] == ed[b1 - 1] or ed[b1:b1 + 2] in ed[a1:a1 + GLOSS_MAX + 1]
        opens = next((k for k in range(min(OTHERWISE_MAX, hi - lo), 0, -1)
                      if b1 - a1 >= STRETCH_MIN and not glossing
                      and _otherwise(ed[b1:b1 + k], printed[:k], ed[b1 + k:a2])), 0)
        rest = hi - lo - opens
        if rest and not (rest <= OTHERWISE_MAX and b2 - a2 >= STRETCH_MIN
                         and _otherwise(ed[a2 - rest:a2], printed[opens:], after)):
            continue
        if a2 - rest - (b1 + opens) < 3 or classic_at.intersection(range(b1, a2)) - set(range(a2 - rest, a2)):
            continue
        flags[b1:b1 + opens] = [True] * opens
        read_at[b1:b1 + opens] = [lo + t + 1 for t in range(opens)]
        flags[a2 - rest:a2] = [True] * rest
        read_at[a2 - rest:a2] = [lo + opens + t + 1 for t in range(rest)]
        runs[r][1], runs[r + 1][0] = b1 + opens, a2 - rest
    return flags, read_at


def opening_notes(ed: str, flags: list[bool], classic_at: frozenset[int] = frozenset(), ref: str = "",
                  read_at: Sequence[int] = ()) -> list[bool]:
    """``flags`` (``segment``'s reading of ``ed``, True for the classic) read again by how a note
    is written: it glosses the stretch of the classic before it from that stretch's first words
    (河上公 大直若屈 | 大直謂…, 侯王若能守之萬物將自賔 | 侯王若能守道…; 王弼 天下有道却走馬以糞 |
    天下有道知足…). So, for each stretch and the note after it:

    * where the note opens with the last 1–``GLOSS_MAX`` characters of the note before the stretch
      and then the stretch's own first ``OPENING_SHARED`` or more, and ``ref`` prints each of those
      characters within ``GLOSS_MAX`` of the places the stretch was read against (``read_at``: for
      each character of the classic, how many of ``ref``'s were read with it), those characters open
      the stretch (道者也侯 | 王若能守之… | 侯王若能守道 becomes 道者也 | 侯王若能守之… | 侯王若能守道: the
      reference's 王侯, a word the texts print in another order, cost the 侯 to the note before);
    * where the note ends with the stretch's last 1–``GLOSS_MAX`` characters, and those characters
      with the note's opening repeat the stretch's first ``OPENING_SHARED`` or more (and more than
      the characters moved), the characters open the note and close it no more (大直若屈大 |
      直謂…如可屈折也大 | 巧若拙 becomes 大直若屈 | 大直謂…如可屈折也 | 大巧若拙): the two readings cost
      the same, each character read against the same place of the reference, and the tie-break of
      the earlier copy (``EARLIER``) chose the other.

    A note keeps three characters or more, a stretch one or more; ``classic_at`` offsets stay the
    classic. A new list; with no ``ref``, no stretch opens earlier."""
    flags = list(flags)
    n, j, opened = len(flags), 0, 0
    while j < n:
        if not flags[j]:
            j += 1
            continue
        start = j
        note_before = opened
        while j < n and flags[j]:
            j += 1
        note = j
        while j < n and not flags[j]:
            j += 1
        opened = note
        if note == n:  # no note after the stretch
            break
        for k in range(min(GLOSS_MAX, start - note_before - 3), 0, -1):
            if (len(commonprefix([ed[note:j], ed[start - k:note]])) >= k + OPENING_SHARED
                    and set(ed[start - k:start]) <= set(ref[max(read_at[start] - 1 - k - GLOSS_MAX, 0):
                                                             read_at[note - 1] + GLOSS_MAX])):
                flags[start - k:start] = [True] * k
                start -= k
                break
        if j == n:  # no stretch after the note
            break
        for k in range(min(GLOSS_MAX, note - start - 1, j - note - 3), 0, -1):
            words = ed[note - k:note]
            shared = len(commonprefix([words + ed[note:j - k], ed[start:note - k]]))
            if (ed[j - k:j] == words and shared >= max(OPENING_SHARED, k + 1)
                    and not classic_at.intersection(range(note - k, note))):
                flags[note - k:note] = [False] * k
                flags[j - k:j] = [True] * k
                j -= k
                opened = note - k
                break
    return repeated_openings(ed, flags, classic_at, ref, read_at)


def repeated_openings(ed: str, flags: list[bool], classic_at: frozenset[int] = frozenset(), ref: str = "",
                      read_at: Sequence[int] = ()) -> list[bool]:
    """``flags`` read again where a stretch ends with words that open the note after it: the note
    glosses its stretch from the stretch's first words (``opening_notes``), so where the stretch's last
    1–``GLOSS_MAX`` characters, with the note, open it with the stretch's first ``OPENING_SHARED`` or more
    and the reference does not print every one of them in its place (``read_at``: one at least was read
    against another character of ``ref``, or against none), they are the note's opening: 河上公 chapter 76
    木强則共木强大 | 則枝葉共生其上 becomes 木强則共 | 木强大則枝葉共生其上, its 木 and 大 read against the
    白文's 堅 and 居 (故堅彊居下, where the 道藏 prints 强大處下). Words of the classic the reference prints
    in their places stay, repeated or not. A stretch keeps one character or more; ``classic_at``
    offsets stay the classic. A new list; with no ``ref``, ``flags``."""
    flags = list(flags)
    if not ref:
        return flags
    n, j = len(flags), 0
    while j < n:
        if not flags[j]:
            j += 1
            continue
        start = j
        while j < n and flags[j]:
            j += 1
        note = j
        while j < n and not flags[j]:
            j += 1
        if j == n:  # no note after the stretch, or no stretch after the note
            break
        for k in range(min(GLOSS_MAX, note - start - 1), 0, -1):
            tail = range(note - k, note)
            if all(read_at[x] and ref[read_at[x] - 1] == ed[x] for x in tail) or classic_at.intersection(tail):
                continue
            if len(commonprefix([ed[note - k:j], ed[start:note - k]])) >= OPENING_SHARED:
                flags[note - k:note] = [False] * k
                break
    return flags


def segment(ref: str, ed: str, edges: tuple[int, int] = (0, 0),
            classic_at: frozenset[int] = frozenset(), bands: list[tuple[int, int]] | None = None,
            forms: Callable[[str], Iterable[str]] | None = related_forms,
            alternates: tuple[str, ...] = (), held: Sequence[float] | None = None,
            sounds: Callable[[str, Iterable[str]], Iterable[str]] | None = read_alike) -> list[bool]:
    """For each character of ``ed`` (the book's text, folded, text characters only),
    whether it is the classic, read against ``ref`` (the stretch of the reference the book
    holds, folded the same way). ``edges``: how many of ``ref``'s first and last characters
    are a margin around the chapters the book is known to hold, each left out at
    ``EDGE_DELETE``: the book may hold them (a juan's first words, before any stretch found
    for certain) or not, so a stretch of them in the book is read as the classic, but a
    character of a note is not taken to save leaving one out; leaving out the margin before
    the book's first character or after its last opens no gap. ``classic_at``: offsets of ``ed`` that must be the classic (a
    chapter's first character: a chapter opens with its classic). ``bands``: for each
    character of ``ed``, the first and last number of ``ref``'s characters read once it is
    read (nondecreasing both; from the places where the two texts are found to agree,
    widened): the reading keeps within them, which saves time and changes nothing while they
    hold the best reading; None, all of ``ref``. ``forms``: the characters read as one with
    a character (cost ``VARIANT``), None for none. ``alternates``: strings as long as ``ref``,
    each giving at each place another character an edition prints there (``NONE`` for none),
    read as the reference's own (another edition of the classic: ``witnesses.merge``).
    ``held``: for each of ``ref``'s characters the share of the editions that print it (1 for
    every one; None, all 1): leaving it out costs ``GAP_EXTEND`` times that share. ``sounds``: the
    characters of a set read alike with a character (cost ``SOUND``), None for none. See the
    module docstring for the costs."""
    n, m = len(ed), len(ref)
    if not n:
        return []
    if not m:
        return [False] * n
    ref_codes = np.frombuffer(ref.encode("utf-32-le"), dtype=np.uint32)
    alt_codes = [np.frombuffer(a.encode("utf-32-le"), dtype=np.uint32) for a in alternates]
    unit = np.full(m, GAP_EXTEND) if held is None else GAP_EXTEND * np.asarray(held, dtype=float)
    unit[:edges[0]] = EDGE_DELETE
    if edges[1]:
        unit[m - edges[1]:] = EDGE_DELETE
    steps = np.concatenate([[0.0], np.cumsum(unit)])  # extending a gap over ref[k:i] costs steps[i] - steps[k]
    at = np.arange(m + 1)
    lead = steps + np.where(at > edges[0], GAP_OPEN, 0.0)  # ref[:i] left out before the book's first
    tail = steps[m] - steps + np.where(at < m - edges[1], GAP_OPEN, 0.0)  # ref[i:] after its last
    present = set(ref).union(*alternates)
    partners = {ch: np.array([ord(x) for x in forms(ch) if x in present], dtype=np.uint32) if forms else None
                for ch in set(ed)}
    frozen = frozenset(present)
    alike = {ch: np.array([ord(x) for x in sounds(ch, frozen)], dtype=np.uint32) if sounds else None
             for ch in set(ed)}
    # two rows, the one before and the one being read, each (way, reference characters read);
    # a row is reused two characters on, its band set back out of reach first
    before_row, row = np.full((5, m + 1), INF), np.full((5, m + 1), INF)
    before_row[_CLASSIC] = lead
    written = (0, m + 1)  # the band of the row ``row`` held
    # the way back, one byte per (book character, reference character): bits 0-3 how the
    # classic was reached (0-4 a character read after the way of that number, 5-9 one
    # inserted after it), bit 4 the gap (1 extended, 0 opened after the classic), bit 5 a
    # note of one character (1 opened in a gap, 0 after the classic), bit 6 a note of three
    # or more (1 from three or more, 0 from two)
    back = np.zeros((n, m + 1), dtype=np.uint8)
    how = np.zeros(m + 1, dtype=np.uint8)
    band_before = (0, m + 1)
    for j in range(n):
        # the row of ``ed[j]`` is worked out in its band ``[lo, hi)``, from the row before in
        # ``[before, hi)``; every other place is out of reach
        lo, hi = (bands[j][0], bands[j][1] + 1) if bands else (0, m + 1)
        before = max(lo - 1, 0)
        row[:, written[0]:written[1]] = INF
        written = (lo, hi)
        closing = before_row[:, before:hi] + _CLOSING
        best = closing.min(0)
        # the first of equals: the classic before a gap before a note
        came = np.ascontiguousarray(closing.T).argmin(1).astype(np.uint8)
        first = max(lo, 1)  # the first reached by reading a reference character
        codes = ref_codes[first - 1:hi - 1]
        cost = np.where(codes == ord(ed[j]), 0.0, SUBSTITUTE)
        others = [a[first - 1:hi - 1] for a in alt_codes]
        if alike[ed[j]] is not None and len(alike[ed[j]]):
            for printed in [codes] + others:
                cost[np.isin(printed, alike[ed[j]])] = np.minimum(cost[np.isin(printed, alike[ed[j]])], SOUND)
        if partners[ed[j]] is not None and len(partners[ed[j]]):
            for printed in [codes] + others:
                cost[np.isin(printed, partners[ed[j]])] = VARIANT
        for other in others:
            cost[other == ord(ed[j])] = 0.0
        classic = row[_CLASSIC]
        how[lo:hi] = 0
        classic[first:hi] = best[first - 1 - before:hi - 1 - before] + cost + EARLIER * j
        how[first:hi] = came[first - 1 - before:hi - 1 - before]
        inserted = best[lo - before:hi - before] + INSERT + EARLIER * j
        better = inserted < classic[lo:hi] - TOLERANCE
        classic[lo:hi][better] = inserted[better]
        how[lo:hi][better] = came[lo - before:hi - before][better] + 5
        if j not in classic_at:
            after_classic, in_gap = before_row[_CLASSIC, lo:hi], before_row[_GAP, lo:hi]
            opened_in_gap = in_gap < after_classic
            row[_NOTE1, lo:hi] = np.minimum(after_classic, in_gap) + (NOTE - (GLOSS if _gloss(ed, j) else 0.0))
            row[_NOTE2, lo:hi] = before_row[_NOTE1, lo:hi]
            two, more = before_row[_NOTE2, lo:hi], before_row[_NOTE3, lo:hi]
            from_more = more < two - TOLERANCE
            row[_NOTE3, lo:hi] = np.minimum(two, more)
            how[lo:hi] |= (opened_in_gap.view(np.uint8) << 5) | (from_more.view(np.uint8) << 6)
        if hi - lo > 1:  # reference characters left out after the classic read at ``ed[j]``
            reach = np.minimum.accumulate(classic[lo:hi - 1] - steps[lo:hi - 1])
            gap = row[_GAP]
            gap[lo + 1:hi] = reach + steps[lo + 1:hi] + GAP_OPEN
            extended = gap[lo:hi - 1] <= classic[lo:hi - 1] + GAP_OPEN
            how[lo + 1:hi] |= extended.view(np.uint8) << 4
        back[j, lo:hi] = how[lo:hi]
        before_row, row = row, before_row
        written, band_before = band_before, written
    # end: the reference's characters after the book's last are left out
    finals = before_row + tail
    state, i = (int(x) for x in np.unravel_index(int(finals.argmin()), finals.shape))
    flags = [False] * n
    read_at = [0] * n  # for each character of the classic, how many of ``ref``'s were read with it
    j = n - 1
    while j >= 0:
        code = int(back[j, i])
        if state == _CLASSIC:
            flags[j] = True
            read_at[j] = i
            if code & 15 < 5:
                i -= 1
            state = (code & 15) % 5
            j -= 1
            continue
        if state == _GAP:
            i -= 1
            state = _GAP if code >> 4 & 1 else _CLASSIC
            continue
        state = (_GAP if code >> 5 & 1 else _CLASSIC) if state == _NOTE1 else _NOTE1 if state == _NOTE2 else (
            _NOTE3 if code >> 6 & 1 else _NOTE2)
        j -= 1
    flags, read_at = written_otherwise(ed, flags, ref, read_at, classic_at, alternates)
    return opening_notes(ed, flags, classic_at, ref, read_at)
