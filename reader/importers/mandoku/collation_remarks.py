"""The later commentator's collation remarks inside the first commentator's notes (楚辭補注).

How the book is made: 洪興祖's 楚辭補注 prints 王逸's 章句 on each line of the classic, then, in the
same small-print note and with no mark of its own, his collation of the copies he read, then his
補注 led by 補曰 (``commentators``: the formula opens his part). The two editions of
``../shared/corpus`` set all three in one run of small print (四庫 KR4a0003 and 四部叢刊 KR4a0002, a
翻宋 print of the same book): ``(瑶石之次玉者詩云報之以瓊瑶瑱一作鎭補曰瑶音遥…)``. The collation is
洪興祖's, not 王逸's: it names copies and readers after 王逸 (五臣云: the 唐 五臣's 文選 notes; 釋文:
the 楚辭釋文; 文選; 古本), and 王逸 (漢) comments on the classic, not on the copies of his own book
(``王逸無注古本無此二句…``). What the remarks say is how a copy reads:

* a word of the classic or of the note, then 一作 and the other reading (``瑱一作鎭``, ``蒸一作䒱一作烝``),
  or 或作, 釋文作, 古本作, 文選作 (``薠或作蘋``, ``鏘釋文作鎗``, ``萎文選作委``): the remark opens with that word (the lemma, ``lemma``);
* 一本 (``一本余下有于字``), 一云 (``一云故其文詞意周章雜錯``), 一無 (``一無歌字``), 五臣云 (曰, 注),
  釋文 and 古本 before what they read (``釋文㢮作施``, ``古本壅皆作廱``), 文選 (``文選遊作游``), or
  王逸's name in the third person (``王逸無注``): the remark opens with the formula.

So in a book whose later commentator adds to the first with his formula (``book_notes._adding``:
楚辭's 補曰), a part of a note that the commentator step gave the first commentator (王逸's 章句) is
cut where the first such remark opens, and what follows up to the later commentator's formula is
his (his voice, ``layer_basis`` ``LAYOUT``), as is the rest of the note stored in further parts
before that formula. Remarks the first commentator writes himself on the classic's sense are not
collation and stay his: 或曰 (another reading of the sense), 一曰 (another gloss: ``豐隆雲師一曰雷師``).
Decision 0096. The file writes back the same (``piece_splits.split_piece``). Pure: no ORM, no I/O.
"""
from __future__ import annotations

import re

from ..document import CLASSIC, COMMENTARY, LAYOUT, NOTE, TEXT, JuanDocument, PieceDoc
from .book_notes import _adding
from .column_order import note_groups
from .edition_forms import front_matter
from .piece_splits import split_piece
from .profiles import Profile

#: What opens a collation remark: a formula preceded by the word it is about (``lemma``: 一作, 釋文作)
#: or a formula that opens the remark itself (一本, 一云, 一無, 五臣云, 釋文, 古本, 文選, 王逸).
REMARK = re.compile(r"(?P<lemma>一作|或作|釋文作|古本作|文選作)|一本|一云|一無|五臣[云曰注]|釋文|古本|文選|王逸")
#: At most this many characters of the word a remark with a lemma is about (``lemma``).
LEMMA_MAX = 4
#: The formulas whose lemma may be a word of the note as well as of the classic (``lemma``).
OWN = ("一作", "或作")


#: One character as the transcription writes it: a character of its own list as an entity (``&KR0885;``), else one code point.
CHARACTER = re.compile(r"&[^;&\s]+;|.", re.S)
#: The later commentator's formula, which ends a remark's reading (``reading``).
LATER_FORMULA = "補曰"
#: The particle that ends a sentence of the note: before a remark it names no word (``…牽引也一作撣援``).
SENTENCE_END = "也"


def lemma(before: str, classic: str, own: bool = True) -> int:
    """How many characters (code points) before a remark's 一作 (``before``: the note's text up to it)
    are the word the remark is about: the longest end of ``before`` of at most ``LEMMA_MAX``
    characters (an entity ``&KR0885;`` one character, never cut) that the classic line the note is
    on (``classic``) prints (``蒸`` of ``…白茅也蒸一作䒱`` on 蕙肴蒸兮蘭藉); else, where ``own`` (一作,
    或作: a copy's reading of a word of the note too), the last character, unless it is
    ``SENTENCE_END`` (``臑一作``, ``二或作五``; ``…牽引也一作撣援`` names no word); else none (文選作 after
    the note's words: ``…聖王之道也文選作導夫先路``)."""
    chars = CHARACTER.findall(before)
    for n in range(min(LEMMA_MAX, len(chars)), 0, -1):
        end = "".join(chars[-n:])
        if end in classic:
            return len(end)
    if own and chars and chars[-1] != SENTENCE_END:
        return len(chars[-1])
    return 0


#: What stands before a 一 that is part of an ordinal, not a remark's 一本/一無 (目録 「屈原第一無經字」: 第一).
ORDINAL = "第"


def _in_a_number(text: str, at: int) -> bool:
    """Whether the remark formula at ``at`` of ``text`` opens with a 一 that ends an ordinal
    (``ORDINAL`` just before it: 「…第一無經字」 is 第一 then 無經字, not the remark 一無)."""
    return text.startswith("一", at) and at > 0 and text[at - 1] == ORDINAL


def remark_start(text: str, classic: str) -> int | None:
    """The offset in ``text`` (a part of the first commentator's note, read in order) where the
    first collation remark opens (module docstring; not a 一 ending an ordinal, ``_in_a_number``), or None; ``classic``: the classic line the
    note is on (for ``lemma``)."""
    m = next((m for m in REMARK.finditer(text) if not _in_a_number(text, m.start())), None)
    if m is None:
        return None
    if not m["lemma"] or (m["lemma"] in OWN and names_itself(text, m, classic)):
        return m.start()
    return m.start() - lemma(text[:m.start()], classic, m["lemma"] in OWN)


def reading(text: str, m: re.Match, classic: str) -> str:
    """The words the remark ``m`` of ``text`` gives as a copy's reading: what follows its formula up to
    the next remark (less that remark's word where the classic line ``classic`` prints it and words are
    left: 詞 of 「辭一作詞志一作意」) or 補曰, at most ``LEMMA_MAX`` characters."""
    end = len(text)
    after = next(REMARK.finditer(text, m.end()), None)
    if after is not None:
        k = lemma(text[:after.start()], classic, own=False) if after["lemma"] else 0
        end = after.start() - k if after.start() - k > m.end() else after.start()
    formula = text.find(LATER_FORMULA, m.end(), end)
    end = formula if formula >= 0 else end
    return "".join(CHARACTER.findall(text[m.end():end])[:LEMMA_MAX])


def names_itself(text: str, m: re.Match, classic: str) -> bool:
    """Whether the 一作 or 或作 remark ``m`` names the classic's word by its reading alone: no end of the
    words before it is printed by the classic line ``classic`` (``lemma`` would fall back on the note's
    last character), and the reading it gives (``reading``) is of two characters at least, each printed
    by the classic line: 「絓懸一作結絓」 on 心絓結而不解兮 (the copy reads 結絓 for the classic's 絓結; 絓懸 is
    王逸's gloss, 絓 is 懸, and stays his), 「…西風肅急貌一作肅肅」."""
    chars = CHARACTER.findall(text[:m.start()])
    if any("".join(chars[-n:]) in classic for n in range(min(LEMMA_MAX, len(chars)), 0, -1)):
        return False
    words = CHARACTER.findall(reading(text, m, classic))
    return len(words) >= 2 and all(w in classic for w in words)


def collation_remarks(doc: JuanDocument, profile: Profile) -> tuple[int, int]:
    """Give the collation remarks inside the first commentator's notes to the later commentator
    (module docstring), in place, in a book whose later commentator adds to the first with his
    formula (``profile``: the book's, ``profiles.profile_for(doc)``); nothing for any other book, nor for
    the book's front matter (``edition_forms.front_matter``: the 目録's notes are the later commentator's own list).
    Runs after ``commentators.assign_commentators``. Returns ``(parts, characters)``: how many
    stored parts became his and how many characters they hold."""
    later = _adding(profile)
    if later is None or profile.default is None or front_matter(doc):
        return 0, 0  # the front matter (目録) has no notes of 王逸's on the classic: its own are the later man's
    first = profile.default
    parts = chars = 0
    for section in doc.sections:
        classic = ""
        for k, items in enumerate(section.paragraphs):
            into: dict[int, list[PieceDoc]] = {}  # a part cut in two: the two, in the file's order
            for group in note_groups(items, doc.columns_reversed):
                if group[0].kind == TEXT and group[0].effective_layer == CLASSIC and group[0].text:
                    classic = group[0].text
                opened = False  # a remark has opened in this note: its further parts of 王逸's are 洪興祖's
                for part in group:
                    if not (part.kind == NOTE and part.effective_layer == COMMENTARY
                            and part.commentator == first.commentator and part.layer_basis != LAYOUT):
                        continue
                    at = 0 if opened else remark_start(part.text, classic)
                    if at is None:
                        continue
                    tail = part
                    if at > 0:
                        head, tail = split_piece(part, [at])
                        head.kind = tail.kind = part.kind
                        head.commentator, head.layer_basis = part.commentator, part.layer_basis
                        tail.source_tag, tail.tag_separator, tail.source = part.source_tag, part.tag_separator, part.source
                        into[id(part)] = [head, tail]
                    tail.layer, tail.layer_name, tail.commentator, tail.layer_basis = (
                        later.layer, later.layer_name, later.commentator, LAYOUT)
                    parts += 1
                    chars += len(tail.text)
                    opened = True
            if into:
                section.paragraphs[k] = [q for p in items for q in into.get(id(p), [p])]
    return parts, chars
