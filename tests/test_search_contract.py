"""The behavioural contract every search backend passes (as django-modelsearch's BackendTests).

Each test runs against every backend in ``BACKENDS``: add a backend there and it must pass.
"""
import pytest

from search.backends import SearchQuery, get_search_backend
from search.documents import LAYER_GROUPS, documents_for_juan

from .conftest import SEED
from .scan import layers_of, scan_count

BACKENDS = {
    "positional": "search.backends.positional.PositionalIndexBackend",
    "whoosh": "search.backends.whoosh.WhooshBackend",
    "memory": "search.backends.memory.MemoryBackend",
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request, settings, tmp_path, seed_juan):
    settings.SEARCH_BACKENDS = {"contract": {"BACKEND": BACKENDS[request.param], "PATH": tmp_path / "ix",
                                             "NAME": f"contract-{tmp_path.name}", "LOCK_TIMEOUT": 1.0}}
    b = get_search_backend("contract")
    assert b.rebuild(documents_for_juan(seed_juan)) == 424
    return b


@pytest.fixture(scope="module")
def scan():
    return layers_of(SEED.read_text(encoding="utf-8"))


def test_counts_equal_a_plain_scan(backend, scan):
    everything = [p for v in scan.values() for p in v]
    for phrase in ["鵠", "射", "主人", "司射", "卿大夫", "戒射宰戒", "鄉射記"]:
        assert backend.search(SearchQuery(phrase, exact=True)).count == scan_count(everything, phrase), phrase


def test_layers(backend, scan):
    assert backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["text"])).count == scan_count(scan["text"], "鵠") == 2
    assert backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["notes"])).count == scan_count(scan["note"], "鵠") == 19
    assert backend.search(SearchQuery("君", layers=LAYER_GROUPS["records"])).count == \
        scan_count(scan["record"] + scan["record_note"], "君")
    assert backend.search(SearchQuery("取矢視算", layers=LAYER_GROUPS["titles"])).count == 2


def test_hits_are_stored_text_in_text_order(backend, seed_text):
    result = backend.search(SearchQuery("君尊"))
    order = [h.text_order for h in result.hits]
    assert order == sorted(order)
    for h in result.hits:
        assert h.before + h.match + h.after in seed_text


def test_main_text_reads_across_notes(backend):
    hit = backend.search(SearchQuery("戒射宰戒", layers=LAYER_GROUPS["text"])).hits[0]
    assert (hit.section_position, hit.piece_position, hit.match) == (1, 2, "戒射宰戒")


def test_folding_and_exact(backend):
    folded = backend.search(SearchQuery("鼓"))
    assert {h.match for h in folded.hits} == {"鼓", "鼔"}
    exact = backend.search(SearchQuery("鼓", exact=True))
    assert {h.match for h in exact.hits} == {"鼓"}
    assert folded.count > exact.count


def test_query_language(backend):
    assert backend.search(SearchQuery("大射 鵠")).count == 0
    both = backend.search(SearchQuery("鵠 OR 乏")).count
    assert both == backend.search(SearchQuery("鵠")).count + backend.search(SearchQuery("乏")).count
    assert backend.search(SearchQuery("射?獲", exact=True)).count == \
        backend.search(SearchQuery("射?獲", exact=True, layers=LAYER_GROUPS["all"])).count > 0


def test_filters(backend, seed_juan):
    assert backend.search(SearchQuery("鵠", juan_number=9)).count == 0
    assert backend.search(SearchQuery("鵠", work_id=seed_juan.work_id)).count == 21


def test_replace_and_remove_juan(backend, seed_juan):
    docs = documents_for_juan(seed_juan)
    backend.replace_juan(seed_juan.pk, [d for d in docs if d.layer == "title"])
    assert backend.search(SearchQuery("鵠")).count == 0
    assert backend.search(SearchQuery("取矢視算")).count == 2
    assert backend.juan_ids() == {seed_juan.pk}
    backend.remove_juan(seed_juan.pk)
    assert backend.document_count() == 0
    assert backend.search(SearchQuery("取矢視算")).count == 0
