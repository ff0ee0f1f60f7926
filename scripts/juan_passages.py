"""The passages of a juan as the index reads them, for the folding evaluation and the reading
table's counts (``build_reading_context``): a Kanripo (mandoku) juan (``held_out_runs``) and a
plain-text edition with its notes in 【】 (``labelled_runs``), each cut into its classic's passage and
one passage a note (``characters.passages.join_runs``, the rule ``search.documents.section_passages``
cuts a section by), in the units search reads (``units``: ``characters.units.codes``).

Pure Python, no Django: a juan's small print is read by the importer's parser (``juan_notes``,
beside this module in ``scripts/``, which may call the reader; the characters layer may not).
"""
from __future__ import annotations

import re

from characters.passages import join_runs
from characters.readings import CLASSIC
from characters.scripts.script_labels import is_han
from characters.units import codes as unit_codes
from juan_notes import NOTE_CLOSE, NOTE_OPEN, mark_notes

#: The layer ``held_out_runs`` and ``labelled_runs`` give a note (``reader.pieces.COMMENTARY``).
NOTE_LAYER = "commentary"
#: The order of the layers for ``characters.passages.join_runs`` (the classic's passage first).
_LAYERS = (CLASSIC, NOTE_LAYER)
#: A mandoku file's org header lines (``#+TITLE: …``, the mode line).
_ORG_HEADER = re.compile(r"^#.*$", re.M)
#: A note closed at a printed line's end and reopened on the next (``)¶`` + line end, page breaks
#: and blank lines, the next line's indentation, ``(``): the same note (``reader.importers.mandoku``).
_NOTE_GOES_ON = re.compile(NOTE_CLOSE + r"¶?\n(?:(?:<pb:[^>]*>|<md:[^>]*>)?¶?\n)*[\u3000 ]*" + NOTE_OPEN)
#: Layout of a mandoku file that is no unit of text: page breaks, ``<md:…>``, line ends and a
#: note's column break ``/``.
_MANDOKU_LAYOUT = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶|\n|/(?![^\[\]\n]*\])")
#: The mark a Kanripo (tls) edition closes a table's cells with (``reader.table_cells.CELL_MARK``:
#: 史記's 表, ``帝王世國號|顓頊屬|…||``).
CELL_MARK = "|"


def units(text: str) -> str:
    """``text`` as the units search reads (``characters.units.codes``, the rule
    ``search.analysis.analyse`` cuts by): a gaiji entity (``&KR1969;``) one unit, its
    ``characters.gaiji.gaiji_key``; a description (``[門@里]``) and a lost ``?`` one unit each
    (``characters.units.description_key``, ``LOST``); separators, invisibles and selectors no unit; a table's cell
    mark (``CELL_MARK``) the unit ``characters.units.CELL_BOUNDARY``, which ends a reading's
    context; every other code point itself."""
    return unit_codes(text, CELL_MARK)


def held_out_runs(text: str) -> list[tuple[str, str]]:
    """The passages of a Kanripo (mandoku) juan as the index reads them, ``(layer, units)``: the
    full-size text, the layer ``characters.readings.CLASSIC``, is one passage across its notes,
    printed lines and page breaks, and each note's small print ``(…/…)``, ``NOTE_LAYER``, one
    passage of its own across the printed lines it runs over (Kanripo closes a note at each
    line's end and reopens it on the next) and its column breaks (``characters.passages.join_runs``,
    the rule ``search.documents.section_passages`` cuts a section by); a bracket the importer keeps
    as text opens no note (``juan_notes.mark_notes``, the importer's own reading). ``units`` as the index
    reads them: a gaiji is one unit, punctuation none. The org header lines go. The index's
    sections (cut at closers and for size, ``reader.importers.mandoku``) end a classic passage
    where this reads on, and its importer keeps the printed header and trailer lines (collection,
    title and closing lines) and a note's ``○`` 音義 apart; ``tests/test_script.py`` measures the
    difference on a juan."""
    text = _MANDOKU_LAYOUT.sub("", _NOTE_GOES_ON.sub("", _ORG_HEADER.sub("", mark_notes(text))))
    items = []
    for n, seg in enumerate(re.split(f"[{NOTE_OPEN}{NOTE_CLOSE}]", text)):   # odd pieces: inside a note
        run = units(seg)
        if run:
            items.append((NOTE_LAYER, False, run) if n % 2 else (CLASSIC, True, run))
    return [(layer, "".join(group)) for layer, group in join_runs(items, _LAYERS)]


def labelled_runs(text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The passages of a plain-text edition with notes in 【】 (the shared 儀禮釋宮增注) as the index
    reads them: ``(layer, [(line, column) of each of its Han characters])``, the main text one
    passage ``characters.readings.CLASSIC`` across its notes and lines (the book's lines are
    paragraphs of one section: ``reader.importers.plaintext``), each note one passage ``NOTE_LAYER``
    (``characters.passages.join_runs``). The importer keeps the 提要's lines apart (collection line,
    title, class, the humble 【臣】, the editors' names), which this reads with the main text."""
    items = []
    for n, line in enumerate(text.split("\n")):
        layer, cols = CLASSIC, []
        for i, ch in enumerate(line):
            if ch in "【】":
                if cols:
                    items.append((layer, layer == CLASSIC, cols))
                layer, cols = (NOTE_LAYER if ch == "【" else CLASSIC), []
            elif is_han(ch):
                cols.append((n, i))
        if cols:
            items.append((layer, layer == CLASSIC, cols))
    return [(layer, [place for run in group for place in run]) for layer, group in join_runs(items, _LAYERS)]
