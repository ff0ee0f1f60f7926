"""The API's 404 bodies, in Chinese and English, naming what was not found.

A view's ``Http404`` reached clients as Django's or the view's English words alone
(``{"detail": "No Juan matches the given query."}``), where the API's other refusals say it in
both (``api.redirects``: ``沒有此書：…（no work with this slug）``; ``api.pagination``). A model
that ``get_object_or_404`` found no row of is named in both languages with the address asked
for: ``沒有此卷：/api/works/1/juans/99/（no juan at /api/works/1/juans/99/）``; any other
``Http404`` keeps its own words after the address: ``找不到：/api/…（No such section）``.
"""
from __future__ import annotations

import re

#: Chinese names of the models the API looks rows up in (``get_object_or_404``), by class name.
MODEL_NAMES = {"Work": ("書", "work"), "Edition": ("版本", "edition"), "Juan": ("卷", "juan"),
               "Chapter": ("篇", "chapter"), "Section": ("節", "section"), "Piece": ("段", "piece")}
#: Django's words for a lookup that found no row (``django.shortcuts.get_object_or_404``).
NO_ROW = re.compile(r"No (\w+) matches the given query\.")


def not_found_detail(message: str, path: str) -> str:
    """The ``detail`` of a 404 at ``path`` (the request's path, as decoded) whose ``Http404``
    said ``message`` ("" when it said nothing)."""
    found = NO_ROW.fullmatch(message)
    if found and found.group(1) in MODEL_NAMES:
        chinese, english = MODEL_NAMES[found.group(1)]
        return f"沒有此{chinese}：{path}（no {english} at {path}）"
    return f"找不到：{path}（{message or 'not found'}）"
