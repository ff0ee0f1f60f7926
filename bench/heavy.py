"""Light requests while heavy ones loop (issue 30's target: light p95 ≤ 1 s, 0 errors, no
worker over 1 GB while 20 clients loop on heavy requests for 2 minutes).

Against gunicorn as production runs it (gunicorn.conf.py: ``--workers`` processes of threads,
3 as docs/production.md runs 2 cores: ``HEAVY_REQUEST_SLOTS + 2``; the
heavy-request cap of config/capacity.py with its defaults, page cache off so that every
request is worked), ``--heavy-clients`` clients each loop, without pause (but for the
``Retry-After`` of a 429 or 503, as the API asks; ``--no-heed`` leaves that out too), over
the heavy requests of the library (``heavy_urls``: the concordance sorts of the most
frequent characters, a juan's quotation map, a hit list as a file, a whole-work JSON
export, a juan collated when a work has several editions) while
``--light-clients`` clients loop over light ones (a search for a rare character, a
section's reading page, a section from the API, the list of works). Figures: per group, requests, p50/p95/max
in ms and answers by status (light: anything but a whole 200 is an error; heavy: 200,
the 429 and 503 of the cap, anything else an error); the peak memory of each worker.

The rate limits are lifted (the clients are one address) and so is ``HEAVY_PER_CLIENT``;
what is measured is the cap of the server. ``bench/run.py`` runs it on each corpus; alone:

    .venv/bin/python bench/heavy.py --corpus PATH[,PATH…] [--seconds 120] [--heavy-clients 20]
                                    [--no-heed] [--workers 3] [--library DIR] [--set NAME=VALUE]…
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
from bench.serving import CLIENT_LIMITS_LIFTED, MemoryWatch, free_port, start_gunicorn, worker_rss  # noqa: E402

#: What lifts the per-client limits for one address of many clients, the heavy requests' too.
LIFTED = {**CLIENT_LIMITS_LIFTED, "EXPORT_ANON_RATE": "none", "SORT_ANON_RATE": "none", "QUOTATIONS_ANON_RATE": "none",
          "HITLIST_ANON_RATE": "none", "COLLATION_ANON_RATE": "none", "HEAVY_ANON_SECONDS": "none",
          "HEAVY_PER_CLIENT": "0"}


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))] if ordered else 0.0


def get_json(base: str, path: str, patience: float = 300.0):
    """The JSON at ``path``. A 503 (workers still loading a large library on a busy machine,
    past the wait for a worker) is asked again after its ``Retry-After``, for up to
    ``patience`` seconds: a run of the benchmark at 107 M stopped there once."""
    deadline = time.monotonic() + patience
    while True:
        try:
            with urllib.request.urlopen(base + path, timeout=60) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            if exc.code != 503 or time.monotonic() > deadline:
                raise
            time.sleep(float(exc.headers.get("Retry-After") or 5))


def library_urls(base: str) -> tuple[list[str], list[str]]:
    """``(heavy, light)`` paths of the library the server holds: from its largest work."""
    works = get_json(base, "/api/works/?page_size=200")["results"]
    detail = max((get_json(base, urllib.parse.urlsplit(w["url"]).path) for w in works),
                 key=lambda d: len(d["juans"]))
    juan = detail["juans"][len(detail["juans"]) // 2]
    reading = urllib.parse.urlsplit(juan["reading_url"]).path
    quote = lambda q: urllib.parse.quote(q)  # noqa: E731
    heavy = [f"/api/search/?q={quote('之 OR 也')}&sort=after", f"/search/?q={quote('之')}&sort=before",
             reading + "quotations/", f"/api/search/export/csv/?q={quote('君')}",
             f"/api/works/{detail['id']}/export/json/"]
    editions = detail.get("editions") or []
    if len(editions) > 1:
        heavy.append(reading + "collate/")
    light = [f"/api/search/?q={quote('鵠')}", reading + "1/", "/api/works/",
             urllib.parse.urlsplit(juan["url"]).path + "sections/1/"]
    return heavy, light


def load(base: str, heavy: list[str], light: list[str], heavy_clients: int, light_clients: int,
         seconds: float, heed: bool = True) -> dict:
    """The two groups of clients for ``seconds`` (asyncio: one connection per request); with
    ``heed``, a heavy client told to come back (429, 503) waits its ``Retry-After`` first."""
    host, port = base.removeprefix("http://").split(":")
    stats = {group: {"ms": [], "status": {}} for group in ("heavy", "light")}

    async def fetch(url: str) -> tuple[str, bool, float | None]:
        reader, writer = await asyncio.open_connection(host, int(port), limit=2**20)
        try:
            writer.write(f"GET {url} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            size = 0
            while chunk := await reader.read(2**20):
                size += len(chunk)
        finally:
            writer.close()
        status = head.split(b" ", 2)[1].decode()
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        chunked = b"transfer-encoding: chunked" in head.lower()
        retry = next((float(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"retry-after:")), None)
        return status, chunked or length is None or length == size, retry

    async def client(group: str, urls: list[str], n: int, deadline: float):
        i = n
        while time.perf_counter() < deadline:
            url = urls[i % len(urls)]
            i += 1
            start = time.perf_counter()
            retry_after = None
            try:
                # At most 180 s, and a minute past the end of the run: what is still running
                # then is left unfinished (not an error).
                limit = min(180.0, max(1.0, deadline + 60 - time.perf_counter()))
                status, whole, retry_after = await asyncio.wait_for(fetch(url), limit)
                status = status if whole else f"{status} cut"
            except asyncio.TimeoutError:
                status = "unfinished" if time.perf_counter() > deadline + 59 else "TimeoutError"
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                status = type(exc).__name__
            ms = (time.perf_counter() - start) * 1000
            s = stats[group]
            s["status"][status] = s["status"].get(status, 0) + 1
            if group == "light" or status == "200":
                s["ms"].append(ms)
            if group == "heavy" and heed and retry_after is not None:
                await asyncio.sleep(min(retry_after, max(0.0, deadline - time.perf_counter())))

    async def run():
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(client("heavy", heavy, n, deadline) for n in range(heavy_clients)),
                             *(client("light", light, n, deadline) for n in range(light_clients)))

    asyncio.run(run())
    out = {}
    for group, s in stats.items():
        ms = s["ms"]
        errors = sum(v for k, v in s["status"].items()
                     if k not in ("200", "unfinished") and (group == "light" or k not in ("429", "503")))
        out[group] = {"requests": sum(s["status"].values()), "status": dict(sorted(s["status"].items())),
                      "errors": errors, "p50_ms": round(statistics.median(ms), 1) if ms else None,
                      "p95_ms": round(percentile(ms, 95), 1) if ms else None,
                      "max_ms": round(max(ms), 1) if ms else None}
    return out


def measure(env: dict, port: int, seconds: float, heavy_clients: int = 20, light_clients: int = 4,
            heed: bool = True, workers: int = 3) -> dict:
    """Start gunicorn with ``env`` (page cache off, limits lifted) and ``workers`` processes,
    run the load, stop it; the figures with the heavy and light paths and each worker's peak
    memory (MB)."""
    server, base = start_gunicorn({**env, **LIFTED, "PAGE_CACHE_SECONDS": "0"}, port, workers=workers)
    try:
        heavy, light = library_urls(base)
        for url in light:  # each worker process opens the index and the tables once, not counted
            get_json(base, url) if url.startswith("/api/") else urllib.request.urlopen(base + url, timeout=60).read()
        watch = MemoryWatch(server).start()
        figures = load(base, heavy, light, heavy_clients, light_clients, seconds, heed)
        private = watch.stop()
        rss = worker_rss(server)
    finally:
        server.terminate()
        server.wait()
    return {**figures, "heavy_urls": heavy, "light_urls": light, "worker_peak_rss_mb": rss,
            "worker_peak_private_mb": private, "seconds": seconds,
            "heavy_clients": heavy_clients, "light_clients": light_clients, "heed_retry_after": heed, "workers": workers,
            "slots": env.get("HEAVY_REQUEST_SLOTS", f"default ({max(1, (os.cpu_count() or 2) // 2)})")}


def met(figures: dict) -> bool:
    """Issue 30's target: light p95 ≤ 1 s, no light error, no worker over 1 GB of its own
    memory (``worker_peak_private_mb``: the pages of the memory-mapped index it has read are
    shared page cache, see ``bench.serving.MemoryWatch``; figures without it: resident size)."""
    light = figures["light"]
    memory = figures.get("worker_peak_private_mb", figures["worker_peak_rss_mb"])
    return light["p95_ms"] is not None and light["p95_ms"] <= 1000 and light["errors"] == 0 \
        and figures["heavy"]["errors"] == 0 and max(memory, default=0) <= 1024


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, help="PATH[,PATH…] to import into a library of its own")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--heavy-clients", type=int, default=20)
    parser.add_argument("--light-clients", type=int, default=4)
    parser.add_argument("--no-heed", action="store_true", help="heavy clients ignore Retry-After")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (production on 2 cores: 3)")
    parser.add_argument("--library", help="a folder to keep the library in (imported once, then reused)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a setting for the server")
    args = parser.parse_args(argv)
    tmp = Path(args.library) if args.library else Path(tempfile.mkdtemp(prefix="heavy-"))
    tmp.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-only-" + "k" * 40,
           "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
           "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
           "SEARCH_INDEX_DIR": str(tmp / "index"), "PAGE_CACHE_DIR": str(tmp / "cache")}
    try:
        if not (args.library and (tmp / "db.sqlite3").exists()):
            for command in (["migrate"], ["import_texts", *args.corpus.split(",")]):
                subprocess.run([sys.executable, "manage.py", *command], cwd=BASE, env=env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env.update(item.split("=", 1) for item in args.set)
        figures = measure(env, free_port(), args.seconds, args.heavy_clients, args.light_clients, not args.no_heed,
                          args.workers)
    finally:
        if not args.library:
            shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps({**figures, "met": met(figures)}, ensure_ascii=False, indent=1))
    return 0 if met(figures) else 1


if __name__ == "__main__":
    sys.exit(main())
