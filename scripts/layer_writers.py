"""Print, for every edition of a built library, who the search facets count each layer under:
the main text's authors and the writers of its notes naming nobody
(``reader.book_writers.main_writers``), each with his dynasty (``writer_dynasty``; the main
text's ``main_dynasties``), then each layer of notes as the index stores it (``Piece.layer`` and
``Piece.commentator``, with its number of pieces) and its writer's dynasty as the facets count it
(``search.facets.dynasties_of``). A review table, to be read row by row: a main text must be its
classic's author's (or 未詳), never its commentator's.

Run it with the environment of a built library (``DATABASE_URL``, ``SEARCH_INDEX_DIR``)::

    .venv/bin/python scripts/layer_writers.py [KANRIPO_ID_PREFIX ...]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))


def main(prefixes: list[str]) -> None:
    """Print the table (tab-separated) for the editions whose Kanripo ID starts with one of
    ``prefixes`` (all when none)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db.models import Count

    from reader.models import Piece
    from search.documents import MAIN_LAYERS
    from search.facets import dynasties_of, facet_table

    table = facet_table()
    rows = (Piece.objects.values("section__juan__edition_id", "layer", "commentator")
            .annotate(n=Count("id")).order_by("section__juan__edition_id", "layer", "commentator"))
    layers: dict[int, list] = {}
    for row in rows:
        layers.setdefault(row["section__juan__edition_id"], []).append((row["layer"], row["commentator"], row["n"]))
    print("edition\tmain text (dynasty)\tunnamed notes (dynasty)\tlayers: layer commentator pieces → dynasty")
    for pk, f in sorted(table.items(), key=lambda item: item[1].slug):
        if prefixes and not any(f.slug.startswith(p) for p in prefixes):
            continue
        notes = [f"{layer} {who or '—'} {n} → {'/'.join(dynasties_of(f, layer, who)) or '未詳'}"
                 for layer, who, n in layers.get(pk, []) if layer not in MAIN_LAYERS or who]
        print(f"{f.slug} {f.name}\t{'、'.join(f.authors) or '未詳'} ({'/'.join(f.main_dynasties) or '未詳'})\t"
              f"{'、'.join(f.notes_by) or '—'} ({'/'.join(f.notes_dynasties) or '—'})\t{'; '.join(notes)}")


if __name__ == "__main__":
    main(sys.argv[1:])
