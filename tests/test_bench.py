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
