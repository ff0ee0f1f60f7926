"""Readers during writes: 20 concurrent clients search and read while imports and index
rebuilds run, against gunicorn (2 workers) on 127.0.0.1, on a database and index of its own.

    .venv/bin/python bench/concurrency.py [--seconds 30] [--clients 20] [--port 8791]

Prints one line of figures and exits 1 if any request failed, any search answered with
another count than the seed's 21 hits of 鵠 (old or new version of the juan, never empty
in between), or any response was a 500 or a LockError page.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
from bench.serving import CLIENT_LIMITS_LIFTED, start_gunicorn  # noqa: E402
PY = sys.executable


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="concurrency-"))
    env = {**os.environ, "DJANGO_DEBUG": "true", "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "SEARCH_INDEX_DIR": str(tmp / "index"),
           "PAGE_CACHE_DIR": str(tmp / "cache"), **CLIENT_LIMITS_LIFTED}
    run = lambda *a: subprocess.run([PY, "manage.py", *a], cwd=BASE, env=env, check=True,  # noqa: E731
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run("migrate")
    run("import_texts", "corpus/")
    run("rebuild_index")
    server, base = start_gunicorn(env, args.port, threads=4)
    stop = threading.Event()
    stats, errors, counts, lock = Counter(), [], Counter(), threading.Lock()

    def client(n: int):
        while not stop.is_set():
            url = base + ("/api/search/?q=%E9%B5%A0" if n % 2 else "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/")
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    body = response.read()
                with lock:
                    stats["ok"] += 1
                    if n % 2:
                        counts[json.loads(body)["count"]] += 1
                    elif b"LockError" in body or "右賓出公入".encode() not in body:
                        errors.append(f"{url}: incomplete page")
            except (urllib.error.URLError, OSError, ValueError) as exc:
                with lock:
                    errors.append(f"{url}: {exc}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
    for t in threads:
        t.start()
    writes = Counter()
    deadline = time.time() + args.seconds
    try:
        while time.time() < deadline:
            run("import_texts", "corpus/")
            writes["imports"] += 1
            run("rebuild_index")
            writes["rebuilds"] += 1
    finally:
        stop.set()
        for t in threads:
            t.join()
        server.terminate()
        server.wait()
    bad_counts = {c: k for c, k in counts.items() if c != 21}
    print(f"{stats['ok']} requests ok, {len(errors)} errors, {writes['imports']} imports and "
          f"{writes['rebuilds']} rebuilds meanwhile; search counts seen: {dict(counts)}")
    for e in errors[:10]:
        print("error:", e)
    return 1 if errors or bad_counts else 0


if __name__ == "__main__":
    sys.exit(main())
