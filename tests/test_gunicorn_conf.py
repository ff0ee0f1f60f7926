"""gunicorn.conf.py: each worker keeps the memory of freed large arrays (``keep_freed_memory``)
and is warmed before its first request (``post_worker_init``)."""
import os
import subprocess
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent

#: What both allocation scripts start with: gunicorn.conf.py loaded (its allocator tuned when the
#: first argument is "tuned") and the sizes of a search's arrays.
PRELUDE = """
import importlib.util, resource, sys
import numpy as np
spec = importlib.util.spec_from_file_location("conf", "gunicorn.conf.py")
conf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(conf)
if sys.argv[1] == "tuned":
    assert conf.keep_freed_memory() is True
sizes = [900_000, 450_000, 2_000_000, 100_000]
"""

#: A search's pattern of allocations: arrays of 100,000 to 2,000,000 numbers made and freed
#: again and again; prints the minor page faults of the last ten rounds.
SCRIPT = PRELUDE + """
for n in sizes:
    a = np.ones(n); b = np.ones(n // 2); del a, b
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    for n in sizes:
        a = np.ones(n); b = np.arange(n // 2); c = a[::2] + b; del a, b, c
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


#: The same arrays made by eight threads of a pool, two at a time (a gthread worker's threads
#: running searches); prints the page faults of the last ten rounds of each thread and the
#: number of glibc arenas (``malloc_info``'s heaps).
THREADED = PRELUDE + """
import ctypes, os, tempfile, threading
two = threading.Semaphore(2)
def work(rounds):
    for _ in range(rounds):
        with two:
            for n in sizes:
                a = np.ones(n); b = np.arange(n // 2); c = a[::2] + b; del a, b, c
def run(rounds):
    threads = [threading.Thread(target=work, args=(rounds,)) for _ in range(8)]
    [t.start() for t in threads]; [t.join() for t in threads]
run(1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
run(10)
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
libc = ctypes.CDLL("libc.so.6")
libc.fdopen.restype = ctypes.c_void_p
fd, path = tempfile.mkstemp()
stream = ctypes.c_void_p(libc.fdopen(fd, b"w"))
libc.malloc_info(0, stream); libc.fclose(stream)
print(faults, open(path).read().count("<heap nr="))
os.unlink(path)
"""


def _faults(mode: str, script: str = SCRIPT) -> str:
    done = subprocess.run([sys.executable, "-c", script, mode], cwd=BASE, capture_output=True, text=True, check=True)
    return done.stdout


def test_freed_arrays_are_reused_without_new_page_faults():
    plain, tuned = int(_faults("plain")), int(_faults("tuned"))
    # glibc maps each large block afresh (measured: 46,900 faults for these 40 rounds), the tuned
    # worker reuses its heap (948): a search of 之 went from 6.6 to 0.9 ms.
    assert tuned * 10 < plain, (plain, tuned)
    assert tuned < 5_000


def test_a_worker_s_threads_share_one_heap_and_still_reuse_it():
    """gunicorn.conf.py's threaded worker: glibc would give each thread an arena of its own,
    each keeping what it freed (9 arenas, 330 MB kept, for these threads); the tuned worker
    has one, and two threads making arrays at once reuse it without new page faults."""
    (plain, plain_arenas), (tuned, tuned_arenas) = (map(int, _faults(m, THREADED).split()) for m in ("plain", "tuned"))
    assert (plain_arenas > 2, tuned_arenas) == (True, 1)
    assert tuned * 5 < plain, (plain, tuned)  # measured: 22,000 against 600 to 1,700


def test_a_warmed_worker_answers_its_first_search_without_the_database(client, seed_juan, django_assert_num_queries,
                                                                       caplog, monkeypatch):
    """``post_worker_init`` reads what a first search answer needs from the database (the
    editions' names, the sections long enough to be paged): on the 30 M library a worker's
    first answer took 0.4 to 0.5 s of database time without it. It also has a generation
    swapped in later warmed in the background (tests/test_index_handover.py)."""
    import importlib.util
    import logging

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from reader import paging, printed_people
    from search import facets, service
    from search.backends.positional import PositionalIndexBackend
    from search.backends.positional.handover import Handover

    monkeypatch.setattr(PositionalIndexBackend, "handover", Handover())  # this process's, for this test only

    spec = importlib.util.spec_from_file_location("conf", BASE / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    def forget():
        service._places.clear()
        service._printed.clear()
        paging._long.clear()
        facets._tables.clear()
        facets._writers.clear()
        printed_people._printed.clear()

    forget()
    with CaptureQueriesContext(connection) as cold:  # what a cold worker's first answer asks
        client.get("/api/search/", {"q": "公"})
    # the editions (places, facets, with the authors the pieces' own bylines name: reader_piece), the printed 卷
    # and parts hits name, and the long sections:
    # ['reader_edition', 'reader_chapter', 'reader_juan', 'reader_section', 'reader_edition',
    # 'reader_edition'] in a process of its own; a table another test has left read in this
    # process (the long sections' of its database) may be missing
    read = [q["sql"].split(" FROM ")[1].split()[0].strip('"') for q in cold.captured_queries]
    assert read.count("reader_edition") >= 2 and {"reader_chapter", "reader_juan"} <= set(read) \
        and set(read) <= {"reader_edition", "reader_section", "reader_chapter", "reader_juan", "reader_piece"}, read
    forget()
    with caplog.at_level(logging.INFO, logger="gunicorn.error"):
        conf.post_worker_init(None)
    assert caplog.records[-1].getMessage().startswith("worker warmed in"), [r.getMessage() for r in caplog.records]
    assert PositionalIndexBackend.handover.enabled and len(PositionalIndexBackend.handover.warmers) == 1
    with django_assert_num_queries(0):
        answer = client.get("/api/search/", {"q": "公"}).json()
        by_author = client.get("/api/search/", {"q": "公", "author": "江"}).json()
    assert (answer["count"], answer["results"][0]["url"].split("#")[1]) == (171, "s1-p6")
    assert (by_author["count"], by_author["facets"]["author"]) == (171, [{"value": "江永", "count": 171, "selected": True}])


def test_two_servers_on_one_machine_do_not_share_a_control_socket(tmp_path):
    """gunicorn's control socket defaults to ``~/.gunicorn/gunicorn.ctl`` for every server a
    user starts: a second server took it from the first. It is off unless a server is given a
    path of its own (``GUNICORN_CONTROL_SOCKET``), as gunicorn itself reads the file."""
    probe = ("from gunicorn.config import Config; c = Config(); "
             "exec(compile(open('gunicorn.conf.py').read(), 'gunicorn.conf.py', 'exec'), cfg := {}); "
             "[c.set(k, v) for k, v in cfg.items() if k in c.settings]; "
             "print(c.control_socket_disable, c.control_socket)")
    env = {k: v for k, v in os.environ.items() if k != "GUNICORN_CONTROL_SOCKET"}
    off = subprocess.run([sys.executable, "-c", probe], cwd=BASE, env=env, capture_output=True, text=True, check=True)
    assert off.stdout.split()[0] == "True"
    own = tmp_path / "this-server.ctl"
    on = subprocess.run([sys.executable, "-c", probe], cwd=BASE, env={**env, "GUNICORN_CONTROL_SOCKET": str(own)},
                        capture_output=True, text=True, check=True)
    assert on.stdout.split() == ["False", str(own)]
