"""The links of an annotation: a CBDB person (``cbdb:3767``), or a web page (``http``/``https``
only: never ``javascript:``, ``data:`` or another scheme a browser would run or open).

The China Biographical Database (CBDB, https://projects.iq.harvard.edu/cbdb) numbers each
person (``c_personid``, a positive integer); its person page is
``https://cbdb.fas.harvard.edu/cbdbapi/person.php?id=<id>``. A reader may give the ID as
``cbdb:3767``, ``CBDB 3767`` or that page's URL; it is stored as ``cbdb:3767``.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

from .hosts import shown_url
from characters.unseen import described, named, unseen_at
from .usernames import letter_scripts

#: At most this many links per annotation, each at most ``MAX_LINK`` characters.
MAX_LINKS = 5
MAX_LINK = 500
CBDB_PAGE = "https://cbdb.fas.harvard.edu/cbdbapi/person.php?id={}"
_CBDB = re.compile(r"(?i)cbdb\s*[:：\s]\s*(\d{1,9})|https?://cbdb\.fas\.harvard\.edu/cbdbapi/person\.php\?id=(\d{1,9})")
_WEB = URLValidator(schemes=["http", "https"])


class LinkError(ValueError):
    """A link that is neither a CBDB person ID nor an http/https URL, with the reason."""


def clean_link(text: str) -> str:
    """``text`` as a stored link (``cbdb:<id>`` or the URL as given), or ``LinkError`` (one that
    holds a character that shows as nothing, ``unseen.unseen_at``, among them)."""
    text = text.strip()
    if len(text) > MAX_LINK:
        raise LinkError(f"連結至多 {MAX_LINK} 字 (a link is at most {MAX_LINK} characters)")
    at = unseen_at(text)  # shown as nothing: an address that reads as another (goo\u200bgle.com), or a reversed one (U+202E)
    if at is not None:
        raise LinkError(f"連結第 {at + 1} 字為不可見字元 {described(text[at])}，請去除 (the link holds an invisible character, "
                        f"{named(text[at])}, at character {at + 1}: write it without)")
    m = _CBDB.fullmatch(text)
    if m:
        number = int(m.group(1) or m.group(2))
        if number < 1:
            raise LinkError(f"「{text}」：CBDB 人物編號是從 1 起的數 (a CBDB person ID is a number from 1)")
        return f"cbdb:{number}"
    if text.lower().startswith("cbdb"):
        raise LinkError(f"「{text}」不是 CBDB 人物編號，應寫作 cbdb: 加編號，如 cbdb:3767 (not a CBDB person ID: cbdb: and its number, such as cbdb:3767)")
    try:
        _WEB(text)
    except ValidationError:
        raise LinkError(f"「{text}」既非 CBDB 人物編號（cbdb:3767），亦非 http 或 https 網址 (neither a CBDB person ID nor an http or https address)") from None
    _check_escaped(text)
    _check_port(text)
    _check_deceptive(text)
    return text


def _check_port(url: str) -> None:
    """Raise ``LinkError`` for an http(s) address whose port is past 65535 (RFC 6335: ports are
    16-bit; ``https://example.com:99999/``, which ``URLValidator`` takes: no browser opens it)."""
    try:
        urlsplit(url).port
    except ValueError:
        raise LinkError(f"「{url}」的連接埠超出 0–65535 (the link's port is not a number from 0 to 65535)") from None


#: The ASCII characters an address may hold as they are (RFC 3986, 2.2–2.3: unreserved, reserved and
#: ``%`` of a percent-encoding); any other (``"``, ``<``, ``>``, a space, ``\\``, ``^``, ``` ` ```, ``{``,
#: ``|``, ``}``) is written percent-encoded. A character past ASCII (中文 in a path) is taken as an
#: IRI (RFC 3987) holds it, as a browser's address bar shows it.
URI_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")


#: A percent-encoding (RFC 3986, 2.1): ``%`` and two hexadecimal digits; a ``%`` without them is
#: itself written ``%25``.
_PERCENT_ENCODED = re.compile(r"%[0-9A-Fa-f]{2}")


def _check_escaped(url: str) -> None:
    """Raise ``LinkError`` for an http(s) address holding an ASCII character RFC 3986 does not allow
    unescaped (not in ``URI_CHARACTERS``: ``https://example.com/"><script>`` holds ``"``; a ``%`` that
    begins no percent-encoding: ``https://example.com/%zz``), naming the
    first and its percent-encoding: no valid URI holds it, and an annotation's JSON-LD gives the link
    as its ``source``."""
    at = next((i for i, ch in enumerate(url) if ch.isascii() and ch not in URI_CHARACTERS
               or ch == "%" and not _PERCENT_ENCODED.match(url, i)), None)
    if at is not None:
        ch = url[at]
        raise LinkError(f"「{url}」第 {at + 1} 字「{ch}」不可直接寫在網址中，請寫作 %{ord(ch):02X} (the link holds {ch!r} at "
                        f"character {at + 1}, which an address cannot hold as it is: write it %{ord(ch):02X})")


def _check_deceptive(url: str) -> None:
    """Raise ``LinkError`` for an http(s) address that reads as another site: one with user
    information before its host (``https://google.com@evil.com/`` opens evil.com), or a host
    one of whose labels mixes Latin, Greek and Cyrillic letters (``гoogle.com``, its first
    letter Cyrillic: UTS #39's mixed-script detection, ``usernames.letter_scripts``, as a
    username is held to). A label of one script is taken: shown as written (``пример.рф``), or in
    punycode where its letters all look like Latin ones under another script's domain
    (``hosts.shown_url``: ``раура.com``)."""
    parts = urlsplit(url)
    if "@" in parts.netloc:
        raise LinkError(f"「{url}」在網址中含帳號資訊（@ 之前），所開的是 @ 之後的網站：請只寫網站位址 (the link holds user "
                        f"information before an @: it opens the site after the @, {parts.hostname!r}; write the site's "
                        "address alone)")
    for name in (parts.hostname or "").split("."):
        scripts = letter_scripts(name)
        if len(scripts) > 1:
            raise LinkError(f"「{url}」的網域「{name}」混用{'、'.join(_SCRIPT_NAMES[s] for s in scripts)}字母，看似另一網站 "
                            f"(the link's host name {name!r} mixes {' and '.join(s.title() for s in scripts)} letters, "
                            "which look alike: it reads as another site)")


_SCRIPT_NAMES = {"LATIN": "拉丁", "GREEK": "希臘", "CYRILLIC": "西里爾"}


def clean_links(lines) -> list[str]:
    """The links of ``lines`` (strings; blank ones skipped), cleaned, without repeats, or
    ``LinkError`` for the first bad one or more than ``MAX_LINKS``."""
    out = []
    for line in lines:
        if line.strip():
            link = clean_link(line)
            if link not in out:
                out.append(link)
    if len(out) > MAX_LINKS:
        raise LinkError(f"連結至多 {MAX_LINKS} 條 (at most {MAX_LINKS} links)")
    return out


def href(link: str) -> str:
    """The address a stored link opens (a CBDB ID's person page)."""
    return CBDB_PAGE.format(link[5:]) if link.startswith("cbdb:") else link


def label(link: str) -> str:
    """How a stored link is shown: ``CBDB 3767``, or the URL, a host label written in letters of
    another script that look like Latin ones, or with a Latin letter outside ASCII, shown in
    punycode (``hosts.shown_url``: https://раура.com/ is shown https://xn--80aa0cbo.com/,
    https://ɡoogle.com/ https://xn--oogle-qmc.com/); a URL with an ``@`` after its host
    (``https://evil.com#@google.com``, ``https://evil.com?@google.com``: they open evil.com, and
    read as user information before google.com) followed by the host it opens, plainly:
    ``https://evil.com#@google.com（網站 evil.com）``."""
    if link.startswith("cbdb:"):
        return f"CBDB {link[5:]}"
    shown = shown_url(link)
    parts = urlsplit(shown)
    if "@" in shown[len(f"{parts.scheme}://{parts.netloc}"):]:
        return f"{shown}（網站 {parts.hostname}）"
    return shown
