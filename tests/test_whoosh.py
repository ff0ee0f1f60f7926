"""What is particular to the Whoosh backend (issue 15: as fast as Whoosh allows); the contract
suite covers the rest. Every count here is also compared with the plain scan (the memory
backend) over the same passages."""
from dataclasses import replace

import pytest

from search.backends import SearchQuery, get_search_backend
from search.documents import LAYER_GROUPS, documents_for_juan

QUERIES = ["鵠", "射", "之", "主人", "卿大夫", "戒射宰戒", "之之", "射?獲", "侯 鵠", "大射 OR 鄉射", "射 -主人",
           "司射 NEAR/5 弓", "大射 射之"]


@pytest.fixture
def whoosh(settings, tmp_path):
    settings.SEARCH_BACKENDS = {
        "w": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": tmp_path / "ix"},
        "w2": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": tmp_path / "ix2", "WRITER_PROCS": 2},
    }
    return get_search_backend("w")


def _scan(documents):
    from search.backends.memory import MemoryBackend

    ref = MemoryBackend("reference", {"NAME": f"whoosh-ref-{id(documents)}"})
    ref.rebuild(documents)
    return ref


def _hits(results):
    return [(h.doc_id, h.start, h.end, h.piece_position, h.before, h.match, h.after, h.passage_hits)
            for h in results.hits]


def _same_as_scan(backend, ref, q, **options):
    got, want = backend.search(SearchQuery(q, **options)), ref.search(SearchQuery(q, **options))
    assert (got.count, got.passages) == (want.count, want.passages), q
    assert _hits(got) == _hits(want), q
    assert got.by_juan() == want.by_juan() and got.by_section() == want.by_section(), q
    return got


def test_how_each_query_is_counted(whoosh, seed_juan):
    """Single terms and phrases are counted from the postings (weights, pair positions);
    only wildcards, NEAR and terms whose hits could overlap read the stored text."""
    docs = documents_for_juan(seed_juan)
    whoosh.rebuild(docs)
    ref = _scan(docs)
    counted = {q: _same_as_scan(whoosh, ref, q, exact=True).counted_from for q in QUERIES}
    assert counted == {"鵠": "postings", "射": "postings", "之": "postings", "主人": "postings", "卿大夫": "postings",
                       "戒射宰戒": "postings", "之之": "postings", "射?獲": "text", "侯 鵠": "postings",
                       "大射 OR 鄉射": "postings", "射 -主人": "postings", "司射 NEAR/5 弓": "text",
                       "大射 射之": "text"}
    assert [whoosh.search(SearchQuery(q, exact=True)).count for q in ("鵠", "卿大夫", "戒射宰戒")] == [21, 35, 1]


def test_a_count_alone_comes_from_term_statistics(whoosh, seed_juan):
    docs = documents_for_juan(seed_juan)
    whoosh.rebuild(docs)
    ref = _scan(docs)
    for q in ("鵠", "射", "主人", "鼓"):
        for exact in (False, True):
            result = whoosh.search(SearchQuery(q, exact=exact))
            assert result.count == ref.search(SearchQuery(q, exact=exact)).count, (q, exact)
            assert result.counted_from == "statistics", (q, exact)
    # a filter, a phrase that can overlap itself, several terms: counted from the postings
    for query in (SearchQuery("鵠", layers=LAYER_GROUPS["classic"]), SearchQuery("之之"), SearchQuery("侯 鵠")):
        result = whoosh.search(query)
        assert result.count == ref.search(query).count
        assert result.counted_from == "postings"


def test_term_statistics_leave_out_deleted_passages_and_older_juan_versions(whoosh, seed_juan):
    """A replaced juan's passages are deleted in Whoosh's segment, and an older version kept
    beside a newer one is masked: the totals from term statistics count neither."""
    docs = documents_for_juan(seed_juan)
    old = [replace(d, juan_id=seed_juan.pk + 1000, doc_id="old" + d.doc_id, juan_version=seed_juan.version - 1,
                   text=d.text + "鵠") for d in docs]
    whoosh.rebuild(old + docs)  # two versions of one juan: the older (with 424 more 鵠) is masked
    ref = _scan(docs)
    result = whoosh.search(SearchQuery("鵠"))
    assert (result.count, result.counted_from) == (21, "statistics")
    _same_as_scan(whoosh, ref, "鵠")
    halved = [replace(d, text=d.text.replace("鵠", "")) if d.section_position <= 10 else d for d in docs]
    whoosh.replace_juans({seed_juan.pk}, halved)  # deletes in place, adds a segment
    ref = _scan(halved)
    result = whoosh.search(SearchQuery("鵠"))
    assert (result.count, result.counted_from) == (ref.search(SearchQuery("鵠")).count, "statistics")
    assert 0 < result.count < 21
    for q in QUERIES:
        _same_as_scan(whoosh, ref, q)
        _same_as_scan(whoosh, ref, q, sort="relevance")


def test_the_multiprocess_writer_builds_the_same_index(whoosh, seed_juan):
    docs = documents_for_juan(seed_juan)
    two = get_search_backend("w2")
    assert two.rebuild(docs) == whoosh.rebuild(docs) == 424
    with two._searcher() as searcher:
        assert len(searcher.reader().leaf_readers()) == 2  # one segment per process
    for q in QUERIES:
        assert _hits(two.search(SearchQuery(q))) == _hits(whoosh.search(SearchQuery(q))), q
        assert two.search(SearchQuery(q)).by_juan() == whoosh.search(SearchQuery(q)).by_juan(), q


def test_an_index_of_the_older_format_asks_for_a_rebuild(whoosh, seed_juan):
    from whoosh import index as whoosh_index
    from whoosh.fields import ID, NUMERIC, STORED, Schema

    from search.backends.base import SearchError

    whoosh.rebuild([])
    old = whoosh_index.create_in(str(whoosh.current_link.resolve()),
                                 Schema(doc_id=ID(stored=True), juan_id=NUMERIC(stored=True), text=STORED()))
    old.writer().commit()
    with pytest.raises(SearchError, match=r"older version of the Whoosh backend.*rebuild_index"):
        whoosh.search(SearchQuery("鵠"))
    assert whoosh.rebuild(documents_for_juan(seed_juan)) == 424
    assert whoosh.search(SearchQuery("鵠")).count == 21


def test_a_juan_replaced_while_a_rebuild_reads_is_replaced(whoosh, seed_juan):
    """The rebuild's catch-up (a juan imported again while the rebuild read the database)
    replaces the juan: Whoosh deletes only committed documents, so the older version must not
    stay beside the newer one (it did: 鵠 counted 42)."""
    docs = documents_for_juan(seed_juan)
    newer = [replace(d, juan_version=d.juan_version + 1, text=d.text + "新") for d in docs]
    rounds = []

    def catch_up(indexed):
        rounds.append(dict(indexed))
        return (set(), newer, {}) if len(rounds) == 1 else (set(), [], {})

    assert whoosh.rebuild(docs, catch_up=catch_up) == 424
    ref = _scan(newer)
    assert [whoosh.search(SearchQuery(q)).count for q in ("鵠", "新")] == [21, ref.search(SearchQuery("新")).count]
    assert ref.search(SearchQuery("新")).count >= 424
    assert whoosh.indexed_juans() == {seed_juan.pk: (seed_juan.version + 1, seed_juan.edition_id, 10)}
    for q in ("鵠", "新", "主人"):
        _same_as_scan(whoosh, ref, q)
