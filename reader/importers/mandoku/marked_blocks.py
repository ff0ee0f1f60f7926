"""Books whose commentary runs in indented blocks, each led by its marker at the start of a printed line
(南華真經註疏: 注 for 郭象's, 疏 or 䟽 for 成玄英's; ``profiles.MARKED_BLOCKS``): which block each line is in, the
marker a label of its layer, and the line of the 經 printed indented between two blocks. Runs in the commentator
step (``commentators.assign_commentators``) on a parsed juan. Pure: no ORM, no I/O."""
from __future__ import annotations

from ..document import CLASSIC, COMMENTARY, LABEL, LAYOUT, MARKED, NOTE, SUBCOMMENTARY, TEXT, JuanDocument, PieceDoc
from .indented import paragraph_indent
from .lines import line_starts
from .piece_splits import split_piece
from .voices import Voice


def marked_blocks(doc: JuanDocument, markers: dict[str, Voice]) -> None:
    """南華真經註疏: in an indented paragraph, a printed line that starts with a marker (注,
    䟽) opens that marker's layer up to the next one; the marker is a LABEL of its layer
    (as in the 注疏 editions), the words after it TEXT of the layer. Basis ``marked``. A note in
    small print that opens with a marker (卷一's 篇 heading ``内篇逍遥遊第一(注夫小大雖殊…)``) is led
    by it as a block is: the marker a LABEL, the rest a NOTE, both of its layer.

    A marker opens a block only where a block can open: the 疏 comes last on its passage of the
    經, so inside a 疏 block a marker at the top of a column under a full line (the 疏's words
    wrapped there) is a word of the 疏 (卷一 ``…方充往來之食故郭¶`` over ``　注云所適彌遠…``, 郭注;
    卷二 ``…所以玄同此¶`` over ``　注理盡无勞别釋``; 卷二十二 ``…益甚¶`` over ``　䟽遠門徒…``, 疏遠).
    A line is full at the length most inner lines of the juan's runs of text have (``_full_run``).
    A block that cannot follow the one before on one passage opens on the next, and the line of the
    經 printed indented just above its marker is the classic (``_passage_between``, basis layout)."""
    full = _full_run(doc)
    for section in doc.sections:
        for k, para in enumerate(section.paragraphs):
            para = section.paragraphs[k] = _marked_notes(para, markers)
            if paragraph_indent(para) < 1:
                continue
            out: list[PieceDoc] = []
            voice = None
            for p in para:
                if p.kind != TEXT:
                    if voice is not None and p.kind == NOTE:
                        voice.give(p, MARKED)
                    out.append(p)
                    continue
                heads = [0] if p.text[:1] in markers and (not out or out[-1].kind != TEXT) else []
                starts = [s for s, _ in line_starts(p)]
                # the width of the line above each start (the first line after a marker's label counts it)
                led = 1 if out and out[-1].kind == LABEL else 0
                above = {s: s - starts[k] + (led if k == 0 else 0) for k, s in enumerate(starts[1:])}
                now = markers[p.text[0]] if heads else voice  # the block each line start is in
                classic: set[int] = set()  # line starts of the 經 printed indented between two blocks
                for j, s in enumerate(starts[1:], 1):
                    if p.text[s] in markers and not (now is not None and now.layer == SUBCOMMENTARY
                                                     and above[s] >= full):
                        passage = _passage_between(p.text, starts, j, above, full, markers, now, markers[p.text[s]])
                        if passage is not None:
                            classic.add(passage)
                        heads.append(s)
                        now = markers[p.text[s]]
                if not heads and voice is None:
                    out.append(p)
                    continue
                cuts = sorted({c for h in heads for c in (h, h + 1) if 0 < c < len(p.text)} | classic)
                parts = split_piece(p, cuts)
                pos = 0
                for part in parts:
                    if pos in heads:
                        voice = markers[p.text[pos]]
                        part.kind = LABEL
                        voice.give(part, MARKED)
                    elif pos in classic:
                        voice = None
                        part.layer, part.layer_name, part.commentator, part.layer_basis = CLASSIC, "", "", LAYOUT
                    elif voice is not None:
                        voice.give(part, MARKED)
                    pos += len(part.text)
                    out.append(part)
            section.paragraphs[k] = out


#: The order of a passage's blocks: the 注 on the 經, then the 疏 on both (``_passage_between``).
BLOCK_ORDER = {COMMENTARY: 1, SUBCOMMENTARY: 2}


def _passage_between(text: str, starts: list[int], j: int, above: dict[int, int], full: int,
                     markers: dict[str, Voice], before: Voice | None, opened: Voice) -> int | None:
    """The start of the line of the 經 printed indented between two blocks, when the block that the
    marker at ``starts[j]`` opens (``opened``) cannot follow the block it is in (``before``) on one
    passage: each passage of the 經 has its 注, then its 疏 (the 疏 comes last), so a 注 after a 疏,
    or a block after one of its own kind, opens on the next passage, and the 經 of that passage
    stands between. The transcription indents such a line at times (卷五 ``　偏辭諂佞之故也¶`` ending a
    疏, then ``　獸死不擇音氣息茀然於是並生心厲¶`` and ``　注譬之野獸…``): the line just above the marker,
    under a line that ends short (the block's last: ``above`` gives each line's width, ``full`` a
    full line's) and opening with no marker, is that 經. None where the line above the marker's
    does not read so (the block may run on there: nothing says where the 經 is)."""
    if before is None or BLOCK_ORDER.get(opened.layer, 0) > BLOCK_ORDER.get(before.layer, 0) or j < 2:
        return None
    line = starts[j - 1]
    if text[line] in markers or above[line] >= full:
        return None
    return line


def _full_run(doc: JuanDocument) -> int:
    """The length in characters of a full line's text in ``doc``: the most common length of the
    lines of a TEXT piece with a line before and after them in it (a run of text goes on past
    them, so they filled their column); ``10 ** 6`` when no piece has three lines."""
    counts: dict[int, int] = {}
    for p in doc.all_pieces():
        if p.kind != TEXT:
            continue
        starts = [s for s, _ in line_starts(p)]
        for a, b in zip(starts[1:], starts[2:]):
            counts[b - a] = counts.get(b - a, 0) + 1
    return max(counts, key=lambda n: (counts[n], n)) if counts else 10 ** 6


def _marked_notes(para: list[PieceDoc], markers: dict[str, Voice]) -> list[PieceDoc]:
    """``para`` with each NOTE that opens with a marker of ``markers`` (and holds more) cut after
    it: the marker a LABEL, the rest a NOTE, both set to the marker's voice (``marked_blocks``)."""
    out: list[PieceDoc] = []
    for p in para:
        if p.kind != NOTE or p.text[:1] not in markers or len(p.text) < 2:
            out.append(p)
            continue
        voice = markers[p.text[0]]
        label, rest = split_piece(p, [1])
        label.kind = LABEL
        for part in (label, rest):
            voice.give(part, MARKED)
        out += [label, rest]
    return out
