"""Every page and API call has a time budget (issue 17): a deadline set per request by
``config.budget.RequestBudgetMiddleware`` and checked in the loops that can be long; past it,
a 503 that says what to narrow. A fake clock stands in for time: no test waits.
"""
import re

import pytest

from config import budget
from reader.models import Piece


class FakeClock:
    """Reads 0 when the request starts (the deadline is set), then ``later`` after ``calls``
    more readings: the budget runs out at a chosen check."""

    def __init__(self, calls: int = 0, later: float = 1000.0):
        self.readings, self.calls, self.later = 0, calls, later

    def __call__(self) -> float:
        self.readings += 1
        return 0.0 if self.readings <= self.calls + 1 else self.later


@pytest.fixture
def clock(monkeypatch, settings):
    settings.REQUEST_BUDGET_SECONDS = 20
    fake = FakeClock()
    monkeypatch.setattr(budget, "clock", fake)
    return fake


def test_a_page_past_its_budget_is_a_503_saying_what_to_narrow(client, seed_juan, clock):
    response = client.get(seed_juan.get_absolute_url(), {"hl": "射"})
    assert response.status_code == 503
    html = response.content.decode()
    assert "費時過久，未能答覆 (503)" in html
    assert "已停止。請縮小所求：只看一節或一節之一頁，檢索時加上書、卷或層次的範圍，或換一個較少結果的檢索式。</p>" in html
    assert ("This request took longer than the time budget of 20 s (while reading the section&#x27;s pieces). "
            "Ask for less: one section or one page of it") in html
    assert "Retry-After" not in response
    assert 'class="retry"' not in html and "retry.js" not in html  # the same request would take as long again


def test_the_api_answers_503_in_json(client, seed_juan, clock):
    response = client.get(f"/api/editions/{seed_juan.edition_id}/juans/10/sections/2/")
    assert response.status_code == 503
    assert response.json() == {
        "detail": "此請求所需超過每次請求的時限（20 秒），已停止（This request took longer than the time budget of 20 s "
                  "(while reading the section's pieces).）",
        "kind": "time_budget",
        "narrow": "請縮小所求：只看一節或一節之一頁，檢索時加上書、卷或層次的範圍，或換一個較少結果的檢索式（Ask for less: one "
                  "section or one page of it, fewer search hits per page, or a narrower query.）"}


def test_search_hits_are_checked(client, seed_backend, clock, monkeypatch):
    response = client.get("/api/search/", {"q": "射"})
    assert response.status_code == 503
    assert response.json()["detail"] == ("此請求所需超過每次請求的時限（20 秒），已停止（This request took longer than "
                                         "the time budget of 20 s (while rendering the search hits).）")
    # A page of the default size (20) or fewer: the time went to the search, narrow it.
    assert response.json()["narrow"] == ("請縮小檢索：用較長的詞句，只查一書或一卷（work=、juan=），或少選幾個層次（layer=）"
                                         "（Narrow the search: a longer phrase, one work or juan (work=, juan=), "
                                         "or fewer layers (layer=).）")
    monkeypatch.setattr(budget, "clock", FakeClock())
    small = client.get("/api/search/", {"q": "射", "page_size": 5})
    assert (small.status_code, small.json()["narrow"]) == (503, response.json()["narrow"])
    monkeypatch.setattr(budget, "clock", FakeClock())
    large = client.get("/api/search/", {"q": "射", "page_size": 200})
    assert (large.status_code, large.json()["narrow"]) == (503, (
        "請每頁少求幾處（page_size=200，預設 20），或縮小檢索：用較長的詞句，只查一書或一卷（work=、juan=），或少選幾個層次（layer=）"
        "（Ask for fewer hits per page (page_size=200 asked, 20 by default), or narrow the search: a longer phrase, "
        "one work or juan (work=, juan=), or fewer layers (layer=).）"))
    monkeypatch.setattr(budget, "clock", FakeClock())  # a clock per request
    page = client.get("/search/", {"q": "射"})
    assert page.status_code == 503 and "while rendering the search hits" in page.content.decode()


def test_highlighting_rendering_and_parallels_are_checked(client, seed_juan, monkeypatch, settings):
    """The budget runs out at a later check: while highlighting, rendering, finding parallels."""
    settings.REQUEST_BUDGET_SECONDS = 20
    juan = seed_juan.get_absolute_url()
    reading = -(-Piece.objects.filter(section__juan=seed_juan).count() // 500)  # a check per 500 pieces read
    assert reading == 2
    monkeypatch.setattr(budget, "clock", FakeClock(calls=reading))  # the reading's checks pass
    assert "while finding the highlighted words" in client.get(juan, {"hl": "射"}).content.decode()
    monkeypatch.setattr(budget, "clock", FakeClock(calls=reading))
    html = client.get(juan).content.decode()  # no highlight: the next check is the rendering's
    assert "while rendering the section&#x27;s text" in html
    assert "Read a long section one page at a time (?page=)." in html
    monkeypatch.setattr(budget, "clock", FakeClock(calls=1))
    section = client.get(seed_juan.sections.get(position=2).get_absolute_url()).content.decode()
    assert "while finding parallel passages" in section


def test_a_juans_export_past_the_budget_goes_on_and_is_kept(client, seed_juan, clock, monkeypatch):
    """A juan's export is made in a thread of its own (``api.views.made_export``), once however many
    ask: past the request's budget the answer is a 503 that says it is being made, with
    ``Retry-After`` (the juan's characters at ``JUAN_EXPORT_SECONDS_PER_CHAR`` before a rate is
    measured), and the export goes on to its end and is kept; it was cut and thrown away."""
    from api import juan_exports

    monkeypatch.setattr(juan_exports.JUAN_EXPORTS, "clock", lambda: 1000.0)
    monkeypatch.setattr(juan_exports.JUAN_EXPORTS, "rate", None)
    response = client.get(f"/api/editions/{seed_juan.edition_id}/juans/10/export/source/")
    assert (response.status_code, response["Retry-After"]) == (503, "1")
    assert response.json()["detail"] == ("本卷的匯出檔正在作成：所需時間超過一次請求可等候的時限，作成後即存留（The export "
                                         "of this juan is being made: it takes longer than a request may wait, goes on "
                                         "without this request and is kept when done.）")


def test_within_the_budget_nothing_changes(client, seed_juan, monkeypatch, settings):
    settings.REQUEST_BUDGET_SECONDS = 20
    monkeypatch.setattr(budget, "clock", FakeClock(later=19.0))  # every check sees 19 s: within 20
    assert client.get(seed_juan.get_absolute_url(), {"hl": "射"}).status_code == 200
    settings.REQUEST_BUDGET_SECONDS = 0  # no budget at all
    monkeypatch.setattr(budget, "clock", FakeClock(later=10**9))
    assert client.get(seed_juan.get_absolute_url(), {"hl": "射"}).status_code == 200


def test_check_outside_a_request_does_nothing(monkeypatch):
    monkeypatch.setattr(budget, "clock", FakeClock(later=10**9))
    budget.check("anything")  # no deadline set: commands and direct calls are not cut
    with budget.budget(5), pytest.raises(budget.BudgetExceeded) as info:
        budget.check("counting", "Count less.")
    assert (str(info.value), info.value.advice) == ("time budget exceeded while counting", "Count less.")


def test_collation_is_checked_row_by_row(monkeypatch):
    """Pairing n base notes with m witness notes scores n × m pairs: the budget is checked
    before each row, so the work done past the deadline is at most one row."""
    from collation.align import pair

    scored = []

    def score(a, b):
        scored.append((a, b))
        return 1.0

    monkeypatch.setattr(budget, "clock", FakeClock(calls=2))  # two rows within the budget
    with budget.budget(20), pytest.raises(budget.BudgetExceeded) as info:
        pair(list("abcdef"), list("abcdef"), score)
    assert (len(scored), info.value.what) == (12, "pairing sections or notes to collate")


def test_the_wait_for_a_worker_counts(client, seed_juan, settings):
    """Under gunicorn (config/workers.py) the budget starts when the request arrived
    (``environ[QUEUED_AT]``): one that waited past it is a 503 at once, with a Retry-After;
    one that waited part of it has the rest."""
    import time

    settings.REQUEST_BUDGET_SECONDS = 20
    late = client.get(f"/api/editions/{seed_juan.edition_id}/juans/10/sections/2/",
                      **{budget.QUEUED_AT: time.monotonic() - 25})
    assert (late.status_code, late["Retry-After"], late.json()) == (503, "5", {
        "detail": "此請求等候伺服器的時間超過每次請求的時限（20 秒），未曾開始（This request took longer than the time budget "
                  "of 20 s (while waiting for a worker).）",
        "kind": "time_budget", "narrow": "伺服器忙碌：請稍後再試（The server was busy: try again in a moment.）"})
    page = client.get(seed_juan.get_absolute_url(), **{budget.QUEUED_AT: time.monotonic() - 25})
    assert page.status_code == 503 and "while waiting for a worker" in page.content.decode()
    seen = []

    def view_budget(get_response):
        def middleware(request):
            seen.append(budget.remaining())
            return get_response(request)
        return middleware

    from config.budget import RequestBudgetMiddleware
    from django.test import RequestFactory
    from django.http import HttpResponse

    request = RequestFactory().get("/")
    request.META[budget.QUEUED_AT] = time.monotonic() - 15
    assert RequestBudgetMiddleware(view_budget(lambda r: HttpResponse("ok")))(request).status_code == 200
    assert 4 < seen[0] <= 5  # 20 s from its arrival, 15 s ago
    request = RequestFactory().get("/")
    RequestBudgetMiddleware(view_budget(lambda r: HttpResponse("ok")))(request)  # no stamp (not gunicorn)
    assert 19 < seen[1] <= 20


def test_parallels_past_their_own_limit_leave_the_section_page_without_them(client, seed_juan, monkeypatch, settings):
    """A section's parallels get ``SECTION_PARALLELS_SECONDS`` of the request's budget: past
    them the page is answered without them (a link looks them up on their own page) and the
    page cache does not keep it; past the request's own budget it is the 503 as before. They
    are found in a thread (``pages.views.PARALLELS``) held here on an event: the time they take
    is the fake clock's."""
    import threading

    from pages import views

    now, release = [0.0], threading.Event()
    monkeypatch.setattr(budget, "clock", lambda: now[0])
    real = views.find_parallels

    def three_seconds(text, exclude=None, limit=50, own_work=None):
        now[0] += 3.0
        release.wait(30)
        return real(text, exclude=exclude, limit=limit, own_work=own_work)

    monkeypatch.setattr(views, "find_parallels", three_seconds)
    section = seed_juan.sections.get(position=2)
    settings.REQUEST_BUDGET_SECONDS, settings.SECTION_PARALLELS_SECONDS = 20, 0.05
    try:
        late = client.get(section.get_absolute_url())
        html = late.content.decode()
        assert late.status_code == 200 and late.page_cacheable is False
        # linked by the section's key, not its text (a link of 4.5 KB was past the request-line limit)
        key = f"{seed_juan.edition_id}/10/2"
        assert f'相關段落費時較久，未列於此：<a href="/parallels/?section={key}">另頁查看</a>。' in html
        assert "未見相關段落" not in html
        release.set()
        views.PARALLELS.forget()

        now[0] = 0.0
        settings.SECTION_PARALLELS_SECONDS = 5.0  # found within the parallels' limit: listed, kept
        listed = client.get(section.get_absolute_url())
        assert listed.status_code == 200 and listed.page_cacheable is True
        assert "相關段落費時較久" not in listed.content.decode()
        views.PARALLELS.forget()

        now[0] = 0.0
        release.clear()
        settings.REQUEST_BUDGET_SECONDS, settings.SECTION_PARALLELS_SECONDS = 2, 0  # past the request's own budget: its 503
        over = client.get(section.get_absolute_url())
        assert over.status_code == 503 and "while finding parallel passages" in over.content.decode()
    finally:
        release.set()


def test_a_hit_list_is_written_within_the_budget(client, seed_backend, monkeypatch, settings):
    """A hit list is written in the request and then sent: past the budget, the 503 that says
    to narrow the query, not a file streamed for as long as it takes (133 s during an import)."""
    settings.REQUEST_BUDGET_SECONDS = 20
    monkeypatch.setattr(budget, "clock", FakeClock())
    response = client.get("/api/search/export/tsv/", {"q": "射", "edition": "禮書綱目"})
    assert response.status_code == 503
    assert response.json() == {
        "detail": "此請求所需超過每次請求的時限（20 秒），已停止（This request took longer than the time budget of 20 s "
                  "(while writing the hit list).）",
        "kind": "time_budget", "narrow": "請縮小檢索（一書、一卷或一個層次），或以 /api/search/ 分頁讀取（Narrow the query "
                                         "(a work, a juan or a layer), or page through /api/search/.）"}
    monkeypatch.setattr(budget, "clock", FakeClock(later=19.0))  # every check within the budget
    whole = client.get("/api/search/export/tsv/", {"q": "鵠", "edition": "禮書綱目"})
    rows = b"".join(whole.streaming_content).decode().splitlines()
    assert whole.status_code == 200 and len(rows) == 22  # the header and the seed's 21 鵠
    assert rows[1].split("\t")[:8] == ["禮書綱目", "卷十", "2", "張侯", "注", "子熊侯同參讀為糝糝雜也雜侯者豹", "鵠",
                                       "而麋飾下天子大夫也干讀為豻豻侯"]


def test_the_parallels_page_finds_a_sections_by_its_key(client, seed_juan):
    """``/parallels/?section=<edition>/<juan>/<position>``, the section page's link when its
    parallels took too long: the parallels of the section's whole main text, the section itself
    left out, as ``?text=`` with ``from=`` gives them; the text stays out of the URL and the form."""
    from collation.parallels import section_main_text

    section = seed_juan.sections.get(position=2)
    main, key = section_main_text(section), f"{seed_juan.edition_id}/10/2"
    by_key = client.get("/parallels/", {"section": key}).content.decode()
    by_text = client.get("/parallels/", {"text": main, "from": key}).content.decode()
    listed = by_key[by_key.index('<section class="parallels"'):by_key.index("</section>")]
    assert listed == by_text[by_text.index('<section class="parallels"'):by_text.index("</section>")]
    assert f"之主文（{len(main)} 字）（本節不列）" in by_key and 'required></textarea>' in by_key
    assert "所選出自" in by_text and "之主文" not in by_text


def test_the_quotation_map_not_started_says_what_helps_there(client, seed_juan, clock, monkeypatch):
    """The map cannot be asked for in a shorter span: when as many maps are being made as the
    server takes (``collation.views.MAPS``), its 503 says to try again later or to read a
    section's own parallels, in both languages, and not the parallels page's 'shorter span'. Its
    ``Retry-After`` is when the first of the maps being made is expected to be made (a place frees
    then): here two maps at the default 1 ms a character, 30,000 characters begun 12 s ago (18 s
    left) and 5,000 begun 2 s ago (3 s left): 3 s, not a flat 10 s."""
    from collation import views
    from config.kept_work import Crowded

    def crowded(key, compute, wait, size=0):
        raise Crowded("5 quotation-map computations running or waiting")

    monkeypatch.setattr(views.MAPS, "answer", crowded)
    monkeypatch.setattr(views.MAPS, "clock", lambda: 1012.0)
    monkeypatch.setattr(views.MAPS, "rate", None)
    monkeypatch.setattr(views.MAPS, "begun", {"a": (1000.0, 30_000), "b": (1010.0, 5_000)})
    response = client.get("/works/禮書綱目/juan/10/quotations/")
    assert response.status_code == 503 and response["Retry-After"] == "3"
    html = response.content.decode()
    assert "<h1>請稍候，3 秒後再試 (503)</h1>" in html and 'data-retry-after="3"' in html
    assert ("<p>其他引文地圖正在作成，本卷的未能開始；其中最先的預計 3 秒後作成。引文地圖一次查全卷各節，費時較多：請稍後再試"
            "（地圖一旦作成即存留），或打開本卷（/works/禮書綱目/juan/10/）的一節，看其下的「相關段落」。</p>") in html
    assert ("<p lang=\"en\">Other quotation maps are being made: this one was not started; the first of them is "
            "expected to be made in 3 s. "
            "The quotation map looks up every section of the juan at once: try again later (a map once made is kept), "
            "or open a section of the juan (/works/禮書綱目/juan/10/) and read its own parallel passages (相關段落) "
            "under it.</p>") in html
    assert "shorter span" not in html and "請縮小所求" not in html
    monkeypatch.setattr(views.MAPS, "begun", {"b": (1000.0, 5_000)})  # overdue: 1 s at least
    assert client.get("/works/禮書綱目/juan/10/quotations/")["Retry-After"] == "1"
    monkeypatch.setattr(views.MAPS, "rate", 0.002)  # the rate the last map was made at: 10 s for 5,000
    monkeypatch.setattr(views.MAPS, "begun", {"b": (1010.0, 5_000)})
    assert client.get("/works/禮書綱目/juan/10/quotations/")["Retry-After"] == "8"


def test_the_readme_says_why_a_search_answers_503_while_an_import_runs_and_what_helps(client, seed_backend, clock,
                                                                                      monkeypatch):
    """A new user searched while a large import ran on the same machine and got a 503 the README
    never mentioned. Its paragraph names the budget as docs/production.md does (the setting and
    its default), the page's heading (費時過久) and the advice the search's 503 gives, page and API."""
    from .conftest import BASE_DIR

    readme = (BASE_DIR / "README.md").read_text(encoding="utf-8")
    paragraph = " ".join(next(p for p in readme.split("\n\n") if p.startswith("**Searching while a large import")).split())
    production = (BASE_DIR / "docs" / "production.md").read_text(encoding="utf-8")
    default = re.search(r"\| `REQUEST_BUDGET_SECONDS` \| `(\d+)` \(", production).group(1)
    assert default == "20" and f"(`REQUEST_BUDGET_SECONDS`, {default} s by default)" in paragraph
    page = client.get("/search/", {"q": "射"})
    assert page.status_code == 503
    assert "<h1>費時過久，未能答覆 (503)</h1>" in page.content.decode() and "**503** (費時過久, \"took too long\")" in paragraph
    monkeypatch.setattr(budget, "clock", FakeClock())  # a clock per request
    api = client.get("/api/search/", {"q": "射"}).json()
    assert (api["kind"], api["narrow"]) == ("time_budget", "請縮小檢索：用較長的詞句，只查一書或一卷（work=、juan=），或少選幾個"
                                                           "層次（layer=）（Narrow the search: a longer phrase, one work "
                                                           "or juan (work=, juan=), or fewer layers (layer=).）")
    assert ("narrow the search (a longer phrase, one work or juan, fewer layers) or try again later, after "
            "`Retry-After` seconds") in paragraph
    assert '(`"kind": "time_budget"` with `narrow`, or `"kind": "busy"` with `retry_after`)' in paragraph
    assert "(`nice -n 10` before the command above)" in paragraph
