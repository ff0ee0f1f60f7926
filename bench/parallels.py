"""Parallel passages at the size of the library (a step of ``bench/run.py``): the time of
``collation.parallels.find_parallels`` for sections of about 300 characters of main text and
for 20-character spans, on the library of the environment (``DATABASE_URL``,
``SEARCH_INDEX_DIR``).

    .venv/bin/python bench/parallels.py [--sections 20] [--length 300]

The sections are taken across the whole library: every section at a fixed stride over the ids
(``--probe`` of them) is read, and the first ``--sections`` whose main text is within 10 % of
``--length`` characters are timed, each excluded from its own results as the reading page does;
the spans are the first 20 characters of the same sections. One call first, untimed (the index
and the folding tables loaded). Prints JSON: ``{"sections": {"n", "length_min", "length_max",
"p50_ms", "p95_ms", "max_ms"}, "spans": {…}, "library_sections"}``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.engines import percentile  # noqa: E402
from collation.parallels import find_parallels, section_main_text  # noqa: E402
from reader.models import Section  # noqa: E402




def figures(ms: list[float]) -> dict:
    """``{"n", "p50_ms", "p95_ms", "max_ms"}`` of the times ``ms``."""
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 1), "p95_ms": round(percentile(ms, 95), 1),
            "max_ms": round(max(ms), 1)}


def sample(count: int, length: int, probe: int) -> list[tuple[Section, str]]:
    """Up to ``count`` sections whose main text is within 10 % of ``length`` characters, with
    that text, taken at a stride over the section ids of the whole library."""
    ids = list(Section.objects.order_by("id").values_list("id", flat=True))
    stride = max(1, len(ids) // probe)
    chosen = []
    for section in Section.objects.filter(id__in=ids[::stride]).select_related("juan").order_by("id"):
        text = section_main_text(section)
        if abs(len(text) - length) <= length // 10:
            chosen.append((section, text))
        if len(chosen) >= count:
            break
    return chosen


def measure(count: int = 20, length: int = 300, probe: int = 4000) -> dict:
    """The figures of the module docstring."""
    chosen = sample(count, length, probe)
    if not chosen:
        raise SystemExit(f"no section of about {length} characters in the library")
    find_parallels(chosen[0][1])  # the index and the folding tables loaded, not counted
    sections, spans = [], []
    for section, text in chosen:
        exclude = (section.juan.edition_id, section.juan.number, section.position)
        start = time.perf_counter()
        find_parallels(text, exclude=exclude)
        sections.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        find_parallels(text[:20])
        spans.append((time.perf_counter() - start) * 1000)
    lengths = [len(text) for _, text in chosen]
    return {"sections": {**figures(sections), "length_min": min(lengths), "length_max": max(lengths)},
            "spans": figures(spans), "library_sections": Section.objects.count()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=20)
    parser.add_argument("--length", type=int, default=300)
    parser.add_argument("--probe", type=int, default=4000, help="sections read to find them")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.sections, args.length, args.probe)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
