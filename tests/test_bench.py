"""A smoke version of the benchmark: the three engines agree on every query of the mix."""
import json

from bench import engines, service_cpu
from search.backends import SearchQuery
from search.service import run_search
from bench.run import du, whoosh_counts_agree, worker_memory


def test_bench_queries_agree(seed_backend):
    report = engines.compare(repeat=1)
    assert len(report["queries"]) >= 30
    assert report["counts_agree"] is True
    by_query = {q["query"]: q for q in report["queries"]}
    assert (by_query["鵠"]["index"], by_query["戒射宰戒"]["index"]) == (21, 1)
    assert set(report["summary"]) == {"index", "tantivy", "fts5", "scan"}
    assert {q["query"]: q["tantivy"] for q in report["queries"]} == {q["query"]: q["scan"] for q in report["queries"]}


def test_bench_queries_engine_choice(seed_backend, capsys):
    assert engines.main(["--repeat", "1", "--engines", "index,tantivy"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engines"] == ["index", "tantivy"] and set(report["summary"]) == {"index", "tantivy"}
    by_query = {q["query"]: q for q in report["queries"]}
    assert (by_query["射?獲"]["tantivy"], by_query["大射 OR 鄉射"]["tantivy"]) == \
        (by_query["射?獲"]["index"], by_query["大射 OR 鄉射"]["index"])
    assert "fts5" not in by_query["鵠"]


def test_service_cpu_times_the_configured_engine(seed_backend, capsys):
    """bench/service_cpu.py: each query's count and first KWIC line, then the percentiles."""
    assert service_cpu.main(["--repeat", "1", "鵠", "射?獲"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["query"], r["count"], r["first_hit"]) for r in rows[:2]] == [
        ("鵠", 21, "子熊侯同參讀為糝糝雜也雜侯者豹鵠而麋飾下天子大夫也干讀為豻豻侯"),
        ("射?獲", 6, "適下物由上射後東過也命去侯者將射當獲也鄉射禮曰西南面立於物間")]
    assert set(rows[2]) == {"p50", "p95", "max", "min_p50", "min_p95", "min_max"}
    assert rows[2]["max"] == max(rows[0]["cpu_ms"], rows[1]["cpu_ms"])
    assert rows[2]["min_max"] == max(rows[0]["cpu_min_ms"], rows[1]["cpu_min_ms"])
    assert all(r["cpu_min_ms"] <= r["cpu_ms"] for r in rows[:2])


def test_service_cpu_takes_turns_with_tantivy(seed_backend, capsys, tmp_path):
    """bench/service_cpu.py --tantivy: tantivy's peer index, built the first time and reopened
    after, answers each query in turn with the service; both engines' CPU times are summed up."""
    for _ in range(2):  # built, then reopened
        assert service_cpu.main(["--repeat", "2", "--tantivy", str(tmp_path / "tv"), "鵠"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert (rows[0]["query"], rows[0]["count"]) == ("鵠", 21)
        assert rows[0]["tantivy_cpu_min_ms"] <= rows[0]["tantivy_cpu_ms"]
        assert rows[1]["tantivy_max"] == rows[0]["tantivy_cpu_ms"] and rows[1]["tantivy_min_p50"] == \
            rows[0]["tantivy_cpu_min_ms"]
    assert (tmp_path / "tv" / "meta.json").exists()
    passages, hits = engines.Tantivy.open(str(tmp_path / "tv")).search("鵠")  # the reopened index answers
    service = run_search(SearchQuery("鵠", exact=True))
    assert passages == service.passages
    assert [match for _, match, _, _, _ in hits] == ["鵠"] * 20
    # each hit with its passage's place and the piece it falls in, as the service's hit rows give them
    rows = {(h.passage.doc_id, *h.kwic(), h.piece_position, h.passage.work_title, h.passage.juan_number,
             h.passage.section_position, h.passage.layer) for h in service.hits}
    assert len(rows) == 21
    assert {(place["doc_id"][0], before, match, after, piece, place["work_title"][0], place["juan_number"][0],
             place["section_position"][0], place["layer"][0]) for before, match, after, piece, place in hits} <= rows


def test_the_benchmark_script_runs_end_to_end(tmp_path):
    """bench/run.py on the seed, briefly: import, one-juan imports, every engine (Whoosh
    included), both HTTP phases and the API queries."""
    import socket
    import subprocess
    import sys
    from pathlib import Path

    base = Path(__file__).resolve().parent.parent
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "performance.md"
    out.write_text("# Performance\n\n## seed corpus: old figures\n\nold\n\n## Collation and parallel passages\n\nkept\n",
                   encoding="utf-8")
    run = subprocess.run([sys.executable, "bench/run.py", "--corpus", "seed=" + str(base.parent / "shared" / "corpus" / "seed"),
                          "--http-seconds", "1", "--clients", "2", "--repeat", "1", "--port", str(port), "--whoosh",
                          "--no-two-servers", "--heavy-seconds", "3", "--heavy-clients", "3",
                          "--write", str(out)], cwd=base, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    printed = json.loads(run.stdout)
    assert printed["two_servers"] is None  # --no-two-servers; tests/test_shipping.py runs it
    [report] = printed["corpora"]
    assert report["counts_agree"] is True and report["whoosh"]["counts_agree"] is True
    hard = report["whoosh"]["hard"]  # the queries beyond the mix, each exact, folded and in the classic
    assert hard["agree"] is True and len(hard["rows"]) == 36
    assert {(h["query"], h["mode"], h["layer"], h["count"]) for h in hard["rows"] if h["query"] == "之?也"} == {
        ("之?也", "exact", "all", 28), ("之?也", "default", "all", 28), ("之?也", "exact", "classic", 0)}
    assert report["passages"] == 424
    assert report["import_summary"].startswith("1 works, 1 juans, 45 sections")
    assert list(report["one_juan"]) == ["seed juan (new work)"]
    one = report["one_juan"]["seed juan (new work)"]
    assert 0 < one["index_s"] < one["s"] and 0 < one["store_s"] < one["s"]
    rows = {row[0]: row for row in printed["targets"]}
    assert rows["import and index the whole seed from empty"][1:3] == [
        "≤ 360 s; peak ≤ 1.5 GB", f"{report['import_and_index_s']} s; {report['import_peak_mb']} MB"]
    assert rows["two app servers during an index swap"][2:] == ["not run", None]
    assert rows["hit counts of every engine and peer"][2:] == ["True", True]
    assert report["import_peak_mb"] > 0 and report["rest_peak_mb"] > 0
    assert set(report["http"]) == {"on", "off"}
    for phase in report["http"].values():
        assert len(phase) == 2
        assert all(h["requests"] > 0 and h["errors"] == 0 and h["server_p50_ms"] > 0 for h in phase.values())
    assert report["api_queries"]["requests"] == 32 and report["api_queries"]["errors"] == 0
    assert report["api_facets"]["requests"] == 32 and report["api_facets"]["errors"] == 0
    assert report["facet_filters"] == {"class": ["KR1d", "KR2a"]}
    # The mix's one-character query with the most hits: in the seed juan 也 (its notes) outnumbers 之.
    counts = {q["query"]: q["index"] for q in report["queries"]}
    assert report["sort_after"]["query"] == "也" and counts["也"] > counts["之"] > counts["公"]
    assert report["sort_after"]["requests"] == 1 and report["sort_after"]["errors"] == 0
    assert rows["concordance sort (sort=after) of 也, the most frequent character (seed)"][1] == "≤ 1 s"
    # The seed's sections of about 300 characters (270-330) and their first 20 characters.
    parallels = report["parallels"]
    assert parallels["library_sections"] == 45
    assert parallels["sections"]["n"] == parallels["spans"]["n"] > 0
    assert 270 <= parallels["sections"]["length_min"] <= parallels["sections"]["length_max"] <= 330
    assert list(report["loads"]) == ["import", "queries", "parallels", "whoosh", "http, page cache on",
                                     "http, page cache off", "api (end)", "heavy requests and light ones", "end", "run"]
    assert report["peers"] is True and report["whoosh_left_out"] is False
    heavy = report["heavy"]
    assert heavy["light"]["requests"] > 0 and heavy["light"]["errors"] == 0 and heavy["heavy"]["errors"] == 0
    assert sum(heavy["heavy"]["status"].values()) > 0 and set(heavy["heavy"]["status"]) <= {"200", "503", "unfinished"}
    assert [u.split("?")[0] for u in heavy["heavy_urls"]] == [
        "/api/search/", "/search/", "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/quotations/",
        "/api/search/export/csv/", f"/api/works/{heavy['heavy_urls'][-1].split('/')[3]}/export/json/"]
    assert len(heavy["worker_peak_rss_mb"]) == len(heavy["worker_peak_private_mb"]) == 3  # docs/production.md: HEAVY_REQUEST_SLOTS + 2 processes
    assert any(row.startswith("light requests while 3 clients loop on heavy ones for 3 s (seed)") for row in rows)
    text = out.read_text(encoding="utf-8")
    assert "| positional index |" in text and "| whoosh |" in text and "| tantivy |" in text
    assert "| `之` |" in text and "| page cache |" in text and "server time p50" in text
    assert "| `之 NEAR/5 也` | default | all |" in text
    assert "## Targets\n" in text and "| import and index the whole seed from empty | ≤ 360 s;" in text
    assert "The same with the facet filters `class=KR1d&class=KR2a`" in text and "Load average of the machine" in text
    assert f"workers {worker_memory(heavy)}" in text and "MB own ([" in text
    assert "the heavy clients wait for `Retry-After`" in text   # they heed it in the run (bench/heavy.py)
    assert "old figures" not in text and text.endswith("\n## Collation and parallel passages\n\nkept\n")


def test_whoosh_counts_are_compared_with_the_scan_or_with_tantivy_where_no_scan_ran():
    with_scan = [{"query": "之", "index": 5, "tantivy": 5, "scan": 5}, {"query": "也", "index": 3, "tantivy": 3, "scan": 3}]
    without_scan = [{"query": "之", "index": 5, "tantivy": 5}, {"query": "也", "index": 3, "tantivy": 3}]
    assert whoosh_counts_agree(with_scan, [{"query": "之", "index": 5}, {"query": "也", "index": 3}]) is True
    assert whoosh_counts_agree(without_scan, [{"query": "之", "index": 5}, {"query": "也", "index": 3}]) is True
    assert whoosh_counts_agree(without_scan, [{"query": "之", "index": 5}, {"query": "也", "index": 4}]) is False


def test_du_counts_a_file_linked_from_two_generations_once(tmp_path):
    (tmp_path / "gen-1").mkdir()
    (tmp_path / "gen-2").mkdir()
    (tmp_path / "gen-1" / "seg.npy").write_bytes(b"x" * 1000)
    (tmp_path / "gen-2" / "seg.npy").hardlink_to(tmp_path / "gen-1" / "seg.npy")
    (tmp_path / "gen-2" / "new.npy").write_bytes(b"y" * 24)
    assert du(tmp_path) == 1024


def test_the_workers_memory_is_given_as_the_target_reads_it():
    """The 1 GB target is read on a worker's own memory; its resident size also counts the
    memory-mapped index's shared pages, and is given beside it, never alone when the own
    figure was measured."""
    assert worker_memory({"worker_peak_private_mb": [415, 405], "worker_peak_rss_mb": [2622, 2611]}) == (
        "[415, 405] MB own ([2622, 2611] MB resident, with the index's shared pages)")
    assert worker_memory({"worker_peak_rss_mb": [314, 295]}) == "[314, 295] MB resident"
