"""A search's hit list as a spreadsheet file: CSV or TSV, one row per hit (KWIC).

Columns, in this order (``COLUMNS``): work (the work's title, always the title alone: the
edition is in its own columns), juan
(the book's label, 卷十), section (its position in the juan), section_title (its title, else
the name the search page gives it: its closer 「關雎三章一章四句…」 or its opening words), layer (the
name the search page and the API give it: ``search.documents.layer_name``, the book's own 鄭注, 疏,
提要 where it has one, else 經文, 注, 記, 標題), before, match, after, url (the hit's reading page,
absolute), commentator (who wrote the note a hit outside the main text is in: 李善, 呂延濟; empty
for a hit of the main text and where the book names nobody; ``search.documents.author_and_commentator``,
decision 0106, as the API's ``commentator``),
reading (the match as the query read it, when it was found through a simplified form that
stands for several characters: 后 found by 後 is ``後``, the API's ``reading``,
``search.matching.reading_of``; else empty), edition (the edition's name in words:
四庫全書・文淵閣本, 欽定四庫全書・純文字本), edition_slug (the edition's slug, as the reading pages'
URLs and the API's ``edition`` parameter take it: KR1d0086-WYG), work_key (the catalogue's ID of
the work, its Kanripo ID KR1d0086, else the work's slug where it has none), juan_number (the
juan's number in its edition, as its URL gives it: 12 for 卷十 of KR1d0086), edition_id and
work_id (the numbers the API's JSON gives as a hit's ``edition.id`` and ``work.id``, as in
``/api/editions/{id}/`` and ``/api/works/{id}/``, and its distribution rows' ``edition_id`` and
``work_id``), work_part (the part of the work the juan's title line names, as its citation
does: 魏志 for 三國志 卷一, cited 《三國志・魏志》; empty for most books), before_stored, match_stored and
after_stored (the KWIC as stored, a gaiji as its entity ``&KR0237;`` and an unreadable character as
U+0001, the API's ``before``/``match``/``after``: filled, all three, only in a row whose KWIC holds one;
else empty), author (who wrote the main text a hit of the classic, a record or a title is in, where
its piece's byline names him: 屈原 for 離騷 in 楚辭補注, 郭璞 for 江賦 in 文選註; else empty; the API's
``author``). New columns come last, so the older keep their places. The names and the KWIC
(``SHOWN_COLUMNS``) read as the pages and the API's ``shown`` show them (decision 0108): a gaiji
is the character Kanripo's gaiji table reads it as (``&KR0237;`` 𥜗), else 〓, as U+0001 is
(``characters.gaiji.readable``, decision 0102), so a spreadsheet reads as the search page. The juan column names the printed 卷 the hit's chapter falls in, as its
citation does (前漢書 KR2a0007_001's 〈高帝紀第一下〉: 卷一下, not the file's 卷一上・卷一下; decision 0062).

Written with the standard library's ``csv`` module: CSV as RFC 4180 (``excel`` dialect, CRLF
line ends, quotes where needed) with a UTF-8 byte-order mark so that spreadsheet programs
read the characters as UTF-8; TSV (``excel-tab`` dialect) as plain UTF-8 without a mark, for
scripts. The file is written in the request, under its time budget (``config.budget``:
``written``), as other heavy requests are, and then sent: a query whose list would take longer
(an import writing beside it makes every row slower) is the budget's 503 saying to narrow it,
where a file streamed as it was written could not be cut once begun and took 133 s during an
import. The longest list (``HIT_LIST_MAX_ROWS``, 200,000 rows) is about 30 MB. In both, a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return (an imported text can) gets a leading ``'``, so that a spreadsheet
program shows it as text instead of running it as a formula
(``config.spreadsheets``, as OWASP recommends against CSV injection).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from characters.gaiji import readable
from config.budget import check
from config.spreadsheets import spreadsheet_row
from search.documents import author_and_commentator, layer_name

COLUMNS = ("work", "juan", "section", "section_title", "layer", "before", "match", "after", "url", "commentator", "reading",
           "edition", "edition_slug", "work_key", "juan_number", "edition_id", "work_id", "work_part",
           "before_stored", "match_stored", "after_stored", "author")
#: The columns of names and text that a hit list writes as the pages show them (``characters.gaiji.readable``:
#: a gaiji as the character Kanripo's gaiji table reads it as, else 〓, as is U+0001; decision 0108).
SHOWN_COLUMNS = ("work", "juan", "section_title", "layer", "before", "match", "after", "commentator", "reading",
                 "edition", "work_part")
_SHOWN = tuple(COLUMNS.index(c) for c in SHOWN_COLUMNS)
_KWIC = slice(COLUMNS.index("before"), COLUMNS.index("after") + 1)
HIT_LIST_KINDS = {
    "csv": ("text/csv; charset=utf-8", "csv", "excel", "\ufeff"),
    "tsv": ("text/tab-separated-values; charset=utf-8", "tsv", "excel-tab", ""),
}
BATCH = 500
#: What a hit list past the request's time budget is told to do.
NARROW = "Narrow the query (a work, a juan or a layer), or page through /api/search/."
NARROW_ZH = "請縮小檢索（一書、一卷或一個層次），或以 /api/search/ 分頁讀取。"


def hit_rows(hits: Iterable, editions: dict[str, dict], url_of: Callable,
             section_names: Callable[[Iterable[tuple]], dict] | None = None,
             reading_of: Callable[[object, str], str | None] | None = None,
             place_of: Callable[[object], tuple[str, str]] | None = None) -> Iterator[tuple]:
    """One tuple per hit, in ``COLUMNS`` order; ``editions`` is ``{edition slug: {"name",
    "work_key", "work_id"}}`` (``search.service.edition_places``' rows: the edition's name, its work's
    catalogue ID and id; the index keeps the edition's id in a passage's ``work_id``) and ``url_of(hit)`` the hit's absolute reading URL. The place is read from the hit's passage
    and the KWIC's bounds found once a hit (``Hit.kwic``). ``section_title`` is the section's
    title, else the name the search page gives an untitled section (its closer 「關雎三章…」,
    its opening words): ``section_names(keys)`` answers ``{(edition slug, juan number, section
    position): name}`` (``search.service.kept_section_names``), asked once a ``BATCH`` of hits.
    ``reading_of(hit, match)`` answers how the query read the match (``"後"``) or None;
    the row is written by ``shown_row`` (names and KWIC as the pages show them, the stored KWIC after);
    ``place_of(passage)`` the part of the work and the printed 卷 the hit names
    (``search.service.hit_place``: ``("", "卷一下")``, ``("魏志", "卷一")``), else its juan's label and no part."""
    hits = iter(hits)
    while batch := list(islice(hits, BATCH)):
        untitled = {(h.passage.work_slug, h.passage.juan_number, h.passage.section_position)
                    for h in batch if not h.passage.section_title}
        names = section_names(untitled) if section_names and untitled else {}
        for h in batch:
            p = h.passage
            before, match, after = h.kwic()
            title = p.section_title or names.get((p.work_slug, p.juan_number, p.section_position), "")
            edition = editions.get(p.work_slug, {})
            part, juan = place_of(p) if place_of else ("", p.juan_label)
            author, commentator = author_and_commentator(p.layer, p.commentator)
            yield (*shown_row((p.work_title, juan, p.section_position, title,
                               layer_name(p), before, match, after, url_of(h), commentator,
                               (reading_of(h, match) if reading_of else None) or "",
                               edition.get("name", ""), p.work_slug, edition.get("work_key", ""), p.juan_number,
                               p.work_id, edition.get("work_id", ""), part)), readable(author))


def shown_row(row: tuple) -> tuple:
    """A hit's row of the first 18 ``COLUMNS`` (through ``work_part``; names and KWIC as stored)
    as the file writes it: each of ``SHOWN_COLUMNS`` as the pages show it
    (``characters.gaiji.readable``), then ``before_stored``, ``match_stored`` and
    ``after_stored``: the KWIC as stored where any of its three parts reads otherwise shown, else
    three ``""``. ``("周禮", …, "袒朱&KR0237;", "卒", …)`` gives ``("周禮", …, "袒朱𥜗", "卒", …,
    "袒朱&KR0237;", "卒", "")``."""
    shown = list(row)
    for i in _SHOWN:
        if isinstance(shown[i], str):
            shown[i] = readable(shown[i])
    stored = row[_KWIC] if shown[_KWIC] != list(row[_KWIC]) else ("", "", "")
    return (*shown, *stored)


def hit_list_chunks(kind: str, rows: Iterable[tuple]) -> Iterator[bytes]:
    """The file of ``kind`` (``csv`` or ``tsv``) as UTF-8 chunks: the header, then the rows,
    each cell made safe for spreadsheet programs (``config.spreadsheets.spreadsheet_cell``).
    Raises ``KeyError`` for another kind."""
    _, _, dialect, mark = HIT_LIST_KINDS[kind]
    buffer = io.StringIO()
    writer = csv.writer(buffer, dialect=dialect)
    buffer.write(mark)
    writer.writerow(COLUMNS)
    for i, row in enumerate(rows, 1):
        writer.writerow(spreadsheet_row(row))
        if i % BATCH == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def written(kind: str, rows: Iterable[tuple]) -> list[bytes]:
    """The file of ``kind`` as its chunks (``hit_list_chunks``), all written before it is sent,
    the request's time budget checked at each (``BATCH`` rows): past it ``BudgetExceeded``,
    answered with the 503 that says to narrow the query (``NARROW``)."""
    chunks = []
    for chunk in hit_list_chunks(kind, rows):
        check("writing the hit list", NARROW, NARROW_ZH)
        chunks.append(chunk)
    return chunks
