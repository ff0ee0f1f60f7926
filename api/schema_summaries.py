"""The OpenAPI document's operation summaries and its examples' server, by a drf-spectacular
post-processing hook (``operations_named_for_readers``, ``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``).

ReDoc and Swagger UI title each operation by its ``summary``, else by its generated
``operationId`` (``root_retrieve``, ``editions_juans_sections_notes_list``): a reader saw the
names of our view functions. ``SUMMARIES`` gives each operation the words a reader looks for,
the same for an edition's route (``/api/editions/<id>/…``) and its work's default edition's
(``/api/works/<id>/…``), told apart by what they are read in. The examples, written once with
a development server's address (``EXAMPLE_SERVER``), name the server the document is served
from (``http://testserver`` to the test client, the site's own host in production).
"""
from __future__ import annotations

#: The server the examples of ``api.shapes`` and ``api.views`` are written with.
EXAMPLE_SERVER = "http://127.0.0.1:8000"

#: ``operationId`` → summary (a short title, as ReDoc lists it); every operation the API's views
#: and ``api.outside_routes`` give has one (tests/test_api_schema.py checks that none is missing).
SUMMARIES = {
    "root_retrieve": "Where the API starts: the address of each list",
    "classes_list": "Classes of the catalogue (部 and 類)",
    "classes_works_list": "Works held in a class",
    "works_list": "Works held, by title or author",
    "works_retrieve": "A work, its editions and juans",
    "editions_retrieve": "An edition, its work and juans",
    "works_export_retrieve": "A whole work (its default edition) as one file",
    "editions_export_retrieve": "A whole edition as one file",
    "works_juans_retrieve": "A juan: chapters, sections and pieces (default edition)",
    "editions_juans_retrieve": "A juan: chapters, sections and pieces",
    "works_juans_export_retrieve": "A juan as a file (default edition)",
    "editions_juans_export_retrieve": "A juan as a file",
    "works_juans_collation_retrieve": "A juan collated against the other editions (default edition)",
    "editions_juans_collation_retrieve": "A juan collated against the other editions",
    "works_juans_collation_export": "A juan's collation as CSV or TEI (default edition)",
    "editions_juans_collation_export": "A juan's collation as CSV or TEI",
    "works_juans_layer_check_retrieve": "A juan's layers checked against another edition of its classic (default edition)",
    "editions_juans_layer_check_retrieve": "A juan's layers checked against another edition of its classic",
    "works_juans_sections_retrieve": "A section by its permalink (default edition)",
    "editions_juans_sections_retrieve": "A section by its permalink",
    "works_juans_sections_notes_list": "A section's notes (default edition)",
    "editions_juans_sections_notes_list": "A section's notes",
    "works_juans_sections_parallels_retrieve": "A section's parallel passages (default edition)",
    "editions_juans_sections_parallels_retrieve": "A section's parallel passages (相關段落)",
    "parallels_retrieve": "Parallel passages of any span of text",
    "search_retrieve": "Search: every hit of a query, paginated",
    "search_distribution_retrieve": "Search: the hits per juan and section, for charts",
    "search_export_retrieve": "Search: every hit as a file",
}


def _on_server(value, server: str):
    """``value`` (an example: str, list or dict, nested) with ``EXAMPLE_SERVER`` replaced by ``server``."""
    if isinstance(value, str):
        return value.replace(EXAMPLE_SERVER, server)
    if isinstance(value, list):
        return [_on_server(v, server) for v in value]
    if isinstance(value, dict):
        return {k: _on_server(v, server) for k, v in value.items()}
    return value


def operations_named_for_readers(result, generator, request, public):
    """drf-spectacular post-processing hook: each operation without a summary gets ``SUMMARIES``'
    (an operation it does not name keeps none, and ReDoc shows its ``operationId``); with a
    ``request``, every ``EXAMPLE_SERVER`` in the document names the request's server instead
    (``request.build_absolute_uri("/")`` less its final ``/``). Returns ``result``."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "summary" not in operation and operation.get("operationId") in SUMMARIES:
                operation["summary"] = SUMMARIES[operation["operationId"]]
    if request is not None:
        result = _on_server(result, request.build_absolute_uri("/").rstrip("/"))
    return result
