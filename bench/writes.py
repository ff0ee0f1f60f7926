"""Index writes on a large library: the whole import from empty, then one-juan imports into it.

    flock /work/heavy.lock nice -n 10 .venv/bin/python bench/writes.py \\
        ../shared/corpus/kanripo ../shared/corpus/kanripo-jingbu

Prints one JSON object:

* ``import``: ``import_texts`` of every PATH into an empty SQLite database and index: wall
  seconds, peak RSS of the process (MB), files imported and rejected (as it reports them);
* ``rest_mb``: peak RSS of a process that opened Django and the index and ran one search;
* ``one_juan``: for the seed juan (a new work) and ``--juan`` (a replacement, default
  KR1d0086_012 of the first PATH that has it): seconds to parse and store, seconds of index
  work (``search.indexing.reindex_juans``: one write), peak RSS and its excess over rest;
  the index's segments after the write (``[name, unit positions, juans deleted from it]``).

Each step runs in its own process (``ru_maxrss`` is per process). Nothing is timed twice:
a figure is one run on a shared machine; run it again to see the spread.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PEAK = ("import atexit, resource, runpy, sys; "
        "atexit.register(lambda: sys.stderr.write('PEAK_RSS_KB=%d\\n' % "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)); "
        "sys.argv = ['manage.py'] + sys.argv[1:]; runpy.run_path('manage.py', run_name='__main__')")

ONE_JUAN = """
import json, time
from reader.importers.files import read_document
from reader.importers.loader import load_document
from search.backends import get_search_backend
from search.indexing import reindex_juans
backend = get_search_backend()
backend.search(__import__("search.backends", fromlist=["SearchQuery"]).SearchQuery("之")).count
started = time.perf_counter()
doc = read_document(PATH)
result = load_document(doc, sha256=doc.sha256, index=False)
stored = time.perf_counter()
reindex_juans(backend, [(result.juan.pk, result.old_juan_id)])
done = time.perf_counter()
corpus = backend._corpus()
print(json.dumps({"store_s": round(stored - started, 3), "index_s": round(done - stored, 3),
                  "segments": [[name or "base", segment.size, len(deleted)] for name, segment, deleted
                               in zip(corpus.names, corpus.segments, corpus.deleted)],
                  "passages": len(corpus)}))
"""
REST = """
from search.backends import SearchQuery, get_search_backend
print(get_search_backend().search(SearchQuery("之")).count)
"""


def run(env: dict, *args: str) -> tuple[str, float, int]:
    """``manage.py args`` in a new process: (stdout, wall seconds, peak RSS in MB)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"manage.py {' '.join(args[:2])} failed:\n{done.stderr[-3000:]}")
    peak = next(int(line.split("=")[1]) // 1024 for line in reversed(done.stderr.splitlines())
                if line.startswith("PEAK_RSS_KB="))
    return done.stdout, seconds, peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--juan", default="KR1d0086_012.txt", help="file name of the juan to re-import")
    parser.add_argument("--engine", default="positional", choices=["positional", "whoosh"])
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="measure-writes-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "SEARCH_"))}
    # DEBUG off, as in production: with DEBUG on, Django keeps the SQL of the last 9,000
    # queries (every piece's text) in memory and times each one.
    env.update(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="measure-writes", DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
               SEARCH_INDEX_DIR=str(tmp / "index"), SEARCH_BACKEND=args.engine)
    run(env, "migrate", "--noinput")
    out, seconds, peak = run(env, "import_texts", *args.paths)
    report = {"engine": args.engine, "import": {"s": round(seconds, 1), "peak_mb": peak,
                                                "summary": [line for line in out.splitlines() if "imported" in line
                                                            or "indexed" in line][-2:]}}
    _, _, rest = run(env, "shell", "--no-imports", "-v", "0", "-c", REST)
    report["rest_mb"] = rest
    replacement = next((p for root in args.paths for p in Path(root).rglob(args.juan)), None)
    report["one_juan"] = {}
    for name, path in (("seed (new work)", BASE_DIR / "corpus" / "lishu_gangmu_juan10.txt"),
                       (f"{args.juan} (replacement)", replacement)):
        if path is None:
            continue
        out, seconds, peak = run(env, "shell", "--no-imports", "-v", "0", "-c", f"PATH = {str(path)!r}\n{ONE_JUAN}")
        figures = json.loads(out.strip().splitlines()[-1])
        report["one_juan"][name] = {**figures, "process_s": round(seconds, 2), "peak_mb": peak,
                                    "above_rest_mb": peak - rest}
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
