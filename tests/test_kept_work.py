"""Work longer than a request may wait goes on without it and is kept (``config.kept_work``): a
juan's quotation map past ``QUOTATION_MAP_SECONDS`` is a 503 that says it is being made, with
``Retry-After``, and the next request after it is made gets it; requests that come while it is
made start no second one; a section's parallels past ``SECTION_PARALLELS_SECONDS`` are kept
for the section's next page. The computations are held on an event, not timed."""
import re
import threading
import time
from contextvars import ContextVar

import pytest
from django.test import Client

from collation import views as collation_views
from config import budget
from config.kept_work import PENDING, Crowded, KeptWork
from pages import views as page_views

MAP = "/works/禮書綱目/juan/10/quotations/"


@pytest.fixture
def held_map(monkeypatch, settings):
    """The quotation map waits for ``release`` (an event) before it is made; ``calls``: the juans
    it was asked to make, one per computation."""
    settings.REQUEST_BUDGET_SECONDS, settings.QUOTATION_MAP_SECONDS = 20, 0.05
    release, calls, real = threading.Event(), [], collation_views.juan_parallels
    # the maps' clock held still and no rate measured yet: Retry-After is the juan's characters
    # at QUOTATION_MAP_SECONDS_PER_CHAR
    monkeypatch.setattr(collation_views.MAPS, "clock", lambda: 1000.0)
    monkeypatch.setattr(collation_views.MAPS, "rate", None)

    def held(juan, **kwargs):
        calls.append(juan.number)
        release.wait(30)
        return real(juan, **kwargs)

    monkeypatch.setattr(collation_views, "juan_parallels", held)
    yield release, calls
    release.set()


def test_a_quotation_map_past_its_wait_is_made_to_its_end_and_kept(client, seed_juan, held_map):
    release, calls = held_map
    first = client.get(MAP)
    html = first.content.decode()
    assert first.status_code == 503 and first["Retry-After"] == "7"
    assert ("<p>本卷的引文地圖正在作成：所需時間超過一次請求可等候的時限，作成後即存留。"
            "請 7 秒後再試：屆時直接讀取已存的地圖。</p>") in html
    assert ('<p lang="en">The quotation map of this juan is being made: it takes longer than a request may wait '
            "(0.05 s), goes on without this request and is kept when done. Try again in 7 s: the map is then read "
            "from what was kept.</p>") in html
    assert "已停止" not in html and "took longer than the time budget" not in html
    # not a bare error: the page says when it tries again, and does (static/js/retry.js:
    # tests/browser/test_scholar_pages_browser.py), with a link to try at once
    assert "<h1>請稍候，7 秒後再試 (503)</h1>" in html and "費時過久" not in html
    assert ('<p class="retry" data-retry-after="7"><a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/quotations/">'
            '立即重試</a> <span lang="en">(try again now)</span><span class="retry-auto" hidden>：本頁於 <span class="retry-seconds">'
            '7</span> 秒後自動重試 <span lang="en">(this page tries again by itself)</span> <button type="button" class="retry-stop">'
            '停止自動重試</button></span></p>') in html
    assert '<script src="/static/js/retry.js" defer></script>' in html

    release.set()
    collation_views.MAPS.settle()
    second = client.get(MAP)
    page = second.content.decode()
    assert second.status_code == 200 and calls == [10]  # made once, read from what was kept
    assert len(re.findall(r'<tr id="s\d+">', page)) == 45
    assert "本卷各節未見於他書。" in page
    assert re.findall(r"<tfoot>.*?</tfoot>", page) == ['<tfoot><tr><td class="table-count" colspan="1">共 45 節</td></tr></tfoot>']


def test_two_requests_for_one_map_start_one_computation(seed_juan, held_map):
    release, calls = held_map
    started = collation_views.MAPS.started
    answers = []

    def ask():
        answers.append(Client().get(MAP).status_code)

    askers = [threading.Thread(target=ask) for _ in range(2)]
    for t in askers:
        t.start()
    for t in askers:
        t.join()
    assert answers == [503, 503] and calls == [10] and collation_views.MAPS.started == started + 1
    release.set()
    collation_views.MAPS.settle()
    assert Client().get(MAP).status_code == 200 and calls == [10]


def test_a_map_made_within_the_wait_is_answered_at_once(client, seed_juan, settings):
    """Made in its thread and waited for (no request budget: the wait alone bounds it, ten
    minutes here, so that no loaded machine makes it late)."""
    settings.REQUEST_BUDGET_SECONDS, settings.QUOTATION_MAP_SECONDS = 0, 600
    started = collation_views.MAPS.started
    response = client.get(MAP)
    assert response.status_code == 200 and "共 45 節" in response.content.decode()
    assert collation_views.MAPS.started == started + 1


def test_retry_after_is_the_time_left_to_make_the_map(client, seed_juan, held_map, settings, monkeypatch):
    """The seed juan's 6,916 characters of main text at 0.01 s each: 70 s to wait while the map is
    made from 1000.0 s on the maps' clock; 20 s later, 50 s; a map waiting for the thread behind it
    waits for what is left of it too; once made, the rate it was made at (here 30 s for 6,916
    characters) is the one reckoned with."""
    from collation.quotations import main_text_chars, section_texts

    release, calls = held_map
    settings.QUOTATION_MAP_SECONDS_PER_CHAR = 0.01
    assert main_text_chars(seed_juan) == sum(len(t) for _, t in section_texts(seed_juan)) == 6916
    first = client.get(MAP)
    assert first.status_code == 503 and first["Retry-After"] == "70" and "請 70 秒後再試" in first.content.decode()
    for _ in range(3000):  # its thread has begun it (at once, unless the machine is loaded)
        if collation_views.MAPS.begun:
            break
        time.sleep(0.01)
    monkeypatch.setattr(collation_views.MAPS, "clock", lambda: 1020.0)
    second = client.get(MAP)
    assert second.status_code == 503 and second["Retry-After"] == "50" and "Try again in 50 s" in second.content.decode()
    assert collation_views.MAPS.expected_wait("another juan", 1000) == 10 + 50  # its own 10 s after this one's 49.16
    assert calls == [10]
    monkeypatch.setattr(collation_views.MAPS, "clock", lambda: 1030.0)  # the map ends 30 s after it began
    release.set()
    collation_views.MAPS.settle()
    assert collation_views.MAPS.rate == 30 / 6916 and collation_views.MAPS.begun == {}
    assert collation_views.MAPS.expected_wait("key", 11526) == 50  # 11,526 characters at 30 s per 6,916: 49.997 s


def test_a_juan_over_the_largest_a_map_is_made_for_lists_its_sections(client, seed_juan, settings):
    """Over QUOTATION_MAP_MAX_CHARS no map is made: the page says so in both languages and links
    each section to its reading page and its own parallel passages."""
    settings.QUOTATION_MAP_MAX_CHARS = 6915
    started = collation_views.MAPS.started
    response = client.get(MAP)
    html = response.content.decode()
    assert response.status_code == 200 and collation_views.MAPS.started == started
    assert "<p>本卷經文 6916 字，超過引文地圖一次可查的 6915 字，不作全卷地圖：請逐節查看其「相關段落」（又見於何書何處）。</p>" in html
    assert ('<p lang="en">This juan has 6916 characters of main text, more than the 6915 a quotation map is made for: '
            "read the parallel passages of each of its 45 sections instead (where else its text is found).</p>") in html
    links = re.findall(r'<a href="/parallels/\?section=(\d+)/10/(\d+)">相關段落</a>', html)
    assert len(links) == 45 and [int(p) for _, p in links] == sorted(
        seed_juan.sections.values_list("position", flat=True)) and {e for e, _ in links} == {str(seed_juan.edition_id)}
    settings.QUOTATION_MAP_MAX_CHARS = 6916  # at the limit: the map
    assert "共 45 節" in client.get(MAP).content.decode()


def test_kept_work_refuses_more_than_its_threads_take_and_forgets_a_failure():
    release = threading.Event()
    work = KeptWork("test", lambda: 1, keep=2)
    for n in range(5):  # one running, four waiting for the thread
        assert work.answer(n, lambda: release.wait(30) and "done", 0) is PENDING
    with pytest.raises(Crowded):
        work.answer(5, lambda: "never", 0)
    assert work.answer(0, lambda: "not again", 0) is PENDING  # the one running is waited for, not started again
    release.set()
    work.settle()
    assert [work.answer(n, lambda: "again", 0) for n in (3, 4)] == ["done", "done"]  # the last two kept
    assert work.answer(0, lambda: "again", 5) == "again"  # the oldest forgotten: made again

    def fails():
        raise ValueError("no index")
    with pytest.raises(ValueError, match="no index"):
        work.answer("bad", fails, 5)
    assert work.answer("bad", lambda: "made", 5) == "made" and work.started == 8
    work.forget()


def test_kept_work_computes_in_the_askers_context_without_its_deadline():
    """The thread reads what the request that started it had set for itself (a context variable:
    the positional engine's pinned generation is one), and no request deadline (it runs to its end)."""
    asked = ContextVar("asked", default="nobody")
    work, token = KeptWork("test", lambda: 1, keep=2), asked.set("the request")
    try:
        with budget.budget(20):
            seen = work.answer("a", lambda: (asked.get(), budget.remaining(), threading.current_thread().name), 5)
    finally:
        asked.reset(token)
    assert seen == ("the request", None, "test_0")
    assert asked.get() == "nobody" and work.started == 1
    work.forget()


def test_kept_work_without_a_wait_computes_in_the_calling_thread_and_keeps_it():
    """``wait`` None (a command, a request with no time limit): computed in the thread that asks,
    kept as a computation of its own thread is; one running for the key is waited for instead."""
    work, release = KeptWork("test", lambda: 1, keep=2), threading.Event()
    assert work.answer("a", lambda: threading.current_thread().name, None) == threading.current_thread().name
    assert work.answer("a", lambda: "again", None) == threading.current_thread().name and work.started == 0
    assert work.answer("b", lambda: release.wait(30) and "in its thread", 0) is PENDING
    release.set()
    assert work.answer("b", lambda: "not again", None) == "in its thread" and work.started == 1
    work.forget()


def test_section_parallels_cut_by_their_limit_are_kept_for_the_next_page(client, seed_juan, monkeypatch, settings):
    """The section page is sent without its parallels when they take longer than
    ``SECTION_PARALLELS_SECONDS``; they are found to the end meanwhile and the next page lists them."""
    settings.REQUEST_BUDGET_SECONDS, settings.SECTION_PARALLELS_SECONDS = 20, 0.05
    release, calls, real = threading.Event(), [], page_views.find_parallels

    def held(text, exclude=None, limit=50, own_work=None):
        calls.append(exclude)
        release.wait(30)
        return real(text, exclude=exclude, limit=limit, own_work=own_work)

    monkeypatch.setattr(page_views, "find_parallels", held)
    section = seed_juan.sections.get(position=2)
    key = f"{seed_juan.edition_id}/10/2"
    try:
        late = client.get(section.get_absolute_url())
        assert late.status_code == 200 and late.page_cacheable is False
        assert f'相關段落費時較久，未列於此：<a href="/parallels/?section={key}">另頁查看</a>。' in late.content.decode()
        release.set()
        page_views.PARALLELS.settle()
        listed = client.get(section.get_absolute_url())
        html = listed.content.decode()
        assert listed.status_code == 200 and listed.page_cacheable is True
        assert "<p>未見相關段落。</p>" in html and "相關段落費時較久" not in html
        assert calls == [(seed_juan.edition_id, 10, 2)]  # found once
    finally:
        release.set()


def test_a_computation_running_does_not_keep_the_process_from_ending():
    """The threads are daemon threads: a process told to stop (a gunicorn worker, a server stopped
    with Ctrl-C) ends while a quotation map is still being made, and while others wait for a
    thread, instead of making them all first; a pool of ``concurrent.futures`` joins its
    threads at exit, and this process never ended (its map waits for an event never set)."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    script = """
import threading
import django
django.setup()
from config.kept_work import PENDING, KeptWork
never = threading.Event()
work = KeptWork("quotation-map", lambda: 1, keep=16)
assert [work.answer(juan, never.wait, 0) for juan in (10, 11, 12)] == [PENDING] * 3
print(sorted((t.name, t.daemon) for t in threading.enumerate() if t.name.startswith("quotation-map")))
"""
    ended = subprocess.run([sys.executable, "-c", script], cwd=settings.BASE_DIR, capture_output=True, text=True,
                           timeout=300, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"})
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "[('quotation-map_0', True)]\n", "")
