"""The atomic loader: a parsed ``JuanDocument`` into the database, and back.

``load_document`` writes one juan inside one transaction: the juan lands whole or not
at all, and re-importing the same work and juan replaces it (no duplicates). Once the
transaction commits, the search index is updated for that juan: the loader sends
``reader.signals.juans_changing`` and ``search`` schedules its write (``transaction.on_commit``);
or, with ``index=False``, the caller tells the index itself (``reader.signals.IndexBatches``). Either
way it sends ``reader.signals.juans_stored`` before the commit, so that what is anchored in the juan's
text (its corrections) is brought in step in the same transaction and lands with it.
With ``keep_unchanged`` a juan the document gives exactly as it is stored (``StoredForm``) is
left as it is: nothing written, nothing for the index to do.
"""
from __future__ import annotations

import json
from collections.abc import Container
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection, transaction
from django.db.models import Sum

from characters.simplified import ScriptCount, count_script, detect_script

from config.budget import check
from config.faults import crash_point
from reader.editions import authors_agree
from reader.counting import character_count
from reader.models import Chapter, Edition, Juan, LibraryVersion, Piece, Section, Work
from reader.pieces import is_note
from reader.signals import index_deferred, juans_changing, juans_stored
from reader.slugs import slug_problem, slugify, unique_slug

from .document import MANDOKU, ChapterDoc, JuanDocument, PieceDoc, SectionDoc
from .classes import listed_class, printed_class
from .files import read_document
from .mandoku import page_breaks, render_mandoku
from .mandoku.tls import split_juans as split_tls_juans
from .plaintext import split_juans
from .shrink import check_shrink



@dataclass
class LoadResult:
    """What one file's import did: the juan and its counts, and whether it replaced one."""

    juan: Juan
    replaced: bool
    sections: int
    #: The notes stored, whatever their print size (``reader.pieces.is_note``).
    notes: int
    warnings: list[str]
    old_juan_id: int | None = None
    #: Code points of text stored (the pieces' texts): what a batch import counts.
    characters: int = 0
    #: Other juans of the edition to reindex because this import changed the edition's
    #: detected script (``update_edition_script``): their ambiguous simplified forms are
    #: indexed under other keys.
    rescripted: list[int] = field(default_factory=list)
    #: Juans of the edition removed because the Kanripo file they came from now gives other juans
    #: (``load_documents``: 史記's ``KR2a0001_500``, once juan 500, then 卷六十一 … 卷一百三十); on the
    #: file's first juan only.
    superseded: list[int] = field(default_factory=list)
    #: The juan stored already had exactly what this import would store (``StoredForm``), and
    #: was kept as it was (``load_document``'s ``keep_unchanged``): nothing written, nothing for the index to do
    #: (``replaced`` is False, ``old_juan_id`` None).
    unchanged: bool = False


def _slug_taken(slug: str) -> bool:
    """Work and edition slugs share the URL space ``/works/<slug>/``."""
    return Work.objects.filter(slug=slug).exists() or Edition.objects.filter(slug=slug).exists()


def make_slug(title: str, author: str = "") -> str:
    """A slug, unique among works and editions, from a title, by the one slug rule
    (``reader.slugs.slugify``: ``禮書/綱目`` → ``禮書-綱目``; CJK stays as it is); a taken
    slug gets the author (``-江永``), then a number (``-2``)."""
    base = slugify(title)
    if _slug_taken(base):
        base = slugify(f"{base}-{slugify(author, fallback='anon')}")
    return unique_slug(base, _slug_taken)


def _find_work(doc: JuanDocument) -> Work | None:
    """The work an edition of ``doc`` belongs to, by the rule of ``reader.editions``: the
    work of the same Kanripo ID; else (another source) the work of the same title and
    author; a file that names no author (a headless file named with --work) joins the one
    work of that title; else the one work of that title and an agreeing author."""
    if doc.work_key:
        work = Work.objects.filter(kanripo_id=doc.kanripo_id).order_by("id").first()
        if work is None:
            same = [w for w in Work.objects.filter(title=doc.work_title, kanripo_id="")[:3]
                    if authors_agree(w.author, doc.author)]
            work = same[0] if len(same) == 1 else None
        return work
    work = Work.objects.filter(title=doc.work_title, author=doc.author, kanripo_id="").first()
    if work is None and not doc.author:
        same_title = list(Work.objects.filter(title=doc.work_title, kanripo_id="")[:2])
        if len(same_title) == 1:
            work = same_title[0]
    if work is None:
        same = [w for w in Work.objects.filter(title=doc.work_title).exclude(kanripo_id="")[:3]
                if authors_agree(w.author, doc.author)]
        work = same[0] if len(same) == 1 else None
    return work


def _edition_for(doc: JuanDocument, edition_name: str | None = None) -> tuple[Edition, bool]:
    """``(edition, changed)``: the edition the juan belongs to (created with its work when new),
    and whether this call created or changed it or its work (``changed``: a juan of it cannot be
    kept as it was, ``keep_unchanged``: what its passages carry into the index may differ).

    A Kanripo juan belongs to the edition of its repository folder (``doc.work_key``:
    ``KR1d0086-WYG``, also its slug), in the work of its Kanripo ID. A juan from another
    source belongs to the edition named ``edition_name`` (``import_texts --edition``; the
    unnamed edition without it) of the work ``_find_work`` gives. Editions of one work are
    linked by Kanripo ID and title (``reader.editions``)."""
    if doc.work_key:
        key = slugify(doc.work_key)  # the folder's name under the slug rule (KR1d0086-WYG stays as it is)
        edition = Edition.objects.select_related("work").filter(slug=key).first()
        changed = edition is None
        if edition is None:
            work = _find_work(doc)
            if work is None:
                wanted = doc.kanripo_id if doc.kanripo_id and slug_problem(doc.kanripo_id) is None else key
                work = Work.objects.create(
                    title=doc.work_title, author=doc.author, native_place=doc.native_place, dynasty=doc.dynasty,
                    collection=doc.collection, kanripo_id=doc.kanripo_id, other_titles="\n".join(doc.other_titles),
                    slug=wanted if not _slug_taken(wanted) else unique_slug(key, _slug_taken))
            elif not work.kanripo_id:
                work.kanripo_id = doc.kanripo_id
                work.save(update_fields=["kanripo_id"])
            edition = Edition.objects.create(
                work=work, slug=key, label=edition_name or doc.work_key, kanripo_id=doc.kanripo_id,
                kanripo_edition=doc.edition, collection=doc.collection, byline=doc.bylines)
        elif edition_name and edition.label != edition_name:
            edition.label, changed = edition_name, True
            edition.save(update_fields=["label"])
        if doc.bylines and not edition.byline:  # the first juan with a byline gives the edition's
            edition.byline, changed = doc.bylines, True
            edition.save(update_fields=["byline"])
        work = edition.work
        added = [t for t in doc.other_titles if t not in (work.title, *work.other_titles.splitlines())]
        if added:  # a title another folder of the work gives it (its Readme.org), each once
            work.other_titles = "\n".join([*work.other_titles.splitlines(), *added])
            work.save(update_fields=["other_titles"])
        if doc.author and not work.author:  # the byline is in 卷一's text, not in 卷〇's front matter
            # the dynasty of a work the catalogue lists stays the catalogue's (Work.catalogue_dynasty)
            work.author, work.native_place = doc.author, doc.native_place
            work.dynasty = work.catalogue_dynasty or doc.dynasty
            work.save(update_fields=["author", "native_place", "dynasty"])
            changed = True
        return edition, changed
    work = _find_work(doc)
    changed = work is None
    if work is None:
        classification, shu = printed_class(doc.siku_class)
        if not classification:
            classification, shu = listed_class(doc.work_title, doc.author, doc.dynasty)
        work = Work.objects.create(
            title=doc.work_title, author=doc.author, native_place=doc.native_place,
            dynasty=doc.dynasty, collection=doc.collection, slug=make_slug(doc.work_title, doc.author),
            classification=classification, shu=shu,
        )
    label = edition_name or ""
    edition = work.editions.filter(label=label, kanripo_id="").order_by("id").first()
    if edition is None:
        if label:
            slug = make_slug(f"{work.slug}-{label}")
        else:
            slug = work.slug if not Edition.objects.filter(slug=work.slug).exists() \
                else make_slug(doc.work_title, doc.author)
        edition = Edition.objects.create(work=work, slug=slug, label=label, collection=doc.collection,
                                         byline=doc.bylines)
        changed = True
    return edition, changed


def section_start_pages(doc: JuanDocument) -> list[str]:
    """For each section of ``doc``, the page it starts on: the last page break at or
    before its first character (``""`` for sources without page breaks)."""
    breaks = page_breaks(doc) if doc.source_format == "mandoku" else []
    out, current, i = [], "", 0
    for index, _section in enumerate(doc.sections):
        while i < len(breaks) and (breaks[i][0], breaks[i][1], breaks[i][2]) <= (index, 0, 0):
            current = breaks[i][3]
            i += 1
        out.append(current)
        while i < len(breaks) and breaks[i][0] == index:
            current = breaks[i][3]  # breaks inside this section move the page for the next
            i += 1
    return out


def juan_key(doc: JuanDocument) -> int:
    """The juan's number in its work: the file's sequence number for a Kanripo juan (as
    Kanripo numbers its files and pages: ``KR1d0086_012`` is 卷十), else the juan number."""
    return doc.file_sequence if doc.work_key and doc.file_sequence is not None else doc.juan_number


@dataclass(frozen=True)
class StoredForm:
    """What storing a juan writes of it, the database's own ids left out: what a re-import
    compares to decide whether it changes anything (``keep_unchanged``). ``juan``: the values of
    ``JUAN_FIELDS``; ``chapters``: ``(position, title, category, heading, heading layout)`` each;
    ``sections``: ``(chapter position, position, title, closer, record separator, paragraphs,
    line, blank lines after, closer layout, page, bylines)`` each; ``pieces``: a piece's row
    (``PIECE_COLUMNS``) with its section's position for its id. Layouts and bylines are as JSON
    reads them back (lists, not tuples). Equal forms store the same rows: the same text, notes,
    layers, structure and write-back, hence the same passages in the index."""

    juan: tuple
    chapters: tuple
    sections: tuple
    pieces: tuple


#: The fields of a juan its file gives (``StoredForm.juan``), in ``Juan``'s names.
JUAN_FIELDS = ("label", "header", "trailer", "newline", "bom", "final_newline", "source_name", "source_format",
               "sha256", "columns_reversed")


def _as_read(value):
    """``value`` (a layout, bylines: lists and tuples of strings, numbers, dicts) as a JSON field
    reads it back: tuples become lists, None ``[]`` (as ``load_document`` stores it)."""
    if not value:
        return []
    if isinstance(value, (list, tuple)):
        return [_as_read(v) if isinstance(v, (list, tuple, dict)) else v for v in value]
    return json.loads(json.dumps(value))


def stored_form(doc: JuanDocument, sha256: str = "") -> StoredForm:
    """The ``StoredForm`` of ``doc`` as ``load_document(doc, sha256)`` would store it (reads no
    database)."""
    juan = ("\n".join(doc.header_lines), "\n".join(doc.trailer_lines), doc.newline, doc.bom, doc.final_newline,
            doc.source_name, doc.source_format, sha256, doc.columns_reversed)
    starts, chapters, sections, pieces = section_start_pages(doc), [], [], []
    for cpos, cdoc in enumerate(doc.chapters, start=1):
        chapters.append((cpos, cdoc.title, cdoc.category, cdoc.heading, _as_read(cdoc.heading_layout)))
        for sdoc in cdoc.sections:
            spos = len(sections) + 1
            sections.append((cpos, spos, sdoc.title, sdoc.closer, sdoc.record_separator, len(sdoc.paragraphs),
                             sdoc.line, sdoc.blank_lines_after, _as_read(sdoc.closer_layout), starts[spos - 1],
                             _as_read(sdoc.bylines)))
            placed = [(pnum, p) for pnum, para in enumerate(sdoc.paragraphs) for p in para]
            for ppos, (pnum, p) in enumerate(placed + [(None, p) for p in sdoc.records]):
                pieces.append(_piece_row(spos, ppos, pnum, p, _as_read(p.layout or [])))
    return StoredForm((doc.juan_label, *juan), tuple(chapters), tuple(sections), tuple(pieces))


def stored_form_of(juan: Juan) -> StoredForm:
    """The ``StoredForm`` of a stored ``juan``, read from the database (three queries)."""
    chapter_rows = list(juan.chapters.order_by("position").values_list("position", "title", "category", "heading",
                                                                       "heading_layout", "pk"))
    chapters = {row[5]: row[0] for row in chapter_rows}
    section_rows = juan.sections.order_by("position").values_list(
        "chapter_id", "position", "title", "closer", "record_separator", "paragraph_count", "line",
        "blank_lines_after", "closer_layout", "page", "bylines")
    pieces = Piece.objects.filter(section__juan=juan).order_by("section__position", "position").values_list(
        "section__position", *PIECE_COLUMNS[1:])
    layout = PIECE_COLUMNS.index("layout")
    return StoredForm(
        tuple(getattr(juan, name) for name in JUAN_FIELDS),
        tuple((*row[:4], _as_read(row[4])) for row in chapter_rows),  # the pk left out
        tuple((chapters[row[0]], *row[1:8], _as_read(row[8]), row[9], _as_read(row[10])) for row in section_rows),
        tuple((*row[:layout], _as_read(row[layout]), *row[layout + 1:]) for row in pieces))


def load_document(doc: JuanDocument, sha256: str = "", index: bool = True, edition: str | None = None,
                  script: str | None = None, keep_unchanged: Container[int] = (), allow_shrink: bool = False,
                  path: str = "") -> LoadResult:
    """Store ``doc`` as one juan of the edition ``edition`` names (see ``_edition_for``),
    replacing any juan with the same edition and number.

    Atomic: on any error nothing is written. The search index is updated once, after
    commit (the piece and section signals are muted meanwhile), unless ``index`` is
    False: then the caller indexes (``LoadResult.old_juan_id`` names what was replaced).
    ``script`` (``characters.simplified.SCRIPTS``) gives the edition's script instead of
    detecting it (``Edition.script_given``). ``keep_unchanged``: the ids of stored juans that may
    be kept (those the index holds as stored, ``reader.signals.juans_indexed_as_stored``): such a
    juan whose ``StoredForm`` is the one ``doc`` gives is kept as it is (``LoadResult.unchanged``:
    nothing written, nothing to index), unless this import changes its edition or work or their
    script. A juan that would replace a stored one with much less of its text is refused unless
    ``allow_shrink`` (``shrink.check_shrink``: ``ShrinkRefused`` at ``path``, the file's name by
    default), before anything is written.
    """
    with transaction.atomic(), index_deferred():
        if not allow_shrink:
            check_shrink(path or doc.source_name, [doc], [juan_to_replace(doc, edition)])
        result = _load(doc, sha256, index, edition, script, keep_unchanged)
        _tell_stored(load_document, [result])
        return result


def _tell_stored(sender, results: list[LoadResult]) -> None:
    """``reader.signals.juans_stored`` of the juans ``results`` stored (not those kept unchanged), inside
    the transaction that stores them: what hangs on their text (the corrections) lands with them."""
    changes = [(r.juan.pk, r.old_juan_id) for r in results if not r.unchanged]
    if changes:
        juans_stored.send(sender=sender, changes=changes)


#: Columns of a piece row, in the order ``_piece_row`` gives them.
PIECE_COLUMNS = ("section_id", "position", "paragraph", "kind", "text", "source_tag", "tag_separator", "source",
                 "layout", "layer", "layer_name", "layer_basis", "commentator")


def _piece_row(section_id: int, position: int, paragraph: int | None, p: PieceDoc, layout) -> tuple:
    """The row of one piece (``PIECE_COLUMNS``); its layer is the parser's, or the default of its kind."""
    return (section_id, position, paragraph, p.kind, p.text, p.source_tag, p.tag_separator, p.source, layout,
            p.effective_layer, p.layer_name, p.effective_basis, p.commentator)


def _insert_pieces(rows: list[tuple]) -> None:
    """Insert piece rows with one ``executemany``: the ORM's ``bulk_create`` prepared every
    field of every row in Python (13 s of a 200-file import's 42 s,
    docs/decisions/0007-streaming-import.md); like ``bulk_create`` it sends no signals (the loader mutes them and
    reindexes the juan itself)."""
    meta = Piece._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(c.removesuffix("_id")).column) for c in PIECE_COLUMNS)
    sql = (f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) "
           f"VALUES ({', '.join(['%s'] * len(PIECE_COLUMNS))})")
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start:start + 5000])


def _load(doc: JuanDocument, sha256: str, index: bool, edition_name: str | None, script: str | None = None,
          keep_unchanged: Container[int] = ()) -> LoadResult:
    edition, edition_changed = _edition_for(doc, edition_name)
    number = juan_key(doc)
    old = Juan.objects.filter(edition=edition, number=number).first()
    if (old is not None and old.pk in keep_unchanged and not edition_changed
            and (script is None or (edition.script, edition.script_given) == (script, True))
            and stored_form_of(old) == stored_form(doc, sha256)):
        pieces = [p for cdoc in doc.chapters for sdoc in cdoc.sections
                  for p in [*(p for para in sdoc.paragraphs for p in para), *sdoc.records]]
        return LoadResult(juan=old, replaced=False, sections=sum(len(c.sections) for c in doc.chapters),
                          notes=sum(map(is_note, pieces)), warnings=list(doc.warnings), unchanged=True,
                          characters=old.char_count)  # counted from the same texts when stored
    old_id = old.pk if old else None
    if old:
        old.delete()
    juan = Juan.objects.create(
        work=edition.work, edition=edition, number=number, label=doc.juan_label,
        header="\n".join(doc.header_lines), trailer="\n".join(doc.trailer_lines),
        newline=doc.newline, bom=doc.bom, final_newline=doc.final_newline,
        source_name=doc.source_name, source_format=doc.source_format, sha256=sha256,
        columns_reversed=doc.columns_reversed,
        version=LibraryVersion.next(),
    )
    starts = section_start_pages(doc)
    # Chapters, then sections, in one bulk insert each (their ids come back: RETURNING on
    # SQLite ≥ 3.35 and PostgreSQL), then every piece in one executemany.
    chapters = Chapter.objects.bulk_create([
        Chapter(juan=juan, position=cpos, title=cdoc.title, category=cdoc.category, heading=cdoc.heading,
                heading_layout=cdoc.heading_layout, printed_juan=cdoc.printed_juan)
        for cpos, cdoc in enumerate(doc.chapters, start=1)], batch_size=500)
    sections, section_docs = [], []
    for chapter, cdoc in zip(chapters, doc.chapters):
        for sdoc in cdoc.sections:
            sections.append(Section(
                juan=juan, chapter=chapter, position=len(sections) + 1, title=sdoc.title, closer=sdoc.closer,
                record_separator=sdoc.record_separator, paragraph_count=len(sdoc.paragraphs),
                line=sdoc.line, blank_lines_after=sdoc.blank_lines_after, closer_layout=sdoc.closer_layout,
                page=starts[len(sections)], bylines=sdoc.bylines))
            section_docs.append(sdoc)
    Section.objects.bulk_create(sections, batch_size=500)
    adapt_json = connection.ops.adapt_json_value  # what JSONField.get_db_prep_save ends in, without its checks
    empty = adapt_json([], None)

    def prep_layout(layout, connection):
        return adapt_json(layout, None) if layout else empty

    rows: list[tuple] = []
    notes = characters = 0
    for section, sdoc in zip(sections, section_docs):
        ppos = 0
        for pnum, para in enumerate(sdoc.paragraphs):
            for p in para:
                rows.append(_piece_row(section.pk, ppos, pnum, p, prep_layout(p.layout, connection)))
                notes += is_note(p)
                characters += character_count(p.text)
                ppos += 1
        for p in sdoc.records:
            rows.append(_piece_row(section.pk, ppos, None, p, prep_layout(p.layout, connection)))
            notes += is_note(p)
            characters += character_count(p.text)
            ppos += 1
    _insert_pieces(rows)
    telling = count_script("".join(r[4] for r in rows) + "".join((s.title or "") + (s.closer or "") for s in sections))
    Juan.objects.filter(pk=juan.pk).update(simplified_forms=telling.simplified, traditional_forms=telling.traditional,
                                          char_count=characters)
    if script is not None and (edition.script, edition.script_given) != (script, True):
        changed = edition.script != script
        edition.script, edition.script_given = script, True
        edition.save(update_fields=["script", "script_given"])
    else:
        changed = update_edition_script(edition)
    rescripted = [] if not changed else list(
        edition.juans.exclude(pk=juan.pk).values_list("pk", flat=True))
    if rescripted:  # a new version: the index reads them again
        Juan.objects.filter(pk__in=rescripted).update(version=LibraryVersion.next())
    crash_point("import-before-commit")

    if index:  # the receivers (search) write their index once this transaction commits
        juans_changing.send(sender=load_document, changes=[(juan.pk, old_id)] + [(j, j) for j in rescripted])
    return LoadResult(juan=juan, replaced=old is not None, sections=len(sections),
                      notes=notes, warnings=list(doc.warnings), old_juan_id=old_id, characters=characters,
                      rescripted=rescripted)


def load_documents(docs: list[JuanDocument], sha256: str = "", index: bool = True, edition: str | None = None,
                   script: str | None = None, keep_unchanged: Container[int] = (), allow_shrink: bool = False,
                   path: str = "") -> list[LoadResult]:
    """Store the juans of one file (``file_juans``) as ``load_document`` stores one, all in one
    transaction: the file lands whole or not at all. One ``LoadResult`` per juan, in order. The
    juans a Kanripo file gave before and gives no more (same edition and file name, other numbers)
    are removed in the same transaction (``LoadResult.superseded``, on the first result). Unless
    ``allow_shrink``, a file that would replace or remove stored juans with much less of their text
    is refused before anything is written (``shrink.ShrinkRefused`` at ``path``)."""
    with transaction.atomic(), index_deferred():
        if not allow_shrink and docs:
            check_shrink(path or docs[0].source_name, docs, [juan_to_replace(d, edition) for d in docs],
                         superseded_juans(docs).select_related("work", "edition"))
        results = [_load(doc, sha256, index, edition, script, keep_unchanged) for doc in docs]
        if results:
            # a Kanripo file is one file of its edition's folder: the juans it gave before and gives no
            # more (its 篇 now read as the book's juans, or the other way) go, so its text is held once
            results[0].superseded = list(superseded_juans(docs).values_list("pk", flat=True))
            if results[0].superseded:
                Juan.objects.filter(pk__in=results[0].superseded).delete()
                if index:
                    juans_changing.send(sender=load_documents, changes=[(None, pk) for pk in results[0].superseded])
        _tell_stored(load_documents, results)
        return results


def superseded_juans(docs: list[JuanDocument]):
    """The stored juans the Kanripo file whose juans are ``docs`` gave before and gives no more: of
    its edition (its folder, ``doc.work_key``, which is the edition's slug: ``_edition_for``), its
    file name and format, with numbers other than those ``docs`` give (``juan_key``). A QuerySet,
    empty for a file from another source. Read before a load (the shrink guard) and after it (what
    the load removes)."""
    first = docs[0]
    if not (first.work_key and first.source_name):
        return Juan.objects.none()
    return Juan.objects.filter(edition__slug=slugify(first.work_key), source_name=first.source_name,
                               source_format=first.source_format).exclude(number__in=[juan_key(d) for d in docs])


def file_juans(doc: JuanDocument, juan_number: int | None = None) -> list[JuanDocument]:
    """The juans ``doc`` (one file as read by ``read_document``) holds: a plain-text book that
    prints several juan headings (卷之一 … 卷之八) gives one juan each (``plaintext.split_juans``),
    a tls file one per 篇 of the book it holds (史記 ``_500``: 卷六十一 … 卷一百三十,
    ``mandoku.tls.split_juans``); any other file, or one whose juan number was given (``--juan``),
    is one juan."""
    if juan_number is not None:
        return [doc]
    if doc.source_format == MANDOKU:
        return split_tls_juans(doc)
    if doc.source_format != "plain":
        return [doc]
    return split_juans(doc)


def update_edition_script(edition: Edition) -> bool:
    """Detect the script of ``edition`` from the counts of its juans (``Juan.simplified_forms``
    and ``traditional_forms``, ``characters.simplified.detect_script``) and save it, unless it
    was given (``Edition.script_given``). Returns whether it changed."""
    if edition.script_given:
        return False
    totals = edition.juans.aggregate(s=Sum("simplified_forms"), t=Sum("traditional_forms"))
    script = detect_script(ScriptCount(totals["s"] or 0, totals["t"] or 0))
    if script == edition.script:
        return False
    edition.script = script
    edition.save(update_fields=["script"])
    return True


def juan_to_replace(doc: JuanDocument, edition_name: str | None = None) -> Juan | None:
    """The juan ``load_document(doc, edition=edition_name)`` would replace (the same edition and
    number), or None; reads the database and writes nothing (the edition rule of ``_edition_for``)."""
    number = juan_key(doc)
    juans = Juan.objects.select_related("work", "edition")
    if doc.work_key:
        return juans.filter(edition__slug=slugify(doc.work_key), number=number).first()
    work = _find_work(doc)
    if work is None:
        return None
    edition = work.editions.filter(label=edition_name or "", kanripo_id="").order_by("id").first()
    return juans.filter(edition=edition, number=number).first() if edition else None


def import_file(path: str | Path, *, encoding: str = "utf-8", work_title: str | None = None,
                juan_number: int | None = None, edition: str | None = None, script: str | None = None,
                allow_shrink: bool = False) -> LoadResult:
    """Read, parse and load one file, all its juans in one transaction (``file_juans``); the
    result of its first juan. Raises ``TextFormatError`` before writing anything when the file
    cannot be taken, or would replace stored juans with much less text (``shrink``) unless
    ``allow_shrink``."""
    return import_file_juans(path, encoding=encoding, work_title=work_title, juan_number=juan_number,
                             edition=edition, script=script, allow_shrink=allow_shrink)[0]


def import_file_juans(path: str | Path, *, encoding: str = "utf-8", work_title: str | None = None,
                      juan_number: int | None = None, edition: str | None = None,
                      script: str | None = None, allow_shrink: bool = False) -> list[LoadResult]:
    """``import_file`` for every juan of the file: one ``LoadResult`` per juan, in order."""
    doc = read_document(path, encoding=encoding, work_title=work_title, juan_number=juan_number)
    return load_documents(file_juans(doc, juan_number), sha256=doc.sha256, edition=edition, script=script,
                          allow_shrink=allow_shrink, path=str(path))


def juan_to_document(juan: Juan) -> JuanDocument:
    """Rebuild the ``JuanDocument`` of a stored juan (two queries for its sections and pieces)."""
    doc = JuanDocument(
        source_name=juan.source_name, work_title=juan.work.title, juan_number=juan.number,
        juan_label=juan.label, author=juan.work.author, newline=juan.newline, bom=juan.bom,
        final_newline=juan.final_newline, source_format=juan.source_format,
        kanripo_id=juan.edition.kanripo_id, edition=juan.edition.kanripo_edition,
        columns_reversed=juan.columns_reversed,
    )
    # Header and trailer lines are never empty when present (a title line, a closing line).
    doc.header_lines = juan.header.split("\n") if juan.header else []
    doc.trailer_lines = juan.trailer.split("\n") if juan.trailer else []
    chapters: dict[int, ChapterDoc] = {}
    for chapter in juan.chapters.all():
        chapters[chapter.pk] = ChapterDoc(title=chapter.title, category=chapter.category, heading=chapter.heading,
                                          heading_layout=[tuple(x) for x in chapter.heading_layout])
        doc.chapters.append(chapters[chapter.pk])
    sections: dict[int, SectionDoc] = {}
    for section in juan.sections.all():
        sdoc = SectionDoc(title=section.title, closer=section.closer, record_separator=section.record_separator,
                          paragraphs=[[] for _ in range(section.paragraph_count)], line=section.line,
                          blank_lines_after=section.blank_lines_after,
                          closer_layout=[tuple(x) for x in section.closer_layout], bylines=list(section.bylines))
        sections[section.pk] = sdoc
        chapters[section.chapter_id].sections.append(sdoc)
    for i, piece in enumerate(Piece.objects.filter(section__juan=juan).order_by("section__position", "position")):
        if not i % 1000:
            check("writing the juan back in its source form", "Read the juan section by section in the API.")
        pdoc = PieceDoc(piece.kind, piece.text, source_tag=piece.source_tag,
                        tag_separator=piece.tag_separator, source=piece.source,
                        layout=[tuple(x) for x in piece.layout], layer=piece.layer, layer_name=piece.layer_name,
                        layer_basis=piece.layer_basis, commentator=piece.commentator)
        sdoc = sections[piece.section_id]
        if piece.paragraph is None:
            sdoc.records.append(pdoc)
        else:
            sdoc.paragraphs[piece.paragraph].append(pdoc)
    return doc


def render_source(juan: Juan) -> str:
    """The stored ``juan`` written back in its source form (the seed's plain form or
    Kanripo's mandoku form), character for character as imported (three queries)."""
    doc = juan_to_document(juan)
    return render_mandoku(doc) if juan.source_format == "mandoku" else doc.render()
