"""What a reading page asks of the corrections: the corrected reading or the text as imported, with the
readers' annotations beside it or hidden (``reading_overlay``), and the page's 文本 group of controls that
chooses them (``text_controls``)."""
from __future__ import annotations

from urllib.parse import urlencode

from django.utils.encoding import escape_uri_path

from .models import TAGS
from .overlay import JuanOverlay, juan_overlay

#: A reading page's ``?text=`` asking for the text as imported, no correction applied (``reading_overlay``).
AS_IMPORTED = "imported"
#: A reading page's ``?annotations=`` hiding the readers' annotations (``reading_overlay``).
ANNOTATIONS_HIDDEN = "hidden"
#: The values ``reading_overlay`` reads of a reading page's parameters: any other is read as none.
OVERLAY_VALUES = {"text": (AS_IMPORTED,), "annotations": (ANNOTATIONS_HIDDEN, *TAGS)}


def text_controls(request, explicit: dict, page: int = 1) -> dict:
    """The reading page's 文本 group, worded as the other display controls are
    (``reader.display.LABELS``): the text as corrected (校正本) or as imported (原文, ``?text=``
    ``AS_IMPORTED``), the readers' annotations hidden or shown again (隱藏注記 / 顯示注記,
    ``?annotations=`` ``ANNOTATIONS_HIDDEN``), and all of them again after one tag was chosen
    (全部注記). Returns ``{"key", "label", "options": [{"label", "description", "url", "current"}]}``;
    each link is to the same page, keeping the highlight query, the settings given in the URL
    (``explicit``) and the group's other choice; the annotations' links keep the page of a long
    juan or section (``page``, past 1), while 校正本 / 原文 lead to the first page, for a
    correction changes the text the pages are cut on (``reader.reading.chapter_views``)."""
    path = escape_uri_path(request.path)
    text = request.GET.get("text") if request.GET.get("text") in OVERLAY_VALUES["text"] else None
    annotations = request.GET.get("annotations") if request.GET.get("annotations") in OVERLAY_VALUES["annotations"] else None
    keep = {**{k: v for k, v in request.GET.items() if k in ("hl", "exact")}, **explicit}

    def url(same_page: bool, **change) -> str:
        params = {k: v for k, v in {**keep, "text": text, "annotations": annotations, **change,
                                    "page": page if same_page and page > 1 else None}.items() if v}
        return path + ("?" + urlencode(params) if params else "")

    hidden = annotations == ANNOTATIONS_HIDDEN
    options = [
        {"label": "校正本", "description": "採納的校正已改入（每處有「校」號）", "url": url(False, text=None),
         "current": text is None},
        {"label": "原文", "description": "匯入之原文，不含任何校正", "url": url(False, text=AS_IMPORTED),
         "current": text is not None},
        {"label": "顯示注記" if hidden else "隱藏注記", "description": "讀者的注記，在欄外",
         "url": url(True, annotations=None if hidden else ANNOTATIONS_HIDDEN), "current": False},
    ]
    if annotations and not hidden:
        options.append({"label": "全部注記", "description": "只顯示一類注記，點此顯示全部",
                        "url": url(True, annotations=None), "current": False})
    return {"key": "text", "label": "文本", "options": options}


def reading_overlay(request, juan) -> JuanOverlay | None:
    """The overlay a reading page applies: the corrected reading with the public annotations
    beside it (not with ``?annotations=hidden``; only those tagged ``person`` with
    ``?annotations=person``, and so for each of ``models.TAGS``), or None when the reader asked for the text as
    imported (``?text=imported``) or the juan has neither."""
    if request is not None and request.GET.get("text") == AS_IMPORTED:
        return None
    overlay = juan_overlay(juan)
    shown = request.GET.get("annotations") if request is not None else None
    overlay.show_notes = shown != ANNOTATIONS_HIDDEN
    overlay.tag = shown if shown in TAGS else None
    return overlay or None
