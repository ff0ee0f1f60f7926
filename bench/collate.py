"""A benchmark (not a test) of collation and parallel passages on the shared corpus.

Prints, and with ``--write docs/performance.md`` puts into its own section of that file:

* the collation of the seed juan against KR1d0086-WYG juan 12, with the variants by class;
* parallel passages: time per seed section (45 sections) and per 20-character span, on the
  whole shared corpus (``kanripo`` + ``kanripo-jingbu``), and the seed juan's quotation map
  (``collation.quotations.juan_parallels``) against the sum of its per-section searches;
* recall on the labelled list: for each of the 45 seed sections, the sections of KR1d0026
  juan 7, KR1d0038 juan 7 and KR1d0085 that share 12 characters in a row of its main text
  (folded, punctuation removed; a plain scan, independent of the index).

It uses a database and index of its own (``--db``, ``--index``), imported on the first run
and reused by later runs (``--import-only`` imports and stops). Run it under the machine's
heavy-job lock::

    flock /work/heavy.lock nice -n 10 .venv/bin/python bench/collate.py --write docs/performance.md
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpus"
SECTION_MARK = "## Collation and parallel passages"


def setup(db: Path, index: Path) -> str:
    """Point Django at the benchmark's own database and index, and import the library once.

    A finished import leaves a marker file next to the database (``<db>.complete``, with the
    import's time and counts); a later run reuses that database and index as they are. A
    database without the marker (an import that was stopped) is removed with its index and
    imported again, so figures are never taken on part of the library."""
    import json
    import shutil

    marker = db.with_name(db.name + ".complete")
    if not marker.exists():
        for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            stale.unlink(missing_ok=True)
        shutil.rmtree(index, ignore_errors=True)
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["SEARCH_INDEX_DIR"] = str(index)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if marker.exists():
        facts = json.loads(marker.read_text(encoding="utf-8"))
        print(f"reusing {db} and {index} (imported: {facts})")
        return f"imported and indexed once, in {facts['seconds']} s ({facts['juans']} juans)"
    from reader.models import Juan, Section

    started = time.perf_counter()
    call_command("import_texts", str(ROOT / "corpus"), str(SHARED / "kanripo"), str(SHARED / "kanripo-jingbu"))
    took = time.perf_counter() - started
    print(f"imported in {took:.0f} s")
    marker.write_text(json.dumps({"seconds": round(took), "juans": Juan.objects.count(),
                                  "sections": Section.objects.count()}) + "\n", encoding="utf-8")
    return f"imported and indexed in {took:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="/tmp/bench_issue14.sqlite3")
    parser.add_argument("--index", default="/tmp/bench_issue14_index")
    parser.add_argument("--write", help="markdown file to put the figures into (its own section)")
    parser.add_argument("--import-only", action="store_true",
                        help="import the library (when not yet done) and stop")
    args = parser.parse_args()
    imported = setup(Path(args.db), Path(args.index))
    if args.import_only:
        return

    from collation.parallels import find_parallels, section_main_text
    from collation.quotations import juan_parallels
    from collation.service import collate_juan
    from reader.models import Edition, Juan, Section
    from characters.folding import fold

    lines = [SECTION_MARK, "",
             "`flock /work/heavy.lock nice -n 10 .venv/bin/python bench/collate.py --write "
             "docs/performance.md` (2 shared cores, other jobs running; SQLite, the positional index). "
             f"Library: the seed, `../shared/corpus/kanripo` and `../shared/corpus/kanripo-jingbu`"
             f"{'; ' + imported if imported else ''}.", ""]
    seed = Juan.objects.get(edition__slug="禮書綱目", number=10)
    wyg = Edition.objects.get(slug="KR1d0086-WYG")
    started = time.perf_counter()
    collation = collate_juan(seed, [wyg])
    took = time.perf_counter() - started
    counts = collation.counts()["KR1d0086-WYG"]
    lines += [f"- Collation of the seed juan against KR1d0086-WYG juan 12: {len(collation.sections)} sections "
              f"paired, {took:.2f} s; readings by class: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".",
              f"  With glyph variants hidden: {sum(v for k, v in counts.items() if k != 'glyph')} readings."]

    sections = list(seed.sections.order_by("position"))
    find_parallels(section_main_text(sections[0]))  # index and folding loaded
    times, lengths, spans = [], [], []
    results = {}
    for s in sections:
        text = section_main_text(s)
        t0 = time.perf_counter()
        results[s.position] = find_parallels(text, exclude=(seed.edition_id, seed.number, s.position))
        times.append(time.perf_counter() - t0)
        lengths.append(len(text))
        span = text[:20]
        t0 = time.perf_counter()
        find_parallels(span)
        spans.append(time.perf_counter() - t0)
    long = [t for t, n in zip(times, lengths) if n >= 250]

    def figures(values):
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return (f"median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                f"max {ordered[-1] * 1000:.0f} ms")

    lines += [f"- Parallel passages on the whole library ({Juan.objects.count()} juans, "
              f"{Section.objects.count()} sections), times per call of `find_parallels` (candidates from the "
              f"index, database reads, alignment):",
              f"  - per seed section ({len(times)}; main text {min(lengths)}–{max(lengths)} characters, median "
              f"{statistics.median(lengths):.0f}): {figures(times)};",
              f"  - sections of 250 characters or more ({len(long)}): {figures(long) if long else 'none'};",
              f"  - a 20-character span (the first 20 characters of each seed section): {figures(spans)}."]

    # the quotation map of the seed juan: the work shared across its sections, the same rows
    map_times = []
    for _ in range(3):
        t0 = time.perf_counter()
        rows = juan_parallels(seed)
        map_times.append(time.perf_counter() - t0)
    same = all([p.section.pk for p in found] == [p.section.pk for p in results[s.position]][:50]
               and [p.shared for p in found] == [p.shared for p in results[s.position]][:50] for s, found in rows)
    lines += [f"- The seed juan's quotation map (`collation.quotations.juan_parallels`, {len(rows)} sections, "
              f"{sum(len(f) for _, f in rows)} places; rows {'equal to' if same else 'DIFFERENT FROM'} the "
              f"per-section search above): median of 3 runs {statistics.median(map_times):.2f} s, best "
              f"{min(map_times):.2f} s; a `find_parallels` per section, as the map ran before, "
              f"{sum(times):.2f} s."]

    def clean(text):
        return re.sub(r"&KR\d+;|\W", "", fold(text))

    from django.db.models import Q

    books = Section.objects.filter(Q(juan__edition__slug="KR1d0026", juan__number=7)
                                   | Q(juan__edition__slug="KR1d0038", juan__number=7)
                                   | Q(juan__edition__slug="KR1d0085", juan__number=20))
    texts = {b.pk: clean(section_main_text(b)) for b in books}
    from reader.models import Piece

    def carried(section_ids, windows):
        """The sections (of ``section_ids``) whose folded main text or one of whose notes or
        records holds one of ``windows`` (the test's "related": tests/test_parallels.py)."""
        joined: dict[int, list] = {}
        for section_id, text in Piece.objects.filter(section_id__in=section_ids).values_list("section_id", "text"):
            joined.setdefault(section_id, []).append(clean(text))
        main = {pk: clean(section_main_text(sec)) for pk, sec in Section.objects.in_bulk(section_ids).items()}
        return {pk for pk in section_ids
                if any(w in main.get(pk, "") or any(w in t for t in joined.get(pk, [])) for w in windows)}

    pairs = found = ranked = 0
    for s in sections:
        t = clean(section_main_text(s))
        windows = {t[i:i + 12] for i in range(len(t) - 11)}
        labels = {pk for pk, c in texts.items() if any(w in c for w in windows)}
        ids = [p.section.pk for p in results[s.position]]
        pairs += len(labels)
        found += len(labels & set(ids))
        related = carried(ids, windows)
        ranks = [i for i, pk in enumerate(ids) if pk in labels]
        unrelated = [i for i, pk in enumerate(ids) if pk not in related]
        ranked += all(r < u for r in ranks for u in unrelated)
    lines += [f"- Recall on the labelled list (KR1d0026 juan 7, KR1d0038 juan 7, KR1d0085 juan 20; a section is "
              f"labelled when its folded main text shares 12 characters in a row with the seed section's): "
              f"{found} of {pairs} labelled sections found; in {ranked} of {len(sections)} seed sections every "
              f"labelled one ranks above every unrelated result (one that shares no 12 characters in a row with "
              f"the seed section in its main text, notes or records: the recall test's rule).", ""]
    report = "\n".join(lines)
    print(report)
    if args.write:
        path = Path(args.write)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if SECTION_MARK in old:
            head, _, rest = old.partition(SECTION_MARK)
            nxt = rest.find("\n## ")
            old = head + (rest[nxt + 1:] if nxt >= 0 else "")
        path.write_text(old.rstrip("\n") + "\n\n" + report, encoding="utf-8")


if __name__ == "__main__":
    main()
