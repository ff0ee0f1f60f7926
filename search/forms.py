"""Validation of search parameters, shared by the search page and the API."""
import unicodedata
from collections import Counter

from django import forms

from catalogue.catalogue import get_class
from config.converters import whole_number
from config.paging import PAGING, one_value_errors as paging_errors  # noqa: F401 (PAGING re-exported)
from reader.juan_labels import malformed_numeral
from reader.juans import matching_juans, named_parts, printed_groups
from reader.models import Chapter, Edition, Juan, Work
from reader.places import by_title

from .backends import SearchError, SearchQuery
from .backends.base import DEFAULT_CONTEXT, MAX_CONTEXT, MAX_QUERY_LENGTH, SORTS
from .collected import both, commentator_filter
from .facets import (PERSON_FILTERS, editions_for, facet_table, people_holding, typed_commentators,
                     unfaceted_writer_counts, unknown_dynasties, unknown_people,
                     unknown_dynasty_message, written_by_for)
from .query import CONTROL, canonical_query, control_character_message, invisible_only, invisible_query_message
from .documents import (LAYER_ALIASES, LAYER_GROUP_NAMES, LAYER_GROUPS, MAIN_LAYERS, LayerChoiceError,  # noqa: F401
                        split_layer_choices)
from .service import book_layer_names

#: The layer choices as the search page offers them (check boxes; none ticked: all), in
#: reading order, with their names (``search.documents.LAYER_GROUP_NAMES``). ``all`` and
#: ``notes`` (every layer of commentary) are accepted too.
LAYER_CHOICES = [(group, name) for group, name in LAYER_GROUP_NAMES.items() if group != "notes"]
assert [k for k, _ in LAYER_CHOICES] == [g for g in LAYER_GROUPS if g not in ("all", "notes")]
#: ``sort``: text order, relevance, and the concordance sorts (``search.backends.base.SORTS``).
SORT_CHOICES = [("text", "文序"), ("relevance", "相關度"), ("after", "後文（右）"), ("before", "前文（左，倒讀）")]
assert [k for k, _ in SORT_CHOICES] == list(SORTS)
TRUE_VALUES = {"on", "true", "1", "yes"}
FALSE_VALUES = {"", "off", "false", "0", "no"}


class StrictBooleanField(forms.Field):
    """A boolean parameter: on/true/1/yes or off/false/0/no/empty; anything else is an error."""

    def to_python(self, value):
        text = str(value or "").strip().lower()
        if text in TRUE_VALUES:
            return True
        if text in FALSE_VALUES:
            return False
        raise forms.ValidationError(f"請用 on/off (expected on, off, true, false, 1 or 0; got {value!r})")


class AsciiIntegerField(forms.IntegerField):
    """A whole number written in ASCII digits (spaces around it allowed), as ``page`` and
    ``page_size`` are read (``config.paging.page_number``): Django's ``IntegerField`` reads it
    with ``int()``, which also takes full-width and other Unicode digits (``１５``) and a sign
    (``+15``), no address writes them, and ``page=２`` was a 400 while ``context=１５`` was 15.
    Anything else is the field's ``invalid`` error."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 18:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class LayerField(forms.Field):
    """One or more layer choices (``layer_choice``): repeated
    (``layer=commentary&layer=subcommentary``), comma-separated (``layer=commentary,subcommentary``)
    or both. Cleans to the list of choices as given; ``[]`` means all."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.choices = LAYER_CHOICES

    def to_python(self, value):
        if value in (None, ""):
            return []
        values = [value] if isinstance(value, str) else list(value)
        names = [n.strip() for v in values for n in str(v).replace("，", ",").split(",") if n.strip()]
        try:
            layer_choice(names)
        except LayerChoiceError as exc:
            raise forms.ValidationError(str(exc)) from None
        return names


def layer_choice(names) -> tuple[frozenset, frozenset]:
    """``(layers, names)`` of the layer choices ``names`` (``search.documents.split_layer_choices``), a
    book's own name of a layer (章句) among the library's (``search.service.book_layer_names``), read only
    when a choice names none of the layers. Raises ``LayerChoiceError`` as it does."""
    try:
        return split_layer_choices(names)
    except LayerChoiceError:
        return split_layer_choices(names, book_layer_names())


def _shown(value: str) -> str:
    """``value`` without its format characters (Unicode Cf: U+200B, U+2060, U+FEFF, U+202E…) and
    without space at its ends. Variation selectors stay: a name may be stored with one."""
    return "".join(c for c in value if unicodedata.category(c) != "Cf").strip()


class ValuesField(forms.Field):
    """A filter that takes several values: repeated (``class=KR1d&class=KR2a``), comma-separated
    (``class=KR1d,KR2a``) or both. Cleans to the tuple of values as given, each once (``()``:
    no filter), without format characters (Unicode Cf: a zero-width space, word joiner or
    direction control pasted with ``卷一上`` is ``卷一上``, as the query reads it); at most ``MAX_VALUES`` of them, each at most ``max_length`` characters (50); more,
    or a longer one, is a ``ValidationError`` in Chinese and English."""

    widget = forms.SelectMultiple
    MAX_VALUES = 50

    def __init__(self, max_length: int = 50, **kwargs):
        super().__init__(**kwargs)
        self.max_length = max_length

    def to_python(self, value):
        if value in (None, ""):
            return ()
        values = [value] if isinstance(value, str) else list(value)
        names = tuple(dict.fromkeys(n for v in values for n in (_shown(n) for n in str(v).replace("，", ",").split(","))
                                    if n))
        if len(names) > self.MAX_VALUES or any(len(n) > self.max_length for n in names):
            raise forms.ValidationError(f"過多或過長的篩選值：至多 {self.MAX_VALUES} 個，每個至多 {self.max_length} 字 "
                                        f"(at most {self.MAX_VALUES} values of {self.max_length} characters each)")
        return names


class PlacesField(ValuesField):
    """A filter of the search form that names places or people, one value or several (``work``,
    ``edition``, ``juan``, ``commentator``): repeated (``work=KR2a0002&work=KR4h0002``),
    comma-separated (``juan=卷一,卷十``) or both, read as ``ValuesField`` reads them and meaning
    any of them (a union, as ``class``, ``dynasty`` and ``author`` do); at most ``MAX_VALUES``
    values, each at most ``max_length`` characters (a work's or edition's id or slug, a juan's
    label, a person's name)."""


class DynastyField(ValuesField):
    """Dynasties (``search.facets``' dynasty facet): a value that names no dynasty at all
    (``火星``) is an error naming the library's dynasties; a dynasty the library holds no writer
    of is kept (it finds nothing, and the answer says the filter emptied it)."""

    def to_python(self, value):
        values = super().to_python(value)
        unknown = unknown_dynasties(values)
        if unknown:
            raise forms.ValidationError(unknown_dynasty_message(unknown))
        return values


class ClassField(ValuesField):
    """Classes of Kanripo's catalogue (``catalogue``): 類 (``KR1d``) or 部 (``KR1``); an unknown
    code is an error naming it."""

    def to_python(self, value):
        codes = super().to_python(value)
        unknown = [c for c in codes if get_class(c) is None]
        if unknown:
            raise forms.ValidationError(f"沒有「{'、'.join(unknown)}」這一類 (not a class of the catalogue: "
                                        f"{', '.join(unknown)}; see /api/classes/)")
        return codes


def resolve_work(value: str) -> tuple[int, ...] | None:
    """The edition ids a ``work`` filter names (all the work's editions), or None when it
    names nothing. ``value`` is a work id, a work's slug, (as links made before editions
    existed do, issue 14) an id or slug that is now an edition's: that edition; else a work's
    title as the reading pages read one (``reader.places.by_title``: 前漢書, or 礼书纲目 for
    禮書綱目; every work so titled), never a part of a title (周禮 would name 周禮注疏 and 周禮訂義)."""
    number = whole_number(value)
    work = Work.objects.filter(pk=number).first() if number is not None else Work.objects.filter(slug=value).first()
    if work is not None:
        return tuple(Edition.objects.filter(work=work).order_by("id").values_list("pk", flat=True))
    if (edition := resolve_edition(value)) is not None or number is not None:
        return edition
    titled = by_title(value)
    if titled.works and not titled.part:
        return tuple(Edition.objects.filter(work__in=titled.works).order_by("id").values_list("pk", flat=True))
    return None


def resolve_edition(value: str) -> tuple[int, ...] | None:
    """``(edition id,)`` for an edition id or slug (KR1d0086-WYG), or None when no edition has it."""
    number = whole_number(value)
    edition = (Edition.objects.filter(pk=number) if number is not None else Edition.objects.filter(slug=value)).first()
    return (edition.pk,) if edition is not None else None


#: What the search says after a parameter that takes one value was given several
#: (``config.paging.ONE_VALUE_ONLY``): which of its parameters take several.
SEVERAL_TAKEN = ". The filters work, edition, juan, commentator, layer, class, dynasty and author take several"


def unknown_person_message(param: str, label: str, unknown: list[str]) -> str:
    """The error for the values ``unknown`` of the person filter ``param`` (``label`` as the pages
    call it: 注者, 作者) that name nobody the library holds (``search.facets.unknown_people``)."""
    return (f"沒有「{'」「'.join(unknown)}」這位{label} (no {param} {', '.join(map(repr, unknown))}: "
            f"no work held names a writer so)")


def authors_not_commentators(typed: str, names: list[str]) -> str:
    """What a ``commentator`` value that holds no note writer's name but the library's other ``names``
    (``search.facets.people_holding``: 屈 → 屈原, 楚辭's author) is told: they are searched by ``author``."""
    return (f"名中有「{typed}」者：{'、'.join(names)}，非注者；經文、記、標題之作者請以「作者」(author=) 篩選 "
            f"(names holding {typed!r}: {', '.join(names)}, who wrote no note held: filter by author=)")


def holding_message(param: str, label: str, typed: str, names: list[str]) -> str:
    """What the error for a person filter's value ``typed`` that names nobody offers: the ``names``
    that hold it (``search.facets.people_holding``: 玄 → 鄭玄)."""
    return f"名中有「{typed}」的{label}：{'、'.join(names)} ({param}s whose names hold {typed!r}: {', '.join(names)})"


def one_value_errors(data, names=None) -> dict[str, str]:
    """``{name: message}`` (``config.paging.one_value_errors``, ending in ``SEVERAL_TAKEN``) for
    each parameter of ``names`` (by default ``ONE_VALUED``, the parameters of ``SearchForm`` that
    take one value; the search's paging, ``PAGING``) that ``data`` (a ``QueryDict``) gives several
    different values of (the spellings of a query that parse the same, ``CANONICAL``, are one)."""
    return paging_errors(data, ONE_VALUED if names is None else names, CANONICAL, SEVERAL_TAKEN)


#: A commentator filter with only the main text's layers: a commentator writes notes, the main text has its author.
MAIN_TEXT_HAS_NO_COMMENTATOR = ("注者只見於注文；經文、記、標題之作者請以「作者」(author=) 篩選 (a commentator writes notes: "
                                "the main text, its records and titles have an author, filter them with author=)")


def _commentator(people: tuple[str, ...]) -> str | tuple[str, ...] | None:
    """``SearchQuery.commentator`` for the names a typed commentator stands for
    (``search.facets.typed_commentators``): None for none, the one name, or all of them."""
    return people[0] if len(people) == 1 else (people or None)


class SearchForm(forms.Form):
    """``q`` (1–200 characters, the query language of ``search.query``), ``layer``
    (one or more of classic, commentary, readings, subcommentary, editorial, smallprint,
    paratext, records, titles, notes, all; see ``LayerField``), ``exact`` (no variant folding), ``work`` (work id or slug: all
    its editions; an id or slug that is no longer a work's is taken as its edition's, issue 14),
    ``edition`` (edition id or slug),
    ``juan`` (the book's juan label: 卷十, 十, 10, 卷首上, 序; ``reader.juans``), ``chapter``
    (chapter id), ``commentator`` (who wrote the passages kept: 李善, 洪興祖; ``Piece.commentator``;
    any name the catalogue writes the person with, ``reader.printed_people``: 范甯 and 范寧 alike;
    劉昞 is not the catalogue's 劉炳 of 明; a spelling nobody is written with is the people whose
    names fold as it does: 衛湜 is 衞湜; else the people whose names begin with it, 鄭 → 鄭玄,
    as ``author`` reads a name: ``search.facets.typed_commentators``),
    ``context`` (KWIC width in
    characters, 0–200, default 15), ``sort`` (text/relevance/after/before); the facet filters
    ``class`` (classes of Kanripo's catalogue: 類 KR1d or 部 KR1), ``dynasty`` and ``author``, each
    with one value or several (``search.facets``; ``author`` keeps the passages its people wrote:
    their notes and the main text of their works, ``dynasty`` the passages whose writer is of
    that dynasty, ``search.facets.written_by_for``)."""

    q = forms.CharField(required=False, strip=True, max_length=MAX_QUERY_LENGTH,
                        error_messages={"max_length": f"檢索詞過長：最多 {MAX_QUERY_LENGTH} 字 (query too long)"})
    layer = LayerField(required=False)
    exact = StrictBooleanField(required=False)
    # Ids (bounded like the <num:…> path converter, config/converters.py) or slugs, one or several.
    work = PlacesField(required=False, max_length=100)
    edition = PlacesField(required=False, max_length=100)
    juan = PlacesField(required=False, max_length=50)
    chapter = AsciiIntegerField(required=False, min_value=1, max_value=999_999_999, error_messages={
        key: "chapter 須為篇的編號，即從 1 起的整數 (chapter must be a chapter id, a whole number from 1: see the "
             "chapters of /api/works/<id>/juans/<n>/)" for key in ("invalid", "min_value", "max_value")})
    commentator = PlacesField(required=False, max_length=40)
    context = AsciiIntegerField(required=False, min_value=0, max_value=MAX_CONTEXT, error_messages={
        key: f"context 須為 0 至 {MAX_CONTEXT} 的整數 (context must be a whole number of characters from 0 to "
             f"{MAX_CONTEXT}; the default is {DEFAULT_CONTEXT})" for key in ("invalid", "min_value", "max_value")})
    sort = forms.ChoiceField(choices=SORT_CHOICES, required=False, error_messages={"invalid_choice": (
        f"沒有「%(value)s」這種排序 (unknown sort '%(value)s'; choose from {', '.join(SORTS)})")})
    # ``class`` (a keyword in Python) is added to ``base_fields`` below the class.
    dynasty = DynastyField(required=False)
    author = ValuesField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: ``[{"parameter", "label", "typed", "names"}]``: for a person filter's value that names
        #: nobody, the names that hold it (``search.facets.people_holding``), found by ``clean``.
        self.people_holding: list[dict] = []

    def clean_q(self) -> str:
        """The query in its one spelling of those that parse the same (``canonical_query``:
        `` 鵠 `` and ``鵠␣␣`` are ``鵠``): the page cache keeps one answer for them all. A query
        of invisible characters only (U+200B, U+FEFF, U+200D …: ``search.query.invisible_only``)
        is empty, and an error saying so (it was searched and answered 「​」沒有可檢索的字). A
        control character is an error wherever it stands, a line end at either end too (the
        field strips those: ``q=%0A射`` was searched as 射)."""
        raw = self.data.get("q") or ""
        if bad := CONTROL.search(raw):  # before the field strips a line end at either end (q=%0A射)
            raise forms.ValidationError(control_character_message(raw, bad))
        if names := invisible_only(self.cleaned_data["q"]):
            raise forms.ValidationError(invisible_query_message(names))
        return canonical_query(self.cleaned_data["q"])

    def clean(self):
        """Resolve ``work`` and ``edition`` (ids or slugs) to ``edition_ids`` (None: every
        edition), and ``juan`` (a label as the book writes it) to ``juan_ids`` within them, and to
        ``chapter_ids`` where it names a printed 卷 of a file that holds several (``printed_chapters``).
        A work, edition or juan that names nothing is an error naming it (never a silent
        empty or unfiltered result)."""
        data = super().clean()
        data["juan_ids"] = data["chapter_ids"] = None
        ids = None
        for name, message in one_value_errors(self.data).items():
            self.add_error(name, message)
        if self.errors:
            return data
        if data.get("commentator") and data.get("layer"):
            layers, names = layer_choice(data["layer"])
            if not names and frozenset(layers) <= MAIN_LAYERS:
                self.add_error("commentator", MAIN_TEXT_HAS_NO_COMMENTATOR)
                return data
        if works := data.get("work"):
            found = {value: resolve_work(value) for value in works}
            if unknown := [value for value, editions in found.items() if editions is None]:
                names = "」「".join(unknown)
                self.add_error("work", f"沒有「{names}」這部書 (no work {', '.join(map(repr, unknown))}: see /api/works/)")
                return data
            ids = tuple(dict.fromkeys(i for editions in found.values() for i in editions))
        if editions := data.get("edition"):
            found = {value: resolve_edition(value) for value in editions}
            if unknown := [value for value, edition in found.items() if edition is None]:
                names = "」「".join(unknown)
                self.add_error("edition", f"沒有「{names}」這個版本 (no edition {', '.join(map(repr, unknown))}: "
                                          f"see the editions in /api/works/)")
                return data
            chosen = tuple(dict.fromkeys(i for edition in found.values() for i in edition))
            if ids is not None:
                ids = self._editions_within(data["work"], ids, found)
                if ids is None:
                    return data
            else:
                ids = chosen
        # a commentator or an author who names nobody is a 400 naming him, alone or among several
        # (alone it was a 200 that found nothing, among several the union dropped him silently), with
        # the people whose names hold him (玄: 鄭玄), as a work or juan that names nothing is
        for name, person in PERSON_FILTERS.items():
            if unknown := unknown_people(name, data.get(name) or ()):
                self.add_error(name, unknown_person_message(name, person.label, unknown))
                for typed in unknown:
                    if names := people_holding(typed, name):
                        self.people_holding.append({"parameter": name, "label": person.label, "typed": typed,
                                                    "names": names})
                        self.add_error(name, holding_message(name, person.label, typed, names))
                    elif name == "commentator" and (authors := people_holding(typed)):
                        self.add_error(name, authors_not_commentators(typed, authors))
        if self.errors:
            return data
        # The facets (search.facets) count the hits without their own filters: the editions
        # before the facet filters are kept for them.
        data["unfaceted_edition_ids"] = ids
        data["facet_filters"] = {"classes": data.get("class") or (), "dynasties": data.get("dynasty") or (),
                                 "authors": data.get("author") or ()}
        # the class filter is an edition filter; the author and dynasty filters keep the passages
        # their people wrote (search.facets.written_by_for, set below once the juans are known)
        faceted = editions_for(data["facet_filters"]["classes"])
        data["written_by"] = None
        if faceted is not None:
            kept = set(faceted)
            ids = tuple(i for i in ids if i in kept) if ids is not None else faceted
        data["edition_ids"] = ids
        if data.get("chapter") is not None:
            if not Chapter.objects.filter(pk=data["chapter"]).exists():
                self.add_error("chapter", f"沒有編號 {data['chapter']} 的篇 (no chapter {data['chapter']}: a juan's "
                                          f"chapter ids are in /api/works/<id>/juans/<n>/)")
        if labels := data.get("juan"):
            juans = list(Juan.objects.only("id", "label", "number", "work_id").order_by("work_id", "number")
                         .filter(**({"edition_id__in": ids} if ids is not None else {})))
            found = {label: matching_juans(label, juans) for label in labels}
            # a numeral no book writes (卷十十) names no juan, not the one it adds up to (卷二十),
            # unless a juan is labelled so as written
            found.update({label: [j for j in named if label in ((j.label or "").strip(), *(j.label or "").split("・"))]
                          for label, named in found.items() if malformed_numeral(label)})
            if malformed := [label for label, named in found.items() if not named and malformed_numeral(label)]:
                names = "」「".join(malformed)
                self.add_error("juan", f"卷名「{names}」的數字寫法不通 (juan label {', '.join(map(repr, malformed))}: "
                                       f"not a Chinese numeral as a book writes one, such as 卷十, 卷二十, 卷一百〇五)")
                return data
            if missing := [label for label, named in found.items() if not named]:
                names = "」「".join(missing)
                where = (' in this edition' if data.get('edition') else ' in this work' if data.get('work') else '')
                self.add_error("juan", f"沒有「{names}」這一卷 (no juan labelled {', '.join(map(repr, missing))}{where})")
            data["juan_ids"] = frozenset(j.pk for named in found.values() for j in named)
            data["chapter_ids"] = printed_chapters({label: found[label] for label in labels})
        if not self.errors:
            data["written_by"] = self._written_by(data)
        return data

    def _editions_within(self, works, ids, found):
        """The editions ``work`` and ``edition`` together name: each work's editions, narrowed to
        the chosen ones of it where ``edition`` names any (``work=A&work=B&edition=<one of A's>``:
        that edition of A, and all of B); None, with the error added, when a chosen edition is of
        none of the works."""
        kept = set(ids)
        if stray := [value for value, edition in found.items() if not set(edition) & kept]:
            names, work_names = "」「".join(stray), "」「".join(works)
            self.add_error("edition", f"「{names}」不是「{work_names}」的版本 (edition {', '.join(map(repr, stray))} "
                                      f"is not an edition of work {', '.join(map(repr, works))})")
            return None
        chosen = {i for edition in found.values() for i in edition}
        work_of = dict(Edition.objects.filter(pk__in=ids).values_list("pk", "work_id"))
        narrowed = {work_of[i] for i in chosen}
        return tuple(i for i in ids if i in chosen or work_of[i] not in narrowed)

    def _written_by(self, data):
        """The author and dynasty filters' ``WrittenBy`` (``search.facets.written_by_for``): a
        dynasty filter names the commentators of its dynasties that the search without the
        facet filters finds (``unfaceted_writer_counts``, kept per query: the facets count from
        the same search); none for an empty or unparsable query (its error is the search's)."""
        filters = data["facet_filters"]
        per_writer = Counter()
        if filters["dynasties"] and data.get("q"):
            try:
                per_writer = unfaceted_writer_counts(self.search_query(unfaceted=True))
            except SearchError:
                pass
        return written_by_for(filters["authors"], filters["dynasties"], per_writer)

    def facets_filtered(self) -> bool:
        """Whether a facet filter (``class``, ``dynasty``, ``author``) narrows the search."""
        return any(self.cleaned_data.get("facet_filters", {}).values())

    def search_query(self, unfaceted: bool = False):
        """The ``SearchQuery`` for the cleaned data, or None for an empty query; ``unfaceted``:
        without the facet filters (what ``search.facets.facet_counts`` counts from)."""
        data = self.cleaned_data
        if not data.get("q"):
            return None
        people = tuple(dict.fromkeys(p for typed in data.get("commentator") or () for p in typed_commentators(typed)))
        # a collector's name keeps the quoted men's parts of his collection too (decision 0058)
        collected = commentator_filter(people, facet_table()) if people else None
        layers, layer_names = layer_choice(data.get("layer"))
        if people:  # a commentator's notes alone: the main text's writer is its author (decision 0106)
            layers = frozenset(layers) - MAIN_LAYERS
        return SearchQuery(
            text=data["q"], layers=layers, layer_names=layer_names, exact=bool(data.get("exact")),
            edition_ids=data.get("unfaceted_edition_ids" if unfaceted else "edition_ids"),
            juan_ids=data.get("juan_ids"), chapter_ids=data.get("chapter_ids"), chapter_id=data.get("chapter"),
            commentator=None if collected is not None else _commentator(people),
            written_by=both(None if unfaceted else data.get("written_by"), collected),
            sort=data.get("sort") or "text",
            context=DEFAULT_CONTEXT if data.get("context") is None else data["context"],
        )


def printed_chapters(found: dict) -> frozenset | None:
    """The chapters the juan filter keeps where a typed label names some of the printed 卷 of a file that
    holds several (``found``: ``{typed label: the juans it names}``; ``reader.juans.named_parts``,
    ``printed_groups``): 孟子注疏's 卷一上 keeps the chapters of 卷一上 in KR1h0003_001 (卷一上・卷一下),
    not those of 卷一下, as its hits are labelled; with it, every chapter of each other juan named. None
    (no chapter filter) where every label names whole juans, or a file whose chapters record no printed
    卷 (序・目錄: 目錄 names the file)."""
    named = {}  # juan id -> the parts of its label named
    for label, juans in found.items():
        for juan in juans:
            named.setdefault(juan.pk, set()).update(named_parts(label, juan))
    parted = {juan.pk: juan for juans in found.values() for juan in juans
              if len(named[juan.pk]) < len(juan.label.split("・"))}
    if not parted:
        return None
    chapters = {}
    for chapter in Chapter.objects.filter(juan_id__in=named).order_by("juan_id", "position") \
            .only("pk", "juan_id", "printed_juan"):
        chapters.setdefault(chapter.juan_id, []).append(chapter)
    kept = set()
    for juan_id, members in chapters.items():
        groups = printed_groups(members) if juan_id in parted else []
        kept.update(c.pk for part, group in groups or [("", members)]
                    if not groups or part in named[juan_id] for c in group)
    return frozenset(kept)


class _SharedFields(dict):
    """``SearchForm.base_fields``, which each form takes as they are rather than a deep copy.
    Django deep-copies a form's fields for every instance so that one form may change its
    own (``copy.deepcopy(self.base_fields)`` in ``BaseForm.__init__``); ``SearchForm``
    never changes a field or widget, only validates with them, and the copy of its nine
    fields and their widgets was 0.15 to 0.3 ms of every search and API search request.
    Each form still gets its own dict of them."""

    def __deepcopy__(self, memo):
        return dict(self)


SearchForm.base_fields["class"] = ClassField(required=False)
SearchForm.base_fields = _SharedFields(SearchForm.base_fields)
#: The search form's parameters, for the views that read it (``cached_page(reads=…)``) …
SEARCH_PARAMETERS = frozenset(SearchForm.base_fields)
#: … and those of them it reads every value of (a widget of several values: ``getlist``): the
#: layers and the facet filters (``cached_page(many=…)``).
MANY_VALUED = frozenset(name for name, field in SearchForm.base_fields.items()
                         if getattr(field.widget, "allow_multiple_selected", False))
#: … and the others, which take one value: several different ones are a 400 (``one_value_errors``),
#: an answer never tidied nor kept (``cached_page(one=…)``).
ONE_VALUED = SEARCH_PARAMETERS - MANY_VALUED
#: … and the one spelling of the values read alike (``cached_page(canonical=…)``): the query's.
CANONICAL = {"q": canonical_query}
