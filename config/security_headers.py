"""Security headers on every response, including those made before the inner middleware runs.

Django's ``SecurityMiddleware``, ``XFrameOptionsMiddleware`` and django-csp's
``CSPMiddleware`` add their headers to responses that pass through them. Some responses do
not: a 400 for a bad ``Host`` (``DisallowedHost``, raised by the first middleware that asks
for the host) or for too many form fields (``TooManyFieldsSent``), and static files, which
whitenoise answers before the rest of the middleware. ``SecurityHeadersMiddleware`` stands
outside all of them and adds whatever is missing, from the same settings:

* ``Content-Security-Policy`` (``settings.CONTENT_SECURITY_POLICY``, built by django-csp);
* ``X-Frame-Options`` (``settings.X_FRAME_OPTIONS``);
* ``X-Content-Type-Options: nosniff``, ``Referrer-Policy`` (``SECURE_REFERRER_POLICY``)
  and ``Cross-Origin-Opener-Policy`` (``SECURE_CROSS_ORIGIN_OPENER_POLICY``).

A header already set (a page's own CSP, such as ReDoc's) is left as it is; a response
marked exempt (``csp_exempt``, ``xframe_options_exempt``) gets none of that kind.
"""
from __future__ import annotations

from functools import lru_cache

from csp.utils import build_policy
from django.conf import settings


@lru_cache(maxsize=4)
def _policy(directives_key: str) -> str:
    return build_policy()


def default_headers() -> dict[str, str]:
    """``{header: value}`` that every response carries unless it sets its own."""
    headers = {"X-Content-Type-Options": "nosniff"}
    if getattr(settings, "CONTENT_SECURITY_POLICY", None):
        headers["Content-Security-Policy"] = _policy(repr(settings.CONTENT_SECURITY_POLICY))
    if getattr(settings, "X_FRAME_OPTIONS", None):
        headers["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    if getattr(settings, "SECURE_REFERRER_POLICY", None):
        policy = settings.SECURE_REFERRER_POLICY
        headers["Referrer-Policy"] = policy if isinstance(policy, str) else ",".join(policy)
    if getattr(settings, "SECURE_CROSS_ORIGIN_OPENER_POLICY", None):
        headers["Cross-Origin-Opener-Policy"] = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    return headers


class SecurityHeadersMiddleware:
    """Outer middleware: add the missing security headers (see module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in default_headers().items():
            if name in response:
                continue
            if name == "Content-Security-Policy" and (getattr(response, "_csp_exempt", False)
                                                      or "Content-Security-Policy-Report-Only" in response):
                continue
            if name == "X-Frame-Options" and getattr(response, "xframe_options_exempt", False):
                continue
            response[name] = value
        return response
