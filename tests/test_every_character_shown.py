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

import pytest

from reader.importers.errors import NoTextError
from reader.importers.mandoku import parse_mandoku
from reader.juan_heads import chapter_around, juan_end, juan_head, printed_lines

from .conftest import SHARED

#: Markup and space: what no reading is asked to show.
MARKUP = re.compile(r"<(?:pb|md):[^<>]*>|¶|[\s\u3000()/]")


def left_out(path) -> collections.Counter:
    """``{printed line: times}`` of the file at ``path`` (none for a file of no text, which is not imported): the printed lines of its source layout (its
    head, its trailer, its chapters' and pieces' layout) that neither the juan's head and end nor a
    chapter's head and end give."""
    readme = path.parent / "Readme.org"
    try:
        doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path),
                            readme.read_text(encoding="utf-8") if readme.exists() else None)
    except NoTextError:  # a file with no text, which the importer skips (KR5c0065_000): nothing shown
        return collections.Counter()
    header, trailer = "\n".join(doc.header_lines), "\n".join(doc.trailer_lines)
    shown = list(dict.fromkeys(line.printed for line in juan_head(header))) + juan_end(trailer)
    layout = []
    for chapter in doc.chapters:
        pieces = [piece for section in chapter.sections for piece in section.pieces]
        if pieces:
            last = pieces[-1]
            head, end = chapter_around(chapter.heading_layout, pieces[0].layout, last.layout,
                                       len(last.text) + len(last.tag_separator) + len(last.source_tag))
            shown += list(dict.fromkeys(line.printed for line in head)) + end
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
    # a later 卷's head read as a part of the file (printed_juans.inner_heads): 河上公's 道藏 heads, and the
    # 四庫 files binding a 卷 after another's end title (禮書卷四十二, 儀禮經傳通解巻十四, …卷七十一下)
    jingbu = SHARED / "corpus" / "kanripo-jingbu"
    for path in (books / "KR5c0065" / "KR5c0065_002.txt", books / "KR5c0065" / "KR5c0065_003.txt",
                 jingbu / "KR1d0084" / "KR1d0084_041.txt", jingbu / "KR1d0085" / "KR1d0085_013.txt",
                 jingbu / "KR1g0020" / "KR1g0020_071.txt"):
        assert left_out(path) == {}, path.name


@pytest.mark.slow
@pytest.mark.parametrize("folder,expected", [
    ("kanripo", 27),
    ("kanripo-jingbu", 1069),
    # 楚辭補注 卷九's 「()　楚詞」: the category printed after its heading's note is the chapter's (shown in
    # its heading), but the printed head rebuilt from the layout (chapter_around) does not yet give it
    ("kanripo-commentary", 1932),
    ("kanripo-references", 275),
])
def test_what_every_folder_still_leaves_out(folder, expected):
    """The characters still left out per folder, pinned: end titles that stand neither after a
    chapter's last piece nor in the juan's trailer (春秋正義卷第一, 經典釋文卷第一, 荀子卷第二十), a head
    printed after matter the file opens with (管子卷第一　唐司空房　玄齡　註), contents lists kept as layout (前漢書 and 後漢書 目録's
    前漢書卷一上 …, 禮記外傳四卷…) and text so kept (禮書綱目 KR1d0086_002 禮書如何此已了得…). A change
    that shows more lowers a figure here; one that loses more fails."""
    left = folder_left_out(folder)
    assert sum(left.values()) == expected, sorted(left.items())
