"""Parser for plain-text forms other than the seed's Siku form, told apart by what they hold.

Forms (examples in ``../shared/corpus/other``, SOURCES.md):

* YAML front matter: a first line ``---``, ``key: value`` lines, a closing ``---`` (or
  ``...``): metadata (``title``, ``author``, ``juan``), not text;
* ``#`` lines: a ``#`` comment line (``#創建日期: 2021/02/26``) is metadata kept as layout;
  a markdown heading (``## 列女傳 〔漢〕劉向 撰``) names the work and its author when it is
  the first, and opens a chapter after that (列女傳, chtxt);
* ``○ 古列女傳序``: a line opened by ○ starts a section named by the rest of the line;
* notes in full-width parentheses ``（…）`` or in ``【…】``; ``【臣】`` / ``（臣）`` print a
  humble 臣 small: it is text (臣等謹案 is found), its brackets layout (儀禮釋宮增注, 殆知閣); so is
  an author's signature before his remark, ``（永）按`` (``SIGNATURE``: 永按 is found);
* punctuated text (，。：) is kept as written.

Everything that is not text (brackets, line ends, blank lines, comment lines, heading
marks) is layout, as in the mandoku parser (``document.Layout``): ``render_layout`` writes
the file back byte for byte. ``source_format`` is ``"plain"``. Sections are cut at
headings, ○ lines and, in long stretches, at the first paragraph after ``SOFT_LIMIT``
characters (a paragraph opens after a blank line or on an indented line). Pure: no ORM.

``is_plain`` decides between this parser and ``siku.parse_siku`` (which calls it).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from .bylines import DYNASTIES, ROLE, parse_byline
from .document import (EDITORIAL, LABEL, LAYOUT, NOTE, PLAIN, TEXT, TIYAO_TITLE, ChapterDoc, JuanDocument,
                       PieceDoc, SectionDoc)
from .errors import StrayBracket, TextFormatError, keep_stray_brackets
from reader.numerals import NUMERAL_CHARS, chinese_to_int, int_to_chinese
from .source import split_source_lines

SOFT_LIMIT = 1200
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<title>\S.*?)[ \t]*$")
COMMENT = re.compile(r"^#(?!#*[ \t])")
CIRCLE = re.compile(r"^(?P<mark>[○〇●][ \u3000\t]*)(?P<title>\S.{0,40}?)[ \u3000\t]*$")
YAML_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*):[ \t]*(?P<value>.*?)[ \t]*$")
BRACKETS = {"（": "）", "【": "】"}
HUMBLE = "臣"
#: An author's signature before his remark, printed small: ``（永）按`` (江永), ``（臣照）按`` — one or
#: two characters of a name in brackets just before 按, 案 or 謹按 (not a variant note, 一作…). Part of the sentence, as the
#: humble 臣 is (so 永按 is found), not a note.
SIGNATURE = re.compile(r"^(?!一)[^\s\u3000，。、：；！？「」『』（）【】]{1,2}$")
SIGNED = re.compile(r"^(?:謹)?[按案]")
BYLINE = re.compile(r"^(?:〔(?P<dynasty>[^〕]{1,3})〕)?(?P<author>[^\s〔〕]{2,6}?)[ \u3000]*(?P<role>撰|著|編|輯|注|註)?$")
#: A collection line: the name of the collection alone, maybe with its 部 (``欽定四庫全書　經部四``), in
#: either script.
COLLECTION = re.compile(r"^[\u3000 ]*(?:欽定四庫全書|钦定四库全书)(?:[\u3000 ]+\S{2,4})?[\u3000 ]*$")
TIYAO = re.compile(r"^[\u3000 ]*(?P<title>[^\s\u3000【（]{2,20})[\u3000 ]+\S.*提要$")
JUAN = re.compile(rf"(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)")
#: The class a 四庫 提要 page prints: its 部 after the collection's name (``钦定四库全书　经部四``),
#: its 類 and 屬 before 提要 (``礼类二【仪礼之属】提要``); the numbers are the 四庫's volumes.
SIKU_BU = re.compile(r"(?P<bu>[^\s\u3000]{1,2}部)[一二三四五六七八九十]*[\u3000 ]*$")
SIKU_LEI = re.compile(r"[\u3000 ](?P<lei>[^\s\u3000【】]{1,5}[類类])[一二三四五六七八九十]*(?:【(?P<shu>[^】]{1,8})】)?提要$")
#: The 提要's sentence naming the author, after 「謹案 title N卷」: ``国朝江永撰`` (the 四庫's editors
#: wrote under the 清, whom they call 國朝), ``宋李如圭撰``.
#: The dynasties as a simplified print writes them, with the names the catalogue gives them.
SIMPLIFIED_DYNASTIES = {"国朝": "清", "后汉": "後漢", "东汉": "東漢", "西汉": "西漢", "后周": "後周", "北齐": "北齊",
                        "汉": "漢", "晋": "晉", "齐": "齊", "陈": "陳"}
TIYAO_AUTHOR = re.compile(rf"^[\u3000 ]*(?P<dynasty>{'|'.join(sorted((*DYNASTIES, *SIMPLIFIED_DYNASTIES), key=len, reverse=True))})(?P<author>[^\s\u3000]{{2,4}}?)(?:撰|著|编|編|辑|輯|注|註)")
#: A Siku byline line: a name (with his dynasty or native place) and the role word closing it,
#: nothing else (``婺源江永撰``, ``宋朱熹撰``); the 提要 runs at most this many lines before it.
SIKU_BYLINE = re.compile(rf"^[^\s\u3000【】（），。]{{2,10}}?{ROLE.pattern}")
BYLINE_REACH = 80
SPACES = " \u3000\t"
#: A juan heading a book prints on a line of its own: the work's title (or nothing), 卷之N,
#: 卷第N or 卷N, and nothing after it but a separator and the juan's name
#: (``列女傳卷之五·節義傳``, ``卷第二``).
JUAN_HEADING = re.compile(rf"^(?P<work>[^\s\u3000·・]*?)[ \u3000]*(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)"
                          r"(?:$|[·・ \u3000\t])")


def _siku_title_line(lines: list[str], start: int, title: str) -> int | None:
    """The index of the line where a Siku text whose 提要 comes first opens its own text: after
    the 提要, the book's title alone on a line and the byline on the next (``仪礼释宫増注`` /
    ``婺源江永撰``), searched from ``start`` within ``BYLINE_REACH`` lines; None when no such pair."""
    for k in range(start, min(start + BYLINE_REACH, len(lines) - 1)):
        if lines[k].strip(SPACES) == title and SIKU_BYLINE.match(lines[k + 1].strip(SPACES)):
            return k
    return None


def _siku_byline(lines: list[str], title: str) -> dict[str, str]:
    """The author of a Siku text from its title line and byline (``lines[0]``, ``lines[1]``:
    ``仪礼释宫増注`` / ``婺源江永撰``), read by the Siku convention (``bylines.parse_byline``:
    ``{"author": "江永", "place": "婺源", "dynasty": ""}``) with the role closing the byline
    (``"role": "撰"``, ``bylines.ROLE``). The lines stay text (metadata only)."""
    line = lines[1].strip(SPACES)
    dynasty, place, author = parse_byline(line)
    role = ROLE.search(line)
    return {"author": author, "place": place, "dynasty": dynasty, "role": role[0] if role else ""}


def siku_class(collection_line: str, tiyao_line: str) -> tuple[str, ...]:
    """``(部, 類, 屬)`` as a 四庫 提要 page prints them (``SIKU_BU`` on the collection line
    before the title line, ``SIKU_LEI`` on the title line): ``("经部", "礼类", "仪礼之属")``;
    "" for a part not printed, ``()`` when neither 部 nor 類 is."""
    bu, lei = SIKU_BU.search(collection_line), SIKU_LEI.search(tiyao_line)
    if not (bu or lei):
        return ()
    return (bu["bu"] if bu else "", lei["lei"] if lei else "", (lei["shu"] or "") if lei else "")


def tiyao_dynasty(lines: list[str], author: str) -> str:
    """The author's dynasty as the 四庫 提要 (``lines``, before the book's own text) names it in
    its sentence on the author (``TIYAO_AUTHOR``: ``国朝江永撰``): 國朝 is the 清 (the editors
    wrote under it), a simplified name is given as the catalogue writes it (汉 → 漢); "" when
    no such sentence names ``author``."""
    for line in lines:
        m = TIYAO_AUTHOR.match(line)
        if m and author and m["author"] == author:
            return "清" if m["dynasty"] in ("國朝", "皇朝") else SIMPLIFIED_DYNASTIES.get(m["dynasty"], m["dynasty"])
    return ""


def is_plain(text: str) -> bool:
    """Whether ``text`` is in one of this module's forms rather than the seed's: it has
    front matter, ``#`` lines, full-width ``（…）`` notes, ``【臣】``, or punctuation (，。)
    in more than one character in two hundred."""
    body = text.lstrip("\ufeff")
    if body.startswith("---") or re.search(r"^#", body, re.M) or "（" in body or "）" in body or "【臣】" in body:
        return True
    han = len(HAN.findall(body[:20000]))
    punct = sum(body[:20000].count(c) for c in "，。：；、")
    return bool(han) and punct * 200 > han


def juan_heading_number(title: str, work_title: str) -> int | None:
    """The juan number of a chapter heading that is a juan heading (``JUAN_HEADING``, the title
    before 卷 being ``work_title`` or nothing): ``列女傳卷之五·節義傳`` → 5; else None."""
    m = JUAN_HEADING.match(title.strip(SPACES))
    if not m or m["work"] not in ("", work_title):
        return None
    return chinese_to_int(m["num"])


def split_juans(doc: JuanDocument) -> list[JuanDocument]:
    """The juans of a plain-text book that holds several: one per chapter heading that is a juan
    heading (``juan_heading_number``: 卷之N, 卷第N, 卷N on a line of its own), numbered by the
    heading's number and labelled ``卷N`` (卷五), each with the chapters up to the next juan heading.
    What comes before the first juan heading (a 序, a 目錄) goes with the first juan, as a printed
    book binds it before 卷一; the header lines and BOM stay with the first juan, so the juans'
    ``render()`` joined in order is the file. ``[doc]`` unchanged unless there are at least two
    juan headings with numbers rising. Pure: the chapter and section objects are shared, not copied."""
    cuts = [(k, juan_heading_number(c.heading, doc.work_title)) for k, c in enumerate(doc.chapters)
            if c.heading is not None]
    cuts = [(k, n) for k, n in cuts if n is not None]
    numbers = [n for _, n in cuts]
    if len(cuts) < 2 or any(b <= a for a, b in zip(numbers, numbers[1:])):
        return [doc]
    chapters = list(doc.chapters)
    for k, _ in cuts[1:]:
        _blank_lines_to_previous(chapters, k)
    juans = []
    for j, (k, number) in enumerate(cuts):
        start = 0 if j == 0 else k
        end = cuts[j + 1][0] if j + 1 < len(cuts) else len(chapters)
        first, last = j == 0, j + 1 == len(cuts)
        juans.append(replace(
            doc, juan_number=number, juan_label="卷" + int_to_chinese(number), chapters=chapters[start:end],
            header_lines=doc.header_lines if first else [], bom=doc.bom and first,
            trailer_lines=doc.trailer_lines if last else [], final_newline=doc.final_newline if last else True,
            warnings=list(doc.warnings) if first else [], juan_parts=[]))
    return juans


def _blank_lines_to_previous(chapters: list[ChapterDoc], k: int) -> None:
    """Move the whole lines (blank and comment lines) before chapter ``k``'s heading to the end of
    the last piece before it, so a juan's text opens with its own heading line (a juan written
    back alone is then a file whose first line is its heading). Replaces the two chapters in
    ``chapters`` by changed copies; the originals are not touched."""
    heading = chapters[k]
    if not heading.heading_layout or heading.heading_layout[0][0] != 0:
        return
    raw = heading.heading_layout[0][1]
    cut = max(raw.rfind("\n"), raw.rfind("\r")) + 1
    before = next((c for c in range(k - 1, -1, -1) if chapters[c].sections), None)
    if not cut or before is None:
        return
    prev = chapters[before]
    section = prev.sections[-1]
    if section.records or section.closer is not None or not section.paragraphs or not section.paragraphs[-1]:
        return
    piece = section.paragraphs[-1][-1]
    moved = replace(piece, layout=list(piece.layout))
    _lay(moved, len(moved.text), raw[:cut])
    section = replace(section, paragraphs=section.paragraphs[:-1] + [section.paragraphs[-1][:-1] + [moved]])
    chapters[before] = replace(prev, sections=prev.sections[:-1] + [section])
    layout = [(0, raw[cut:])] if raw[cut:] else []
    chapters[k] = replace(heading, heading_layout=layout + heading.heading_layout[1:])


def require_chinese(text: str, path: str) -> None:
    """Raise ``TextFormatError`` at the first line when ``text`` holds no Chinese character
    (an English README is no text to read here)."""
    if not HAN.search(text):
        raise TextFormatError(path, 1, 1, "no text: the file holds no Chinese characters "
                                          "(is it a README or another kind of file?)")


class _Builder:
    def __init__(self):
        self.pieces: list[PieceDoc] = []

    def text(self, s: str, layout_before: str = "") -> None:
        p = self.pieces[-1] if self.pieces and self.pieces[-1].kind == TEXT else None
        if p is None:
            p = PieceDoc(TEXT, "")
            self.pieces.append(p)
        if layout_before:
            _lay(p, len(p.text), layout_before)
        p.text += s


def _lay(piece: PieceDoc, offset: int, raw: str) -> None:
    if not raw:
        return
    if piece.layout and piece.layout[-1][0] == offset:
        piece.layout[-1] = (offset, piece.layout[-1][1] + raw)
    else:
        piece.layout.append((offset, raw))


def scan_plain_line(line: str, lineno: int, path: str, literal: frozenset = frozenset()) -> list[PieceDoc]:
    """Text runs and notes of one line: ``（…）`` and ``【…】`` are notes (brackets in the
    layout), a humble ``【臣】``/``（臣）`` is text. A bracket at a ``(line, column)`` of
    ``literal`` is a character of the text (damaged markup kept). Raises ``StrayBracket``
    (a ``TextFormatError``) for an unclosed, nested or stray bracket not in ``literal``."""
    b = _Builder()
    pos = 0
    pending = ""
    opens = "".join(BRACKETS)
    closes = "".join(BRACKETS.values())
    marks = [k for k, ch in enumerate(line) if ch in opens + closes and (lineno, k + 1) not in literal]
    k = 0
    while pos < len(line):
        while k < len(marks) and marks[k] < pos:
            k += 1
        if k == len(marks):
            b.text(line[pos:], pending)
            pending = ""
            break
        at = marks[k]
        ch = line[at]
        if ch in closes:
            raise StrayBracket(path, lineno, at + 1, f"{ch} without a matching opening bracket")
        if at > pos:
            b.text(line[pos:at], pending)
            pending = ""
        close = BRACKETS[ch]
        end = next((m for m in marks[k + 1:] if line[m] == close), -1)
        if end < 0:
            raise StrayBracket(path, lineno, at + 1, f"{ch} is never closed on this line")
        inner = line[at + 1:end]
        nested = next((m for m in marks[k + 1:] if m < end and line[m] in opens), None)
        if nested is not None:
            raise StrayBracket(path, lineno, at + 1,
                               f"{ch} is not closed before the next {line[nested]} at column {nested + 1} "
                               f"(notes cannot nest)")
        if inner == HUMBLE or (SIGNATURE.match(inner) and SIGNED.match(line[end + 1:])):
            b.text(inner, pending + ch)
            pending = close
        else:
            note = PieceDoc(NOTE, inner, layout=[(0, pending + ch), (len(inner), close)])
            pending = ""
            b.pieces.append(note)
        pos = end + 1
    if pending:
        _lay(b.pieces[-1], len(b.pieces[-1].text), pending)
    return b.pieces


def parse_plain(text: str, path: str = "<text>", *, work_title: str | None = None,
                juan_number: int | None = None) -> JuanDocument:
    """Parse ``text`` (decoded, BOM allowed) of one of this module's forms.

    ``work_title`` and ``juan_number`` override the metadata (front matter ``title`` /
    ``juan``, the first markdown heading, else the file name, with a warning). A damaged
    bracket (unclosed, nested, stray) is kept as text with a warning in ``doc.warnings``
    naming file, line and column (``errors.keep_stray_brackets``). Raises
    ``TextFormatError`` (file, line, column) for a file without Chinese text or without
    main text, and past ``errors.MAX_STRAY`` damaged brackets.
    """
    doc, kept = keep_stray_brackets(
        lambda literal: _parse_plain(text, path, work_title, juan_number, literal))
    doc.warnings[:0] = kept
    return doc


def _parse_plain(text: str, path: str, work_title: str | None, juan_number: int | None,
                 literal: frozenset) -> JuanDocument:
    doc = JuanDocument(source_name=Path(path).name, source_format=PLAIN)
    if text.startswith("\ufeff"):
        doc.bom = True
        text = text[1:]
    require_chinese(text, path)
    lines, doc.newline, doc.final_newline = split_source_lines(text, path)
    nl = doc.newline
    n = len(lines)

    def term(i: int) -> str:
        return nl if (i < n - 1 or doc.final_newline) else ""

    meta: dict[str, str] = {}
    i = 0
    if lines and lines[0].strip() == "---":
        end = next((k for k in range(1, n) if lines[k].strip() in ("---", "...")), None)
        if end is None:
            raise TextFormatError(path, 1, 1, "front matter opened with --- is never closed")
        for k in range(1, end):
            m = YAML_KEY.match(lines[k])
            if m:
                meta[m["key"].lower()] = m["value"].strip("'\"")
        i = end + 1
    while i < n and (COMMENT.match(lines[i]) or not lines[i].strip()):
        i += 1
    first_heading = HEADING.match(lines[i]) if i < n else None
    opening = JUAN_HEADING.match(first_heading["title"]) if first_heading else None
    if opening and opening["work"]:  # ``## 列女傳卷之二·賢明傳``: the work's name, and a chapter
        meta.setdefault("title", opening["work"])
        first_heading = None
    if first_heading:
        title, _, byline = first_heading["title"].partition(" ")
        meta.setdefault("title", title)
        bm = BYLINE.match(byline.strip())
        if bm:
            meta.setdefault("author", bm["author"])
            meta.setdefault("dynasty", bm["dynasty"] or "")
            if meta["author"] == bm["author"]:  # the byline as the heading prints it, its role kept: 〔漢〕劉向撰
                doc.bylines = [{"dynasty": bm["dynasty"] or "", "place": "", "name": bm["author"],
                                "role": bm["role"] or ""}]
        i += 1
    tiyao_end = None  # the line where the book's own text begins after its 提要
    if "title" not in meta:  # a Siku 提要 page: 仪礼释宫増注　　礼类二【仪礼之属】提要
        for t in range(i, min(i + 3, n)):
            m = TIYAO.match(lines[t])
            if m:
                meta["title"] = m["title"]
                doc.siku_class = siku_class(lines[t - 1] if t else "", lines[t])
                start = _siku_title_line(lines, t + 1, m["title"])
                if start is not None:
                    meta.update(_siku_byline(lines[start:], m["title"]))
                    meta["dynasty"] = meta["dynasty"] or tiyao_dynasty(lines[t + 1:start], meta["author"])
                    # the edition's byline as the book prints it, with the 提要's dynasty: 〔清〕江永撰
                    doc.bylines = [{"dynasty": meta["dynasty"], "place": meta["place"], "name": meta["author"],
                                    "role": meta.pop("role")}]
                    i, tiyao_end = t + 1, start
                break
    doc.header_lines = lines[:i]
    doc.work_title = work_title or meta.get("title", "")
    doc.author, doc.dynasty = meta.get("author", ""), meta.get("dynasty", "")
    doc.native_place = meta.get("place", "")
    stem = Path(path).stem
    if not doc.work_title:
        doc.work_title = stem
        doc.warnings.append(f"{path}: no title in the file; the work title is taken from the file name: "
                            f"{stem!r} (use --work to name it)")
    number = juan_number
    if number is None and meta.get("juan"):
        jm = JUAN.search(meta["juan"])
        number = chinese_to_int(jm["num"]) if jm else (int(meta["juan"]) if meta["juan"].isdecimal() else None)
    if number is None:  # the first juan heading (卷之N on a line of its own) numbers the file
        number = next((juan_heading_number(m["title"], doc.work_title) for m in map(HEADING.match, lines[i:])
                       if m and juan_heading_number(m["title"], doc.work_title) is not None), None)
    if number is None:
        digits = re.findall(r"\d+", stem)
        number = int(digits[-1]) if digits else 1
        doc.warnings.append(f"{path}: no juan number in the file; juan {number} (use --juan to set it)")
    doc.juan_number = number
    doc.juan_label = "卷" + int_to_chinese(number)
    if juan_number is None and meta.get("juan") and JUAN.search(meta["juan"]):
        doc.juan_label = JUAN.search(meta["juan"]).group(0)

    chapter = ChapterDoc()
    doc.chapters = [chapter]
    section: SectionDoc | None = None
    size = 0
    pending = ""  # layout waiting for the next piece (blank and comment lines)
    tiyao: SectionDoc | None = None  # the first section of the 提要, if the file opens with one
    # After the 提要, the book's own first page repeats the collection line, then its title and
    # byline (``钦定四库全书`` / ``仪礼释宫増注`` / ``婺源江永撰``): layout, as a mandoku file's
    # header lines are, so the book's text opens with its first sentence.
    front_start = None
    if tiyao_end is not None:
        front_start = tiyao_end - 1 if tiyao_end - 1 > i and COLLECTION.match(lines[tiyao_end - 1]) else tiyao_end
    last: PieceDoc | None = None
    new_para = True
    for k in range(i, n):
        line, lineno = lines[k], k + 1
        if k == front_start:  # the book's own front lines after its 提要 open the book's text
            section = None
        if not line.strip() or COMMENT.match(line) or front_start is not None and front_start <= k <= tiyao_end + 1:
            pending += line + term(k)
            new_para = True
            continue
        hm = HEADING.match(line)
        if hm:
            chapter = ChapterDoc(title=hm["title"], heading=hm["title"],
                                 heading_layout=[(0, pending + line[:hm.start("title")]),
                                                 (len(hm["title"]), line[hm.end("title"):] + term(k))])
            if not pending and not line[:hm.start("title")]:
                chapter.heading_layout = chapter.heading_layout[1:]
            pending = ""
            doc.chapters.append(chapter)
            section, size, new_para = None, 0, True
            continue
        cm = CIRCLE.match(line)
        # A paragraph opens after a blank line or on a line set in by spaces, as a printed
        # paragraph's first line is (殆知閣's Siku texts put each paragraph on one line so, with
        # no blank line between): a cut for size falls there, never inside a paragraph.
        new_para = new_para or line[:1] in SPACES
        starts = section is None or cm is not None or (new_para and size >= SOFT_LIMIT)
        if starts:
            # the 提要 (the 四庫 editors' summary) before the book's text is a section of its own
            in_tiyao = front_start is not None and k < front_start
            section = SectionDoc(line=lineno, title=cm["title"] if cm else TIYAO_TITLE if in_tiyao else "")
            chapter.sections.append(section)
            size = 0
            if in_tiyao and tiyao is None:
                tiyao = section
        if cm:
            label = PieceDoc(LABEL, cm["title"], layout=[(0, pending + cm["mark"])] if pending + cm["mark"] else [])
            _lay(label, len(label.text), line[cm.end("title"):] + term(k))
            section.paragraphs.append([label])
            pending, last, new_para = "", label, True
            continue
        pieces = scan_plain_line(line, lineno, path, literal)
        if pending:  # blank and comment lines before the paragraph lead its first piece
            first = pieces[0]
            if first.layout and first.layout[0][0] == 0:
                first.layout[0] = (0, pending + first.layout[0][1])
            else:
                first.layout.insert(0, (0, pending))
            pending = ""
        _lay(pieces[-1], len(pieces[-1].text), term(k))
        section.paragraphs.append(pieces)
        size += sum(len(p.text) for p in pieces)
        last, new_para = pieces[-1], False
    if pending:
        if last is None:
            raise TextFormatError(path, i + 1 if i < n else n, 1, "no text: the file has a header but no main text")
        _lay(last, len(last.text), pending)
    if tiyao is not None:  # the editors' words, not the book's classic
        for piece in tiyao.pieces:
            piece.layer, piece.layer_name, piece.layer_basis = EDITORIAL, TIYAO_TITLE, LAYOUT
    doc.chapters = [c for c in doc.chapters if c.sections or c.heading is not None]
    if not doc.sections:
        raise TextFormatError(path, i + 1 if i < n else max(n, 1), 1, "no text: the file has a header but no main text")
    return doc
