"""Starting the site under gunicorn on 127.0.0.1 for the scripts and tests that measure it."""
from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
SEED = BASE / "corpus" / "lishu_gangmu_juan10.txt"

#: The limits per client that a measure lifts (settings as environment variables): every request
#: of a measuring script comes from one address, one anonymous client, so the counts per minute
#: (config/settings.py's *_ANON_RATE) and the CPU-time budgets of the API and of the pages
#: (API_ANON_SECONDS, PAGE_ANON_SECONDS: 30 s a minute by default) would answer 429 to the load
#: itself. The heavy requests' own limits are lifted by ``bench.heavy.LIFTED`` where a measure
#: needs them lifted too.
CLIENT_LIMITS_LIFTED = {"API_ANON_RATE": "100000000/min", "API_USER_RATE": "100000000/min",
                        "SEARCH_ANON_RATE": "100000000/min", "EXPORT_ANON_RATE": "100000000/min",
                        "API_ANON_SECONDS": "none", "PAGE_ANON_SECONDS": "none"}


def start_gunicorn(env: dict, port: int, workers: int = 2, threads: int | None = None) -> tuple[subprocess.Popen, str]:
    """Collect the static files (``collect_static``), start gunicorn (``config.wsgi``, with
    ``gunicorn.conf.py``: its threaded worker and ``threads`` unless ``threads`` is given) with ``env`` and wait up to 20 s until it
    answers; returns the process (terminate it when done) and its base URL."""
    collect_static(env)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
               "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    if threads is not None:
        command += ["--threads", str(threads)]
    server = subprocess.Popen(command, cwd=BASE, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, base


def collect_static(env: dict) -> None:
    """Run ``manage.py collectstatic`` with ``env`` into the checkout's ``var/static``, as
    docs/production.md does before the first start: without it WhiteNoise warns in every worker
    and the pages' CSS and fonts are missing from what clients fetch. Run again only when a file
    under ``static/`` changed (name, size or mtime; its compression takes ~7 s); several processes
    starting servers at once take turns on a lock file. Raises ``subprocess.CalledProcessError``
    when collectstatic fails."""
    sources = sorted((str(p.relative_to(BASE)), p.stat().st_size, p.stat().st_mtime_ns)
                     for p in (BASE / "static").rglob("*") if p.is_file())
    signature = hashlib.sha1(repr(sources).encode()).hexdigest()
    stamp = BASE / "var" / ".collectstatic.stamp"  # beside STATIC_ROOT, never served
    (BASE / "var").mkdir(exist_ok=True)
    with open(BASE / "var" / ".collectstatic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and stamp.read_text() == signature:
            return
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                       cwd=BASE, env=env, check=True)
        stamp.write_text(signature)


def free_port() -> int:
    """A TCP port nobody listens on at the moment (127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seeded_site(folder: Path, **settings: str) -> dict:
    """The environment of a site holding the seed juan (``corpus/lishu_gangmu_juan10.txt``) in
    ``folder`` (its SQLite database, index and caches; migrated and imported here), with the
    rate limits lifted and production settings otherwise, ``settings`` added."""
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "serving-only-" + "k" * 40,
           "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
           "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
           "SEARCH_INDEX_DIR": str(folder / "index"), "PAGE_CACHE_DIR": str(folder / "cache"),
           "THROTTLE_CACHE_DIR": str(folder / "cache" / "throttle"),
           **CLIENT_LIMITS_LIFTED, **settings}
    env.pop("CLASSICS_TEST_DIR", None)
    folder.mkdir(parents=True, exist_ok=True)
    for args in (("migrate",), ("import_texts", str(SEED))):
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return env


def worker_rss(server: subprocess.Popen) -> list[int]:
    """The peak resident memory (``VmHWM``, MB) of each worker process of ``server``."""
    rss = []
    for child in subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split():
        status = Path(f"/proc/{child}/status").read_text()
        rss += [int(line.split()[1]) // 1024 for line in status.splitlines() if line.startswith("VmHWM")]
    return rss


def _status_kb(pid: str, field: str) -> int:
    """A ``kB`` field of ``/proc/PID/status`` (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemoryWatch:
    """The peak private memory of each worker of ``server``, sampled every ``interval`` s in a
    thread while it runs (``start()``, then ``stop()``: ``{pid: MB}``). Private is ``RssAnon``
    of ``/proc/PID/status``: the worker's own heap and arrays. ``VmHWM`` (``worker_rss``)
    counts besides the pages of the memory-mapped index files the worker has read, which are
    the kernel's page cache, shared by every worker and given back under memory pressure:
    on a library of several GB they take a worker's resident size past 1 GB by themselves."""

    def __init__(self, server: subprocess.Popen, interval: float = 0.25):
        import threading

        self.server, self.interval, self.peaks = server, interval, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for child in subprocess.run(["pgrep", "-P", str(self.server.pid)], capture_output=True,
                                        text=True).stdout.split():
                self.peaks[child] = max(self.peaks.get(child, 0), _status_kb(child, "RssAnon") // 1024)
            self._stop.wait(self.interval)

    def start(self) -> "MemoryWatch":
        self._thread.start()
        return self

    def stop(self) -> list[int]:
        """The peaks (MB), one per worker seen."""
        self._stop.set()
        self._thread.join()
        return sorted(self.peaks.values(), reverse=True)
