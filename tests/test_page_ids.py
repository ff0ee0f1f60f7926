"""Every id of a reading page is its own, in every display, and every link to a place on a page
finds it: the page's own links, labels and references (``href="#…"``, ``for``,
``aria-labelledby``, ``data-copy``) and a search hit's link to the piece it falls in."""
import re
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest

from reader.importers.loader import import_file
from search.backends import SearchQuery, get_search_backend
from search.service import hit_url
from search.signals import muted

from .conftest import SHARED, index_all

#: Real juans of four makes: a 注疏 (周禮注疏 卷一: 注, 音義 and 疏 in one juan), a table (史記
#: 卷十四, 十二諸侯年表: cells of one piece have ids of their own), a file that writes page ids twice
#: (楚辭補注 卷十五: ``<pb:KR4a0002_SBCK_015-1b>`` and ``-13b`` each on two lines running) and the
#: seed (禮書綱目 卷十).
JUANS = {
    "zhushu": SHARED / "corpus" / "kanripo-jingbu" / "KR1d0003" / "KR1d0003_001.txt",
    "table": SHARED / "corpus" / "kanripo-commentary" / "KR2a0001" / "KR2a0001_202.txt",
    "pages twice": SHARED / "corpus" / "kanripo-commentary" / "KR4a0002" / "KR4a0002_015.txt",
}
#: Every commentary mode and layer choice, and the vertical layout with notes inline and beside.
DISPLAYS = ([{}] + [{"notes": n} for n in ("hidden", "only", "beside")]
            + [{"layers": layer} for layer in ("classic", "commentary", "only-readings", "only-subcommentary")]
            + [{"layout": "vertical"}, {"layout": "vertical", "notes": "beside"}, {"script": "simp"}])


class _Ids(HTMLParser):
    """The ids of a page, in order, and what points to one: ``(attribute, id)``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.refs: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") is not None:
            self.ids.append(a["id"])
        if (a.get("href") or "").startswith("#") and len(a["href"]) > 1:
            self.refs.append(("href", unquote(a["href"][1:])))
        for name in ("for", "data-copy"):
            if a.get(name):
                self.refs.append((name, a[name]))
        for name in ("aria-labelledby", "aria-describedby", "aria-controls"):
            self.refs.extend((name, i) for i in (a.get(name) or "").split())


def _ids(html: str) -> _Ids:
    parser = _Ids()
    parser.feed(html)
    return parser


def _repeated(ids: list[str]) -> list[str]:
    seen, twice = set(), []
    for i in ids:
        if i in seen and i not in twice:
            twice.append(i)
        seen.add(i)
    return twice


def _check(client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    page = _ids(response.content.decode("utf-8"))
    assert _repeated(page.ids) == [], url
    known = set(page.ids)
    assert [r for r in page.refs if r[1] not in known] == [], url
    return page.ids


@pytest.fixture
def juans(seed_juan, search_backend):
    with muted():
        stored = {kind: import_file(path).juan for kind, path in JUANS.items()}
    index_all(search_backend)
    return {"seed": seed_juan, **stored}


def test_every_id_of_a_reading_page_is_its_own_and_every_link_to_one_finds_it(client, juans):
    """A page id the file writes twice gives two markers of that page (the text as the file has
    it): the first ``pb-`` and the page id, the next ``pb2-`` and the page id
    (``reader.templatetags.reading.page_marker``); both gave ``pb-…`` before."""
    ids = {}
    for kind, juan in juans.items():
        base = f"/works/{juan.edition.slug}/juan/{juan.number}/"
        for display in DISPLAYS:
            query = "&".join(f"{k}={v}" for k, v in display.items())
            ids[kind, query] = _check(client, base + ("?" + query if query else ""))
        for section in juan.sections.order_by("position")[:3]:  # a section's own page
            _check(client, f"{base}{section.position}/")
    assert min(len(i) for i in ids.values()) > 50
    twice = [i for i in ids["pages twice", ""] if i.startswith("pb")]
    assert [i for i in twice if i.endswith(("_015-1b", "_015-13b"))] == [
        "pb-KR4a0002_SBCK_015-1b", "pb2-KR4a0002_SBCK_015-1b", "pb-KR4a0002_SBCK_015-13b", "pb2-KR4a0002_SBCK_015-13b"]
    assert len(twice) == len(set(twice)) == 27


def test_a_search_hits_link_finds_the_piece_it_points_to(client, juans):
    """A hit's link (``search.service.hit_url``: a section's page, the page of a long section that
    shows it, ``#s2-p3``) lands on an element of that id, in each juan."""
    backend = get_search_backend()
    landed = 0
    for q in ("之", "曰", "年"):
        query = SearchQuery(q)
        for hit in backend.search(query).hits[:40]:
            url = hit_url(hit, query)
            parts = urlsplit(url)
            html = client.get(f"{parts.path}?{parts.query}").content.decode("utf-8")
            assert unquote(parts.fragment) in _ids(html).ids, url
            landed += 1
    assert landed == 120


def test_a_page_the_file_marks_twice_shows_once_in_the_margin(client, seed_juan):
    """六臣註文選 卷二 writes ``<pb:KR4h0003_SBCK_002-4b>`` on two lines running: §2's margin showed
    葉 2-4b twice. The first marker shows the page; the second is an empty anchor (``pb-again``)
    that keeps its id ``pb2-…``, so a link to it still lands."""
    with muted():
        import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_002.txt")
    html = client.get("/works/KR4h0003/juan/2/2/").content.decode("utf-8")
    labels = re.findall(r'<span class="pb" id="([^"]+)"[^>]*><span class="visually-hidden">頁 </span>([^<]*)</span>', html)
    assert labels == [(f"pb-KR4h0003_SBCK_002-{p}", f"2-{p}") for p in ("4b", "5a", "5b", "6a", "6b", "7a", "7b")]
    assert re.findall(r'<span class="pb-again" id="([^"]+)"[^>]*></span>', html) == ["pb2-KR4h0003_SBCK_002-4b"]
