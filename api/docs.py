"""The API documentation page, `/api/docs/`: Swagger UI, and what a reader has before Swagger UI
has drawn it (or without JavaScript): a way back to the site and the API's endpoints, each with
its methods and its first sentence, listed in the page itself.

Swagger UI draws nothing until it has fetched and read the schema, and the schema is built
from every view and serializer (about 3 s of one core the first time a process is asked for it,
`api.schema.SchemaView`): a new reader saw Swagger UI's 「LOADING」 for about 6 s, on a page
with no link back. The list here is read from the URL patterns (drf-spectacular's generator
walking them, inspecting no serializer) once per process (`endpoint_summary`), so the page
paints it at once; js/api-docs.js hides it once Swagger UI has drawn the operations."""
from __future__ import annotations

import re

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView

#: Where a docstring's first sentence ends: a full stop, colon or semicolon before a space or
#: the end (`"The works held. Filter with …"` → `"The works held."`).
SENTENCE_END = re.compile(r"(?<=[.:;])(?:\s|$)")

_summary: list[dict] | None = None


def first_sentence(doc: str | None) -> str:
    """The first sentence of a view's docstring, one line, its Markdown code marks dropped
    (`` `title` `` → ``title``), a closing colon as a full stop; "" for none."""
    text = " ".join((doc or "").split()).replace("`", "")
    if not text:
        return ""
    # the first end outside parentheses ("The works held in a class (a 類. …)" is not cut inside)
    end = next((m.start() for m in SENTENCE_END.finditer(text)
                if text.count("(", 0, m.start()) == text.count(")", 0, m.start())), len(text))
    sentence = text[:end]
    return sentence[:-1] + "." if sentence.endswith((":", ";")) else sentence


def endpoint_summary() -> list[dict]:
    """The API's endpoints as the schema lists them, in its order, read from the URL patterns
    by drf-spectacular's generator without building the schema: ``[{"path": "/api/works/{id}/",
    "methods": ["GET"], "summary": "A work with its editions, …"}]``, one row a path (its
    methods together), the summary the first sentence (``first_sentence``) of the handler's
    docstring, else the view's, as the schema's operation description reads them. Views the
    schema leaves out (``extend_schema(exclude=True)``: this page itself) are left out. Kept
    for the process: the URL patterns do not change while it runs."""
    global _summary
    if _summary is None:
        generator = SchemaGenerator()
        generator._initialise_endpoints()  # noqa: SLF001 - the generator's own walk of the patterns
        rows: dict[str, dict] = {}
        for path, _, method, view in generator._get_paths_and_endpoints():  # noqa: SLF001
            if view.schema is None:
                continue
            # what the generator sets before it asks (``SchemaGenerator.parse``): the mock
            # request a version is read from, and the method ``extend_schema`` scopes by
            view.request = spectacular_settings.GET_MOCK_REQUEST(method, path, view, None)
            view.schema.method = method.upper()
            if view.schema.is_excluded():
                continue
            handler = getattr(view, method.lower(), None)
            doc = first_sentence(getattr(handler, "__doc__", None)) or first_sentence(type(view).__doc__)
            rows.setdefault(path, {"path": path, "methods": [], "summary": doc})["methods"].append(method)
        _summary = list(rows.values())
    return _summary


class DocsView(SpectacularSwaggerSplitView):
    """drf-spectacular's Swagger UI page (its own script served by this view too), with
    the list of endpoints (endpoint_summary) for the template to show before Swagger UI draws.
    Its description is plain text: a view's docstring is shown by the browsable API."""

    @extend_schema(exclude=True)  # the page, not an endpoint of the API
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if request.GET.get("script") is None:
            response.data["endpoints"] = endpoint_summary()
        return response
