"""Parser and writer for Kanripo's mandoku form of a juan (one ``.txt`` file per juan).

The public entry points are ``parse_mandoku`` (text in, ``JuanDocument`` out) and
``render_mandoku`` (the file back, byte for byte). Reading a file is split into steps,
one module each: ``header`` (org header, printed header, metadata), ``lines`` (printed
lines and layout), ``smallprint`` (notes), ``structure`` (chapters, sections, closers),
``layers`` (commentary layers); ``parser`` runs the line loop, ``writer`` writes back.

The format, as described in ``/work/shared/corpus/SOURCES.md`` (section "kanripo/") and
found in ``/work/shared/corpus/kanripo/``::

    # -*- mode: mandoku-view; -*-              org-mode header: mode line, #+TITLE,
    #+TITLE: 禮書綱目                             #+PROPERTY: ID / BASEEDITION (or WITNESS) / JUAN
    #+PROPERTY: ID KR1d0086
    #+PROPERTY: BASEEDITION WYG
    #+PROPERTY: JUAN 卷十
    <pb:KR1d0086_WYG_012-1a>¶                  page break <pb:ID_EDITION_JJJ-NNa>
    欽定四庫全書¶                              collection line
    　禮書綱目卷十　　　　　　　婺源江永撰¶        title line: work + juan label, byline
    大射儀　　　　嘉禮十五¶                       chapter line: title + category
    　經(鄭目録云…其/禮數中…)¶                  a label with a note; "/" is the break between
    　(禮屬/嘉禮)¶                              the two small-print columns; a note continued on
    大射之儀君有命戒射(將有…/…)¶                the next printed line closes and reopens: ")¶" "("
    　　右戒百官¶                               closer, indented with U+3000
    　　右請射　記君於郊則閭中以旌獲(註見三/射記)¶  closer followed by 記 records
    　禮書綱目卷十¶                             closing line

``¶`` ends every printed line, U+3000 indents lines, ``&KRnnnn;`` stands for a character
Unicode lacks (kept literally in the text), ``_000`` files hold front matter and a
folder's ``Readme.org`` maps files to juan titles (SOURCES.md).

What is text and what is layout
-------------------------------
The parser keeps every character. Text (``PieceDoc.text``, closers, chapter headings)
is what a reader reads and a search finds; everything else is *layout* (markup of the
printed page) and is kept in ``layout`` lists of ``(offset, raw)`` next to the text it
stands in, so that ``render_mandoku(parse_mandoku(t, p)) == t`` for every file:

* ``PieceDoc.layout`` -- offsets count code points into the piece's content
  (``text + tag_separator + source_tag``, i.e. ``text`` unless a note has a source tag);
  ``raw`` is written just before the character at that offset (at ``len(content)``:
  after the content). Offsets strictly increase. A note's layout holds its own ``(``,
  its column breaks ``/`` and its ``)``: ``(將有/君乃)`` is ``text="將有君乃"``,
  ``layout=[(0, "("), (2, "/"), (4, ")¶\\n")]``. A note continued on the next line is ONE
  piece whose layout holds the join, e.g. ``(12, ")¶\\n<pb:KR1d0086_WYG_012-1b>¶\\n(")``.
  Line ends (``¶`` + newline), U+3000 indentation at the start of a line, page breaks,
  blank lines and comment lines (``# src: …``) are layout.
* ``SectionDoc.closer_layout`` and ``ChapterDoc.heading_layout`` -- the same for a
  closer line (its indentation, its line end) and a chapter heading line.
* ``JuanDocument.header_lines`` / ``trailer_lines`` -- raw lines (org header, first page
  break, collection line, title line, byline; closing line and what follows it).

Attachment rule (what the database layer can rely on): layout between two elements goes
with the *following* element (leading, offset 0) -- except the end of a printed line,
which stays with the last element on that line (trailing), and layout-only lines just
before a closer, a part marker (a mid-file ``#+PROPERTY: JUAN``) or the trailer, which
stay with the preceding element. So a page break almost always sits in a piece's layout.

Structure
---------
* Sections end at closers: an *indented* line beginning with 右 and a title
  (``　　右戒百官¶``), indented differently from the line before it. A line that
  merely begins with 右 because the printed text wrapped there is not indented (or, in
  an indented block such as a 記 record block or a list, indented like its neighbours)
  and stays text. A 右 line with nothing of its chapter above it (the first line of a file, a
  part or a chapter: 世説新語校語's 「　　右世說三十六篇…」) closes nothing and is text too
  (``line_loop.closes_above``). After a bare ``記`` label line, indented
  ``記…`` lines close sections too (儀禮鄭註句讀). Text after the closer's title on the
  same line (and on following lines with the closer's indentation) is the section's
  records (RECORD / RECORD_NOTE); note source tags (``  鄉射記``) are split off as in
  ``siku.py``.
* Chapters: a chapter line (``大射儀　　　　嘉禮十五``) at a section start, an org heading
  (``** 2 桓公``, except the first, which names the juan), a tls heading
  (``A1.1《隱公元年經》``) and a mid-file ``#+PROPERTY: JUAN 卷首下`` (a new part).
* Paragraphs: a new paragraph starts after a blank line, at a change of indentation, at
  a label line (經 傳 記 補) and at a numbered paragraph of the tls editions (``1.1.``,
  ``B1.1.2``, kept as a LABEL piece).
* Texts without closers (and over-long stretches between closers) are cut into sections
  at headings, numbered paragraphs, short heading lines and paragraph starts, never larger
  than about ``HARD_LIMIT`` characters (see ``structure.group_run``); such sections have no closer.
  Cuts fall only at line breaks where no piece continues, so no piece is ever split --
  except a run of plain text longer than ``UNIT_LIMIT``, which may end at a line break
  to allow a cut there (when no cut falls there the two halves are joined again). A cut
  made only for size is then moved to where a unit of text ends: before the next classic words
  in a 注疏 edition (``entries.keep_entries_whole``), else after a note that closes a phrase,
  a sentence mark, a 單疏 entry space or a printed paragraph's short last line, and a run of
  text with none of these is not cut (``cuts.place_size_cuts``, decision 0029). A 記
  block longer than ``HARD_LIMIT`` keeps the records written on its closer's line and
  goes on in sections of its own (RECORD pieces in paragraphs, no closer, the closer's
  title). A single note longer than the limit (讀禮通考 prints whole commentaries as one
  continuous small-print note) makes a section of its own that size.
* The tls editions (``BASEEDITION tls``: 周禮 KR1d0001, 左傳 KR1e0001) print no
  small-print notes: there ``( ) /`` are plain text.

Errors: ``TextFormatError(path, line, column, message)`` (1-based, code points) for a
``<pb:`` without ``>``, a stray carriage return, a file without text and a file of more
than ``parser.MAX_STRAY`` damaged brackets. A ``(`` never closed, a nested ``(`` and a ``)``
without ``(`` are kept as text with a warning naming file, line and column
(``smallprint``).
"""
from .header import is_mandoku, parse_readme
from .parser import parse_mandoku
from .structure import HARD_LIMIT, SOFT_LIMIT, UNIT_LIMIT
from .writer import page_breaks, render_mandoku, render_piece

__all__ = [
    "is_mandoku", "parse_mandoku", "render_mandoku", "page_breaks", "parse_readme",
    "render_piece", "SOFT_LIMIT", "HARD_LIMIT", "UNIT_LIMIT",
]
