"""A file from disk read and parsed into a ``JuanDocument`` (``read_document``), without the
database: its bytes decoded and checked (``source``), its form told (Kanripo's mandoku form, else
the plain and siku forms), and the checks of what a Kanripo file names (its folder, ID, juan
number and work key) that make a wrong file a located error (``TextFormatError``: file, line,
column) before anything is written. ``reader.importers.loader`` stores what it returns.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from django.conf import settings

from reader.models import Work
from reader.slugs import slug_problem

from .document import JuanDocument
from .errors import TextFormatError
from .lengths import check_lengths
from .names import catalogue_name_problem, unshowable_index
from .mandoku import is_mandoku, parse_mandoku
from .siku import MAX_JUAN, parse_siku
from .mandoku.lines import PB
from .source import bidi_control_warnings, damaged_entity_warnings, decode_bytes, inner_bom_warnings, locate

#: The control characters a Kanripo file may hold: U+0001, which Kanripo's SBCK transcriptions
#: write for a few unreadable characters (kept as text; one unit of search).
KANRIPO_CONTROLS = "\x01"
#: The largest source file an import reads, in bytes, unless the settings give another
#: (``IMPORT_MAX_FILE_BYTES``, from the environment's ``IMPORT_MAX_FILE_MB``; docs/importing.md).
#: The parser holds about 70 times a file's size in memory (a 10 MB file: 704 MB), so a larger
#: file is refused before it is read. The largest file of the shared corpus is 1.39 MB (the tls
#: 史記's KR2a0001_500, 70 juans in one file); the largest one-juan file 0.62 MB.
DEFAULT_MAX_FILE_BYTES = 8 * 2**20


def max_file_bytes() -> int:
    """The largest source file an import reads, in bytes (``DEFAULT_MAX_FILE_BYTES``)."""
    if not settings.configured:
        return DEFAULT_MAX_FILE_BYTES
    return int(getattr(settings, "IMPORT_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES))


def _read_bounded(path: Path) -> bytes:
    """The bytes of the file at ``path``; raises ``TextFormatError`` (at 1:1) when it cannot be
    read, or when it is larger than ``max_file_bytes()``: refused before it is read whole (its
    size as the file system gives it), or once that many bytes and one more are read (a file
    that grows, or whose size the file system does not give)."""
    limit = max_file_bytes()
    try:
        with path.open("rb") as fh:
            size = path.stat().st_size
            data = b"" if size > limit else fh.read(limit + 1)
    except OSError as exc:
        raise TextFormatError(str(path), 1, 1, f"cannot read file: {exc.strerror or exc}") from None
    if size > limit or len(data) > limit:
        size = max(size, len(data))
        raise TextFormatError(str(path), 1, 1, f"the file is {size:,} bytes, over the {limit:,} bytes "
                                               f"({limit / 2**20:g} MB) an import reads (the setting "
                                               f"IMPORT_MAX_FILE_MB, docs/importing.md); the largest Kanripo juan "
                                               f"is under 1.4 MB: a file this large is not one juan")
    return data


def read_document(path: str | Path, *, encoding: str = "utf-8", work_title: str | None = None,
                  juan_number: int | None = None, trust: str | None = None) -> JuanDocument:
    """Read and parse one file (no database); ``doc.sha256`` is the digest of its bytes.
    ``trust`` (``"id"`` or ``"folder"``): which names the work when a Kanripo file's ID and
    its folder disagree (``_check_folder``). Raises ``TextFormatError`` when the file cannot
    be taken (its ``Readme.org`` included), or is larger than ``max_file_bytes()``."""
    path = Path(path)
    data = _read_bounded(path)
    # Kanripo's SBCK transcriptions mark a few unreadable characters with U+0001: kept.
    text = decode_bytes(data, str(path), encoding, allowed_controls=KANRIPO_CONTROLS)
    if KANRIPO_CONTROLS in text and not is_mandoku(text):
        decode_bytes(data, str(path), encoding)  # raises, locating the control character
    if is_mandoku(text):
        doc = parse_mandoku(text, str(path), _read_readme(path))
        folder = path.parent.name
        doc.work_key = folder if doc.kanripo_id and folder.startswith(doc.kanripo_id) else doc.kanripo_id
        _check_folder(doc, text, path, trust)
        _check_work_key(doc, text, path)
        _check_id_alphabet(doc, text, path)
        _check_juan_number(doc, text, path)
        if work_title:
            doc.work_title = work_title
    else:
        _refuse_headless_kanripo(text, path)
        doc = parse_siku(text, str(path), work_title=work_title, juan_number=juan_number)
        _check_looks_chinese(text, path)
    _check_names(doc, text, path)
    check_lengths(doc, text, str(path))
    doc.warnings.extend(inner_bom_warnings(text, str(path)))
    doc.warnings.extend(damaged_entity_warnings(text, str(path)))
    doc.warnings.extend(bidi_control_warnings(text, str(path)))
    doc.sha256 = hashlib.sha256(data).hexdigest()
    return doc


def parse_source(text: str, path: str, *, work_title: str | None = None,
                 juan_number: int | None = None) -> JuanDocument:
    """``text``, a juan's source file decoded, parsed as ``read_document`` parses it (Kanripo's
    mandoku form when ``mandoku.is_mandoku`` says so, else the siku and plain forms), without
    the checks of a file on disk (its folder, its ``Readme.org``, its bytes). What the importer
    would read in a file written from the database (``corrections.readback``: a corrected juan
    read back; ``work_title`` and ``juan_number`` name a siku file's juan as ``parse_siku`` reads
    them). Raises ``TextFormatError`` (file, line, column) as the parsers do."""
    if is_mandoku(text):
        return parse_mandoku(text, path)
    return parse_siku(text, path, work_title=work_title, juan_number=juan_number)


#: A Kanripo text ID at the start of a file or folder name (``KR1f0004_001.txt``, ``KR1d0086-WYG``).
KANRIPO_NAME = re.compile(r"KR\d[a-z]\d{4}")


def _refuse_headless_kanripo(text: str, path: Path) -> None:
    """Refuse a file without Kanripo's header whose lines carry Kanripo's page markers
    (``<pb:…>``): a Kanripo juan that lost its ``#`` lines (``KR1f0004_001.txt`` without its six).
    Kanripo writes every juan with its header (the title, the text ID and the edition, which name
    the work, the edition and the juan) and marks its pages with ``<pb:…>``; without the header
    the file would be read as plain text, a work named after the file whose page markers are
    searchable text of it. So it is refused at its first marker, counting them, naming the header
    lines to put back (the ID from the first marker's name, ``KR1f0004_WYG_001-1a``, else from the
    file's or its folder's name). Raises ``TextFormatError``; returns None for a file without page
    markers."""
    body = text.lstrip("\ufeff")
    found = list(PB.finditer(body))
    if not found:
        return
    line, column = locate(body, found[0].start())
    named = KANRIPO_NAME.match(found[0].group(1)) or KANRIPO_NAME.match(path.name) or KANRIPO_NAME.match(path.parent.name)
    kr_id = named.group(0) if named else "KR…"
    raise TextFormatError(
        str(path), line, column,
        f"Kanripo page markers (<pb:…>, {len(found)} in the file) in a file without Kanripo's header: not read, "
        f"so that its page markers are not stored as text of a work named after the file. Put back its header "
        f"lines (# -*- mode: mandoku-view -*-, #+TITLE: …, #+PROPERTY: ID {kr_id}) and import it again")


#: Han characters, CJK punctuation (【】。、) and full-width forms.
CHINESE = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
                     "\U00020000-\U0003ffff]")
#: A file that is not in Kanripo's form must be at least this share Chinese (of its
#: characters other than spaces and line ends) to be taken as a text.
MIN_CHINESE_SHARE = 0.5


def _body_lines(text: str) -> list[tuple[int, str]]:
    """``[(line number, line)]`` of the lines a plain-text file publishes as text: not the
    ``#`` lines (headings, comments, metadata) nor a YAML front matter between ``---`` lines."""
    lines = text.lstrip("\ufeff").splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), 0)
    return [(n, ln) for n, ln in enumerate(lines[start:], start=start + 1) if not ln.lstrip().startswith("#")]


def _check_looks_chinese(text: str, path: Path) -> None:
    """Refuse a plain-text file that is mostly not Chinese (a password file, an environment
    file with a Chinese comment, source code): it is not a text of a supported form, and
    would otherwise be imported as a headless or plain text and published. The rule holds
    for the whole file and for its text alone (``_body_lines``): an environment file whose
    long ``# 中文`` comments outweigh its ``KEY=value`` lines is refused too. Raises
    ``TextFormatError`` at the first line that holds no Chinese."""
    body = _body_lines(text)
    for lines, what in (([(n, ln) for n, ln in enumerate(text.splitlines(), start=1)], "of its"),
                        (body, "of the text (lines other than # comments and headings) in its")):
        chars = re.sub(r"\s", "", "".join(ln for _, ln in lines))
        chinese = len(CHINESE.findall(chars))
        if not chars or chinese / len(chars) >= MIN_CHINESE_SHARE:
            continue
        line = next((n for n, ln in lines if ln.strip() and not CHINESE.search(ln)), 1)
        raise TextFormatError(str(path), line, 1, (
            f"not a text of a supported form: only {chinese} {what} {len(chars)} characters are Chinese (at least "
            f"{MIN_CHINESE_SHARE:.0%} are needed, Kanripo files aside)"))


def _read_readme(path: Path) -> str | None:
    """The text of the ``Readme.org`` beside a Kanripo file (its juan labels), None when there
    is none or it is a symbolic link (a link is not read: it may point anywhere). Raises
    ``TextFormatError`` at the Readme's own line and column when it is not UTF-8 text, as
    Kanripo writes it (it was a traceback that stopped a whole import)."""
    readme = path.parent / "Readme.org"
    if not readme.is_file() or readme.is_symlink():
        return None
    try:
        data = readme.read_bytes()
    except OSError as exc:
        raise TextFormatError(str(readme), 1, 1, f"cannot read the Readme.org of {path.name}: "
                                                 f"{exc.strerror or exc}") from None
    if not data.strip():
        return ""
    try:
        return decode_bytes(data, str(readme), "utf-8")
    except TextFormatError as exc:
        raise TextFormatError(exc.path, exc.line, exc.column, (
            f"{exc.message}; {path.name} was not imported: the Readme.org of its folder gives its juan labels and "
            f"must be UTF-8 text (convert it, or move it away)")) from None


#: The alphabet of a Kanripo text ID (``KR1d0086``, ``ZB1a0006a``): ASCII letters and digits,
#: so that an ID that looks like another (a Cyrillic К for K) is not another work's key.
KANRIPO_ID_ALPHABET = re.compile(r"[A-Za-z0-9]+")
#: A folder named after a Kanripo ID, as Kanripo's repositories are: the ID (two capitals, the
#: section digit and letter, four digits, a letter at most), alone or before ``-`` and an
#: edition (``KR1d0086``, ``KR1d0086-WYG``).
FOLDER_ID = re.compile(r"([A-Z]{2}[0-9][a-z][0-9]{4}[a-z]?)(?=$|[^A-Za-z0-9])")
TRUST_CHOICES = ("id", "folder")


def _id_position(text: str) -> tuple[int, int]:
    """(line, column) of the value of ``#+PROPERTY: ID`` in ``text``, else (1, 1)."""
    match = re.search(r"^#\+PROPERTY:[ \t]+ID[ \t]+", text, re.M)
    if not match:
        return 1, 1
    return text.count("\n", 0, match.start()) + 1, match.end() - match.start() + 1


def _check_folder(doc: JuanDocument, text: str, path: Path, trust: str | None) -> None:
    """Refuse a Kanripo file whose folder is named after another Kanripo ID than the file's
    own (a folder ``KR9q0001`` of files saying ``ID KR1d0086`` replaced KR1d0086's juans), unless
    ``trust`` says which names the work: ``"id"`` (the file's ID; the folder's name is not used)
    or ``"folder"`` (the folder's ID and name). A folder not named after an ID says nothing.
    Raises ``TextFormatError`` at the ID line."""
    folder = path.parent.name
    match = FOLDER_ID.match(folder)
    if not match or match.group(1) == doc.kanripo_id:
        return
    if trust == "id":
        doc.work_key = doc.kanripo_id
        return
    if trust == "folder":
        doc.kanripo_id, doc.work_key = match.group(1), folder
        return
    line, column = _id_position(text)
    raise TextFormatError(str(path), line, column, (
        f"the text ID {doc.kanripo_id!r} disagrees with its folder {folder!r} (named after {match.group(1)}): "
        f"imported, it would join or replace the work {doc.kanripo_id}, not {match.group(1)}. Rename the folder, "
        f"or say which to trust: --trust id (the work of the file's ID) or --trust folder (the folder's)"))


def _check_id_alphabet(doc: JuanDocument, text: str, path: Path) -> None:
    """Refuse a Kanripo ID outside ``KANRIPO_ID_ALPHABET`` (``КR1d0086`` with a Cyrillic К looks
    like KR1d0086 and passes the slug rule). Raises ``TextFormatError`` at the ID line."""
    if not doc.kanripo_id or KANRIPO_ID_ALPHABET.fullmatch(doc.kanripo_id):
        return
    column, ch = next((i, c) for i, c in enumerate(doc.kanripo_id, 1) if not KANRIPO_ID_ALPHABET.fullmatch(c))
    line, start = _id_position(text)
    name = unicodedata.name(ch, "")
    raise TextFormatError(str(path), line, start + column - 1 if start > 1 else 1, (
        f"the text ID {doc.kanripo_id!r} has {ch!r} (U+{ord(ch):04X}{' ' + name if name else ''}) at column "
        f"{column}: a Kanripo ID is written in ASCII letters and digits (KR1d0086)"))


def _check_juan_number(doc: JuanDocument, text: str, path: Path) -> None:
    """Refuse a Kanripo file whose juan number (from its ``#+PROPERTY: JUAN``, its label or
    its file name) is outside 0–``MAX_JUAN``, the range the plain-text form allows: a larger
    one cannot be stored. Raises ``TextFormatError`` at the JUAN property giving it, else at
    line 1."""
    for number in (doc.juan_number, doc.file_sequence):
        if number is not None and not 0 <= number <= MAX_JUAN:
            break
    else:
        return
    line, column = 1, 1
    m = re.search(rf"^#\+PROPERTY:[ \t]+JUAN[ \t]+0*{number}[ \t\r]*$", text, re.M)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        column = m.group(0).index(str(number)[0], len("#+PROPERTY: JUAN")) + 1
    raise TextFormatError(str(path), line, column, f"juan number {number} is out of range (0–{MAX_JUAN})")


def _check_work_key(doc: JuanDocument, text: str, path: Path) -> None:
    """Refuse a Kanripo file whose work key (its folder name, or the header's
    ``#+PROPERTY: ID``) breaks the slug rule (``reader.slugs``): it would be the work's URL
    key. Raises ``TextFormatError`` at the ID line (or line 1 for the folder)."""
    if not doc.work_key:
        return
    problem = slug_problem(doc.work_key)
    if problem is None and len(doc.kanripo_id) <= Work._meta.get_field("kanripo_id").max_length:
        return
    if doc.work_key != doc.kanripo_id:
        raise TextFormatError(str(path), 1, 1, f"the folder name {doc.work_key!r} would be the work's URL key, "
                                               f"but {problem}; rename the folder")
    line, column = _id_position(text)
    problem = problem or f"it is longer than {Work._meta.get_field('kanripo_id').max_length} characters"
    raise TextFormatError(str(path), line, column, f"the text ID {doc.kanripo_id!r} (#+PROPERTY: ID) would be the "
                                                   f"work's URL key, but {problem}")


def _check_names(doc: JuanDocument, text: str, path: Path) -> None:
    """Refuse a file whose work title, other titles, edition name or author (as its header, title line,
    byline or folder's ``Readme.org`` give them) hold a control or format character (``names.catalogue_name_problem``):
    ``TextFormatError`` at that character's first place in the file or its ``Readme.org``, or at
    1:1 of the file when the name came from elsewhere (the file's name)."""
    names = [("work title", doc.work_title), ("edition name", doc.edition), ("author", doc.author)]
    names += [("title", title) for title in doc.other_titles]
    for what, name in names:
        index = unshowable_index(name or "")
        if index is None:
            continue
        where, source = str(path), text
        if text.find(name[index]) < 0 and (path.parent / "Readme.org").is_file():
            where = str(path.parent / "Readme.org")
            source = (path.parent / "Readme.org").read_text(encoding="utf-8", errors="replace")
        at = source.find(name[index])
        line, column = locate(source, at) if at >= 0 else (1, 1)
        raise TextFormatError(where if at >= 0 else str(path), line, column,
                              f"the {what} {catalogue_name_problem(name)}; write it without that character "
                              f"and import the file again")
