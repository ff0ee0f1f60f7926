"""Works, juans, chapters, sections and their ordered pieces (main text, notes, records).

Every character is stored exactly as imported; folding for search happens only in the
search index. ``reader.importers.loader.render_source(juan)`` writes a juan back in its
source form (this module never imports the loader or the search package).

Longer than 600 lines: Django reads an app's models from one module, and these are the texts
layer's (work, edition, juan, chapter, section, piece and their querysets), each kept with its rule.
"""
from __future__ import annotations

import re

from django.db import models, transaction
from django.db.models import Count, F, Q
from django.urls import reverse

from catalogue.catalogue import CatalogueClass, bu_of, class_of, entry, get_class, validate_class_code
from characters.simplified import SCRIPT_CHOICES, TRADITIONAL

from reader.editions import edition_name, reading_edition
from reader.juan_labels import short_label, shown_label
from reader.people import people_text
from reader.shelving import decided_shu
from reader.pieces import (CLASSIC, DEFAULT_BASIS, DEFAULT_LAYER, LABEL, LAYER_BASES, LAYER_NAMES, LAYERS, LAYOUT,
                           MARKED, NOTE, NOTE_KINDS, NOTE_LAYERS, PIECE_KINDS, RECORD, RECORD_NOTE, REFERENCE, TEXT,
                           is_classic)
from reader.slugs import validate_slug

PIECE_KIND_CHOICES = [
    (TEXT, "main text"),
    (NOTE, "note"),
    (LABEL, "label"),
    (RECORD, "record"),
    (RECORD_NOTE, "record note"),
]
assert {k for k, _ in PIECE_KIND_CHOICES} == set(PIECE_KINDS)

#: Commentary layers (``reader.pieces.LAYERS``) with their usual Chinese names (``reader.pieces.LAYER_NAMES``).
LAYER_CHOICES = [(layer, LAYER_NAMES[layer]) for layer in LAYERS]

#: How an importer decided a piece's layer (``reader.importers.document.LAYER_BASES``).
LAYER_BASIS_CHOICES = [
    (MARKED, "marked by the book"),
    (REFERENCE, "inferred from a reference text"),
    (LAYOUT, "inferred from layout"),
    (DEFAULT_BASIS, "default (book order kept)"),
]
assert [k for k, _ in LAYER_BASIS_CHOICES] == list(LAYER_BASES)


def page_label(page_id: str) -> str:
    """The page as readers cite it: ``KR1d0086_WYG_012-1a`` → ``12-1a`` (juan 12, leaf 1,
    side a, Kanripo's page ids), "" for ""."""
    label = page_id.rsplit("_", 1)[-1] if page_id else ""
    return re.sub(r"^0+(?=\d)", "", label)


class WorkQuerySet(models.QuerySet):
    """``Work.objects``: querysets of works."""

    def with_editions(self) -> "WorkQuerySet":
        """The works with their editions prefetched (``editions_with_juan_counts``): what
        ``Work.reading_edition_id`` chooses the edition a work opens on from, with no query per
        work (the catalogue, a work's page, the API's lists)."""
        return self.prefetch_related(editions_with_juan_counts())

    def with_juan_labels(self) -> "WorkQuerySet":
        """``with_editions``, each edition with its juans' numbers and labels (``labelled_juans``, one query
        for all): what ``reader.juans.juan_count`` counts the book's 卷 from (the API's ``book_juan_count``)."""
        return self.with_editions().prefetch_related(models.Prefetch(
            "editions__juans", queryset=Juan.objects.only("id", "edition_id", "label", "number").order_by(),
            to_attr="labelled_juans"))

    def in_shelf_order(self) -> "WorkQuerySet":
        """The works in their shelf's order (``catalogue.catalogue.shelf_key``): Kanripo ID, the
        works without one after those with one, then title and id."""
        return self.order_by(models.Case(models.When(kanripo_id="", then=1), default=0), "kanripo_id", "title", "id")


def stored_shu(codes=None) -> dict[str, set[str]]:
    """``{class code: {屬 given to its works}}`` (``Work.shu`` as stored, "" left out) for every
    class, or the classes ``codes``; one query. What ``reader.shelving.decided_shu`` reads a
    title's 屬 among when it is given only some works of a class."""
    works = Work.objects.exclude(shu="")
    if codes is not None:
        works = works.filter(classification__in=list(codes))
    found: dict[str, set[str]] = {}
    for code, shu in works.values_list("classification", "shu").distinct():
        found.setdefault(code, set()).add(shu)
    return found


def editions_with_juan_counts() -> models.Prefetch:
    """A work's editions, oldest first, each with ``juan_count`` (its juans, files as imported):
    the prefetch ``Work.reading_edition_id`` reads (``WorkQuerySet.with_editions``, or
    ``prefetch_related_objects([work], editions_with_juan_counts())`` for a work already loaded)."""
    return models.Prefetch("editions", queryset=Edition.objects.annotate(juan_count=Count("juans")).order_by("id"))


class Work(models.Model):
    """A work (書), e.g. 禮書綱目 by 江永: what its editions have in common. ``slug`` is the
    work's URL key (its title, or its Kanripo ID, by default). The text itself belongs to
    the work's editions (``Edition``), each with its own juans.
    The slug follows the one slug rule (``reader.slugs``): ``save()`` refuses any other."""

    title = models.CharField(max_length=200)
    other_titles = models.TextField(blank=True, default="", help_text="other titles the sources give the work, "
                                    "one a line (a Kanripo Readme.org's: 老子道德經 for 道德真經注)")
    author = models.CharField(max_length=100, blank=True)
    native_place = models.CharField(max_length=100, blank=True)
    dynasty = models.CharField(max_length=20, blank=True)
    collection = models.CharField(max_length=100, blank=True)
    slug = models.CharField(max_length=250, unique=True, validators=[validate_slug],
                            help_text="URL key: letters, digits, '-' and '_' (e.g. 禮書綱目, KR1d0086)")
    #: Kanripo text ID (KR1d0086) for works that have a Kanripo edition; the editions of
    #: one Kanripo ID are one work.
    kanripo_id = models.CharField(max_length=40, blank=True)
    #: The work's class in Kanripo's catalogue (``catalogue``): a 類 such as ``KR1d`` (禮類), or a
    #: 部 such as ``KR1`` when only that is known; "" when unclassified. Set from the Kanripo
    #: ID when the work has one (``save``), by ``import_texts --class`` or in the admin.
    classification = models.CharField(max_length=8, blank=True, db_index=True, validators=[validate_class_code],
                                      help_text="class in Kanripo's catalogue: a 類 (KR1d 禮類) or a 部 (KR1 經部)")
    #: The 屬 (a group inside the 類: 周禮之屬) where the catalogue or the admin gives one.
    shu = models.CharField(max_length=50, blank=True, verbose_name="屬",
                           help_text="group inside the class (屬), e.g. 周禮之屬")

    objects = WorkQuerySet.as_manager()

    class Meta:
        ordering = ["title", "id"]
        constraints = [models.UniqueConstraint(fields=["title", "author"], condition=models.Q(kanripo_id=""),
                                               name="unique_work_title_author")]

    def __str__(self):
        return f"{self.title}（{self.author}）" if self.author else self.title

    def save(self, *args, **kwargs):
        """Save; raises ``django.core.exceptions.ValidationError`` for a slug that breaks the
        rule, whatever wrote it (an importer, the admin, a script)."""
        validate_slug(self.slug)
        if self.pk is None and self.catalogue_dynasty:
            # a new work the catalogue lists: its author's dynasty as the catalogue gives it, not
            # the one a juan's byline prints (北齊書's 「隋太子通事舎人李百藥」 wrote it under the 唐)
            self.dynasty = self.catalogue_dynasty
        if not self.classification and self.kanripo_id:
            # Kanripo's IDs carry their class (KR1d0086 → KR1d): a work with one is classified.
            self.classification = class_of(self.kanripo_id)
            listed = entry(self.kanripo_id)
            self.shu = self.shu or (listed.shu if listed else "")
            if self.classification and kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = [*kwargs["update_fields"], "classification", "shu"]
        validate_class_code(self.classification)
        super().save(*args, **kwargs)

    @property
    def catalogue_class(self) -> CatalogueClass | None:
        """The work's class in Kanripo's catalogue (``catalogue``), None when unclassified."""
        return get_class(self.classification) if self.classification else None

    @property
    def shelf_shu(self) -> str:
        """The 屬 the work is shelved under (``reader.shelving``): ``shu``, else the one its title
        names among its class's (周禮注疏 → 周禮之屬 once a work of 禮類 has a 屬); "" for none.
        One query (the 屬 given in its class) unless ``shu`` is set or it is unclassified."""
        if self.shu or not self.classification:
            return self.shu
        return decided_shu([self], stored_shu([self.classification]))[self.pk]

    @property
    def catalogue_bu(self) -> CatalogueClass | None:
        """The 部 of the work's class (經部 for KR1d), None when unclassified."""
        return get_class(bu_of(self.classification)) if self.classification else None

    @property
    def catalogue_dynasty(self) -> str:
        """The dynasty Kanripo's catalogue gives the work's author (北齊書: 唐, of 李百藥), "" for a
        work it does not list or lists without one. A listed work's ``dynasty`` is this one
        (``save``, ``reader.importers.loader``), whatever office a byline prints."""
        listed = entry(self.kanripo_id) if self.kanripo_id else None
        return listed.dynasty if listed else ""

    @property
    def catalogue_byline(self) -> str:
        """The people Kanripo's catalogue lists for the work, each as ``〔周〕韓非撰``, joined by
        ``　`` (the catalogue's order: author first, then commentators); "" for a work it does
        not list (the catalogue pages then show ``byline``, from the text)."""
        listed = entry(self.kanripo_id) if self.kanripo_id else None
        if listed is None:
            return ""
        return people_text([{"dynasty": p.dynasty, "name": p.name, "role": p.role} for p in listed.people])

    @property
    def name(self) -> str:
        """The title as lists show it (the editions are named apart by ``Edition.name``)."""
        return self.title

    def default_edition(self):
        """The edition the work's own key stands for, on every page and in the API: the edition
        whose slug is the work's (a key names the text it named before editions existed: the
        seed's 禮書綱目 names the seed's text, and KR1d0086 Kanripo's), else the work's reading
        edition (``reading_edition``: a work whose first edition was removed). The one rule for
        ``/works/<slug>/`` and every address under it (``reader.places.edition_by_slug``) and
        for ``/api/works/<id>/…``; the work's link in lists (``get_absolute_url``) leads to its
        reading edition's key instead. None when the work has no edition."""
        own = self.editions.select_related("work").filter(slug=self.slug).first()
        return own if own is not None else self.reading_edition()

    def reading_edition_id(self) -> int | None:
        """The id of the edition the work's link opens (``reader.editions.reading_edition``:
        the fullest, then Kanripo's base text); None when the work has none. Chosen here alone,
        and kept on the instance: one query, or none when the work's editions are prefetched and
        one, or prefetched with their ``juan_count`` (``Work.objects.with_editions()``,
        ``editions_with_juan_counts``: the catalogue, a work's page, the API)."""
        return self._reading_edition()[0]

    def _reading_edition(self) -> tuple[int | None, str]:
        """``(id, slug)`` of the reading edition (``reading_edition_id``), chosen once."""
        if not hasattr(self, "_reading_edition_id"):
            prefetched = getattr(self, "_prefetched_objects_cache", {}).get("editions")
            if prefetched is not None and len(prefetched) < 2:  # one edition (or none): no query
                rows = [(e.pk, 1, e.kanripo_id, e.slug) for e in prefetched]
            elif prefetched is not None and all(hasattr(e, "juan_count") for e in prefetched):  # counted (API)
                rows = [(e.pk, e.juan_count, e.kanripo_id, e.slug) for e in prefetched]
            else:
                rows = list(self.editions.annotate(n=Count("juans")).values_list("id", "n", "kanripo_id", "slug"))
            self._reading_edition_id = reading_edition(rows)
            self._reading_edition_slug = next((slug for pk, _, _, slug in rows if pk == self._reading_edition_id), "")
            self._edition_count = len(rows)
        return self._reading_edition_id, self._reading_edition_slug

    def know_editions(self, rows: list[tuple[int, int, str, str]]) -> None:
        """Choose the reading edition (``reading_edition_id``) from ``rows``, the work's editions
        as ``(id, juans, kanripo_id, slug)`` read with something else (a juan page reads them from
        the work's juans, which also say where 校勘 is offered), so that ``reading_edition_id``,
        ``edition_count`` and the work's link ask no query."""
        self._reading_edition_id = reading_edition(rows)
        self._reading_edition_slug = next((slug for pk, _, _, slug in rows if pk == self._reading_edition_id), "")
        self._edition_count = len(rows)

    def edition_count(self) -> int:
        """How many editions the work has, counted with the reading edition's query
        (``reading_edition_id``), so that a page asking both (a juan page: whether to offer
        校勘, and the work's link) asks the database once."""
        self._reading_edition()
        return self._edition_count

    def reading_edition(self):
        """The edition the work's link opens (``reading_edition_id``), None when it has none."""
        pk = self.reading_edition_id()
        return self.editions.select_related("work").filter(pk=pk).first() if pk else None

    def get_absolute_url(self):
        """The work's link in the catalogue and lists: a work of several editions its own page
        above them (``/works/<work>/editions/``, which lists them, so that a reader sees there
        are several before choosing one), a work of one edition that edition's page
        (``reading_url``). No query when the editions are prefetched (``Work.objects.with_editions()``),
        else one (``reading_edition_id``'s)."""
        if self.edition_count() > 1:
            return reverse("reader:editions", args=[self.slug])
        return self.reading_url()

    def reading_url(self) -> str:
        """The page of the edition a reader opens the work in: its reading edition's
        (``reading_edition_id``: ``/works/KR1d0086/`` for 禮書綱目 once Kanripo's 91 juans are
        imported beside the seed's one), its own key when it has no edition (the API's
        ``reading_url``). Queries as ``get_absolute_url``."""
        slug = self._reading_edition()[1]
        return reverse("reader:work", args=[slug or self.slug])


class Edition(models.Model):
    """One edition (witness, 版本) of a work, with its own juans: the seed's 四庫全書 text
    of 禮書綱目, Kanripo's normalised KR1d0086 or its WYG copy KR1d0086-WYG.

    ``slug`` is the edition's URL key (``/works/<slug>/juan/<n>/``): the Kanripo folder
    (``KR1d0086-WYG``), or the title (``禮書綱目``) for other sources, as works had before
    editions existed, so old URLs keep working; it follows the one slug rule
    (``reader.slugs``), which ``save()`` enforces. ``label`` is the name given with
    ``import_texts --edition`` (or the Kanripo folder); ``kanripo_edition`` is the
    ``#+PROPERTY: EDITION`` of a Kanripo file (WYG, SBCK, tls)."""

    work = models.ForeignKey(Work, on_delete=models.CASCADE, related_name="editions")
    slug = models.CharField(max_length=250, unique=True, validators=[validate_slug],
                            help_text="URL key: letters, digits, '-' and '_' (e.g. KR1d0086-WYG, 禮書綱目)")
    label = models.CharField(max_length=100, blank=True)
    kanripo_id = models.CharField(max_length=40, blank=True)
    kanripo_edition = models.CharField(max_length=40, blank=True)
    collection = models.CharField(max_length=100, blank=True)
    #: Everyone the edition's byline names, each with his dynasty, native place and role, in
    #: the book's order: ``[{"dynasty": "漢", "place": "", "name": "鄭氏", "role": "注"}, …]``
    #: (``JuanDocument.bylines``, from the first juan that has a byline); [] when none.
    byline = models.JSONField(default=list, blank=True)
    #: The script the edition is written in (``characters.simplified``: traditional,
    #: simplified or mixed): detected at import from the characters its juans use
    #: (``Juan.simplified_forms``/``traditional_forms``), unless ``script_given`` (set by
    #: ``import_texts --script`` or the admin). Search reads an ambiguous simplified form
    #: (后, 于, 当) of a simplified or mixed edition as every character it may stand for.
    script = models.CharField(max_length=12, choices=SCRIPT_CHOICES, default=TRADITIONAL)
    script_given = models.BooleanField(default=False, help_text="the script was given (import option or "
                                       "admin), not detected: imports leave it alone")

    class Meta:
        ordering = ["work", "id"]

    def __str__(self):
        return f"{self.work.title}（{self.name}）"

    def save(self, *args, **kwargs):
        """Save; raises ``django.core.exceptions.ValidationError`` for a slug that breaks the
        one slug rule (``reader.slugs``), as ``Work.save`` does."""
        validate_slug(self.slug)
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        """How the edition is named in words and told apart from its siblings
        (``reader.editions.edition_name``): ``四庫全書・文淵閣本`` (KR1d0086),
        ``四庫全書・文淵閣本・原字`` (KR1d0086-WYG), ``四部叢刊本``, a name given with
        ``import_texts --edition``, else the collection with ・純文字本 (``欽定四庫全書・純文字本``) or the slug;
        a plain-text copy in simplified characters says so (``簡體純文字本``)."""
        return edition_name(slug=self.slug, label=self.label, kanripo_id=self.kanripo_id,
                            kanripo_edition=self.kanripo_edition, collection=self.collection, script=self.script)

    @property
    def cited_name(self) -> str:
        """The name citations, hit places, parallels and page titles give after the work's title:
        ``name`` for a named or Kanripo edition (``四庫全書・文淵閣本``) and for any edition of a
        work of several (the seed beside KR1d0086: ``欽定四庫全書・純文字本``), so that no two
        editions of a work are cited alike; "" for the only edition of a work from another
        source (the seed alone, ``江永《禮書綱目》卷十…``). One query for ``siblings`` unless
        ``count_siblings`` or an annotation set it."""
        return self.name if self.label or self.kanripo_id or self.several else ""

    @property
    def several(self) -> bool:
        """True when the edition's work has other editions: ``siblings`` (the work's count of
        editions), read once per object (``count_siblings`` sets it for many in one query)."""
        if getattr(self, "siblings", None) is None:
            self.siblings = Edition.objects.filter(work_id=self.work_id).count()
        return self.siblings > 1

    @property
    def unannotated(self) -> bool:
        """True when the edition holds text and no note (no ``Piece`` of ``NOTE_KINDS`` and none of
        ``NOTE_LAYERS``, the commentary a book prints at full size, in any of its juans): a 白文 edition, as the TLS 史記 (KR2a0001), whose people are its text's makers alone
        (``reader.people.work_people``), never the commentators the catalogue lists for the work.
        False for an edition with notes or with no text at all. Read once per object (at most two
        queries, each stopping at the first row: an annotated edition answers with the first), or
        ``unannotated_known`` where the caller set it (a reading page whose juan holds notes: False)."""
        if getattr(self, "unannotated_known", None) is None:
            pieces = Piece.objects.filter(section__juan__edition_id=self.pk)
            self.unannotated_known = (self.pk is not None and not pieces.filter(Q(kind__in=NOTE_KINDS) | Q(layer__in=NOTE_LAYERS)).exists()
                                      and pieces.exists())
        return self.unannotated_known

    @property
    def full_name(self) -> str:
        """Work title and edition name (``name``, in words): ``禮書綱目（四庫全書・文淵閣本・原字）``."""
        return f"{self.work.title}（{self.name}）"

    def get_absolute_url(self):
        """``/works/<slug>/``: every edition's key names it (``reader.places.edition_by_slug``),
        the seed's 禮書綱目 too, whatever edition the work's link opens (``Work.get_absolute_url``)."""
        return reverse("reader:work", args=[self.slug])



def count_siblings(editions) -> None:
    """Set ``siblings`` (``Edition.several``) on each of ``editions`` (``Edition`` objects, a
    repeated one too) with one query for them all, so that a list naming their editions
    (``cited_name``: parallels, the quotation map) asks no query per row."""
    editions = list(editions)
    works = {e.work_id for e in editions}
    if not works:
        return
    counts = dict(Edition.objects.filter(work_id__in=works).order_by().values("work_id")
                  .annotate(n=Count("id")).values_list("work_id", "n"))
    for e in editions:
        e.siblings = counts.get(e.work_id, 0)


class Juan(models.Model):
    """One juan (卷) of a work, imported from one file; replaced whole on re-import.

    ``header``/``trailer`` keep the raw lines before the first chapter and after the last
    section; ``newline``, ``bom`` and ``final_newline`` are file formatting kept for
    writing the file back; ``sha256`` is the digest of the imported bytes.
    """

    #: The work, always ``edition.work`` (kept on the juan so that queries by work stay one join).
    work = models.ForeignKey(Work, on_delete=models.CASCADE, related_name="juans")
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="juans")
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=300, blank=True)  # 86 for KR1e0004_000: reader/0016
    header = models.TextField(blank=True)
    trailer = models.TextField(blank=True)
    newline = models.CharField(max_length=2, default="\n")
    bom = models.BooleanField(default=False)
    final_newline = models.BooleanField(default=False)
    source_name = models.CharField(max_length=255, blank=True)
    source_format = models.CharField(max_length=20, default="siku")
    sha256 = models.CharField(max_length=64, blank=True)
    imported_at = models.DateTimeField(auto_now=True)
    #: The juan's version: a new value from ``LibraryVersion`` on every write of the juan or of
    #: anything in it (import, admin edit), in the same transaction. The search index tags
    #: every passage with it and ignores passages of versions that are not current.
    version = models.BigIntegerField(default=0, editable=False)
    #: Occurrences of simplified-only forms and of the traditional characters they replace in
    #: the juan's text (``characters.simplified.count_script``): the edition's script is
    #: detected from their sums.
    simplified_forms = models.PositiveIntegerField(default=0, editable=False)
    traditional_forms = models.PositiveIntegerField(default=0, editable=False)
    #: Characters of the juan's text (``reader.counting.character_count`` of its pieces' texts:
    #: units as search reads them, a gaiji, a lost ``?`` and a description one each, punctuation
    #: none), written at import: what the catalogue pages sum per edition and work.
    char_count = models.PositiveIntegerField(default=0, editable=False)
    #: The file holds its notes' printed columns in reverse reading order (the left column
    #: first, 四部叢刊 transcriptions), decided at import from the columns' lengths
    #: (``mandoku.column_order.columns_reversed``): pages, index and exports read each note's
    #: parts in reading order (``column_order.in_reading_order``).
    columns_reversed = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["edition", "number"]
        constraints = [models.UniqueConstraint(fields=["edition", "number"], name="unique_juan_number_in_edition")]

    def __str__(self):
        return f"{self.work.title} {self.display_label}"

    @property
    def display_label(self) -> str:
        """``卷十`` as written in the source, a file of several printed 卷 of one juan by their range
        (``reader.juan_labels.short_label``: ``卷二十八上至卷二十八下``, decision 0089); when the file had no
        title line, the number written as citations write it (``reader.citation.juan_label``: ``卷二``,
        not ``卷 2``)."""
        return shown_label(self.label, self.number)

    @property
    def api_label(self) -> str:
        """The juan's ``label`` in every JSON payload (a juan's, a section's and a hit's juan, an edition's list,
        parallels, collations): ``display_label`` but "" for a file without a title line (a client tells it
        apart so, and has the ``number``). A file of several printed 卷 of one juan is named by their range
        (``卷九十九上至卷九十九下``, decision 0089) in each, as on the pages: the stored
        ``卷九十九上・卷九十九中・卷九十九下`` (``label``) is what the file writes back, never a name."""
        return short_label(self.label)

    def get_absolute_url(self):
        return reverse("reader:juan", args=[self.edition.slug, self.number])


def bump_juan_versions(juan_ids) -> int:
    """Give each juan of ``juan_ids`` a new version (one new ``LibraryVersion`` value) in the
    current transaction; returns that value. Juans that no longer exist are skipped."""
    juan_ids = [j for j in juan_ids if j is not None]
    value = LibraryVersion.next()
    if juan_ids:
        Juan.objects.filter(pk__in=juan_ids).update(version=value)
    return value


class LibraryVersion(models.Model):
    """One row: a counter that only grows. ``next()`` draws juan versions from it, so a juan
    written later always has a higher version than any earlier one (across processes and
    servers sharing the database: the row is locked until the writing transaction ends)."""

    value = models.BigIntegerField(default=0)

    @classmethod
    def next(cls) -> int:
        """A new value, larger than every value drawn before (call inside a transaction)."""
        with transaction.atomic():  # the row stays locked until the value is read
            if not cls.objects.filter(pk=1).update(value=F("value") + 1):
                cls.objects.get_or_create(pk=1)  # made by the migration; gone after a flush
                cls.objects.filter(pk=1).update(value=F("value") + 1)
            return cls.objects.values_list("value", flat=True).get(pk=1)


class Chapter(models.Model):
    """A chapter (篇) of a juan, e.g. 大射儀 in the category 嘉禮十五."""

    juan = models.ForeignKey(Juan, on_delete=models.CASCADE, related_name="chapters")
    position = models.PositiveIntegerField()
    title = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=200, blank=True)
    heading = models.TextField(null=True, blank=True)
    #: Source layout of the heading line (mandoku): ``[[offset, raw], ...]``.
    heading_layout = models.JSONField(default=list, blank=True)
    #: The printed 卷 the chapter falls in when its juan's file holds several (世説新語 KR3l0002_002:
    #: 卷中之上, 卷下之上, 卷下之下; ``importers.mandoku.printed_juans``, decision 0062); "" otherwise.
    printed_juan = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["juan", "position"]
        constraints = [models.UniqueConstraint(fields=["juan", "position"], name="unique_chapter_position")]

    def __str__(self):
        return self.title or f"({self.position})"


class Section(models.Model):
    """A section closed by a ``右…`` line. Identified by ``position`` in its juan (1-based):
    titles repeat (取矢視算 twice in 卷十), positions never do."""

    juan = models.ForeignKey(Juan, on_delete=models.CASCADE, related_name="sections")
    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="sections")
    position = models.PositiveIntegerField()
    title = models.CharField(max_length=500, blank=True)
    closer = models.TextField(null=True, blank=True)
    record_separator = models.CharField(max_length=10, blank=True)
    paragraph_count = models.PositiveIntegerField(default=0)
    blank_lines_after = models.PositiveIntegerField(default=0)
    line = models.PositiveIntegerField(default=0)
    #: Source layout of the closer line (mandoku): ``[[offset, raw], ...]``.
    closer_layout = models.JSONField(default=list, blank=True)
    #: The printed page the section starts on (``KR1d0086_WYG_012-2a``), for citations;
    #: "" when the source has no page breaks.
    page = models.CharField(max_length=80, blank=True)
    #: The people the author's line under the section's title names (an anthology's piece:
    #: 文選 兩都賦 ``班孟堅``; 離騷 ``屈平`` and ``王逸注``), each as the edition's byline gives
    #: them (``Edition.byline``): ``[{"dynasty": "", "place": "", "name": "屈平", "role": ""},
    #: {… "name": "王逸", "role": "注"}]`` (``SectionDoc.bylines``); [] when none. Metadata: the
    #: line stays in the pieces (``reader.people.byline_pieces`` finds it), not searched as text.
    bylines = models.JSONField(default=list, blank=True)

    @property
    def page_label(self) -> str:
        """``12-2a`` from ``KR1d0086_WYG_012-2a`` (Kanripo's juan-page-side), or ""."""
        return page_label(self.page)

    def save(self, *args, **kwargs):
        if getattr(self, "overlaid", False):  # a corrected title (``reader.citation.read_title``) is never stored
            raise ValueError(f"section {self.pk} holds a corrected title (an overlay): it is never saved")
        super().save(*args, **kwargs)

    class Meta:
        ordering = ["juan", "position"]
        constraints = [models.UniqueConstraint(fields=["juan", "position"], name="unique_section_position")]

    def __str__(self):
        return f"{self.position}. {self.title}"

    @property
    def anchor(self) -> str:
        """The HTML id of the section on its juan page (``s3``)."""
        return f"s{self.position}"

    def get_absolute_url(self):
        juan = self.juan
        return reverse("reader:section", args=[juan.edition.slug, juan.number, self.position])


#: ``reader.pieces.is_classic`` as a query: the pieces that are text of the classic (a
#: main-text run of the classic, a note whose layer is the classic); ``Piece.objects.filter(
#: CLASSIC_TEXT, section=…)``.
CLASSIC_TEXT = models.Q(kind=TEXT, layer__in=("", CLASSIC)) | models.Q(kind=NOTE, layer=CLASSIC)


class Piece(models.Model):
    """One ordered piece of a section: a main-text run, a note, a label, a record or a
    record's note. ``paragraph`` is the 0-based paragraph (line) within the section;
    records have ``paragraph = None`` (they stand on the closer line).
    For notes, ``source_tag`` is the tag as written (鄉射記, 同上) and ``source`` the
    resolved source. ``layer`` is the commentary layer the piece belongs to (one of
    ``LAYERS``: classic, commentary, readings, subcommentary, editorial, smallprint, paratext; a
    piece saved without one gets ``DEFAULT_LAYER[kind]``), ``layer_name`` its name as the
    book or its byline gives it (注, 傳, 箋, 鄭注, 音義, 疏), "" when the source names none."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="pieces")
    position = models.PositiveIntegerField()
    paragraph = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=12, choices=PIECE_KIND_CHOICES)
    text = models.TextField(blank=True)
    source_tag = models.CharField(max_length=50, blank=True)
    tag_separator = models.CharField(max_length=5, blank=True)
    source = models.CharField(max_length=50, blank=True)
    #: Source layout (mandoku): raw strings removed at code-point offsets of the piece's
    #: text + tag (``[[0, "("], [4, "/"], ...]``): line ends, page breaks ``<pb:…>``,
    #: column breaks, indentation. Page breaks are read from here.
    layout = models.JSONField(default=list, blank=True)
    layer = models.CharField(max_length=16, choices=LAYER_CHOICES, blank=True)
    layer_name = models.CharField(max_length=20, blank=True)
    #: How the importer decided ``layer`` (``LAYER_BASIS_CHOICES``); accepted corrections
    #: are an overlay and never change it.
    layer_basis = models.CharField(max_length=12, choices=LAYER_BASIS_CHOICES, default=DEFAULT_BASIS)
    #: Who wrote the piece when one layer holds several commentators (李善, 呂延濟 …); "" otherwise.
    commentator = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["section", "position"]
        constraints = [models.UniqueConstraint(fields=["section", "position"], name="unique_piece_position")]
        indexes = [models.Index(fields=["kind"])]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.text[:20]}"

    def save(self, *args, **kwargs):
        if getattr(self, "overlaid", False):  # a corrected reading (an overlay) is never stored
            raise ValueError(f"piece {self.pk} holds a corrected reading (an overlay): it is never saved")
        if not self.layer:
            self.layer = DEFAULT_LAYER.get(self.kind, CLASSIC)
        super().save(*args, **kwargs)

    @property
    def is_note(self) -> bool:
        """A note read as a note: commentary, readings … in small print; a note whose layer
        is the classic (``reader.pieces.is_classic``) is read as the classic, not as a note."""
        return self.kind in (NOTE, RECORD_NOTE) and not is_classic(self)

    @property
    def is_classic(self) -> bool:
        """Text of the classic (``reader.pieces.is_classic``)."""
        return is_classic(self)

    @property
    def is_marker(self) -> bool:
        """A label that introduces a layer of commentary (注, 傳, 箋, 疏, 音義): kept in the
        stored text, but a label, not text, for reading and search."""
        return self.kind == LABEL and self.layer not in ("", CLASSIC)

    @property
    def layer_label(self) -> str:
        """The layer's name as the book gives it (``layer_name``), else its usual name (注)."""
        return self.layer_name or LAYER_NAMES.get(self.layer or DEFAULT_LAYER.get(self.kind, CLASSIC), "")
