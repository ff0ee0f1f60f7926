"""Labels for script-aware search that come from the books, not from a converter.

The shared corpus holds 江永's 儀禮釋宮增注 in simplified characters (殆知閣,
``../shared/corpus/other/yili_shigong_zengzhu_simplified.txt``) and the same book in traditional
characters is Kanripo's KR1d0047 (the 文淵閣四庫全書 text; a copy of its one file,
``KR1d0047_000.txt`` at commit 1561cf930af470eda636bcc005145292e8d3e9f4, ships in
``characters/data/eval/`` under CC BY-SA 4.0, see ``characters/data/eval/ATTRIBUTION.md``).
Aligned character by character, every simplified character of the one gets the character the
other really prints at that place: 后 in 后人 gets 後, 后 in 夏后氏 gets 后, 于 in 尊于房户之間 gets
于 and 于 in 至於廟門 gets 於. These are the labels ``script_search_eval.score_labelled`` (``scripts/script_search_eval.py``)
measures both directions of script-aware search against.

The alignment (``align``) compares the two texts' characters through OpenCC's traditional to
simplified character table (``t2s``, each character alone) only to find which place matches
which; the label is always the character the other edition has there. Places the two editions
do not share (a passage only one of them has, a lost character written 防) are left out.

Pure Python; uses the ``opencc`` package (pinned in ``requirements.txt``).
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import opencc

EVAL_DIR = Path(__file__).resolve().parents[1] / "data" / "eval"
#: Kanripo KR1d0047 (儀禮釋宮增注, WYG), the book's one file.
TRADITIONAL_COPY = EVAL_DIR / "KR1d0047_000.txt"
#: Relative to the shared corpus.
SIMPLIFIED_EDITION = "other/yili_shigong_zengzhu_simplified.txt"

_MANDOKU_MARKUP = re.compile(r"<pb:[^>]*>|^#.*$", re.M)


def is_han(ch: str) -> bool:
    """A CJK ideograph (any block), the characters the labels are about."""
    return unicodedata.name(ch, "").startswith("CJK ")


@dataclass(frozen=True)
class Place:
    """One character of a text: ``line`` (0-based line number in the file), ``col`` (code-point
    offset in that line) and the character ``ch``."""

    line: int
    col: int
    ch: str


def places(text: str, mandoku: bool = False) -> list[Place]:
    """The Han characters of ``text`` in order with where they stand. ``mandoku``: drop the
    org header lines and ``<pb:…>`` page breaks first (blanked, so columns stay)."""
    if mandoku:
        text = _MANDOKU_MARKUP.sub(lambda m: " " * len(m.group()), text)
    out = []
    for n, line in enumerate(text.split("\n")):
        out.extend(Place(n, i, ch) for i, ch in enumerate(line) if is_han(ch))
    return out


@lru_cache(maxsize=None)
def _t2s() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


@lru_cache(maxsize=65536)
def _match_key(ch: str) -> str:
    """What the alignment compares: the character's simplified form, OpenCC's t2s of it alone."""
    out = _t2s().convert(ch)
    return out if len(out) == 1 else ch


@dataclass(frozen=True)
class Pair:
    """An aligned place: ``s`` in the simplified edition, ``t`` in the traditional one."""

    s: Place
    t: Place


def align(simplified: list[Place], traditional: list[Place]) -> list[Pair]:
    """The places two editions of one book share, in order: runs that match through
    ``_match_key`` and replaced runs of equal length (one character printed differently);
    what only one edition has, or runs of different lengths, are left out."""
    a = [_match_key(p.ch) for p in simplified]
    b = [_match_key(p.ch) for p in traditional]
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            out.extend(Pair(simplified[i], traditional[j]) for i, j in zip(range(i1, i2), range(j1, j2)))
    return out


def load_pairs(corpus: Path) -> tuple[str, str, list[Pair]]:
    """``(simplified text, traditional text, aligned pairs)`` of 儀禮釋宮增注: the simplified
    edition from ``corpus`` (the shared corpus), the traditional one shipped here.
    ``FileNotFoundError`` when the shared corpus is missing."""
    s_text = (corpus / SIMPLIFIED_EDITION).read_text(encoding="utf-8")
    t_text = TRADITIONAL_COPY.read_text(encoding="utf-8")
    return s_text, t_text, align(places(s_text), places(t_text, mandoku=True))
