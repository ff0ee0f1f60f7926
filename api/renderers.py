"""The API's renderers: DRF's ``JSONRenderer`` output, encoded by orjson, and the browsable API
within the site's security policy (``BrowsableRenderer``).

A search page carries its distribution by juan (之: 1,803 juans on the 30 M library, a
186 KB response): the standard library's encoder took about 4 ms of such a request, orjson
about a tenth of it. The bytes are DRF's: compact separators, UTF-8 (``UNICODE_JSON``),
U+2028 and U+2029 escaped as DRF escapes them (they end lines in JavaScript), values orjson
does not know (lazy strings, ``Decimal``, UUIDs) through DRF's own ``JSONEncoder``.
Indented output (``Accept: application/json; indent=2``) and ASCII output (``UNICODE_JSON =
False``) go to DRF's renderer. One difference is left: a float is written in its shortest
form by orjson's rule, which can differ from Python's ``repr`` in the exponent (``1e16`` for
``1e+16``); the API's only floats are parallel-passage scores such as ``87.5``, written alike.
A value already written as JSON (``EncodedJSON``: the distribution by juan, ``api.distribution``)
is put in place as it is.
"""
from __future__ import annotations

import re

import orjson
from django.utils.encoding import smart_str
from django.utils.html import escape
from django.utils.safestring import mark_safe
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.utils.formatting import dedent

#: How many U+2000–U+2FFF characters (UTF-8 lead byte E2: ○, —, …) ``escape_line_ends``
#: looks at one by one before it searches the whole text for the two it escapes.
_LOOKS = 64


def escape_line_ends(out: bytes) -> bytes:
    """``out`` (UTF-8 JSON) with U+2028 and U+2029 written ``\\u2028`` and ``\\u2029``, as
    DRF's ``JSONRenderer`` writes them. ``bytes.replace`` searches a three-byte pattern a
    few bytes at a time (0.15 ms for a 170 KB answer, twice); most answers have no byte
    E2 at all, which one ``find`` of that byte (memchr) shows in a few microseconds."""
    find, i = out.find, out.find(b"\xe2")
    for _ in range(_LOOKS):
        if i < 0:
            return out
        if out[i + 1:i + 3] in (b"\x80\xa8", b"\x80\xa9"):
            break
        i = find(b"\xe2", i + 3)
    return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")


class _Encoder(JSONEncoder):
    """DRF's encoder (indented and ASCII output, the browsable API), which also writes
    ``EncodedJSON`` values: as the data they decode to."""

    def default(self, obj):
        if isinstance(obj, EncodedJSON):
            return obj.decoded()
        return super().default(obj)


_drf = _Encoder()


def _default(value):
    if isinstance(value, EncodedJSON):
        return orjson.Fragment(value.data)
    return _drf.default(value)


class EncodedJSON:
    """A value of an answer's data already written as JSON (``data``: UTF-8 bytes, U+2028
    and U+2029 escaped, compact separators, as ``FastJSONRenderer`` writes): the renderer
    puts the bytes in place as they are (orjson's ``Fragment``); DRF's own encoder writes
    what they decode to. Made by ``api.distribution``."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data

    def decoded(self):
        """The Python value of ``data`` (lists, dicts, strings, numbers)."""
        return orjson.loads(self.data)

    def __eq__(self, other):
        return isinstance(other, EncodedJSON) and other.data == self.data

    __hash__ = None

    def __repr__(self):
        return f"EncodedJSON({self.data[:60]!r}…)" if len(self.data) > 60 else f"EncodedJSON({self.data!r})"


class FastJSONRenderer(JSONRenderer):
    """``JSONRenderer`` with the same output, faster (see the module docstring)."""

    encoder_class = _Encoder

    def render(self, data, accepted_media_type=None, renderer_context=None):
        """``data`` as UTF-8 JSON bytes (b"" for None): orjson for the compact, non-ASCII-escaped form the API
        answers with, DRF's encoder for anything else (an indent asked, ``ensure_ascii``, an integer beyond 64
        bits), with the same output."""
        if data is None:
            return b""
        if not self.ensure_ascii and self.compact and not self.get_indent(accepted_media_type, renderer_context or {}):
            try:
                out = orjson.dumps(data, default=_default)
            except TypeError:  # an integer beyond 64 bits, a key that is no string: DRF's way
                return super().render(data, accepted_media_type, renderer_context)
            return escape_line_ends(out)
        return super().render(data, accepted_media_type, renderer_context)


class BrowsableRenderer(BrowsableAPIRenderer):
    """DRF's browsable API (``Accept: text/html``) within the site's Content-Security-Policy
    (``style-src 'self'``, no inline code): DRF writes Pygments' colours for code in a view's
    description as an inline ``<style>``, which the policy blocks and the browser reports on
    every page; the descriptions here hold no highlighted code, so none is written."""

    def get_context(self, data, accepted_media_type, renderer_context):
        """DRF's template context with ``code_style`` None: no inline ``<style>`` for Pygments."""
        context = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context


#: A span the views' docstrings mark as code: `?title=禮書` (one backtick each side, on one line).
_CODE = re.compile(r"`([^`\n]+)`")


def view_description(view, html: bool = False) -> str:
    """A view's description (``REST_FRAMEWORK["VIEW_DESCRIPTION_FUNCTION"]``): its docstring,
    dedented, as DRF's own function gives it; for the browsable API (``html``) escaped, each
    `code` span a ``<code>`` element and each paragraph (blank-line separated) a ``<p>``, its
    wrapped lines joined. DRF leaves the backticks raw unless the ``markdown`` package is
    installed, which the site does not need for anything else."""
    description = getattr(view, "description", None)
    if description is None:
        description = view.__class__.__doc__ or ""
    description = dedent(smart_str(description))
    if not html:
        return description
    paragraphs = [" ".join(p.split("\n")) for p in re.split(r"\n\s*\n", description.strip()) if p.strip()]
    return mark_safe("".join("<p>" + _CODE.sub(r"<code>\1</code>", escape(p)) + "</p>" for p in paragraphs))


#: The longest ``format`` value a message shows whole.
SHOWN_FORMAT = 20


class FormatNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, with a ``?format=`` no renderer of the view writes (``xml``, ``csv``
    where the view has no CSV) answered by a 400 naming ``format`` and the formats the view has
    (``{"format": ["format 須為 json、api 之一 (format must be one of 'json', 'api'; not 'xml')"]}``),
    not DRF's 404, which read as the URL naming nothing."""

    def filter_renderers(self, renderers, format):
        """The renderers of ``renderers`` that write ``format``; a ``ValidationError`` on ``format`` when
        none does."""
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            formats = list(dict.fromkeys(renderer.format for renderer in renderers))
            raise ValidationError({"format": [
                f"format 須為 {'、'.join(formats)} 之一 (format must be one of "
                f"{', '.join(map(repr, formats))}; not {format[:SHOWN_FORMAT]!r})"]})
        return found
