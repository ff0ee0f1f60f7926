"""Search counts per layer against a plain count: the check of ``check_corpus.py --search-counts``.

For one file: import it into a scratch database (``reader.importers.loader``), index that one
juan with the search engine the site runs (``search.backends.positional``), and for every
layer the juan holds ask the engine a few queries with ``layer`` set to that layer and
``exact`` on (no variant folding, so the plain count needs no folding table): the most
frequent and the rarest Han character of the layer, a phrase of 2–4 characters from its
longest passage and, where the layer is read continuously (the classic, a record), a phrase
that runs across two of its pieces (a note stands between them in the book). The plain
count reads the stored pieces (``reader.models.Piece``) and shares no code with
``search.documents``: per section, the classic's pieces (labels left out), a record's
pieces and the full-size runs of any other layer are each one continuous text, every note
(with its source tag) is a text by itself; a query's count is the sum of ``str.count``
over them (non-overlapping, as the engine counts). The parts of one small-print note that
the importer cut because its columns read in another order than the file's (a juan whose
file holds them left column first, ``Juan.columns_reversed``: 六臣註文選, 水經注, 荀子) are read in reading order, and joined where they follow
each other with the same commentator and layer. Titles are left out (a chapter's title and category are searched apart from its
sections).

``counts_for_file(path)`` gives ``[(layer, query, engine, plain)]``; a row whose two
counts differ is a fault. Needs Django set up with a scratch database (``setup``).
"""
from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from pathlib import Path

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]+")
NOTE_KINDS = ("note", "record_note")


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


def plain_texts(juan) -> dict[str, list[str]]:
    """The texts of each layer of a stored juan, by the rule of the module docstring:
    ``{layer: [text, …]}``; a piece's layer is its ``layer`` or its kind's default."""
    from reader.importers.mandoku.commentators import reading_groups
    from reader.models import Piece
    from reader.pieces import DEFAULT_LAYER
    out: dict[str, list[str]] = {}
    runs: dict[tuple, list[str]] = {}
    by_section: dict[int, list] = {}
    for piece in Piece.objects.filter(section__juan=juan).order_by("section__position", "position"):
        by_section.setdefault(piece.section_id, []).append(piece)
    for section_id, pieces in by_section.items():
        groups = reading_groups(pieces, juan.columns_reversed) or [[p] for p in pieces]
        for group in groups:
            last = None  # the part before, when it is of the same note, commentator and layer
            for piece in group:
                kind, text = piece.kind, piece.text
                tag = piece.tag_separator + piece.source_tag if piece.source_tag else ""
                layer = piece.layer or DEFAULT_LAYER[kind]
                if kind == "label":
                    continue
                if kind == "record":
                    runs.setdefault((section_id, "record"), []).append(text)
                elif kind == "record_note":
                    out.setdefault("record_note", []).append(text + tag)
                elif kind == "note" and layer != "classic":
                    if last is not None and (last.layer, last.commentator) == (piece.layer, piece.commentator) \
                            and not last.source_tag:
                        out[layer][-1] += text + tag
                    else:
                        out.setdefault(layer, []).append(text + tag)
                    last = piece
                else:
                    runs.setdefault((section_id, layer), []).append(text)
    for (_, layer), texts in runs.items():
        out.setdefault(layer, []).append("".join(texts))
    return out


def _across(juan, layer: str) -> str | None:
    """A phrase of two characters of one piece and two of the next of ``layer`` (the classic
    or a record) in the same section, where a note stands between them; None when there is
    none."""
    from reader.models import Piece
    from reader.pieces import DEFAULT_LAYER
    rows = Piece.objects.filter(section__juan=juan).order_by("section__position", "position").values_list(
        "section_id", "kind", "text", "layer")
    last, between = None, False
    for section_id, kind, text, piece_layer in rows:
        eff = "record" if kind == "record" else (piece_layer or DEFAULT_LAYER[kind])
        if kind not in ("text", "record") or eff != layer:
            between = between or kind in NOTE_KINDS
            continue
        if last and last[0] == section_id and between and HAN.fullmatch(last[1][-2:] + text[:2] or "-"):
            return last[1][-2:] + text[:2]
        last, between = (section_id, text), False
    return None


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


def counts_for_file(path: Path, backend_path: Path) -> list[tuple[str, str, int, int]]:
    """Import ``path``, index its juans alone at ``backend_path`` and return ``[(layer, query,
    engine count, plain count)]`` for every layer but titles, juan by juan in the file's order
    (a plain-text book of several juans, 列女傳, gives each juan's rows). The juans stay in the
    scratch database (the queries name each by id).
    Raises ``TextFormatError`` for a file the importer refuses."""
    from reader.importers.loader import import_file_juans
    from search.backends.base import SearchQuery
    from search.backends.positional.backend import PositionalIndexBackend
    from search.documents import documents_for_juan
    juans = [result.juan for result in import_file_juans(path)]
    backend = PositionalIndexBackend("counts", {"PATH": backend_path})
    backend.rebuild([doc for juan in juans for doc in documents_for_juan(juan)])
    rows = []
    for juan in juans:
        for layer, texts in sorted(plain_texts(juan).items()):
            asked = queries(texts)
            if layer in ("classic", "record"):
                across = _across(juan, layer)
                if across:
                    asked.append(across)
            for q in asked:
                found = backend.search(SearchQuery(q, layers=frozenset({layer}), exact=True,
                                                   juan_ids=frozenset({juan.pk}), context=0))
                rows.append((layer, q, found.count, sum(t.count(q) for t in texts)))
    return rows
