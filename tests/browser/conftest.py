"""Browser tests: Playwright driving Debian's Chromium (``/usr/bin/chromium``, installed by
``.ci/run`` with ``fonts-noto-cjk`` and ``fonts-hanazono``) against ``live_server``.

Every page is served with a Content-Security-Policy without 'unsafe-inline' (added on the
way in), and a test fails on any CSP violation or script error. Screenshots go to
``artifacts/screenshots/`` (not committed). A missing Chromium fails the tests: CI installs it.

``Tab.axe()`` runs axe-core (``tests/data/axe/axe.min.js``, version ``AXE_VERSION``, MPL-2.0,
licence beside it; ``scripts/fetch_axe.sh`` fetches it again from the npm registry) on the
page as it stands, with WCAG 2.0/2.1/2.2 A and AA and best-practice rules: the tests need
no network.
"""
import os
import re
from pathlib import Path

import pytest

# Playwright's sync API keeps an event loop in this thread; the ORM calls the tests make
# around it (fixtures, flushes) are synchronous all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from ..conftest import BASE_DIR, SEED  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).resolve().parent.parent / "data" / "axe" / "axe.min.js"
AXE_VERSION = "4.14.1"
#: The rule sets run: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and Deque's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SCREENSHOTS = BASE_DIR / "artifacts" / "screenshots"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}


@pytest.fixture(scope="session")
def browser():
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: apt-get install chromium fonts-noto-cjk fonts-hanazono"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def site(live_server, search_backend, transactional_db):
    """The live server's URL, with the seed juan stored and indexed (in this test's index)."""
    from reader.importers.loader import import_file

    import_file(SEED)  # commits; the index follows on commit
    assert search_backend.document_count() > 0
    return live_server.url


class Tab:
    """A page in a fresh browser context, served under the CSP, collecting errors."""

    def __init__(self, browser, device="desktop", server_csp=False, **options):
        self.device = device
        self.context = browser.new_context(locale="zh-TW", **{**DEVICES[device], **options})
        self.errors: list[str] = []
        # only documents get the header; static files pass untouched (matched in the driver).
        # ``server_csp``: the server's own policy (the API documentation's allows Swagger UI's styles)
        if not server_csp:
            self.context.route(re.compile(r"^(?!.*/static/).*$"), self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    @staticmethod
    def _route(route):
        if route.request.resource_type == "document":
            response = route.fetch()
            route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})
        else:
            route.continue_()

    def shot(self, name, **options):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}-{self.device}.png"), **options)

    def axe(self, exclude=()) -> list[str]:
        """axe-core's violations on the page as it stands: ``["rule (impact): selector — html",
        …]`` for each node ([] when it passes). ``exclude``: CSS selectors of parts that are
        not ours (Swagger UI's own rendering). Evaluated through the browser's debugging
        protocol, which the page's Content-Security-Policy does not govern."""
        page = self.page
        if page.evaluate("typeof window.axe") == "undefined":
            page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
        assert page.evaluate("axe.version") == AXE_VERSION
        found = page.evaluate("""async ([tags, exclude]) => {
            const context = exclude.length ? {include: [document], exclude: exclude.map(s => [s])} : document;
            const r = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return r.violations.flatMap(v => v.nodes.map(n =>
                `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.html.slice(0, 160)}`)); }""", [AXE_TAGS, list(exclude)])
        return found

    def open_settings(self):
        """Open the reading page's display settings where they are folded (a phone: their summary
        shown, templates/reader/_display_controls.html); on a wide screen they stand open."""
        summary = self.page.locator("#display-settings > summary")
        if summary.is_visible() and not self.page.locator("#display-settings").evaluate("d => d.open"):
            summary.click()

    def use(self, site, **display):
        """Choose display settings as the server's cookie would (no page load)."""
        value = "|".join(f"{k}:{display.get(k, d)}" for k, d in
                         (("notes", "inline"), ("layout", "horizontal"), ("script", "orig"), ("size", "m")))
        self.context.add_cookies([{"name": "display", "value": value, "url": site}])

    def close(self):
        errors = [e for e in self.errors if "favicon" not in e]
        self.context.close()
        assert not errors, errors


@pytest.fixture
def tabs(browser):
    """``tabs(device, **context_options)`` opens a Tab; all are closed (and checked) after the test."""
    opened = []

    def open_tab(device="desktop", **options):
        tab = Tab(browser, device, **options)
        opened.append(tab)
        return tab

    yield open_tab
    for tab in opened:
        tab.close()


@pytest.fixture
def kept_map(settings):
    """``kept_map(path)``: the quotation map of ``path`` made and kept (``collation.views.MAPS``)
    before the browser asks for it, waited for to its own end (``MAPS.settle``), however long a
    loaded machine takes: the page then answers at once, where a map made in the request (the
    test settings' ``QUOTATION_MAP_SECONDS`` 0) had to be made within the page load's 30 s (the
    seed's 45 sections took longer on a loaded machine). A map that fails is not kept: the page
    then answers 503 and the test that asked for it fails."""
    from django.test import Client

    from collation import views as collation_views

    settings.QUOTATION_MAP_SECONDS = 0.01  # the request waits this long, then the map goes on and is kept

    def make(path):
        assert Client().get(path).status_code in (200, 503)  # made at once, or being made
        collation_views.MAPS.settle()

    return make
