"""Two app servers sharing one PostgreSQL database, each with its own index folder: import
on one, publish, pull on the other while clients keep reading (docs/production.md,
"Several app servers").

    .venv/bin/python bench/two_servers.py [--clients 20] [--seconds 20] [--port 8801]

1. A fresh database on the PostgreSQL server of ``DATABASE_URL``, named after its database
   with ``_two_servers`` added (default ``postgres://classics:classics@127.0.0.1:5432/classics``:
   ``classics_two_servers``; the role must be allowed to create databases, as
   ``scripts/start_postgres.sh`` sets it up). With a
   ``sqlite://`` URL (as the SQLite run of the test suite uses) the two servers share a
   fresh SQLite file instead.
2. Server A imports the seed and indexes it, publishes the index to a shared folder
   (``manage.py publish_index``), server B pulls it (``manage.py pull_index``).
3. Both run under gunicorn on loopback ports, page cache off. ``--clients`` clients read
   both (search API over the benchmark's query mix, and reading pages) from ``--seconds`` / 4
   before the steps until ``--after`` seconds after them, ``--seconds`` at least: A imports
   KR1d0086 juan 12 (from ../shared/corpus/kanripo) and publishes, and B pulls and swaps the
   new generation in, each while both servers are read.
4. After the swap, both answer every query of the mix: the counts must be identical.

Prints JSON (requests and errors per server during the swap, the counts compared) and
exits 1 on any error or difference. Bounded: the steps are bounded commands, and the reading
stops ``--after`` seconds after the last. ``seconds`` is how long the clients read;
``timeline`` says when each step ran, in seconds from the start of the reading (the clients
start no request after ``reading``'s end; ``last_answer`` is when the last one ended), when each
server's ``current`` link was swapped, every failed request (its server, when it was sent and
answered, its URL, status and, for a 503 of the request budget, the step its body names), and
per server the slowest answers of each ``--window`` seconds.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
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
from bench.mix import QUERY_MIX  # noqa: E402
from bench.run import http_load  # noqa: E402
from bench.serving import CLIENT_LIMITS_LIFTED, start_gunicorn  # noqa: E402

PY = sys.executable
#: Added to the name of ``DATABASE_URL``'s database for the check's own (dropped and made anew).
DB_SUFFIX = "_two_servers"


def fresh_database(url: str, tmp: Path) -> str:
    """Drop and create the database named as ``url``'s with ``DB_SUFFIX`` added (several runs on
    one PostgreSQL server, each with its own ``DATABASE_URL``, never drop each other's), or a
    new SQLite file in ``tmp`` for a ``sqlite://`` URL; returns its URL."""
    if url.startswith("sqlite:"):
        return f"sqlite:///{tmp / 'db.sqlite3'}"
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = (parts.path.strip("/") or "classics") + DB_SUFFIX
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parts._replace(path=f"/{name}").geturl()


def timeline(origin: float, seconds: float, steps: dict, swaps: dict, logs: dict, window: float) -> dict:
    """When things happened, in seconds after ``origin`` (a ``perf_counter`` reading at the
    start of the reading): ``steps`` ``{name: (start, end)}``, ``swaps`` ``{server: when its
    current link was swapped}``, ``logs`` ``{server: http_load's log}``. Returns the
    ``timeline`` of the module docstring."""
    def at(t):
        return round(t - origin, 2)

    entries = [(name, e) for name, log in logs.items() for e in log]
    failed = sorted(({"server": name, "sent": at(e[0]), "answered": at(e[1]), "url": urllib.parse.unquote(e[2]),
                      "status": e[3], "while": e[4]} for name, e in entries if e[3] is not None),
                    key=lambda f: f["sent"])
    slowest = {}
    for name, log in logs.items():
        rows = collections.defaultdict(list)
        for e in log:
            rows[int((e[0] - origin) // window)].append(e)
        slowest[name] = [[round(k * window, 1), len(v), max(round((e[1] - e[0]) * 1000) for e in v),
                          sum(e[3] is not None for e in v)] for k, v in sorted(rows.items())]
    return {"reading": [0.0, seconds], "last_answer": max((at(e[1]) for _, e in entries), default=None),
            "steps": {name: [at(a), at(b)] for name, (a, b) in steps.items()},
            "swapped": {name: at(t) for name, t in swaps.items()},
            "failed": failed,
            "windows": "[window start s, requests sent in it, slowest of them ms, failed]",
            "slowest": slowest}


def counts(base: str) -> dict[str, int]:
    out = {}
    for q in QUERY_MIX:
        url = base + "/api/search/?" + urllib.parse.urlencode({"q": q, "page_size": 1})
        out[q] = json.loads(urllib.request.urlopen(url).read())["count"]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--port", type=int, default=8801)
    parser.add_argument("--library", default="",
                        help="PATH[,PATH…]: a library server a imports before the seed (the check at the size of "
                             "the benchmark's largest corpus); default: the seed alone")
    parser.add_argument("--after", type=float, default=10.0,
                        help="seconds the clients keep reading after the last step (the pull on b)")
    parser.add_argument("--window", type=float, default=2.0,
                        help="seconds of each window of the timeline's slowest answers")
    parser.add_argument("--second-text", default=str(BASE.parent / "shared" / "corpus" / "kanripo" / "KR1d0086"
                                                     / "KR1d0086_012.txt"))
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="two-servers-"))
    database = fresh_database(os.environ.get("DATABASE_URL", "postgres://classics:classics@127.0.0.1:5432/classics"), tmp)
    common = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "two-servers-" + "k" * 40,
              "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
              "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": database,
              **CLIENT_LIMITS_LIFTED, "PAGE_CACHE_SECONDS": "0"}
    env = {name: {**common, "SEARCH_INDEX_DIR": str(tmp / f"index-{name}"), "PAGE_CACHE_DIR": str(tmp / f"cache-{name}")}
           for name in ("a", "b")}
    shared = tmp / "shared"

    def manage(name, *a):
        done = subprocess.run([PY, "manage.py", *a], cwd=BASE, env=env[name], capture_output=True, text=True)
        if done.returncode:  # what failed, not only that it did
            raise SystemExit(f"server {name}: manage.py {' '.join(a)} failed:\n{done.stderr[-3000:]}")
        return done.stdout.strip()

    manage("a", "migrate")
    started = time.perf_counter()
    if args.library:
        manage("a", "import_texts", *args.library.split(","))
    manage("a", "import_texts", str(BASE / "corpus"))
    imported_s = time.perf_counter() - started
    manage("a", "publish_index", str(shared))
    started = time.perf_counter()
    manage("b", "pull_index", str(shared))
    first_pull_s = time.perf_counter() - started
    # what server b pulled, measured before the swap adds a second generation beside it (each
    # file counted once: a generation hard-links the segments it keeps)
    pulled = {(f.stat().st_dev, f.stat().st_ino): f.stat().st_size for f in (tmp / "index-b").rglob("*") if f.is_file()}
    servers, done = {}, threading.Event()
    try:
        for i, name in enumerate(("a", "b")):
            servers[name] = start_gunicorn(env[name], args.port + i)
        urls = ["/api/search/?" + urllib.parse.urlencode({"q": q}) for q in QUERY_MIX]
        urls.append("/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/")
        load: dict[str, dict] = {}
        logs: dict[str, list] = {name: [] for name in servers}

        def read(name):
            load[name] = http_load(servers[name][1], urls, max(1, args.clients // 2), args.seconds, logs[name],
                                   done)

        readers = [threading.Thread(target=read, args=(name,)) for name in servers]
        origin, wall = time.perf_counter(), time.time()
        for t in readers:
            t.start()
        time.sleep(args.seconds / 4)
        steps, ran = {}, {}
        for step, name, command in (("import on a", "a", ("import_texts", args.second_text)),
                                    ("publish on a", "a", ("publish_index", str(shared))),
                                    ("pull on b", "b", ("pull_index", str(shared)))):
            began = time.perf_counter()
            out = manage(name, *command)
            steps[step] = out.splitlines()[-1] if step == "import on a" else out
            ran[step] = (began, time.perf_counter())
        swaps = {name: origin + os.lstat(tmp / f"index-{name}" / "current").st_mtime - wall for name in servers}
        time.sleep(args.after)
        done.set()
        read_s = max(args.seconds, time.perf_counter() - origin)
        for t in readers:
            t.join()
        after = {name: counts(base) for name, (_, base) in servers.items()}
    finally:
        done.set()  # the clients stop, whatever failed
        for server, _ in servers.values():
            server.terminate()
            server.wait()
    requests = {name: sum(u["requests"] for u in phase.values()) for name, phase in load.items()}
    errors = {name: sum(u["errors"] for u in phase.values()) for name, phase in load.items()}
    failed = {name: dict(sum((collections.Counter(u["failed"]) for u in phase.values()), collections.Counter()))
              for name, phase in load.items()}
    same = after["a"] == after["b"]
    report = {"steps": steps, "clients": args.clients, "seconds": round(read_s, 1), "requests": requests,
              "errors": errors, "error_statuses": failed, "identical_counts": same, "queries": len(after["a"]),
              "counts": after["a"], "differences": {q: (after["a"][q], after["b"][q]) for q in after["a"]
                                                     if after["a"][q] != after["b"][q]}}
    report["timeline"] = timeline(origin, round(read_s, 1), ran, swaps, logs, args.window)
    report["database"] = database.split("://")[0]
    report.update(library=args.library, import_s=round(imported_s, 1), first_pull_s=round(first_pull_s, 1),
                  index_mb=round(sum(pulled.values()) / 2**20))
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0 if same and not any(errors.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
