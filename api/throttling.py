"""API rate limits (DRF throttles) read from settings at request time.

``settings.API_ANON_RATE`` and ``settings.API_USER_RATE`` in DRF's rate form
(``"600/min"``); DRF's own classes read their rates once at import, these read them on
every request so a deployment (or a test) can change them.
"""
from django.conf import settings
from rest_framework import throttling


class AnonRateThrottle(throttling.AnonRateThrottle):
    """Requests per client IP for anonymous users: ``settings.API_ANON_RATE``."""

    def get_rate(self):
        return settings.API_ANON_RATE


class UserRateThrottle(throttling.UserRateThrottle):
    """Requests per signed-in user: ``settings.API_USER_RATE``."""

    def get_rate(self):
        return settings.API_USER_RATE
