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

from catalogue.catalogue import entry as catalogue_entry

from ..document import TIYAO_TITLE, JuanDocument  # noqa: F401  (layers reads it here)
from ..numerals import NUMERAL_CHARS, chinese_to_int
from ..siku import DYNASTIES, ROLE, parse_byline
from .lines import BLANK, IDEO_SPACE, PB, PB_ONLY, PILCROW

ORG_HEADING = re.compile(r"^(\*+)\s+(?:(?P<num>\d+)\s+)?(?P<title>.*?)\s*$")
PROPERTY = re.compile(r"^#\+(?P<key>[A-Z_]+):\s*(?:(?P<prop>[A-Z_]+)\s+)?(?P<value>.*?)\s*$")
JUAN_LABEL = re.compile(rf"^(?:卷|巻)(?:第|之)?(?P<num>[{NUMERAL_CHARS}]+)(?P<part>[上中下])?$")
COLLECTION = re.compile(r"^[\u3000]*(?:欽定四庫全書|钦定四库全书)")
#: A line that begins with a well-formed note (character counts after SBCK closing lines).
NOTE_LED = re.compile(r"\u3000*\([^()\n]*\)[^()\n]*(?:\([^()\n]*\)[^()\n]*)*")
SEQUENCE = re.compile(r"_(\d{3})(?:\D|$)")
READ_ME_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<anchor>[^\]]*))?\]\[(?P<title>[^\]]*)\]\]")
READ_ME_SECTION = re.compile(r"^(?P<num>[A-Z](?:\d+(?:\.\d+)*)?|\d+(?:\.\d+)+)(?:\s+(?P<name>.*))?$")
#: Office titles that may precede an author's name in a byline (刑部尚書徐乾學撰).
#: A title line whose title is not written as ``#+TITLE`` has it: title, 卷 label, a
#: note, a byline (see ``Header.title_line``).
TITLE_WITH_LABEL = re.compile(
    r"^\u3000*(?P<title>[^\u3000()<¶\s]{2,20}?)(?P<label>(?:卷|巻)[^\u3000()<¶\s]{1,10})(?P<note>\([^()]*\))?"
    r"(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,40}?))?¶?$")
CLOSING = re.compile(r"^\u3000*(?P<title>[^\u3000()<¶\s]{2,24}?)(?:卷|巻)[^\u3000()<¶\s]{0,8}(?:\([^()]*\))?¶?$")
#: Variant forms that titles and closing lines write for the characters of ``#+TITLE``
#: (seen in kanripo-jingbu: 註/注, 䟽/疏, 巻/卷, 圗/圖, 説/說, 彚/彙, 榖/穀, 隠/隱, 𫝊/傳; 儀禮疏 卷四
#: writes 儀礼䟽: 礼/禮).
TITLE_VARIANTS = str.maketrans("註䟽巻圗説彚榖隠𫝊礼", "注疏卷圖說彙穀隱傳禮")
#: The label a ``#+PROPERTY: FILE`` value ends with (``SB05n0576-006儀禮疏-卷六.`` → 卷六), used
#: when neither the Readme, a ``JUAN`` property nor a title line gives one: a 卷 label, or
#: the name of a front or back part (序, 目録, 附録, 後序, 跋, 提要).
FILE_LABEL = re.compile(r"-(?P<label>[^-\s.]{1,12})\.?\s*$")
PART_NAMES = re.compile(r"^(?:序|目[録錄]|附[録錄]|後序|跋|提要)$")


def same_title(written: str, work: str) -> bool:
    """Whether a title as a title or closing line writes it names the work ``work``:
    equal up to ``TITLE_VARIANTS``, or sharing its first or last two characters (a
    shortened title, 春秋榖梁注䟽 for 春秋穀梁傳注疏; a part's own title, 論語集註大全 in
    四書大全). Only used where a 卷 label follows, in the header or as a closing line."""
    a, b = written.translate(TITLE_VARIANTS), work.translate(TITLE_VARIANTS)
    if not a or not b:
        return False
    return a == b or a.startswith(b) or (len(a) >= 2 and len(b) >= 2 and (a[:2] == b[:2] or a[-2:] == b[-2:]))


#: One entry of a byline: who (dynasty, name) and the role (撰, 注, 音義, 疏, …).
BYLINE_ENTRY = re.compile(r"^(?P<who>[^()<>]{2,12}?)(?P<role>奉勅撰|勑撰|御注|集注|集解|音義[幷并]疏|音義|義疏|[補𥙷]注|編輯|撰|著|編|輯|纂|述|注|註|箋|傳|學|疏|䟽)$")
#: A work presented to the throne signs with the humble 臣 and 上 (楚辭 ``校書郎臣王逸上``:
#: 王逸 presented his 章句): the role 上 is taken only after a name that 臣 leads.
PRESENTED = re.compile(r"^(?P<who>[^()<>]{0,12}臣[^()<>臣]{2,4}?)(?P<role>上)$")
#: An entry whose person is led by his offices, longer than ``BYLINE_ENTRY`` allows
#: (前漢書: ``唐正議大夫行祕書少監琅邪縣開國子顏師古注``): taken when the offices end before
#: a name of at most ``OFFICE_NAME_MAX`` characters (``LAST_OFFICE``).
OFFICE_ENTRY = re.compile(r"^(?P<who>[^()<>\u3000 ]{13,40}?)(?P<role>奉[勑勅敕]撰|[勑勅敕]撰|御注|集注|集解|音義|撰|注|註|疏|䟽)$")
OFFICE_NAME_MAX = 5
OFFICES = re.compile(r"^(?P<office>.*?(?:尚書|侍郎|學士|祭酒|博士|御史|教授|編修|檢討|司業|知府|知縣|大夫))(?P<rest>.{2,})$")
#: The last office title of a byline (greedy): ``朝散大夫行太學博士弘文館學士臣賈公彦等`` → 臣賈公彦等.
LAST_OFFICE = re.compile(r"^(?P<office>.*(?:尚書|[侍書作中議]郎|學士|祭酒|博士|御史|教授|編修|檢討|司業|知府|知縣|大夫|令史|太守|"
                         r"少監|開國子|法師|評事|按察使))(?P<rest>.{2,})$")


def clean_author(name: str) -> str:
    """The author's name without the offices, the humble 臣 and the 等 (and others) a byline
    writes around it: ``朝散大夫行太學博士弘文館學士臣賈公彦等`` → 賈公彦 (儀禮疏),
    ``蘭臺令史班固`` → 班固, ``西華法師成玄英`` → 成玄英; a name without them is returned as it is."""
    m = LAST_OFFICE.match(name)
    if m:
        name = m["rest"]
    name = re.sub(r"(?:奉[勑勅敕]撰?)$", "", name)
    if name.startswith("臣") and len(name) > 2:
        name = name[1:]
    if name.endswith("等") and len(name) > 2:
        name = name[:-1]
    return name


def byline_people(byline: str) -> list[dict[str, str]]:
    """Everyone a byline names, each with his dynasty and role, as the edition's metadata
    (``JuanDocument.bylines``): ``漢鄭氏注　唐陸德明音義　賈公彥疏`` →
    ``[{"dynasty": "漢", "name": "鄭氏", "role": "注"}, {"dynasty": "唐", "name": "陸德明",
    "role": "音義"}, {"dynasty": "唐", "name": "賈公彥", "role": "疏"}]`` (a later entry
    without a dynasty is of the dynasty before it, as the book prints it); offices and the
    humble 臣 are left out (``clean_author``); ``[]`` when the byline is not made of entries."""
    out: list[dict[str, str]] = []
    dynasty = ""
    for who, role in byline_entries(byline) or []:
        own = _dynasty_of(who)
        dynasty = own or dynasty
        for one in _joined(who[len(own):]):
            place, name = split_name(one, bool(dynasty))
            out.append({"dynasty": dynasty, "place": place, "name": name, "role": role})
    return out


def _joined(who: str) -> list[str]:
    """The people of one byline entry that joins them with 并/幷 before their one role
    (六臣註文選 ``李善并五臣註``: 李善 and the 五臣, each 註): ``["李善", "五臣"]``; the entry
    alone when a side is shorter than two characters (a name is two or more)."""
    parts = re.split(r"[并幷]", who)
    return parts if len(parts) > 1 and all(len(p) >= 2 for p in parts) else [who]


def split_name(who: str, dated: bool) -> tuple[str, str]:
    """``(native place, name)`` of a byline's person without his dynasty: offices left out
    (``clean_author``); a name of four characters or more with no office and no dynasty
    before it is a two-character native place and the name (``婺源江永``, ``山陽王弼``: the
    Siku convention, ``siku.parse_byline``)."""
    name = clean_author(who)
    if name == who and not dated and len(name) >= 4:
        return name[:2], name[2:]
    return "", name

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




def byline_entries(byline: str) -> list[tuple[str, str]] | None:
    """``[(who, role), ...]`` when ``byline`` is made only of byline entries separated by
    U+3000 or spaces, else None. ``漢鄭氏注　唐陸德明音義　賈公彥疏`` →
    ``[("漢鄭氏", "注"), ("唐陸德明", "音義"), ("賈公彥", "疏")]``; words spaced out inside
    one entry are joined (``魏　何晏　集解`` → ``[("魏何晏", "集解")]``)."""
    entries: list[tuple[str, str]] = []
    buf = ""
    for token in re.split(r"[\u3000 ]+", byline.strip("\u3000 ¶")):
        buf += token
        m = BYLINE_ENTRY.match(buf) or _office_entry(buf) or PRESENTED.match(buf)
        if m:
            entries.append((m["who"], m["role"]))
            buf = ""
    return entries if entries and not buf else None


def _office_entry(buf: str) -> re.Match | None:
    """``OFFICE_ENTRY``'s match of ``buf`` when offices lead a short name, else None."""
    m = OFFICE_ENTRY.match(buf)
    if not m:
        return None
    who = m["who"][len(_dynasty_of(m["who"])):]
    office = LAST_OFFICE.match(who)
    return m if office and len(clean_author(who)) <= OFFICE_NAME_MAX else None


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
        """A title line: indentation + the work title + a label, optionally a small-print
        note (``(起隱公三/年盡五年)``) and U+3000 and a byline or category
        (``　禮書綱目卷十　　　婺源江永撰¶``). The title may be written with variant
        characters or shortened (``春秋榖梁注䟽卷三`` for 春秋穀梁傳注疏, ``論語集註大全卷二``
        in 四書大全) when a 卷 label follows it: see ``same_title``."""
        if not self.work:
            return None
        m = re.match(
            r"^\u3000*" + re.escape(self.work)
            + r"(?P<label>[^\u3000()<¶\s]{0,10})(?P<note>\([^()]*\))?(?:(?P<sep>\u3000+)(?P<rest>[^<¶]{1,40}?))?¶?$",
            line)
        if m:
            return m
        m = TITLE_WITH_LABEL.match(line)
        if m and same_title(m["title"], self.work):
            return m
        return None

    def closing_line(self, line: str) -> bool:
        """A closing line: the work title (as in ``title_line``) and a 卷 label alone
        (``　禮書綱目卷十¶``), maybe with a small-print note."""
        if not self.work:
            return False
        m = CLOSING.match(line)
        return bool(m) and (m["title"].startswith(self.work) or same_title(m["title"], self.work))

    def byline_line(self, line: str) -> str | None:
        """The byline of a byline line: indented by three U+3000 or more and ending in a
        role word (``婺源江永撰``; 禮記正義 indents by three), or indented by two or more and made of entries that
        each end in one (``漢鄭氏注　唐陸德明音義　賈公彥疏``, ``漢何休學　　唐陸徳明音義``,
        ``梁　皇侃　義疏``: see ``byline_entries``); else None."""
        m = re.match(r"^\u3000{3,}(?P<byline>(?:[^()<¶]|\(臣/?\)){2,40}?)¶?$", line)
        if m and (ROLE.search(m["byline"].replace(IDEO_SPACE, "")) or byline_entries(m["byline"])):
            return m["byline"]
        m = re.match(r"^\u3000{2,}(?P<byline>[^()<¶\u3000][^()<¶]{1,40}?)¶?$", line)
        if m and byline_entries(m["byline"]):
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
            if "title" in found:
                b = self.byline_line(line)
                if not b and i + 1 < limit and line.startswith(IDEO_SPACE * 3) and len(lines[i + 1]) <= 12:
                    # a byline wrapped onto a short second line (SBCK: …開國子(臣)孔穎達奉 / 勑撰)
                    joined = self.byline_line(line.rstrip(PILCROW) + lines[i + 1].lstrip(IDEO_SPACE))
                    if joined and self.byline_line(lines[i + 1]) and "(" not in lines[i + 1]:
                        found["byline"] = found["byline"] + IDEO_SPACE + joined if "byline" in found else joined
                        i += 2
                        continue
                if b:  # several byline lines are joined (論語集解義疏: 集解 and 義疏)
                    found["byline"] = found["byline"] + IDEO_SPACE + b if "byline" in found else b
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



def _dynasty_of(who: str) -> str:
    """The dynasty a byline entry's name begins with (``漢鄭氏`` → 漢), "" if none."""
    return next((d for d in ("後魏", "北魏", *DYNASTIES, "魏", "晋") if who.startswith(d) and len(who) > len(d)), "")


def several_authors(entries: list[tuple[str, str]]) -> tuple[str, str]:
    """``(dynasty, author)`` for a byline naming several people, each with his role, as
    printed: ``[("漢鄭氏", "注"), ("唐陸德明", "音義"), ("賈公彥", "疏")]`` →
    ``("漢", "鄭氏注　〔唐〕陸德明音義　賈公彥疏")``. The first person's dynasty is the work's
    (``Work.byline`` writes it in 〔〕 before the whole); a later one keeps his own in 〔〕.
    The entries are separated by U+3000 as the book prints them."""
    first = _dynasty_of(entries[0][0])
    out = []
    for k, (who, role) in enumerate(entries):
        dynasty = _dynasty_of(who)
        name = clean_author(who[len(dynasty):])
        out.append((f"〔{dynasty}〕" if dynasty and k else "") + name + role)
    return first, IDEO_SPACE.join(out)


def collection_name(line: str) -> str:
    """The collection a collection line names: ``欽定四庫全書`` for ``欽定四庫全書　經部四``
    and for ``欽定四庫全書卷`` (eight files of kanripo-jingbu end the line with a stray 卷
    that belongs to no title)."""
    name = line.split(IDEO_SPACE)[0]
    m = COLLECTION.match(name)
    return m.group(0).strip(IDEO_SPACE) if m and name[m.end():] in ("卷", "巻") else name


def juan_label_parts(labels: list[str]) -> list[str]:
    """The labels of a file's parts that name the juan: a part of editors' collation notes
    on another part (``卷一考證``, ``序考證``: 考證 or 考証 at the end) is part of the juan it
    follows, not a juan of its own, so ``["卷一", "卷一考證"]`` → ``["卷一"]``; a file of
    collation notes alone keeps its label."""
    kept = [label for label in labels if not label.endswith(KAOZHENG)]
    return kept or labels


#: How a part of editors' collation notes ends its title (卷一考證; 左傳 卷十五 writes 考証).
KAOZHENG = ("考證", "考証")


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
        listed = catalogue_entry(doc.kanripo_id)
        if listed is not None:  # Kanripo's catalogue names the work its ID stands for
            doc.work_title = listed.title
            doc.warnings.append(f"{path}: no #+TITLE; the work title is Kanripo's catalogue's for {doc.kanripo_id}")
        else:
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
            label = "・".join(dict.fromkeys(juan_label_parts(candidate)))
            break
    if not label and title_label and JUAN_LABEL.match(title_label):
        label = title_label
    if not label and org and org["title"]:
        label = org["title"]
    if not label and title_label:
        label = title_label
    if not label:
        m = FILE_LABEL.search(header.prop("FILE"))
        if m and (JUAN_LABEL.match(m["label"]) or PART_NAMES.match(m["label"])):
            label = m["label"]
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
        number = int(juan) if juan.isdecimal() else 1
        doc.warnings.append(f"{path}: no juan number in the file name; using {number}")
    doc.juan_number = number
    if found.get("collection"):
        doc.collection = collection_name(found["collection"])
    fill_byline(doc, found.get("byline") or (title_match["rest"] if title_match and title_match["rest"] else ""))
    return section_names


def fill_byline(doc: JuanDocument, byline: str) -> None:
    """The juan's people from its byline as printed (``doc.bylines``, ``doc.dynasty``,
    ``doc.native_place``, ``doc.author``; see ``byline_people`` and ``several_authors``)."""
    entries = byline_entries(byline) if byline else None
    doc.bylines = byline_people(byline) if byline else []
    byline = byline.replace(IDEO_SPACE, "").replace(" ", "")
    if entries and len(entries) > 1:
        # several people (漢鄭氏注　唐陸德明音義　賈公彥疏): every one of them, with his role
        doc.native_place = ""
        doc.dynasty, doc.author = several_authors(entries)
    elif entries and doc.bylines:
        one = doc.bylines[0]  # one person: 宋　洪興祖　撰, 梁　皇侃　義疏 (his role is not kept in the name)
        doc.dynasty, doc.native_place, doc.author = one["dynasty"], one["place"], one["name"]
    elif byline and ROLE.search(byline) and "(" not in byline:
        office = OFFICES.match(ROLE.sub("", byline))
        if office and not any(byline.startswith(d) for d in DYNASTIES):
            byline = office["rest"]
            dynasty, place, author = "", "", ROLE.sub("", byline)
        else:
            dynasty, place, author = parse_byline(byline)
        cleaned = clean_author(place + author)
        if cleaned != place + author:  # an office before the name (登仕郎守大理評事楊倞): no native place
            place, author = "", cleaned
        doc.dynasty, doc.native_place, doc.author = dynasty, place, author
        if not doc.bylines and author:
            role = ROLE.search(byline)
            doc.bylines = [{"dynasty": dynasty, "place": place, "name": author, "role": role.group(0) if role else ""}]
