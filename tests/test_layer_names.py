"""The layers are named in one place (``reader.pieces.LAYER_NAMES``; search adds its passage layers
in ``search.documents``): the search page's layer filter, the API's documented ``layer`` enum and
the corrections form offer the same layers under the same names."""
import re

import pytest

from search.filters import form_filters

from .test_corrections import account

pytestmark = pytest.mark.django_db

#: The books' layers, in reading order, with the names the search page gives them.
PIECE_LAYERS = [("classic", "經文"), ("commentary", "注"), ("readings", "音義"), ("subcommentary", "疏"),
                ("editorial", "按語"), ("smallprint", "小字"), ("paratext", "序跋")]


def _options(html: str, name: str) -> list[tuple[str, str]]:
    """``(value, label)`` of each option of the ``<select name=name>`` in ``html``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


def test_the_search_page_the_api_and_the_corrections_form_offer_the_same_layers(client, seed_juan):
    page = client.get("/search/").content.decode()
    boxes = re.findall(r'<input type="checkbox" name="layer" value="([^"]+)"[^>]*> ([^<]+)</label>', page)
    assert boxes == PIECE_LAYERS + [("records", "記"), ("titles", "標題"), ("annotation", "讀者注記")]

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    parameter = next(p for p in schema["paths"]["/api/search/"]["get"]["parameters"] if p["name"] == "layer")
    named, books = parameter["schema"]["items"]["anyOf"]
    enum = named["enum"]
    assert books == {"type": "string", "description": "a book's own name of a layer, as a hit's layer_name gives it: "
                                                      "章句, 補注"}
    # every box of the page, the two groups it does not show as boxes, and the older names
    english = ["all", "classic", "commentary", "readings", "subcommentary", "editorial", "smallprint", "paratext",
               "notes", "records", "titles", "annotation", "text", "note", "record", "record_note", "title", "annotations"]
    # then the names the pages show, and their simplified spellings (docs/api.md)
    shown = ["經文", "注", "音義", "疏", "按語", "小字", "序跋", "各層注釋", "記", "標題", "讀者注記", "經", "記注",
             "经文", "音义", "按语", "各层注释", "记", "标题", "读者注记", "经", "记注"]
    assert enum == english + shown
    assert {value for value, _ in boxes} == set(english) - {"all", "notes", "text", "note", "record", "record_note",
                                                            "title", "annotations"}
    assert {label for _, label in boxes} <= set(shown)
    # each name the page shows is in the parameter's description, beside its code
    assert all(f"{value} {label}" in parameter["description"] for value, label in boxes)

    client.force_login(account("layers", "contributor"))
    form = client.get("/corrections/propose/禮書綱目/10/?section=1&piece=3&start=0&end=2").content.decode()
    offered = _options(form, "new_layer")
    # a piece's layer: the classic is 經 there (a piece of it), 經文 on the search page (the passage)
    assert offered == [("", "—"), ("classic", "經")] + PIECE_LAYERS[1:]
    assert [v for v, _ in offered[1:]] == [v for v, _ in boxes if v in dict(PIECE_LAYERS)]


def test_the_filter_chips_name_the_layers_as_the_boxes_do():
    params = [("q", "鵠"), ("layer", "commentary,subcommentary"), ("layer", "notes"), ("layer", "title,all"),
              ("layer", "bogus")]
    assert [chip["name"] for chip in form_filters(params, [])] == ["注、疏", "各層注釋", "標題", "bogus"]
