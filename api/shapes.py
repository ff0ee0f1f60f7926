"""The shapes of the API's hand-built responses, for the OpenAPI schema (drf-spectacular).

The juan, section and search views build their JSON as dicts (``api.serializers.juan_structure``,
``section_structure``, ``HitSerializer``, ``api.views.SearchView``); the serializers here only
describe those dicts, field for field, so that ``/api/schema/`` and the docs show typed responses.
The examples are real responses for the bundled text (禮書綱目 卷十, shortened).
``tests/test_api_schema.py`` validates the schema with openapi-spec-validator and checks real
responses against these shapes."""
from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from search.documents import LAYERS

from .serializers import PieceSerializer

SEED = "http://127.0.0.1:8000/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/"


class PersonSerializer(serializers.Serializer):
    """One person of a byline: dynasty ("" when the book prints none), name, role (注, 撰; "" when none)."""

    dynasty = serializers.CharField()
    name = serializers.CharField()
    role = serializers.CharField()
    and_others = serializers.BooleanField(required=False, help_text="true where he led others (賈公彥等撰); absent else")


class WorkRefSerializer(serializers.Serializer):
    """The work a juan or section belongs to (``api.serializers.work_head``)."""

    id = serializers.IntegerField()
    title = serializers.CharField()
    author = serializers.CharField(help_text="the byline every page shows: 〔漢〕鄭玄注　〔唐〕賈公彥疏; \"\" when nobody "
                                   "is known")
    people = PersonSerializer(many=True, help_text="the people of ``author`` as data, in byline order")


class EditionRefSerializer(serializers.Serializer):
    """The edition a juan or section is read in (``api.serializers.edition_ref``): its id, its
    key (the ``/works/<slug>/`` of its pages), its name in words and its API URL."""

    id = serializers.IntegerField(help_text="the edition's id (/api/editions/{id}/)")
    slug = serializers.CharField(help_text="the edition's key: KR1d0086-WYG, 禮書綱目")
    name = serializers.CharField(help_text="the edition's name in words: 四庫全書・文淵閣本・原字")
    url = serializers.URLField(help_text="the edition's API URL")


class SectionBodySerializer(serializers.Serializer):
    """A section: position in the juan (its permalink), title, 右… closer, URLs, citation, the
    printed page it starts on (Kanripo texts; "" otherwise) and its ordered pieces."""

    position = serializers.IntegerField()
    title = serializers.CharField()
    name = serializers.CharField(help_text="the section as named for people: its title, else its opening words "
                                 "(as citations name it), else its chapter's title")
    byline = serializers.CharField(help_text="the section's own byline, the author's line an anthology prints "
                                   "under a piece's title (屈平　王逸注), as 〔dynasty〕name role joined by U+3000; "
                                   "\"\" when the book prints none there")
    people = PersonSerializer(many=True, help_text="the people of ``byline`` as data, in the book's order; [] when none")
    closer = serializers.CharField(allow_null=True)
    reading_url = serializers.URLField()
    citation = serializers.CharField()
    page = serializers.CharField()
    pieces = PieceSerializer(many=True)


class HeadLineSerializer(serializers.Serializer):
    """One printed line of a juan's head (``reader.juan_heads.HeadLine``): ``kind`` ``title`` (its title line, or
    a second title line under it) or ``byline``, and ``text`` as printed (indentation and markup left out)."""

    kind = serializers.ChoiceField(choices=["title", "byline"])
    text = serializers.CharField()


class ChapterBodySerializer(serializers.Serializer):
    """A chapter (篇) with its sections in order; ``heading_notes``: the notes printed right
    after its heading (stored in its first section); ``printed_head``: the title line and bylines
    of a printed 卷 that opens with this chapter inside the juan's file (前漢書 卷一下), [] for
    others; ``printed_end``: the end titles printed after its text (``前漢書卷一下``)."""

    position = serializers.IntegerField()
    title = serializers.CharField()
    category = serializers.CharField()
    heading_notes = PieceSerializer(many=True)
    printed_head = HeadLineSerializer(many=True)
    printed_end = serializers.ListField(child=serializers.CharField())
    sections = SectionBodySerializer(many=True)


class JuanStructureSerializer(serializers.Serializer):
    """A juan: its work, number (the URLs' file number), label (卷十), printed head (its title line and bylines as
    the book prints them) and end (its end title after its text), reading page, citation (its page's) and chapters."""

    work = WorkRefSerializer()
    edition = EditionRefSerializer()
    number = serializers.IntegerField()
    label = serializers.CharField()
    printed_head = HeadLineSerializer(many=True)
    printed_end = serializers.ListField(child=serializers.CharField())
    reading_url = serializers.URLField()
    citation = serializers.CharField()
    chapters = ChapterBodySerializer(many=True)


class JuanRefSerializer(serializers.Serializer):
    """A juan as a section names it: its number in the edition and its label as printed (卷十; "" when the file
    gives none)."""

    number = serializers.IntegerField()
    label = serializers.CharField()


class ChapterRefSerializer(serializers.Serializer):
    """A chapter as a section names it: its position in the juan (from 1), its title and its category ("" when
    the book gives none)."""

    position = serializers.IntegerField()
    title = serializers.CharField()
    category = serializers.CharField()


class PiecePlaceSerializer(serializers.Serializer):
    """A place in a piece: its position and an offset in code points into its text."""

    piece = serializers.IntegerField()
    offset = serializers.IntegerField()


class SectionPagesSerializer(serializers.Serializer):
    """The page of a long section shown (``?page=``, 1-based) of ``count``; ``next`` and
    ``previous`` are the other pages' URLs (null at either end); the page shows the text
    from ``starts_at`` to ``ends_at`` (exclusive): a piece cut by a page boundary holds only
    that part of its text."""

    number = serializers.IntegerField()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    starts_at = PiecePlaceSerializer(allow_null=True)
    ends_at = PiecePlaceSerializer(allow_null=True)


class SectionStructureSerializer(SectionBodySerializer):
    """One section with its place: work, edition, juan and chapter, and its page (``pages``)."""

    work = WorkRefSerializer()
    edition = EditionRefSerializer()
    juan = JuanRefSerializer()
    chapter = ChapterRefSerializer()
    pages = SectionPagesSerializer()


class HitWorkSerializer(serializers.Serializer):
    """A hit's work: its id (``/api/works/{id}/``), title, and the part of it the hit's juan is in, as
    its citation names it (decision 0068)."""

    id = serializers.IntegerField()
    title = serializers.CharField()
    part = serializers.CharField(help_text="the part of the work the juan's title line names, cited after the "
                                 "title: 魏志 for 三國志 卷一 (《三國志・魏志》); \"\" for most books")


class HitEditionSerializer(serializers.Serializer):
    """A hit's edition, which tells a work's editions apart: its id (``/api/editions/{id}/``), its
    key (the ``edition=`` filter's value, ``/works/<slug>/``) and its name in words."""

    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()


class HitSectionSerializer(serializers.Serializer):
    """A hit's section: its position in the juan (from 1), its title ("" when untitled) and the name citations
    give it."""

    position = serializers.IntegerField()
    title = serializers.CharField()
    name = serializers.CharField(help_text="its title, else its opening words, else its chapter's title")


class HitShownSerializer(serializers.Serializer):
    """A hit's KWIC as the reading page shows it: each gaiji entity as the character Kanripo's gaiji
    table reads it as (&KR0237; as 𥜗), else as 〓, as is U+0001 (decision 0102)."""

    before = serializers.CharField()
    match = serializers.CharField()
    after = serializers.CharField()


class HitDocSerializer(serializers.Serializer):
    """One hit: its layer, place (its work and edition; ``juan`` is the file number of the URLs,
    ``juan_label`` the printed 卷 its chapter falls in, as its citation names it: 卷一下 for 前漢書 KR2a0007_001's
    〈高帝紀第一下〉, else its juan's label, decision 0062), the piece it falls in, KWIC (``before`` + ``match`` + ``after`` is stored
    text) and its reading URL (the section, highlighted, at the piece)."""

    layer = serializers.ChoiceField(choices=list(LAYERS))  # classic, commentary, …, record, record_note, title
    layer_name = serializers.CharField()
    author = serializers.CharField(help_text=(
        "who wrote the main text a hit of the classic, a record or a title is in, where its piece's own byline names "
        "him (an anthology's piece: 宋玉 for 九辯 in 文選); \"\" for a hit of a note and where no byline names one "
        "(the work's authors are the work's: /api/works/)"))
    commentator = serializers.CharField(help_text="who wrote the note a hit is in (李善, 呂延濟), as the commentator= "
                                        "filter names them; \"\" for a hit of the main text and when the book names nobody")
    work = HitWorkSerializer()
    edition = HitEditionSerializer()
    juan = serializers.IntegerField()
    juan_label = serializers.CharField()
    section = HitSectionSerializer()
    piece = serializers.IntegerField(allow_null=True, help_text=(
        "the position of the piece the match starts in; null for a hit in the section's title (layer `title`), "
        "which is no piece"))
    before = serializers.CharField(help_text=(
        "stored text, at most `context` characters as search reads them (a gaiji entity `&KR1647;` one, "
        "never cut; punctuation and spaces taken along, counted none)"))
    match = serializers.CharField()
    after = serializers.CharField(help_text="stored text, as `before`")
    url = serializers.URLField()
    shown = HitShownSerializer(required=False, help_text=(
        "only for a hit whose KWIC holds a gaiji entity or U+0001: before, match and after as the reading "
        "page shows them (a gaiji as the character Kanripo's gaiji table reads it as, else 〓)"))
    reading = serializers.CharField(required=False, help_text="only for a hit found through a simplified form "
                                    "standing for several characters (后 found by 後): the match as the query read it")


class JuanCountSerializer(serializers.Serializer):
    """A juan's hits: the work's id and title, the edition's id and slug (KR1d0086-WYG), which
    tell a work's editions apart."""
    work_id = serializers.IntegerField(help_text="the work's id (/api/works/{id}/)")
    work_title = serializers.CharField()
    edition_id = serializers.IntegerField(help_text="the edition's id (/api/editions/{id}/)")
    edition = serializers.CharField()
    juan = serializers.IntegerField()
    juan_label = serializers.CharField()
    count = serializers.IntegerField()


class SectionCountSerializer(serializers.Serializer):
    """A section's hits: the work's id, the edition's id, the juan and the section."""
    work_id = serializers.IntegerField(help_text="the work's id (/api/works/{id}/)")
    juan = serializers.IntegerField()
    juan_label = serializers.CharField()
    section = serializers.IntegerField()
    title = serializers.CharField()
    count = serializers.IntegerField()
    edition_id = serializers.IntegerField(help_text="the edition's id (/api/editions/{id}/)")


class JuanDistributionSerializer(serializers.Serializer):
    """The hits of a search counted per juan (``JuanCountSerializer``), in text order."""

    juans = JuanCountSerializer(many=True)


class SuggestionSerializer(serializers.Serializer):
    """A query the user likely meant (``search.hints.suggestions``, and for a query that finds nothing the
    first respelling that finds something, ``search.hints.respellings``): the query, why in Chinese and
    English, the hits it finds, and the search with it, the other parameters kept: in the API (``url``)
    and on the search page (``page_url``)."""

    query = serializers.CharField()
    message = serializers.CharField()
    count = serializers.IntegerField()
    url = serializers.URLField()
    page_url = serializers.URLField()


class HintsSerializer(serializers.Serializer):
    """How the query was read, and the queries the user likely meant (``search.hints``)."""

    read_as = serializers.CharField()
    suggestions = SuggestionSerializer(many=True)


class FacetValueSerializer(serializers.Serializer):
    """One value of a facet and the hits of the query in it."""

    value = serializers.CharField()
    count = serializers.IntegerField()
    selected = serializers.BooleanField(required=False, help_text=(
        "true on a value the search's filters chose (`class`, `dynasty`, `author`, `edition`); absent on the "
        "others, the alternatives: each facet is counted without its own filter, so their counts are the hits "
        "each would add to the search (`class=KR1d` keeps 子部's count in `bu`)"))


class NamedFacetValueSerializer(FacetValueSerializer):
    """A facet value with its name: a class (KR1d 禮類; "" 未分類) or an edition (its slug and name)."""

    name = serializers.CharField()


class FacetsSerializer(serializers.Serializer):
    """Where the hits fall (``search.facets``): each facet counts the hits that pass the other
    facets' filters, most hits first; a value the filters chose is ``"selected": true``."""

    bu = NamedFacetValueSerializer(many=True)
    # ``class`` is a keyword: the field is added below under its name.
    dynasty = FacetValueSerializer(many=True, help_text=(
        "Per dynasty of who wrote the layer a hit is in (as `author`): a note under its commentator's (鄭玄's 注 "
        "漢, 孔穎達's 疏 唐), the classic or main text under its author's, the work's where no author is named "
        "(not a commentary book's, whose catalogue dynasty is its commentator's), \"\" (未詳) where none is known. "
        "A value's count is the total of the search filtered by `dynasty=` it"))
    author = FacetValueSerializer(many=True, help_text=(
        "Per person who wrote the layer a hit is in: a hit in a note counts under the note's commentator "
        "(the result's `commentator`: 杜預's 注, 孔穎達's 疏), a hit in the classic or main text under the work's "
        "own author (撰, 著: 左丘明 for 春秋左傳注疏; a work of one author and no commentator: its notes too), "
        "never a commentary book's commentator (史記集解's 史記 under 司馬遷, 楚辭章句's text under the writer each 章句's 序 names, else \"\"), "
        "under \"\" (未詳) where nobody is known (毛詩注疏's 詩, an unsigned 考證). A value's count is the total "
        "of the search filtered by `author=` it"))
    edition = NamedFacetValueSerializer(many=True)


FacetsSerializer._declared_fields["class"] = NamedFacetValueSerializer(many=True)


class ShuSerializer(serializers.Serializer):
    """A 屬 (a group inside a 類: 周禮之屬) and the number of works held in it; 未分屬 for the works
    of a divided 類 that have none (their ``shu`` is "")."""

    name = serializers.CharField()
    works = serializers.IntegerField()


class ClassSerializer(serializers.Serializer):
    """A class of Kanripo's catalogue (``catalogue``) and the works held in it."""

    code = serializers.CharField()
    name = serializers.CharField()
    parent = serializers.CharField(allow_null=True)
    level = serializers.ChoiceField(choices=["bu", "lei"])
    works = serializers.IntegerField()
    works_url = serializers.URLField()
    shu = ShuSerializer(many=True, help_text="the 屬 of the works held in a 類, then 未分屬 "
                                                        "(none for a 部 or an undivided 類)")


class ClassCountSerializer(NamedFacetValueSerializer):
    """A class's hits (``group=class``): the class (KR1d 禮類; "" 未分類), its count, and its 部 (KR1)."""

    bu = serializers.CharField()


class FilterTakenOffSerializer(serializers.Serializer):
    """The hits of the same search without one of its filters (a facet's or the form's)."""

    parameter = serializers.CharField(help_text="the parameter of the filter: exact (strict forms: the count folds variants), class, dynasty, author, edition, "
                                                "work, juan, chapter, commentator or layer")
    label = serializers.CharField(help_text="the filter as the search page names it: 類, 朝代, 作者, 注者 …")
    value = serializers.CharField(help_text="its value, by name (禮類 for class=KR1d)")
    count = serializers.IntegerField(allow_null=True, help_text="hits without this filter (null: no valid search)")
    url = serializers.URLField(help_text="the same API search without this filter")


class UnfilteredCountSerializer(serializers.Serializer):
    """The hits of the same search without any filter."""

    count = serializers.IntegerField(allow_null=True)
    url = serializers.URLField()


class SuggestedCommentatorSerializer(serializers.Serializer):
    """A commentator whose name holds the one typed (鄭 → 鄭玄), with his hits of the query."""

    name = serializers.CharField()
    count = serializers.IntegerField()
    url = serializers.CharField(help_text="the same API search by this commentator")


class UnfilteredSerializer(serializers.Serializer):
    """What each filter took away from a search with filters that found nothing, as the search
    page shows it (``search.filters.without_filters``)."""

    all = UnfilteredCountSerializer()
    each = FilterTakenOffSerializer(many=True, help_text="each filter (at most four) and the hits without it")
    emptied_by = serializers.ListField(child=serializers.CharField(), help_text=(
        "the parameters of the filters that emptied the result: without any one of them alone the search finds hits"))
    commentators = SuggestedCommentatorSerializer(many=True)


class PersonReadSerializer(serializers.Serializer):
    """A person filter's value and the people it was read as (``search.facets.people_read``)."""

    parameter = serializers.CharField(help_text="commentator or author")
    label = serializers.CharField(help_text="the filter as the search page names it: 注者, 作者")
    typed = serializers.CharField(help_text="the value as given (班孟堅)")
    people = serializers.ListField(child=serializers.CharField(), help_text=(
        "the names it stands for, as the author facet and the hits' commentator name them (班固)"))


class BehindEditionSerializer(serializers.Serializer):
    """An edition a search answer names as not yet wholly indexed (its not_yet_indexed part)."""

    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField(help_text="the edition as the search page names it: 禮書綱目（欽定四庫全書・純文字本）")


class NotYetIndexedSerializer(serializers.Serializer):
    """What the index does not hold yet of the editions searched (``search.service.not_yet_searched``)."""

    new = serializers.IntegerField(help_text="juans stored and not in the index at all: their text is not searched")
    changed = serializers.IntegerField(help_text=(
        "juans the index holds as they were before a correction or a new import: the text searched is the earlier one"))
    editions = BehindEditionSerializer(many=True, help_text="the first five editions, by work title")
    count = serializers.IntegerField(help_text="how many editions")


class SearchResponseSerializer(serializers.Serializer):
    """A page of hits: ``count`` occurrences in ``passages`` passages, hits per juan, hints, facets,
    and, for a search with filters that found nothing, what each filter took away."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HitDocSerializer(many=True)
    passages = serializers.IntegerField()
    distribution = JuanDistributionSerializer()
    hints = HintsSerializer()
    facets = FacetsSerializer()
    people_read = PersonReadSerializer(many=True, required=False, help_text=(
        "only when a person filter's value stands for people other than the name as typed: whom it was read as "
        "(author=班孟堅: 班固; commentator=鄭: 鄭玄)"))
    not_yet_indexed = NotYetIndexedSerializer(required=False, help_text=(
        "only when the index does not yet hold some of the searched editions' stored juans at their stored version "
        "(an import or a correction whose reindex is not yet written): how many and which editions"))
    unfiltered = UnfilteredSerializer(required=False, help_text=(
        "only when the search has filters and found nothing: the hits without each filter and without them "
        "all, and which filters emptied it (`emptied_by`)"))


class DistributionResponseSerializer(serializers.Serializer):
    """``group=juan`` (default): ``juans`` and ``sections``; ``group=class``: ``classes``."""

    count = serializers.IntegerField()
    passages = serializers.IntegerField()
    juans = JuanCountSerializer(many=True, required=False)
    sections = SectionCountSerializer(many=True, required=False)
    classes = ClassCountSerializer(many=True, required=False)


_PIECE = {"position": 0, "paragraph": 0, "kind": "text", "layer": "classic", "layer_name": "", "commentator": "",
          "layer_basis": "default", "text": "司馬命量人量侯道與所設乏以貍步大侯九十參七十干五十設乏各去其侯西十北十",
          "source_tag": "", "source": "", "pages": []}
_SECTION = {"position": 2, "title": "張侯", "name": "張侯", "byline": "", "people": [], "closer": "右張侯", "reading_url": SEED + "2/",
            "citation": "江永《禮書綱目》卷十〈大射儀〉「右張侯」 http://127.0.0.1:8000/works/禮書綱目/juan/10/2/",
            "page": "", "pieces": [_PIECE]}
WORK = {"id": 1, "title": "禮書綱目", "author": "〔清〕江永撰", "people": [{"dynasty": "清", "name": "江永", "role": "撰"}]}
EDITION = {"id": 1, "slug": "禮書綱目", "name": "欽定四庫全書・純文字本", "url": "http://127.0.0.1:8000/api/editions/1/"}
JUAN_EXAMPLE = OpenApiExample("禮書綱目 卷十 (shortened)", value={
    "work": WORK, "edition": EDITION, "number": 10, "label": "卷十",
    "printed_head": [{"kind": "title", "text": "禮書綱目卷十 婺源江永撰"}], "printed_end": [], "reading_url": SEED, "citation": "江永《禮書綱目》卷十〈大射儀〉 http://127.0.0.1:8000/works/禮書綱目/juan/10/",
    "chapters": [{"position": 1, "title": "大射儀", "category": "嘉禮十五", "heading_notes": [], "printed_head": [],
                  "printed_end": [], "sections": [_SECTION]}]})
SECTION_EXAMPLE = OpenApiExample("右張侯 (shortened)", value={
    "work": WORK, "edition": EDITION, "juan": {"number": 10, "label": "卷十"},
    "chapter": {"position": 1, "title": "大射儀", "category": "嘉禮十五"}, **_SECTION,
    "pages": {"number": 1, "count": 1, "next": None, "previous": None, "starts_at": {"piece": 0, "offset": 0},
              "ends_at": {"piece": 0, "offset": 33}}})
SEARCH_EXAMPLE = OpenApiExample("鵠 in the main text", value={
    "count": 2, "next": None, "previous": None,
    "results": [{"layer": "classic", "layer_name": "經文", "author": "", "commentator": "", "work": {"id": 1, "title": "禮書綱目", "part": ""},
                 "edition": {"id": 1, "slug": "禮書綱目", "name": "欽定四庫全書・純文字本"}, "juan": 10,
                 "juan_label": "卷十", "section": {"position": 2, "title": "張侯", "name": "張侯"}, "piece": 2,
                 "before": "十遂命量人巾車張三侯大侯之崇見", "match": "鵠", "after": "於參參見鵠於干干不及地武不繫左",
                 "url": SEED + "2/?hl=%E9%B5%A0#s2-p2"}],
    "passages": 1,
    "distribution": {"juans": [{"work_id": 1, "work_title": "禮書綱目", "edition_id": 1, "edition": "禮書綱目", "juan": 10, "juan_label": "卷十", "count": 2}]},
    "hints": {"read_as": "「鵠」", "suggestions": []},
    "facets": {"bu": [{"value": "KR1", "name": "經部", "count": 2}],
               "class": [{"value": "KR1d", "name": "禮類", "count": 2}],
               "dynasty": [{"value": "清", "count": 2}], "author": [{"value": "江永", "count": 2}],
               "edition": [{"value": "禮書綱目", "name": "禮書綱目（欽定四庫全書・純文字本）", "count": 2}]}})
