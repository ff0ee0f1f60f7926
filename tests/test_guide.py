"""docs/guide.md, the reader's guide, as the site answers it: every address the guide gives
answers a page, and what the guide says an address shows is what it shows (the bundled 禮書綱目
卷十 and the two Kanripo copies of it the guide imports for its collation, page-marker and 〓
examples)."""
import re
import shlex

import pytest

from .conftest import BASE_DIR, index_all
from .test_docs_figures import says, visible

GUIDE = "docs/guide.md"


def _addresses() -> list[str]:
    """Every site address the guide writes as code (`/works/禮書綱目/juan/10/2/?notes=only`),
    in its order, each once: a span that starts with ``/`` and names no placeholder (``…``)."""
    spans = re.findall(r"`(/[^`\s]*)`", (BASE_DIR / GUIDE).read_text(encoding="utf-8"))
    return list(dict.fromkeys(s for s in spans if "…" not in s))


@pytest.fixture
def library(db, search_backend, seed_juan):
    """The seed and the two Kanripo copies of its juan, imported by the guide's own command, indexed."""
    from django.core.management import call_command

    block = re.search(r"```sh\n(.*?)```", (BASE_DIR / GUIDE).read_text(encoding="utf-8"), re.S).group(1)
    words = shlex.split(block.replace("\\\n", " "))
    assert words[:4] == ["DJANGO_DEBUG=true", ".venv/bin/python", "manage.py", "import_texts"]
    call_command("import_texts", *[str((BASE_DIR / w).resolve()) for w in words[4:]], verbosity=0)
    index_all(search_backend)


def _page(client, address: str) -> str:
    """The visible text of ``address`` (redirects followed), which must answer 200, read with no
    setting kept from an address before (the display options' cookie)."""
    client.cookies.clear()
    response = client.get(address, follow=True)
    assert response.status_code == 200, (address, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return visible(body.decode("utf-8-sig"))


def test_every_address_of_the_guide_answers_as_the_guide_says(library, client, settings):
    """Each address the guide gives is a page (or a download) of the site, not a 404 (the sign-up
    page on a site that allows signing up, as the guide says), and its examples say what the
    pages show. One test: the import it needs takes minutes on a busy machine."""
    settings.CORRECTIONS_SIGNUP = True
    addresses = _addresses()
    assert len(addresses) == 37, addresses
    for address in addresses:
        _page(client, address)
    assert "shuō" in _page(client, "/chars/說/") and says(GUIDE, "readings (shuō, shuì, yuè, tuō)")
    assert "公及諸公卿大夫射" in _page(client, "/works/禮書綱目/juan/10/26/")
    hidden = _page(client, "/works/禮書綱目/juan/10/2/?notes=hidden")
    assert "遂命量人巾車" in hidden and "量人司馬之屬" not in hidden
    simplified = _page(client, "/works/禮書綱目/juan/10/2/?script=simp")
    assert "礼书纲目" in simplified and "张侯" in simplified and "〔清〕江永《禮書綱目》" in simplified
    bar = "標出「鼓」28 處（其中「鼔」檢索時與「鼓」視為一字17 處）"
    assert bar in _page(client, "/works/禮書綱目/juan/10/?hl=鼓") and says(GUIDE, bar)
    kanripo = _page(client, "/works/KR1d0086/juan/12/")
    citation = "〔清〕江永《禮書綱目》卷十〈大射儀〉「右戒百官」（四庫全書・文淵閣本，葉 12-1a）"
    assert "Kanripo KR1d0086_012" in kanripo and citation in kanripo and says(GUIDE, citation)
    assert client.get("/works/KR1d0086/juan/卷十/")["Location"] == "/works/KR1d0086/juan/12/"
    html = client.get("/works/KR1d0086/juan/12/").content.decode()
    assert ">12-1b</span>" in html and "其為字從豆<span class=\"gaiji\" title=\"KR1969：" in html
    seed = "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」（欽定四庫全書・純文字本） http://testserver/works/禮書綱目/juan/10/2/"
    assert seed in _page(client, "/works/禮書綱目/juan/10/2/")
    assert says(GUIDE, seed.replace("testserver", "127.0.0.1:8000"))
    collation = _page(client, "/works/禮書綱目/juan/10/collate/")
    assert "校本簡稱：甲＝四庫全書・文淵閣本" in collation and "貍步〔甲：歩異體；乙：歩異體〕" in collation
    assert says(GUIDE, "§2 reads 貍步〔甲：歩異體；乙：歩異體〕")
    told = "未見相關段落（本書之處 2 處不列）"
    assert told in _page(client, "/works/禮書綱目/juan/10/2/") and says(GUIDE, f"§2's list says {told}")


def test_the_guides_search_figures(seed_backend, client):
    """The counts of the guide's query table and filter examples, in the bundled juan."""
    text = " ".join((BASE_DIR / GUIDE).read_text(encoding="utf-8").split())

    def count(query, **options):
        return client.get("/api/search/", {"q": query, "edition": "禮書綱目", **options}).json()["count"]

    rows = dict(re.findall(r"^\| `([^`]+)` \| [^|]+ \| (?:`[^`]+`: )?(\d+) \|$",
                           (BASE_DIR / GUIDE).read_text(encoding="utf-8"), re.M))
    assert {q: count(q) for q in rows} == {q: int(n) for q, n in rows.items()} == {
        "鵠": 21, "侯 鵠": 49, "大射 OR 鄉射": 33, "獲 -釋獲": 34, '"大射之儀"': 1, "射?獲": 6, "司射 NEAR/5 弓": 22}
    assert count("鵠", layer="commentary") == 19 and "`/search/?q=鵠&layer=commentary`: 19 of the 21" in text
    assert (count("鼓", exact="on"), count("鼓")) == (11, 28)
    assert "`/search/?q=鼓&exact=on`: 11, where `鼓` finds 28" in text
    assert count("戒射宰戒", layer="classic") == 1 and says(GUIDE, "戒射宰戒 is found")
    page = visible(client.get("/search/", {"q": "鵠"}).content.decode())  # the seed alone, as `make serve` holds it
    assert "21 處，見於" in page and says(GUIDE, "`/search/?q=鵠`: 21")


def test_the_bundled_juans_citation_alone_is_the_guides(seed_juan, client):
    """Before the tour's imports the bundled juan is its work's one edition, without a dynasty:
    its citation is the one the guide gives for it alone."""
    seed = "江永《禮書綱目》卷十〈大射儀〉「右張侯」 http://testserver/works/禮書綱目/juan/10/2/"
    assert seed in _page(client, "/works/禮書綱目/juan/10/2/")
    assert "〔清〕江永《禮書綱目》卷十〈大射儀〉「右張侯」 " not in _page(client, "/works/禮書綱目/juan/10/2/")
    assert says(GUIDE, "With the bundled juan alone it reads `" + seed.replace("testserver", "127.0.0.1:8000") + "`")


def test_the_guides_curl_command_downloads_the_tei(seed_juan, client):
    """The guide's ``curl -L -o juan10.tei.xml …`` (its percent-encoded address followed to the
    work's id, as ``-L`` does) gives the juan's TEI."""
    from .test_readme import _curl_commands

    [command] = _curl_commands()[GUIDE]
    url = re.search(r"http://127\.0\.0\.1:8000(\S+)", command).group(1)
    response = client.get(url, follow=True)
    assert response.status_code == 200 and response.redirect_chain
    tei = b"".join(response.streaming_content) if response.streaming else response.content
    assert b"<TEI" in tei and "右張侯".encode() in tei
