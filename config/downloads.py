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
#: and Namespaces") and the control characters U+0000–U+001F and U+007F.
UNSAVEABLE = re.compile(r'[/\\<>:"|?*\x00-\x1f\x7f]')


def file_name(name: str) -> str:
    """``name`` with each ``UNSAVEABLE`` character written ``_`` and without dots or spaces at
    either end (a leading dot hides a file; Windows drops trailing ones); ``download`` when
    nothing is left. ``file_name('惡</title>.tei.xml') == '惡__title_.tei.xml'``."""
    return UNSAVEABLE.sub("_", name).strip(" .") or "download"


def attachment(name: str) -> str:
    """The ``Content-Disposition`` value of a download saved as ``name`` (``file_name``):
    ``attachment; filename="…"`` for an ASCII name, ``attachment; filename*=utf-8''…`` else."""
    return content_disposition_header(True, file_name(name))
