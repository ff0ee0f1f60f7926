"""Serializers: works, juans with their full structure, search hits."""
import re
from functools import lru_cache

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from characters.gaiji import readable
from characters.simplified import TRADITIONAL
from config.budget import check
from reader.citation import (juan_citation_text, permalink, section_citation, section_heading, section_title, set_openings,
                             set_piece_titles)
from reader.matter import set_matter
from reader.juan_heads import juan_end, juan_head
from reader.juans import juan_count
from reader.models import Edition, Juan, Piece, Work, stored_shu
from reader.people import people_text, section_byline, section_people, work_dynasty, work_people
from reader.shelving import decided_shu
from search.matching import reading_of
from search.documents import author_and_commentator, layer_name
from search.service import HitLinks, edition_places, hit_place, kept_section_names
from search.views import HIT_ADVICE, HIT_ADVICE_ZH

from .pagination import StandardPagination

DEFAULT_PAGE_SIZE = StandardPagination.page_size


PAGE_BREAK = re.compile(r"<pb:([^>]+)>")


class JuanSummarySerializer(serializers.ModelSerializer):
    """A juan in a work's list: number, label, chapter titles and its API URL."""

    label = serializers.SerializerMethodField()
    chapters = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    reading_url = serializers.SerializerMethodField()

    class Meta:
        model = Juan
        fields = ["number", "label", "chapters", "url", "reading_url"]

    def get_label(self, juan) -> str:
        """The juan's label as the book titles it, a file of several printed 卷 of one juan by their range
        (``卷二十八上至卷二十八下``, ``reader.juan_labels.short_label``, decision 0089); "" for a file without a title line."""
        return juan.api_label

    def get_chapters(self, juan) -> list[dict[str, str]]:
        """The juan's chapters in order: ``[{"title": "射禮", "category": ""}, …]`` (prefetched ``chapters``)."""
        return [{"title": c.title, "category": c.category} for c in juan.chapters.all()]

    def get_url(self, juan) -> str:
        """The juan's API URL, absolute: ``…/api/editions/<id>/juans/<number>/``."""
        return self.context["request"].build_absolute_uri(f"/api/editions/{juan.edition_id}/juans/{juan.number}/")

    def get_reading_url(self, juan) -> str:
        """The juan's reading page, absolute (``Juan.get_absolute_url``)."""
        return self.context["request"].build_absolute_uri(juan.get_absolute_url())


class BookJuanCountSerializer(serializers.Serializer):
    """An edition's juans as the book counts them, as its work page gives them (``reader.juans.JuanCount``):
    ``juans`` numbered 卷 (卷十上 and 卷十下 one), ``parts`` the printed 卷 where the book prints some in parts
    (0 where none), ``head`` parts of 卷首, ``kaozheng`` files of the editors' 考證 alone, ``other`` files of
    other front or back matter (卷外), ``chapters`` files that are one chapter (篇) each; ``text`` the page's
    words for them, ``100 卷（分爲 120 卷；另有卷外 2）``."""

    juans = serializers.IntegerField()
    parts = serializers.IntegerField()
    head = serializers.IntegerField()
    kaozheng = serializers.IntegerField()
    other = serializers.IntegerField()
    chapters = serializers.IntegerField()
    text = serializers.CharField()


def book_juan_count(edition) -> dict:
    """``BookJuanCountSerializer``'s dict for ``edition``: from its prefetched ``labelled_juans``
    (``Work.objects.with_juan_labels()``) or, without them, one query."""
    juans = getattr(edition, "labelled_juans", None)
    counted = juan_count(edition.juans.only("id", "label", "number") if juans is None else juans)
    return {"juans": counted.juans, "parts": counted.parts, "head": counted.head, "kaozheng": counted.kaozheng,
            "other": counted.other, "chapters": counted.chapters, "text": str(counted)}


class EditionSerializer(serializers.ModelSerializer):
    """An edition (witness) of a work: id, slug (its URL key), name (``Edition.name``),
    label, Kanripo ID and edition, collection, script (``traditional``, ``simplified`` or
    ``mixed``: ``Edition.script``), juan count (its files, what ``/juans/<n>/`` serves) and its
    juans as the book counts them (``book_juan_count``, the work page's figure), API and reading URLs."""

    name = serializers.CharField(read_only=True)
    juan_count = serializers.SerializerMethodField()
    book_juan_count = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    reading_url = serializers.SerializerMethodField()

    class Meta:
        model = Edition
        fields = ["id", "slug", "name", "label", "kanripo_id", "kanripo_edition", "collection", "script",
                  "juan_count", "book_juan_count", "url", "reading_url"]

    def get_juan_count(self, edition) -> int:
        """The edition's juans in the database, one a file, what ``/juans/<n>/`` serves (the annotated
        ``juan_count`` when the queryset has it, else one query): 102 for 前漢書, whose book counts 100 卷
        printed as 120 (``book_juan_count``)."""
        count = getattr(edition, "juan_count", None)
        return edition.juans.count() if count is None else count

    @extend_schema_field(BookJuanCountSerializer)
    def get_book_juan_count(self, edition) -> dict:
        """The edition's juans as the book counts them, the figure its work page gives (``book_juan_count``)."""
        return book_juan_count(edition)

    def get_url(self, edition) -> str:
        """The edition's API URL, absolute: ``…/api/editions/<id>/``."""
        return self.context["request"].build_absolute_uri(f"/api/editions/{edition.pk}/")

    def get_reading_url(self, edition) -> str:
        """The edition's page, absolute (``Edition.get_absolute_url``)."""
        return self.context["request"].build_absolute_uri(edition.get_absolute_url())


class WorkSerializer(serializers.ModelSerializer):
    """A work: id, title, author (the byline every page shows: ``reader.people.work_byline``,
    ``〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義``), people (the same people as data:
    ``[{"dynasty": "漢", "name": "鄭玄", "role": "注"}, …]``), native place (the work's field),
    dynasty (the catalogue's where it lists the work, else the work's: ``reader.people.work_dynasty``), collection, slug, Kanripo ID, class in Kanripo's catalogue
    (``classification``: KR1d, "" unclassified) and 屬 (``shu``: the one the catalogue shelves it
    under, given or named by its title, ``reader.shelving``; "" for none), juan count (its fullest
    edition's files: ``juan_count``) and its 卷 as the book counts them (``book_juan_count``, the figure the
    catalogue and work pages give), the id of that edition
    (``reading_edition``), the page of the edition it is read in (``reading_url``:
    ``Work.reading_url``) and its editions, each with its own juan count."""

    author = serializers.SerializerMethodField()
    people = serializers.SerializerMethodField()
    dynasty = serializers.SerializerMethodField()
    juan_count = serializers.SerializerMethodField()
    book_juan_count = serializers.SerializerMethodField()
    reading_edition = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    reading_url = serializers.SerializerMethodField()
    shu = serializers.SerializerMethodField()
    editions = EditionSerializer(many=True, read_only=True)

    class Meta:
        model = Work
        fields = ["id", "title", "author", "people", "native_place", "dynasty", "collection", "slug", "kanripo_id",
                  "classification", "shu", "juan_count", "book_juan_count", "reading_edition", "url", "reading_url",
                  "editions"]

    def get_author(self, work) -> str:
        """The work's byline as one line (``reader.people.people_text`` of ``people``): ``〔漢〕鄭玄注　〔唐〕賈公彥疏``; ""
        when nobody is known."""
        return people_text(self.get_people(work))

    def get_people(self, work) -> list[dict]:
        """The work's people in byline order: ``[{"dynasty": "漢", "name": "鄭玄", "role": "注"}, …]``
        (``reader.people.work_people``: the catalogue's where it lists the work, else the book's byline)."""
        return work_people(work)

    def get_dynasty(self, work) -> str:
        """The work's dynasty (``reader.people.work_dynasty``: the catalogue's where it lists the work, else the
        work's field); "" when unknown."""
        return work_dynasty(work)

    def get_shu(self, work) -> str:
        """The 屬 the work is shelved under (``reader.shelving.decided_shu``), as ``/classes/<code>/``
        and ``/api/classes/`` count it: ``Work.shu``, else the one its title names among its class's
        (周禮注疏 → 周禮之屬); "". The 屬 given in the library are read once per response."""
        if work.shu or not work.classification:
            return work.shu
        if "stored_shu" not in self.context:
            self.context["stored_shu"] = stored_shu()
        return decided_shu([work], self.context["stored_shu"])[work.pk]

    def get_url(self, work) -> str:
        """The work's API URL, absolute: ``…/api/works/<id>/``."""
        return self.context["request"].build_absolute_uri(f"/api/works/{work.pk}/")

    def get_juan_count(self, work) -> int:
        """The juans of the work's fullest edition, the one its link opens (``Work.reading_edition_id``:
        most juans, then Kanripo's base text): 91 for 禮書綱目 with Kanripo's KR1d0086 beside the
        seed's one juan and a one-juan copy, not their sum; 0 for a work without editions. Each
        edition's own count is in ``editions``. No query when the editions are prefetched with
        their counts (``Work.objects.with_editions()``)."""
        reading = work.reading_edition_id()
        counted = {e.pk: getattr(e, "juan_count", None) for e in work.editions.all()}
        if reading is None:
            return 0
        return counted[reading] if counted.get(reading) is not None else work.editions.get(pk=reading).juans.count()

    @extend_schema_field(BookJuanCountSerializer(allow_null=True))
    def get_book_juan_count(self, work) -> dict | None:
        """The juans of the edition ``juan_count`` counts (``reading_edition``) as the book counts them, the
        figure the work page gives (``book_juan_count``: 前漢書's ``juan_count`` 102 is ``{"juans": 100,
        "parts": 120, "other": 2, …, "text": "100 卷（分爲 120 卷；另有卷外 2）"}``); None for a work without
        editions."""
        reading = work.reading_edition_id()
        edition = next((e for e in work.editions.all() if e.pk == reading), None)
        return None if edition is None else book_juan_count(edition)

    def get_reading_edition(self, work) -> int | None:
        """The id of the edition ``juan_count`` counts and ``reading_url`` opens (``Work.reading_edition_id``:
        most juans, then Kanripo's base text; KR1d0086's for 禮書綱目), one of ``editions``; None for a work
        without editions. No query when the editions are prefetched with their counts."""
        return work.reading_edition_id()

    def get_reading_url(self, work) -> str:
        """The page of the edition the work is read in, absolute (``Work.reading_url``, its
        fullest edition: ``…/works/KR1d0086/``); the work's other editions are in ``editions``."""
        return self.context["request"].build_absolute_uri(work.reading_url())


class WorkDetailSerializer(WorkSerializer):
    """A work with its editions and the juans of its default edition (``Work.default_edition``:
    the edition of the work's slug, which ``/works/<slug>/`` shows and ``/api/works/<id>/juans/<n>/``
    and the work's exports read; each edition lists its own at ``/api/editions/<id>/``), named by
    ``juans_edition`` (its id), which need not be ``reading_edition``, the edition ``juan_count``
    counts: 禮書綱目's ``juans`` are the seed's one juan (卷十) while ``juan_count`` is KR1d0086's 91."""

    juans_edition = serializers.SerializerMethodField()
    juans = serializers.SerializerMethodField()

    class Meta(WorkSerializer.Meta):
        fields = WorkSerializer.Meta.fields + ["juans_edition", "juans"]

    def _default_edition(self, work):
        """``Work.default_edition``, read once per work and response (``juans_edition`` and ``juans`` share it)."""
        kept = self.context.setdefault("default_editions", {})
        if work.pk not in kept:
            kept[work.pk] = work.default_edition()
        return kept[work.pk]

    def get_juans_edition(self, work) -> int | None:
        """The id of the edition whose juans ``juans`` lists and ``/api/works/<id>/juans/<n>/`` reads (the
        default edition, one of ``editions``, with its own ``juan_count`` there); None for a work without
        editions."""
        edition = self._default_edition(work)
        return edition.pk if edition else None

    def get_juans(self, work) -> list[dict]:
        """The juans of the work's default edition (``juans_edition``) in number order (``JuanSummarySerializer``);
        ``[]`` for a work without editions."""
        edition = self._default_edition(work)
        juans = edition.juans.prefetch_related("chapters").order_by("number") if edition else []
        return JuanSummarySerializer(juans, many=True, context=self.context).data


class EditionDetailSerializer(EditionSerializer):
    """An edition with its work and its juans."""

    work = serializers.SerializerMethodField()
    juans = serializers.SerializerMethodField()

    class Meta(EditionSerializer.Meta):
        fields = EditionSerializer.Meta.fields + ["work", "juans"]

    def get_work(self, edition) -> dict:
        """The edition's work as juans name it (``work_ref``: id, title, author, people, API URL)."""
        return work_ref(edition.work, self.context["request"], edition)

    def get_juans(self, edition) -> list[dict]:
        """The edition's juans in number order (``JuanSummarySerializer``)."""
        juans = edition.juans.prefetch_related("chapters").order_by("number")
        return JuanSummarySerializer(juans, many=True, context=self.context).data


def work_head(work, edition=None) -> dict:
    """``{"id", "title", "author", "people"}`` of a work as juans, sections and exports name it:
    ``author`` the byline every page shows (``reader.people.work_byline``: ``〔漢〕鄭玄注　〔唐〕
    賈公彥疏　〔唐〕陸德明音義``), ``people`` the same people as data (``[{"dynasty": "漢",
    "name": "鄭玄", "role": "注"}, …]``); ``edition`` is the edition read, when there is one."""
    people = work_people(work, edition)
    return {"id": work.pk, "title": work.title, "author": people_text(people), "people": people}


def work_ref(work, request, edition=None) -> dict:
    """``work_head`` and the work's API ``url``, as juans and sections name it."""
    return {**work_head(work, edition), "url": request.build_absolute_uri(f"/api/works/{work.pk}/")}


def edition_ref(edition, request) -> dict:
    """``{"id", "slug", "name", "url"}`` of an edition, as juans, sections and hits name it."""
    return {"id": edition.pk, "slug": edition.slug, "name": edition.name,
            "url": request.build_absolute_uri(f"/api/editions/{edition.pk}/")}


class PageBreakSerializer(serializers.Serializer):
    """A page break of the printed edition: ``offset`` in code points into the piece's text."""

    offset = serializers.IntegerField()
    page = serializers.CharField()


class PieceCorrectionSerializer(serializers.Serializer):
    """An accepted correction of a piece (``piece_corrections``): its id, kind, where it stands in
    the piece's text, the value as imported and the corrected one, and its history page."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["text", "layer", "structure"])
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    imported = serializers.CharField()
    corrected = serializers.CharField()
    url = serializers.URLField()


class PieceSerializer(serializers.ModelSerializer):
    """A piece of a section: ``kind`` is text, note, label, record or record_note; ``layer``
    its commentary layer (classic, commentary, readings, subcommentary, editorial,
    smallprint, or paratext: front and back matter, 序跋) and ``layer_name`` the book's name for it (注, 鄭注, 疏, 音義; "" when the
    source names none); a ``label`` of a layer other than the classic is the marker word
    that introduces that layer (注, 疏, 音義), not text. ``commentator`` names who wrote the
    piece where the book says (李善, 呂延濟, 王逸, 洪興祖; "" otherwise) and ``layer_basis``
    how its layer was decided (marked, reference, layout, default). Notes carry ``source_tag`` (as written) and ``source`` (同上 resolved); ``pages`` lists the
    page breaks of the printed edition inside the piece (Kanripo sources):
    ``[{"offset": code points into text, "page": "KR1d0086_WYG_012-1b"}]``. ``section_start``
    (``true``, present only then) says that an editor's accepted structure correction starts a
    section at this piece (``corrections.overlay``): the sections keep their imported numbers.
    ``piece_offset`` (present only then) marks a part of a piece that an accepted layer
    correction of part of it shows as two or three parts, each of its layer (the part's
    ``position`` is the piece's): where the part starts, in code points of the piece's text.
    ``corrections`` (present only then) lists the accepted corrections that changed the piece
    (``piece_corrections``), as its reading page marks each with 「校」."""

    pages = serializers.SerializerMethodField()
    # Only on a piece an accepted correction changed (``piece_rows`` sets ``api_corrections``)
    corrections = PieceCorrectionSerializer(many=True, required=False, source="api_corrections")
    # Only on a piece the corrections overlay marks; a read-only field whose attribute is
    # missing is left out of the piece (DRF's SkipField), not written as false.
    section_start = serializers.BooleanField(required=False)  # not read_only: the schema would call it required
    piece_offset = serializers.IntegerField(required=False)

    class Meta:
        model = Piece
        fields = ["position", "paragraph", "kind", "layer", "layer_name", "commentator", "layer_basis", "text",
                  "source_tag", "source", "pages", "section_start", "piece_offset", "corrections"]

    @extend_schema_field(PageBreakSerializer(many=True))
    def get_pages(self, piece) -> list[dict]:
        """The printed pages that begin inside the piece: ``[{"offset": code points into ``text``, "page":
        "KR1d0086_WYG_012-1b"}]``, from its layout's ``<pb:…>`` marks. Raises ``config.budget``'s timeout when
        the request's time budget runs out."""
        check("writing the pieces as JSON", "Ask for one section (sections/<position>/), a page at a time (?page=).",
              "請只求一節（sections/<position>/），一次一頁（?page=）。")
        return [{"offset": min(offset, len(piece.text)), "page": page}
                for offset, raw in piece.layout for page in PAGE_BREAK.findall(raw)]


@lru_cache(maxsize=1)
def _piece_serializer() -> PieceSerializer:
    """One ``PieceSerializer`` with its fields bound, made once per process: DRF builds a
    model serializer's fields (``get_fields``, a deep copy of each) for every serializer
    made, which was a third of a whole-work JSON export's time when one was made a section."""
    serializer = PieceSerializer()
    serializer.fields  # noqa: B018 -- binds the fields now, not in the first caller's thread
    return serializer


def piece_rows(pieces, request=None) -> list[dict]:
    """``PieceSerializer(pieces, many=True).data``, the same dicts (keys in the serializer's
    field order, ``section_start`` only where set) from one serializer made once
    (``_piece_serializer``): a row per piece, in order. With ``request``, a piece an accepted
    correction changed has its ``corrections`` (``piece_corrections``)."""
    represent = _piece_serializer().to_representation
    if request is not None:
        for piece in pieces:
            if getattr(piece, "overlay_marks", None):
                piece.api_corrections = piece_corrections(piece, request)
    return [represent(piece) for piece in pieces]


def piece_corrections(piece, request) -> list[dict]:
    """The accepted corrections a piece of the corrected reading shows, in text order, as its
    reading page marks them with 「校」 (``corrections.overlay``: ``overlay_marks`` and
    ``overlay_corrections``): ``[{"id", "kind": "text"|"layer"|"structure", "start", "end",
    "imported", "corrected", "url"}]``; ``start``/``end`` are code points of the piece's text as
    given (the new characters of a text correction, ``start == end`` for a deletion; the whole
    piece, or the part, for a layer or structure correction), ``imported`` the value as imported
    (the characters replaced, the layer, "" for a structure) and ``corrected`` the new one (the
    characters, the layer, ``heading``/``byline``/``section``), ``url`` the correction's history page."""
    views = getattr(piece, "overlay_corrections", {})
    return [{"id": view.id, "kind": view.kind, "start": start, "end": end, "imported": view.imported,
             "corrected": view.corrected, "url": request.build_absolute_uri(url)}
            for start, end, url, _title, _kind in piece.overlay_marks if (view := views.get(url)) is not None]


def head_rows(lines) -> list[dict]:
    """``reader.juan_heads.HeadLine`` list as the API gives it: ``[{"kind": "title"|"byline", "text": …}]``."""
    return [{"kind": line.kind, "text": line.text} for line in lines]


def juan_structure(juan, chapters, request, whole: bool = True, cite_juan: bool = True) -> dict:
    """The full structure of a juan from ``reader.reading.chapter_views`` output, with the juan's
    ``citation`` as its reading page gives it (``reader.citation.juan_citation_text`` and the
    permalink: ``…《周禮注疏》卷八（四庫全書・文淵閣本，Kanripo KR1d0003_008） http://…/works/KR1d0003/juan/8/``). Each
    section has its ``citation`` as the reading page shows it (``reader.citation``) and its own
    byline (``byline``, ``people``: ``reader.people.section_byline``; "" and [] when the book
    prints none under its title, the usual case: the work's people are the work's); the
    opening words that name its untitled sections are read in one query for the juan
    (``set_openings``), not one a section. ``whole``: ``chapters`` hold every section of the juan whole
    (its endpoint and export: a front-matter juan's writer read from them, ``reader.matter.juan_matter_writer``,
    no query); ``cite_juan`` False (a section's endpoint) leaves the juan's ``citation`` "", read for nothing."""
    set_openings([view.section for cv in chapters for view in cv.sections])
    set_matter(chapters)  # front matter's writer from the pieces read, not a query a section
    for cv in chapters:
        set_piece_titles([view.section for view in cv.sections])  # a later section of a piece names it
    return {
        "work": work_head(juan.work, juan.edition),
        "edition": edition_ref(juan.edition, request),
        "number": juan.number,
        "label": juan.api_label,  # a file of several printed 卷 of one juan: their range (0089)
        # the juan's title line and bylines as the book prints them over its text (reader.juan_heads)
        "printed_head": head_rows(juan_head(juan.header)),
        # its end title as printed after its last chapter (Juan.trailer: 世說新語下卷下(終))
        "printed_end": juan_end(juan.trailer),
        "reading_url": request.build_absolute_uri(juan.get_absolute_url()),
        # the juan's citation as its reading page gives it (引用本卷): its chapters, then its permalink
        "citation": f"{juan_citation_text(juan, [cv.chapter for cv in chapters], chapters, whole)} {permalink(request, juan)}"
        if cite_juan else "",
        "chapters": [
            {
                "position": cv.chapter.position,
                "title": cv.chapter.title,
                "category": cv.chapter.category,
                # a heading's own notes: shown with the heading, stored in the first section
                "heading_notes": piece_rows(cv.heading_notes, request),
                # a printed 卷 opening here: its title line and bylines; its end title (reader.chapter_heads)
                "printed_head": head_rows(cv.printed_head),
                "printed_end": cv.printed_end,
                "sections": [
                    {
                        "position": view.section.position,
                        "title": section_title(view.section),  # as corrected: a line made a heading titles it
                        "name": section_heading(view.section, cv.chapter),
                        # the section's own byline (an anthology piece's author line), as metadata
                        "byline": section_byline(view.section),
                        "people": section_people(view.section),
                        "closer": view.section.closer,
                        "reading_url": request.build_absolute_uri(view.section.get_absolute_url()),
                        "citation": section_citation(view.section, request, cv.chapter),
                        "page": view.section.page,
                        "pieces": piece_rows([p for para in view.paragraphs for p in para] + view.records, request),
                    }
                    for view in cv.sections
                ],
            }
            for cv in chapters
        ],
    }


def hit_advice(page_size: int) -> str:
    """What a search past its time budget while rendering a page of ``page_size`` hits is told
    to ask for (the 503's ``narrow``): fewer hits per page only when it asked for more than the
    default (20), since a page of 20 renders in milliseconds and the time went to the search;
    a narrower query always (``search.views.HIT_ADVICE``)."""
    if page_size > DEFAULT_PAGE_SIZE:
        return (f"Ask for fewer hits per page (page_size={page_size} asked, {DEFAULT_PAGE_SIZE} by default), "
                "or " + HIT_ADVICE[0].lower() + HIT_ADVICE[1:])
    return HIT_ADVICE


def hit_advice_zh(page_size: int) -> str:
    """``hit_advice`` in Chinese (``search.views.HIT_ADVICE_ZH``)."""
    if page_size > DEFAULT_PAGE_SIZE:
        return f"請每頁少求幾處（page_size={page_size}，預設 {DEFAULT_PAGE_SIZE}），或{HIT_ADVICE_ZH[1:]}"
    return HIT_ADVICE_ZH


def _shown(before: str, match: str, after: str) -> dict:
    """``{"shown": {"before", "match", "after"}}``, the KWIC as the reading page shows it (a gaiji
    entity as the character Kanripo's gaiji table reads it as, else 〓, as is U+0001:
    ``characters.gaiji.readable``), for a hit whose KWIC holds one; ``{}`` for any other
    (``before``/``match``/``after`` keep the stored text)."""
    parts = {"before": before, "match": match, "after": after}
    shown = {k: readable(v) for k, v in parts.items()}
    return {"shown": shown} if shown != parts else {}


class HitSerializer(serializers.Serializer):
    """One occurrence: layer (``classic``, ``commentary``, ``readings``, ``subcommentary``,
    ``editorial``, ``smallprint``, ``paratext``, ``record``, ``record_note``, ``title``) and its name
    (the book's own, such as 鄭注 or 疏, where the piece has one: ``search.service.name_layers``),
    ``piece`` (the position of the piece the match starts in; null for a hit in a section's
    title, which is no piece), ``author`` (who wrote the main text a hit of the classic, a record or a title is in,
    where its piece's byline names him: 宋玉 for 九辯 in 文選, decision 0097; else ""), ``commentator`` (who wrote
    the note a hit of any other layer is in: 李善, 呂延濟; "" when the book names nobody; decision 0106), location, KWIC (``before``/``match``/``after``), reading URL; ``reading`` only for a hit
    found through a simplified form that stands for several characters, in a simplified or
    mixed edition: the match as the query read it (后 found by 後: ``"reading": "後"``,
    ``search.matching.reading_of``); ``shown`` only for a hit whose KWIC holds a gaiji entity or
    U+0001: the three parts as the reading page shows them (``_shown``: ``&KR1647;`` as 〓, ``&KR0237;`` as 𥜗)."""

    def to_representation(self, hit):
        """One hit as the class docstring gives it (a dict of the fields listed there). Raises
        ``config.budget``'s timeout when the request's time budget runs out."""
        page_size = self.context.get("page_size", DEFAULT_PAGE_SIZE)
        check("rendering the search hits", hit_advice(page_size), hit_advice_zh(page_size))
        places, link, root = self._shared()
        p = hit.passage  # the place fields, read from the passage itself (not through Hit.__getattr__)
        place = places.get(p.work_id, {})
        before, match, after = hit.kwic()
        reading = reading_of(match, self.context["query"].parsed, place.get("script", TRADITIONAL))
        part, juan_label = hit_place(p)  # the part and printed 卷 its citation names (decisions 0062, 0068)
        author, commentator = author_and_commentator(p.layer, p.commentator)
        return {
            "layer": p.layer,
            "layer_name": layer_name(p),
            "author": author,
            "commentator": commentator,
            "work": {"id": place.get("work_id", p.work_id), "title": p.work_title, "part": part},
            "edition": {"id": p.work_id, "slug": p.work_slug, "name": place.get("name", "")},
            "juan": p.juan_number,
            "juan_label": juan_label,
            "section": {"position": p.section_position, "title": p.section_title,
                        "name": p.section_title or self._names().get(
                            (p.work_slug, p.juan_number, p.section_position), "")},
            # a section's title is no piece (search.documents.TITLE_POSITION stands for it): null
            "piece": None if p.layer == "title" else hit.piece_position,
            "before": before,
            "match": match,
            "after": after,
            # request.build_absolute_uri(url) for a path: its iri_to_uri leaves these ASCII
            # URLs (reverse() and urlencode() quote everything else) as they are.
            "url": root + link(hit),
            # found through a simplified form standing for several characters: as it was read
            **({"reading": reading} if reading else {}),
            **_shown(before, match, after),
        }

    def _names(self) -> dict:
        """``reader.citation.section_names`` of the untitled sections of the page's hits (the
        list the serializer was given, else the one hit), looked up once for the page and kept
        for the pages that follow (``search.service.kept_section_names``)."""
        names = getattr(self, "_section_names", None)
        if names is None:
            hits = getattr(self.parent, "instance", None) if self.parent is not None else None
            names = self._section_names = kept_section_names(
                (h.passage.work_slug, h.passage.juan_number, h.passage.section_position)
                for h in (hits if hits is not None else [self.instance]) if not h.passage.section_title)
        return names

    def _shared(self):
        """What every hit of the page shares, made for the first: the editions' places
        (``search.service.edition_places``), the query's ``HitLinks`` and the site's root
        (``http://host``), so that a page of hits reads the index and corpus versions once."""
        shared = getattr(self, "_shared_parts", None)
        if shared is None:
            shared = self._shared_parts = (edition_places(), HitLinks(self.context["query"]),
                                           self.context["request"].build_absolute_uri("/")[:-1])
        return shared


def section_structure(juan, chapter, view, request, heading_notes=()) -> dict:
    """One section with its place: work, juan, chapter, then the section as in
    ``juan_structure``; ``heading_notes`` (the chapter heading's own notes, which the section
    stores first: ``reader.reading.lift_heading_notes``) lead its pieces again."""
    section_data = next(
        s for cv in juan_structure(juan, [_OneChapter(chapter, [view])], request, whole=False, cite_juan=False)["chapters"] for s in cv["sections"])
    if heading_notes:
        section_data["pieces"] = piece_rows(heading_notes, request) + section_data["pieces"]
    return {
        "work": work_head(juan.work, juan.edition),
        "edition": edition_ref(juan.edition, request),
        "juan": {"number": juan.number, "label": juan.api_label},
        "chapter": {"position": chapter.position, "title": chapter.title, "category": chapter.category},
        **section_data,
        "pages": section_pages(view, request),
    }


def section_pages(view, request) -> dict:
    """The page of a section the view shows (``reader.paging``): ``{"number", "count",
    "next", "previous", "starts_at", "ends_at"}``; ``next``/``previous`` are API URLs or
    None, ``starts_at``/``ends_at`` are ``{"piece": position, "offset": code points into
    the piece's text}`` (``ends_at`` exclusive), or None for a page without pieces."""
    page, count = getattr(view, "page", 1), getattr(view, "page_count", 1)
    url = request.build_absolute_uri(request.path)

    def link(n):
        return None if not 1 <= n <= count else (url if n == 1 else f"{url}?page={n}")

    pieces = view.pieces()
    first, last = (pieces[0], pieces[-1]) if pieces else (None, None)
    return {
        "number": page, "count": count, "next": link(page + 1), "previous": link(page - 1),
        "starts_at": {"piece": first.position, "offset": getattr(first, "offset", 0)} if first else None,
        "ends_at": {"piece": last.position, "offset": getattr(last, "offset", 0) + len(last.text)} if last else None,
    }


class _OneChapter:
    """A chapter view holding only the sections given (for ``section_structure``)."""

    def __init__(self, chapter, sections):
        self.chapter, self.sections, self.heading_notes = chapter, sections, []
        self.printed_head, self.printed_end = [], []  # the juan payload's, not asked of a section
