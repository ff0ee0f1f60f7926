"""What simultaneous cold exports of one large juan cost a server's memory: a site (SQLite, production
settings, rate limits lifted) holding the seed juan and one large juan (default 春秋左傳's
``kanripo/KR1e0001/KR1e0001_010.txt``, a 2.7 MB JSON export), one gunicorn worker of the project's
threaded worker (``gunicorn.conf.py``), its private memory (``RssAnon``, ``bench.serving.MemoryWatch``)
before, at its peak while ``--clients`` clients ask for the juan's export at once (the page cache
empty: cold), and a few seconds after they all had their answers; with the answers' statuses and
sizes (every answer must be the same file). One JSON line.

    nice -n 15 .venv/bin/python bench/juan_exports.py [--clients 30] [--kind json] [--juan FILE [--number N]]
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from bench.serving import MemoryWatch, _status_kb, free_port, seeded_site, start_gunicorn  # noqa: E402

LARGE = BASE.parent / "shared" / "corpus" / "kanripo" / "KR1e0001" / "KR1e0001_010.txt"


def private_mb(server: subprocess.Popen) -> list[int]:
    """``RssAnon`` (MB) of each worker of ``server`` now."""
    children = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
    return [_status_kb(child, "RssAnon") // 1024 for child in children]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--kind", default="json")
    parser.add_argument("--juan", default=str(LARGE))
    parser.add_argument("--number", type=int, help="the juan's number (default: the file's, KR1e0001_010 → 10)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the last answer (default 5)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="juan-exports-"))
    try:
        env = seeded_site(folder)
        done = subprocess.run([sys.executable, "manage.py", "import_texts", args.juan], cwd=BASE, env=env,
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        server, base = start_gunicorn(env, free_port(), workers=1)
        try:
            works = json.load(urllib.request.urlopen(base + "/api/works/?page_size=200"))["results"]
            work = next(w for w in works if w["title"] != "禮書綱目")
            number = args.number or int(Path(args.juan).stem.rsplit("_", 1)[1])
            url = f"{base}/api/works/{work['id']}/juans/{number}/export/{args.kind}/"
            before = private_mb(server)
            answers: list[tuple[int, int]] = []
            start = threading.Barrier(args.clients)

            def ask():
                start.wait()
                try:
                    with urllib.request.urlopen(url, timeout=600) as response:
                        answers.append((response.status, len(response.read())))
                except urllib.error.HTTPError as exc:
                    answers.append((exc.code, len(exc.read())))

            watch = MemoryWatch(server, interval=0.1).start()
            began = time.monotonic()
            clients = [threading.Thread(target=ask) for _ in range(args.clients)]
            for client in clients:
                client.start()
            for client in clients:
                client.join()
            seconds = time.monotonic() - began
            time.sleep(args.settle)
            peak = watch.stop()
            print(json.dumps({"url": url.removeprefix(base), "clients": args.clients, "seconds": round(seconds, 1),
                              "answers": sorted(Counter(answers).items()), "private_mb_before": before,
                              "private_mb_peak": peak, "private_mb_after": private_mb(server)}, ensure_ascii=False))
        finally:
            server.terminate()
            server.wait(30)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
