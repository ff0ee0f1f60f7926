"""A book's own name of a layer is a ``layer`` filter (``search.documents.split_layer_choices``,
``SearchQuery.layer_names``): a new user got a 400 for ``layer=章句`` and ``layer=補注``, though the error said
「or by the names the pages show」 and 楚辭補注's hits carry ``layer_name`` 章句 (王逸) and 補注 (洪興祖), both
of the layer commentary."""
import pytest

from .conftest import index_all
from .test_printed_heads import COMMENTARY
from .test_printed_juans import imported


@pytest.fixture
def chuci(search_backend, tmp_path):
    """楚辭補注 KR4a0003_007 (卷七 漁父), imported and indexed: 40 pieces of 章句, 29 of 補注."""
    (juan,) = imported(tmp_path, COMMENTARY / "KR4a0003", "KR4a0003_007.txt")
    index_all(search_backend)
    return juan


def names(client, **params):
    """``(count, [layer_name of each hit])`` of the API search in 楚辭補注 for ``params``."""
    data = client.get("/api/search/", {"page_size": 200, "work": "KR4a0003", **params}).json()
    return data["count"], sorted({h["layer_name"] for h in data["results"]})


@pytest.mark.django_db
def test_a_books_name_of_a_layer_keeps_the_passages_it_names(client, chuci):
    """也 in 卷七 (none in the classic): 章句 keeps 王逸's 34 alone, 補注 洪興祖's 20 alone, the two together the
    layer commentary's 54; a book's name and a choice together keep both (補注 and the 序跋's 序, a book's name
    too); the search page finds what the API does."""
    assert names(client, q="也") == (55, ["序", "章句", "補注"])
    assert names(client, q="也", layer="commentary") == (54, ["章句", "補注"])
    assert names(client, q="也", layer="章句") == (34, ["章句"])
    assert names(client, q="也", layer="補注") == (20, ["補注"])
    assert names(client, q="也", layer="章句,補注") == (54, ["章句", "補注"])
    assert names(client, q="也", layer=["補注", "paratext"]) == (21, ["序", "補注"])
    assert names(client, q="也", layer="序") == (1, ["序"])
    page = client.get("/search/", {"q": "也", "layer": "章句", "work": "KR4a0003"})
    assert page.status_code == 200
    assert "<strong>34</strong> 處" in page.content.decode()
    assert '<p class="print-query">檢索「也」（範圍：章句），限於 楚辭補注</p>' in page.content.decode()


@pytest.mark.django_db
def test_a_name_no_book_gives_a_layer_is_a_400_that_says_what_is_chosen(client, chuci):
    """鄭注 is a book's name of a layer, but of no book held here; 註疏 names nothing: each a 400 whose text
    names the choices and says a book's own names are taken too."""
    for typed in ("鄭注", "註疏"):
        response = client.get("/api/search/", {"q": "之", "layer": typed})
        assert response.status_code == 400
        assert response.json() == {"layer": [
            f"未知的範圍「{typed}」；可選：經文（經）、注、音義、疏、按語、小字、序跋、各層注釋、記、標題、讀者注記，或書中所題的層名"
            f"（如 章句、補注） (unknown layer '{typed}'; choose from all, classic, commentary, readings, "
            "subcommentary, editorial, smallprint, paratext, notes, records, titles, annotation, or by the names "
            "the pages show: those above and a book's own names of its layers, a hit's layer_name)"]}
