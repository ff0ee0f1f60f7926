"""The routes that answer JSON outside the API's own views, for the OpenAPI schema: their views
are Django's, which drf-spectacular does not read, so their paths and shapes are written here by
hand and added to the schema by a post-processing hook (``json_routes_outside_the_api``,
``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): ``/chars/{char}/``,
``/corrections/annotations/{slug}.jsonld`` and ``/search/juan-labels/``, and the redirects of ``api.redirects`` (a slug or a
title in place of an id) as responses of the paths under ``/api/works/{id}/`` and
``/api/editions/{id}/``."""
from __future__ import annotations

from corrections.models import TAGS


def _strings(description: str) -> dict:
    return {"type": "array", "items": {"type": "string"}, "description": description}


#: ``/chars/<char>/`` as JSON (``pages.views.char_detail``: ``characters.dictionary.CharEntry.as_dict``
#: with the page's and the search's addresses), field for field.
CHAR_ENTRY = {
    "type": "object",
    "description": "One character (code point) as the character table gives it (characters.dictionary.CharEntry): "
                   "its readings, definition, standard, traditional and simplified forms and variants; `found` is "
                   "false (and the answer a 404) for a character the table does not hold.",
    "properties": {
        "char": {"type": "string", "minLength": 1, "maxLength": 1, "description": "the character"},
        "codepoint": {"type": "string", "pattern": "^U\\+[0-9A-F]{4,6}$", "example": "U+8AAA"},
        "name": {"type": "string", "description": "its Unicode name; \"\" for one Unicode does not name"},
        "found": {"type": "boolean"},
        "mandarin": _strings("its usual readings (Unihan kMandarin)"),
        "other_readings": _strings("its other readings (Unihan kHanyuPinyin, 漢語大字典)"),
        "definition": {"type": "string", "description": "Unihan kDefinition, \"\" when none"},
        "standard": _strings("its standard forms (正字)"),
        "traditional": _strings("its traditional forms"),
        "simplified": _strings("its simplified forms"),
        "variants": _strings("its variant forms (異體字)"),
        "see": {"type": "object", "nullable": True, "additionalProperties": False,
                "description": "the reading and definition of its standard form, for a character with no Mandarin "
                               "reading of its own (𤣥 → 玄 xuán); null otherwise",
                "required": ["char", "mandarin", "definition"],
                "properties": {"char": {"type": "string"}, "mandarin": _strings("the standard form's readings"),
                               "definition": {"type": "string"}}},
        "readings": {"type": "array", "description": "the readings of the character and of the forms search folds "
                                                     "with it, each once, from the form that has it first",
                     "items": {"type": "object", "additionalProperties": False,
                               "required": ["reading", "form", "source"],
                               "properties": {"reading": {"type": "string"}, "form": {"type": "string"},
                                              "source": {"type": "string", "enum": ["kMandarin", "kHanyuPinyin"]}}}},
        "searched_together": _strings("the forms search finds with it (characters.folding), itself left out"),
        "variants_searched_together": _strings("the page's 異體: the variants search finds with it, but its "
                                               "traditional and simplified forms, listed there only"),
        "related": _strings("the page's 相關字: the variants search keeps apart from it (太 beside 大), but its "
                            "traditional and simplified forms (个's 箇 is one of its traditional forms)"),
        "relations": {"type": "object", "additionalProperties": _strings("codes of the sources relating them"),
                      "description": "for each variant, the sources that relate it to the character "
                                     "(codes of characters/scripts/build_char_table.py)"},
        "placeholder": {"type": "string", "description": "for a mark that stands in for a character (〓, the geta "
                                                        "mark of a lost or unencoded character), what it means; "
                                                        "\"\" for a character"},
        "script_search": {"type": "string", "description": "for a simplified form standing for several characters "
                                                          "(个, 后, 当), how search reads it in simplified and in "
                                                          "traditional editions; \"\" otherwise"},
        "punctuation": {"type": "string", "description": "for a punctuation mark (？, 。), that it is no character "
                                                        "of the text (the answer is then a 404); \"\" otherwise"},
        "url": {"type": "string", "description": "the character's page (path)", "example": "/chars/%E8%AA%AA/"},
        "search_url": {"type": "string", "description": "a search for it (path)", "example": "/search/?q=%E8%AA%AA"},
    },
    "required": ["char", "codepoint", "name", "found", "mandarin", "other_readings", "definition", "standard",
                 "traditional", "simplified", "variants", "see", "readings", "searched_together",
                 "variants_searched_together", "related", "relations",
                 "placeholder", "script_search", "punctuation", "url", "search_url"],
    "additionalProperties": False,
}

#: ``/corrections/annotations/<edition>.jsonld`` (``corrections.annotations.annotation_collection``):
#: a W3C Web Annotation collection, its items on one page.
ANNOTATION_COLLECTION = {
    "type": "object",
    "description": "An edition's accepted public annotations as a W3C Web Annotation collection "
                   "(https://www.w3.org/TR/annotation-model/), every annotation on its first page.",
    "required": ["@context", "id", "type", "label", "total", "first"],
    "additionalProperties": False,
    "properties": {
        "@context": {"type": "string", "enum": ["http://www.w3.org/ns/anno.jsonld"]},
        "id": {"type": "string", "format": "uri"},
        "type": {"type": "string", "enum": ["AnnotationCollection"]},
        "label": {"type": "string"},
        "total": {"type": "integer", "minimum": 0},
        "first": {"type": "object", "required": ["id", "type", "items"], "additionalProperties": False, "properties": {
            "id": {"type": "string", "format": "uri"},
            "type": {"type": "string", "enum": ["AnnotationPage"]},
            "items": {"type": "array", "items": {
                "type": "object", "required": ["id", "type", "motivation", "created", "modified", "creator", "body", "target"],
                "description": "one annotation (corrections.annotations.web_annotation): its body is the note, or "
                               "a list of the note, its tags and its links",
                "properties": {
                    "id": {"type": "string", "format": "uri"}, "type": {"type": "string", "enum": ["Annotation"]},
                    "motivation": {"type": "string"}, "created": {"type": "string", "format": "date-time"},
                    "modified": {"type": "string", "format": "date-time"},
                    "creator": {"type": "object", "required": ["type", "nickname"],
                                "properties": {"type": {"type": "string"}, "nickname": {"type": "string"}}},
                    "body": {"oneOf": [{"type": "object"}, {"type": "array", "items": {"type": "object"}}]},
                    "target": {"type": "object", "required": ["source", "selector"]}}}}}},
    },
}

#: The JSON body of a redirect from a slug or a title to an id (``api.redirects``).
MOVED = {
    "type": "object",
    "description": "Where the address is under the id the API names a work or an edition by (the `Location` "
                   "header too, for a client that does not follow redirects); the rest of the path and the query "
                   "string kept.",
    "required": ["detail", "location"],
    "additionalProperties": False,
    "properties": {
        "detail": {"type": "string", "description": "where it moved, in Chinese and English"},
        "location": {"type": "string", "description": "the address under the id (path and query)",
                     "example": "/api/works/1/juans/10/"},
    },
}

#: The JSON body of a ``300`` for a title several works bear (``api.redirects.titled``).
WORKS_TITLED = {
    "type": "object",
    "description": "The works of the title the address named in place of an id, by id, each with that address "
                   "under its id: choose one (no `Location`, none is preferred).",
    "required": ["detail", "works"],
    "additionalProperties": False,
    "properties": {
        "detail": {"type": "string", "description": "how many works bear the title, in Chinese and English"},
        "works": {"type": "array", "items": {
            "type": "object", "required": ["id", "title", "author", "url"], "additionalProperties": False,
            "properties": {"id": {"type": "integer"}, "title": {"type": "string"},
                           "author": {"type": "string", "description": "the work's author as the library holds it"},
                           "url": {"type": "string", "format": "uri",
                                   "description": "the address asked for, under this work's id"}}}},
    },
}

#: What the ``id`` of every path under ``/api/works/{id}/`` also takes, and what it answers then.
KEY_IN_PLACE_OF_ID = (
    " In place of the id, the key of a reading page's URL (/works/<key>/…) is read as the reading pages read it: "
    "a work's or an edition's slug (禮書綱目, KR1d0086-WYG) is a 301 to the same address under the id "
    "(an edition's under /api/editions/{id}/); a work's title, as written or in simplified or variant forms "
    "as search folds it (周禮注疏, 周礼注疏), a 302 to it under that work's id, or a 300 listing the works "
    "when several bear the title. Percent-encode Chinese in the path.")


def addresses_by_key(result: dict) -> None:
    """The redirects of ``api.redirects`` in the document ``result``: every operation under
    ``/api/works/{id}/`` takes a slug or a title in place of the id (``KEY_IN_PLACE_OF_ID`` added
    to its ``id`` parameter's description; responses 301 and 302 with a ``Moved`` body, 300 with a
    ``WorksTitled`` one, 404 for a key that is nobody's), one under ``/api/editions/{id}/`` a slug
    (301). drf-spectacular does not see them: the routes are Django views matched after the id's."""
    moved = {"application/json": {"schema": {"$ref": "#/components/schemas/Moved"}}}
    titled = {"application/json": {"schema": {"$ref": "#/components/schemas/WorksTitled"}}}
    for path, item in result["paths"].items():
        works = path.startswith("/api/works/{id}/")
        if not (works or path.startswith("/api/editions/{id}/")):
            continue
        for operation in item.values():
            responses = operation.setdefault("responses", {})
            responses["301"] = {"description": "a slug in place of the id: the same address under the id", "content": moved}
            if not works:
                continue
            responses["302"] = {"description": "a work's title in place of the id: the same address under that "
                                               "work's id", "content": moved}
            responses["300"] = {"description": "a title several works bear: the works, each with this address "
                                               "under its id", "content": titled}
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") == "id":
                    parameter["description"] = parameter.get("description", "") + KEY_IN_PLACE_OF_ID


def _parameter(place: str, name: str, description: str, **schema) -> dict:
    """An OpenAPI parameter of a hand-written route: ``place`` ``"path"`` (required) or
    ``"query"`` (optional), a string whose ``schema`` adds ``schema`` (``enum``, ``maxLength`` …)."""
    return {"in": place, "name": name, "required": place == "path", "description": description,
            "schema": {"type": "string", **schema}}


def _json_route(operation: str, tag: str, summary: str, description: str, parameters: list[dict],
                media: str, schema: str, responses: dict[str, tuple[str, bool]]) -> dict:
    """The OpenAPI path item of a hand-written JSON route: one ``get`` named ``operation``
    under ``tag``, with its ``parameters`` (``_parameter``); ``responses`` is ``{status:
    (description, with a body)}``, a body being the component ``schema`` sent as ``media``."""
    content = {media: {"schema": {"$ref": f"#/components/schemas/{schema}"}}}
    return {"get": {"operationId": operation, "tags": [tag], "summary": summary, "description": description,
                    "parameters": parameters,
                    "responses": {status: {"description": text, **({"content": content} if body else {})}
                                  for status, (text, body) in responses.items()}}}


#: ``/search/juan-labels/`` (``search.views.juan_labels_page``): the search form's 卷 list for a chosen work.
JUAN_LABELS = {
    "type": "object",
    "description": "The juan labels the search form's 卷 field offers for the chosen work or edition "
                   "(search.views.juan_labels), and what the field says of them to a screen reader.",
    "additionalProperties": False,
    "required": ["labels", "hint"],
    "properties": {
        "labels": _strings("the work's or edition's juan labels as the book writes them, edition by edition in "
                           "the book's order, each once (卷十, 采輯羣書目・目錄・序, 卷首上); none when no work or "
                           "edition is chosen or none is found"),
        "hint": {"type": "string", "description": "the field's description (aria-describedby): how many juans the "
                                                  "list offers, or, with none, that choosing a work gives its list",
                 "example": "卷名如書中所題，可從所選之書的 3 卷中選（按下方向鍵）"},
    },
}


def json_routes_outside_the_api(result, generator, request, public):
    """drf-spectacular post-processing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): the
    routes that answer JSON outside the API's own views, written here by hand (their views are
    Django's, which drf-spectacular does not read), each by ``_json_route``: ``/chars/{char}/``
    (``CHAR_ENTRY``), ``/corrections/annotations/{slug}.jsonld`` (``ANNOTATION_COLLECTION``) and
    ``/search/juan-labels/`` (``JUAN_LABELS``);
    and the redirects from a slug or a title to an id (``addresses_by_key``). Returns ``result``."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["CharEntry"] = CHAR_ENTRY
    schemas["AnnotationCollection"] = ANNOTATION_COLLECTION
    schemas["Moved"] = MOVED
    schemas["WorksTitled"] = WORKS_TITLED
    schemas["JuanLabels"] = JUAN_LABELS
    addresses_by_key(result)
    result["paths"]["/chars/{char}/"] = _json_route(
        "chars_retrieve", "chars", "One character: readings, definition, forms and variants",
        "The page /chars/<char>/ answers JSON for `?format=json`, or for an Accept header that "
        "prefers application/json (as the reading page's look-up sends); HTML otherwise "
        "(`?format=html`, a browser's Accept, or curl's `*/*`).",
        [_parameter("path", "char", "one character (code point), e.g. 說", minLength=1, maxLength=1),
         _parameter("query", "format", "json: the entry as JSON whatever the Accept header; html: the page",
                    enum=["json", "html"])],
        "application/json", "CharEntry",
        {"200": ("the character's entry", True),
         "301": ("a look-alike code point the table lacks, a Kangxi radical (⼤): `Location` is the page of the "
                 "character search reads it as (/chars/大/), the query string kept", False),
         "404": ("a character the table does not hold (`found` false: its code point and name), a punctuation "
                 "mark (`punctuation` says it is no character of the text), or more than one character", True)})
    result["paths"]["/corrections/annotations/{slug}.jsonld"] = _json_route(
        "annotations_retrieve", "annotations", "An edition's public annotations (W3C Web Annotations)",
        "The edition's accepted annotations, in text order, as one W3C AnnotationCollection "
        "(JSON-LD): each with its note, tags and links as bodies, its creator, and its target, "
        "the section's permalink with a TextQuoteSelector and the passage's TextPositionSelector.",
        [_parameter("path", "slug", "the edition's key, as in /works/<slug>/"),
         _parameter("query", "tag", "only the annotations with this tag", enum=list(TAGS))],
        'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"', "AnnotationCollection",
        {"200": ("the collection", True), "400": ("an unknown tag", False), "404": ("no edition of that key", False)})
    result["paths"]["/search/juan-labels/"] = _json_route(
        "search_juan_labels", "search", "The 卷 list of the search form for a chosen work or edition",
        "What the search page's script puts in the 卷 field's list when the reader chooses a work or an "
        "edition, before any search; the page itself sends the same list with a search for a work.",
        [_parameter("query", "work", "the work's id or key (slug), as the search's work filter reads it"),
         _parameter("query", "edition", "the edition's id or key (slug), as the search's edition filter reads it")],
        "application/json", "JuanLabels", {"200": ("the labels and the field's hint", True)})
    return result
