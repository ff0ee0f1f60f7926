"""Every list of the API reads ``page`` and ``page_size`` once: given several different values
(``/api/works/?page=1&page=2``) it is a 400 naming them, as the search is (``config.paging.
one_value_errors``, ``api.pagination.one_paging_value``), never the last one silently; the same
value repeated is that value. A long section's ``page`` and the parallel passages' alike."""
import pytest

ONE_VALUE = "{name} 只可有一個值，不可同時為「{values}」 ({name} takes one value; got several: {quoted})"


def message(name, values):
    return ONE_VALUE.format(name=name, values="、".join(values), quoted=", ".join(map(repr, values)))


def lists(juan):
    """The API's lists (``page`` and ``page_size``) and the answers paged by ``page`` alone."""
    section = f"/api/works/{juan.work_id}/juans/{juan.number}/sections/1/"
    paged = ["/api/works/", "/api/classes/", "/api/classes/KR1d/works/", f"{section}notes/"]
    return paged, [section, f"{section}parallels/", "/api/parallels/"]


#: What a URL of ``lists`` reads besides its paging.
ASKED = {"/api/parallels/": {"text": "天子之國諸侯之國"}}


@pytest.mark.django_db
def test_every_list_refuses_several_pages_and_page_sizes_as_the_search_does(client, seed_juan):
    paged, by_page = lists(seed_juan)
    for url in paged + by_page:
        # the page asked alone first: its answer kept by the page cache must not answer the pair
        assert client.get(url, {**ASKED.get(url, {}), "page": "1"}).status_code == 200, url
        answer = client.get(url, {**ASKED.get(url, {}), "page": ["1", "2"]})
        assert (answer.status_code, answer.json()) == (400, {"page": [message("page", ["1", "2"])]}), url
        assert client.get(url, {**ASKED.get(url, {}), "page": ["1", "1"]}).status_code == 200, url
    for url in paged:
        assert client.get(url, {"page_size": "20"}).status_code == 200, url
        answer = client.get(url, {"page_size": ["20", "1"], "page": ["1", "3"]})
        assert (answer.status_code, answer.json()) == (400, {"page": [message("page", ["1", "3"])],
                                                             "page_size": [message("page_size", ["20", "1"])]}), url
    # one value given twice is one value: the works listed as with it once
    works = client.get("/api/works/", {"page_size": ["1", "1"]}).json()
    assert (works["count"], len(works["results"])) == (client.get("/api/works/").json()["count"], 1)
