"""Every character a Kanripo file prints, outside its markup, is somewhere a reader sees it: in a
piece, a heading, or a head or end title the page, the juan API and the TEI give
(``reader.juan_heads``, ``reader.chapter_heads``; decision 0068). The importer keeps what it reads
as no text as source layout (written back byte for byte); this check reads every file of the shared
corpus's Kanripo folders and counts the printed characters of that layout that none of those
readings gives back. Markup: org lines (``#…``, ``*…``), page markers, ``¶``, space, a note's
brackets and column mark; the collection line 欽定四庫全書 is the collection's (not counted).

"""
import collections
import re

from reader.importers.mandoku import parse_mandoku
from reader.juan_heads import chapter_around, juan_end, juan_head, printed_lines

from .conftest import SHARED

#: Markup and space: what no reading is asked to show.
MARKUP = re.compile(r"<(?:pb|md):[^<>]*>|¶|[\s\u3000()/]")


def left_out(path) -> collections.Counter:
    """``{printed line: times}`` of the file at ``path``: the printed lines of its source layout (its
    head, its trailer, its chapters' and pieces' layout) that neither the juan's head and end nor a
    chapter's head and end give."""
    readme = path.parent / "Readme.org"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path),
                        readme.read_text(encoding="utf-8") if readme.exists() else None)
    header, trailer = "\n".join(doc.header_lines), "\n".join(doc.trailer_lines)
    shown = [line.text for line in juan_head(header)] + juan_end(trailer)
    layout = []
    for chapter in doc.chapters:
        pieces = [piece for section in chapter.sections for piece in section.pieces]
        if pieces:
            last = pieces[-1]
            head, end = chapter_around(chapter.heading_layout, pieces[0].layout, last.layout,
                                       len(last.text) + len(last.tag_separator) + len(last.source_tag))
            shown += [line.text for line in head] + end
        layout += [raw for _, raw in chapter.heading_layout or ()]
        for section in chapter.sections:
            layout += [raw for _, raw in getattr(section, "closer_layout", None) or ()]
            layout += [raw for piece in section.pieces for _, raw in piece.layout]
    printed = printed_lines(header + "\n" + "".join(layout) + "\n" + trailer)
    return collections.Counter(printed) - collections.Counter(shown)


def folder_left_out(folder) -> dict[str, int]:
    """``{file name: characters left out}`` over a Kanripo folder (files with none left out)."""
    out = {}
    for path in sorted((SHARED / "corpus" / folder).glob("*/*.txt")):
        count = sum(len(MARKUP.sub("", line)) * n for line, n in left_out(path).items())
        if count:
            out[path.name] = count
    return out


def test_a_later_printed_juans_head_and_end_titles_are_not_left_out():
    """前漢書 KR2a0007_001 and 世説新語 KR3l0002_002 leave nothing out: each 卷's head, end title and the
    closing line are read (before decision 0068, 前漢書卷一下's head and 世說新語下卷下(終) were left)."""
    books = SHARED / "corpus" / "kanripo-commentary"
    assert left_out(books / "KR2a0007" / "KR2a0007_001.txt") == {}
    assert left_out(books / "KR3l0002" / "KR3l0002_002.txt") == {}
