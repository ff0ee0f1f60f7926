"""A time budget for every request (issue 17): no page or API call runs unbounded.

``RequestBudgetMiddleware`` sets a deadline ``settings.REQUEST_BUDGET_SECONDS`` (env
``REQUEST_BUDGET_SECONDS``, default 20 s) after the request arrived; ``0`` sets none. Under
gunicorn (``config.workers.ThreadWorker``) a request arrives when its first bytes do
(``environ[QUEUED_AT]``), so the time it waited for a thread counts: one that waited past
its budget is answered at once with the 503 (while "waiting for a worker", with a
``Retry-After``), not worked on for a client that has given up. Elsewhere (the test
client, another server) the budget starts when the middleware runs. The loops whose length depends on
the input call ``check(what, advice)`` (reading a section's pieces, highlighting, rendering
pieces, rendering search hits and KWIC, exports built in one piece); past the deadline it
raises ``BudgetExceeded``, which the middleware answers with a 503: an HTML page, or JSON
under ``/api/`` (``{"detail", "kind": "time_budget", "narrow"}``), saying what took too
long and how to narrow the request. Streamed responses (whole-work exports) are sent as
they are produced and are not cut.

The deadline lives in a ``contextvars.ContextVar`` (each thread or task has its own);
``clock`` is ``time.monotonic``, replaced by tests with a fake clock. Outside a request
(commands, tests calling functions directly) ``check`` does nothing.
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render

from .api_errors import bilingual

_deadline: ContextVar[float | None] = ContextVar("request_deadline", default=None)
#: The WSGI environ key in which ``config.workers.ThreadWorker`` puts the ``time.monotonic()``
#: at which a request's first bytes arrived.
QUEUED_AT = "classics.queued_at"
#: The clock deadlines are read on (seconds); tests replace it.
clock = time.monotonic
#: Advice when a request waited past its budget before any work began, in English and Chinese.
BUSY = "The server was busy: try again in a moment."
BUSY_ZH = "伺服器忙碌：請稍後再試。"
#: Advice when a check names none, in English and Chinese (the 503 page's and the API's ``narrow``).
NARROW = "Ask for less: one section or one page of it, fewer search hits per page, or a narrower query."
NARROW_ZH = "請縮小所求：只看一節或一節之一頁，檢索時加上書、卷或層次的範圍，或換一個較少結果的檢索式。"
#: What happened, in Chinese, when the exception names nothing else (``BudgetExceeded.detail_zh``),
#: as the API says it (the 503 page, ``templates/503.html``, says 此頁所需…).
STOPPED_ZH = "此請求所需超過每次請求的時限（{seconds:g} 秒），已停止。"
#: What happened to a request that waited past its budget for a worker, in Chinese.
WAITED_ZH = "此請求等候伺服器的時間超過每次請求的時限（{seconds:g} 秒），未曾開始。"


class BudgetExceeded(Exception):
    """The request's time budget ran out during ``what``; ``advice`` says how to narrow it."""

    def __init__(self, what: str, advice: str = "", retry_after: int | None = None, advice_zh: str = "",
                 detail: str = "", detail_zh: str = "", log: str = ""):
        self.what, self.advice = what or "this request", advice or NARROW
        #: What the log says of the 503 when the budget did not run out (work that goes on without
        #: the request, or was not started), in place of "time budget (N s) exceeded … while …".
        self.log = log
        #: What happened, in English and in Chinese, in place of "This request took longer than
        #: the time budget…" and 此頁所需超過每次請求的時限…已停止: work that was not stopped
        #: but goes on after the answer (``config.kept_work``).
        self.detail, self.detail_zh = detail, detail_zh
        #: The advice in Chinese for the HTML page, in place of its general 請縮小所求… when the
        #: general advice would not help (a page that cannot be asked for in a smaller piece).
        self.advice_zh = advice_zh
        #: Seconds after which the same request may succeed (sent as ``Retry-After``), or
        #: None when it would take as long again.
        self.retry_after = retry_after
        super().__init__(f"time budget exceeded while {self.what}")


def check(what: str = "", advice: str = "", advice_zh: str = "") -> None:
    """Raise ``BudgetExceeded(what, advice, advice_zh=advice_zh)`` when the current request is past
    its deadline (``advice_zh``: the advice in Chinese, ``NARROW_ZH`` when "")."""
    deadline = _deadline.get()
    if deadline is not None and clock() > deadline:
        raise BudgetExceeded(what, advice, advice_zh=advice_zh)


def remaining() -> float | None:
    """Seconds left of the current request's budget (negative when past it), None without one."""
    deadline = _deadline.get()
    return None if deadline is None else deadline - clock()


@contextmanager
def budget(seconds: float | None, start: float | None = None):
    """Run the block with a deadline ``seconds`` after ``start`` (a ``clock()`` reading;
    default now); ``None`` or ``0`` seconds: none."""
    token = _deadline.set(((clock() if start is None else start) + seconds) if seconds else None)
    try:
        yield
    finally:
        _deadline.reset(token)


class RequestBudgetMiddleware:
    """Every request runs with a deadline (``settings.REQUEST_BUDGET_SECONDS``) and a
    ``BudgetExceeded`` becomes a 503 that says what to narrow (see module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        seconds = getattr(settings, "REQUEST_BUDGET_SECONDS", 0)
        queued_at = request.META.get(QUEUED_AT)
        with budget(seconds, queued_at if isinstance(queued_at, float) else None):
            if seconds and isinstance(queued_at, float):
                try:
                    check("waiting for a worker", BUSY, BUSY_ZH)
                except BudgetExceeded as exc:
                    exc.retry_after = max(1, round(seconds / 4))
                    exc.detail_zh = WAITED_ZH.format(seconds=seconds)
                    return budget_response(request, exc)
            return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, BudgetExceeded):
            return None
        return budget_response(request, exception)


def budget_response(request, exc: BudgetExceeded):
    """The 503 for ``exc``: JSON under ``/api/``, ``{"detail", "kind": "time_budget", "narrow"}``,
    each in Chinese then English as every error of the API (``config.api_errors.bilingual``: the
    exception's own Chinese, else ``STOPPED_ZH`` and ``NARROW_ZH``), else an HTML page;
    ``Retry-After`` only when ``exc.retry_after`` is set (a request that did not get to run),
    since otherwise the same request would take as long again; the page of such a GET says
    when it will try again and does (a quotation map being made is read once it is kept), with
    a link to try at once and a button to stop."""
    seconds = getattr(settings, "REQUEST_BUDGET_SECONDS", 0)
    if exc.log:
        logging.getLogger("django.request").warning("503 on %s: %s", request.get_full_path(), exc.log)
    else:
        logging.getLogger("django.request").warning("time budget (%s s) exceeded on %s while %s",
                                                    seconds, request.get_full_path(), exc.what)
    detail = exc.detail or f"This request took longer than the time budget of {seconds:g} s (while {exc.what})."
    if request.path_info.startswith("/api/"):
        detail_zh = exc.detail_zh or STOPPED_ZH.format(seconds=seconds)
        response = JsonResponse({"detail": bilingual(detail_zh, detail), "kind": "time_budget",
                                 "narrow": bilingual(exc.advice_zh or NARROW_ZH, exc.advice)}, status=503,
                                json_dumps_params={"ensure_ascii": False})
    else:  # the page says the same, its Chinese defaulting to the same words (templates/503.html)
        # a request that did not get to run (Retry-After) is tried again by the page itself after the wait
        # (templates/503.html, static/js/retry.js): a GET only, never a form sent again
        again = request.get_full_path() if exc.retry_after is not None and request.method in ("GET", "HEAD") else None
        response = render(request, "503.html", {"detail": detail, "advice": exc.advice, "seconds": seconds,
                                                "advice_zh": exc.advice_zh, "detail_zh": exc.detail_zh,
                                                "retry_after": exc.retry_after, "again": again}, status=503)
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response
