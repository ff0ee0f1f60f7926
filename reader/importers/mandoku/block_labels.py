"""The label that leads a block of notes: a word the book prints at the head of each block, in
large print before the block's small print (御纂周易折中 ``　　本義(…)``, ``程傳(…)``, ``集説(…)``
under each sentence of the classic; 欽定春秋傳說彙纂 ``公羊(…)``, ``榖梁(…)``, ``總論(…)``).

Such a word is the block's label, not a word of the classic: a LABEL piece of the layer, the
name and the commentator of the note it leads, as the markers 注 and 䟽 of 南華真經註疏 are
(``commentators.marked_blocks``) and 音義, 疏 of the 注疏 editions (``layers``), so it counts
and searches with no layer's text (``search.documents``: a marker word is in no passage). The
words are the juan's block labels (``block_words``: a word that opens six or more printed
paragraphs, its note right after it on the line, and words that open as many blocks); only a
piece of the classic changes (a name over its note in a preface's list stays as it is); the
stored text is unchanged, only the piece's kind and layer. A juan may print a label in another
form (集説 beside 集說): the forms fold together (``characters.folding``) and are one label.

Pure: reads and changes the parsed ``JuanDocument`` in place.
"""
from __future__ import annotations

from collections import Counter

from characters.folding import fold

from ..document import CLASSIC, DEFAULT_LAYER, LABEL, NOTE, TEXT, JuanDocument


def _block_opening(para, k: int) -> bool:
    """Whether ``para[k]`` is TEXT that opens a block: a NOTE right after it, and the paragraph's
    first piece or a NOTE right before it (the block before ends where this one begins)."""
    return para[k].kind == TEXT and k + 1 < len(para) and para[k + 1].kind == NOTE \
        and (k == 0 or para[k - 1].kind == NOTE)


def block_words(doc: JuanDocument, printed: frozenset[str], least: int) -> frozenset[str]:
    """The juan's block labels: ``printed`` (the words that open ``least`` or more printed
    paragraphs with their note, ``structure.recurring_labels``) and, in a juan that has such a
    word, every word of two or more characters that opens ``least`` or more blocks of the classic
    in ``doc`` (``_block_opening``): a block printed right under the one before it opens no printed
    paragraph (御纂周易折中 卷一's 集説, 51 times under its 程傳). ``frozenset()`` in a juan with no
    ``printed`` word."""
    if not printed:
        return frozenset()
    counts: Counter = Counter(piece.text for section in doc.sections for para in section.paragraphs
                              for k, piece in enumerate(para)
                              if _block_opening(para, k) and piece.effective_layer == CLASSIC and len(piece.text) > 1)
    return printed | {word for word, n in counts.items() if n >= least}


def label_blocks(doc: JuanDocument, words: frozenset[str]) -> int:
    """Make each TEXT piece of the classic in ``doc`` that is one of ``words`` (the juan's block
    labels, ``block_words``), by any of its forms
    (``characters.folding.fold``: 集説 is 集說), and opens a block (``_block_opening``) a LABEL of the layer of the note it leads (its layer, name,
    commentator and basis); returns how many pieces changed. Nothing changes when ``words`` is
    empty."""
    changed = 0
    if not words:
        return changed
    folded = {fold(w) for w in words}
    for section in doc.sections:
        for para in section.paragraphs:
            for k, piece in enumerate(para):
                if not _block_opening(para, k) or piece.effective_layer != CLASSIC or fold(piece.text) not in folded:
                    continue
                after = para[k + 1]
                piece.kind = LABEL
                piece.layer = after.layer or DEFAULT_LAYER[NOTE]
                piece.layer_name, piece.commentator = after.layer_name, after.commentator
                piece.layer_basis = after.layer_basis
                changed += 1
    return changed
