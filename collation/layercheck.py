"""The layer check: how much of an independent edition's classic a commentary edition
stores as classic, and how much of its commentary as commentary.

A 注疏 edition prints the classic and its commentary at the same size and marks only where
a commentary starts (注, 傳, 箋); the importer decides where each ends. Another edition of
the same classic that prints the commentary in small print (or the classic alone) says,
character by character, which words are the classic: aligned with the 注疏 edition's
text, each of its characters shows what the importer made of the same words.

Shapes: a *stream* is the text to align, as folded characters (``characters.folding.fold``;
only characters a search finds: no punctuation, no ○, no Latin numbering) with, for each,
its role and where it stands (``Stream``). The edition's stream leaves out what the book
itself sets apart under a label -- 音義 and 疏 in small print, editors' notes, 考證 parts --
because they quote the classic and its notes and would draw the alignment away, and what
no reader reads as the classic or its commentary: titles and contents entries with their
small print (``edition_roles``), and its front matter when no reference prints any
(``FRONT_MATTER``); every other character takes part, so classic stored as any layer but the classic counts
against the edition. The reference's stream is its full-size text (role ``C``) and its
small print (role ``M``), less its labels and the cross-references 重言(…)/重意(…) of
the 纂圖互註 editions.

Alignment (``reader.importers.mandoku.alignment.align``, the importer's own): 8-character
grams found once in each stream are anchors; the longest chain of anchors in the same order
in both (a longest increasing subsequence) fixes the alignment, and the stretches between
anchors are aligned by rapidfuzz's Indel (LCS) opcodes. A reference character counts only
inside a run of at least three characters aligned one after another, so that stray single
characters matched inside text the other edition lacks (another commentator's notes) do
not count. Among copies of the same words the
check takes the one in reading order with the passages around it (``nearer_copies``): a note
that quotes the classic just read does not take the classic's words.

Whose notes a reference prints: a reference whose notes are another commentator's (周禮句解
prints 朱申's 句解, not 鄭注) says nothing about where the edition's commentary ends. Its
notes are another's when its bylines name an author the edition does not name and its notes
are mostly not in the edition's text (``other_commentators``): their characters take part in
the alignment but are not counted (``Result.other_commentary``). Unknown on either side, a
note counts.

Several references of one classic (``check(…, judges=…)``): each is aligned with the edition
on its own; a character of the edition that one reference prints full size (the classic) and
another in small print (周禮句解 prints the lists of officers, 敘官, small; a reference's
classic may also be aligned with the edition's note where the note quotes it) is judged by
their agreement: where they disagree it is not counted (``Result.disputed``). Neither the
alignment nor the judging looks at the stored layers.

Pure: streams in, figures out; ``collation.management.commands.check_layers`` reads the
files (or the stored editions) and prints. ``check_by_juan`` counts the same alignment juan by
juan (``Unit.juan``): what ``check_layers --juan N`` prints and a juan's 層次核對 page shows
(``collation.juanlayers``).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from characters.folding import TEXT as TEXT_KIND
from characters.folding import char_kind, fold
from reader.importers.document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, LAYOUT, NOTE_KINDS, PARATEXT, READINGS, REFERENCE, SMALLPRINT,
    SUBCOMMENTARY,
)
from reader.importers.mandoku.alignment import align

#: Layers that read as the commentary of the reference (its small print holds 陸德明's
#: readings too in several editions).
COMMENTARY_LAYERS = (COMMENTARY, READINGS)
#: What is not a character of the text for this check (besides punctuation): ○ and
#: Latin letters and digits (numbering of the tls editions).
NOT_TEXT = re.compile(r"[○〇0-9A-Za-z]")
#: Small print of the 纂圖互註 editions that cross-refers other passages, with its label.
CROSS_REFERENCE = ("重言", "重意")

#: Byline roles of those who compile, edit or collate a book rather than write its notes
#: (左傳杜林合注: 趙如源 同編): they say nothing about whose notes a reference prints.
EDITOR_ROLES = ("編", "輯", "纂", "訂", "校")
#: Notes of a reference by someone the edition's people do not name are another commentator's
#: when fewer than this share of their characters are found in the edition (``other_commentators``):
#: 周禮句解's (朱申) 10.9 % in 周禮注疏, its 敘官 included; 鄭玄's of 儀禮 鄭氏注 97.1 % in 儀禮鄭註句讀
#: (張爾岐 撰, who prints 鄭注 with his own remarks), 49.1 % in 儀禮經傳通解 (朱熹, who prints 鄭注 with
#: 疏 and readings among the passages he gathers); the shared references' notes, each writer's
#: group, 45.9 % (杜預's of 左傳杜林合注, where 林堯叟 goes on in the same note) to 98.3 %.
OTHER_SHARE = 0.25

#: Front matter: a Kanripo file numbered 000 (``KR1e0004_000.txt``), a stored juan numbered 0: what
#: a book prints before its 卷一 -- the emperor's poems, prefaces, 提要, 目錄, 原目, 傳述人. The
#: edition's front matter takes part only when a reference has front matter too: a reference
#: that begins at its 卷一 (左傳杜林合注, the 四部叢刊 毛詩) prints none of it, and its notes, aligned
#: before the first words the two share, would be matched in runs of three with prose it does
#: not hold (孔穎達's 春秋正義序 ``…至十六年又奉勑…``, 鄭玄's 詩譜).
FRONT_MATTER = 0

#: The shared pairs (SOURCES.md, kanripo-references): 注疏 edition folder, reference folder,
#: then any further references that judge it (see the module docstring), each as it lives
#: under ``../shared/corpus``. 周禮注疏 is checked twice: against 周禮句解 (the pair SOURCES.md
#: names, whose notes are 朱申's, not 鄭玄's, and which prints the 敘官 small), judged with
#: the 四部叢刊 周禮 鄭氏註 (``kanripo/KR1d0002``), and against that 鄭氏註 alone, which prints
#: the same 鄭注 in small print.
PAIRS = (
    ("kanripo-jingbu/KR1a0007", "kanripo-references/KR1a0001"),  # 周易註疏 / 周易 (tls 白文)
    ("kanripo-jingbu/KR1b0004", "kanripo-references/KR1b0002"),  # 尚書注疏 / 尚書 SBCK
    ("kanripo-jingbu/KR1c0004", "kanripo-references/KR1c0002"),  # 毛詩注疏 / 毛詩 SBCK
    ("kanripo-jingbu/KR1d0003", "kanripo-references/KR1d0012", "kanripo/KR1d0002"),  # 周禮注疏 / 周禮句解
    ("kanripo-jingbu/KR1d0003", "kanripo/KR1d0002"),  # 周禮注疏 / 周禮 鄭氏註 SBCK
    ("kanripo-jingbu/KR1e0004", "kanripo-references/KR1e0092"),  # 左傳注疏 / 左傳杜林合注
    ("kanripo-jingbu/KR1e0010", "kanripo-references/KR1e0009"),  # 穀梁注疏 / 穀梁傳 SBCK
    ("kanripo-jingbu/KR1f0004", "kanripo-references/KR1f0002"),  # 孝經注疏 / 孝經 SBCK
    ("kanripo-jingbu/KR1h0003", "kanripo-references/KR1h0002"),  # 孟子注疏 / 孟子 SBCK
    ("kanripo-jingbu/KR1h0007", "kanripo-references/KR1h0005"),  # 論語注疏 / 論語 SBCK
)

#: The pairs Kanripo's catalogue gives among the shared folders that ``PAIRS`` does not name (decision
#: 0100, ``reader.commented_classic.classic_of``: a book named after its notes, or a classic printed with
#: its notes, against the held editions of its classic), as ``PAIRS`` writes them: ``check_layers
#: --shared`` measures them after ``PAIRS``, each reference alone, as a juan's 層次核對 page does.
CATALOGUE_PAIRS = (
    ("kanripo/KR1d0038", "kanripo/KR1d0026"),  # 儀禮鄭註句讀 (張爾岐) / 儀禮 鄭氏注 SBCK
    ("kanripo-jingbu/KR1d0085", "kanripo/KR1d0026"),  # 儀禮經傳通解 (朱熹) / 儀禮 鄭氏注 SBCK
    ("kanripo-jingbu/KR1d0037", "kanripo/KR1d0026"),  # 欽定儀禮義疏 / 儀禮 鄭氏注 SBCK
    ("kanripo-jingbu/KR1h0006", "kanripo-references/KR1h0005"),  # 論語集解義疏 (皇侃) / 論語 SBCK
    ("kanripo/KR1d0002", "kanripo/KR1d0001"),  # 周禮 鄭氏註 SBCK / 周禮 (正文)
    ("kanripo-references/KR1d0012", "kanripo/KR1d0001"),  # 周禮句解 (朱申) / 周禮 (正文)
    ("kanripo-references/KR1d0012", "kanripo/KR1d0002"),  # 周禮句解 (朱申) / 周禮 鄭氏註 SBCK
)


@dataclass
class Unit:
    """One piece of a stream: ``where`` names it for a reader (``KR1h0003_001.txt:45``,
    the line of its first character, or a stored juan and section), ``text`` is as
    stored, ``layer`` and ``layer_name`` as stored, ``basis`` how the layer was decided;
    ``lines`` gives, for offsets into ``text``, the line each starts (``(offset, line)``,
    increasing) when the unit comes from a file; ``commentator`` who wrote the piece when
    the importer names him (``Piece.commentator``); ``front`` whether it is front matter
    (``FRONT_MATTER``); ``juan`` the number of its juan (a stored juan's, or the Kanripo file's
    number) and ``section`` its section's position in a stored juan (None when not known)."""

    where: str
    text: str
    layer: str
    layer_name: str = ""
    basis: str = ""
    lines: list[tuple[int, int]] = field(default_factory=list)
    commentator: str = ""
    front: bool = False
    juan: int | None = None
    section: int | None = None

    def where_at(self, offset: int) -> str:
        """``where`` for the character at ``offset`` (its own line when known)."""
        if not self.lines:
            return self.where
        k = bisect.bisect_right([o for o, _ in self.lines], offset) - 1
        name = self.where.rsplit(":", 1)[0]
        return f"{name}:{self.lines[max(k, 0)][1]}"


@dataclass
class Stream:
    """Folded characters to align: ``text`` (str), and per character its ``role`` (a layer
    for an edition; ``C`` classic or ``M`` commentary for a reference), the index of its
    unit in ``units`` and its offset in that unit's text; ``people`` everyone the edition's
    bylines name (``[{"dynasty": "漢", "name": "鄭氏", "role": "注"}, …]``, as
    ``JuanDocument.bylines``), and for an edition the commentators of its pieces too;
    ``front_matter`` whether any of its units is front matter (``Unit.front``); ``juans`` the
    juan numbers of its units, left-out ones included (``check_layers --juan`` names the juans
    an edition has)."""

    text: str = ""
    role: list[str] = field(default_factory=list)
    unit: list[int] = field(default_factory=list)
    offset: list[int] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    people: list[dict] = field(default_factory=list)
    front_matter: bool = False
    #: The juan numbers of every unit given, those left out included (``Unit.juan``), sorted.
    juans: list = field(default_factory=list)

    @classmethod
    def build(cls, items, people=()) -> "Stream":
        """A stream of ``(unit, role)`` pairs; a role of None leaves the unit out. ``people``:
        byline entries (dicts with ``name``, maybe ``dynasty`` and ``role``), kept once each."""
        chars: list[str] = []
        s = cls()
        for person in people:
            if person not in s.people:
                s.people.append(person)
        juans = set()
        for unit, role in items:
            if unit.juan is not None:
                juans.add(unit.juan)
            if role is None:
                continue
            u = len(s.units)
            s.units.append(unit)
            s.front_matter = s.front_matter or unit.front
            folded = fold(unit.text)
            for k, ch in enumerate(folded):
                if char_kind(ch) != TEXT_KIND or NOT_TEXT.match(ch):
                    continue
                chars.append(ch)
                s.role.append(role)
                s.unit.append(u)
                s.offset.append(k)
        s.text = "".join(chars)
        s.juans = sorted(juans)
        return s


def edition_role(layer: str, kind: str, basis: str = "") -> str | None:
    """The role of an edition's piece in the check: its layer, or None for what is left out
    (labels; 音義, 疏 and editors' notes the book sets apart, ``basis`` marked: small print
    under its label, 考證 parts). Editors' notes the importer found by the layout (after ○
    in full-size commentary) take part, so that classic stored in them counts. ``basis``
    ``default`` (what a stored main-text piece holds when the book's order was kept) is read as
    a parsed piece's empty basis, so that a stored edition and its Kanripo folder give the same
    figures (a 考證 part is left out either way). Front and back matter (``PARATEXT``: a 卷首's
    preface, decision 0039) is the main text of its part, as the reference prints it full size:
    it takes part as the classic, so that the check measures where the main text and the
    commentary part, as it does in the reference (``reference_roles``)."""
    if kind == LABEL:
        return None
    if layer == PARATEXT:
        return CLASSIC
    if basis in (LAYOUT, REFERENCE):
        return layer or (COMMENTARY if kind in NOTE_KINDS else CLASSIC)
    if kind in NOTE_KINDS and layer in (READINGS, SUBCOMMENTARY, EDITORIAL):
        return None
    if layer == EDITORIAL:
        return None
    return layer or (COMMENTARY if kind in NOTE_KINDS else CLASSIC)


def edition_roles(pieces) -> list[str | None]:
    """The role of each of an edition's pieces (objects with ``kind``, ``layer`` and
    ``layer_basis``) in reading order: ``edition_role``'s, except that the small print of no
    layer (``SMALLPRINT``) a title prints after its name is left out with the title. A title
    is a label of no layer (a layer's marker, 注 or 音義, has one): a heading, or an entry of a
    contents list, whose small print names the pieces under it (尚書注疏 ``周書　(洪範/)``,
    毛詩注疏 ``小雅　(鴻鴈之什/)``, 左傳注疏's 目錄 ``桓公第二(十八年)``). The measure is of
    the text a reader reads as the classic and its commentary; the title's note is neither,
    and its names, printed again right after it as the classic (``序鴻鴈美宣王也``), would
    take the reference's words from the classic that holds them."""
    roles: list[str | None] = []
    after_title = False
    for p in pieces:
        role = edition_role(p.layer, p.kind, getattr(p, "layer_basis", ""))
        if p.kind == LABEL:
            after_title = not p.layer
        elif after_title and p.kind in NOTE_KINDS and p.layer == SMALLPRINT:
            role = None
        else:
            after_title = False
        roles.append(role)
    return roles


def reference_roles(pieces) -> list[tuple[str, str | None]]:
    """``(text, role)`` for a reference edition's pieces (objects with ``kind`` and
    ``text``) in reading order: text ``C``, notes ``M``; labels (None) and the 重言/重意
    cross-references left out (the label word cut from the end of the text before the
    small print, the small print given None)."""
    out: list[tuple[str, str | None]] = []
    skip_next_note = False
    for k, p in enumerate(pieces):
        if p.kind == LABEL:
            out.append((p.text, None))
            continue
        if p.kind in NOTE_KINDS:
            out.append((p.text, None if skip_next_note else "M"))
            skip_next_note = False
            continue
        nxt = pieces[k + 1] if k + 1 < len(pieces) else None
        skip_next_note = bool(nxt is not None and nxt.kind in NOTE_KINDS and p.text.endswith(CROSS_REFERENCE))
        out.append((p.text[:-2] if skip_next_note else p.text, "C"))
    return out


@dataclass
class Place:
    """A stretch of the edition where the reference's layer and the stored one differ:
    ``kind`` is ``classic`` (reference classic stored otherwise) or ``commentary``
    (reference commentary stored as classic); ``chars`` how many characters; ``where``
    the file and line (or juan and section); ``edition`` and ``reference`` the text around
    it, the edition's with its layers marked (``〔注：…〕``), the reference's with its small
    print in ``(…)``; ``juan`` and ``section`` those of the unit it starts in (``Unit``)."""

    kind: str
    chars: int
    where: str
    edition: str
    reference: str
    juan: int | None = None
    section: int | None = None


@dataclass
class Result:
    """The figures of one check: reference classic characters aligned and of them stored as
    classic; reference commentary characters aligned and of them stored as commentary
    (``COMMENTARY_LAYERS``); totals of each; the worst places. ``other_commentary`` counts the
    reference's note characters by another commentator (``other_names``), left out of every
    commentary figure; ``disputed`` the aligned reference characters another reference reads
    otherwise (classic against small print), left out of ``*_aligned`` and ``*_ok``."""

    classic_total: int = 0
    classic_aligned: int = 0
    classic_ok: int = 0
    commentary_total: int = 0
    commentary_aligned: int = 0
    commentary_ok: int = 0
    places: list[Place] = field(default_factory=list)
    other_commentary: int = 0
    other_names: list[str] = field(default_factory=list)
    disputed: int = 0

    @property
    def classic_share(self) -> float | None:
        """Share (0–1) of aligned reference classic stored as classic; None if none aligned."""
        return self.classic_ok / self.classic_aligned if self.classic_aligned else None

    @property
    def commentary_share(self) -> float | None:
        """Share (0–1) of aligned reference commentary stored as commentary; None if none."""
        return self.commentary_ok / self.commentary_aligned if self.commentary_aligned else None


def percent(share: float | None) -> str:
    """``99.62 %`` (two decimals, rounded down so a figure never reads as meeting a target
    it misses), or ``—`` when nothing was aligned: as ``check_layers`` and the 層次核對 page print
    a share."""
    if share is None:
        return "—"
    return f"{int(share * 10000) / 100:.2f} %"


def same_person(a: dict, b: dict) -> bool:
    """True when two byline entries (dicts with ``name`` and maybe ``dynasty``) can name one
    person: names equal once folded (陸徳明, 陸德明), one inside the other (a byline read with
    its 篇 before the name, ``小雅鄭氏``), or one the surname with 氏 (鄭氏) and the other of
    that surname (鄭玄), as bylines name a commentator of the Han; never two dynasties."""
    na, nb = fold(a.get("name", "")), fold(b.get("name", ""))
    if len(na) < 2 or len(nb) < 2:
        return False
    if a.get("dynasty") and b.get("dynasty") and fold(a["dynasty"]) != fold(b["dynasty"]):
        return False
    return na in nb or nb in na or (na[0] == nb[0] and (na.endswith("氏") or nb.endswith("氏")))


def other_commentators(ed: Stream, ref: Stream, match: list[int]) -> tuple[set[int], list[str]]:
    """Which of ``ref``'s units are notes by someone other than the edition's commentators,
    and their names: ``(unit indexes, names)``; ``match`` is ``align(ref.text, ed.text)``.
    The reference's notes are taken in groups by who wrote them: those the importer gave a
    commentator (the reference's byline's, 鄭玄 for 儀禮 鄭氏注; 陸德明 for 音義 after ○), one group
    each, and those it gave none, whose writers are the reference's bylines' authors (not
    compilers or collators, ``EDITOR_ROLES``). A group is another's when the edition names
    nobody like its writer (``same_person``; for the unnamed notes, none of the authors) and
    fewer than ``OTHER_SHARE`` of its characters are found in the edition at all (in any
    layer): the edition's text, not its byline, says whether it prints his notes. A book's
    author may print an older commentary with his own remarks and name only himself: 儀禮鄭註句讀
    (張爾岐 撰) prints 鄭玄's notes, 97.1 % of those of 儀禮 鄭氏注 found in it; 儀禮經傳通解 (朱熹)
    49.1 %; 周禮句解's own notes (朱申) 10.9 % in 周禮注疏. ``names``: each writer once (鄭玄, not again as
    the 鄭氏 of a byline). Unknown on either side, a note counts."""
    if not ed.people:
        return set(), []
    authors = [p for p in ref.people if p.get("name") and not p.get("role", "").endswith(EDITOR_ROLES)]
    groups: dict[str, list] = {}  # writer ("" for notes the importer named nobody for): [units, found, total]
    for r in range(len(ref.text)):
        if ref.role[r] == "C":
            continue
        u = ref.unit[r]
        group = groups.setdefault(ref.units[u].commentator, [set(), 0, 0])
        group[0].add(u)
        group[1] += match[r] >= 0
        group[2] += 1
    other: set[int] = set()
    names: list[str] = []
    for who, (units, found, total) in groups.items():
        writers = [{"name": who}] if who else authors
        if not writers or any(same_person(w, p) for w in writers for p in ed.people) or found >= OTHER_SHARE * total:
            continue
        other |= units
        for w in writers:
            if not any(same_person(w, {"name": n}) for n in names):
                names.append(w["name"])
    return other, names


LAYER_MARK = {COMMENTARY: "注", READINGS: "音義", SUBCOMMENTARY: "疏", EDITORIAL: "按"}


def _mark_edition(ed: Stream, a: int, b: int) -> str:
    """The edition's characters ``a``…``b`` with every run outside the classic in ``〔名：…〕``."""
    out: list[str] = []
    run_role = None
    for k in range(a, b):
        role = ed.role[k]
        if role != run_role:
            if run_role not in (None, CLASSIC):
                out.append("〕")
            if role != CLASSIC:
                unit = ed.units[ed.unit[k]]
                out.append(f"〔{unit.layer_name or LAYER_MARK.get(role, role)}：")
            run_role = role
        out.append(ed.text[k])
    if run_role not in (None, CLASSIC):
        out.append("〕")
    return "".join(out)


def _mark_reference(ref: Stream, a: int, b: int) -> str:
    out: list[str] = []
    for k in range(a, b):
        if ref.role[k] == "M" and (k == a or ref.role[k - 1] != "M"):
            out.append("(")
        out.append(ref.text[k])
        if ref.role[k] == "M" and (k + 1 == b or ref.role[k + 1] != "M"):
            out.append(")")
    return "".join(out)


def _votes(ed: Stream, judges) -> dict[int, set[str]]:
    """For each edition offset some judge aligned, how the judges print it: ``C`` full size
    (the classic), ``S`` small print."""
    votes: dict[int, set[str]] = {}
    for judge in judges:
        for r, e in enumerate(align(judge.text, ed.text, nearer_copies=True)):
            if e >= 0:
                votes.setdefault(e, set()).add("C" if judge.role[r] == "C" else "S")
    return votes


def check(ed: Stream, ref: Stream, worst: int = 10, context: int = 12, judges=()) -> Result:
    """Align ``ref`` with ``ed`` and count (see ``Result``); ``worst`` places, largest
    first, each with ``context`` characters either side. ``judges``: other references
    (``Stream``) of the same classic, each aligned with ``ed`` on its own; a character of
    ``ref`` is not counted where one of them prints the same edition characters otherwise
    (full size against small print): ``Result.disputed``."""
    return check_by_juan(ed, ref, worst, context, judges, by_juan=False)[None]


def check_by_juan(ed: Stream, ref: Stream, worst: int | None = 10, context: int = 12, judges=(),
                  by_juan: bool = True) -> dict[int | None, Result]:
    """``check`` once, its figures counted for each juan of the edition (``Unit.juan``): ``{juan
    number: Result}``, a juan's ``Result`` counting only the reference characters aligned with
    characters of that juan (``*_aligned``, ``*_ok``, ``disputed``, ``other_commentary``, its
    places, ``worst`` of them or all for None); ``*_total`` stay the whole reference's. One
    alignment of the whole edition serves every juan, so that a juan's figures are its share of
    the edition's (they sum to them) and read the same in a juan page and in ``check_layers
    --juan``. ``by_juan`` False: one ``Result`` for the whole edition, under None. A juan with
    nothing aligned is absent."""
    match = align(ref.text, ed.text, nearer_copies=True)
    votes = _votes(ed, judges)
    other, names = other_commentators(ed, ref, match)
    totals = Result()
    results: dict[int | None, Result] = {}
    wrong: dict[int | None, list[tuple[int, int, str]]] = {}  # (edition offset, reference offset, kind)
    for r, e in enumerate(match):
        role = ref.role[r]
        if role == "C":
            totals.classic_total += 1
        elif ref.unit[r] not in other:
            totals.commentary_total += 1
        if e < 0:
            if not by_juan and role != "C" and ref.unit[r] in other:
                results.setdefault(None, Result(other_names=names)).other_commentary += 1
            continue
        key = ed.units[ed.unit[e]].juan if by_juan else None
        res = results.setdefault(key, Result(other_names=names))
        if role != "C" and ref.unit[r] in other:
            res.other_commentary += 1
            continue
        if votes.get(e, set()) - {"C" if role == "C" else "S"}:
            res.disputed += 1
            continue
        stored = ed.role[e]
        if role == "C":
            res.classic_aligned += 1
            if stored == CLASSIC:
                res.classic_ok += 1
            else:
                wrong.setdefault(key, []).append((e, r, "classic"))
        else:
            res.commentary_aligned += 1
            if stored in COMMENTARY_LAYERS:
                res.commentary_ok += 1
            elif stored == CLASSIC:
                wrong.setdefault(key, []).append((e, r, "commentary"))
    if not by_juan:
        results.setdefault(None, Result(other_names=names))
    for key, res in results.items():
        res.classic_total, res.commentary_total = totals.classic_total, totals.commentary_total
        res.places = _places(ed, ref, wrong.get(key, []), worst, context)
    return results


def juan_result(results: dict[int | None, Result], juan: int) -> Result:
    """Juan ``juan``'s ``Result`` of ``check_by_juan``'s ``results``; for a juan with nothing
    aligned, one that counts nothing, with the reference's totals."""
    found = results.get(juan)
    if found is not None:
        return found
    some = next(iter(results.values()), Result())
    return Result(classic_total=some.classic_total, commentary_total=some.commentary_total,
                  other_names=list(some.other_names))


def _places(ed: Stream, ref: Stream, wrong, worst: int | None, context: int) -> list[Place]:
    """The places of ``wrong`` (``(edition offset, reference offset, kind)``): characters of one
    kind at most 4 apart in the edition make one, largest first; ``worst`` of them (all for None)."""
    groups: list[list[tuple[int, int, str]]] = []
    for item in sorted(wrong):
        if groups and groups[-1][-1][2] == item[2] and item[0] - groups[-1][-1][0] <= 4:
            groups[-1].append(item)
        else:
            groups.append([item])
    groups.sort(key=lambda g: (-len(g), g[0][0]))
    places = []
    for g in groups[:worst]:
        e0, e1 = g[0][0], g[-1][0] + 1
        r0, r1 = min(x[1] for x in g), max(x[1] for x in g) + 1
        unit = ed.units[ed.unit[e0]]
        places.append(Place(
            kind=g[0][2], chars=len(g), where=unit.where_at(ed.offset[e0]),
            edition=_mark_edition(ed, max(0, e0 - context), min(len(ed.text), e1 + context)),
            reference=_mark_reference(ref, max(0, r0 - context), min(len(ref.text), r1 + context)),
            juan=unit.juan, section=unit.section,
        ))
    return places
