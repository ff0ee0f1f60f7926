"""What is particular to the positional backend (the contract suite covers the rest)."""
import gc
import json
import os
from dataclasses import replace

import numpy as np

import pytest

from search.backends import SearchQuery, get_search_backend
from search.backends.memory import MemoryBackend
from search.backends.positional import IndexFormatError
from search.backends.positional.format import ARRAYS, NEIGHBOUR_ARRAYS
from search.documents import documents_for_juan


@pytest.fixture
def two_backends(settings, tmp_path, seed_juan):
    path = tmp_path / "ix"
    settings.SEARCH_BACKENDS = {
        "positional": {"BACKEND": "search.backends.positional.PositionalIndexBackend", "PATH": path},
        "whoosh": {"BACKEND": "search.backends.whoosh.WhooshBackend", "PATH": path},
    }
    return get_search_backend("positional"), get_search_backend("whoosh")


def test_an_index_of_another_backend_asks_for_a_rebuild(two_backends, seed_juan):
    positional, whoosh = two_backends
    whoosh.rebuild(documents_for_juan(seed_juan))
    with pytest.raises(IndexFormatError, match=r"not written by the positional backend.*rebuild_index"):
        positional.search(SearchQuery("鵠"))
    assert positional.rebuild(documents_for_juan(seed_juan)) == 424
    assert positional.search(SearchQuery("鵠")).count == 21


def test_index_files(two_backends, seed_juan):
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    base_files = sorted(
        [f"{name}.npy" for name in ("raw", "exact", "folded", "order", "chars", "char_starts", "pid", "rank",
                                    "offset", "end_offset", "gap", "starts", "unit_starts", "layer", "work_id",
                                    "juan_id", "juan_number", "chapter_id", "juan_index", "section_index",
                                    "section_first_rank", "char_exact", "exact_exceptions",
                                    "exception_starts", "char_passages", "usual_passages", "place_fields",
                                    "place_strings", "place_string_starts", "place_pieces", "place_piece_firsts",
                                    "next_key", "prev_key")]
        + ["passages.json", "juans.json"])
    assert sorted(p.name for p in gen.iterdir()) == sorted(base_files + ["MANIFEST.json"])
    assert positional.version() == gen.name
    # An incremental write links the base's files into a new generation and adds a segment
    # (the base is not small beside it: 424 passages against 5), and lists what it replaces.
    docs = documents_for_juan(seed_juan)
    positional.replace_juans(set(), _juan_copy(docs, 9001, 2))  # the base is small beside it: merged
    gen = positional.current_link.resolve()
    assert sorted(p.name for p in gen.iterdir()) == sorted(base_files + ["MANIFEST.json"])
    positional.replace_juans({9001}, _juan_copy(docs[:5], 77, 99))
    new = positional.current_link.resolve()
    assert new != gen and sorted(p.name for p in new.iterdir()) == sorted(base_files + ["seg-000001",
                                                                                      "deleted.npy", "MANIFEST.json"])
    assert all((new / f).stat().st_ino == (gen / f).stat().st_ino for f in base_files)
    assert sorted(p.name for p in (new / "seg-000001").iterdir()) == base_files
    assert np.load(new / "deleted.npy").tolist() == [9001]
    assert positional.document_count() == 424 + 5
    # The next write drops the segment it empties (nothing is linked from it).
    positional.replace_juans({77}, _juan_copy(docs[5:7], 78, 98))
    newer = positional.current_link.resolve()
    assert sorted(p.name for p in newer.iterdir()) == sorted(base_files + ["seg-000002", "deleted.npy",
                                                                            "MANIFEST.json"])
    assert positional.document_count() == 424 + 2


def _juan_copy(docs, juan_id, number, extra=""):
    return [replace(d, juan_id=juan_id, juan_number=number, juan_label=f"卷{number}", doc_id=f"{juan_id}{d.doc_id}",
                    text=d.text + extra) for d in docs]


@pytest.mark.parametrize("sort", ["text", "relevance", "after", "before"])
def test_segments_answer_as_one_index(settings, tmp_path, seed_juan, sort, monkeypatch):
    """Juans written after the base (more segments, and base passages deleted) sort,
    count and distribute exactly as a plain scan of the same passages."""
    from search.backends import positional
    from search.backends.memory import MemoryBackend

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 45_000)  # a juan is 15,163 characters: no segment merges
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    seed = documents_for_juan(seed_juan)
    juans = {n: _juan_copy(seed, 9000 + n, n) for n in (9, 11, 13)}
    backend.rebuild([d for docs in juans.values() for d in docs])
    juans[11] = _juan_copy(seed, 9111, 11, "射鵠")  # replaces juan 11 (another id, same work and number)
    backend.replace_juans(set(), juans[11])
    juans[12] = _juan_copy(seed, 9012, 12)  # between base juans
    juans[5] = _juan_copy(seed, 9005, 5)  # before all of them
    backend.replace_juans(set(), juans[12] + juans[5])
    backend.remove_juan(9013)
    del juans[13]
    corpus = backend._corpus()
    assert corpus.names == ["", "seg-000001", "seg-000002"] and corpus.deleted == [{9011, 9013}, set(), set()]
    assert backend.indexed_juans() == {9000 + n if n != 11 else 9111: (seed_juan.version, seed_juan.work_id, n)
                                       for n in (5, 9, 11, 12)}
    ref = MemoryBackend("ref", {"NAME": f"ref-{tmp_path.name}"})
    ref.rebuild([d for docs in juans.values() for d in docs])

    def same_answers():
        for q in ["鵠", "射", "之", "主人", "大射 OR 鄉射", "射 -主人", "侯 鵠", "射?獲", "射鵠", "射 NEAR/3 鵠"]:
            query = SearchQuery(q, sort=sort)
            got, want = backend.search(query), ref.search(query)
            assert (got.count, got.passages) == (want.count, want.passages), q
            key = lambda h: (h.juan_number, h.doc_id.split(":", 1)[-1], h.start, h.end, h.piece_position, h.before,
                             h.match, h.after, h.passage_hits)
            assert [key(h) for h in got.hits] == [key(h) for h in want.hits], q
            assert [key(h) for h in got.hits[5:25]] == [key(h) for h in want.hits[5:25]], q
            assert got.by_juan() == want.by_juan() and got.by_section() == want.by_section(), q
        assert [r["juan"] for r in backend.search(SearchQuery("鵠")).by_juan()] == [5, 9, 11, 12]

    same_answers()
    # A rebuild streams: segments of about SEGMENT_CHARS (a juan whole in one), the same answers.
    assert backend.rebuild([d for docs in juans.values() for d in docs]) == 4 * 424
    assert backend._corpus().names == ["", "seg-000001"]
    assert [len(s) for s in backend._corpus().segments] == [3 * 424, 424]  # juans 9, 11, 12; then 5
    same_answers()
    assert backend.search(SearchQuery("射鵠")).count == ref.search(SearchQuery("射鵠")).count == 424


def test_small_segments_are_merged_and_no_write_builds_more_than_segment_chars(settings, tmp_path, seed_juan,
                                                                                monkeypatch):
    from search.backends import positional

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 32_000)  # a copy of the seed juan: 15,163 characters
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    seed = documents_for_juan(seed_juan)
    sizes = lambda: [int((s.lengths() + 1).sum()) for s in backend._corpus().segments]
    backend.rebuild(_juan_copy(seed, 9001, 1))
    backend.replace_juans(set(), _juan_copy(seed, 9002, 2))  # the base is small beside it: one segment
    assert backend._corpus().names == [""] and sizes() == [2 * 15_163]
    backend.replace_juans(set(), _juan_copy(seed, 9003, 3))  # 3 × 15,163 > 32,000: a new segment
    backend.replace_juans(set(), _juan_copy(seed, 9004, 4))  # merged with it: 30,326
    backend.replace_juans(set(), _juan_copy(seed, 9005, 5))  # a third segment
    assert backend._corpus().names == ["", "seg-000002", "seg-000003"]
    assert sizes() == [30_326, 30_326, 15_163]
    backend.replace_juans({9004}, [])  # a deletion writes no segment
    corpus = backend._corpus()
    assert corpus.names == ["", "seg-000002", "seg-000003"] and corpus.deleted == [set(), {9004}, set()]
    # The emptied segment and the small one after it are taken into the new segment.
    backend.replace_juans({9003}, _juan_copy(seed, 9006, 6))
    assert backend._corpus().names == ["", "seg-000004"] and sizes() == [30_326, 30_326]
    assert backend.search(SearchQuery("鵠")).count == 84 and backend.document_count() == 4 * 424
    assert [r["juan"] for r in backend.search(SearchQuery("鵠")).by_juan()] == [1, 2, 5, 6]


def test_api_page_links_survive_a_raw_utf8_query(client, seed_backend):
    """curl -g sends 之 as raw UTF-8; WSGI hands QUERY_STRING over as Latin-1."""
    raw = "q=之&page_size=2".encode("utf-8").decode("latin-1")
    body = json.loads(client.get("/api/search/", QUERY_STRING=raw).content)
    assert body["count"] == 366
    assert body["next"] == "http://testserver/api/search/?page=2&page_size=2&q=%E4%B9%8B"
    second = json.loads(client.get(body["next"]).content)
    assert second["previous"] == "http://testserver/api/search/?page_size=2&q=%E4%B9%8B"
    assert [r["match"] for r in second["results"]] == ["之", "之"]


def test_a_dangling_current_link_is_an_error_not_an_empty_index(two_backends, seed_juan):
    import os

    from search.backends.generations import IndexLinkError

    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    real = positional.current_link.resolve()
    os.symlink("gen-TYPO", positional.path / "current.new")
    os.replace(positional.path / "current.new", positional.current_link)
    with pytest.raises(IndexLinkError, match=r"points to gen-TYPO, which does not exist"):
        positional.search(SearchQuery("鵠"))
    assert real.is_dir()  # nothing was deleted
    os.symlink(real.name, positional.path / "current.new")
    os.replace(positional.path / "current.new", positional.current_link)
    assert positional.search(SearchQuery("鵠")).count == 21


def test_a_streamed_rebuild_catches_up_in_its_own_segments(settings, tmp_path, seed_juan, monkeypatch):
    """What changed in the database while a rebuild read it is deleted from the segments
    built so far or added as one more segment, before the generation goes live."""
    from search.backends import positional

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 10_000)  # one juan (15,163) a segment
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    seed = documents_for_juan(seed_juan)
    calls = []

    def catch_up(indexed):
        calls.append(sorted(indexed))
        if len(calls) == 1:  # juan 2 was deleted, juan 4 imported meanwhile
            return {9002}, _juan_copy(seed, 9004, 4), {}
        return set(), [], {}

    count = backend.rebuild(_juan_copy(seed, 9001, 1) + _juan_copy(seed, 9002, 2) + _juan_copy(seed, 9003, 3),
                            catch_up=catch_up)
    assert count == 3 * 424 and calls == [[9001, 9002, 9003], [9001, 9003, 9004]]
    corpus = backend._corpus()
    assert corpus.names == ["", "seg-000001", "seg-000002", "seg-000003"]
    assert corpus.deleted == [set(), {9002}, set(), set()]
    assert sorted(backend.indexed_juans()) == [9001, 9003, 9004] and backend.document_count() == 3 * 424
    assert [(r["juan"], r["count"]) for r in backend.search(SearchQuery("鵠")).by_juan()] == [(1, 21), (3, 21),
                                                                                             (4, 21)]


def _multi_segment_index(settings, tmp_path, seed, monkeypatch):
    """An index of four copies of the seed juan (numbers 5, 9, 11, 12) in three segments,
    after incremental writes (juan 11 replaced, juan 13 removed: deletion lists), and a
    plain scan of the same passages."""
    from search.backends import positional
    from search.backends.memory import MemoryBackend

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 45_000)  # a juan is 15,163 characters: no segment merges
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    juans = {n: _juan_copy(seed, 9000 + n, n) for n in (9, 11, 13)}
    backend.rebuild([d for docs in juans.values() for d in docs])
    juans[11] = _juan_copy(seed, 9111, 11, "射鵠")
    backend.replace_juans(set(), juans[11])
    juans[12], juans[5] = _juan_copy(seed, 9012, 12), _juan_copy(seed, 9005, 5)
    backend.replace_juans(set(), juans[12] + juans[5])
    backend.remove_juan(9013)
    del juans[13]
    assert backend._corpus().names == ["", "seg-000001", "seg-000002"]
    ref = MemoryBackend("ref", {"NAME": f"ref-{tmp_path.name}"})
    ref.rebuild([d for docs in juans.values() for d in docs])
    return backend, ref


def test_a_page_reads_its_passages_segment_by_segment(settings, tmp_path, seed_juan, monkeypatch):
    """``Corpus.read_passages``: the places and stored texts of a page's passages (ascending
    numbers over several segments), each segment's read together, as one at a time."""
    backend, _ = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    corpus = backend._corpus()
    firsts = corpus.passage_firsts
    assert firsts == [0, 3 * 424, 4 * 424] and len(corpus) == 6 * 424  # juans 9 11 13 | 11 | 5 12 (13 deleted)
    ps = [0, 1, firsts[1] - 1, firsts[1], firsts[2] + 3, len(corpus) - 1]
    places, texts = corpus.read_passages(ps)
    assert places == [corpus.places[p] for p in ps] and texts == [corpus.text(p) for p in ps]
    assert [place[6] for place in places] == [9, 9, 13, 11, 5, 12]  # juan numbers
    assert corpus.read_passages([]) == ([], [])


def _same(got, want, label, pages=((0, 20), (20, 40), (40, 60), (1000, 1020))):
    """Counts, passages, every hit, pages cut from the middle (the text sort's few-candidates
    path for the first pages), passage hit counts and both distributions, equal."""
    key = lambda h: (h.juan_number, h.doc_id.split(":", 1)[-1], h.start, h.end, h.piece_position, h.before,
                     h.match, h.after, h.passage_hits)
    assert got.layer_counts() == want.layer_counts(), label  # before the hits: their passages not yet looked up
    assert (got.count, got.passages) == (want.count, want.passages), label
    every = [key(h) for h in want.hits]
    for lo, hi in pages:  # before the whole list: these pages are cut by the few-candidates path
        assert [key(h) for h in got.hits[lo:hi]] == every[lo:hi], (label, lo)
    assert [key(h) for h in got.hits] == every, label
    assert got.by_juan() == want.by_juan() and got.by_section() == want.by_section(), label


@pytest.mark.parametrize("sort", ["text", "relevance"])
def test_filters_pages_and_distributions_on_segments(settings, tmp_path, seed_juan, sort, monkeypatch):
    """The filters (applied to each hit's passage, or through one mask when a query has
    more hits than half the passages), the first pages of the text order (found among a
    few candidates per segment), relevance, and the distributions by juan and section
    (counted from each juan's and section's first position) are those of a plain scan on
    an index of several segments with deleted juans."""
    seed = documents_for_juan(seed_juan)
    backend, ref = _multi_segment_index(settings, tmp_path, seed, monkeypatch)
    work = seed_juan.work_id
    chapter = seed[0].chapter_id
    filters = [{}, {"work_id": work}, {"work_id": work + 1}, {"juan_number": 11}, {"chapter_id": chapter},
               {"juan_ids": frozenset({9012, 9005})}, {"edition_ids": (work,)}, {"edition_ids": ()},
               {"layers": frozenset({"classic"})}, {"layers": frozenset({"commentary", "subcommentary"})},
               {"layers": frozenset({"classic"}), "juan_number": 12}]
    for q in ["之", "鵠", "射鵠", "主人", "大射 OR 鄉射", "射 -主人", "侯 鵠", "射 NEAR/3 鵠"]:
        for extra in filters:
            query = SearchQuery(q, sort=sort, **extra)
            _same(backend.search(query), ref.search(query), (q, extra))
    # 之 has 4 × 366 hits in 4 × 424 passages: more than half, so its filters go through the mask.
    assert backend.search(SearchQuery("之")).count == 4 * 366
    assert backend.search(SearchQuery("之", juan_ids=frozenset({9012, 9005}))).count == 2 * 366
    assert [r["juan"] for r in backend.search(SearchQuery("之", sort=sort)).by_juan()] == [5, 9, 11, 12]
    assert backend.search(SearchQuery("鵠", edition_ids=())).count == 0
    # Without filters, the superseded juan 11 and the removed 13 (together in the base) are
    # one position range whose hits are cut out by binary searches (Corpus.dead_ranges).
    corpus = backend._corpus()
    lo, hi = corpus.dead_ranges
    inside = (corpus.unit_starts >= lo[0]) & (corpus.unit_starts < hi[0])
    assert len(lo) == 1 and inside.tolist() == (~corpus.live).tolist() and int(inside.sum()) == 2 * 424
    # A character without filters: its passages from each segment's tables (format 7), less
    # those of the dead range that hold it; anything else from its hits' passages.
    for q, extra, way in [("之", {}, "tables"), ("鵠", {}, "tables"), ("之", {"juan_number": 11}, "hits"),
                          ("射鵠", {}, "hits"), ("鵠", {"layers": frozenset({"classic"})}, "hits")]:
        got, want = backend.search(SearchQuery(q, **extra)), ref.search(SearchQuery(q, **extra))
        assert (got.passages, got.passages_from) == (want.passages, way), (q, extra)
    assert (backend.search(SearchQuery("之")).passages, ref.search(SearchQuery("之")).passages) == (4 * 181, 4 * 181)
    # 鵠: 18 passages in each juan, and every passage of juan 11 (射鵠 added to each of its 424).
    assert (backend.search(SearchQuery("鵠")).passages, ref.search(SearchQuery("鵠")).passages) == (424 + 18, 424 + 18)


def test_exact_forms_of_a_folded_character(settings, tmp_path, seed_juan, monkeypatch):
    """The exact mode takes a character's positions from the segment's usual form of each
    folded character and its exceptions (``_exact_tables``): in the seed juan 鼔 is the
    usual form of 鼓 (17 of 28 positions), 鼓 one of 11 exceptions; 聯 and 聨 tie (one
    each: the smaller code is the usual form)."""
    seed = documents_for_juan(seed_juan)
    backend, ref = _multi_segment_index(settings, tmp_path, seed, monkeypatch)
    base = backend._corpus().base
    i = base.char_index[ord("鼓")]
    assert (chr(base.char_exact[i]), int(base.exception_starts[i + 1] - base.exception_starts[i])) == ("鼔", 3 * 11)
    i = base.char_index[ord("聯")]
    assert chr(base.char_exact[i]) == "聨" and ord("聨") < ord("聯")
    queries = ["鼓", "鼔", "鄉", "郷", "決", "决", "並", "竝", "聯", "聨", "視", "眂", "教", "敎", "蓋", "盖",
               "鄉射", "郷射", "擊鼓", "鼓?", "?鼔"]
    counts = {}
    for q in queries:
        for exact in (True, False):
            query = SearchQuery(q, exact=exact)
            got, want = backend.search(query), ref.search(query)
            _same(got, want, (q, exact))
            counts[(q, exact)] = got.count
    assert (counts[("鼓", True)], counts[("鼔", True)], counts[("鼓", False)]) == (4 * 11, 4 * 17, 4 * 28)
    # One character: passages from the tables (the usual form, another form through its exceptions).
    ways = {}
    for q in ("鼓", "鼔", "鄉射"):
        for exact in (True, False):
            got = backend.search(SearchQuery(q, exact=exact))
            assert got.passages == ref.search(SearchQuery(q, exact=exact)).passages
            ways[(q, exact)] = got.passages_from
    assert set(ways.values()) == {"tables", "hits"} and ways[("鼓", True)] == ways[("鼔", False)] == "tables"


def test_warm_loads_the_generation(settings, tmp_path, seed_juan, monkeypatch):
    """``warm()`` (gunicorn's post_worker_init) loads the current generation, every segment's
    places mapped with it: the first search opens no file."""
    backend, _ = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    backend._loaded.clear()
    backend.warm()
    corpus = backend._corpus()
    assert list(backend._loaded.values())[0] is corpus
    assert [len(s.places) for s in corpus.segments] == [len(s) for s in corpus.segments] == [3 * 424, 424, 2 * 424]


class _Planted:
    """A pickle that would leave a file behind if anything unpickled it."""

    def __init__(self, target):
        self.target = str(target)

    def __reduce__(self):
        return (open, (self.target, "w"))


def test_an_index_of_an_older_format_is_refused_never_unpickled(two_backends, seed_juan, tmp_path):
    """Formats up to 7 kept their tables as pickles: such an index is refused with what to
    run, and no pickle in it is read (issue 29)."""
    import pickle

    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    planted = tmp_path / "planted"
    for name in ("juans", "passages"):
        (gen / f"{name}.json").unlink()
        (gen / f"{name}.pkl").write_bytes(pickle.dumps({"format": 7, "places": _Planted(planted)}))
    positional._loaded.clear()
    with pytest.raises(IndexFormatError) as refused:
        positional.search(SearchQuery("鵠"))
    assert str(refused.value) == (
        f"the search index at {gen} was not written by the positional backend of this version but by an older "
        f"one (format 7 or older, whose tables are pickles, which this version does not read); run `python "
        f"manage.py rebuild_index` to build it again")
    assert not planted.exists()
    assert positional.rebuild(documents_for_juan(seed_juan)) == 424
    assert positional.search(SearchQuery("鵠")).count == 21


def test_a_table_of_another_format_is_refused(two_backends, seed_juan):
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    table = json.loads((gen / "juans.json").read_text(encoding="utf-8"))
    assert table["format"] == 11 and table["units"] == 3
    assert set(table) == {"format", "units", "juans", "sections", "juan_keys", "scripts"}
    assert table["scripts"] == {}  # the seed's edition is traditional: no juan listed
    d = documents_for_juan(seed_juan)[0]
    assert table["juans"] == {str(seed_juan.id): [d.juan_version, d.work_id, 10]} and d.juan_number == 10
    # a juan's key leads with its work's place in the catalogue (the seed is unclassified: after every class)
    # no Kanripo ID: after the Kanripo works of its class (catalogue.shelf_key, decision 0043)
    assert table["juan_keys"] == [[f"1\t\uffff\t禮書綱目\t{seed_juan.work_id:012d}", "禮書綱目", d.work_id, 10]]
    assert d.catalogue_key == table["juan_keys"][0][0]
    (gen / "juans.json").write_text(json.dumps({**table, "juan_keys": [[d.work_id, 10]]}), encoding="utf-8")
    positional._loaded.clear()
    with pytest.raises(IndexFormatError, match=r"juan_keys must hold keys of 3 or 4 fields, not \(\d+, 10\)"):
        positional.search(SearchQuery("鵠")).hits[:1]  # a hit names its work's catalogue key
    (gen / "juans.json").write_text(json.dumps({**table, "format": 7}), encoding="utf-8")
    positional._loaded.clear()
    with pytest.raises(IndexFormatError, match=r"juans\.json has format 7, this version reads 8, 9, 10 and 11; run "
                                               r"`python manage\.py rebuild_index`"):
        positional.search(SearchQuery("鵠"))
    (gen / "juans.json").write_text(json.dumps({**table, "scripts": {str(seed_juan.id): "latin"}}), encoding="utf-8")
    with pytest.raises(IndexFormatError, match=r"scripts must map juan ids to scripts"):
        positional.search(SearchQuery("鵠"))
    (gen / "juans.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexFormatError, match=r"juans\.json is not a table of this index format"):
        positional.search(SearchQuery("鵠"))


def test_an_index_cut_by_an_older_rule_of_units_is_refused(two_backends, seed_juan):
    """An index whose text was cut into units before a lost ``?`` and a description ``[門@里]``
    were one unit each (``characters.units.UNITS``: a segment's ``units``, a Whoosh juan
    marker's ``unit_rule``) would find phrases across them: both engines refuse it and say what
    to run; ``rebuild_index`` (a rebuild) makes it readable again."""
    from search.backends import SearchError

    positional, whoosh = two_backends
    docs = documents_for_juan(seed_juan)
    positional.rebuild(docs)
    gen = positional.current_link.resolve()
    table = json.loads((gen / "juans.json").read_text(encoding="utf-8"))
    (gen / "juans.json").write_text(json.dumps({k: v for k, v in table.items() if k != "units"}), encoding="utf-8")
    positional._loaded.clear()
    with pytest.raises(IndexFormatError, match=r"an older rule of what one character is \(rule 1, this version "
                                               r"reads 3: a lost character `\?` and a description such as `\[門@里\]` "
                                               r"are one character each; a private-use character of the text is "
                                               r"searched apart .*\); run `python manage\.py rebuild_index`"):
        positional.search(SearchQuery("鵠"))
    positional.rebuild(docs)
    assert positional.search(SearchQuery("鵠")).count == 21

    whoosh.rebuild(docs)
    from search.backends.whoosh import schema as whoosh_schema
    from whoosh import index as whoosh_index
    ix = whoosh_index.open_dir(str(whoosh.current_link.resolve()))
    with ix.writer() as writer:   # the juan's marker as an index of rule 1 wrote it: no ``unit_rule``
        marker = whoosh_schema._marker(seed_juan.id, (docs[0].juan_version, docs[0].work_id, 10))
        writer.update_document(**{k: v for k, v in marker.items() if k != "unit_rule"})
    with pytest.raises(SearchError, match=r"older rule of what one character is .*run `python manage\.py "
                                          r"rebuild_index`"):
        whoosh.search(SearchQuery("鵠"))
    whoosh.rebuild(docs)
    assert whoosh.search(SearchQuery("鵠")).count == 21


@pytest.mark.parametrize("sort", ["text", "after"])
def test_reading_every_hit_keeps_only_the_passages_of_the_batch_being_read(seed_backend, sort, monkeypatch):
    """A hit list reads every hit in turn (api/hitlists.py): the passages are kept a batch of
    hits at a time (100 here, 1,000 in use), not for the results' lifetime, and the hits are
    those the pages read."""
    from search.backends.positional import hits as hit_arrays

    monkeypatch.setattr(hit_arrays, "READ_BATCH", 100)
    results = seed_backend.search(SearchQuery("之", sort=sort))
    key = lambda h: (h.doc_id, h.start, h.end, h.before, h.match, h.after)  # noqa: E731
    seen = [key(h) for h in results.hits]
    assert len(seen) == results.count == 366 and len({k[0] for k in seen}) == results.passages == 181
    assert results.hits._passages == {}  # nothing kept by the results after the whole list was read
    pages = [key(h) for at in range(0, 366, 20) for h in results.hits[at:at + 20]]
    assert pages == seen
    assert len(results.hits._passages) == 181  # what pages read is kept, as before


def test_an_edition_filter_cuts_hits_by_position_ranges(settings, tmp_path, seed_juan, monkeypatch):
    """A query whose only filter is ``edition_ids`` (the facet filters) keeps the hits of the
    position ranges its editions' passages fill (``_edition_ranges``), not a test of each
    hit's passage: the same hits, pages, passages and distributions as a plain scan, on an
    index of several segments with superseded and removed juans and two editions whose juans
    alternate, with the fast path and without it."""
    from search.backends.positional import backend as positional_backend, passage_filters

    seed = documents_for_juan(seed_juan)
    backend, ref = _multi_segment_index(settings, tmp_path, seed, monkeypatch)
    other = seed_juan.work_id + 1
    # juan 12 and a new juan 14 read in another edition: 5, 9, 11, 15 in the first, 12 and 14 in the other
    moved = [replace(d, work_id=other) for d in _juan_copy(seed, 9012, 12) + _juan_copy(seed, 9014, 14, "鵠")]
    backend.replace_juans({9012}, moved)
    ref.replace_juans({9012}, moved)
    after = _juan_copy(seed, 9015, 15, "射鵠")  # and juan 15 in the first again, in a later segment
    backend.replace_juans(set(), after)
    ref.replace_juans(set(), after)
    corpus = backend._corpus()
    runs = corpus.group_runs("work_id")[1].tolist()
    assert sorted(set(runs)) == [seed_juan.work_id, other] and len(runs) > 2   # the editions alternate
    for q in ["之", "鵠", "射鵠", "主人", "大射 OR 鄉射", "射 -主人", "侯 鵠", "射 NEAR/3 鵠"]:
        for editions in [(seed_juan.work_id,), (other,), (seed_juan.work_id, other), (other + 1,), ()]:
            query = SearchQuery(q, edition_ids=editions)
            ranges = passage_filters._edition_ranges(corpus, query)
            assert ranges is not None
            assert (ranges is passage_filters.EVERY_EDITION) == (len(editions) == 2)
            _same(backend.search(query), ref.search(query), (q, editions))
    # A filter that keeps every edition is none: a character's passages from the tables again.
    every = backend.search(SearchQuery("之", edition_ids=(seed_juan.work_id, other, other + 1)))
    assert (every.passages, every.passages_from) == (ref.search(SearchQuery("之")).passages, "tables")
    assert passage_filters._edition_ranges(corpus, every.query) is passage_filters.EVERY_EDITION
    monkeypatch.setattr(positional_backend, "_edition_ranges", lambda corpus, query: None)
    for q in ["之", "鵠", "射 -主人"]:
        query = SearchQuery(q, edition_ids=(other,))
        _same(backend.search(query), ref.search(query), (q, "per hit"))
    assert passage_filters._within(np.array([1, 5, 9, 12]), np.array([0, 9]), np.array([6, 10])).tolist() == [1, 5, 9]


def test_places_are_read_in_place_with_the_values_written(two_backends, seed_juan):
    """A segment's places are memory-mapped arrays (``places.PlaceTable``): each passage's
    place is the document's fields as written, numbers as ints and strings as str, made when
    asked for; the strings are kept once, sorted, and a name is found by a binary search."""
    from search.backends.positional.places import PLACE_FIELDS, PlaceTable

    positional, _ = two_backends
    docs = documents_for_juan(seed_juan)
    positional.rebuild(docs)
    segment = positional._corpus().segments[0]
    table = segment.places
    assert isinstance(table, PlaceTable) and len(table) == 424
    arrays = (table.fields, table.strings, table.string_starts, table.pieces, table.piece_firsts)
    assert [_mapped_from(a) for a in arrays] == [str(segment.path / f"{name}.npy") for name in
                                                 ("place_fields", "place_strings", "place_string_starts",
                                                  "place_pieces", "place_piece_firsts")]
    assert not any(a.flags.writeable for a in arrays)
    by_id = {d.doc_id: d for d in docs}
    for p in range(424):
        place = table[p]
        d = by_id[place[0]]
        want = tuple([list(x) for x in d.piece_starts] if f == "piece_starts" else getattr(d, f) for f in PLACE_FIELDS)
        assert place == want
    assert table[-1] == table[423]
    with pytest.raises(IndexError):
        table[424]
    assert table.rows(list(range(424))) == [table[p] for p in range(424)] and table.rows([]) == []
    assert [row[0] for row in table.rows([0, 423])] == [table[0][0], table[423][0]] == [docs[0].doc_id, docs[-1].doc_id]
    assert table.fields.shape == (424, 15) and table.pieces.shape == (sum(len(d.piece_starts) for d in docs), 2)
    strings = [table.string(i) for i in range(len(table.string_starts) - 1)]
    assert strings == sorted(set(strings))  # each once, in code-point order
    assert len(strings) == len({getattr(d, f) for d in docs for f in ("doc_id", "layer", "work_slug", "work_title",
                                                                           "juan_label", "chapter_title", "section_title",
                                                                           "layer_name", "commentator")})
    title = docs[0].work_title
    assert table.find(title) == strings.index(title) and table.find("no such name") == -1
    assert table.column("work_title").tolist() == [table.find(title)] * 424
    layers = table.column("layer").tolist()
    assert {table.string(i) for i in layers} == {d.layer for d in docs}
    assert sum(i == table.find("commentary") for i in layers) == sum(d.layer == "commentary" for d in docs) > 0


def test_a_commentator_filter_compares_a_column(two_backends, seed_juan, monkeypatch):
    """``Corpus.written_by``: one comparison of the commentator column per segment; a name no
    place holds matches nothing (not the places without one)."""
    positional, _ = two_backends
    docs = documents_for_juan(seed_juan)
    named = [replace(d, commentator="鄭玄" if i % 3 == 0 else "") for i, d in enumerate(docs)]
    positional.rebuild(named)
    corpus = positional._corpus()
    mask = corpus.written_by("鄭玄")
    assert mask.dtype == bool and int(mask.sum()) == len(range(0, 424, 3)) == 142
    assert sorted(corpus.places[p][0] for p in np.flatnonzero(mask).tolist()) == sorted(
        d.doc_id for d in named if d.commentator == "鄭玄")
    assert int(corpus.written_by("").sum()) == 424 - 142 and int(corpus.written_by("賈公彥").sum()) == 0
    assert positional.search(SearchQuery("之", commentator="鄭玄")).passages == len(
        {d.doc_id for d in named if d.commentator == "鄭玄" and "之" in d.text})
    # a typed name that stands for several people keeps the passages of any of them
    # (``SearchQuery.commentators``): 孔穎達 writes none here, "" the passages no one is named for
    assert positional.search(SearchQuery("之", commentator=("孔穎達", "鄭玄"))).passages == len(
        {d.doc_id for d in named if d.commentator == "鄭玄" and "之" in d.text}) == 53
    assert [positional.search(SearchQuery("之", commentator=names)).passages
            for names in (("", "鄭玄"), ("",), ("孔穎達",))] == [
        len({d.doc_id for d in docs if "之" in d.text}), len({d.doc_id for d in named if not d.commentator
                                                               and "之" in d.text}), 0]
    memory = MemoryBackend("written", {"NAME": "written"})
    memory.rebuild(named)
    assert memory.search(SearchQuery("之", commentator=("孔穎達", "鄭玄"))).passages == 53
    # ``layer_counts``: by runs of (juan, layer, commentator) groups, or by each hit's passage, as a plain scan
    from search.backends.positional import writers

    # runs of passages of one group: the commentator changes every third passage, the layer more often
    assert len(writers._layer_runs(corpus)[0]) == 331
    for hits_a_run in (0, 10**9):
        monkeypatch.setattr(writers, "HITS_A_RUN", hits_a_run)
        for q in ("之", "鵠", "射 OR 鄭", "無此字句"):
            got, want = positional.search(SearchQuery(q)).layer_counts(), memory.search(SearchQuery(q)).layer_counts()
            assert got == want, (q, hits_a_run)
            assert sum(got[1]) == memory.search(SearchQuery(q)).count


def test_an_index_of_format_8_is_read_as_before(settings, tmp_path, seed_juan, monkeypatch):
    """Format 8 kept the places as lists in passages.json (no place arrays): such segments are
    read as before (``format.JsonPlaces``), beside segments of format 9 that later writes add,
    with the same answers; ``rebuild_index`` writes format 9."""
    from search.backends.positional.format import JsonPlaces
    from search.backends.positional.places import PLACE_ARRAYS, PlaceTable

    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    gen = backend.current_link.resolve()
    corpus = backend._corpus()
    for segment, folder in zip(corpus.segments, [gen, gen / "seg-000001"]):  # the base and one more: format 8
        places = [list(segment.places[p]) for p in range(len(segment))]
        for place in places[::2]:
            place.pop()  # written before ``commentator``: one field fewer, read as ""
        juans = json.loads((folder / "juans.json").read_text(encoding="utf-8"))
        (folder / "juans.json").write_text(json.dumps({**juans, "format": 8}), encoding="utf-8")
        (folder / "passages.json").write_text(json.dumps({"format": 8, "places": places}), encoding="utf-8")
        for name in PLACE_ARRAYS:
            (folder / f"{name}.npy").unlink()
    backend._loaded.clear()
    corpus = backend._corpus()
    assert [type(s.places) for s in corpus.segments] == [JsonPlaces, JsonPlaces, PlaceTable]
    assert corpus.places[0] == backend._corpus().segments[0].places[0] and len(corpus.places[0]) == 16
    for q in ["之", "鵠", "射鵠", "大射 OR 鄉射"]:
        for sort in ("text", "after"):
            _same(backend.search(SearchQuery(q, sort=sort)), ref.search(SearchQuery(q, sort=sort)), (q, sort))
    assert int(corpus.written_by("").sum()) == len(corpus) == 6 * 424
    added = _juan_copy(documents_for_juan(seed_juan)[:5], 77, 99)
    backend.replace_juans(set(), added)  # a write beside them
    ref.replace_juans(set(), added)
    assert backend.document_count() == 4 * 424 + 5
    backend.rebuild(backend._documents(backend._corpus()))
    assert {type(s.places) for s in backend._corpus().segments} == {PlaceTable}
    _same(backend.search(SearchQuery("之")), ref.search(SearchQuery("之")), "rebuilt")


def test_an_index_of_format_7_or_a_table_of_format_12_is_refused(two_backends, seed_juan):
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    table = json.loads((gen / "juans.json").read_text(encoding="utf-8"))
    (gen / "juans.json").write_text(json.dumps({**table, "format": 12}), encoding="utf-8")
    positional._loaded.clear()
    with pytest.raises(IndexFormatError) as refused:
        positional.search(SearchQuery("鵠"))
    assert str(refused.value) == (f"the search index file {gen / 'juans.json'} has format 12, this version reads "
                                  f"8, 9, 10 and 11; run `python manage.py rebuild_index` to build it again")


def test_places_that_do_not_fit_their_segment_are_refused(two_backends, seed_juan):
    """Places whose arrays do not fit the segment are refused where they are read (a page of
    hits) and by the check ``pull_index`` runs before a swap, with what to run."""
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    gen = positional.current_link.resolve()
    np.save(gen / "place_piece_firsts.npy", np.zeros(3, dtype=np.int64))
    positional._loaded.clear()
    message = (r"the places of the search index at .* do not fit together \(passages 424, .*place_piece_firsts "
               r"\(3,\)\); run `python manage.py rebuild_index`")
    results = positional.search(SearchQuery("鵠"))
    assert results.count == 21  # the positions need no place
    with pytest.raises(IndexFormatError, match=message):
        results.hits[:1]
    with pytest.raises(IndexFormatError, match=message):
        positional.check_generation(gen)


@pytest.mark.parametrize("sort", ["after", "before"])
def test_a_kwic_page_is_sorted_from_the_hits_that_can_fill_it(settings, tmp_path, seed_juan, monkeypatch, sort):
    """A page of a KWIC sort sorts only the hits whose first ``FIRST_UNITS`` units of context
    can put them on it (``HitArray._context_candidates``): every page equals the same slice
    of the whole sort and of a plain scan's, on an index of three segments where each
    context has copies (four copies of the seed juan: ties go to text order) and many hits
    end a passage (their context is 0 from there on)."""
    from search.backends.positional.hits import FIRST_UNITS

    assert FIRST_UNITS == 3
    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    key = lambda h: (h.juan_number, h.doc_id.split(":", 1)[-1], h.start, h.end, h.before, h.match, h.after)  # noqa: E731
    sizes = {}
    for q in ("之", "射", "大射 OR 鄉射"):
        whole = [key(h) for h in backend.search(SearchQuery(q, sort=sort)).hits]  # every hit: the whole sort
        assert whole == [key(h) for h in ref.search(SearchQuery(q, sort=sort)).hits]
        sizes[q] = len(whole)
        for at in range(0, len(whole), 20):
            hits = backend.search(SearchQuery(q, sort=sort)).hits
            assert [key(h) for h in hits[at:at + 20]] == whole[at:at + 20], (q, at)
            # a page in the first eighth of the hits: sorted from candidates, no whole order made
            assert (hits._order is None) == ((at + 20) * 8 < len(whole)), (q, at)
        hits = backend.search(SearchQuery(q, sort=sort)).hits
        if 20 * 8 < len(whole):
            candidates = hits._context_candidates(20, sort == "after")
            assert 20 <= len(candidates) < len(whole) // 2
            assert bool((np.diff(candidates) > 0).all())  # ascending hit indexes
    assert sizes == {"之": 1464, "射": 1728, "大射 OR 鄉射": 132}  # as the plain scan counts them


def test_a_segment_looks_its_characters_up_as_queries_ask(two_backends, seed_juan):
    """A segment makes no dict of every character at load (52 MB over the 107 M library's
    segments): each character a query asks for is found by a binary search of ``chars`` and
    kept; one the segment lacks is kept as None."""
    positional, _ = two_backends
    positional.rebuild(documents_for_juan(seed_juan))
    segment = positional._corpus().segments[0]
    assert len(segment.char_index) == len(segment.char_spans) == 0
    assert positional.search(SearchQuery("大射")).count == 15  # as often as the seed file has it
    asked = {ord("大"), ord("射")}
    assert set(segment.char_spans) == asked and set(segment.char_index) == asked
    i = segment.char_index[ord("射")]
    assert int(segment.chars[i]) == ord("射")
    assert segment.char_spans[ord("射")] == (int(segment.char_starts[i]), int(segment.char_starts[i + 1]))
    start, stop = segment.char_spans[ord("射")]
    assert stop - start == segment.frequency([ord("射")]) == positional.search(SearchQuery("射")).count > 300
    assert segment.char_index.get(ord("鯨")) is None and segment.char_spans.get(ord("鯨"), "none") == "none"
    assert segment.char_index[0] == 0 and segment.char_index.get(0) == 0  # the separators: index 0, not "missing"
    usual, first, last = segment.exact_info[i]
    assert (usual, first, last) == (int(segment.char_exact[i]), int(segment.exception_starts[i]),
                                    int(segment.exception_starts[i + 1]))


def test_a_write_reads_the_segments_it_leaves_alone_at_most_once(settings, tmp_path, seed_juan, monkeypatch):
    """Segments never change once written: a process that has loaded the generation writes
    from it (no segment's table or array read again), the generation it swaps in reads only
    the segment the write made, a replacement likewise; a process that loads the result from
    nothing answers as the plain scan does."""
    from search.backends.positional import mapped, segment as segment_module

    seed = documents_for_juan(seed_juan)
    backend, ref = _multi_segment_index(settings, tmp_path, seed, monkeypatch)
    assert backend.search(SearchQuery("之")).count == ref.search(SearchQuery("之")).count == 1_464
    _same(backend.search(SearchQuery("鵠")), ref.search(SearchQuery("鵠")), "before")  # every segment's places read
    reads = []

    def recorded(read):
        def reading(path, *args, **kwargs):
            reads.append(str(path.relative_to(tmp_path / "ix")).split("/", 1)[1])
            return read(path, *args, **kwargs)
        return reading

    monkeypatch.setattr(segment_module, "read_table", recorded(segment_module.read_table))
    monkeypatch.setattr(np, "load", recorded(np.load))  # the deletion lists
    monkeypatch.setattr(mapped, "load", recorded(mapped.load))  # the arrays
    added = _juan_copy(seed[:5], 77, 99)
    assert backend.replace_juans(set(), added) == 5
    ref.replace_juans(set(), added)
    assert reads == []  # the write: nothing read from the three segments it links
    _same(backend.search(SearchQuery("射鵠")), ref.search(SearchQuery("射鵠")), "new work")
    assert backend._corpus().names == ["", "seg-000001", "seg-000002", "seg-000003"]
    assert reads[0] == "seg-000003/juans.json" and segment_module.loaded_segments() == 4
    assert sorted({r.split("/")[0] for r in reads}) == ["deleted.npy", "seg-000003"]  # and the base's deletions
    assert "seg-000003/passages.json" in reads and len(reads) == 2 + 26 + 2 + 5 + 1  # tables, arrays, neighbour keys, places
    reads.clear()
    again = _juan_copy(seed, 9312, 12, "鄉射")  # juan 12 replaced: seg-000002's other juan and seg-000003 merged in
    assert backend.replace_juans({9012}, again) == 424
    ref.replace_juans({9012}, again)
    assert reads == []
    for q in ["之", "鄉射", "射鵠", "大射 OR 鄉射"]:
        _same(backend.search(SearchQuery(q)), ref.search(SearchQuery(q)), q)
    corpus = backend._corpus()
    assert corpus.names == ["", "seg-000001", "seg-000004"] and corpus.deleted == [{9011, 9013}, set(), set()]
    assert sorted({r.split("/")[0] for r in reads}) == ["deleted.npy", "seg-000004"]
    assert reads.count("seg-000004/juans.json") == 1
    reads.clear()
    backend._loaded.clear()
    segment_module.remember([])  # a new process
    for q in ["之", "鄉射", "大射 OR 鄉射"]:
        _same(backend.search(SearchQuery(q, sort="after")), ref.search(SearchQuery(q, sort="after")), q)
    assert sorted(r for r in reads if r.endswith("juans.json")) == [
        "juans.json", "seg-000001/juans.json", "seg-000004/juans.json"]


def test_neighbour_keys_stand_beside_the_postings():
    """Format 10: per entry of ``order``, the key of the unit after and before its position,
    with the gap bit of the later unit (0 past either end; the separator's key is 0)."""
    from search.backends.positional.format import GAP_BIT, KEY_MODULUS, neighbour_keys, unit_key

    folded = np.array([0, ord("主"), ord("人"), 0, ord("人"), ord("主") + KEY_MODULUS, 0], dtype=np.uint32)
    gap = np.array([False, False, True, False, False, False, False])
    order = np.argsort(folded, kind="stable").astype(np.int32)
    assert order.tolist() == [0, 3, 6, 1, 2, 4, 5]
    nxt, prv = neighbour_keys(folded, gap, order)
    k主, k人 = unit_key(ord("主")), unit_key(ord("人"))
    assert (k主, k人, unit_key(0), unit_key(ord("主") + KEY_MODULUS)) == (20028, 20155, 0, 20028)
    assert nxt.tolist() == [k主, k人, 0, k人 | GAP_BIT, 0, k主, 0]
    assert prv.tolist() == [0, k人, k主, 0, k主 | GAP_BIT, 0, k人]
    assert nxt.dtype == prv.dtype == np.uint16


def _phrase_queries(exact):
    return ["大射", "射鵠", "之鵠", "主人", "司射", "鵠?", "?鵠", "射?鵠", "大射之儀", "公升即席",
            "大夫 OR 射鵠", "射 -射鵠", "以射"] + (["射，鵠"] if exact else [])


@pytest.mark.parametrize("exact", [False, True])
def test_a_phrase_answers_the_same_with_or_without_neighbour_keys(settings, tmp_path, seed_juan, monkeypatch,
                                                                  exact):
    """A segment of format 9 has no neighbour keys: its phrases are checked unit by unit, with
    the same answers as format 10's (every hit, count, distribution), on several segments
    with deleted juans; and a plain scan agrees."""
    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    corpus = backend._corpus()
    assert len(corpus.segments) == 3 and all(s.next_key is not None for s in corpus.segments)
    with_keys = {q: backend.search(SearchQuery(q, exact=exact)) for q in _phrase_queries(exact)}
    for segment in corpus.segments:  # as a segment of format 9 reads
        segment.next_key = segment.prev_key = None
    for q, got in with_keys.items():
        _same(got, backend.search(SearchQuery(q, exact=exact)), (q, "format 9"))
        _same(got, ref.search(SearchQuery(q, exact=exact)), (q, "scan"))
    assert [with_keys[q].count for q in ("大射", "射鵠", "主人", "鵠?", "射?鵠")] == \
        [ref.search(SearchQuery(q, exact=exact)).count for q in ("大射", "射鵠", "主人", "鵠?", "射?鵠")]


@pytest.mark.parametrize("layers", ["searched", "classic"])
def test_phrases_looked_up_together_name_the_sections_of_a_search_each(settings, tmp_path, seed_juan, monkeypatch,
                                                                        layers):
    """``sections_holding`` finds the phrases of two or more characters together, segment by
    segment (``together.phrases_together``): the same sections, in the same order, as a search of each
    phrase and as a plain scan, on several segments with a superseded and a removed juan, with
    and without neighbour keys; 侯 (a character with a variant form) and 射鵠 (added to the
    replacing juan 11 only) included; one character and ``?`` are looked up one by one."""
    from collation.parallels import SEARCHED_LAYERS

    from search.backends.base import BaseSearchBackend
    from search.backends.positional.together import phrases_together

    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    layers = SEARCHED_LAYERS if layers == "searched" else frozenset({"classic"})
    phrases = ["大射", "射鵠", "之鵠", "主人", "大侯之", "負侯", "大射之儀", "公升即席", "禮書綱目", "鵠", "射?鵠",
               "無此之文"]
    together = backend.sections_holding(phrases, layers)
    assert list(together) == phrases
    assert together == BaseSearchBackend.sections_holding(backend, phrases, layers)
    assert together == ref.sections_holding(phrases, layers)
    assert together["無此之文"] == [] and len(together["射鵠"]) > len(together["大射之儀"]) > 0
    assert {juan for _, juan, _ in together["負侯"]} == {5, 9, 11, 12}
    for segment in backend._corpus().segments:  # as a segment of format 9 reads: no neighbour keys
        segment.next_key = segment.prev_key = None
    assert backend.sections_holding(phrases, layers) == together
    with pytest.raises(ValueError):
        phrases_together(backend._corpus(), ["鵠"])


def test_units_sharing_a_key_are_told_apart(settings, tmp_path, seed_juan):
    """Two characters whose folded codes share a neighbour key (主 and U+CE3A, 32,767 apart)
    are both candidates by their key and told apart by the unit's own check; punctuation
    between the units is compared in the exact mode only."""
    from search.backends.positional.format import KEY_MODULUS, unit_key

    twin = chr(ord("人") + KEY_MODULUS)
    assert unit_key(ord(twin)) == unit_key(ord("人"))
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    doc = documents_for_juan(seed_juan)[0]
    texts = ["主人主" + twin + "主，人", twin + "主人之主", "主" + twin]
    backend.rebuild([replace(doc, doc_id=f"k{i}", text=t) for i, t in enumerate(texts)])
    assert backend._corpus().segments[0].next_key is not None

    def found(q, exact):
        return [(h.doc_id, h.start, h.end) for h in backend.search(SearchQuery(q, exact=exact)).hits]

    assert found("主人", True) == [("k0", 0, 2), ("k1", 1, 3)]
    assert found("主人", False) == [("k0", 0, 2), ("k0", 4, 7), ("k1", 1, 3)]
    assert found("主" + twin, True) == [("k0", 2, 4), ("k2", 0, 2)]
    assert found("主，人", True) == [("k0", 4, 7)]
    assert found(twin + "主", True) == [("k0", 3, 5), ("k1", 0, 2)]
    assert found("人?主", True) == [("k1", 2, 5)]


def test_a_key_proves_a_unit_only_where_no_other_form_shares_it(settings, tmp_path, seed_juan):
    """A neighbour key held by one folded character of the segment proves the unit without a
    read of ``folded`` (``Segment._proof``); in the exact mode only where that character has no
    other exact form here (賔 folds into 賓: 主賔 is not 主賓), or with those forms' positions cut
    out; a key another character shares (人 and U+CE3A) proves nothing."""
    from search.backends.positional.format import KEY_MODULUS

    twin = chr(ord("人") + KEY_MODULUS)
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    doc = documents_for_juan(seed_juan)[0]
    texts = ["主賓主賔", "賔主，賓主", "主人主" + twin, "之主賓"]
    backend.rebuild([replace(doc, doc_id=f"k{i}", text=t) for i, t in enumerate(texts)])
    segment = backend._corpus().segments[0]

    def found(q, exact):
        return [(h.doc_id, h.start, h.end) for h in backend.search(SearchQuery(q, exact=exact)).hits]

    assert segment.proofs[(ord("賓"),), None].tolist() == []  # folded: the key alone
    assert segment.proofs[(ord("賓"),), ord("賓")].tolist() == [4, 6]  # exact: less 賔's unit positions
    assert segment.proofs[(ord("賓"),), ord("賔")] is None  # the other form: read where it stands
    assert segment.proofs[(ord("人"),), None] is None  # U+CE3A has its key too
    assert found("主賓", True) == [("k0", 0, 2), ("k3", 1, 3)]
    assert found("主賔", True) == [("k0", 2, 4)]
    assert found("主賓", False) == [("k0", 0, 2), ("k0", 2, 4), ("k1", 1, 4), ("k3", 1, 3)]
    assert found("賓主", True) == [("k0", 1, 3), ("k1", 3, 5)]  # not k1's 賔主
    assert found("賔主", True) == [("k1", 0, 2)]
    assert found("主，賓", True) == [("k1", 1, 4)]
    assert found("之主", True) == [("k3", 0, 2)]
    assert found("主人", True) == [("k2", 0, 2)]


def test_a_phrase_over_several_segments_is_found_as_in_one(settings, tmp_path, seed_juan, monkeypatch):
    """On segments that all have neighbour keys a phrase is found over every segment at once
    (``SegmentPhrases._joined_phrase``): the same hits as one segment holding the same passages, with
    keys that prove a unit in one segment and not in another (U+CE3A shares 人's key in the
    second only; 賔 is an exact-mode exception of 賓 in the first only)."""
    from search.backends import positional
    from search.backends.positional import phrases as phrases_module
    from search.backends.positional.format import KEY_MODULUS

    twin = chr(ord("人") + KEY_MODULUS)
    doc = documents_for_juan(seed_juan)[0]
    first = [replace(doc, doc_id=f"k{i}", text=t) for i, t in enumerate(["主賓主賔主人", "賔主，賓主人之主人", "賔升賓升",
                                                                          "耦射"])]
    second = [replace(doc, doc_id=f"m{i}", text=t, juan_id=doc.juan_id + 1000, juan_number=99)
              for i, t in enumerate(["主人主" + twin + "主賓", "之主賓主人，主人?", "主" + twin + "之", "賓升", "耦鵠", "鵠鵠"])]
    settings.SEARCH_BACKENDS = {name: {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                       "PATH": tmp_path / name} for name in ("one", "two")}
    one, two = get_search_backend("one"), get_search_backend("two")
    one.rebuild(first + second)
    monkeypatch.setattr(positional, "SEGMENT_CHARS", 10)  # the second juan written as a segment of its own
    two.rebuild(first)
    two.replace_juans(set(), second)
    assert len(one._corpus().segments) == 1 and len(two._corpus().segments) == 2

    def found(backend, q, exact):
        return [(h.doc_id, h.start, h.end) for h in backend.search(SearchQuery(q, exact=exact)).hits]

    queries = ["主人", "主賓", "主賔", "賓主", "賔主", "主，人", "主，賓", "之主", "人之主", "主" + twin, twin + "主",
               "主?", "?主", "主?主", "賓主人", "主人主", "主人之主人", "賓升", "賔升", "升賓", "?升", "耦鵠", "鵠耦"]
    for q in queries:
        for exact in (False, True):
            assert found(two, q, exact) == found(one, q, exact), (q, exact)
    # 耦, the anchor, in both segments; 鵠 in the second only: the first's candidates are left out.
    assert found(two, "耦鵠", True) == [("m4", 0, 2)] and found(two, "鵠耦", False) == []
    monkeypatch.setattr(phrases_module, "JOINED_ANCHORS", 0)  # every anchor joined for the query, none kept
    for q in queries:
        for exact in (False, True):
            assert found(two, q, exact) == found(one, q, exact), (q, exact)
    from search.backends.positional import hits as hits_module
    for few in (0, phrases_module.FEW_SEGMENTS):  # the joined arrays' way for many segments, and each segment's own
        monkeypatch.setattr(phrases_module, "FEW_SEGMENTS", few)
        monkeypatch.setattr(hits_module, "FEW_SEGMENTS", few)
        for q in queries:
            for exact in (False, True):
                assert found(two, q, exact) == found(one, q, exact), (q, exact, few)
    assert found(two, "主人", True) == [("k0", 4, 6), ("k1", 4, 6), ("k1", 7, 9), ("m0", 0, 2), ("m1", 3, 5),
                                        ("m1", 6, 8)]
    assert found(two, "主賓", True) == [("k0", 0, 2), ("m0", 4, 6), ("m1", 1, 3)]
    assert found(two, "賓升", True) == [("k2", 2, 4), ("m3", 0, 2)]  # 升 the anchor: 賔升 cut out as 賓's exception
    assert found(two, "賓升", False) == [("k2", 0, 2), ("k2", 2, 4), ("m3", 0, 2)]


@pytest.mark.parametrize("exact", [False, True])
def test_a_few_segments_answer_as_the_way_for_many(settings, tmp_path, seed_juan, monkeypatch, exact):
    """Three segments with deleted juans (at most ``FEW_SEGMENTS``: each segment's candidates of a
    phrase checked on its own arrays, the first page's candidates taken segment by segment)
    answer as the way for many segments (``FEW_SEGMENTS`` 0: the joined arrays, array operations
    over every segment) and as a plain scan: every hit, the pages, both distributions."""
    from search.backends.positional import hits as hits_module, phrases as phrases_module

    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    assert len(backend._corpus().segments) == 3 <= phrases_module.FEW_SEGMENTS == hits_module.FEW_SEGMENTS
    queries = _phrase_queries(exact) + ["鵠", "射", "之"]
    few = {q: backend.search(SearchQuery(q, exact=exact)) for q in queries}
    monkeypatch.setattr(phrases_module, "FEW_SEGMENTS", 0)
    monkeypatch.setattr(hits_module, "FEW_SEGMENTS", 0)
    for q, got in few.items():
        _same(got, backend.search(SearchQuery(q, exact=exact)), (q, "many"))
        _same(got, ref.search(SearchQuery(q, exact=exact)), (q, "scan"))
    assert [few[q].count for q in ("大射", "射鵠", "鵠", "大射之儀")] == \
        [ref.search(SearchQuery(q, exact=exact)).count for q in ("大射", "射鵠", "鵠", "大射之儀")]


@pytest.mark.parametrize("number", [5, 11])  # the juan written: first in text order, or after the base's first
def test_a_few_segments_first_page_reaches_the_end_of_a_section(settings, tmp_path, seed_juan, monkeypatch, number):
    """A base and one juan written after it (at most ``FEW_SEGMENTS``): the first page in text
    order is taken from each segment's first ``stop`` hits extended to the end of the section
    of the last (``HitArray._few_segments_candidates``): a section's passages lie in positions
    by their first piece (its classic one passage read continuously across its pieces,
    ``search.documents``), while the text order goes by the piece each hit falls in, so a note
    on piece 3 comes after the whole classic in positions and before the classic's piece 4 in
    text order. Small pages (``stop`` of 1 to 8) are those of a plain scan."""
    from search.backends import positional
    from search.backends.positional import hits as hits_module

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 45_000)  # a juan is 15,163 characters: no segment merges
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    seed = documents_for_juan(seed_juan)
    base = [d for n in (9, 12, 13) for d in _juan_copy(seed, 9000 + n, n)]  # more than twice the juan written
    written = _juan_copy(seed, 9000 + number, number)
    backend.rebuild(base)
    backend.replace_juans(set(), written)
    assert len(backend._corpus().segments) == 2 <= hits_module.FEW_SEGMENTS
    ref = MemoryBackend("ref", {"NAME": f"ref-{tmp_path.name}"})
    ref.rebuild(base + written)
    key = lambda h: (h.juan_number, h.doc_id.split(":", 1)[-1], h.start, h.end, h.piece_position, h.layer,
                     h.before, h.match, h.after, h.passage_hits)
    for q in ("射", "之", "主人", "鵠"):
        want = [key(h) for h in ref.search(SearchQuery(q)).hits]
        for stop in range(1, 9):
            got = backend.search(SearchQuery(q)).hits
            assert [key(h) for h in got[:stop]] == want[:stop], (q, stop)
    # The case the extension is for: 射's first five hits in text order are not its first five by
    # position (hit indexes ascend with positions) but reach a later one in the same section.
    page = backend.search(SearchQuery("射")).hits
    indexes = page._sorted_indexes(5)
    juan = min(number, 9)
    assert (indexes - indexes[0]).tolist() == [0, 1, 2, 3, 10]  # its segment's hits 1-4 and 11 by position
    assert [key(h)[:6] for h in page[:5]] == [(juan, "c1.0", 1, 2, -1, "title"),
                                              (juan, "s1.p1", 15, 16, 1, "commentary"),
                                              (juan, "s1.text", 1, 2, 2, "classic"),
                                              (juan, "s1.text", 8, 9, 2, "classic"),
                                              (juan, "s1.p3", 7, 8, 3, "commentary")]
    # Its fifth by position: the classic's on piece 4, before the note on piece 3 in positions, after it in text.
    assert key(page._hits(indexes[:1] + 4)[0])[:6] == (juan, "s1.text", 16, 17, 4, "classic")


def test_a_term_that_cannot_overlap_itself_is_known():
    """``may_overlap``: whether two occurrences of a term can overlap (some shift of it matches
    itself, ``?`` matching anything); a term that cannot is not tested for overlaps."""
    from search.backends.positional.segment import _Term, may_overlap

    assert [_Term(q, True).overlaps for q in ("大射", "之之", "射?獲", "大射之儀", "主人主", "主人獻賓", "鵠?", "?")] == \
        [False, True, True, False, True, False, True, False]
    assert may_overlap(((1,), (2, 3), (4,))) is False and may_overlap(((3,), (2, 3), (3,))) is True
    assert may_overlap(((1, 5), (5,))) is True  # a folded code both units may match


def test_an_index_of_format_9_is_read_as_before(settings, tmp_path, seed_juan, monkeypatch):
    """Format 9 has no neighbour keys: its segments are read and searched as before (each unit
    of a phrase checked on its own), beside the segments of format 10 that later writes add."""
    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    gen = backend.current_link.resolve()
    for folder in (gen, gen / "seg-000001"):
        for name in ("juans.json", "passages.json"):
            table = json.loads((folder / name).read_text(encoding="utf-8"))
            (folder / name).write_text(json.dumps({**table, "format": 9}), encoding="utf-8")
        for name in ("next_key", "prev_key"):
            (folder / f"{name}.npy").unlink()
    backend._loaded.clear()
    corpus = backend._corpus()
    assert [s.next_key is None for s in corpus.segments] == [True, True, False]
    for q in ["主人", "射鵠", "射?鵠", "大射 OR 鄉射"]:
        for exact in (False, True):
            _same(backend.search(SearchQuery(q, exact=exact)), ref.search(SearchQuery(q, exact=exact)), (q, exact))


def test_postings_answer_as_their_positions_laid_out():
    """``Postings`` (a one-character term's views of its segments' postings) count, read at
    indexes and ``searchsorted`` as the array they make laid out, without making it."""
    from search.backends.positional.joined import Postings

    pieces = [(np.array([3, 7, 8], dtype=np.int32), 0), (np.array([1, 4], dtype=np.int32), 10),
              (np.array([0], dtype=np.int32), 20), (np.array([2, 9, 30], dtype=np.int32), 25)]
    laid = np.array([3, 7, 8, 11, 14, 20, 27, 34, 55])
    postings = Postings(pieces)
    assert len(postings) == 9 and postings._array is None
    assert [int(postings[i]) for i in range(9)] == laid.tolist() and int(postings[-1]) == 55
    assert postings[np.array([0, 2, 3, 5, 8])].tolist() == [3, 8, 11, 20, 55]
    assert postings[np.array([], dtype=np.int64)].tolist() == []
    values = np.arange(-1, 60)
    for side in ("left", "right"):
        assert postings.searchsorted(values, side=side).tolist() == laid.searchsorted(values, side=side).tolist()
        assert np.searchsorted(postings, 20, side=side) == laid.searchsorted(20, side=side)
        shuffled = values[np.random.default_rng(7).permutation(len(values))]  # in any order: piece by piece too
        assert postings.searchsorted(shuffled, side=side).tolist() == laid.searchsorted(shuffled, side=side).tolist()
        assert postings.searchsorted(np.array([2**40]), side=side).tolist() == [9]  # past int32: the last piece's end
    assert postings._array is None  # nothing above laid them out
    with pytest.raises(IndexError):
        postings[9]
    assert np.asarray(postings).tolist() == laid.tolist() and postings.array is postings._array
    assert len(Postings([])) == 0 and Postings([]).searchsorted([5]).tolist() == [0]
    # A base segment's pieces (cut around a replaced juan) and one later segment's: shifted by a slice.
    two = Postings([(np.array([3, 7], dtype=np.int32), 0), (np.array([9], dtype=np.int32), 0),
                    (np.array([1, 4], dtype=np.int32), 10), (np.array([6], dtype=np.int32), 10)])
    assert two.array.tolist() == [3, 7, 9, 11, 14, 16] and two.array.dtype == np.int64
    later = Postings([(np.array([1, 4], dtype=np.int32), 10), (np.array([6], dtype=np.int32), 10)])
    assert later.array.tolist() == [11, 14, 16]


def test_a_character_is_counted_and_paged_without_laying_out_its_positions(settings, tmp_path, seed_juan,
                                                                          monkeypatch):
    """A query of one frequent character without filters counts its hits and shows a page in
    text order from its segments' postings (``Postings``), the same hits as a plain scan; reading
    every hit lays them out."""
    from search.backends.positional import joined
    from search.backends.positional.hits import FEW_HITS  # at most: laid out to sort them all at once

    monkeypatch.setattr(joined, "LAID_OUT_BELOW", 0)  # every character is frequent here
    backend, ref = _multi_segment_index(settings, tmp_path, documents_for_juan(seed_juan), monkeypatch)
    for q, exact in (("射", False), ("之", True), ("賓", True), ("主", False)):
        got, want = backend.search(SearchQuery(q, exact=exact)), ref.search(SearchQuery(q, exact=exact))
        assert got.count == want.count and got.count > FEW_HITS, q
        key = lambda h: (h.juan_number, h.doc_id.split(":", 1)[-1], h.start, h.end, h.before, h.match, h.after,
                         h.passage_hits)
        assert [key(h) for h in got.hits[:20]] == [key(h) for h in want.hits[:20]], q
        assert got.hits._starts is None, q  # the count and the page read only a few positions
        _same(got, want, (q, exact))
        assert got.hits._starts is not None, q


def test_a_pages_passages_are_read_once_per_generation(two_backends, seed_juan, monkeypatch):
    """``Corpus.page_parts``: the passages a page shows are read from the index once and kept
    with the generation: the same page again reads none, another query's page only the passages
    no page has read; a write's new generation reads its own (the text as written now); a hit
    list read from end to end keeps none but its pages'; past ``KEPT_PASSAGES`` passages or
    ``KEPT_CHARS`` characters every one is dropped."""
    from search.kwic import SINGLE, text_shape
    from search.backends.positional import hits as hit_arrays, places

    positional, _ = two_backends
    docs = documents_for_juan(seed_juan)
    positional.rebuild(docs)
    corpus = positional._corpus()
    reads = []

    def counted(parts):
        read = parts.read
        monkeypatch.setattr(parts, "read", lambda ps: reads.append(list(ps)) or read(ps))

    counted(corpus.page_parts)
    row = lambda h: (h.doc_id, h.start, h.end, h.kwic(), h.piece_position, h.passage_hits)  # noqa: E731
    first = [row(h) for h in positional.search(SearchQuery("射")).hits[:20]]
    shown = sorted({p for p in corpus.page_parts.kept})
    assert len(reads) == 1 and reads[0] == shown and len(shown) == len({r[0] for r in first}) == 7
    assert [row(h) for h in positional.search(SearchQuery("射")).hits[:20]] == first and len(reads) == 1
    for h in positional.search(SearchQuery("射")).hits[:20]:  # the passage as the index holds it
        p = next(q for q in shown if corpus.places[q][0] == h.doc_id)
        place = dict(zip(places.PLACE_FIELDS, corpus.places[p]))
        assert h.passage.text == corpus.text(p) and h.passage.piece_starts == place["piece_starts"]
        assert [getattr(h.passage, f) for f in places.PASSAGE_HEAD] == [place[f] for f in places.PASSAGE_HEAD]
        assert (h.passage.layer_name, h.passage.commentator) == (place["layer_name"], place["commentator"])
        assert h.passage._plain == text_shape(h.passage.text) == SINGLE
    other = positional.search(SearchQuery("大射")).hits[:20]
    assert len(reads) == 2 and set(reads[1]).isdisjoint(shown)
    assert {h.doc_id for h in other} - {r[0] for r in first}  # 大射's page holds passages 射's did not

    # A new generation: its own passages, read from the text as written now.
    changed = next(i for i, d in enumerate(docs) if d.doc_id == first[0][0])
    docs[changed] = replace(docs[changed], text="射" + docs[changed].text)
    positional.rebuild(docs)
    fresh = positional._corpus()
    assert fresh is not corpus and fresh.page_parts.kept == {}
    got = positional.search(SearchQuery("射")).hits[:20]
    assert got[0].doc_id == first[0][0] and got[0].kwic()[1:] == ("射", docs[changed].text[1:16])
    assert got[0].passage.text == docs[changed].text and len(fresh.page_parts.kept) == 7
    assert len(reads) == 2  # the old generation's parts were not asked

    # A hit list read from end to end keeps only what its pages read; past the bounds, none.
    monkeypatch.setattr(hit_arrays, "READ_BATCH", 100)
    monkeypatch.setattr(hit_arrays, "KEPT_READ", 10)
    results = positional.search(SearchQuery("之"))
    assert len(list(results.hits)) == 366 and len(fresh.page_parts.kept) == 7
    before = set(fresh.page_parts.kept)
    monkeypatch.setattr(places, "KEPT_PASSAGES", 7)  # full: the next passage read drops them all
    page = {int(p) for p in results.hits._passages} if results.hits[:20] else set()
    assert len(page) == 8 and set(fresh.page_parts.kept) == page - before and page & before
    monkeypatch.setattr(places, "KEPT_CHARS", 10)
    fresh.page_parts.kept.clear()
    results.hits[:20]
    assert fresh.page_parts.kept == {}  # more than 10 characters: read, not kept
    # Each new passage's hit count: its first position and the next passage's (the corpus's size after the last).
    last = len(fresh) - 1
    edges = hit_arrays._passage_edges(fresh, [0, 5, last])
    assert edges.tolist() == np.concatenate(hit_arrays._passage_bounds(fresh, np.array([0, 5, last]))).tolist()
    assert edges.tolist()[-1] == fresh.size and edges.tolist()[:3] == fresh.unit_starts[[0, 5, last]].tolist()


def test_an_index_written_before_the_catalogue_order_opens_and_keeps_its_order(settings, tmp_path, seed_juan,
                                                                                monkeypatch):
    """A segment of format 10 ordered its juans by work title and named no catalogue key: it
    opens and answers as it was built (列女傳 before 禮書綱目, every hit's ``catalogue_key`` "");
    a juan written after it is a segment of the catalogue's order, after the older segment's
    juans; a rebuild puts the whole library in the catalogue's order (經 before 史)."""
    from catalogue.catalogue import order_key
    from search.backends import positional
    from search.backends.positional import format as index_format

    monkeypatch.setattr(positional, "SEGMENT_CHARS", 45_000)  # a juan is 15,163 characters: no segment merges
    settings.SEARCH_BACKENDS = {"p": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                      "PATH": tmp_path / "ix"}}
    backend = get_search_backend("p")
    seed = documents_for_juan(seed_juan)

    def work(juan_id, title, code):
        return [replace(d, juan_id=juan_id, work_id=juan_id, work_slug=title, work_title=title, doc_id=f"{juan_id}{d.doc_id}",
                        catalogue_key=order_key(code, "", title, juan_id)) for d in seed]

    jing, shi, later = work(7001, "禮書綱目", "KR1d"), work(7002, "列女傳", "KR2g"), work(7003, "周禮", "KR1d")
    with monkeypatch.context() as old:  # what format 10 wrote: keys of title, edition, juan (and section)
        old.setattr(index_format, "FORMAT", 10)
        old.setattr(index_format, "juan_key", lambda d: (d.work_title, d.work_id, d.juan_number))
        backend.rebuild(jing + shi)
    gen = backend.current_link.resolve()
    table = json.loads((gen / "juans.json").read_text(encoding="utf-8"))
    assert (table["format"], table["juan_keys"]) == (10, [["列女傳", 7002, 10], ["禮書綱目", 7001, 10]])
    ref = MemoryBackend("ref", {"NAME": f"ref-{tmp_path.name}"})

    def works_in_order(b, q="之"):
        hits = b.search(SearchQuery(q)).hits
        order = [h.text_order for h in hits]
        assert order == sorted(order)
        return list(dict.fromkeys(h.work_slug for h in hits)), {h.catalogue_key for h in hits}

    count = backend.search(SearchQuery("之")).count
    assert count == 2 * sum(d.text.count("之") for d in seed)
    assert works_in_order(backend) == (["列女傳", "禮書綱目"], {""})
    backend.replace_juans(set(), later)
    assert len(backend._corpus().segments) == 2
    assert works_in_order(backend) == (["列女傳", "禮書綱目", "周禮"], {"", later[0].catalogue_key})
    backend.rebuild(jing + shi + later)
    ref.rebuild(jing + shi + later)
    assert works_in_order(backend) == works_in_order(ref) == (
        ["周禮", "禮書綱目", "列女傳"], {later[0].catalogue_key, jing[0].catalogue_key, shi[0].catalogue_key})
    assert backend.search(SearchQuery("之")).count == count * 3 // 2


def _open_descriptors() -> int:
    """How many descriptors this process holds open (Linux: ``/proc/self/fd``)."""
    return len(os.listdir("/proc/self/fd"))


def _mapped_from(array: np.ndarray) -> str | None:
    """The file whose map holds ``array``'s first element (Linux: ``/proc/self/maps``), None for
    the process's own memory."""
    address = array.__array_interface__["data"][0]
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            fields = line.split(maxsplit=5)
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if start <= address < end:
                return fields[5].strip() if len(fields) == 6 else None
    return None


def _mapped_files(folder) -> int:
    """How many maps of files under ``folder`` this process holds (Linux: ``/proc/self/maps``)."""
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
        return sum(1 for line in fh if f" {folder}/" in line)


POSITIONAL = "search.backends.positional.PositionalIndexBackend"


@pytest.mark.parametrize("write", ["another index", "a new generation"])
def test_searching_what_was_written_last_keeps_nothing_of_what_came_before(settings, tmp_path, seed_juan, write):
    """After 50 searches, each of another index folder (what a test process does: an index per
    test) or of a new generation of one index (what a server does after each import), the
    process holds exactly the descriptors and the maps of index files it held after the first:
    a generation's arrays hold no descriptor (``mapped``: ``numpy.load``'s maps held one each,
    about 33 a segment), and the generation searched before is let go at once, with the cyclic
    garbage collector off (a segment's look-ups by its own methods and a place table's strings
    were reference cycles), the backend keeping no corpus for a folder it no longer searches (it
    kept one per folder: 3,057 descriptors after tests/test_positional.py)."""
    seed = documents_for_juan(seed_juan)[:20]

    def search_after_a_write(n: int) -> tuple:
        folder = tmp_path / (f"ix{n}" if write == "another index" else "ix")
        settings.SEARCH_BACKENDS = {"default": {"BACKEND": POSITIONAL, "PATH": folder}}
        backend = get_search_backend()
        if write == "another index" or n == 0:
            backend.rebuild(seed)
            backend.replace_juans(set(), _juan_copy(seed[:5], 9000 + n, 99))  # a second segment
        else:  # the second segment replaced
            backend.replace_juans({9000 + n - 1}, _juan_copy(seed[:5], 9000 + n, 99))
        return (len(backend._corpus().segments), backend.search(SearchQuery("射")).count,
                backend.search(SearchQuery("大射")).count)

    gc.collect()
    gc.disable()
    try:
        first = search_after_a_write(0)
        before = _open_descriptors(), _mapped_files(tmp_path)
        answers = {search_after_a_write(n) for n in range(1, 51)}
        after = _open_descriptors(), _mapped_files(tmp_path)
    finally:
        gc.enable()
    assert (first, answers) == ((2, 39, 5), {(2, 39, 5)})
    # two segments' arrays (a search maps no place: a page of hits maps a segment's five)
    assert before[1] == 2 * (len(ARRAYS) + len(NEIGHBOUR_ARRAYS)) == 56 and after == before


def test_searches_on_the_site_after_writes_open_no_descriptor(settings, tmp_path, seed_juan, client):
    """50 times a new generation (an import's write), then the search page, the API's search and
    its CSV hit list: the process holds exactly the descriptors it held after the first round,
    with the cyclic garbage collector off: the request's objects (Django's and DRF's, cycles)
    keep the generation they searched until the collector runs, and its arrays hold no
    descriptor (``mapped``)."""
    seed = documents_for_juan(seed_juan)
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": POSITIONAL, "PATH": tmp_path / "ix"}}
    backend = get_search_backend()
    backend.rebuild(seed)

    def write_and_search(n: int) -> list:
        backend.replace_juans({9000 + n - 1} if n else set(), _juan_copy(seed[:5], 9000 + n, 99))
        answers = [client.get("/search/", {"q": "大射"}), client.get("/api/search/", {"q": "大射"}),
                   client.get("/api/search/export/csv/", {"q": "大射"})]
        return [(r.status_code, len(b"".join(r.streaming_content) if r.streaming else r.content) > 0)
                for r in answers]

    gc.collect()
    gc.disable()
    try:
        first = write_and_search(0)
        before = _open_descriptors()
        rounds = [write_and_search(n) for n in range(1, 51)]
        after = _open_descriptors()
    finally:
        gc.enable()
    assert first == [(200, True)] * 3 and all(r == first for r in rounds)
    assert after == before
