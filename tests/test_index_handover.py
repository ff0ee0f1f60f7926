"""A serving process goes over to a generation another process swapped in only once it is
loaded and warm, answering from the one before meanwhile (search.backends.positional.handover;
gunicorn.conf.py's post_worker_init turns it on)."""
import threading
from dataclasses import replace

import pytest

from search.backends import SearchQuery, get_search_backend
from search.backends.positional import PositionalIndexBackend
from search.backends.positional.handover import Handover
from search.documents import documents_for_juan
from search.shipping import publish, pull

POSITIONAL = "search.backends.positional.PositionalIndexBackend"


@pytest.fixture
def servers(settings, tmp_path, seed_juan, monkeypatch):
    """Server a's index (it imports) and server b's (it pulls), the seed juan in both; this
    process's hand-over state fresh (it is the class's, as in a worker)."""
    monkeypatch.setattr(PositionalIndexBackend, "handover", Handover())
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": POSITIONAL, "PATH": tmp_path / "b"},
                                "a": {"BACKEND": POSITIONAL, "PATH": tmp_path / "a"}}
    a, b = get_search_backend("a"), get_search_backend()
    a.rebuild(documents_for_juan(seed_juan))
    publish(a, tmp_path / "shared")
    pull(b, tmp_path / "shared")
    return a, b, tmp_path / "shared"


def second_juan(seed_juan):
    """The seed juan's passages again as juan 11 of the same edition (21 more 鵠)."""
    return [replace(d, juan_id=9001, juan_number=11, juan_label="卷11", doc_id=f"9001{d.doc_id}")
            for d in documents_for_juan(seed_juan)]


def test_a_pulled_generation_answers_once_warm_the_one_before_meanwhile(servers, seed_juan):
    a, b, shared = servers
    b.warm()
    first = b.version()
    held, entered, seen = threading.Event(), threading.Event(), []

    def warmer():  # as gunicorn's: a search and the tables kept per generation, here held until released
        seen.append((b.version(), b.search(SearchQuery("鵠")).count))
        entered.set()
        held.wait(60)

    b.follow_in_background(warmer)
    a.replace_juans(set(), second_juan(seed_juan))
    assert a.search(SearchQuery("鵠")).count == 42  # the importing process reads its own write at once
    publish(a, shared)
    name, changed = pull(b, shared)
    assert changed and name != first and b.current_link.resolve().name == name
    # Swapped in, still warming: the generation before answers, and names itself as the version.
    assert b.search(SearchQuery("鵠")).count == 21
    assert b.version() == first
    assert entered.wait(60)
    assert seen == [(name, 42)]  # the warming thread reads the new generation
    assert b.search(SearchQuery("鵠")).count == 21 and b.version() == first  # held: still the one before
    # What the index holds for a write or the repair is the current generation's.
    assert set(b.indexed_juans()) == {seed_juan.pk, 9001}
    thread = b.handover.running(str(b.current_link))
    assert thread is not None and thread.is_alive()
    held.set()
    thread.join(60)
    assert not thread.is_alive() and b.handover.running(str(b.current_link)) is None
    assert b.search(SearchQuery("鵠")).count == 42 and b.version() == name
    assert seen == [(name, 42)]  # warmed once


def test_without_following_the_first_search_loads_the_new_generation(servers, seed_juan):
    """Commands and tests (nothing turned on): the first search after a swap reads it."""
    a, b, shared = servers
    assert b.search(SearchQuery("鵠")).count == 21
    a.replace_juans(set(), second_juan(seed_juan))
    publish(a, shared)
    pull(b, shared)
    assert b.search(SearchQuery("鵠")).count == 42 and b.handover.running(str(b.current_link)) is None


def test_a_generation_that_fails_to_load_is_met_by_the_next_search(servers, seed_juan):
    """A generation the warming thread cannot load is not retried in the background: the next
    search loads it itself and meets the error, as without the hand-over."""
    a, b, shared = servers
    b.warm()
    b.follow_in_background()
    a.replace_juans(set(), second_juan(seed_juan))
    publish(a, shared)
    name, _ = pull(b, shared)
    (b.current_link.resolve() / "juans.json").write_text("[]")  # unreadable from now on
    assert b.search(SearchQuery("鵠")).count == 21  # the one before, while the thread tries
    thread = b.handover.running(str(b.current_link))
    if thread is not None:
        thread.join(30)
    assert (str(b.current_link), name) in b.handover.failed
    with pytest.raises(Exception, match="juans.json"):
        b.search(SearchQuery("鵠"))


def test_a_page_kept_while_the_generation_before_answers_is_not_served_after_the_swap(servers, seed_juan, client,
                                                                                       page_cache):
    """A worker's first search after a swap starts the hand-over and answers from the generation
    before; the page cache's key named the new generation (read from the link before the search
    started the hand-over), so the old answer was kept under it and served by every worker once the
    new one answered (前漢書: commentator=顏師古 count 0, a cache hit for 7 days, where ?page=1 gave 588)."""
    a, b, shared = servers
    b.warm()
    first = b.version()
    held = threading.Event()
    b.follow_in_background(lambda: held.wait(60))
    a.replace_juans(set(), second_juan(seed_juan))
    publish(a, shared)
    name, _ = pull(b, shared)
    before = client.get("/api/search/", {"q": "鵠"})
    assert before.json()["count"] == 21  # the generation before answers while the new one warms
    assert b.version() == first
    held.set()
    thread = b.handover.running(str(b.current_link))
    thread.join(60)
    assert b.version() == name
    after = client.get("/api/search/", {"q": "鵠"})
    assert after.json()["count"] == 42 and "cache" not in after.get("Server-Timing", "")
    again = client.get("/api/search/", {"q": "鵠"})
    assert again.json()["count"] == 42 and "cache" in again["Server-Timing"]  # the new answer is kept
