"""The names of untitled sections in hit lists (``reader.citation.section_names``), and the
copy of them a server keeps (``search.service.kept_section_names``): a page of hits names its
untitled sections with three queries for them all, and with none once an earlier answer
named them, until the index or the corpus changes."""
from reader.citation import section_names
from reader.models import Piece
from search import service
from search.service import kept_section_names

from .conftest import index_all

#: The seed's sections 3 to 5 and the opening words they are named by once untitled (their
#: main text to the first punctuation, at most 8 characters: the Siku text has none).
UNTITLED = {("禮書綱目", 10, 3): "樂人宿縣於阼階東…", ("禮書綱目", 10, 4): "厥明司宮尊於東楹…",
            ("禮書綱目", 10, 5): "羮定射人告具於公…"}


def _untitle(seed_juan, search_backend):
    seed_juan.sections.filter(position__in=(3, 4, 5)).update(title="")
    index_all(search_backend)  # update() sends no signal: the new index version is the change
    service._names.clear()


def test_section_names_reads_three_queries_for_a_page(seed_juan, django_assert_num_queries):
    seed_juan.sections.filter(position__in=(3, 4, 5)).update(title="")
    keys = list(UNTITLED) + [("禮書綱目", 10, 2), ("禮書綱目", 10, 999), ("無此書", 10, 3), ("禮書綱目", 9, 3)]
    # the juans, their sections, the untitled ones' main text (which carries whether an accepted
    # correction may change it: corrections.receivers.correctable)
    with django_assert_num_queries(3):
        names = section_names(keys)
    # a titled section is named by its title; keys naming no section are left out
    assert names == {**UNTITLED, ("禮書綱目", 10, 2): "張侯"}
    with django_assert_num_queries(0):
        assert section_names([]) == {}


def test_a_section_without_title_or_main_text_is_named_by_its_chapter(seed_juan):
    section = seed_juan.sections.get(position=3)
    seed_juan.sections.filter(pk=section.pk).update(title="")
    Piece.objects.filter(section=section, kind="text").update(kind="note", layer="commentary")
    assert section_names([("禮書綱目", 10, 3)]) == {("禮書綱目", 10, 3): "大射儀"}


def test_kept_names_are_read_once_then_kept(seed_juan, search_backend, django_assert_num_queries):
    _untitle(seed_juan, search_backend)
    with django_assert_num_queries(3):
        assert kept_section_names([("禮書綱目", 10, 3), ("禮書綱目", 10, 4)]) == {
            ("禮書綱目", 10, 3): "樂人宿縣於阼階東…", ("禮書綱目", 10, 4): "厥明司宮尊於東楹…"}
    with django_assert_num_queries(0):  # all known
        assert kept_section_names([("禮書綱目", 10, 4), ("禮書綱目", 10, 3)]) == {
            ("禮書綱目", 10, 3): "樂人宿縣於阼階東…", ("禮書綱目", 10, 4): "厥明司宮尊於東楹…"}
    with django_assert_num_queries(3):  # only the one not known yet is read
        assert kept_section_names(UNTITLED) == UNTITLED
    with django_assert_num_queries(2):  # a key that names no section is not kept: asked again (no text to read)
        assert kept_section_names([("禮書綱目", 10, 999), ("禮書綱目", 10, 3)]) == {
            ("禮書綱目", 10, 3): "樂人宿縣於阼階東…"}


def test_kept_names_follow_the_corpus(seed_juan, search_backend):
    """A saved piece touches the corpus stamp (``reader.stamp``): the names are read again."""
    _untitle(seed_juan, search_backend)
    assert kept_section_names([("禮書綱目", 10, 3)]) == {("禮書綱目", 10, 3): "樂人宿縣於阼階東…"}
    piece = Piece.objects.filter(section__juan=seed_juan, section__position=3, kind="text").order_by("position").first()
    piece.text = "鼓人" + piece.text
    piece.save()
    assert kept_section_names([("禮書綱目", 10, 3)]) == {("禮書綱目", 10, 3): "鼓人樂人宿縣於阼…"}


def test_kept_names_are_dropped_past_their_bound(seed_juan, search_backend, monkeypatch, django_assert_num_queries):
    _untitle(seed_juan, search_backend)
    monkeypatch.setattr(service, "KEPT_SECTION_NAMES", 2)
    assert kept_section_names(list(UNTITLED)[:2]) == dict(list(UNTITLED.items())[:2])
    assert kept_section_names(list(UNTITLED)[2:]) == dict(list(UNTITLED.items())[2:])  # 3 > 2: the table starts again
    assert list(service._names.values()) == [dict(list(UNTITLED.items())[2:])]
    with django_assert_num_queries(3):
        assert kept_section_names(list(UNTITLED)[:1]) == dict(list(UNTITLED.items())[:1])


def test_an_api_search_of_untitled_hits_asks_three_queries_then_none(client, seed_juan, search_backend,
                                                                      django_assert_num_queries):
    """One API search asks the database a bounded number of queries: three for the names of
    its page's untitled sections, however many hits the page holds, and none when the same
    sections were named before (the editions' tables are read by the first request)."""
    _untitle(seed_juan, search_backend)
    client.get("/api/search/", {"q": "張侯"})  # the editions' names and facets, kept per index version
    with django_assert_num_queries(3):
        answer = client.get("/api/search/", {"q": "東上", "page_size": 200}).json()
    named = sorted({(h["section"]["position"], h["section"]["title"], h["section"]["name"]) for h in answer["results"]})
    assert (answer["count"], named) == (18, [
        (4, "", "厥明司宮尊於東楹…"), (5, "", "羮定射人告具於公…"), (14, "主人獻孤卿", "主人獻孤卿"),
        (17, "主人獻大夫", "主人獻大夫"), (18, "樂賓", "樂賓"), (39, "主人獻士及祝史等", "主人獻士及祝史等"),
        (44, "無算爵", "無算爵")])
    with django_assert_num_queries(0):
        assert client.get("/api/search/", {"q": "東上", "page_size": 200}).json() == answer
    with django_assert_num_queries(0):  # another query, the same sections: no query either
        page = client.get("/api/search/", {"q": "北面東上"}).json()
    assert sorted({(h["section"]["position"], h["section"]["name"]) for h in page["results"]}) == [
        (4, "厥明司宮尊於東楹…"), (5, "羮定射人告具於公…"), (14, "主人獻孤卿"), (18, "樂賓"), (39, "主人獻士及祝史等"),
        (44, "無算爵")]


def test_after_a_change_one_thread_reads_the_editions_again_and_the_others_go_on(seed_juan, search_backend, settings,
                                                                                   tmp_path, monkeypatch,
                                                                                   django_assert_num_queries):
    """``edition_places`` after the corpus or the index changed (``reader.stamp.KeptPerStamp``): one
    thread reads the editions again while every other request answers at once, with no query,
    from the table before (each asked for its own after an import, every one an aggregate over
    the library); a process with no table waits for the thread reading it."""
    import threading

    from django.db import connections

    from reader.stamp import corpus_changed
    from search.service import edition_places

    def asking(name):  # a request's thread; its connection closed when it ends
        def ask():
            try:
                got.append(edition_places())
            finally:
                connections.close_all()
        thread = threading.Thread(target=ask, name=name)
        thread.start()
        return thread

    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    index_all(search_backend)
    service._places.clear()
    reads, hold, started = [], threading.Event(), threading.Event()
    real = service._places._compute

    def read():
        reads.append(threading.current_thread().name)
        if hold.is_set():
            started.set()
            assert release.wait(30)
        return real()

    monkeypatch.setattr(service._places, "_compute", read)
    release = threading.Event()
    before = edition_places()
    assert before == {seed_juan.edition_id: {"work_id": seed_juan.work_id, "work_key": seed_juan.work.slug,
                                             "name": seed_juan.edition.name, "full_name": "禮書綱目",
                                             "slug": "禮書綱目", "script": seed_juan.edition.script}}
    with django_assert_num_queries(0):
        assert edition_places() is before and len(reads) == 1

    corpus_changed()
    hold.set()
    got = []
    reading = asking("reading")
    assert started.wait(30)
    with django_assert_num_queries(0):  # the one thread reads; the others answer from the table before
        assert [edition_places() for _ in range(3)] == [before] * 3
        assert all(edition_places() is before for _ in range(3))
    release.set()
    reading.join(30)
    assert reads == ["MainThread", "reading"] and got == [before] and got[0] is not before
    with django_assert_num_queries(0):
        assert edition_places() is got[0]

    hold.clear()
    service._places.clear()  # a process with no table: waits for the thread reading it
    with service._places.computing:
        waiting = asking("waiting")
        waiting.join(0.2)
        assert waiting.is_alive() and len(got) == 1
    waiting.join(30)
    assert got[1] == before and reads == ["MainThread", "reading", "waiting"]
