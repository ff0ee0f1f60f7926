"""How the search page offers the facets (``facet_menu``) and names the filters in force
(``active_filters``): labels, notes, links that add or take off one value. The counts and the
filters' reading of a typed value are ``search.facets``'."""
from __future__ import annotations

from urllib.parse import urlencode

from catalogue.catalogue import get_class

from .facets import UNKNOWN, FacetTable, facet_table, filter_value


#: Each facet's label on the search page and the parameter that filters by it.
FACET_LABELS = {"bu": ("部", "class"), "class": ("類", "class"), "dynasty": ("朝代", "dynasty"),
                "author": ("作者", "author"), "edition": ("版本", "edition")}
#: What a facet's counts mean, where its label does not say it all: the author facet counts each
#: hit under who wrote the layer it is in (``writers``: 毛詩注疏's hits in 鄭玄's 箋 under 鄭玄, in
#: 孔穎達's 疏 under 孔穎達, in the 詩 under the work's own author, nobody known there; a commentary
#: book's commentator is not its classic's author), the dynasty facet under that writer's dynasty
#: (鄭玄's 箋 under 漢, 孔穎達's 疏 under 唐, the 詩 under the work's; the editors' 提要 and 考證 of a
#: 四庫 copy under 清, though under no author: ``editors_dynasty``), and their filters keep those
#: same hits; the commentator filter (``commentator=``, 注者) keeps one
#: person's notes alone, without the works he wrote. An anthology's pieces count under their
#: writers: the one a piece's byline names (文選's 班孟堅, decision 0097), else the one the 序 of its
#: juan says wrote it (楚辭's 「離騷經者屈原之所作也」, decision 0106), else nobody known (大招, whose 序
#: doubts); the note says so.
FACET_NOTES = {"author": "命中計入所在之層的作者：注、疏歸其注者，經文與正文歸本書撰者（注本之注者不作經文撰者），"
                         "提要、考證等編者之語不歸本書撰者，與不知撰者者同歸「未詳」。"
                         "總集各篇歸其作者：篇題下署名者從署名（如《文選》「班孟堅」），《楚辭》各卷從王逸序所言"
                         "（「離騷經者屈原之所作也」），序存疑者（如〈大招〉）歸「未詳」。",
               "dynasty": "命中計入所在之層作者的朝代：注、疏從其注者，經文與正文從本書撰者（不知撰者從本書），"
                          "四庫本的提要、考證等編者之語成於清，歸「清」；不知朝代歸「未詳」。"}


#: What the search page says under a facet whose own filter is in force (``facet_menu``): its
#: counts are not narrowed by that filter (each facet counts the hits that pass the other facets'
#: filters), so the values not chosen are alternatives, each with the hits it would add. ``{}``:
#: the words for the filter (部、類 share ``class``).
FACET_HINT = "✓ 為已選，點之取消；其餘可加選，其數為各項命中，不受{}篩選所限。"
#: The words ``FACET_HINT`` names a facet's filter by.
FILTER_WORDS = {"class": "部、類", "dynasty": "朝代", "author": "作者"}


#: Values of a facet the search page lists at once (the most hits first); the rest open
#: under 「另 N 項」, N 2 or more (one more value is listed, not folded) (a list cut at a fixed height hid them behind a scroll bar that overlay
#: scroll bars do not show).
FACET_SHOWN = 6


def facet_menu(params: list[tuple[str, str]], counts: dict[str, list[dict]]) -> list[dict]:
    """The facets as the search page offers them: ``[{"name", "label", "note", "note_more", "hint", "values": [{"value",
    "name", "count", "selected", "url"}], "shown": [...], "more": [...]}]`` (``note``: what its
    counts mean in one short line, ``FACET_NOTES`` up to its 「：」, "" for most; ``note_more``: the
    rest, which the page shows behind a disclosure; ``hint``: ``FACET_HINT`` where the facet's own
    filter is in force (a class filter for 部 and 類 alike: they share ``class``), "" otherwise and
    for the edition, whose ``edition=`` narrows the search itself; ``shown``: the
    first ``FACET_SHOWN`` values and every chosen one, ``more``: the others, in the order of
    ``values``), each value's ``url`` the query string that adds it
    to the filters, or removes it when it is chosen (``params``: the request's parameters as
    ``(key, value)`` pairs; ``page`` is dropped, comma-separated values read as several). A
    facet with one value and nothing chosen is left out (it narrows nothing). Hits of works
    with no value (a class outside the catalogue, an unknown dynasty or author) are listed too,
    named 未分類 or ``UNKNOWN`` with ``url`` None: there is nothing to filter by, but the counts
    of a facet add up to the hits, as the API's do."""
    base = [(k, v) for k, v in params if k != "page"]
    chosen = {(k, filter_value(k, x)) for k, v in base for x in _split(v)}
    menu = []
    for name, rows in counts.items():
        label, param = FACET_LABELS[name]
        selected_any = any((param, r["value"]) in chosen for r in rows)
        if len(rows) < 2 and not selected_any:
            continue
        values = []
        for row in rows:
            if not row["value"]:   # unclassified or unknown: counted, nothing to filter by
                values.append({"value": "", "name": row.get("name") or UNKNOWN, "count": row["count"],
                               "selected": False, "url": None})
                continue
            selected = (param, row["value"]) in chosen
            if selected:
                query = _without(base, param, row["value"])
            elif param == "edition":
                query = [(k, v) for k, v in base if k != "edition"] + [("edition", row["value"])]
            else:
                query = base + [(param, row["value"])]
            values.append({"value": row["value"], "name": row.get("name", row["value"]), "count": row["count"],
                           "selected": selected, "url": "?" + urlencode(query)})
        if values:
            # a single value is shown rather than hidden under 「另 1 項」 (a fold that saves no line)
            cut = FACET_SHOWN if len(values) > FACET_SHOWN + 1 else len(values)
            shown = [v for k, v in enumerate(values) if k < cut or v["selected"]]
            note, _, more = FACET_NOTES.get(name, "").partition("：")
            filtered = param in FILTER_WORDS and any(k == param for k, _ in chosen)
            hint = FACET_HINT.format(FILTER_WORDS[param]) if filtered else ""
            menu.append({"name": name, "label": label, "note": note, "note_more": more, "hint": hint,
                         "values": values, "shown": shown,
                         "more": [v for v in values if not any(v is s for s in shown)]})
    return menu


def _split(value: str) -> list[str]:
    return [x.strip() for x in value.replace("，", ",").split(",") if x.strip()]


def _without(params: list[tuple[str, str]], key: str, value: str) -> list[tuple[str, str]]:
    """``params`` less ``value`` of ``key`` (taken out of a comma-separated list where it stands
    in one); the other parameters and values keep their places."""
    out = []
    for k, v in params:
        if k == key:
            rest = [x for x in _split(v) if x != value and filter_value(k, x) != value]
            if rest:
                out.append((k, ",".join(rest)))
        else:
            out.append((k, v))
    return out


def active_filters(params: list[tuple[str, str]]) -> list[dict]:
    """The facet filters a search page's parameters hold, each as ``{"key", "label", "name", "url"}``
    (``key`` the parameter)
    (``類`` / ``部`` for a class code by its length, ``朝代``, ``作者``, ``版本``; the class's or
    edition's name (an edition given by its slug or its id), the person's written name for an
    author as the facet menu names him: ``author=范甯`` is 范寧; ``url`` the query string without that one value, as the facet menu's link
    of a chosen value): what a page with no hits names so that a reader can take one off."""
    base = [(k, v) for k, v in params if k != "page"]
    table = facet_table() if any(k == "edition" for k, _ in base) else FacetTable()
    # an edition by its slug (the facet's links) or its id (the form's menu)
    editions = {**getattr(table, "names", {}), **{str(pk): f.name for pk, f in table.items()}}
    out = []
    for key, value in base:
        for x in _split(value):
            if key == "class":
                found = get_class(x)
                label, name = ("部" if len(x) <= 3 else "類"), (found.name if found else x)
            elif key in ("dynasty", "author"):  # an author by his written name, as the facet menu names him
                label, name = FACET_LABELS[key][0], filter_value(key, x)
            elif key == "edition":
                label, name = "版本", editions.get(x, x)
            else:
                continue
            out.append({"key": key, "label": label, "name": name, "url": "?" + urlencode(_without(base, key, x))})
    return out
