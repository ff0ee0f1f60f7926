"""The reader's display settings (commentary mode, layers, layout, script, font size) and the
simplified display: what a reading page shows of a juan, as opposed to what the juan holds
(``reader.reading`` builds that).

Display settings come from URL parameters (``?notes=hidden&layers=commentary&layout=vertical&script=simp&size=l``)
or, failing those, from the ``display`` cookie the server sets whenever a page is asked for
with one of them; everything works through plain links, without JavaScript. ``script=simp``
shows the text in simplified characters (OpenCC ``t2s``, for display only: the stored text is
never converted).
"""
from __future__ import annotations

import json
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlencode

import opencc
from django.utils.cache import patch_vary_headers
from django.utils.encoding import escape_uri_path

from characters.folding import fold_variants
from characters.simplified import SIMPLIFIED, SIMPLIFIED_PATH, language_tag
from reader.importers.document import CLASSIC, COMMENTARY, LAYERS, READINGS, SUBCOMMENTARY
from reader.pieces import LAYER_NAMES, NOTE_KINDS, NOTE_LAYERS

from .models import Juan, Piece

# ----------------------------------------------------------------------------- display settings

#: setting -> allowed values, the default first.
CHOICES = {
    "notes": ("inline", "hidden", "only", "beside"),
    "layers": ("all", "classic", "commentary", "subcommentary", "only-commentary", "only-readings",
               "only-subcommentary"),
    "layout": ("horizontal", "vertical"),
    "script": ("orig", "simp"),
    "size": ("m", "s", "l", "xl"),
}
#: How each choice is offered on the page: (value, label, description), in display order.
LABELS = {
    "notes": ("注釋", [
        ("inline", "夾注", "注文以小字夾在經文之中，如刻本"),
        ("hidden", "白文", "隱去注文，經文連讀"),
        ("only", "只看注", "只列注文，各附所釋經文"),
        ("beside", "旁注", "經文中只留注號，點注號在旁或行下展開注文"),
    ]),
    "layers": ("層次", [
        ("all", "全", "經文與各層注釋：注、音義、疏、按語"),
        ("classic", "經", "只看經文（白文）"),
        ("commentary", "經注", "經文與注（注、傳、箋）"),
        ("subcommentary", "注疏", "經文、注、音義與疏"),
        ("only-commentary", "注附經", "只列注，各附所釋經文"),
        ("only-readings", "音義附經", "只列音義，各附所釋經文"),
        ("only-subcommentary", "疏附經", "只列疏，各附所釋經文"),
    ]),
    "layout": ("版式", [
        ("horizontal", "橫排", "橫排，自左而右"),
        ("vertical", "直排", "直排，自右而左，注作雙行小字"),
    ]),
    "script": ("字形", [
        ("orig", "原字", "照錄原文字形"),
        ("simp", "簡體", "以簡體顯示（只改顯示；檢索與引用仍用原字）"),
    ]),
    "size": ("字號", [
        ("s", "小", "字號：小"),
        ("m", "中", "字號：中"),
        ("l", "大", "字號：大"),
        ("xl", "特大", "字號：特大"),
    ]),
}
#: The layers each ``layers`` choice shows (the classic always; records always, their notes
#: as commentary). ``only-…`` choices show one layer alone, each note with the words it explains.
SHOWN_LAYERS = {
    "all": frozenset(LAYERS),
    "classic": frozenset({CLASSIC}),
    "commentary": frozenset({CLASSIC, COMMENTARY}),
    "subcommentary": frozenset({CLASSIC, COMMENTARY, READINGS, SUBCOMMENTARY}),
    "only-commentary": frozenset({CLASSIC, COMMENTARY}),
    "only-readings": frozenset({CLASSIC, READINGS}),
    "only-subcommentary": frozenset({CLASSIC, SUBCOMMENTARY}),
}
assert set(SHOWN_LAYERS) == set(CHOICES["layers"])
COOKIE = "display"
COOKIE_MAX_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class Display:
    """One reader's display settings."""

    notes: str = "inline"
    layers: str = "all"
    layout: str = "horizontal"
    script: str = "orig"
    size: str = "m"

    @property
    def shown_layers(self) -> frozenset:
        """The layers shown (``SHOWN_LAYERS``); 白文 (``notes=hidden``) shows the classic alone."""
        return SHOWN_LAYERS["classic"] if self.notes == "hidden" else SHOWN_LAYERS[self.layers]

    @property
    def glossing(self) -> bool:
        """Notes listed each with the words it explains (只看注, or one layer alone)."""
        return self.notes == "only" or self.layers.startswith("only-")

    @property
    def no_glosses(self) -> str:
        """What a section with nothing to list in the glossing modes says: no notes at all
        (只看注), or none of the one layer chosen (音義附經 on a section with 注 but no 音義)."""
        return {"only-commentary": "（本節無注）", "only-readings": "（本節無音義）",
                "only-subcommentary": "（本節無疏）"}.get(self.layers, "（本節經文無注）")

    @property
    def notes_mode(self) -> str:
        """How shown notes are set out: ``notes``, but ``only`` for a one-layer choice."""
        return "only" if self.glossing else self.notes

    @property
    def vertical(self) -> bool:
        return self.layout == "vertical"

    @property
    def simplified(self) -> bool:
        return self.script == "simp"

    def text_lang(self, script: str) -> str:
        """The HTML ``lang`` of a text shown in this display from an edition of ``script``
        (``Edition.script``: ``traditional``, ``simplified``, ``mixed``): ``zh-Hans`` when it is
        shown in simplified characters (``script=simp``), else the edition's own
        (``characters.simplified.language_tag``: ``zh-Hant``, ``zh-Hans``, and ``zh`` for a
        mixed edition, which prints both). Raises ``KeyError`` for another script."""
        return language_tag(SIMPLIFIED if self.simplified else script, "zh")

    def cookie_value(self) -> str:
        return "|".join(f"{k}:{getattr(self, k)}" for k in CHOICES)

    @property
    def css_classes(self) -> str:
        """Classes of the reading body: ``notes-inline layers-all layout-horizontal script-orig``."""
        return f"notes-{self.notes_mode} layers-{self.layers} layout-{self.layout} script-{self.script}"


#: The settings of a reader who chose none.
DEFAULT_DISPLAY = Display()


def _valid(values: dict) -> dict:
    return {k: v for k, v in values.items() if k in CHOICES and v in CHOICES[k]}


def parse_cookie(value: str) -> dict:
    pairs = (item.partition(":") for item in (value or "").split("|"))
    return _valid({k: v for k, _, v in pairs})


def display_from_request(request) -> tuple[Display, dict]:
    """The reader's settings (URL parameters over the cookie over the defaults) and the
    settings given explicitly in the URL. A URL that chooses ``notes`` and no ``layers`` shows
    the notes of every layer (``layers`` as by default), not the layers a cookie remembers: a
    link to 只看注 (``?notes=only``) shows 鄭玄's 注 as well as the 音義 after a reader's 音義附經
    (``only-readings``), as it does for anyone it is sent to. The page's own controls carry
    every setting they keep (``display_controls``), ``layers`` included."""
    explicit = _valid({k: request.GET.get(k) for k in CHOICES if k in request.GET})
    stored = parse_cookie(request.COOKIES.get(COOKIE, ""))
    if "notes" in explicit:
        stored.pop("layers", None)  # the URL's notes choice is read with the URL's layers
    return Display(**{**stored, **explicit}), explicit


def remember(response, request, display: Display, explicit: dict) -> None:
    """Set the cookie when the URL chose settings the cookie does not hold yet; reading
    pages depend on the cookie, so caches must keep them apart (``Vary: Cookie``)."""
    if explicit and request.COOKIES.get(COOKIE) != display.cookie_value():
        response.set_cookie(COOKIE, display.cookie_value(), max_age=COOKIE_MAX_AGE, samesite="Lax",
                            secure=request.is_secure(), httponly=True)
    patch_vary_headers(response, ["Cookie"])


def carry_query(explicit: dict) -> str:
    """``?notes=hidden`` — the settings given in the URL (and any other parameter a layer
    above adds to ``explicit``: the corrected reading's ``text=imported``), carried on links to
    other reading pages so that they hold without cookies too ('' when there are none)."""
    return "?" + urlencode(explicit) if explicit else ""


def juan_layers(juan: Juan) -> frozenset:
    """The commentary layers the pieces of ``juan`` belong to (one query)."""
    return juan_layers_and_notes(juan)[0]


def juan_layers_and_notes(juan: Juan) -> tuple[frozenset, bool]:
    """``(layers, holds notes)`` of ``juan`` in one query: the commentary layers its pieces belong to
    (``juan_layers``) and whether any of them is a note: a piece of ``NOTE_KINDS`` (in any layer) or
    of one of ``NOTE_LAYERS`` (the commentary a book prints as large as the classic: 河上公's 章句 in the
    道藏 老子, text pieces of layer commentary). The notes controls (夾注, 白文, 只看注, 旁注) are offered
    only where one is, as they show the same page on a juan of 白文 (the TLS 史記: ``display_controls``)."""
    # no ordering: with Piece's default one, DISTINCT kept every row (120,000 for a long juan)
    pairs = set(Piece.objects.filter(section__juan=juan).order_by().values_list("layer", "kind").distinct())
    return frozenset(layer for layer, _ in pairs), any(kind in NOTE_KINDS or layer in NOTE_LAYERS for layer, kind in pairs)


def offered_layer_choices(present: frozenset | None, current: str) -> set[str]:
    """The ``layers`` choices worth offering for a text holding the layers ``present``
    (None: all): a choice that shows the same as one before it is left out (on a text with
    one layer of notes, 經注 and 注疏 show what 全 shows), and a one-layer choice only where
    its layer is present (no 音義附經 on a text without 音義), and 注附經 only beside 音義 or 疏
    (without them it lists what 只看注 lists, the notes group's choice). The current choice is
    always offered, so the page says what it shows."""
    if present is None:
        return set(CHOICES["layers"])
    offered, effects = {current}, set()
    for value in CHOICES["layers"]:
        shown = SHOWN_LAYERS[value] & present
        if value == "only-commentary" and not present & {READINGS, SUBCOMMENTARY}:
            continue  # without 音義 or 疏, 注附經 lists what 只看注 (notes=only) lists: one control
        if value.startswith("only-"):
            if (shown - {CLASSIC}) and value != current:
                offered.add(value)
        elif shown not in effects:
            effects.add(shown)
            offered.add(value)
    return offered


def fit_to_layers(display: Display, explicit: dict, present: frozenset | None) -> Display:
    """``display`` with a ``layers`` choice remembered from the cookie that the text holding
    the layers ``present`` does not offer (``offered_layer_choices``) read as the nearest choice
    it offers (``nearest_layer_choice``), so that no book looks empty and the controls mark the
    state the page is in; a choice given in the URL is kept as asked, and the cookie keeps the
    choice for the books that offer it."""
    if present is None or "layers" in explicit or display.layers == "all":
        return display
    if display.layers in offered_layer_choices(present, "all"):
        return display
    layers, notes = nearest_layer_choice(display.layers, present)
    return replace(display, layers=layers, notes=display.notes if display.notes == "hidden" else notes or display.notes)


def nearest_layer_choice(value: str, present: frozenset) -> tuple[str, str | None]:
    """``(layers, notes)``: what a text holding the layers ``present`` offers nearest to the
    ``layers`` choice ``value`` it does not offer. A one-layer choice (疏附經, 音義附經, 注附經)
    lists notes each with the classic it explains: on a text without that layer (or where 注附經
    would list what 只看注 lists) the nearest is the same kind of page, 只看注 (``("all",
    "only")``: every note the text holds, listed so). Another choice (經注, 注疏) becomes the
    offered one that shows the layers it would show there, else the fewest layers more or less
    (``SHOWN_LAYERS``; ties to the earlier choice), with ``notes`` as it was (None)."""
    if value.startswith("only-"):
        return "all", "only"
    offered = offered_layer_choices(present, "all")
    wanted = SHOWN_LAYERS[value] & present
    order = CHOICES["layers"]
    candidates = [v for v in order if v in offered and not v.startswith("only-")]
    best = min(candidates, key=lambda v: (len((SHOWN_LAYERS[v] & present) ^ wanted), order.index(v)))
    return best, None


def display_controls(request, display: Display, explicit: dict, present: frozenset | None = None,
                     keep: dict | None = None, notes: bool = True) -> list[dict]:
    """The choices offered on the page, each a plain link to the same page with that
    setting and every other setting the page shows that is not the default (from the URL or
    the cookie: pressing 2, v and s gives ``?notes=hidden&layout=vertical&script=simp``),
    keeping the page's other parameters (``keep``: a layer above says which, the
    highlight, the corrected reading's ``text`` and ``annotations``, the page of a long juan
    or section; None keeps the highlight, ``hl`` and ``exact``) and the settings carried in
    the URL; the layer choices are those that make a difference for a text holding the layers
    ``present`` (``offered_layer_choices``; None offers all) but 經, which shows what 白文
    (``notes=hidden``) shows; where that leaves one choice, the group of a text printing one
    layer beside its classic shows and hides that layer, named (``one_layer_choices``), and a
    text without layers has no layer group at all; no notes group where ``notes`` is False (a juan holding no note:
    ``juan_layers_and_notes``), as its four choices would show one page."""
    path = escape_uri_path(request.path)
    if keep is None:
        keep = {k: v for k, v in request.GET.items() if k in ("hl", "exact")}
    kept = {k: v for k, v in keep.items() if k != "page"}
    page = {"page": keep["page"]} if "page" in keep else {}  # the pages are cut alike in every display
    offered = offered_layer_choices(present, display.layers)
    # every setting the page shows that is not the default, from the URL or the cookie: a link
    # (and its shortcut key) names them all, so its URL shows the page as the reader sees it
    shown = {k: getattr(display, k) for k in CHOICES if getattr(display, k) != getattr(DEFAULT_DISPLAY, k)}
    groups = []
    for key, (label, options) in LABELS.items():
        if key == "notes" and not notes:
            continue  # no note to show, hide or list: nothing to choose
        items = []
        for value, name, description in options:
            if key == "layers" and (value not in offered or value == "classic"):
                continue  # 經 (the classic alone) is 白文 of the notes group: one control for one page
            params = {**kept, **shown, **explicit, key: value}
            if key == "layers" and display.notes == "hidden":
                params["notes"] = "inline"  # 白文 shows no layer: choosing one shows it
            if key == "notes" and value == "hidden" and display.layers != "all":
                params["layers"] = "all"  # 白文 is the classic alone, also from 疏附經 (which lists notes)
            current = getattr(display, key) == value
            if key == "notes" and display.layers.startswith("only-"):
                # a one-layer choice lists notes as 只看注 does (``notes_mode``), whatever ``notes``
                # holds: 只看注 is the state shown, and another choice shows all the layers again
                current = value == "only"
                if value != "only":
                    params["layers"] = "all"
            if key == "notes" and display.layers == "classic":  # ?layers=classic, as linked before: 白文
                current = value == "hidden"
                if value != "hidden":
                    params["layers"] = "all"  # the notes chosen are shown
            params.update(page)  # last, as the page links put it
            items.append({"value": value, "label": name, "description": description,
                          "url": path + "?" + urlencode(params), "current": current})
        if key == "layers" and len(items) < 2:
            alone = layer_alone(present)
            if alone is None:
                continue  # a text without layers: nothing to choose
            items = one_layer_choices(alone, display, {**kept, **shown, **explicit}, page, path)
        groups.append({"key": key, "label": label, "options": items})
    return groups


def layer_alone(present: frozenset | None) -> str | None:
    """The one layer a text holding the layers ``present`` prints beside its classic (注 on the
    seed, which holds the classic and 鄭注), or None: no classic, none, or several (their choices
    are ``offered_layer_choices``')."""
    if present is None or CLASSIC not in present or len(present - {CLASSIC}) != 1:
        return None
    return next(iter(present - {CLASSIC}))


def one_layer_choices(layer: str, display: Display, params: dict, page: dict, path: str) -> list[dict]:
    """The 層次 group of a text that prints one layer beside its classic (``layer_alone``): every
    other choice shows there what 全 shows, so the group was left out, and the reader could
    neither see which layer the page holds nor show or hide it there. Two choices: the classic
    with that layer, named by it (``LAYER_NAMES``: 經注, ``layers=all``), and the classic alone
    (經, ``layers=classic``, the page 白文 shows), marked current as the page shows it: the classic
    alone for ``layers=classic`` or 白文 (``notes=hidden``), else the layer with it."""
    name = LAYER_NAMES[layer]
    alone = display.layers == "classic" or display.notes == "hidden"
    with_layer = {**params, "layers": "all", **({"notes": "inline"} if display.notes == "hidden" else {}), **page}
    classic = {**params, "layers": "classic", **page}
    return [{"value": "all", "label": f"經{name}", "description": f"經文與{name}（本卷只有此一層）",
             "url": path + "?" + urlencode(with_layer), "current": not alone},
            {"value": "classic", "label": "經", "description": f"只看經文，隱去{name}",
             "url": path + "?" + urlencode(classic), "current": alone}]


# ----------------------------------------------------------------------------- simplified display

_converter = None
_converter_lock = threading.Lock()


#: Phrases the simplified display writes otherwise than OpenCC's ``t2s`` (徵招 stays 徵招: 徵 as the note
#: zhǐ is 徵 in the simplified script), ``PHRASE<TAB>SIMPLIFIED<TAB>WHERE``, ``#`` lines comments.
T2S_PHRASES_PATH = SIMPLIFIED_PATH.with_name("t2s_phrases.tsv")


def read_t2s_phrases(path: Path = T2S_PHRASES_PATH) -> dict[str, str]:
    """``{phrase: its simplified form}`` of ``path`` (``T2S_PHRASES_PATH``); ``ValueError`` naming the
    file and line for a line that is not ``PHRASE<TAB>SIMPLIFIED<TAB>WHERE`` with the two as long."""
    out = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not fields[0] or len(fields[0]) != len(fields[1]):
            raise ValueError(f"{path}:{lineno}: expected PHRASE<TAB>SIMPLIFIED<TAB>WHERE, got {line!r}")
        out[fields[0]] = fields[1]
    return out


def _t2s_with_phrases() -> opencc.OpenCC:
    """OpenCC's ``t2s`` with the phrases of ``T2S_PHRASES_PATH`` read first, as OpenCC takes phrases of
    one's own: a configuration (the package's ``t2s.json``) whose dictionary group opens with a text
    dictionary. The configuration names the package's dictionaries by their paths and is written, with
    the text dictionary, to a temporary directory that OpenCC reads once. Plain ``t2s`` where the
    package ships no ``t2s.json`` beside its dictionaries."""
    share = Path(opencc.__file__).resolve().parent / "clib" / "share" / "opencc"
    if not (share / "t2s.json").is_file():
        return opencc.OpenCC("t2s")
    config = json.loads((share / "t2s.json").read_text(encoding="utf-8"))

    def located(node):
        if isinstance(node, dict):
            return {k: (str(share / v) if k == "file" else located(v)) for k, v in node.items()}
        return [located(v) for v in node] if isinstance(node, list) else node

    config = located(config)
    with tempfile.TemporaryDirectory() as tmp:
        phrases = Path(tmp) / "phrases.txt"
        phrases.write_text("".join(f"{k}\t{v}\n" for k, v in read_t2s_phrases().items()), encoding="utf-8")
        config["conversion_chain"][0]["dict"]["dicts"].insert(0, {"type": "text", "file": str(phrases)})
        path = Path(tmp) / "t2s.json"
        path.write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
        return opencc.OpenCC(str(path))


def _opencc():
    global _converter
    if _converter is None:
        with _converter_lock:
            if _converter is None:
                _converter = _t2s_with_phrases()
    return _converter


def _t2s(text: str) -> str:
    """``text`` in simplified characters: each variant first written as its 正字
    (``characters.folding.fold_variants``: 懐 → 懷, so that OpenCC, which knows the standard
    forms only, gives 怀; 恵 惠, 娯 娱, 鼈 鳖, 䘮 丧), then OpenCC ``t2s`` with the project's phrases
    (``T2S_PHRASES_PATH``: 徵招 stays 徵招). Same length as
    ``text`` unless OpenCC changes it (a phrase of its dictionary)."""
    return _opencc().convert(fold_variants(text))


def _basic_plane(original: str, converted: str) -> str:
    """``converted`` with the original character put back wherever the simplified form would
    leave the basic plane while the original did not (OpenCC turns 繐 into U+30B38 of
    Extension G, 闑 and 纁 into Extension C: code points few readers have a font for)."""
    if converted.isascii() or max(converted) <= "\uffff":
        return converted
    return "".join(o if c > "\uffff" and o <= "\uffff" else c for o, c in zip(original, converted))


def to_simplified(text: str) -> str:
    """``text`` in simplified characters, for display only; the original where the
    conversion would change its length (offsets and highlights must stay exact), and
    character by character where the simplified form would leave the basic plane."""
    if not text:
        return text
    out = _t2s(text)
    return _basic_plane(text, out) if len(out) == len(text) else text


#: What ``to_simplified_texts`` joins its texts with for one conversion: a private-use code
#: point, in no dictionary phrase, so that no phrase is read across two texts.
_JOIN = "\ue000"


def to_simplified_texts(texts: list[str]) -> list[str]:
    """Each of ``texts`` as ``to_simplified`` gives it (the original where the conversion would
    change its length, character by character off the basic plane), converted in one call
    (thousands of a page's short texts); ``[]`` for ``[]``."""
    out = list(texts)
    todo = [i for i, t in enumerate(texts) if t and not t.isascii()]
    if not todo:
        return out
    converted = None
    if not any(_JOIN in texts[i] for i in todo):
        converted = _t2s(_JOIN.join(texts[i] for i in todo)).split(_JOIN)
    if converted is None or len(converted) != len(todo):
        return [to_simplified(t) for t in texts]
    for i, c in zip(todo, converted):
        out[i] = _basic_plane(texts[i], c) if len(c) == len(texts[i]) else texts[i]
    return out


def simplify_segments(segments: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Highlight segments converted as one text (phrases across a mark convert as a whole),
    cut back at the same offsets; piece by piece where the whole would change length."""
    whole = "".join(t for t, _ in segments)
    converted = _t2s(whole) if whole else whole
    if len(converted) != len(whole):
        return [(to_simplified(t), m) for t, m in segments]
    converted = _basic_plane(whole, converted)
    out, pos = [], 0
    for t, m in segments:
        out.append((converted[pos:pos + len(t)], m))
        pos += len(t)
    return out


def simplify_views(chapters: list) -> None:
    """Convert every displayed segment of ``chapters`` (``reader.reading.ChapterView``s, after
    ``apply_highlights``); the
    stored text stays in ``piece.text`` (shown to the character lookup as ``data-orig``)."""
    for cv in chapters:
        c = cv.chapter
        c.title_segments = simplify_segments(c.title_segments)
        c.category_segments = simplify_segments(c.category_segments)
        for view in cv.sections:
            s = view.section
            s.title_segments = simplify_segments(s.title_segments)
            s.closer_mark = to_simplified(s.closer_mark)
            for p in view.pieces():
                p.segments = simplify_segments(p.segments)
                p.tag_segments = simplify_segments(p.tag_segments)
                p.shown_source = to_simplified(p.source)
