"""The search engine answers threads at once as it answers them one by one: gunicorn.conf.py
serves each process's requests from a pool of threads (config/workers.py)."""
from concurrent.futures import ThreadPoolExecutor

from search.backends import SearchQuery, get_search_backend
from bench.mix import QUERY_MIX


def answer(query: SearchQuery) -> tuple:
    """What a search page shows of ``query``: count, passages, the first 30 hits in order
    (place and KWIC), the hits per juan."""
    results = get_search_backend().search(query)
    first = [(h.juan_number, h.section_position, h.before, h.match, h.after) for h in results.hits[:30]]
    return results.count, results.passages, first, results.juan_counts()


def test_threads_searching_at_once_get_what_one_thread_gets(seed_backend):
    queries = [SearchQuery(q, sort=sort, context=c) for q in QUERY_MIX[:16]
               for sort, c in (("text", 15), ("after", 5), ("before", 10), ("relevance", 15))]
    alone = [answer(q) for q in queries]
    assert sum(a[0] for a in alone) > 1000 and sum(a[0] > 0 for a in alone) == len(alone)
    seed_backend._loaded.clear()  # the threads open the index together, too
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(answer, queries)) == alone
