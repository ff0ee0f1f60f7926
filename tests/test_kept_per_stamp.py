"""reader.stamp.KeptPerStamp: a value kept per corpus stamp, computed by one thread while the
others answer from the value before; the first call of a process waits for it."""
import os
import threading

import pytest

from reader.stamp import KeptPerStamp, corpus_changed, corpus_version, watched


class Slow:
    """A ``compute`` that counts its calls and, while ``hold`` is set, waits for ``go``."""

    def __init__(self):
        self.calls, self.started, self.go, self.hold = 0, threading.Event(), threading.Event(), False

    def __call__(self):
        self.calls += 1
        value = f"table {self.calls} of {corpus_version()}"
        if self.hold:
            self.started.set()
            assert self.go.wait(10)
        return value


def in_thread(get) -> tuple[threading.Thread, list]:
    got: list = []
    thread = threading.Thread(target=lambda: got.append(get()))
    thread.start()
    return thread, got


@pytest.fixture
def stamp(settings, tmp_path):
    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    return settings.PAGE_CACHE_STAMP


def test_the_first_call_waits_for_the_one_thread_computing(stamp):
    compute = Slow()
    kept = KeptPerStamp(compute)
    compute.hold = True
    first, got_first = in_thread(kept.get)
    assert compute.started.wait(10)
    second, got_second = in_thread(kept.get)  # no value yet: waits for the first thread's
    second.join(0.2)
    assert second.is_alive() and got_second == []
    compute.go.set()
    first.join(10), second.join(10)
    assert got_first == got_second == ["table 1 of 0"] and compute.calls == 1
    assert kept.get() == "table 1 of 0" and compute.calls == 1  # kept: not computed again


def test_after_a_change_one_thread_computes_and_the_others_answer_from_the_value_before(stamp):
    compute = Slow()
    kept = KeptPerStamp(compute)
    assert kept.get() == "table 1 of 0"
    corpus_changed()
    changed = corpus_version()
    compute.hold = True
    computing, got = in_thread(kept.get)
    assert compute.started.wait(10)
    # meanwhile every other call answers at once from the value before, and computes nothing
    assert [kept.get() for _ in range(3)] == ["table 1 of 0"] * 3 and compute.calls == 2
    compute.go.set()
    computing.join(10)
    assert got == [f"table 2 of {changed}"]
    assert kept.get() == f"table 2 of {changed}" and compute.calls == 2


def test_a_value_computed_from_another_waits_for_its_current_one(stamp):
    """A thread computing a value reads the current value of what it is computed from, never
    the one before: else the stale one would be kept under the new stamp."""
    inner_compute = Slow()
    inner = KeptPerStamp(inner_compute)
    outer = KeptPerStamp(lambda: "from " + inner.get())
    assert outer.get() == "from table 1 of 0"
    corpus_changed()
    changed = corpus_version()
    inner_compute.hold = True
    reading, _ = in_thread(inner.get)  # another thread computes the inner value
    assert inner_compute.started.wait(10)
    assert inner.get() == "table 1 of 0"  # a request answers from the value before
    outer_thread, got = in_thread(outer.get)  # computing the outer value: waits for the inner one
    outer_thread.join(0.2)
    assert outer_thread.is_alive() and got == []
    inner_compute.go.set()
    reading.join(10), outer_thread.join(10)
    assert got == [f"from table 2 of {changed}"] and inner_compute.calls == 2


def test_a_failed_computation_keeps_nothing_and_the_next_call_computes(stamp):
    calls = []

    def compute():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return len(calls)

    kept = KeptPerStamp(compute)
    with pytest.raises(RuntimeError, match="the database went away"):
        kept.get()
    assert kept.get() == 2 and kept.get() == 2 and not kept.computing.locked()


def test_keys_kept_and_a_key_of_none(stamp):
    """``kept=2`` keeps the values of the two keys computed last (a new generation's and the one
    before it, which requests still answer from while the new one warms); a key of None keeps
    nothing."""
    key = {"now": "gen-a"}
    compute = Slow()
    kept = KeptPerStamp(compute, key=lambda: key["now"], kept=2)
    assert kept.get() == "table 1 of 0"
    key["now"] = "gen-b"
    assert kept.get() == "table 2 of 0"  # no other thread computing: this one does
    key["now"] = "gen-a"
    assert kept.get() == "table 1 of 0" and compute.calls == 2
    key["now"] = "gen-c"
    assert kept.get() == "table 3 of 0"
    key["now"] = "gen-b"
    assert kept.get() == "table 2 of 0" and compute.calls == 3
    key["now"] = "gen-a"  # the oldest computed: dropped
    assert kept.get() == "table 4 of 0" and compute.calls == 4
    key["now"] = None
    assert [kept.get(), kept.get()] == ["table 5 of 0", "table 6 of 0"]


def test_a_value_read_again_at_most_every_recheck_seconds_sees_its_own_process_change_at_once(stamp, settings):
    """``recheck``: within it the key is not read again, so a change another process made (the
    stamp touched from outside) is seen only later; but one this process made (``corpus_changed``)
    or a setting it changed (``override_settings``: the page size in a key) is seen at the next
    call. Seen a second late, the warm-up request of ``tests/test_api.py``'s
    test_a_search_asks_the_database_nothing, right after another test's import, got the long
    sections of the stamp before, and the request it counted read them again: 1 query."""
    import os

    compute = Slow()
    kept = KeptPerStamp(compute, key=lambda: (corpus_version(), getattr(settings, "SECTION_PAGE_CHARS", None)), recheck=60)
    assert kept.get() == "table 1 of 0"
    stamp.touch()  # another process's change: not read again within the 60 s
    os.utime(stamp, ns=(10**18, 10**18))
    assert kept.get() == "table 1 of 0" and compute.calls == 1
    corpus_changed()  # this process's: read at once
    changed = corpus_version()
    assert kept.get() == f"table 2 of {changed}" and kept.get() == f"table 2 of {changed}" and compute.calls == 2
    settings.SECTION_PAGE_CHARS = 300
    assert kept.get() == f"table 3 of {changed}" and compute.calls == 3


def test_a_value_of_the_stamp_before_is_noted_when_watched(settings, tmp_path):
    """Within ``watched`` (a request), a value given from before a change is noted, so that the
    page cache keeps no answer built from it; a recheck does not hide another process's change."""
    settings.PAGE_CACHE_STAMP = tmp_path / "stamp"
    compute = Slow()
    kept = KeptPerStamp(compute, recheck=60.0)
    first = kept.get()
    corpus_changed()
    assert kept.computing.acquire(timeout=10)
    try:
        with watched() as older:
            assert kept.get() == first
        assert older == [corpus_version()]
    finally:
        kept.computing.release()
    with watched() as older:
        assert kept.get() == f"table 2 of {corpus_version()}" and older == []
    os.utime(settings.PAGE_CACHE_STAMP, ns=(1, 1))  # as another process: not counted in this one's moves
    with watched() as older:
        assert kept.get() == f"table 3 of {corpus_version()}"  # read at once, not after 60 s
    assert kept.get() == f"table 3 of {corpus_version()}"
