"""Starting the site under gunicorn on 127.0.0.1 for the scripts that measure it."""
from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent


def start_gunicorn(env: dict, port: int, workers: int = 2, threads: int = 1) -> tuple[subprocess.Popen, str]:
    """Start gunicorn (``config.wsgi``) with ``env`` and wait up to 20 s until it answers;
    returns the process (terminate it when done) and its base URL."""
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
                               "--threads", str(threads), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
                              cwd=BASE, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, base
