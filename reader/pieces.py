"""The vocabulary of a juan's pieces, shared by the parsers, the models and every layer above:
kinds of piece (main text, note, label, record, record note), commentary layers (經, 注,
音義, 疏, editors' notes, other small print), how an importer decided a piece's layer, and
the default layer of each kind. Plain constants, no imports: ``reader.models`` and
``reader.importers`` both read them here (the parsers' dataclasses in
``reader.importers.document`` re-export them), so neither imports the other for them.
"""
from __future__ import annotations

#: Kinds of piece, in the field's terms.
TEXT = "text"  # main text (經文), a run between notes
NOTE = "note"  # commentary (注) in 【】 on the main text just before it
LABEL = "label"  # a structural label such as 經 that opens the classic
RECORD = "record"  # a 記 record written after a section closer
RECORD_NOTE = "record_note"  # commentary inside a record

PIECE_KINDS = (TEXT, NOTE, LABEL, RECORD, RECORD_NOTE)
NOTE_KINDS = (NOTE, RECORD_NOTE)

#: Commentary layers (issue 12). ``kind`` says where a piece stands in the structure
#: (main-text run, note, label, record); ``layer`` says which layer of the text it
#: belongs to, as scholars read a 注疏 edition. Source: SOURCES.md ("kanripo-jingbu/").
CLASSIC = "classic"  # 經 (or 經/傳 where the 傳 is itself the text read): the text commented on
COMMENTARY = "commentary"  # 注, 傳, 箋, 註 (the seed's 【】 notes are 鄭注)
READINGS = "readings"  # 音義 (陸德明's readings)
SUBCOMMENTARY = "subcommentary"  # 疏 (opens 正義曰, 釋曰 or 解云)
EDITORIAL = "editorial"  # editors' notes: 按, 考證
SMALLPRINT = "smallprint"  # small print that is none of the above
#: Front and back matter (序跋): prefaces, postfaces, imperial poems and essays (御製), tables
#: of contents, lists of officials, printed in a book's 卷首 or after its text: neither the
#: classic nor its commentary (docs/decisions/0039). Its writer, where the text signs it, is
#: the piece's ``commentator`` (孔穎達's 毛詩正義序, 晁說之's 記 after 王弼's 老子).
PARATEXT = "paratext"
LAYERS = (CLASSIC, COMMENTARY, READINGS, SUBCOMMENTARY, EDITORIAL, SMALLPRINT, PARATEXT)
#: The layers of notes on the text, whatever their print size: a book that prints its commentary as
#: large as the classic (the 道藏's 老子 editions, 水經注's 注, 南華真經註疏) stores it as ``TEXT`` pieces of
#: these layers, not as pieces of ``NOTE_KINDS``; a juan or an edition holding either holds notes.
NOTE_LAYERS = (COMMENTARY, READINGS, SUBCOMMENTARY, EDITORIAL, SMALLPRINT)
#: The usual Chinese name of each layer, in ``LAYERS`` order: the one table every app names the
#: layers by (the models' choices and the corrections form, ``reader.models.LAYER_CHOICES``; search's
#: hit lists, page filter and API, ``search.documents.LAYER_NAMES``).
LAYER_NAMES = {CLASSIC: "經", COMMENTARY: "注", READINGS: "音義", SUBCOMMENTARY: "疏", EDITORIAL: "按語", SMALLPRINT: "小字",
               PARATEXT: "序跋"}

#: How a piece's layer was decided by its importer (``PieceDoc.layer_basis``), so that a
#: reader can see where the machine decided rather than the book:
#: ``marked``: the book marks it (a marker word 注 疏 音義, small print, the seed's 【】);
#: ``reference``: inferred by aligning the text with a reference text of the classic
#: (another edition that prints the classic apart from its commentary);
#: ``layout``: inferred from the book's layout and regularities (indentation, a lemma's
#: form, a commentator's opening formula such as 善曰 or 正義曰);
#: ``default``: nothing decided; the book's own order is kept and the kind's default layer used.
#: Corrections accepted by editors are an overlay on the stored pieces and never change this.
MARKED = "marked"
REFERENCE = "reference"
LAYOUT = "layout"
DEFAULT_BASIS = "default"
LAYER_BASES = (MARKED, REFERENCE, LAYOUT, DEFAULT_BASIS)
#: The layer a piece has when its parser names none: main text and records read as the
#: classic, notes as commentary; labels (經, and the marker words 注 疏 音義, which stay
#: in the stored text but are labels, not text) take the layer of what they introduce.
DEFAULT_LAYER = {TEXT: CLASSIC, RECORD: CLASSIC, NOTE: COMMENTARY, RECORD_NOTE: COMMENTARY, LABEL: CLASSIC}

#: The kinds of piece that can hold text of the classic: a main-text run, and a note the
#: importer read as the classic (周易's trigrams ``䷅(坎下/乾上)``, printed small after the
#: hexagram: a note by its print, the classic by its layer). Labels (經) and 記 records
#: are the classic's labels and records, not its text.
CLASSIC_KINDS = (TEXT, NOTE)


def is_classic(piece) -> bool:
    """Whether ``piece`` (a stored ``reader.models.Piece`` or a parsed ``PieceDoc``: anything
    with ``kind`` and ``layer``) is text of the classic: a main-text run or a note whose
    layer is the classic (its own, else the default of its kind, ``DEFAULT_LAYER``). The one
    rule every reader of "the classic" uses -- the 白文 export, the reading page's 經 view,
    TEI, the API, a section's opening words -- so that what the book prints small but the
    importer read as the classic is read, shown and exported as the classic everywhere;
    search joins the same pieces into its classic passage (``search.documents``)."""
    return piece.kind in CLASSIC_KINDS and (piece.layer or DEFAULT_LAYER[piece.kind]) == CLASSIC


#: The kinds of piece whose text a layer of notes can own: a main-text run (commentary printed at
#: full size: 南華真經註疏's 注 and 䟽 blocks, a 注疏 edition's 注 after its marker), a note, a
#: record's note. Labels (the marker words) and records are no notes.
NOTE_HOLDING_KINDS = (TEXT, NOTE, RECORD_NOTE)


def is_note(piece) -> bool:
    """Whether ``piece`` (a stored ``reader.models.Piece`` or a parsed ``PieceDoc``) is one of
    the notes its importer made, whatever its print size: a piece of ``NOTE_HOLDING_KINDS`` whose
    layer (its own, else its kind's default) is neither the classic nor front and back matter
    (序跋). 南華真經註疏 prints its 注 and 䟽 at full size, each block led by its marker: each
    block's text is a note, its marker a label; a small-print note the importer read as the
    classic (周易's trigrams ``䷅(坎下/乾上)``) is none. What an import's summary counts
    (``reader.importers.loader``: ``… 9 sections, 1,000 notes``)."""
    return piece.kind in NOTE_HOLDING_KINDS and (piece.layer or DEFAULT_LAYER[piece.kind]) not in (CLASSIC, PARATEXT)
