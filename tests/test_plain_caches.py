"""The file caches (page cache, rate-limit counters) hold plain data: a file put into their
folders cannot run code and is read as a miss (config/filecache.py)."""
import math
import pickle
import zlib
from array import array

import pytest
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache

from config.filecache import CounterFileCache, PlainDataError, PlainFileCache, dumps, loads
from pages.caching import BoundedFileCache, recent


class Opens:
    """Unpickled, it opens (creates) ``path``: code run by reading a file."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def pickled_entry(marker, compressed: bool) -> bytes:
    """A file as Django's file-based cache writes one (pickled expiry, then the pickled value,
    zlib-compressed or not), whose value runs code."""
    value = pickle.dumps(Opens(marker))
    return pickle.dumps(None) + (zlib.compress(value) if compressed else value)


def test_values_come_back_as_they_were_kept():
    times = array("d", [1700000000.25, 1700000001.5])
    page = ("本節經文".encode() + bytes(range(256)), [("Content-Type", "text/html; charset=utf-8"), ("ETag", '"x"')])
    assert loads(dumps(page)) == [page[0], [list(h) for h in page[1]]]
    entry = {"search": (60, times, array("d", [0.5, 2.0])), "anon": (60, array("d"), array("d"))}
    back = loads(dumps(entry))
    assert back == {"search": [60, times, array("d", [0.5, 2.0])], "anon": [60, array("d"), array("d")]}
    assert isinstance(back["search"][1], array) and back["search"][1].typecode == "d"
    assert loads(dumps([None, True, 3, -2.5, "卷十", {"a": [1]}])) == [None, True, 3, -2.5, "卷十", {"a": [1]}]
    for bad in ({1: "x"}, {1.5}, object(), array("i", [1]), math.nan):
        with pytest.raises(TypeError):
            dumps(bad)
    with pytest.raises(ValueError):
        dumps({"\x00": "b"})


@pytest.mark.parametrize("data", [
    b"", b"\x05\x00\x00", b"\xff\xff\xff\x7f{}", b"\x02\x00\x00\x00{}junk"[:5],
    b"\x18\x00\x00\x00" + b'{"\x00":"b","o":0,"n":99}', b"\x18\x00\x00\x00" + b'{"\x00":"d","o":0,"n":3}abc',
    b"\x02\x00\x00\x00\xff\xfe", b"\x17\x00\x00\x00" + b'{"\x00":"p","o":0,"n":0}',
])
def test_bytes_that_are_not_plain_data_are_refused(data):
    with pytest.raises(PlainDataError):
        loads(data)


@pytest.mark.parametrize("kind", ["pages", "counters"])
def test_a_crafted_file_runs_no_code_and_is_a_miss(tmp_path, kind):
    marker = tmp_path / "ran"
    folder = tmp_path / kind
    cache = BoundedFileCache(str(folder), {}) if kind == "pages" else CounterFileCache(str(folder), {})
    compressed = kind == "pages"
    # What the same file does to Django's own file-based cache: it runs the code.
    django_cache = FileBasedCache(str(tmp_path / "django"), {})
    (tmp_path / "django" / "x").parent.mkdir(exist_ok=True)
    with open(django_cache._key_to_file("page:1"), "wb") as f:
        f.write(pickled_entry(marker, compressed=True))
    django_cache.get("page:1")
    assert marker.exists()
    marker.unlink()

    fname = cache._key_to_file("page:1")
    for crafted in (pickled_entry(marker, compressed), b"PFC1" + pickled_entry(marker, compressed),
                    b"PFC1" + b"\x00" * 7 + b"\x7f" + pickle.dumps(Opens(marker)),
                    b"PFC1" + b"\x00" * 7 + b"\x7f" + zlib.compress(pickle.dumps(Opens(marker)))):
        with open(fname, "wb") as f:
            f.write(crafted)
        assert cache.get("page:1", "miss") == "miss"
        assert cache.has_key("page:1") is False or kind == "counters"
        assert not marker.exists()
    cache.set("page:1", [b"<p>kept</p>", [["ETag", '"1"']]], 60)
    assert cache.get("page:1") == [b"<p>kept</p>", [["ETag", '"1"']]]


@pytest.fixture
def alarm():
    """Fail a call that blocks (a FIFO opened for reading waits for a writer) after 10 s."""
    import signal

    def ring(signum, frame):
        raise TimeoutError("blocked for 10 s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("kind", ["pages", "counters"])
def test_a_folder_fifo_or_link_in_an_entrys_place_is_a_miss_never_followed(tmp_path, kind, alarm):
    """A folder in an entry's place made every read of that page
    (or client's counters) an IsADirectoryError, a 500; a FIFO hung the worker that read
    it; a link was written through by the counters' in-place write, so a link to a file the
    service may write (its database) had that file overwritten."""
    import os

    folder = tmp_path / kind
    cache = BoundedFileCache(str(folder), {}) if kind == "pages" else CounterFileCache(str(folder), {})
    victim = tmp_path / "db.sqlite3"
    value = [b"<p>kept</p>", [["ETag", '"1"']]]
    cache.set("other", value, 60)  # made the folder
    for place in ("empty folder", "folder of files", "fifo", "link"):
        fname = cache._key_to_file("page:1")
        if place == "empty folder":
            os.mkdir(fname)
        elif place == "folder of files":
            os.makedirs(os.path.join(fname, "x"))
        elif place == "fifo":
            os.mkfifo(fname)
        else:
            victim.write_bytes(b"precious rows")
            os.symlink(victim, fname)
        assert (cache.get("page:1", "miss"), cache.has_key("page:1"), cache.touch("page:1")) == ("miss", False, False)
        if place == "folder of files":  # cannot be removed: a miss each time, and an OSError on writing
            with pytest.raises(OSError):
                cache.set("page:1", value, 60)
            assert cache.get("page:1", "miss") == "miss"
            os.rmdir(os.path.join(fname, "x"))
            os.rmdir(fname)
            continue
        cache.set("page:1", value, 60)
        assert cache.get("page:1") == value and os.path.isfile(fname) and not os.path.islink(fname), place
        cache.delete("page:1")
    assert victim.read_bytes() == b"precious rows"
    # The counters' in-place write, given a link at once (no read before it removed it).
    if kind == "counters":
        fname = cache._key_to_file("page:2")
        os.symlink(victim, fname)
        cache.set("page:2", value, 60)
        assert victim.read_bytes() == b"precious rows" and not os.path.islink(fname)
        assert cache.get("page:2") == value
    assert cache.get("other") == value


def test_a_zlib_bomb_in_the_page_cache_is_a_miss(tmp_path):
    cache = PlainFileCache(str(tmp_path), {"OPTIONS": {"MAX_VALUE_BYTES": 1_000_000}})
    huge = dumps([b"\x00" * 5_000_000])
    with open(cache._key_to_file("page:2"), "wb") as f:
        f.write(b"PFC1" + b"\x00" * 6 + b"\xf0\x7f" + zlib.compress(huge, 9))  # expires never (+inf)
    assert cache.get("page:2", "miss") == "miss"
    cache.set("page:2", [b"\x00" * 500_000])
    assert cache.get("page:2") == [b"\x00" * 500_000]


def test_a_crafted_page_in_the_shared_cache_is_rendered_afresh(client, seed_juan, settings, tmp_path):
    """The page cache middleware reads the file a request's key names: a crafted one is a
    miss, the page is rendered, and the file is replaced by a good entry."""
    settings.PAGE_CACHE_SECONDS = 60
    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    settings.CACHES = {**settings.CACHES, settings.PAGE_CACHE: {
        "BACKEND": "pages.caching.BoundedFileCache", "LOCATION": str(tmp_path / "pages")}}
    recent.clear()  # (Django's test signals make the caches anew for the new CACHES)
    try:
        cache = caches[settings.PAGE_CACHE]
        assert isinstance(cache, BoundedFileCache)
        first = client.get("/works/禮書綱目/juan/10/")
        (entry,) = (tmp_path / "pages").iterdir()
        marker = tmp_path / "ran"
        entry.write_bytes(pickled_entry(marker, compressed=True))
        recent.clear()
        again = client.get("/works/禮書綱目/juan/10/")
        assert (again.status_code, again.content, marker.exists()) == (200, first.content, False)
        assert "cache;desc=hit" not in again["Server-Timing"]
        assert entry.read_bytes().startswith(b"PFC1")
        recent.clear()
        assert "cache;desc=hit" in client.get("/works/禮書綱目/juan/10/")["Server-Timing"]
    finally:
        recent.clear()


@pytest.mark.parametrize("kind", ["pages", "counters"])
def test_an_entry_larger_than_the_bound_is_a_miss_not_read_whole(tmp_path, kind, monkeypatch):
    """The counters read an entry whole whatever its size (a sparse
    file of gigabytes with a valid header was read into memory), and the page cache read the
    whole compressed file before inflating it. Read at most MAX_VALUE_BYTES."""
    options = {"OPTIONS": {"MAX_VALUE_BYTES": 1000}}
    cache = BoundedFileCache(str(tmp_path), options) if kind == "pages" else CounterFileCache(str(tmp_path), options)
    cache.set("k", [b"x" * 10], 60)
    fname = cache._key_to_file("k")
    with open(fname, "r+b") as f:
        f.truncate(64 * 2**20)  # a valid header, then 64 MiB (sparse) of zeros
    asked = []

    class Counting:
        """The open entry, recording how much each read asks for."""

        def __init__(self, f):
            self.f = f

        def read(self, n=-1):
            asked.append(n)
            return self.f.read(n)

    real = cache.read_payload
    monkeypatch.setattr(cache, "read_payload", lambda f: real(Counting(f)))
    assert cache.get("k", "miss") == "miss"
    assert asked == [1001]  # never -1: the whole file
    cache.set("k", [b"x" * 10], 60)
    assert cache.get("k") == [b"x" * 10]
