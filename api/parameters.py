"""The OpenAPI descriptions of the API's parameters (drf-spectacular ``OpenApiParameter``s), which the views
name in their ``extend_schema``: the search's query parameters (``SEARCH_PARAMETERS``, read by ``search.forms.SearchForm``
for the search, its distribution and its hit lists) and the path parameters of the works' and editions' routes (a
work's or an edition's id, a juan's number, a section's position, an export's kind). Words only: what each
parameter takes is decided where it is read."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter

from search.documents import LAYER_ALIASES, LAYER_GROUPS

SEARCH_PARAMETERS = [
    OpenApiParameter("q", str, required=True, description=(
        "檢索式 query: 一字或多字; 空格分開的詞須同見於一段 (AND); `OR` 或 `｜`; `-詞` 排除; "
        "`\"…\"`/`「…」`/`“…”` 整句; `?`/`？` 代任一字. 1–200 characters."),
        examples=[OpenApiExample("one character", value="鵠"), OpenApiExample("phrase across a note", value="戒射宰戒"),
                  OpenApiExample("and / not", value="獲 -釋獲"), OpenApiExample("wildcard", value="射?獲")]),
    OpenApiParameter("layer", {"type": "array", "items": {"anyOf": [
        {"type": "string", "enum": [*LAYER_GROUPS, *LAYER_ALIASES]},
        {"type": "string", "description": "a book's own name of a layer, as a hit's layer_name gives it: 章句, 補注"}]}},
        style="form", explode=True,
        description="範圍 (one or more, repeated or comma-separated: `layer=commentary,subcommentary`): all "
                    "(default), classic 經文 (read continuously across commentary), commentary 注 (注/傳/箋), "
                    "readings 音義, subcommentary 疏, editorial 按語, smallprint 小字, paratext 序跋 (front and back "
                    "matter: prefaces, postfaces, imperial poems), notes (every layer of commentary), records 記 (with their notes), titles 標題, annotation 讀者注記 (readers' public "
                    "annotations, searched only when asked for); text, note, record, record_note, title and "
                    "annotations (the older names and the layers results report) are accepted too, and so is each "
                    "choice's Chinese name as the pages show it (經文 or 經, 注, 音義, 疏, 按語, 小字, 序跋, 各層注釋, 記, "
                    "標題, 讀者注記; in simplified characters too: 经文, 音义), and 記注 (records' notes, as record_note). "
                    "A book's own name of a layer, as a hit's `layer_name` gives it (章句 and 補注 in 楚辭補注, 集解, "
                    "鄭注, 提要), keeps the passages so named whatever their layer (`layer=章句`: 王逸's notes, not "
                    "洪興祖's 補注, both commentary); one that no book of the library gives is a 400. Example: "
                    "`commentary,subcommentary` (注與疏), or `注,疏`."),
    OpenApiParameter("exact", str, enum=["on", "off"], description=(
        "嚴格字形: on compares characters exactly; off (default) folds variants (鼓/鼔, 說/説, 玄/𤣥) and "
        "simplified forms (大射仪 → 大射儀).")),
    OpenApiParameter("work", str, description=(
        "work id or slug (see /api/works/), one or more, repeated or comma-separated (any of them): all its editions; an id or slug that is now an edition's (of a work "
        "that has several) is taken as that edition's; else a work's whole title, as written or in its simplified "
        "or variant spelling (`前漢書`, `礼书纲目`: every work so titled; never a part of a title). One that names "
        "nothing is a 400. Example: `1`, `KR2a0007` or `前漢書`.")),
    OpenApiParameter("edition", str, description=(
        "edition id or slug (see `editions` in /api/works/), one or more, repeated or comma-separated: those editions only (each narrowing its own work where `work` is given). One that names nothing is a 400. "
        "Example: `KR1d0086-WYG`.")),
    OpenApiParameter("class", {"type": "array", "items": {"type": "string"}}, style="form", explode=True,
                     description=("分類 (one or more, repeated or comma-separated): classes of Kanripo's catalogue, "
                                  "類 (KR1d 禮類, KR2a 正史類) or 部 (KR1 經部); see /api/classes/. An unknown code is a 400. "
                                  "Example: `KR1d,KR2a` (禮類 and 正史類).")),
    OpenApiParameter("dynasty", {"type": "array", "items": {"type": "string"}}, style="form", explode=True,
                     description="朝代 (one or more): the works' dynasty as the facets name it (清, 宋, 漢 …)"),
    OpenApiParameter("author", {"type": "array", "items": {"type": "string"}}, style="form", explode=True,
                     description="作者 (one or more): a person who wrote what is searched (江永, 鄭玄 …), as the facets "
                                 "name them, or the beginning of names (江: 江永, 江聲; as `/api/works/?author=`); keeps "
                                 "the hits the author facet counts under him: his notes (as "
                                 "`commentator`) and the classic or main text of the works he wrote (撰, 著), with "
                                 "their unsigned notes where the work has no commentator"),
    OpenApiParameter("commentator", str, description=(
        "注者 (one or more, repeated or comma-separated: the notes of any of them): only the notes one commentator wrote, as the importer named him from the book's formulas "
        "(李善, 呂延濟, 裴駰 …: a note of 六臣註文選 is split at 善曰, 銑曰 …); the `commentator` of a result. "
        "A name is read as `author` reads one: a whole name by any of its spellings (范甯 is 范寧), else the "
        "people whose names begin with it (鄭 → 鄭玄), never a dynasty or role word. "
        "Example: `李善`.")),
    OpenApiParameter("juan", str, description=(
        "the book's juan label, as the reading pages show it (one or more, repeated or comma-separated: any of them; a numeral no book writes, 卷十十, is a 400): 卷十 (also 十 or 10), 卷首上, 序. For Kanripo works "
        "this is not the file number of the URLs (卷十 of KR1d0086 is /juans/12/). Within `work` if given. "
        "Example: `卷十`, `卷首上`.")),
    OpenApiParameter("chapter", int, description="chapter id (see the juan endpoint), ASCII digits; one only (two different ones are a 400). Example: `1` (大射儀)."),
    OpenApiParameter("sort", str, enum=["text", "relevance", "after", "before"], description=(
        "文序 text order (default), 相關度 relevance, or the concordance sorts: after, by the characters after the "
        "match; before, by the characters before it read right to left (nearest first). Both compare up to 20 "
        "folded characters, then text order.")),
    OpenApiParameter("context", int, description="上下文字數: KWIC width on each side, 0–200 characters (default 15)"),
]


P = OpenApiParameter.PATH
WORK_ID = OpenApiParameter("id", int, P, description=(
    "work id, from /api/works/ (e.g. 1 for 禮書綱目): its default edition (the one /works/<slug>/ shows); under /api/editions/, "
    "an edition id (the `editions` of /api/works/)"),
                           examples=[OpenApiExample("禮書綱目", value=1)])
EDITION_ID = OpenApiParameter("id", int, P, description="edition id, from /api/works/ (`editions`)",
                              examples=[OpenApiExample("禮書綱目 (seed)", value=1)])
JUAN_N = OpenApiParameter("number", int, P, description=(
    "juan number: 10 for 卷十 of the seed text; for Kanripo works the file number (12 for KR1d0086_012, 卷十)"),
    examples=[OpenApiExample("卷十", value=10)])
POSITION = OpenApiParameter("position", int, P, description="section position in the juan, 1-based (2 = 右張侯)",
                            examples=[OpenApiExample("右張侯", value=2)])
KIND = OpenApiParameter("kind", str, P, enum=["source", "maintext", "json", "tei"], description=(
    "source: the source text as imported; maintext: 白文, notes removed; json; tei: TEI P5 XML"),
    examples=[OpenApiExample("TEI P5", value="tei"), OpenApiExample("白文", value="maintext")])
