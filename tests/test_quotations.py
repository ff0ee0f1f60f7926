"""The quotation map (``collation.quotations.juan_parallels``) shares the work of a juan's
sections, and its rows are exactly what ``find_parallels`` gives section by section: on the
seed juan and a Kanripo juan (儀禮 鄭氏注 卷第七), for every engine of the search contract
suite, with the 大射 juans of three other books in the library (as ``test_parallels``)."""
import pytest
from django.test import override_settings

from collation.parallels import find_parallels, section_main_text
from collation.quotations import juan_parallels
from reader.importers.loader import import_file
from reader.models import Juan
from search.backends import get_search_backend

from .conftest import SEED, index_all, kept_for_the_class
from .test_parallels import FILES
from .test_search_contract import BACKENDS


#: The characters of main text of the seed juan's batches of 1,000 characters at most (6,916 in all).
BATCHES = [887, 985, 877, 912, 737, 915, 951, 652]


def _row(p, sites: bool) -> tuple:
    return (p.section.pk, p.layer, p.piece, p.start, p.end, p.query_start, p.query_end, p.shared, p.score,
            p.longest, [(s.lemma, s.reading, s.cls) for s in p.sites] if sites else None)


@pytest.fixture(scope="class")
def _da_she_juans(_seeded, django_db_blocker):
    """The seed and the 大射 juans of ``FILES``, imported in a database holding nothing else, once
    for the tests of a class (``kept_for_the_class``)."""
    from reader.models import Work
    from search.signals import muted

    def build():
        with muted():
            Work.objects.all().delete()  # the session's seed, imported again below
            import_file(SEED)
            for path in FILES:
                import_file(path)

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture(scope="class", params=sorted(BACKENDS))
def _da_she_index(request, _da_she_juans, django_db_blocker, tmp_path_factory):
    """An index of each engine in ``BACKENDS`` holding ``_da_she_juans``, built once for the tests of
    a class: its ``SEARCH_BACKENDS`` entry."""
    folder = tmp_path_factory.mktemp(f"quotations-{request.param}")
    params = {"BACKEND": BACKENDS[request.param], "PATH": folder / "ix", "NAME": f"quotations-{folder.name}",
              "LOCK_TIMEOUT": 2.0}
    with django_db_blocker.unblock(), override_settings(SEARCH_BACKENDS={"default": params}):
        index_all(get_search_backend())
    return params


@pytest.fixture
def library(_da_she_index, db, settings):
    """The default backend (of each engine) holding the seed and the 大射 juans, nothing else in the
    database. Do not write to it."""
    settings.SEARCH_BACKENDS = {"default": _da_she_index}
    return get_search_backend()


def _per_section(juan, backend, limit=50, sites=False) -> list:
    out = []
    for s in juan.sections.order_by("position"):
        text = section_main_text(s)
        found = find_parallels(text, exclude=(juan.edition_id, juan.number, s.position), backend=backend,
                               limit=limit) if len(text.strip()) >= 8 else []
        out.append((s.position, [_row(p, sites) for p in found]))
    return out


@pytest.fixture(scope="class")
def kept_answers(_da_she_index):
    """The answers of the searches of the class's index of one engine (``_da_she_index``), kept for
    the class's tests (``_searched_once``): the index is built once for the class and read only, so
    a query's answer is the same in every test of the class, whichever asked it first."""
    return {}


def _searched_once(backend, monkeypatch, answers):
    """``backend`` answering each query once: its ``search`` (on the object, so its own
    ``sections_holding``, the default's search a probe, reads it too) keeps its answers in
    ``answers`` (``kept_answers``: the class's, for its one index). On the engines without a
    batched look-up (memory, whoosh) the map's pass and the section-by-section pass search the same
    probes (2,660 in the seed juan, 851 in the Kanripo one; a search of the memory engine reads
    every passage: about 55 ms of CPU each), as the batch and the search of each probe do (the
    seed's 1,000 and more, which the map's pass searched too), and each later search reads the
    first's answer; the positional engine's one-pass look-up searches nothing."""
    search = backend.search

    def remembered(query):
        if query not in answers:
            answers[query] = search(query)
        return answers[query]

    monkeypatch.setattr(backend, "search", remembered)
    return answers


class TestOnTheDaSheJuans:
    """The quotation map of the seed and a Kanripo juan, with the 大射 juans of ``FILES`` (imported once
    for the class), on every engine."""

    def test_rows_equal_the_parallel_search_of_each_section(self, library, django_assert_max_num_queries, monkeypatch,
                                                            kept_answers):
        _searched_once(library, monkeypatch, kept_answers)
        seed = Juan.objects.select_related("edition").get(edition__slug="禮書綱目", number=10)
        with django_assert_max_num_queries(7):  # sections, main texts, juans, candidate sections, pieces, kept
            rows = juan_parallels(seed, backend=library)
        assert [(s.position, [_row(p, False) for p in found]) for s, found in rows] == _per_section(seed, library)
        assert (len(rows), sum(len(found) for _, found in rows)) == (45, 338)
        # the places' sections come with their juan, edition and work (the map's columns and links)
        assert {p.section.juan.edition.work.title for _, found in rows for p in found} == {"儀禮", "儀禮鄭註句讀", "儀禮經傳通解", "禮書綱目"}
        # a Kanripo juan, and the differences of each place when they are asked for
        kanripo = Juan.objects.select_related("edition").get(edition__slug="KR1d0026", number=7)
        rows = juan_parallels(kanripo, backend=library, sites=True)
        assert [(s.position, [_row(p, True) for p in found]) for s, found in rows] == _per_section(kanripo, library,
                                                                                                  sites=True)
        assert len(rows) == kanripo.sections.count() and sum(len(found) for _, found in rows) > len(rows)

    def test_a_map_made_in_batches_of_sections_has_the_rows_of_one_made_whole(self, library, monkeypatch, kept_answers,
                                                                             django_assert_max_num_queries):
        """The juan's sections looked up ``batches`` of 1,000 characters at a time (the seed's
        6,916 characters in 8, each batch's probes, candidates and their texts dropped before the
        next) give the rows of the map made in one batch, place for place."""
        from collation.quotations import batches, section_texts

        _searched_once(library, monkeypatch, kept_answers)
        seed = Juan.objects.select_related("edition").get(edition__slug="禮書綱目", number=10)
        rows = section_texts(seed)
        cut = batches(rows, 1000)
        assert [s.position for batch in cut for s, _ in batch] == [s.position for s, _ in rows]
        assert [sum(len(t) for _, t in batch) for batch in cut] == BATCHES and sum(BATCHES) == 6916
        assert batches(rows, 10 ** 6) == [rows] and batches([], 1000) == []
        whole = juan_parallels(seed, backend=library, batch_chars=10 ** 6)
        with django_assert_max_num_queries(5 + 3 * 8):  # sections, main texts, kept; juans, sections, pieces a batch
            cut_rows = juan_parallels(seed, backend=library, batch_chars=1000)
        assert ([(s.position, [_row(p, False) for p in found]) for s, found in cut_rows]
                == [(s.position, [_row(p, False) for p in found]) for s, found in whole])
        assert sum(len(found) for _, found in cut_rows) == 338

    def test_the_batched_probe_lookup_answers_as_one_search_a_probe(self, library, monkeypatch, kept_answers):
        """``sections_holding`` of the search layer (one pass of the positional index) names the
        same sections in the same order as a search of each probe, on every engine: for every
        probe of the seed juan (1,000 and more, short n-grams and 8-character stretches), a
        probe found nowhere, and one written twice. The engines whose batch is the default (a
        search a probe: memory, whoosh) answer each probe's search once in the class
        (``_searched_once``)."""
        from collation.parallels import SEARCHED_LAYERS, probe_weights, sections_holding
        from collation.quotations import section_texts

        _searched_once(library, monkeypatch, kept_answers)

        seed = Juan.objects.select_related("edition").get(edition__slug="禮書綱目", number=10)
        probes = list(dict.fromkeys(g for _, text in section_texts(seed) for g, _ in probe_weights(text)))
        assert len(probes) > 1000
        batch = library.sections_holding(probes + ["無此之文字", probes[0]], SEARCHED_LAYERS)
        assert list(batch) == probes + ["無此之文字"]
        assert batch == {p: sections_holding(p, library) for p in probes + ["無此之文字"]}
        assert batch["無此之文字"] == [] and sum(len(v) for v in batch.values()) > len(probes)
        assert library.sections_holding([], SEARCHED_LAYERS) == {}
