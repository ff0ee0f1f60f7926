"""Who a client is: the address the rate limits, the search page's budget and the admin's lockout
count it by, and whether it is signed in or unlimited.

**Client identity** (``client_ip``): ``REMOTE_ADDR``, unless ``settings.NUM_PROXIES``
trusted proxies stand in front of the app. Each proxy appends the address it received the
request from to ``X-Forwarded-For``, so with ``NUM_PROXIES = n`` the client is the n-th
address from the right; whatever a client writes into the header itself stands further
left and is ignored. The default, 0, trusts no header (DRF's own default, ``None``, took
the whole header, so a client that changed it was a new client each time). An IPv6
client is its /64 network, and an IPv4-mapped address its IPv4 address (``client_address``):
one client cannot become many by rotating the addresses its provider gave it. The API
throttles, the search page's budget and the admin's lockout (django-axes,
``AXES_CLIENT_IP_CALLABLE``) all use this one function.
"""
from __future__ import annotations

import functools
import ipaddress
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db.models import Q

__all__ = ["IPV6_CLIENT_PREFIX", "client_address", "client_ip", "signed_in", "unlimited"]

#: An IPv6 client is its network of this prefix length: a provider gives every customer at
#: least a /64 (RFC 6177), so a client could otherwise be a new client for every address of it.
IPV6_CLIENT_PREFIX = 64


@functools.lru_cache(maxsize=4096)
def client_address(value: str) -> str | None:
    """The one form of a client address, or None when ``value`` is not one: IPv4 as it is;
    an IPv4-mapped IPv6 address (``::ffff:203.0.113.9``) as its IPv4 address; any other
    IPv6 address as the first address of its ``/IPV6_CLIENT_PREFIX`` network, without a
    zone (``2001:db8:1:2::7`` → ``2001:db8:1:2::``). So the spellings and the many addresses
    one client has count as one client, and the result is still an address (django-axes
    stores it in an address column). The last 4,096 values are remembered: every request
    asks, most from a few clients."""
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        bits = 128 - IPV6_CLIENT_PREFIX  # from the integer: the zone (``%eth0``) is dropped
        return str(ipaddress.IPv6Address(int(address) >> bits << bits))
    return str(address)


def client_ip(request) -> str:
    """The client's address as seen through ``settings.NUM_PROXIES`` trusted proxies (see
    the module docstring), in the form ``client_address`` gives; ``REMOTE_ADDR`` when the
    header is missing or not an address."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    remote = client_address(remote) or remote
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if not forwarded:
        return remote
    return client_address(forwarded[-min(proxies, len(forwarded))]) or remote


def signed_in(request) -> bool:
    """Whether the request's session cookie names a stored session of a signed-in user (a
    made-up or expired cookie does not). One session read, only when there is a cookie,
    and ``request.session`` is not touched (a page that did would not be kept)."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return store.get(SESSION_KEY) is not None


def unlimited(request) -> bool:
    """Whether the request comes from a signed-in editor or staff member: an active user of
    the session's cookie who is ``is_staff`` or in one of ``settings.UNLIMITED_GROUPS``
    (corrections' ``editor``). The anonymous clients' budgets (searches, heavy requests, the
    lane of one heavy request at a time) do not count them; anyone else is counted by
    address, signed in or not: a contributor's account, which anyone can make when sign-up
    is open, was enough to run heavy requests without a limit and hold every slot. One session
    read and one query, only when there is a cookie."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        return False
    user_id = import_module(settings.SESSION_ENGINE).SessionStore(session_key).get(SESSION_KEY)
    if user_id is None:
        return False
    users = get_user_model().objects.filter(pk=user_id, is_active=True)
    return users.filter(Q(is_staff=True) | Q(groups__name__in=settings.UNLIMITED_GROUPS)).exists()
