"""The queries beyond the mix that the Whoosh engine answered slowly (``bench/mix.py``
``HARD_QUERIES``), timed by ``bench/service_cpu.py --hard`` with both engines on one library
and their answers compared: a step of ``bench/run.py`` (its Whoosh check)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
PY = sys.executable


def measure(env: dict, positional_env: dict, repeat: int) -> dict:
    """``bench/service_cpu.py --hard`` (the queries beyond the mix that the Whoosh engine answered
    slowly, each exact, folded and with a layer filter) with the Whoosh engine's ``env`` and
    with the positional engine's: ``{"rows": [{"query", "mode", "layer", "count", "cpu_ms",
    "positional_count", "positional_cpu_ms", "same"}…], "max_cpu_ms", "slowest", "agree"}``, CPU
    ms (``time.process_time``) a query; ``same``: the count and the first KWIC line are the
    positional engine's."""
    def rows(e: dict) -> list[dict]:
        done = subprocess.run([PY, "bench/service_cpu.py", "--hard", "--repeat", str(repeat)], cwd=BASE, env=e,
                              capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"bench/service_cpu.py --hard failed:\n{done.stderr[-3000:]}")
        return [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"query"')]

    whoosh, positional = rows(env), rows(positional_env)
    out = [{**w, "positional_count": p["count"], "positional_cpu_ms": p["cpu_ms"],
            "same": (w["count"], w["first_hit"]) == (p["count"], p["first_hit"])} for w, p in zip(whoosh, positional)]
    slowest = max(out, key=lambda r: r["cpu_ms"])
    return {"rows": out, "max_cpu_ms": slowest["cpu_ms"], "agree": all(r["same"] for r in out),
            "slowest": f"{slowest['query']} ({slowest['mode']}, layer {slowest['layer']})"}


def report(hard: dict) -> list[str]:
    """The Markdown lines of ``measure``'s answer for docs/performance.md: a table, a query a row."""
    return ["Queries beyond the mix that the Whoosh engine answered slowly (`bench/service_cpu.py --hard`, CPU ms "
            "by `time.process_time`, the median of the timed runs, both engines; same: the count and the first KWIC "
            "line are the positional engine's):", "",
            "| query | mode | layer | hits | whoosh CPU ms | positional CPU ms | same |",
            "| --- | --- | --- | --- | --- | --- | --- |",
            *[f"| `{h['query']}` | {h['mode']} | {h['layer']} | {h['count']} | {h['cpu_ms']} | "
              f"{h['positional_cpu_ms']} | {h['same']} |" for h in hard["rows"]]]
