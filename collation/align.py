"""Character alignment of two readings and the classification of their differences (異文).

Pure: strings in, dataclasses out; no Django. Used by ``collation.service`` for editions of
one juan or section, and by ``collation.parallels`` for parallel passages.

* **Tokens.** A text is read as characters, except that a character Unicode lacks is one
  token, for it stands for one character of the page: a Kanripo entity (``&KR0221;``) or a
  description of the character's parts in brackets, as Kanripo's transcribers write one
  (``[門@里]``, ``[竺-二+稗]``, ``[孑*(焉-正+?)]``: ``characters.units.DESCRIPTION``; ``[卷四]``
  is text). An ASCII ``?`` is a character the transcription lost (``characters.units``, decision
  0033), and U+0001 the transcription's mark for a character it could not read (shown 〓, decision
  0102): each is one character of the text, not punctuation.
* **Alignment** is a longest-common-subsequence alignment (insertions and deletions only,
  so that as many characters as possible are matched; a deletion next to an insertion is one
  substitution site) computed by rapidfuzz (``rapidfuzz.distance.Indel.opcodes``, C++,
  bit-parallel; docs/decisions/0010 says how it was chosen over edlib and CollateX). It
  compares the tokens *folded* by the search folding table (``characters.folding.fold_char``:
  賔→賓, 説→說, 𤣥→玄; a gaiji as the character Kanripo's gaiji table reads it, ``&KR0237;``
  as 𥜗, so as 襦), so glyph variants line up as matches and only real readings cost anything.
* **Classes** of a difference (a *site*: a stretch of the base and the witness's reading
  of it):

  ==============  ============================================================
  ``glyph``       the same character in another form (異體): the folding table,
                  the variant tables or Kanripo's gaiji table say so
                  (``characters.variants.same_character``: 賓/賔, 說/説, 玄/𤣥,
                  冡/蒙, 襦/&KR0237;); 於/于 are two characters, not glyphs
  ``character``   a different character or characters (substitution)
  ``added``       text the witness has and the base lacks (``missing`` the
                  reverse); a gaiji whose character Kanripo's gaiji table gives
                  counts as that character (``&KR0237;`` is 𥜗: a character one
                  edition has and the other lacks, ``gaiji`` set)
  ``missing``
  ``unencoded``   缺字: one edition has a character Unicode lacks and nothing says
                  which (a gaiji the table gives no character for, ``&KR1969;``;
                  a bracketed description, ``[門@里]``) where
                  the other has nothing: an edition that cannot write a character
                  drops it, which is no 衍文 or 脫文 (``gaiji`` set)
  ``illegible``   漫漶: one edition's character is unreadable in its source
                  (U+0001, shown 〓) where the other has a character: the same
                  number of characters, each pair alike but for the unreadable
                  ones; no 異字 (nothing says the two differ) and no 脫文 (the
                  character is there, only not read)
  ``punctuation`` only punctuation or spacing differs
  ==============  ============================================================

  ``added`` and ``missing`` together are "added or missing text" (``ADDED_OR_MISSING``).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz.distance import Indel, Levenshtein

from characters.folding import fold, fold_char
from characters.units import DESCRIPTION
from characters.variants import read_token, same_character
from config.budget import check

GLYPH, CHARACTER, ADDED, MISSING, UNENCODED, ILLEGIBLE, PUNCTUATION = (
    "glyph", "character", "added", "missing", "unencoded", "illegible", "punctuation")
CLASSES = (GLYPH, CHARACTER, ADDED, MISSING, UNENCODED, ILLEGIBLE, PUNCTUATION)
ADDED_OR_MISSING = frozenset({ADDED, MISSING})
CLASS_NAMES = {GLYPH: "異體", CHARACTER: "異字", ADDED: "衍文", MISSING: "脫文", UNENCODED: "缺字", ILLEGIBLE: "漫漶",
               PUNCTUATION: "標點"}
#: The transcription's mark for a character it could not read (U+0001; pages show it 〓, decision 0102).
UNREADABLE = "\x01"

ENTITY = re.compile(r"&KR\d+;")
_TOKEN = re.compile(r"&KR\d+;|" + DESCRIPTION.pattern + "|.", re.S)


def tokens(text: str) -> list[str]:
    """``text`` as tokens: one per character, a ``&KR…;`` entity and a description of a
    character (``[門@里]``, ``characters.units.DESCRIPTION``) as one token each."""
    return _TOKEN.findall(text)


def unencoded(token: str) -> bool:
    """Whether ``token`` is a character Unicode lacks that no source reads as one it has: a
    gaiji Kanripo's gaiji table gives no character for (``&KR1969;``; ``&KR0237;``, read 𥜗,
    is not) or a bracketed description (``[門@里]``)."""
    if DESCRIPTION.fullmatch(token):
        return True
    return bool(ENTITY.fullmatch(token)) and len(read_token(token)) != 1


def _fold_token(token: str) -> str:
    """A token folded: a character by the folding table, a gaiji the gaiji table reads as one
    character as that character folded, any other gaiji as itself."""
    token = read_token(token)
    return token if len(token) != 1 else fold_char(token)


def folded_tokens(text: str) -> list[str]:
    """The tokens of ``text`` folded (``_fold_token``), one for one."""
    return [_fold_token(t) for t in tokens(text)]


def is_punctuation(text: str) -> bool:
    """True when every character of ``text`` is punctuation or spacing (Unicode categories
    P* and Z*, and control characters); False for "" too."""
    return bool(text) and all(unicodedata.category(c)[0] in "PZC" or c.isspace() for c in text)


def _mark(token: str) -> bool:
    """Whether a token is punctuation or spacing to collation: ``is_punctuation``, except an
    ASCII ``?``, a lost character, and U+0001, an unreadable one (``UNREADABLE``): text of their own."""
    return token not in ("?", UNREADABLE) and is_punctuation(token)


@dataclass(frozen=True)
class Site:
    """One difference between a base text and a witness: ``base[start:end]`` (code points,
    ``start == end`` for text the witness adds at ``start``) reads ``reading`` in the
    witness, whose own offsets are ``wstart:wend``. ``cls`` is one of ``CLASSES``;
    ``gaiji`` marks a character Unicode lacks (``&KR…;``) on either side of an
    addition or omission, and every ``unencoded`` site."""

    start: int
    end: int
    lemma: str
    reading: str
    wstart: int
    wend: int
    cls: str
    gaiji: bool = False


def classify(lemma: str, reading: str) -> str:
    """The class of a difference where the base reads ``lemma`` and the witness
    ``reading`` (see the module docstring)."""
    if lemma == reading:
        raise ValueError("no difference to classify")
    if (not lemma or all(map(_mark, lemma))) and (not reading or all(map(_mark, reading))):
        return PUNCTUATION
    # by tokens, so that the & and ; of an entity (&KR0237;) are not taken for punctuation
    a = [t for t in tokens(lemma) if not _mark(t)]
    b = [t for t in tokens(reading) if not _mark(t)]
    if a == b:
        return PUNCTUATION
    if not a or not b:  # one edition has text the other lacks
        if all(unencoded(t) for t in a or b):
            return UNENCODED
        return ADDED if not a else MISSING
    if len(a) == len(b) and all(x == y or same_character(x, y) for x, y in zip(a, b)):
        return GLYPH
    if len(a) == len(b) and all(x == y or same_character(x, y) or UNREADABLE in (x, y) for x, y in zip(a, b)):
        return ILLEGIBLE
    return CHARACTER


def align(base: str, witness: str) -> list[Site]:
    """The differences between ``base`` and ``witness`` in base order, from an LCS
    alignment of their folded tokens (substitutions adjacent to insertions or deletions
    are one site; glyph variants are sites of their own, one per run)."""
    a, b = tokens(base), tokens(witness)
    a_off, b_off = _offsets(a), _offsets(b)
    ops = Indel.opcodes(folded_tokens(base), folded_tokens(witness))
    sites: list[Site] = []
    pending: list | None = None  # a run of non-equal opcodes: [i1, i2, j1, j2]

    def flush():
        nonlocal pending
        if pending:
            i1, i2, j1, j2 = pending
            lemma, reading = "".join(a[i1:i2]), "".join(b[j1:j2])
            cls = classify(lemma, reading)
            gaiji = cls == UNENCODED or (cls in ADDED_OR_MISSING and bool(ENTITY.search(lemma + reading)))
            sites.append(Site(a_off[i1], a_off[i2], lemma, reading, b_off[j1], b_off[j2], cls, gaiji))
        pending = None

    for op in ops:
        if op.tag == "equal":  # equal once folded: runs that differ as written are glyph variants
            flush()
            i, j = op.src_start, op.dest_start
            while i < op.src_end:
                if a[i] == b[j]:
                    i, j = i + 1, j + 1
                    continue
                i0, j0 = i, j
                while i < op.src_end and a[i] != b[j]:
                    i, j = i + 1, j + 1
                pending = [i0, i, j0, j]
                flush()
            continue
        if pending is None:
            pending = [op.src_start, op.src_end, op.dest_start, op.dest_end]
        else:
            pending[1], pending[3] = op.src_end, op.dest_end
    flush()
    return sites


def _offsets(toks: list[str]) -> list[int]:
    """Code-point offset of each token, and the total length at the end."""
    out, n = [], 0
    for t in toks:
        out.append(n)
        n += len(t)
    out.append(n)
    return out


def similarity(a: str, b: str) -> float:
    """Normalised similarity of two texts after folding, 0.0–1.0 (1 - Levenshtein distance
    / the longer length); 1.0 for two empty texts."""
    if not a and not b:
        return 1.0
    return Levenshtein.normalized_similarity(compact(a), compact(b))


def compact(text: str) -> str:
    """``text`` folded, with each ``&KR…;`` entity as one private-use character (so that an
    entity counts as the one character it stands for when texts are compared)."""
    return ENTITY.sub(lambda m: chr(0xF0000 + int(m.group()[3:-1]) % 0xFFFD), fold(text))


#: What to narrow when a collation runs out of time.
COLLATE_ADVICE = "Collate one section (/…/juan/<n>/<position>/collate/) against one edition (?with=)."


def pair(left: list, right: list, score, threshold: float = 0.5) -> list[tuple[int | None, int | None]]:
    """Needleman–Wunsch pairing of two sequences of items (sections, notes): ``score(x, y)``
    in 0–1; pairs scoring below ``threshold`` are not made. Returns ``(i, j)`` in order, with
    ``None`` for an item without a counterpart. O(len(left) × len(right)) scores."""
    n, m = len(left), len(right)
    s = [[0.0] * (m + 1) for _ in range(n + 1)]
    scores = []
    for i in range(n):  # the request's time budget is checked per row (config/budget.py)
        check("pairing sections or notes to collate", COLLATE_ADVICE)
        scores.append([score(left[i], right[j]) for j in range(m)])
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best = max(s[i - 1][j], s[i][j - 1])
            sc = scores[i - 1][j - 1]
            if sc >= threshold:
                best = max(best, s[i - 1][j - 1] + sc)
            s[i][j] = best
    out = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and scores[i - 1][j - 1] >= threshold and s[i][j] == s[i - 1][j - 1] + scores[i - 1][j - 1]:
            out.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 0 and (j == 0 or s[i][j] == s[i - 1][j]):
            out.append((i - 1, None))
            i -= 1
        else:
            out.append((None, j - 1))
            j -= 1
    return out[::-1]
