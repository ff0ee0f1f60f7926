"""The OpenAPI schema (/api/schema/): valid by openapi-spec-validator, typed search, juan and
section responses whose shapes real responses follow, and each export kind with its media type."""
import json
import re

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from search.forms import SearchForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def resolved(node, components):
    """``node`` with every ``$ref`` to ``#/components/schemas/…`` replaced by its schema."""
    if isinstance(node, dict):
        if "$ref" in node:
            return resolved(components[node["$ref"].rsplit("/", 1)[1]], components)
        return {k: resolved(v, components) for k, v in node.items()}
    if isinstance(node, list):
        return [resolved(v, components) for v in node]
    return node


def response_schema(schema, path, media="application/json"):
    content = schema["paths"][path]["get"]["responses"]["200"]["content"][media]
    return resolved(content["schema"], schema["components"]["schemas"]), content


def test_the_schema_is_valid_openapi(schema):
    assert schema["openapi"] == "3.0.3"
    validate(schema)  # openapi-spec-validator: raises on any error


@pytest.mark.parametrize("path,url,required", [
    ("/api/search/", "/api/search/?q=%E9%B5%A0&layer=text",
     ["count", "next", "previous", "results", "passages", "distribution", "hints", "facets"]),
    ("/api/works/{id}/juans/{number}/", "/api/works/{id}/juans/10/", ["work", "edition", "number", "label", "printed_head", "printed_end", "reading_url",
                                                                                        "citation", "chapters"]),
    ("/api/works/{id}/juans/{number}/sections/{position}/", "/api/works/{id}/juans/10/2/".replace("10/2", "10/sections/2"),
     ["position", "title", "name", "byline", "people", "closer", "reading_url", "citation", "page", "pieces", "work", "edition",
      "juan", "chapter", "pages"]),
])
def test_responses_are_typed_and_real_responses_follow_them(schema, client, seed_juan, path, url, required):
    shape, content = response_schema(schema, path)
    assert shape["type"] == "object" and sorted(shape["required"]) == sorted(required)
    OAS30Validator(shape).validate(client.get(url.format(id=seed_juan.work_id)).json())
    example = next(iter(content["examples"].values()))["value"]  # the docs show a real example
    OAS30Validator(shape).validate(example)


def test_a_hit_is_typed_field_by_field(schema):
    shape, _ = response_schema(schema, "/api/search/")
    hit = shape["properties"]["results"]["items"]
    assert sorted(hit["properties"]) == ["after", "author", "before", "commentator", "edition", "juan", "juan_label", "layer",
                                         "layer_name", "match", "piece", "reading", "section", "shown", "url", "work"]
    assert sorted(hit["properties"]["edition"]["required"]) == ["id", "name", "slug"]
    assert "reading" not in hit["required"]   # only for a hit found through an ambiguous simplified form
    assert "shown" not in hit["required"]     # only for a hit whose KWIC holds a gaiji
    assert sorted(hit["properties"]["shown"]["allOf"][0]["properties"]) == ["after", "before", "match"]
    assert hit["properties"]["layer"]["enum"] == ["classic", "commentary", "readings", "subcommentary", "editorial",
                                                  "smallprint", "record", "record_note", "title", "annotation",
                                                  "paratext"]
    assert shape["properties"]["hints"]["properties"]["suggestions"]["items"]["required"] == ["count", "message", "page_url", "query", "url"]


def test_the_facets_and_classes_are_typed(schema, client, seed_juan):
    """The search's facets name each facet (``class`` too, a keyword in Python) and its rows;
    /api/classes/ and a class's works are typed, and real answers follow their schemas."""
    shape, _ = response_schema(schema, "/api/search/")
    facets = shape["properties"]["facets"]
    assert sorted(facets["required"]) == ["author", "bu", "class", "dynasty", "edition"]
    assert sorted(facets["properties"]["class"]["items"]["required"]) == ["count", "name", "value"]
    assert sorted(facets["properties"]["dynasty"]["items"]["required"]) == ["count", "value"]
    # a value the filters chose says so, and the answer follows the schema
    assert facets["properties"]["dynasty"]["items"]["properties"]["selected"]["type"] == "boolean"
    everything = client.get("/api/search/?q=%E9%B5%A0").json()
    chosen = client.get("/api/search/?q=%E9%B5%A0&dynasty=%E6%B8%85").json()
    assert chosen["facets"]["dynasty"] == [{**row, "selected": True} if row["value"] == "清" else row
                                           for row in everything["facets"]["dynasty"]]
    assert sum(row.get("selected", False) for row in chosen["facets"]["dynasty"]) == 1
    OAS30Validator(shape).validate(chosen)
    classes, _ = response_schema(schema, "/api/classes/")
    assert sorted(classes["required"]) == ["count", "results"]
    assert sorted(classes["properties"]["results"]["items"]["required"]) == [
        "code", "level", "name", "parent", "shu", "works", "works_url"]
    OAS30Validator(classes).validate(client.get("/api/classes/").json())
    works, _ = response_schema(schema, "/api/classes/{code}/works/")
    OAS30Validator(works).validate(client.get("/api/classes/KR1d/works/").json())
    params = {p["name"] for p in schema["paths"]["/api/search/"]["get"]["parameters"]}
    assert {"class", "dynasty", "author"} <= params
    # a search whose filters emptied it says which, as the page does, and follows its schema
    emptied = client.get("/api/search/?q=%E9%B5%A0&dynasty=%E5%94%90").json()
    assert (emptied["count"], emptied["unfiltered"]["emptied_by"]) == (0, ["dynasty"])
    OAS30Validator(shape).validate(emptied)
    assert sorted(shape["properties"]["unfiltered"]["allOf"][0]["properties"]["each"]["items"]["required"]) == [
        "count", "label", "parameter", "url", "value"]
    page_size = next(p for p in schema["paths"]["/api/search/"]["get"]["parameters"] if p["name"] == "page_size")
    assert "a whole number from 1 to 200" in page_size["description"]
    distribution, _ = response_schema(schema, "/api/search/distribution/")
    OAS30Validator(distribution).validate(client.get("/api/search/distribution/?q=%E5%B0%84&group=class").json())


def test_each_export_kind_has_its_media_type(schema):
    for path in ("/api/works/{id}/juans/{number}/export/{kind}/", "/api/works/{id}/export/{kind}/"):
        assert sorted(schema["paths"][path]["get"]["responses"]["200"]["content"]) == [
            "application/json", "application/tei+xml", "text/plain"]
    assert sorted(schema["paths"]["/api/search/export/{kind}/"]["get"]["responses"]["200"]["content"]) == [
        "text/csv", "text/tab-separated-values"]


def read(response):
    """``response`` read to its end: a streamed export is closed then, as a server closes it, and
    gives back its heavy slot (``config.running``; one left open counted on in the process's
    later tests, test_capacity's among them)."""
    if response.streaming:
        b"".join(response.streaming_content)
    return response


def test_media_types_served_match_the_schema(client, seed_juan):
    base = f"/api/works/{seed_juan.work_id}/juans/10/export/"
    assert [read(client.get(base + kind + "/"))["Content-Type"] for kind in ("source", "maintext", "json", "tei")] == [
        "text/plain; charset=utf-8", "text/plain; charset=utf-8", "application/json", "application/tei+xml; charset=utf-8"]



@pytest.mark.parametrize("raw, value", [("%0A", "\n"), ("%0D", "\r"), ("%09", "\t"), ("%1B", "\x1b"), ("%7F", "\x7f"),
                                        ("%C2%85", "\x85"), ("1.0%0A", "1.0\n"), ("a%22b", 'a"b'), ("x" * 21, "x" * 21)])
def test_a_control_character_in_the_version_is_a_clear_400(client, raw, value):
    """``?version=%0A`` was a 500 (the version goes into the Content-Disposition file name)."""
    response = client.get(f"/api/schema/?version={raw}", HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": f"version {value!r} is not a schema version: letters, digits, '.', '_' "
                                         f"and '-', at most 20 characters (e.g. 1.0)"}


@pytest.mark.parametrize("lang", ["abc", "xx-yy", "1"])
def test_a_language_django_does_not_know_is_a_400_naming_lang(client, lang):
    """``?lang=abc`` was served in the default language, as if no ``lang`` were given."""
    response = client.get("/api/schema/", {"lang": lang}, HTTP_ACCEPT="application/json")
    assert (response.status_code, response.json()) == (400, {"detail": (
        f"lang 須為 Django 所知的語言代碼，如 zh-hant、en (lang must be a language code Django knows, such as zh-hant or en; "
        f"not {lang!r})")})
    assert client.get("/api/schema/", {"lang": "en"}, HTTP_ACCEPT="application/json").status_code == 200


def test_a_schema_version_and_an_empty_one_are_served(client):
    named = client.get("/api/schema/?version=1.0", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert named.status_code == 200
    assert named.json()["info"]["version"] == "1.0 (1.0)"
    empty = client.get("/api/schema/?version=", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert (empty.status_code, empty.json()["info"]["version"]) == (200, "1.0")


def test_the_file_name_is_one_a_browser_reads(client):
    """The Chinese title made Django write the whole
    Content-Disposition as an RFC 2047 word (=?utf-8?b?…?=), which browsers do not decode."""
    from urllib.parse import quote

    from django.conf import settings

    title = settings.SPECTACULAR_SETTINGS["TITLE"]
    for url, name in (("/api/schema/", f"{title}.yaml"), ("/api/schema/?version=1.0", f"{title} (1.0).yaml"),
                      ("/api/schema/?format=json", f"{title}.json")):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Disposition"] == f"inline; filename*=utf-8''{quote(name)}", url


@pytest.mark.parametrize("path", ["/api/search/", "/api/search/distribution/", "/api/search/export/{kind}/"])
def test_every_filter_the_search_reads_is_a_documented_parameter(schema, path):
    """The search endpoints read their query through ``SearchForm``: each of its fields
    (``commentator`` included) is a parameter of the schema, so a client generated from it can
    use every filter the API honours."""
    params = {p["name"] for p in schema["paths"][path]["get"]["parameters"]}
    assert set(SearchForm.base_fields) - params == set()
    commentator = next(p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "commentator")
    assert commentator["schema"] == {"type": "string"} and "李善" in commentator["description"]


#: A value for each named part of the site's routes, the seed's (``pk``: the work's or the edition's id).
SAMPLES = {"slug": "禮書綱目", "edition": "禮書綱目", "number": "10", "position": "1", "char": "說", "code": "KR1d",
           "kind": "json", "rest": "juans/10/", "label": "卷十", "pk": None, "uidb64": "MQ", "token": "x-y"}


def site_routes(patterns, prefix=""):
    """``(route, named parts)`` of every route of the site (``config.urls``), but the admin's
    (staff-only pages, no JSON)."""
    from django.urls import URLPattern, URLResolver

    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            if p.namespace != "admin":
                yield from site_routes(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route, list(p.pattern.converters) if hasattr(p.pattern, "converters") else []


def test_the_document_lists_every_route_that_answers_json(schema, client, seed_juan):
    """/chars/說/ answers JSON (to ``Accept: application/json`` or ``?format=json``) and the
    OpenAPI document did not list it: every route of the site, asked for JSON with the seed's
    values, that answers JSON is one of the document's paths (but the document itself)."""
    import re as regex

    from django.urls import get_resolver

    from reader.models import Edition

    edition = Edition.objects.get().pk
    answered = {}
    for route, names in site_routes(get_resolver().url_patterns):
        if route.startswith("^") or "(?P" in route:  # a pattern of its own (static files): no JSON
            continue
        parts = regex.findall(r"<(?:\w+:)?(\w+)>", route)
        assert set(parts) <= set(SAMPLES), f"no sample value for {route}: add one to SAMPLES"
        values = {**SAMPLES, "pk": str(edition if route.startswith("api/editions/") else seed_juan.work_id)}
        url = "/" + regex.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)
        response = read(client.get(url, HTTP_ACCEPT="application/json"))
        # Under /api/ any 404 is JSON, and so is the 301 from a slug to its id (a body naming the new place).
        if "json" in response.get("Content-Type", "") and response.status_code not in (301, 404):
            answered["/" + regex.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + {"pk": "id"}.get(m.group(1), m.group(1)) + "}",
                                     route)] = url
    answered.pop("/api/schema/")  # the document itself
    assert "/chars/{char}/" in answered and "/corrections/annotations/{slug}.jsonld" in answered
    assert "/search/juan-labels/" in answered
    assert len(answered) == 26, sorted(answered)  # not the layer check's two: a 404 on the seed, no reference held
    assert sorted(set(answered) - set(schema["paths"])) == []


def test_the_search_forms_juan_list_answers_as_the_document_says(schema, client, seed_juan):
    shape, _ = response_schema(schema, "/search/juan-labels/")
    for params, body in (({"work": seed_juan.work_id}, {"labels": ["卷十"], "hint": "卷名如書中所題，可從所選之書的 1 卷中選（按下方向鍵）"}),
                         ({}, {"labels": [], "hint": "卷名如書中所題，如 卷一、十、序；選定一書，即可從其卷中選"})):
        answer = client.get("/search/juan-labels/", params).json()
        OAS30Validator(shape).validate(answer)
        assert answer == body


def test_a_character_answers_json_as_the_document_says(schema, client):
    shape, _ = response_schema(schema, "/chars/{char}/")
    body = client.get("/chars/說/", {"format": "json"}).json()
    OAS30Validator(shape).validate(body)
    assert sorted(shape["required"]) == sorted(body) == sorted(shape["properties"])
    assert (body["char"], body["codepoint"], body["mandarin"], body["simplified"], body["url"]) == (
        "說", "U+8AAA", ["shuō"], ["说"], "/chars/%E8%AA%AA/")
    with_see = client.get("/chars/𤣥/", HTTP_ACCEPT="application/json")  # no reading of its own: its 正字's
    OAS30Validator(shape).validate(with_see.json())
    assert with_see.json()["see"]["char"] == "玄"
    missing = client.get("/chars/\ue000/", HTTP_ACCEPT="application/json")  # a private-use character: not in the table
    assert missing.status_code == 404 and missing.json()["found"] is False
    OAS30Validator(resolved(schema["paths"]["/chars/{char}/"]["get"]["responses"]["404"]["content"]["application/json"]
                            ["schema"], schema["components"]["schemas"])).validate(missing.json())


def test_the_annotations_answer_as_the_document_says(schema, client, seed_juan):
    from django.contrib.auth.models import Group, User

    from corrections.workflow import accept, propose

    def person(name, role):
        user = User.objects.create_user(name, password="pw-12345-x")
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    p = propose(person("a", "contributor"), seed_juan, kind="annotation", section=1, piece=3, start=8, end=9,
                replacement="天官之長也", reason="職官", tags=["office"], links=["cbdb:3767"])
    accept(p, person("e", "editor"))
    media = 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"'
    shape, _ = response_schema(schema, "/corrections/annotations/{slug}.jsonld", media)
    response = client.get("/corrections/annotations/禮書綱目.jsonld")
    assert response["Content-Type"] == media + "; charset=utf-8"
    body = response.json()
    OAS30Validator(shape).validate(body)
    assert (body["total"], body["first"]["items"][0]["target"]["selector"]["exact"]) == (1, "宰")
    assert schema["paths"]["/corrections/annotations/{slug}.jsonld"]["get"]["parameters"][1]["schema"]["enum"] == [
        "person", "place", "date", "office", "term"]


def test_swagger_fills_in_no_optional_parameter_and_the_text_tells_no_history(schema):
    """Swagger UI's 「Try it out」 fills every parameter that has an ``example`` or ``examples``
    into its form and sends it: an optional filter with one would narrow the search the reader
    tries (``commentator=李善&edition=…`` found nothing). Only required parameters (the query,
    the path) carry examples; the optional ones name theirs in the description. And the text a
    user reads names no issue numbers."""
    filled = sorted((path, p["name"]) for path, item in schema["paths"].items() for op in item.values()
                    for p in op.get("parameters", []) if not p.get("required") and ("example" in p or "examples" in p))
    assert filled == []
    search = {p["name"]: p for p in schema["paths"]["/api/search/"]["get"]["parameters"]}
    assert list(search["q"]["examples"]) == ["OneCharacter", "PhraseAcrossANote", "And/Not", "Wildcard"]
    assert search["commentator"]["description"].endswith("Example: `李善`.")
    assert search["work"]["description"] == (
        "work id or slug (see /api/works/), one or more, repeated or comma-separated (any of them): all its "
        "editions; an id or slug that is now an edition's (of a work that has several) is taken as that edition's; else "
        "a work's whole title, as written or in its simplified or variant spelling (`前漢書`, `礼书纲目`: every work so "
        "titled; never a part of a title). One that names nothing is a 400. Example: `1`, `KR2a0007` or `前漢書`.")
    assert "issue" not in json.dumps(schema, ensure_ascii=False).lower()


def test_the_schema_is_built_once_per_process_and_version(client, settings, monkeypatch):
    """Building the schema reads every view and serializer (about 3 s of one core): a process
    builds it once per version and language, then renders what it built, whatever the page
    cache keeps (here off) and whatever Accept asks (YAML, JSON)."""
    from drf_spectacular.generators import SchemaGenerator

    from api import schema as module

    settings.PAGE_CACHE_SECONDS = 0
    monkeypatch.setattr(module, "_BUILT", {})
    built = []
    original = SchemaGenerator.get_schema
    monkeypatch.setattr(SchemaGenerator, "get_schema",
                        lambda self, *a, **k: built.append(self.api_version) or original(self, *a, **k))
    first = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    again = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    yaml = client.get("/api/schema/", HTTP_ACCEPT="application/yaml")
    named = client.get("/api/schema/?version=1.0", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert again == first and yaml.status_code == 200 and yaml.content.startswith(b"openapi: 3.0.3")
    assert (first["info"]["version"], named["info"]["version"]) == ("1.0", "1.0 (1.0)")
    assert built == [None, "1.0"]


def drift(payload, shape, where="") -> list[tuple[str, str, list[str]]]:
    """Where ``payload`` (a real JSON answer) and its schema ``shape`` (``resolved``) name other
    fields: ``[(place, "undocumented" or "missing", [keys]), …]``, at every object the schema
    lists the properties of, through arrays and nested objects; ``[]`` when they agree. An
    object whose keys are open (``additionalProperties`` alone: ``relations``) is not compared."""
    while "allOf" in shape and len(shape["allOf"]) == 1:
        shape = {**shape["allOf"][0], **{k: v for k, v in shape.items() if k != "allOf"}}
    found = []
    if isinstance(payload, dict) and "properties" in shape:
        props = shape["properties"]
        if extra := sorted(set(payload) - set(props)):
            found.append((where, "undocumented", extra))
        if missing := sorted(set(shape.get("required", [])) - set(payload)):
            found.append((where, "missing", missing))
        for key, value in payload.items():
            if key in props:
                found += drift(value, props[key], f"{where}.{key}")
    elif isinstance(payload, list) and "items" in shape:
        for value in payload:
            found += drift(value, shape["items"], where + "[]")
    return found


#: The query each JSON path of the API needs, with the seed's values: a search and a passage.
QUERIES = {"/api/search/": {"q": "鵠"}, "/api/search/distribution/": {"q": "射"}, "/api/parallels/": {"text": "大射之儀君有命戒射"}}


def test_every_json_answer_has_the_fields_its_schema_names(schema, client, seed_juan):
    """A search hit carried ``edition`` (its id, slug and name) and the schema did not name it, nor
    the ``edition`` of a juan and a section or their work's ``people``: the validators pass a
    field the schema does not list. Every path of the document that answers JSON, asked with the
    seed's values, answers an object whose fields at every level are those its schema names
    (the required ones present), so that the two cannot drift apart; the search's other forms too
    (a filter that empties it, a hit of a gaiji, the distribution by class)."""
    from django.contrib.auth.models import Group, User

    from corrections.workflow import accept, propose

    user = User.objects.create_user("a", password="pw-12345-x")
    user.groups.add(Group.objects.get_or_create(name="contributor")[0])
    editor = User.objects.create_user("e", password="pw-12345-x")
    editor.groups.add(Group.objects.get_or_create(name="editor")[0])
    accept(propose(user, seed_juan, kind="annotation", section=1, piece=3, start=8, end=9, replacement="天官之長也",
                   reason="職官", tags=["office"], links=["cbdb:3767"]), editor)
    values = {"number": "10", "position": "2", "code": "KR1d", "char": "說", "slug": "禮書綱目", "kind": "json"}
    compared = []
    for path, item in schema["paths"].items():
        content = item["get"]["responses"]["200"].get("content", {})
        media = next((m for m in content if "json" in m), None)
        if media is None or path == "/api/schema/" or path.endswith("/layer-check/"):
            continue  # the layer check: the seed has no reference, a 404 (test_juan_layer_check: its payload whole)
        ids = {"id": str(seed_juan.edition_id if path.startswith("/api/editions/") else seed_juan.work_id)}
        url = re.sub(r"\{(\w+)\}", lambda m: {**values, **ids}[m.group(1)], path)
        response = client.get(url, QUERIES.get(path, {}), HTTP_ACCEPT="application/json")
        body = b"".join(response.streaming_content) if response.streaming else response.content  # read whole (``read``)
        assert response.status_code == 200, (url, response.status_code)
        shape = resolved(content[media]["schema"], schema["components"]["schemas"])
        assert drift(json.loads(body), shape) == [], url
        compared.append(path)
    assert len(compared) == 26, compared
    search, _ = response_schema(schema, "/api/search/")
    for query in ({"q": "鵠", "dynasty": "唐"}, {"q": "鵠", "commentator": "江"}, {"q": "鵠", "page_size": "200"}):
        assert drift(client.get("/api/search/", query).json(), search) == [], query
    distribution, _ = response_schema(schema, "/api/search/distribution/")
    assert drift(client.get("/api/search/distribution/", {"q": "射", "group": "class"}).json(), distribution) == []
    # the comparison sees a field the schema lacks, and one it requires that a payload lacks
    hit = client.get("/api/search/", {"q": "鵠"}).json()
    hit["results"][0]["edition"]["volume"] = 1
    del hit["results"][1]["juan_label"]
    assert drift(hit, search) == [(".results[].edition", "undocumented", ["volume"]),
                                  (".results[]", "missing", ["juan_label"])]


def test_every_operation_has_a_summary_and_the_examples_name_this_server(schema):
    """ReDoc titled each operation by its generated id (root_retrieve) and the examples named
    http://127.0.0.1:8000 whatever the server: each operation now has a summary
    (``api.schema_summaries.SUMMARIES``, or ``api.outside_routes``' own), and the examples name
    the server the document is served from (the test client's http://testserver)."""
    import json

    from api.schema_summaries import SUMMARIES

    operations = {op["operationId"]: op.get("summary") for ops in schema["paths"].values()
                  for op in ops.values() if isinstance(op, dict) and "operationId" in op}
    assert operations == {**SUMMARIES, "chars_retrieve": "One character: readings, definition, forms and variants",
                          "annotations_retrieve": "An edition's public annotations (W3C Web Annotations)",
                          "search_juan_labels": "The 卷 list of the search form for a chosen work or edition"}
    assert operations["root_retrieve"] == "Where the API starts: the address of each list"
    text = json.dumps(schema, ensure_ascii=False)
    assert "127.0.0.1:8000" not in text
    assert text.count("http://testserver/") == 20
    root = schema["paths"]["/api/"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    assert [e["value"]["works"] for e in root.values()] == ["http://testserver/api/works/"]


def test_a_slug_or_a_title_in_place_of_an_id_answers_as_the_document_says(schema, client, seed_juan):
    """``/api/works/<title>/…`` leads to the work as ``/works/<title>/…`` does (``api.redirects``):
    every path under ``/api/works/{id}/`` documents the 301 of a slug, the 302 of a title and the
    300 of a title several works bear, with their bodies, and says so in its ``id``; the answers
    follow those shapes."""
    from reader.models import Edition, Juan, Work

    components = schema["components"]["schemas"]
    under_works = [path for path in schema["paths"] if path.startswith("/api/works/{id}/")]
    under_editions = [path for path in schema["paths"] if path.startswith("/api/editions/{id}/")]
    assert (len(under_works), len(under_editions)) == (10, 10)
    for path in under_works + under_editions:
        responses = schema["paths"][path]["get"]["responses"]
        assert [s for s in ("200", "300", "301", "302") if s in responses] == (
            ["200", "300", "301", "302"] if path in under_works else ["200", "301"]), path
        described = next(p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "id")["description"]
        assert ("a 300 listing the works when several bear the title" in described) == (path in under_works), path
    shape = {status: resolved(schema["paths"]["/api/works/{id}/juans/{number}/"]["get"]["responses"][status]["content"]
                              ["application/json"]["schema"], components) for status in ("300", "301", "302")}
    Work.objects.filter(pk=seed_juan.work_id).update(title="禮書綱目大射儀")
    moved = client.get("/api/works/禮書綱目/juans/10/")
    titled = client.get("/api/works/礼书綱目大射仪/juans/10/")
    assert (moved.status_code, titled.status_code) == (301, 302)
    OAS30Validator(shape["301"]).validate(moved.json())
    OAS30Validator(shape["302"]).validate(titled.json())
    for author in ("鄭玄", "賈公彥"):
        work = Work.objects.create(title="周禮", author=author, slug=f"zhouli-{Work.objects.count()}")
        Juan.objects.create(work=work, edition=Edition.objects.create(work=work, slug=work.slug), number=1, label="卷一")
    several = client.get("/api/works/周禮/juans/1/")
    assert several.status_code == 300 and len(several.json()["works"]) == 2
    OAS30Validator(shape["300"]).validate(several.json())
    assert sorted(shape["300"]["required"]) == sorted(several.json()) and sorted(shape["301"]["required"]) == sorted(moved.json())
