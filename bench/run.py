"""The benchmark, on a database and indexes of its own in a temporary folder,
for each corpus given (``--corpus LABEL=PATH[,PATH…]``, repeated):

* import and index from empty: wall time and peak memory of the import process;
* one juan into the full library: the seed juan (a new work) and a re-import of
  KR1d0086_012 (a replacement), wall time and peak memory against a process at rest;
* search at the service level, 32 queries, hit counts compared: the positional index (the
  default engine), tantivy, SQLite FTS5 (trigram) and a plain scan; then the Whoosh engine
  (``SEARCH_BACKEND=whoosh``) on the same database, with its indexing time, and the queries
  beyond the mix it answered slowly, against the positional engine (``bench/whoosh_hard.py``);
* HTTP under gunicorn (2 workers, 20 concurrent clients): requests per second, p50, p95 and
  errors, with the server's own time from the ``Server-Timing`` header, page cache on and off;
  the 32 queries through the search API, page cache off, server time per query (before the
  load phase of that server, after one pass not counted);
* light requests while ``--heavy-clients`` clients loop on heavy ones for ``--heavy-seconds``
  (``bench/heavy.py``: the cap of config/capacity.py, page cache off): the light requests'
  p50, p95 and errors, the heavy ones' answers by status, each worker's peak memory;
* last, ``bench/two_servers.py``: two gunicorn servers sharing one PostgreSQL database
  (``--two-servers-db``), an index published by one and pulled by the other while 20 clients
  read both (``--no-two-servers`` leaves it out).

    .venv/bin/python bench/run.py [--corpus LABEL=PATH[,PATH…]]… [--http-seconds 30] [--clients 20]
                                     [--whoosh] [--write docs/performance.md]

Without ``--corpus`` it runs ../shared/corpus/kanripo and kanripo + kanripo-jingbu (about
30 million characters). ``make bench`` runs it with ``--whoosh``. Not part of the test run;
``tests/test_bench.py`` runs a small smoke version.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
from bench.corpora import resolve  # noqa: E402
from bench.mix import QUERY_MIX  # noqa: E402
from bench import heavy as heavy_load, whoosh_hard  # noqa: E402
from bench.serving import CLIENT_LIMITS_LIFTED, start_gunicorn, worker_rss  # noqa: E402
from bench.writes import ONE_JUAN, REST as REST_CODE  # noqa: E402
PY = sys.executable


def du(path: Path) -> int:
    """Bytes of the files under ``path``, a file linked from several places counted once (an
    index's generations share their unchanged segments by hard links)."""
    seen = {(st.st_dev, st.st_ino): st.st_size for f in path.rglob("*") if f.is_file() for st in [f.stat()]}
    return sum(seen.values())


def whoosh_counts_agree(queries: list[dict], whoosh: list[dict]) -> bool:
    """Whether the Whoosh engine's count of each query (``whoosh``: rows of bench/engines.py,
    its count under ``index``) equals the reference count of the same run's ``queries``: the
    plain scan's where the peers ran, else tantivy's (a corpus above ``--peers-max-mb`` has no
    scan; its positional counts are compared with tantivy's already)."""
    reference = {q["query"]: q.get("scan", q.get("tantivy")) for q in queries}
    return all(q["index"] == reference[q["query"]] for q in whoosh)


def settle() -> None:
    """Write out what the steps before wrote (an index of hundreds of MB) before a timed
    step: the kernel's writeback of it otherwise runs during the timing (measured with
    ``bench/api_time.py --http``: the search API's p50 on the 6 M library was 3.4 ms right
    after a ``rebuild_index`` and 2.35 ms a minute later; 30 M: 4.6 and 4.0 ms)."""
    os.sync()
    time.sleep(1)


#: What an answer of the request budget says it ran out in (config.budget.budget_response:
#: "… the time budget of 20 s (while waiting for a worker)."), in JSON or in the HTML page.
BUDGET_STEP = re.compile(rb"time budget of [^(<]*\(while ([^)<]*)\)")


def budget_step(body: bytes) -> str:
    """The step a 503 of the request budget names in ``body`` (``waiting for a worker``,
    ``rendering search hits``…), '' for any other answer."""
    found = BUDGET_STEP.search(body)
    return html.unescape(found[1].decode("utf-8", "replace")) if found else ""


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))] if ordered else 0.0


def http_load(base: str, urls: list[str], clients: int, seconds: float, log: list | None = None,
              until: threading.Event | None = None) -> dict:
    """``clients`` concurrent clients (asyncio tasks: a client costs little CPU, which the
    server shares on this machine) request ``urls`` in turn for ``seconds``, a new
    connection per request as gunicorn's sync workers close each one. Per URL: requests,
    requests per second, p50 and p95 in ms, errors (anything but a whole 200) and what they were
    (``failed``: the status, ``short`` for a body cut before its Content-Length, ``timeout`` past
    30 s, or the exception's name, with counts). ``log``, when given, receives one
    ``(started, ended, url, fault, while)`` per request: ``time.perf_counter()`` readings,
    the fault as in ``failed`` (None for a whole 200) and, for an answer of the request
    budget (config/budget.py), the step its body names (``while …``), else ''. ``until``, when
    given, keeps the clients going past ``seconds`` until it is set (the rates are still per
    ``seconds``: pass the time it ran to compare them)."""
    host, port = base.removeprefix("http://").split(":")
    results: dict[str, list] = {u: [] for u in urls}
    server: dict[str, list] = {u: [] for u in urls}
    errors: dict[str, int] = {u: 0 for u in urls}
    failed: dict[str, collections.Counter] = {u: collections.Counter() for u in urls}

    async def fetch(url: str) -> tuple[str | None, str]:
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(f"GET {url} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: */*\r\n"
                         "Connection: close\r\n\r\n".encode("ascii"))
            await writer.drain()
            data = await reader.read()
        finally:
            writer.close()
        head, _, body = data.partition(b"\r\n\r\n")
        status = head.split(b" ", 2)[1] if head else b""
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        timing = server_total_ms(head)
        if timing is not None:
            server[url].append(timing)
        if status != b"200":
            return status.decode("ascii", "replace") or "empty", budget_step(body)
        return (None if length is None or length == len(body) else "short"), ""

    async def client(n: int, deadline: float):
        i = n
        while time.perf_counter() < deadline or (until is not None and not until.is_set()):
            url = urls[i % len(urls)]
            i += 1
            start, step = time.perf_counter(), ""
            try:
                fault, step = await asyncio.wait_for(fetch(url), 30)
            except asyncio.TimeoutError:
                fault = "timeout"
            except (OSError, ValueError, IndexError) as exc:
                fault = type(exc).__name__
            ended = time.perf_counter()
            ms = (ended - start) * 1000
            if log is not None:
                log.append((start, ended, url, fault, step))
            if fault is None:
                results[url].append(ms)
            else:
                errors[url] += 1
                failed[url][fault] += 1

    async def run():
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(client(n, deadline) for n in range(clients)))

    asyncio.run(run())
    return {u: {"requests": len(v), "rps": round(len(v) / seconds, 1), "p50_ms": round(statistics.median(v), 1) if v else None,
                "p95_ms": round(percentile(v, 95), 1), "errors": errors[u], "failed": dict(failed[u]),
                "server_p50_ms": round(statistics.median(server[u]), 2) if server[u] else None,
                "server_p95_ms": round(percentile(server[u], 95), 2)} for u, v in results.items()}


def server_total_ms(head: bytes) -> float | None:
    """``total`` from a response head's ``Server-Timing`` header (ms), or None."""
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"server-timing:"):
            for part in line.split(b":", 1)[1].split(b","):
                name, _, value = part.strip().partition(b";dur=")
                if name == b"total":
                    return float(value)
    return None


#: A process at rest: Django loaded, the index opened and one search answered (what a worker
#: holds before work; bench/writes.py measures the same way).
REST = ("shell", "--no-imports", "-v", "0", "-c", REST_CODE)
PEAK = ("import atexit, resource, runpy, sys; "
        "atexit.register(lambda: sys.stderr.write('PEAK_RSS_KB=%d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)); "
        "sys.argv = ['manage.py'] + sys.argv[1:]; runpy.run_path('manage.py', run_name='__main__')")


def run_manage(env: dict, *args: str) -> tuple[str, float, int]:
    """Run ``manage.py args`` with ``env``; returns its output, wall seconds and peak RSS (MB)."""
    start = time.perf_counter()
    done = subprocess.run([PY, "-c", PEAK, *args], cwd=BASE, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    peak = next((int(line.split("=")[1]) // 1024 for line in reversed(done.stderr.splitlines())
                 if line.startswith("PEAK_RSS_KB=")), 0)
    return done.stdout, seconds, peak


def run_engines(env: dict, *args: str) -> str:
    """Run ``bench/engines.py args`` (the engines compared on the mix) with ``env``; returns its
    JSON output."""
    done = subprocess.run([PY, "bench/engines.py", *args], cwd=BASE, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench/engines.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def api_queries(base: str, queries: list[str], repeat: int, extra: dict | None = None) -> dict:
    """Each query of the mix through the search API ``repeat`` times, one at a time, with the
    parameters ``extra`` added (a list value: the parameter repeated): the server's own time
    per request (``Server-Timing`` total, ms)."""
    times, errors = [], 0
    for q in queries:
        for _ in range(repeat):
            url = base + "/api/search/?" + urllib.parse.urlencode({"q": q, "exact": "on", **(extra or {})}, doseq=True)
            try:
                with urllib.request.urlopen(url) as response:
                    response.read()
                    head = f"Server-Timing: {response.headers['Server-Timing']}".encode()
                    times.append(server_total_ms(head))
            except OSError as exc:
                errors += 1
                print(f"   {url}: {exc}", file=sys.stderr)
    return {"requests": len(times), "errors": errors, "server_p50_ms": round(statistics.median(times), 2),
            "server_p95_ms": round(percentile(times, 95), 2), "server_max_ms": round(max(times), 2)}


#: The facet filters of the search API's "with facets" figure: two classes (類), so that the
#: answer counts the facets on a second run without the filters (api/catalogue.py).
FACET_FILTERS = {"class": ["KR1d", "KR2a"]}


def source_mb(paths: list[str]) -> float:
    """The size of the texts under ``paths`` (MB of files), before anything is imported."""
    return sum(du(Path(p)) if Path(p).is_dir() else Path(p).stat().st_size for p in paths) / 2**20


def load_average() -> float:
    """The machine's load average over the last minute (other jobs share its cores)."""
    return round(os.getloadavg()[0], 2)


def bench_corpus(label: str, paths: list[str], args) -> dict:
    """Every measurement of the module docstring for one corpus; returns the figures."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    loads = {}

    def step(name: str) -> None:
        loads[name] = load_average()
        print(f"   {name} (load {loads[name]}, {time.strftime('%H:%M:%S')})", file=sys.stderr)

    size_mb = source_mb(paths)
    peers = size_mb <= args.peers_max_mb
    with_whoosh = args.whoosh and size_mb <= args.whoosh_max_mb
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-only-" + "k" * 40,
           "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
           "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
           "SEARCH_INDEX_DIR": str(tmp / "index"), "SEARCH_BACKEND": "positional",
           **CLIENT_LIMITS_LIFTED, "SEARCH_MAX_WORK": "0", "PAGE_CACHE_DIR": str(tmp / "cache"),
           **heavy_load.LIFTED}
    print(f"== {label}: {', '.join(paths)} ({size_mb:.0f} MB)", file=sys.stderr)
    step("import")
    run_manage(env, "migrate")
    out, import_s, import_peak = run_manage(env, "import_texts", *paths)
    summary = next((line for line in reversed(out.strip().splitlines()) if " imported" in line), out[-200:])
    index_bytes = du(tmp / "index")
    _, _, rest_peak = run_manage(env, *REST)
    one = {}
    seed = BASE / "corpus" / "lishu_gangmu_juan10.txt"
    kanripo_12 = next((Path(p) / "KR1d0086" / "KR1d0086_012.txt" for p in paths
                       if (Path(p) / "KR1d0086" / "KR1d0086_012.txt").exists()), None)
    for name, path in (("seed juan (new work)", seed), ("KR1d0086_012 (replaced)", kanripo_12)):
        if path is not None:  # parse and store, then one index write (bench/writes.py)
            out, seconds, peak = run_manage(env, "shell", "--no-imports", "-v", "0", "-c",
                                            f"PATH = {str(path)!r}\n{ONE_JUAN}")
            figures = json.loads(out.strip().splitlines()[-1])
            one[name] = {"s": round(seconds, 2), "store_s": figures["store_s"], "index_s": figures["index_s"],
                         "peak_mb": peak, "above_rest_mb": peak - rest_peak}
    step("queries")
    settle()
    queries = json.loads(run_engines(env, "--repeat", str(args.repeat),
                                     *([] if peers else ["--engines", "index,tantivy"])))
    step("parallels")
    settle()
    parallels = json.loads(subprocess.run([PY, "bench/parallels.py"], cwd=BASE, env=env, capture_output=True,
                                          text=True, check=True).stdout)
    whoosh = None
    if with_whoosh:
        step("whoosh")
        wenv = {**env, "SEARCH_BACKEND": "whoosh", "SEARCH_INDEX_DIR": str(tmp / "whoosh")}
        _, whoosh_index_s, whoosh_peak = run_manage(wenv, "rebuild_index")
        settle()
        whoosh = json.loads(run_engines(wenv, "--repeat", str(args.repeat), "--engines", "index"))
        whoosh.update(index_s=round(whoosh_index_s, 1), index_peak_mb=whoosh_peak, index_mb=round(du(tmp / "whoosh") / 2**20, 1))
        whoosh["counts_agree"] = whoosh_counts_agree(queries["queries"], whoosh["queries"])
        settle()
        whoosh["hard"] = whoosh_hard.measure(wenv, env, args.repeat)
    singles = [q for q in queries["queries"] if len(q["query"]) == 1]
    frequent = max(singles, key=lambda q: q["index"])["query"]
    http, rss, api, api_facets, sort_after = {}, [], None, None, None
    for cache, extra in (("on", {}), ("off", {"PAGE_CACHE_SECONDS": "0"})):
        step(f"http, page cache {cache}")
        settle()
        server, base = start_gunicorn({**env, **extra}, args.port)
        try:
            first = json.loads(urllib.request.urlopen(base + "/api/works/").read())["results"][0]
            detail = json.loads(urllib.request.urlopen(first["url"]).read())
            reading = detail["juans"][len(detail["juans"]) // 2]["reading_url"].replace(base, "")
            if cache == "off":
                # Before the load phase: its thousands of requests would sit in the rate-limit
                # entry of this one client for a minute (the benchmark lifts the limits, so the
                # sliding window keeps them all; a real limit keeps a few hundred), and every
                # request of this phase would read and write them. One pass first, not counted,
                # so that both workers have opened the index.
                api_queries(base, QUERY_MIX, 1)
                api = api_queries(base, QUERY_MIX, args.repeat)
                api_queries(base, QUERY_MIX, 1, FACET_FILTERS)
                api_facets = api_queries(base, QUERY_MIX, args.repeat, FACET_FILTERS)
                # The concordance sort (sort=after) of the mix's most frequent character, one at
                # a time: the first request fills the sort's per-process tables, not counted.
                api_queries(base, [frequent], 1, {"sort": "after"})
                sort_after = {"query": frequent, **api_queries(base, [frequent], args.repeat, {"sort": "after"})}
                loads["api (end)"] = load_average()
            http[cache] = http_load(base, ["/api/search/?q=%E5%B0%84", reading], args.clients, args.http_seconds)
            rss += worker_rss(server)
        finally:
            server.terminate()
            server.wait()
    heavy = None
    if args.heavy_seconds > 0:
        step("heavy requests and light ones")
        settle()
        try:
            heavy = heavy_load.measure(env, args.port, args.heavy_seconds, args.heavy_clients)
        except OSError as exc:  # the figures of the other steps are kept
            print(f"   the heavy step failed: {exc}", file=sys.stderr)
    loads["end"] = load_average()
    if args.keep:
        kept = Path(args.keep) / "".join(c if c.isalnum() else "-" for c in label)
        shutil.rmtree(kept, ignore_errors=True)
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(tmp), kept)
        print(f"   library kept in {kept}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"label": label, "heavy": heavy, "paths": [os.path.relpath(p, BASE) for p in paths], "resolved": paths, "import_summary": summary,
            "import_and_index_s": round(import_s, 1), "import_peak_mb": import_peak, "rest_peak_mb": rest_peak,
            "index_mb": round(index_bytes / 2**20, 1), "one_juan": one, **queries, "whoosh": whoosh,
            "http": http, "api_queries": api, "api_facets": api_facets, "facet_filters": FACET_FILTERS,
            "sort_after": sort_after, "parallels": parallels, "loads": loads, "source_mb": round(size_mb),
            "peers": peers, "whoosh_left_out": args.whoosh and not with_whoosh, "worker_peak_rss_mb": rss,
            "clients": args.clients, "http_seconds": args.http_seconds}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", metavar="LABEL=PATH[,PATH…]",
                        help="a corpus to measure (repeatable); default: the 6 M corpus and the whole library of about 107 M")
    parser.add_argument("--http-seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--whoosh", action="store_true", help="also measure the Whoosh engine")
    parser.add_argument("--heavy-seconds", type=float, default=120,
                        help="light requests while clients loop on heavy ones (bench/heavy.py); 0 leaves it out")
    parser.add_argument("--heavy-clients", type=int, default=20)
    parser.add_argument("--write", help="write the figures as Markdown to this file")
    parser.add_argument("--two-servers-db", default="postgres://classics:classics@127.0.0.1:5432/classics",
                        help="the PostgreSQL server for the two-server check (scripts/start_postgres.sh)")
    parser.add_argument("--no-two-servers", action="store_true", help="leave out the two-server check")
    parser.add_argument("--peers-max-mb", type=float, default=120,
                        help="FTS5 and the plain scan only on corpora of at most this many MB of source files "
                             "(the scan takes 10-20 s a query at 30 M characters); tantivy always")
    parser.add_argument("--whoosh-max-mb", type=float, default=2000,
                        help="the Whoosh engine only on corpora of at most this many MB of source files "
                             "(default: every corpus of the run, 107 M included, as issue 30's table asks; "
                             "its index takes 26-29 s per million characters to build)")
    parser.add_argument("--keep", help="move each corpus's library (database, index) into this folder, not delete it")
    args = parser.parse_args(argv)
    shared = BASE.parent / "shared" / "corpus"
    corpora = args.corpus or DEFAULT_CORPORA
    reports, command = [], " ".join(["bench/run.py", *(argv if argv is not None else sys.argv[1:])])
    started = load_average()
    for spec in corpora:
        label, _, paths = spec.partition("=")
        resolved = [str(resolve(p, shared)) for p in paths.split(",")]
        reports.append(bench_corpus(label, resolved, args))
        reports[-1]["paths"] = [os.path.relpath(r, BASE) if Path(r).parent == shared else p  # an archive by its name
                                for p, r in zip(paths.split(","), resolved)]
        if args.write:  # what is measured so far, should a later step fail
            write(Path(args.write), reports, command, None, [r["label"] for r in reports])
    two = None
    if not args.no_two_servers:
        big = max(reports, key=lambda r: r["characters"])
        print(f"== two app servers ({big['label']}, load {load_average()})", file=sys.stderr)
        done = subprocess.run([PY, "bench/two_servers.py", "--clients", str(args.clients), "--seconds", "20",
                               "--port", str(args.port + 10), "--library", ",".join(big["resolved"])],
                              cwd=BASE, capture_output=True, text=True,
                              env={**os.environ, "DATABASE_URL": args.two_servers_db})
        two = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {"failed": done.stderr[-2000:]}
        two["label"] = big["label"]
    for r in reports:
        r["loads"]["run"] = (started, load_average())
    rows = targets(reports, two)
    print(json.dumps({"corpora": reports, "two_servers": two, "targets": rows}, ensure_ascii=False, indent=1))
    for what, target, measured, met in rows:
        print(f"{'—' if met is None else ('met ' if met else 'MISS')}  {what}: {measured} (target {target})",
              file=sys.stderr)
    if args.write:
        write(Path(args.write), reports, command, two, [r["label"] for r in reports])
    agree = all(r["counts_agree"] and (r["whoosh"] is None or r["whoosh"]["counts_agree"]) for r in reports)
    two_ok = two is None or (two.get("identical_counts") is True and not any(two.get("errors", {"x": 1}).values()))
    return 0 if agree and two_ok else 1


#: The corpora of a run without ``--corpus``: 6 M characters and the whole library of about 107 M
#: (the 史部 archive unpacked into a cache folder by bench/corpora.py).
DEFAULT_CORPORA = ["6 M=kanripo", "107 M=kanripo,kanripo-jingbu,kanripo-commentary,kanripo-scale.tar.xz"]
#: How the sections this benchmark writes begin (beside one per corpus, ``## <label> corpus: `…```).
OWN_SECTIONS = ("Targets", "Two app servers during an index swap")


def write(path: Path, reports: list[dict], command: str, two: dict | None, labels: list[str]) -> None:
    """Write the figures into ``path``, keeping its other sections (``other_sections``)."""
    kept = other_sections(path.read_text(encoding="utf-8"), labels) if path.exists() else ""
    path.write_text(markdown(reports, command, two) + kept, encoding="utf-8")


def other_sections(text: str, labels: list[str] = ()) -> str:
    """The sections of an existing performance.md to keep when this benchmark rewrites the file:
    those other scripts write (bench/collate.py's ``## Collation and parallel passages``) and
    those of corpora this run did not measure (``labels`` are the ones it did), which name
    the run they come from; not the targets, the two-server check, nor a corpus measured again."""
    parts = [p for p in ("\n" + text).split("\n## ")[1:] if not p.startswith(OWN_SECTIONS)
             and not any(p.startswith(f"{label} corpus: ") for label in labels)]
    return "".join("\n## " + p.rstrip("\n") + "\n" for p in parts)


def targets(reports: list[dict], two: dict | None) -> list[tuple[str, str, str, bool | None]]:
    """The benchmark's targets (issue 30's table) against this run: ``(what, target, measured,
    met)`` rows. The library-size targets are read on the largest corpus of the run, the Whoosh
    p95 on the smallest; ``met`` is None where the run has no figure (a corpus or check left out)."""
    if not reports:
        return []
    big = max(reports, key=lambda r: r["characters"])
    small = min(reports, key=lambda r: r["characters"])
    rows = [(f"import and index the whole {big['label']} from empty", "≤ 360 s; peak ≤ 1.5 GB",
             f"{big['import_and_index_s']} s; {big['import_peak_mb']} MB",
             big["import_and_index_s"] <= 360 and big["import_peak_mb"] <= 1536)]
    for name, o in big["one_juan"].items():
        rows.append((f"one juan into the {big['label']} library: {name}", "≤ 1 s of index work; ≤ 300 MB above rest",
                     f"{o['index_s']} s index work ({o['store_s']} s to parse and store); {o['above_rest_mb']:+} MB",
                     o["index_s"] <= 1 and o["above_rest_mb"] <= 300))
    for r in ([big] if big is small else [big, small]):
        s = r["summary"]
        if "index" in s and "tantivy" in s:
            i, t = s["index"], s["tantivy"]
            rows.append((f"positional engine, service level, the mix ({r['label']})",
                         "p50 ≤ tantivy's; p95 ≤ 10 ms; max ≤ 50 ms",
                         f"p50 {i['p50']} (tantivy {t['p50']}), p95 {i['p95']}, max {i['max']} ms",
                         i["p50"] <= t["p50"] and i["p95"] <= 10 and i["max"] <= 50))
    for r in reports:
        a, f = r["api_queries"], r["api_facets"]
        rows.append((f"search API, page cache off, server time ({r['label']})", "p50 ≤ 5, p95 ≤ 20 ms",
                     f"p50 {a['server_p50_ms']}, p95 {a['server_p95_ms']} ms",
                     a["server_p50_ms"] <= 5 and a["server_p95_ms"] <= 20))
        rows.append((f"search API with facet filters ({r['label']})", "p95 ≤ 30 ms",
                     f"p50 {f['server_p50_ms']}, p95 {f['server_p95_ms']} ms", f["server_p95_ms"] <= 30))
    o = big["sort_after"]
    rows.append((f"concordance sort (sort=after) of {o['query']}, the most frequent character ({big['label']})",
                 "≤ 1 s", f"p50 {o['server_p50_ms']}, max {o['server_max_ms']} ms", o["server_max_ms"] <= 1000))
    p = big["parallels"]
    rows.append((f"parallel passages of a section of {p['sections']['length_min']}–{p['sections']['length_max']} "
                 f"characters / a 20-character span ({big['label']})", "p95 ≤ 1 s / ≤ 200 ms",
                 f"p95 {p['sections']['p95_ms']} / {p['spans']['p95_ms']} ms",
                 p["sections"]["p95_ms"] <= 1000 and p["spans"]["p95_ms"] <= 200))
    for r in reports:
        h = r.get("heavy")
        if h:
            rows.append((f"light requests while {h['heavy_clients']} clients loop on heavy ones for {h['seconds']:g} s "
                         f"({r['label']})", "light p95 ≤ 1 s, 0 errors, no worker over 1 GB",
                         f"light p50 {h['light']['p50_ms']}, p95 {h['light']['p95_ms']} ms, {h['light']['errors']} "
                         f"errors in {h['light']['requests']}; heavy {h['heavy']['status']}; workers "
                         f"{worker_memory(h)}", heavy_load.met(h)))
    if small["whoosh"]:
        w = small["whoosh"]["summary"]["index"]
        rows.append((f"Whoosh engine, p95 ({small['label']})", "≤ 100 ms", f"{w['p95']} ms", w["p95"] <= 100))
    if big is not small:
        w = big["whoosh"] and big["whoosh"]["summary"]["index"]
        rows.append((f"Whoosh engine, slowest query ({big['label']})", "≤ 2000 ms",
                     f"{w['max']} ms" if w else "left out of this run (see its section)", w and w["max"] <= 2000))
        hard = big["whoosh"] and big["whoosh"].get("hard")
        if hard:
            rows.append((f"Whoosh engine, slowest query beyond the mix, CPU ({big['label']})", "≤ 2000 ms",
                         f"{hard['max_cpu_ms']} ms (`{hard['slowest']}`); answers as the positional engine's: "
                         f"{hard['agree']}", hard["max_cpu_ms"] <= 2000 and hard["agree"]))
    if two is None or "failed" in two:
        rows.append(("two app servers during an index swap", "0 errors, identical counts",
                     "not run" if two is None else "the check failed", None if two is None else False))
    else:
        errors = sum(two["errors"].values())
        rows.append((f"two app servers during an index swap ({two.get('label', 'seed')}, {two['clients']} clients)",
                     "0 errors, identical counts",
                     f"{errors} errors in {sum(two['requests'].values())} requests; identical: {two['identical_counts']}",
                     errors == 0 and two["identical_counts"] is True))
    agree = all(r["counts_agree"] and (r["whoosh"] is None or r["whoosh"]["counts_agree"]) for r in reports)
    rows.append(("hit counts of every engine and peer", "agree on every query", str(agree), agree))
    return rows


def worker_memory(h: dict) -> str:
    """The workers' peak memory of a heavy-load run ``h`` (bench/heavy.py's figures) as the
    table and the text give it: their own memory, which the 1 GB target is read on, then the
    resident size, which also counts the pages of the memory-mapped index they read (shared
    page cache, ``bench.serving.MemoryWatch``). Runs without the own figure give resident only."""
    if "worker_peak_private_mb" not in h:
        return f"{h['worker_peak_rss_mb']} MB resident"
    return f"{h['worker_peak_private_mb']} MB own ({h['worker_peak_rss_mb']} MB resident, with the index's shared pages)"


def markdown(reports: list[dict], command: str, two: dict | None = None) -> str:
    """The figures of ``reports`` (and of the two-server check ``two``) as the Markdown of
    docs/performance.md."""
    run = reports[0]["loads"].get("run") if reports else None
    lines = ["# Performance", "", f"Produced by `.venv/bin/python {command}` on this 2-core machine, "
             "in one run. Every engine answers in exact-character mode so that the peers can be compared."
             + (f" The machine was shared with other jobs: load average {run[0]} when the run began, {run[1]} when "
                "it ended (each corpus's section gives it per step)." if run else ""), "",
             "## Targets", "", "| what | target | measured | met |", "| --- | --- | --- | --- |",
             *[f"| {what} | {target} | {measured} | {'—' if met is None else ('yes' if met else '**no**')} |"
               for what, target, measured, met in targets(reports, two)], ""]
    for r in reports:
        s, engines = r["summary"], r["engines"]
        lines += [
            f"## {r['label']} corpus: `{'` + `'.join(r['paths'])}`", "",
            f"- {r['import_summary']}; {r['passages']:,} passages, {r['characters']:,} characters.",
            f"- Import and index from empty: **{r['import_and_index_s']} s**, peak memory of the import process "
            f"**{r['import_peak_mb']} MB**; index on disk {r['index_mb']} MB. A process at rest (Django and the "
            f"index opened): {r['rest_peak_mb']} MB.",
            *[f"- One juan into the full library, {name}: **{o['index_s']} s** of index work (one write), "
              f"{o['store_s']} s to parse and store, {o['s']} s for the whole process (Django start included); "
              f"peak {o['peak_mb']} MB ({o['above_rest_mb']:+} MB against rest)." for name, o in r["one_juan"].items()],
            f"- Hit counts of every engine agree on every query: **{r['counts_agree']}**"
            + (f"; Whoosh: **{r['whoosh']['counts_agree']}**." if r["whoosh"] else "."),
            f"- Peers built in: {', '.join(f'{k} {v} s' for k, v in r['build_s'].items())}"
            + (f"; Whoosh index {r['whoosh']['index_s']} s ({r['whoosh']['index_mb']} MB, peak "
               f"{r['whoosh']['index_peak_mb']} MB)." if r["whoosh"] else "."),
            f"- Peak RSS of each gunicorn worker after its HTTP runs: {r['worker_peak_rss_mb']} MB.",
            f"- Load average of the machine (1 minute) as each step began: "
            + ", ".join(f"{k} {v}" for k, v in r["loads"].items() if k != "run") + ".",
            *([] if r["peers"] else [f"- {r['source_mb']} MB of source texts: FTS5 and the plain scan are left out at "
                                      "this size (the scan took 10-21 s a query at 30 M characters, FTS5 0.2-0.7 s); "
                                      "tantivy is the peer, the hit counts are compared with it."]),
            *([f"- The Whoosh engine is left out of this run at {r['source_mb']} MB of source texts (its index took "
               "590 s at 30 M characters); see its own section below."] if r.get("whoosh_left_out") else []), "",
            "| engine (service level, exact characters) | p50 ms | p95 ms | max ms |", "| --- | --- | --- | --- |",
            *[f"| {'positional index' if e == 'index' else e} | {s[e]['p50']} | {s[e]['p95']} | {s[e]['max']} |"
              for e in engines],
            *([f"| whoosh | {r['whoosh']['summary']['index']['p50']} | {r['whoosh']['summary']['index']['p95']} | "
               f"{r['whoosh']['summary']['index']['max']} |"] if r["whoosh"] else []), "",
            "| query | " + " | ".join(f"{e} hits" for e in engines) + (" | whoosh hits" if r["whoosh"] else "")
            + " | " + " | ".join(f"{e} ms" for e in engines) + (" | whoosh ms |" if r["whoosh"] else " |"),
            "| --- " * (2 * len(engines) + 1 + (2 if r["whoosh"] else 0)) + "|",
        ]
        whoosh_rows = {q["query"]: q for q in r["whoosh"]["queries"]} if r["whoosh"] else {}
        for q in r["queries"]:
            w = whoosh_rows.get(q["query"])
            lines.append(f"| `{q['query']}` | " + " | ".join(str(q[e]) for e in engines)
                         + (f" | {w['index']}" if w else "") + " | "
                         + " | ".join(str(q[f"{e}_ms"]) for e in engines) + (f" | {w['index_ms']} |" if w else " |"))
        if r["whoosh"] and r["whoosh"].get("hard"):
            lines += ["", *whoosh_hard.report(r["whoosh"]["hard"])]
        a = r["api_queries"]
        lines += [
            "", f"HTTP: gunicorn, 2 workers, {r['clients']} concurrent clients for {r['http_seconds']:g} s per phase, "
            "a new connection per request; server ms is the `Server-Timing` total.", "",
            "| URL | page cache | requests | req/s | p50 ms | p95 ms | server p50 ms | server p95 ms | errors |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            *[f"| `{u}` | {cache} | {h['requests']} | {h['rps']} | {h['p50_ms']} | {h['p95_ms']} | {h['server_p50_ms']} | "
              f"{h['server_p95_ms']} | {h['errors']} |" for cache, phase in r["http"].items() for u, h in phase.items()],
            "", f"Search API, page cache off, the 32 queries one at a time ({a['requests']} requests, {a['errors']} "
            f"errors): server time p50 **{a['server_p50_ms']} ms**, p95 **{a['server_p95_ms']} ms**, max "
            f"{a['server_max_ms']} ms.", "",
        ]
        f, o, p = r["api_facets"], r["sort_after"], r["parallels"]
        lines += [
            f"The same with the facet filters `{urllib.parse.urlencode(r['facet_filters'], doseq=True)}` (the facets "
            f"then counted on a second run without them): p50 **{f['server_p50_ms']} ms**, p95 "
            f"**{f['server_p95_ms']} ms**, max {f['server_max_ms']} ms. The concordance sort "
            f"`q={o['query']}&sort=after` (the mix's most frequent character), {o['requests']} requests one at a "
            f"time after one not counted: server time p50 **{o['server_p50_ms']} ms**, max **{o['server_max_ms']} ms**.",
            "", f"Parallel passages (`bench/parallels.py`, {p['library_sections']:,} sections in the library): "
            f"{p['sections']['n']} sections of {p['sections']['length_min']}–{p['sections']['length_max']} characters "
            f"of main text taken across the library, p50 **{p['sections']['p50_ms']} ms**, p95 "
            f"**{p['sections']['p95_ms']} ms**, max {p['sections']['max_ms']} ms; a 20-character span (the first 20 "
            f"of each), p50 **{p['spans']['p50_ms']} ms**, p95 **{p['spans']['p95_ms']} ms**, max "
            f"{p['spans']['max_ms']} ms.", ""]
        h = r.get("heavy")
        if h:
            lines += [
                f"Light requests while {h['heavy_clients']} clients loop on heavy ones for {h['seconds']:g} s "
                f"(`bench/heavy.py`; page cache off, heavy slots {h['slots']}; the heavy clients "
                f"{'wait' if h.get('heed_retry_after') else 'do not wait'} for `Retry-After`): light ({', '.join(f'`{u}`' for u in h['light_urls'])}) {h['light']['requests']} "
                f"requests, p50 **{h['light']['p50_ms']} ms**, p95 **{h['light']['p95_ms']} ms**, max "
                f"{h['light']['max_ms']} ms, {h['light']['errors']} errors; heavy "
                f"({', '.join(f'`{u}`' for u in h['heavy_urls'])}) answers by status {h['heavy']['status']}, the "
                f"answered ones p50 {h['heavy']['p50_ms']} ms; peak memory of the workers: "
                f"{worker_memory(h)}.", ""]
    if two is not None:
        lines += ["## Two app servers during an index swap (`bench/two_servers.py`)", ""]
        if "failed" in two:
            lines += ["The check failed:", "", "```", two["failed"], "```", ""]
        else:
            if two.get("library"):
                lines += [f"The library of the {two['label']} corpus: server a imported it into the database and "
                          f"indexed it in {two['import_s']} s; server b pulled the generation ({two['index_mb']} MB) "
                          f"in {two['first_pull_s']} s.", ""]
            lines += [f"One PostgreSQL database, two gunicorn servers with their own index folders, {two['clients']} "
                      f"clients reading both for {two['seconds']:g} s while server a imports, publishes and server b "
                      f"pulls: requests {two['requests']}, errors {two['errors']} (by status {two.get('error_statuses')}); "
                      f"after the swap both give identical "
                      f"counts on all {two['queries']} queries: **{two['identical_counts']}**.", ""]
            if two.get("timeline"):
                lines += [two_server_timeline(two["timeline"]), ""]
    return "\n".join(lines)


def two_server_timeline(timeline: dict) -> str:
    """bench/two_servers.py's ``timeline`` in words: when each step ran and each server swapped,
    in seconds from the start of the reading, and the requests that failed with the step a 503
    of the request budget names."""
    steps = "; ".join(f"{name} {a:g}-{b:g} s" for name, (a, b) in timeline["steps"].items())
    swaps = ", ".join(f"{name} at {t:g} s" for name, t in timeline["swapped"].items())
    failed = timeline["failed"]
    said = "; ".join(f"{f['server']} {f['sent']:g}-{f['answered']:g} s {f['status']} `{f['url']}`"
                     + (f" (while {f['while']})" if f["while"] else "") for f in failed[:20])
    return (f"Timeline, in seconds from the start of the reading (the clients read until {timeline['reading'][1]:g} s, "
            f"the last answer came at {timeline['last_answer']:g} s): {steps}; current generation swapped on {swaps}. "
            + (f"Failed requests ({len(failed)}): {said}" + (" …" if len(failed) > 20 else "") + "."
               if failed else "No request failed."))


if __name__ == "__main__":
    sys.exit(main())
