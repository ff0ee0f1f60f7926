"""Every list the API answers is paged the same way: ``page`` and ``page_size`` are read, not
ignored (``/api/classes/`` and a section's ``…/notes/`` answered their whole list whatever they
asked), and a value that is no page number or page size is a 400 naming the parameter."""
import pytest

from catalogue import catalogue
from reader.models import Piece, Work

PAGE_MESSAGE = "page 須為從 1 起的整數或 last (page must be a whole number from 1, or 'last'; not {!r})"


def lists(seed_juan) -> dict[str, dict]:
    """Each list endpoint of the seed, with the parameters that make it a list of at least 3."""
    Work.objects.filter(pk=seed_juan.work_id).update(classification="KR1d")
    for title in ("乙書", "丙書"):
        Work.objects.create(title=title, slug=title, author="江永", classification="KR1d")
    section = (Piece.objects.filter(section__juan=seed_juan, kind="note").values_list("section__position", flat=True)
               .order_by("section__position").first())
    notes = f"/api/works/{seed_juan.work_id}/juans/10/sections/{section}/notes/"
    return {"/api/works/": {"author": "江永"}, "/api/classes/": {}, "/api/classes/KR1d/works/": {},
            notes: {}, "/api/search/": {"q": "射"}}


@pytest.mark.django_db
def test_every_list_reads_page_and_page_size(client, seed_backend, seed_juan):
    for url, params in lists(seed_juan).items():
        whole = client.get(url, params).json()
        first = client.get(url, {**params, "page_size": 2}).json()
        second = client.get(url, {**params, "page_size": 2, "page": 2}).json()
        assert (first["count"], second["count"]) == (whole["count"], whole["count"]), url
        assert first["results"] + second["results"] == whole["results"][:4], url
        previous = second["previous"].split("?")[1].split("&")
        assert "page_size=2" in previous and "page=1" not in previous and "page=2" not in previous, url


@pytest.mark.django_db
def test_the_class_list_and_a_sections_notes_come_whole_by_default(client, seed_backend, seed_juan):
    urls = list(lists(seed_juan))
    classes = client.get("/api/classes/").json()
    assert (classes["count"], len(classes["results"]), classes["next"]) == (86, 86, None)
    assert [r["code"] for r in classes["results"]] == list(catalogue.classes())
    page = client.get("/api/classes/", {"page_size": 20, "page": 5}).json()
    assert [r["code"] for r in page["results"]] == list(catalogue.classes())[80:]
    assert page["next"] is None and page["previous"] == "http://testserver/api/classes/?page=4&page_size=20"
    notes = client.get(urls[3]).json()
    assert notes["count"] == len(notes["results"]) == 5
    assert client.get(urls[3], {"page": "last", "page_size": 2}).json()["results"] == notes["results"][4:]


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["0", "-1", "x", "1.5", "２", " ", "+2"])
def test_a_page_that_is_no_page_number_is_a_400_naming_it(client, seed_backend, seed_juan, value):
    for url, params in lists(seed_juan).items():
        response = client.get(url, {**params, "page": value})
        assert (response.status_code, response.json()) == (400, {"page": [PAGE_MESSAGE.format(value)]}), url
        response = client.get(url, {**params, "page_size": value})
        assert response.status_code == 400 and list(response.json()) == ["page_size"], url


@pytest.mark.django_db
def test_a_page_past_the_last_is_a_404_saying_so(client, seed_backend, seed_juan):
    """It said "no page '999999': pages are numbered from 1 to the last", and not which is the
    last: it names it, and the page size it was counted at."""
    for url, params in lists(seed_juan).items():
        for value in ("999999", "9" * 40, "9" * 5000, "0" * 30 + "9" * 6):
            response = client.get(url, {**params, "page": value})
            assert response.status_code == 404, (url, value)
            size = 200 if url == "/api/classes/" or url.endswith("/notes/") else 20  # the lists read whole
            last = -(-client.get(url, params).json()["count"] // size)
            shown = value.lstrip("0")[:20] + ("…" if len(value.lstrip("0")) > 20 else "")
            assert response.json() == {"detail": f"沒有第「{shown}」頁：已過末頁，末頁為第 {last} 頁 (no page {shown!r}: past "
                                                 f"the last page, {last}, at {size} a page)"}, (url, value)
        assert client.get(url, {**params, "page": "0001", "page_size": 1}).json()["results"] == \
            client.get(url, {**params, "page_size": 1}).json()["results"], url
