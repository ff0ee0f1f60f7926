"""A juan's title line printed after the end of the matter before it, on its file's first page.
Pure: lines in, an index out.

Kanripo cuts a book into files by the leaves of the print it transcribes (SOURCES.md), and a juan's
first leaf may carry the last lines of what the book prints before it: the file of 卷一 then opens
with the end of the front matter and prints the juan's title line a few lines down, on its first
page. 管子 (四部叢刊, KR3c0001_001) opens with the last four lines of 劉向's 序 (its head is in
``_000``), then ``管子卷第一　唐司空房　玄齡　註``; 春秋正義 (四部叢刊, KR1e0003_001) with the last eight of
孔穎達's 春秋正義序, then ``春秋正義卷第一`` over his byline. No other file of the four Kanripo folders of
``../shared/corpus`` prints its juan's title line so: each prints it at its top, or not at all (a file
that opens in mid-text), or only as its end title.

Such a line is the juan's title line, as at a file's top (``header.Header.read_header``: a title,
its byline the juan's), not text of the matter it follows; that matter is the file before's, and
before a book's first juan it is front matter (``paratext.lead_matter``). A juan's end title is
printed after its text, on its last page (三國志 KR2a0012_016 ``　魏志卷十六`` over its 考證, 30 leaves
in): never on the first page of a file that holds the juan's text after it.
"""
from __future__ import annotations

from reader.numerals import chinese_to_int

from .header import FILE_LABEL, JUAN_LABEL, Header
from .lines import BLANK, PB_ONLY


def own_juan(header: Header) -> int | None:
    """The number of the juan the file is Kanripo's file of: its ``#+PROPERTY: JUAN`` number
    (``1``), else the 卷 label its ``FILE`` property names (``…-卷第一.``: 1); None for neither."""
    value = header.prop("JUAN").strip()
    if value.isdecimal():
        return int(value)
    m = FILE_LABEL.match(header.prop("FILE"))
    label = JUAN_LABEL.match(m["part"]) if m else None
    try:
        return chinese_to_int(label["num"]) if label else None
    except ValueError:
        return None


def late_title(header: Header, lines: list[str], start: int, end: int) -> int | None:
    """The index in ``lines`` of the juan's title line printed after lines of text (module
    docstring), reading the body ``lines[start:end]`` of a file whose top holds no title line: the
    first title line (``Header.title_line``) on the file's first page (no page break after the
    text before it), after a line of text and with a line of text after it, whose 卷 label is the file's own
    juan (``own_juan``: 卷第一 in the file of JUAN 1). None for any other file, and where a
    ``#+PROPERTY`` line (a part of the file) comes first."""
    own = None if header.tls else own_juan(header)
    if own is None:
        return None
    texts = 0
    for i in range(start, end):
        line = lines[i]
        if line.startswith("#") or (texts and PB_ONLY.match(line)):
            return None  # a part of the file; a page break after text: past the first page
        if PB_ONLY.match(line):
            continue
        if BLANK.match(line):
            continue
        m = header.title_line(line)
        label = JUAN_LABEL.match((m["label"] or "").strip()) if m else None
        if label:
            try:
                number = chinese_to_int(label["num"])
            except ValueError:
                number = None
            if number != own or not texts:
                return None
            after = any(not (PB_ONLY.match(x) or BLANK.match(x) or x.startswith("#")) for x in lines[i + 1:end])
            return i if after else None
        texts += 1
    return None
