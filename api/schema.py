"""`/api/schema/`, the OpenAPI schema drf-spectacular builds from the API's views and
serializers (the shapes of the hand-built responses: ``api.shapes``; the JSON routes outside the
API's views: ``api.outside_routes``), with its ``?version=`` checked and the schema built once
per process."""
from __future__ import annotations

import re
from email.header import decode_header

from django.conf import settings
from django.utils import translation
from django.utils.http import content_disposition_header
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework.exceptions import ParseError
from rest_framework.response import Response


#: A schema version as ``?version=`` may give it: a letter or digit, then letters, digits,
#: ``.``, ``_`` or ``-`` (``1.0``), at most 20 characters. The version goes into the response's
#: file name (``Content-Disposition``), where a control character was a 500.
VERSION_PATTERN = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,19}")


#: The schema built by this process, by ``(version, language)``: it follows from the code alone
#: (the views, serializers and ``api.shapes``), which a process does not change under itself.
_BUILT: dict[tuple, dict] = {}


class SchemaView(SpectacularAPIView):
    """`/api/schema/`: drf-spectacular's schema view, with `?version=` checked first: a
    value outside `VERSION_PATTERN` (a newline, any control character, a space, a quote) is a
    400 whose `detail` names it, not a server error; an empty one means none.

    The schema is built once per process and `(version, language)` (`_BUILT`), then only
    rendered (JSON or YAML): building it reads every view and serializer, about 3 s of one core
    for 112 KB of YAML, where the page cache keeps one answer per Accept header and per corpus
    and index version (a fresh import had Swagger UI wait for a new build)."""

    @extend_schema(**SCHEMA_KWARGS)
    def get(self, request, *args, **kwargs):
        version = request.GET.get("version")
        if version and not VERSION_PATTERN.fullmatch(version):
            raise ParseError(f"version {version!r} is not a schema version: letters, digits, '.', '_' and '-', "
                             f"at most 20 characters (e.g. 1.0)")
        lang = request.GET.get("lang")
        if lang and lang not in dict(settings.LANGUAGES):  # drf-spectacular read any other as the default, silently
            raise ParseError(f"lang 須為 Django 所知的語言代碼，如 zh-hant、en (lang must be a language code Django knows, "
                             f"such as zh-hant or en; not {lang[:20]!r})")
        response = super().get(request, *args, **kwargs)
        # The title is Chinese, and Django wrote drf-spectacular's whole header as an RFC 2047
        # word (=?utf-8?b?…?=), which browsers do not read: the file name as RFC 6266 gives it
        # (filename*=utf-8''…).
        disposition = response.get("Content-Disposition", "")
        if disposition.startswith("=?"):
            value = "".join(b.decode(c or "ascii") if isinstance(b, bytes) else b for b, c in decode_header(disposition))
            named = re.fullmatch(r'inline; filename="(.*)"', value)
            if named:
                response["Content-Disposition"] = content_disposition_header(False, named.group(1))
        return response

    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language(), self.serve_public)
        data = _BUILT.get(key)
        if data is None:
            if len(_BUILT) >= 8:  # ?version= is the caller's: a handful kept, not one per value sent
                _BUILT.clear()
            generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
            data = _BUILT[key] = generator.get_schema(request=request, public=self.serve_public)
        return Response(data=data,
                        headers={"Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
