"""The benchmark (issue 7): import + indexing time and index size, search latency of the
index against SQLite FTS5 (trigram) and a plain scan with the hit counts compared, and
end-to-end HTTP figures under gunicorn (2 workers, 20 concurrent clients), with the peak
memory of a worker. On a database and index of its own, in a temporary folder.

    .venv/bin/python scripts/bench.py [PATH] [--http-seconds 30] [--clients 20] [--write docs/performance.md]

PATH defaults to ../shared/corpus/kanripo (the scale corpus). ``make bench`` runs it.
Not part of the test run; ``tests/test_bench.py`` runs a small smoke version.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from serving import start_gunicorn

BASE = Path(__file__).resolve().parent.parent
PY = sys.executable


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))] if ordered else 0.0


def http_load(base: str, urls: list[str], clients: int, seconds: float) -> dict:
    """``clients`` concurrent clients (asyncio tasks: a client costs little CPU, which the
    server shares on this machine) request ``urls`` in turn for ``seconds``, a new
    connection per request as gunicorn's sync workers close each one. Per URL: requests,
    requests per second, p50 and p95 in ms, and errors (anything but a whole 200)."""
    host, port = base.removeprefix("http://").split(":")
    results: dict[str, list] = {u: [] for u in urls}
    errors: dict[str, int] = {u: 0 for u in urls}

    async def fetch(url: str) -> bool:
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
        return status == b"200" and (length is None or length == len(body))

    async def client(n: int, deadline: float):
        i = n
        while time.perf_counter() < deadline:
            url = urls[i % len(urls)]
            i += 1
            start = time.perf_counter()
            try:
                ok = await asyncio.wait_for(fetch(url), 30)
            except (OSError, asyncio.TimeoutError, ValueError, IndexError):
                ok = False
            ms = (time.perf_counter() - start) * 1000
            (results[url].append(ms) if ok else errors.__setitem__(url, errors[url] + 1))

    async def run():
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(client(n, deadline) for n in range(clients)))

    asyncio.run(run())
    return {u: {"requests": len(v), "rps": round(len(v) / seconds, 1), "p50_ms": round(statistics.median(v), 1) if v else None,
                "p95_ms": round(percentile(v, 95), 1), "errors": errors[u]} for u, v in results.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", default=str(BASE.parent / "shared" / "corpus" / "kanripo"))
    parser.add_argument("--http-seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", help="write the figures as Markdown to this file")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-only-" + "k" * 40,
           "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
           "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
           "SEARCH_INDEX_DIR": str(tmp / "index"), "API_ANON_RATE": "100000000/min"}
    manage = lambda *a, **kw: subprocess.run([PY, "manage.py", *a], cwd=BASE, env=env, check=True,  # noqa: E731
                                             capture_output=True, text=True, **kw)
    manage("migrate")
    start = time.perf_counter()
    out = manage("import_texts", args.path).stdout.strip().splitlines()
    import_s = time.perf_counter() - start
    index_bytes = du(tmp / "index")
    queries = json.loads(manage("bench_queries", "--repeat", str(args.repeat)).stdout)
    env["PAGE_CACHE_DIR"] = str(tmp / "cache")
    http, rss = {}, []
    for label, extra in (("on", {}), ("off", {"PAGE_CACHE_SECONDS": "0"})):
        server, base = start_gunicorn({**env, **extra}, args.port)
        try:
            juan_url = json.loads(urllib.request.urlopen(base + "/api/works/").read())["results"][0]["url"]
            work = json.loads(urllib.request.urlopen(juan_url).read())
            reading = work["juans"][len(work["juans"]) // 2]["reading_url"].replace(base, "")
            http[label] = http_load(base, ["/api/search/?q=%E5%B0%84", reading], args.clients, args.http_seconds)
            for child in subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split():
                status = Path(f"/proc/{child}/status").read_text()
                rss += [int(line.split()[1]) // 1024 for line in status.splitlines() if line.startswith("VmHWM")]
        finally:
            server.terminate()
            server.wait()
    summary = next((line for line in reversed(out) if " imported" in line), out[-1])
    shown_path = os.path.relpath(args.path, BASE)
    report = {"path": shown_path, "import_summary": summary, "import_and_index_s": round(import_s, 1),
              "index_mb": round(index_bytes / 2**20, 1), **queries, "http": http, "worker_peak_rss_mb": rss,
              "clients": args.clients, "http_seconds": args.http_seconds}
    print(json.dumps(report, ensure_ascii=False, indent=1))
    if args.write:
        Path(args.write).write_text(markdown(report, " ".join(["scripts/bench.py", *(argv or sys.argv[1:])])),
                                    encoding="utf-8")
    return 0 if queries["counts_agree"] else 1


def markdown(r: dict, command: str) -> str:
    s = r["summary"]
    lines = [
        "# Performance", "",
        f"Produced by `.venv/bin/python {command}` on this 2-core machine.", "",
        f"- Corpus: `{r['path']}`: {r['import_summary']}; {r['passages']} passages, {r['characters']:,} characters.",
        f"- Import plus indexing: **{r['import_and_index_s']} s**; index on disk: **{r['index_mb']} MB**.",
        f"- Hit counts of the index, FTS5 and the plain scan agree on every query: **{r['counts_agree']}**.",
        f"- Peak RSS of each gunicorn worker after its HTTP run (cache on, then off): {r['worker_peak_rss_mb']} MB.",
        f"- HTTP: {r['clients']} concurrent clients for {r['http_seconds']:g} s per phase, a new connection per "
        "request; with the page cache on (as served) and off (every request computed).", "",
        "| engine (exact characters) | p50 ms | p95 ms | max ms |", "| --- | --- | --- | --- |",
        *[f"| {e} | {s[e]['p50']} | {s[e]['p95']} | {s[e]['max']} |" for e in ("index", "fts5", "scan")], "",
        "| query | index hits | FTS5 hits | scan hits | index ms | FTS5 ms | scan ms |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        *[f"| `{q['query']}` | {q['index']} | {q['fts5']} | {q['scan']} | {q['index_ms']} | {q['fts5_ms']} | {q['scan_ms']} |"
          for q in r["queries"]], "",
        "| HTTP (gunicorn, 2 workers) | page cache | requests | req/s | p50 ms | p95 ms | errors |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        *[f"| `{u}` | {cache} | {h['requests']} | {h['rps']} | {h['p50_ms']} | {h['p95_ms']} | {h['errors']} |"
          for cache, phase in r["http"].items() for u, h in phase.items()], "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
