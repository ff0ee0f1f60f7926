"""Search counts per layer against a plain count: the check of ``check_corpus.py --search-counts``.

For one file: import it into a scratch database (``reader.importers.loader``), check that the
stored juans write back byte for byte (``render_source``), index those juans alone with the
search engine the site runs (``search.backends.positional``), and for every layer the juans
hold ask the engine a few queries with ``layer`` set to that layer, and compare each count
with a plain count over the stored pieces (``reader.models.Piece``). The plain count shares no
code with ``search.documents`` or ``search.analysis``; it reads the pieces by the rule
``docs/searching.md`` states:

- per section, the classic's pieces, a record's pieces and the full-size runs of any other
  layer are each one continuous text (labels and the section's byline, ``reader.people.
  byline_pieces``, left out); every note (with its source tag) is a text by itself. The parts
  of one small-print note that the importer cut because its columns read in another order
  than the file's (``Juan.columns_reversed``: 六臣註文選, 水經注, 荀子) are read in reading
  order and joined where they follow each other with the same commentator and layer. A text's
  commentator is the first its pieces name.
- titles (``title``): each chapter's title and category, each label of the classic (經) with its
  source tag, and each section's title, written with its closer when the closer ends with it
  (右張侯), unless a label of the section is that title; each label of front matter (``paratext``:
  a preface's heading, a 目錄's entry) is a ``paratext`` text by itself.
- **exact** queries (嚴格字形): a query's count is the sum of ``str.count`` over the texts with
  invisible code points and variation selectors taken out (non-overlapping, as the engine counts);
- **folded** queries (the default search): each text as its characters' folds
  (``characters.folding.fold_char``; punctuation, spaces and ○, ``char_kind`` SEPARATOR, left
  out; a gaiji entity one character, ``characters.gaiji.gaiji_key``), and each query character
  as the set of keys it matches (``characters.simplified.query_keys``), counted with a regex. In
  a simplified or mixed edition, where an ambiguous form (后, 于) is read by its neighbours, only
  queries none of whose characters is or may be read as such a form are asked folded.

The queries of a layer: the most frequent and the rarest Han character, a phrase of 2–4
characters from the middle of its longest text, and, for each layer read continuously (the
classic, a record, full-size commentary), a phrase of two characters of one piece and two of the
next where another layer (a note) stands between them (``across``) and one from the end of a
piece into the piece of another layer after it (``into next``: no hit in the layer unless the
layer itself holds it); for the parts of one note joined in reading order, a phrase across the
join (``note parts``). Each of these over a seam is asked again where punctuation or ○ stands
at the seam (``across ○``, ``儀○君有``: exact with it, folded without it). Folded: a character
written the way the layer writes it less often (說 asked as 説, ``variant``), and the middle
phrase, a phrase across punctuation or ○ (``punctuation``) and the phrases across a seam, each
character written as another spelling the juan uses of it. By commentator: each commentator's
most frequent character in each layer, with ``commentator`` set (``SearchQuery.commentator``).

``check_file(path, index_path)`` gives ``(rows, writes_back)``, ``counts_for_file`` the rows
alone: ``Row(layer, query, engine, plain, mode, commentator, what)``; a row whose two counts
differ is a fault. Needs Django set up with a scratch database (``setup``).
"""
from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import NamedTuple

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]+")
NOTE_KINDS = ("note", "record_note")
EXACT, FOLDED = "exact", "folded"
#: A description of a character Unicode lacks, as docs/searching.md states it: in ``[…]``, characters,
#: gaiji, ``?``, ``(``, ``)`` and at least one of the operators ``* / @ - +`` (``[門@里]``); one character.
DESCRIBED = re.compile(r"\[(?:[^\x00-\x7f\s]|&KR\d+;|[?()])*(?:[*/@+\-](?:[^\x00-\x7f\s]|&KR\d+;|[?()])+)+\]")
#: A lost character: an ASCII ``?`` in a run that no ASCII letter, digit or space stands before.
LOST = re.compile(r"(?<![A-Za-z0-9 ?])\?+")
#: A Kanripo gaiji entity or U+0001, a description, a run of lost characters, else one code point.
#: (groups 1, 2, 3: ``folded_text`` tells them apart).
_UNIT = re.compile(r"(&KR\d{1,5};)|(" + DESCRIBED.pattern + ")|(" + LOST.pattern + ")|.", re.S)
#: Text with no invisible code point or variation selector in it: the Han blocks, CJK punctuation
#: and full-width forms, ASCII (a quick test before ``exact_count`` reads each character's kind).
_ORDINARY = re.compile(r"[\x00-\x7f\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uffef"
                       r"\U00020000-\U0003ffff]*")


class Row(NamedTuple):
    """One query of the check: the engine's count and the plain count (equal when all is well)."""

    layer: str
    query: str
    engine: int
    plain: int
    mode: str = EXACT
    commentator: str = ""
    what: str = ""


class Text(NamedTuple):
    """A plain passage: ``layer``, the first ``commentator`` its pieces name, its ``text``."""

    layer: str
    commentator: str
    text: str


def setup(workdir: str | None = None) -> Path:
    """Point Django at a scratch SQLite database and index under ``workdir`` (a new temporary
    folder when None), set it up and migrate it; returns the folder. Call before any
    Django import of the project's apps."""
    folder = Path(workdir or tempfile.mkdtemp(prefix="search-counts-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ["SEARCH_INDEX_DIR"] = str(folder / "index")
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    django.setup()
    call_command("migrate", verbosity=0)
    return folder


def _commentator(pieces) -> str:
    """The first commentator ``pieces`` name, "" when none does."""
    return next((p.commentator for p in pieces if p.commentator), "")


#: Two Han characters and what stands after them at the end of a text, and what stands before
#: two Han characters at the start of one (``_seam``).
_TAIL = re.compile(HAN.pattern[:-1] + "{2}" + r"\W*\Z")
_HEAD = re.compile(r"\W*" + HAN.pattern[:-1] + "{2}")
#: Punctuation the query language reads as something else: the wildcards, the cell mark and the
#: quotes of a phrase (``search.query``).
_QUERY_MARKS = frozenset("?？|｜「」\"“”")


def _seam(a: str, b: str) -> str | None:
    """The last two Han characters of ``a`` and the first two of ``b``, with the punctuation or
    ○ written after or before them (``儀○君有``); None unless both ends are so, or when a mark
    the query language reads otherwise stands between (``_QUERY_MARKS``: ``龍?於``)."""
    from characters.folding import SEPARATOR, char_kind
    tail, head = _TAIL.search(a), _HEAD.match(b)
    if not (tail and head):
        return None
    phrase = tail.group() + head.group()
    if any(c in _QUERY_MARKS for c in phrase):  # a ? in the text would be a wildcard in the query
        return None
    return phrase if all(char_kind(c) == SEPARATOR for c in HAN.sub("", phrase)) else None


def _first(found: dict[str, str], layer: str, a: str, b: str) -> None:
    """Keep in ``found`` the first phrase of ``layer`` that runs over a seam (``_seam``), and
    under ``layer + "○"`` the first that has punctuation or ○ in it."""
    phrase = _seam(a, b)
    if phrase:
        key = layer + "○" if not HAN.fullmatch(phrase) else layer
        found.setdefault(key, phrase)


class Plain:
    """A stored juan read by the plain rule (module docstring): ``texts`` (``[Text]``) and the
    first phrase of each kind that runs over a seam, ``across``/``into_next``/``note_parts``
    (``{layer: phrase}``)."""

    def __init__(self, juan):
        from reader.importers.mandoku.column_order import reading_groups
        from reader.models import Piece
        from reader.people import byline_pieces
        from reader.pieces import DEFAULT_LAYER
        self.texts: list[Text] = []
        self.across: dict[str, str] = {}
        self.into_next: dict[str, str] = {}
        self.note_parts: dict[str, str] = {}
        by_section: dict[int, list] = {}
        for piece in Piece.objects.filter(section__juan=juan).order_by("section__position", "position"):
            by_section.setdefault(piece.section_id, []).append(piece)
        sections = {s.pk: s for s in juan.sections.all()}
        for chapter in juan.chapters.all():  # a chapter's title and category are titles of their own
            self.texts.extend(Text("title", "", t) for t in (chapter.title, chapter.category) if t)
        for section_id, section in sorted(sections.items(), key=lambda item: item[1].position):
            pieces = by_section.get(section_id, [])
            byline = byline_pieces(section, pieces)
            groups = reading_groups(pieces, juan.columns_reversed) or [[p] for p in pieces]
            runs: dict[str, list] = {}  # layer: [piece, …], the section's continuous texts
            titles: list[str] = []  # the section's labels 經 and title
            labels: list[str] = []  # the labels' own text
            notes: list[tuple[str, list]] = []  # (layer, [part, …]), each note
            last_run = None  # (layer, piece): the last continuous piece, until a note follows it
            between: dict[str, bool] = {}  # layer: whether another layer stands after its last piece
            for group in groups:
                last = None  # the part before, when it is of the same note
                for piece in group:
                    if piece.position in byline:
                        continue
                    if piece.kind == "label":  # 經, a title; a marker word (注, 疏) is in no text
                        if (piece.layer or DEFAULT_LAYER["label"]) == "classic":
                            labels.append(piece.text)
                            titles.append(piece.text + (piece.tag_separator + piece.source_tag
                                                        if piece.source_tag else ""))
                        elif piece.layer == "paratext":  # front matter's heading, a 目錄's entry
                            labels.append(piece.text)
                            notes.append(("paratext", [piece]))
                        continue
                    layer = piece.kind if piece.kind in ("record", "record_note") else \
                        piece.layer or DEFAULT_LAYER[piece.kind]
                    note = piece.kind in NOTE_KINDS and layer != "classic"
                    if last_run is not None and (note or last_run[0] != layer):
                        _first(self.into_next, last_run[0], last_run[1].text, piece.text)
                    between = {k: v or note or k != layer for k, v in between.items()}
                    if note:
                        last_run = None
                        if (piece.kind == "note" and last is not None and not last.source_tag
                                and (last.layer, last.commentator) == (piece.layer, piece.commentator)):
                            _first(self.note_parts, layer, last.text, piece.text)
                            notes[-1][1].append(piece)
                        else:
                            notes.append((layer, [piece]))
                        last = piece if piece.kind == "note" else None
                        continue
                    run = runs.setdefault(layer, [])
                    if run and between.get(layer):
                        _first(self.across, layer, run[-1].text, piece.text)
                    run.append(piece)
                    between[layer], last_run = False, (layer, piece)
            if section.title and section.title not in labels:  # 右張侯, the closer with the title
                titles.append(section.closer if (section.closer or "").endswith(section.title) else section.title)
            self.texts.extend(Text("title", "", t) for t in titles)
            for layer, parts in runs.items():
                self.texts.append(Text(layer, _commentator(parts), "".join(p.text for p in parts)))
            for layer, parts in notes:  # a note is searched as written, its source tag (同上) included
                tag = parts[-1].tag_separator + parts[-1].source_tag if parts[-1].source_tag else ""
                self.texts.append(Text(layer, _commentator(parts), "".join(p.text for p in parts) + tag))

    def by_layer(self) -> dict[str, list[str]]:
        """``{layer: [text, …]}``."""
        out: dict[str, list[str]] = {}
        for t in self.texts:
            out.setdefault(t.layer, []).append(t.text)
        return out


def plain_texts(juan) -> dict[str, list[str]]:
    """The texts of each layer of a stored juan, by the rule of the module docstring:
    ``{layer: [text, …]}``; a piece's layer is its ``layer`` or its kind's default."""
    return Plain(juan).by_layer()


def queries(texts: list[str]) -> list[str]:
    """The most frequent and the rarest Han character of ``texts`` and a phrase of up to
    three Han characters from the middle of the longest text (``[]`` for no Han text)."""
    chars = Counter(ch for t in texts for run in HAN.findall(t) for ch in run)
    if not chars:
        return []
    ranked = chars.most_common()
    out = [ranked[0][0], ranked[-1][0]]
    longest = max(texts, key=len)
    runs = [r for r in HAN.findall(longest) if len(r) >= 2]
    if runs:
        run = max(runs, key=len)
        mid = len(run) // 2
        out.append(run[max(0, mid - 1):mid + 2] if len(run) >= 3 else run)
    return list(dict.fromkeys(out))


def exact_count(texts: list[str], query: str) -> int:
    """The plain exact count: ``str.count`` over ``texts`` with invisible code points and
    variation selectors (``characters.folding``: no character of the text in either mode) out,
    and each description one character no query is (its components are not found inside it)."""
    from characters.folding import INVISIBLE, SELECTOR, char_kind
    total = 0
    for t in texts:
        if "[" in t:
            t = DESCRIBED.sub("\x00", t)
        if not t.isascii() and not _ORDINARY.fullmatch(t):
            t = "".join(c for c in t if char_kind(c) not in (INVISIBLE, SELECTOR))
        total += t.count(query)
    return total


def folded_text(text: str) -> str:
    """``text`` as the plain folded count reads it: each character its fold, a gaiji entity
    its key, a description and a lost ``?`` a character no query finds, punctuation, spaces, ○
    and invisible code points left out."""
    from characters.folding import TEXT, char_kind, fold_char
    from characters.gaiji import gaiji_key
    out = []
    for m in _UNIT.finditer(text):
        unit = m.group()
        if m.lastindex == 2:
            out.append("\x00")   # a description: one character, which no query of Han characters finds
        elif m.lastindex == 3:
            out.append("\x02" * len(unit))   # lost characters: one each, no phrase reads across them
        elif len(unit) > 1:
            out.append(gaiji_key(unit))
        elif char_kind(unit) == TEXT:
            out.append(fold_char(unit))
    return "".join(out)


def folded_pattern(query: str) -> re.Pattern:
    """A regex over ``folded_text`` for a query of Han characters: each character the class
    of the keys it matches (``characters.simplified.query_keys``)."""
    from characters.simplified import query_keys
    return re.compile("".join("[" + "".join(re.escape(k) for k in sorted(query_keys(c))) + "]" for c in query))


def read_by_neighbours(ch: str) -> bool:
    """Whether a query character is, or may be read as, an ambiguous simplified form (后, 于,
    术), whose places a simplified or mixed edition reads by their neighbours."""
    from characters.simplified import KEY_BASE, form_keys, is_ambiguous, query_keys
    return bool(form_keys(ch)) or any(ord(k) >= KEY_BASE or is_ambiguous(k) for k in query_keys(ch))


class Spellings:
    """The spellings a juan uses of each folded character: ``respell(ch)`` is the one it uses
    most after ``ch`` (``ch`` itself when it writes no other), ``variant(texts)`` a character
    of ``texts`` written the less frequent of two ways there, or another way the juan writes it."""

    def __init__(self, texts: list[str]):
        from characters.folding import fold_char
        self.fold = fold_char
        self.forms: dict[str, Counter] = {}
        for t in texts:
            for run in HAN.findall(t):
                for ch in run:
                    self.forms.setdefault(fold_char(ch), Counter())[ch] += 1

    def respell(self, ch: str) -> str:
        others = [c for c, _ in self.forms.get(self.fold(ch), Counter()).most_common() if c != ch]
        return others[0] if others else ch

    def variant(self, texts: list[str]) -> str | None:
        here = Counter(ch for t in texts for run in HAN.findall(t) for ch in run)
        classes: dict[str, Counter] = {}
        for ch, n in here.items():
            classes.setdefault(self.fold(ch), Counter())[ch] = n
        twofold = [(sum(c.values()), c.most_common()[-1][0]) for c in classes.values() if len(c) > 1]
        if twofold:
            return max(twofold)[1]
        for ch, _ in here.most_common():
            if self.respell(ch) != ch:
                return self.respell(ch)
        return None


def _across_punctuation(texts: list[str]) -> str | None:
    """Two Han characters before punctuation (or ○) and two after it, nearest the middle of
    the longest text that has such a place; None when none has."""
    from characters.folding import SEPARATOR, char_kind
    for text in sorted(texts, key=len, reverse=True)[:20]:
        spots = []
        for m in re.finditer(r"(?<=[^\W\d_]{2})\W+(?=[^\W\d_]{2})", text):
            if all(char_kind(c) == SEPARATOR for c in m.group()):
                phrase = text[m.start() - 2:m.start()] + text[m.end():m.end() + 2]
                if HAN.fullmatch(phrase):
                    spots.append((abs(m.start() - len(text) // 2), phrase))
        if spots:
            return min(spots)[1]
    return None


def _asked(plain: Plain, spellings: Spellings, script: str) -> list[tuple]:
    """``[(layer, query, mode, commentator, what, texts)]``: every query of a juan (module
    docstring); ``texts`` are the plain texts the query is counted over."""
    out = []

    def respelled(phrase: str) -> str:  # its Han characters, each as another spelling the juan uses
        return "".join(map(spellings.respell, "".join(HAN.findall(phrase))))

    for layer, texts in sorted(plain.by_layer().items()):
        asked = queries(texts)
        out.extend((layer, q, EXACT, "", what, texts) for q, what in zip(asked, ("frequent", "rare", "phrase")))
        seams = [(found[key], what + ("" if key == layer else " ○"))
                 for found, what in ((plain.across, "across"), (plain.into_next, "into next"),
                                     (plain.note_parts, "note parts"))
                 for key in (layer, layer + "○") if key in found]
        out.extend((layer, q, EXACT, "", what, texts) for q, what in seams)
        folded = [(spellings.variant(texts), "variant")]
        if len(asked) > 2:
            folded.append((respelled(asked[2]), "phrase"))
        punct = _across_punctuation(texts)
        if punct:
            folded.append((respelled(punct), "punctuation"))
        folded.extend((respelled(q), what) for q, what in seams if what.startswith(("across", "note parts")))
        for q, what in folded:
            if q and (script == "traditional" or not any(map(read_by_neighbours, q))):
                out.append((layer, q, FOLDED, "", what, texts))
    by_commentator: dict[tuple[str, str], list[str]] = {}
    for t in plain.texts:
        if t.commentator:
            by_commentator.setdefault((t.layer, t.commentator), []).append(t.text)
    for (layer, commentator), texts in sorted(by_commentator.items()):
        out.extend((layer, q, EXACT, commentator, "frequent", texts) for q in queries(texts)[:1])
    return out


def import_and_index(path: Path, backend_path: Path):
    """Import ``path`` (its juans in the file's order) and index those juans alone at
    ``backend_path``: ``(juans, backend)``. Raises ``TextFormatError`` for a file the importer refuses."""
    from reader.importers.loader import import_file_juans
    from search.backends.positional.backend import PositionalIndexBackend
    from search.documents import documents_for_juan
    juans = [result.juan for result in import_file_juans(path)]
    backend = PositionalIndexBackend("counts", {"PATH": backend_path})
    backend.rebuild([doc for juan in juans for doc in documents_for_juan(juan)])
    return juans, backend


def writes_back(path: Path, juans) -> bool:
    """Whether the stored ``juans`` of ``path``, written back (``render_source``) and joined in
    order, are the file byte for byte."""
    from reader.importers.loader import render_source
    return "".join(render_source(juan) for juan in juans).encode("utf-8") == path.read_bytes()


def juan_rows(juan, backend) -> list[Row]:
    """Every query of one indexed juan with its two counts (module docstring)."""
    from search.backends.base import SearchQuery
    plain = Plain(juan)
    spellings = Spellings([t.text for t in plain.texts])
    rows = []
    folded: dict[int, str] = {}  # id(texts): the texts folded, one per line (no query holds a newline)
    for layer, q, mode, commentator, what, texts in _asked(plain, spellings, juan.edition.script):
        written = q if HAN.fullmatch(q) else f"「{q}」"  # a phrase, spaces and punctuation included
        found = backend.search(SearchQuery(written, layers=frozenset({layer}), exact=mode == EXACT,
                                           juan_ids=frozenset({juan.pk}), commentator=commentator or None,
                                           context=0))
        if mode == EXACT:
            count = exact_count(texts, q)
        else:
            if id(texts) not in folded:
                folded[id(texts)] = "\n".join(folded_text(t) for t in texts)
            count = len(folded_pattern(q).findall(folded[id(texts)]))
        rows.append(Row(layer, q, found.count, count, mode, commentator, what))
    return rows


def check_file(path: Path, backend_path: Path) -> tuple[list[Row], bool]:
    """Import ``path``, index its juans alone at ``backend_path``: ``(rows, writes_back)``, the
    rows juan by juan in the file's order (a plain-text book of several juans, 列女傳, gives each
    juan's rows). The juans stay in the scratch database (the queries name each by id).
    Raises ``TextFormatError`` for a file the importer refuses."""
    juans, backend = import_and_index(path, backend_path)
    return [row for juan in juans for row in juan_rows(juan, backend)], writes_back(path, juans)


def counts_for_file(path: Path, backend_path: Path) -> list[Row]:
    """The rows of ``check_file`` alone."""
    return check_file(path, backend_path)[0]
