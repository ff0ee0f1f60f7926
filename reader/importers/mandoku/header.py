"""Step 1 of reading a mandoku file: the header and the juan's metadata.

The org-mode header (``# -*- mode: mandoku-view; -*-``, ``#+TITLE:``, ``#+PROPERTY: ID /
BASEEDITION / WITNESS / JUAN``), then the printed header of the juan: the first page
break, the collection line (欽定四庫全書), the title line (work title + juan label, maybe a
byline) and a byline line; at the end, the closing line (work title + 卷 label) and what
follows it. A folder's ``Readme.org`` maps files to juan titles (SOURCES.md, "kanripo/").

Pure functions and a small dataclass: text in, ``Header`` and metadata out; no ORM.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..document import JuanDocument
from ..numerals import NUMERAL_CHARS, chinese_to_int
from ..siku import DYNASTIES, ROLE, parse_byline
from .lines import BLANK, IDEO_SPACE, PB, PB_ONLY, PILCROW

ORG_HEADING = re.compile(r"^(\*+)\s+(?:(?P<num>\d+)\s+)?(?P<title>.*?)\s*$")
PROPERTY = re.compile(r"^#\+(?P<key>[A-Z_]+):\s*(?:(?P<prop>[A-Z_]+)\s+)?(?P<value>.*?)\s*$")
JUAN_LABEL = re.compile(rf"^(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)(?P<part>[上中下])?$")
COLLECTION = re.compile(r"^[\u3000]*欽定四庫全書")
#: A line that begins with a well-formed note (character counts after SBCK closing lines).
NOTE_LED = re.compile(r"\u3000*\([^()\n]*\)[^()\n]*(?:\([^()\n]*\)[^()\n]*)*")
SEQUENCE = re.compile(r"_(\d{3})(?:\D|$)")
READ_ME_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<anchor>[^\]]*))?\]\[(?P<title>[^\]]*)\]\]")
READ_ME_SECTION = re.compile(r"^(?P<num>[A-Z](?:\d+(?:\.\d+)*)?|\d+(?:\.\d+)+)(?:\s+(?P<name>.*))?$")
#: Office titles that may precede an author's name in a byline (刑部尚書徐乾學撰).
OFFICES = re.compile(r"^(?P<office>.*?(?:尚書|侍郎|學士|祭酒|博士|御史|教授|編修|檢討|司業|知府|知縣|大夫))(?P<rest>.{2,})$")

def is_mandoku(text: str) -> bool:
    """Whether ``text`` is in the mandoku form: its header (the leading ``#`` lines) has the
    ``# -*- mode: mandoku-view -*-`` line, or both ``#+TITLE:`` and ``#+PROPERTY: ID``."""
    head = []
    for line in text.lstrip("\ufeff").splitlines()[:40]:
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        head.append(line)
    if any(re.match(r"#\s*-\*-.*mode:\s*mandoku", line) for line in head):
        return True
    return any(line.startswith("#+TITLE:") for line in head) and any(
        re.match(r"#\+PROPERTY:\s+ID\s", line) for line in head)


def parse_readme(readme: str) -> tuple[str, dict[str, list[tuple[str, str]]]]:
    """Read a folder's ``Readme.org``: ``(work_title, {file name: [(anchor, title), ...]})``.

    ``[[file:KR1d0086_012.txt::012-1a][禮書綱目 卷十]]`` gives
    ``{"KR1d0086_012.txt": [("012-1a", "卷十")]}``: the work title (``#+TITLE: 禮書綱目 / WYG``
    without the `` / EDITION`` suffix) is taken off the front of each title.
    """
    work = ""
    m = re.search(r"^#\+TITLE:\s*(.*?)\s*$", readme, re.M)
    if m:
        work = m.group(1).split(" / ")[0].strip()
    table: dict[str, list[tuple[str, str]]] = {}
    for m in READ_ME_LINK.finditer(readme):
        title = m["title"].strip()
        if work and title.startswith(work):
            title = title[len(work):].strip()
        table.setdefault(m["file"], []).append((m["anchor"] or "", title))
    return work, table




@dataclass
class Header:
    """The org header of a file: its ``#+`` properties in order, the work title (``#+TITLE``
    without `` / EDITION``) and whether it is a tls edition (no small print: ``( ) /`` are
    text there)."""

    props: list[tuple[str, str]] = field(default_factory=list)
    work: str = ""
    tls: bool = False

    def property_line(self, line: str) -> None:
        m = PROPERTY.match(line)
        if not m:
            return
        key = m["key"]
        if key == "PROPERTY" and m["prop"]:
            self.props.append((m["prop"], m["value"]))
        elif key == "PROPERTY":
            parts = m["value"].split(None, 1)
            if parts:
                self.props.append((parts[0], parts[1] if len(parts) > 1 else ""))
        else:
            self.props.append((key, m["value"]))

    def prop(self, name: str) -> str:
        return next((v for k, v in self.props if k == name), "")

    def title_line(self, line: str) -> re.Match | None:
        """A title line: indentation + the work title + a label, optionally U+3000 and a
        byline or category (``　禮書綱目卷十　　　婺源江永撰¶``)."""
        if not self.work:
            return None
        m = re.match(
            r"^\u3000*" + re.escape(self.work)
            + r"(?P<label>[^\u3000()<¶\s]{0,10})(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,24}?))?¶?$", line)
        return m

    def closing_line(self, line: str) -> bool:
        """A closing line: the work title and a 卷 label alone (``　禮書綱目卷十¶``)."""
        if not self.work:
            return False
        return re.match(r"^\u3000*" + re.escape(self.work)
                        + r"(?:[^\u3000()<¶\s]{0,4})(?:卷|巻)[^\u3000()<¶\s]{0,8}(?:\([^()]*\))?¶?$", line) is not None

    def byline_line(self, line: str) -> str | None:
        m = re.match(r"^\u3000{4,}(?P<byline>[^()<¶]{2,30}?)¶?$", line)
        if m and ROLE.search(m["byline"].replace(IDEO_SPACE, "")):
            return m["byline"]
        return None

    def read_header(self, lines: list[str], start: int, limit: int, *, first: bool) -> tuple[int, dict]:
        """Consume header-like lines from ``start``: page breaks, blank and ``#`` lines,
        (first header only) the first org heading, a collection line, a title line and a
        byline line. Returns the index after them and what was found."""
        found: dict = {}
        i = start
        while i < limit:
            line = lines[i]
            if line.startswith("#"):
                if line.startswith("#+PROPERTY: JUAN"):
                    break
                i += 1
                continue
            if PB_ONLY.match(line) or BLANK.match(line):
                i += 1
                continue
            if first and self.tls and line.startswith("*") and "org" not in found:
                m = ORG_HEADING.match(line)
                if m:
                    found["org"] = m
                    i += 1
                    continue
            if "collection" not in found and "title" not in found and COLLECTION.match(line) and "(" not in line:
                found["collection"] = line.strip(IDEO_SPACE + PILCROW)
                i += 1
                continue
            if "title" not in found:
                m = self.title_line(line)
                if m and not (m["rest"] and "(" in m["rest"] and not m["rest"].endswith(")")):
                    found["title"] = m
                    i += 1
                    continue
            if "title" in found and "byline" not in found:
                b = self.byline_line(line)
                if b:
                    found["byline"] = b
                    i += 1
                    continue
            break
        return i, found

    def find_trailer(self, lines: list[str], start: int) -> int:
        """Index of the closing line if only layout-only lines and note-led lines follow it."""
        j = len(lines) - 1
        while j >= start:
            line = lines[j]
            if PB_ONLY.match(line) or BLANK.match(line):
                j -= 1
                continue
            if self.closing_line(line):
                return j
            if not self.tls and NOTE_LED.fullmatch(line):
                j -= 1
                continue
            break
        return len(lines)



def read_header_block(text: str, lines: list[str]) -> tuple[Header, int]:
    """The org header: ``(Header, index of the first line after the leading # lines)``."""
    header = Header()
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        header.property_line(lines[i])
        i += 1
    header.work = header.prop("TITLE").split(" / ")[0].strip()
    header.tls = header.prop("BASEEDITION").strip() == "tls" or "_tls_" in text[:5000]
    return header, i

def fill_metadata(doc: JuanDocument, header: Header, found: dict, text: str, path: str,
                  readme: str | None) -> dict[str, str]:
    """Fill ``doc``'s metadata from the header (see ``parse_mandoku``); return the section
    names the Readme table gives (tls editions: ``{"1.1": "大宰"}``)."""
    section_names: dict[str, str] = {}
    doc.work_title = header.work
    ids = PB.findall(text[:20000])
    doc.kanripo_id = header.prop("ID")
    doc.edition = (header.prop("BASEEDITION") or header.prop("WITNESS")).strip()
    if ids:
        m = re.match(r"^(?P<id>[A-Za-z0-9]+?)_(?P<ed>[^_]+)_", ids[0])
        if m:
            doc.kanripo_id = doc.kanripo_id or m["id"]
            doc.edition = doc.edition or m["ed"]
    stem = Path(path).stem
    if not doc.kanripo_id:
        m = re.match(r"^(KR[0-9a-z]+)", stem)
        doc.kanripo_id = m.group(1) if m else ""
    if not doc.work_title:
        doc.work_title = stem
        doc.warnings.append(f"{path}: no #+TITLE; the work title is taken from the file name")
    m = SEQUENCE.search(Path(path).name)
    sequence = int(m.group(1)) if m else None
    doc.file_sequence = sequence

    parts = [m.group(1).strip() for m in re.finditer(r"^#\+PROPERTY:\s+JUAN\s+(.*)$", text, re.M)]
    parts = [v for v in parts if v and not v.isdigit()]
    doc.juan_parts = list(dict.fromkeys(parts))
    readme_labels: list[str] = []
    if readme:
        _, table = parse_readme(readme)
        for _, title in table.get(Path(path).name, []):
            if header.work and title.startswith(header.work):
                title = title[len(header.work):].strip()
            sm = READ_ME_SECTION.match(title)
            if sm:
                name = (sm["name"] or "").replace("〈", "").replace("〉", "").strip()
                if name:
                    section_names[sm["num"]] = name
            elif title and not title.isdigit():
                readme_labels.append(title)
    title_match = found.get("title")
    title_label = title_match["label"] if title_match else ""
    org = found.get("org")
    label = ""
    for candidate in (readme_labels, doc.juan_parts):
        if candidate:
            label = "・".join(dict.fromkeys(candidate))
            break
    if not label and title_label and JUAN_LABEL.match(title_label):
        label = title_label
    if not label and org and org["title"]:
        label = org["title"]
    if not label and title_label:
        label = title_label
    doc.juan_label = label
    number = None
    for candidate in (label.split("・")[0], title_label):
        jm = JUAN_LABEL.match(candidate)
        if jm:
            try:
                number = chinese_to_int(jm["num"])
                break
            except ValueError:
                pass
    if number is None and org and org["num"]:
        number = int(org["num"])
    if number is None:
        number = sequence
    if number is None:
        juan = header.prop("JUAN")
        number = int(juan) if juan.isdigit() else 1
        doc.warnings.append(f"{path}: no juan number in the file name; using {number}")
    doc.juan_number = number
    if found.get("collection"):
        doc.collection = found["collection"].split(IDEO_SPACE)[0]
    byline = found.get("byline") or (title_match["rest"] if title_match and title_match["rest"] else "")
    byline = byline.replace(IDEO_SPACE, "").replace(" ", "")
    if byline and ROLE.search(byline) and "(" not in byline:
        office = OFFICES.match(ROLE.sub("", byline))
        if office and not any(byline.startswith(d) for d in DYNASTIES):
            byline = office["rest"]
            dynasty, place, author = "", "", ROLE.sub("", byline)
        else:
            dynasty, place, author = parse_byline(byline)
        doc.dynasty, doc.native_place, doc.author = dynasty, place, author

# -- body ------------------------------------------------------------------------------
    return section_names
