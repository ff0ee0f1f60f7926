"""A smoke version of the benchmark: the three engines agree on every query of the mix."""
import json

from django.core.management import call_command


def test_bench_queries_agree(seed_backend, capsys):
    call_command("bench_queries", "--repeat", "1")
    report = json.loads(capsys.readouterr().out)
    assert len(report["queries"]) >= 30
    assert report["counts_agree"] is True
    by_query = {q["query"]: q for q in report["queries"]}
    assert (by_query["鵠"]["index"], by_query["戒射宰戒"]["index"]) == (21, 1)
    assert set(report["summary"]) == {"index", "fts5", "scan"}


def test_the_benchmark_script_runs_end_to_end(tmp_path):
    """scripts/bench.py on the seed, briefly: import, the three engines, both HTTP phases."""
    import socket
    import subprocess
    import sys
    from pathlib import Path

    base = Path(__file__).resolve().parent.parent
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "performance.md"
    run = subprocess.run([sys.executable, "scripts/bench.py", str(base.parent / "shared" / "corpus" / "seed"),
                          "--http-seconds", "1", "--clients", "2", "--repeat", "1", "--port", str(port),
                          "--write", str(out)], cwd=base, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    assert report["counts_agree"] is True
    assert report["passages"] == 424
    assert report["import_summary"].startswith("1 works, 1 juans, 45 sections")
    assert set(report["http"]) == {"on", "off"}
    for phase in report["http"].values():
        assert len(phase) == 2
        assert all(h["requests"] > 0 and h["errors"] == 0 for h in phase.values())
    text = out.read_text(encoding="utf-8")
    assert "| index |" in text and "| `之` |" in text and "| page cache |" in text
