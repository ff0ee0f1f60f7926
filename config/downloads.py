"""The name a download is saved under (``Content-Disposition``), made from a work's title, a
juan's label or a query, which may hold any character an imported file or a reader wrote.

Django's ``content_disposition_header`` writes a non-ASCII name as RFC 5987's
``filename*=utf-8''…`` percent-encoded by ``urllib.parse.quote``, which leaves ``/`` as it is: a
title 「惡</title>…」 became ``filename*=utf-8''%E6%83%A1%3C/title%3E…``, a path, which
``curl -OJ`` saved as ``title>…`` (the part after the slash) and RFC 5987 does not allow (``/``
is no ``attr-char``); an ASCII query ``../x`` became ``filename="../x.csv"``. The name is
first made one that the systems readers save to can hold (``file_name``).
"""
from __future__ import annotations

import re

from django.utils.http import content_disposition_header

#: Characters a file name cannot hold where readers save it: the folder separators ``/`` and
#: ``\``, the characters Windows reserves (``< > : " | ? *``, Microsoft's "Naming Files, Paths,
#: and Namespaces"), the control characters U+0000–U+001F and U+007F–U+009F, and the marks that
#: reorder or split what a file list shows (the bidirectional controls U+061C, U+200E, U+200F,
#: U+202A–U+202E, U+2066–U+2069; the line and paragraph separators U+2028, U+2029; U+FEFF):
#: a query ``x\u202egpj.csv`` was saved as a file a file list shows as ``xvsc.jpg``.
UNSAVEABLE = re.compile(r'[/\\<>:"|?*\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]')
#: Names Windows keeps for devices, with any extension (``CON.csv``, ``nul.tei.xml``): it
#: refuses a file of that name (Microsoft's "Naming Files, Paths, and Namespaces").
DEVICE = re.compile(r"(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]) *(\..*)?", re.I)
#: Bytes of UTF-8 a file name may hold: the most of ext4, APFS and NTFS (255 UTF-16 units there).
NAME_BYTES = 255
#: A name's extension, kept when the name is shortened: ``.csv``, ``.tei.xml``, ``.maintext.txt``.
EXTENSION = re.compile(r"(\.[A-Za-z]{1,8}){1,2}$")


def file_name(name: str) -> str:
    """``name`` with each ``UNSAVEABLE`` character written ``_``, without dots or spaces at
    either end (a leading dot hides a file; Windows drops trailing ones), ``_`` before a device
    name (``DEVICE``: ``_CON.csv``), and shortened to ``NAME_BYTES`` bytes of UTF-8 before its
    extension (``EXTENSION``), never inside a character or a gaiji entity (``&KR0628;``): a query
    of 200 characters made a name of 604 bytes, which ``curl -OJ`` could not save. ``download``
    when nothing is left. ``file_name('惡</title>.tei.xml') == '惡__title_.tei.xml'``."""
    name = UNSAVEABLE.sub("_", name).strip(" .") or "download"
    if DEVICE.fullmatch(name):
        name = "_" + name
    if len(name.encode()) > NAME_BYTES:
        extension = EXTENSION.search(name)
        suffix = extension.group(0) if extension else ""
        stem = name[:len(name) - len(suffix)].encode()[:NAME_BYTES - len(suffix.encode())]
        stem = re.sub(r"&[A-Za-z0-9]*$", "", stem.decode(errors="ignore")).rstrip(" .")
        name = (stem or "download") + suffix
    return name


def attachment(name: str) -> str:
    """The ``Content-Disposition`` value of a download saved as ``name`` (``file_name``):
    ``attachment; filename="…"`` for an ASCII name, ``attachment; filename*=utf-8''…`` else."""
    return content_disposition_header(True, file_name(name))
