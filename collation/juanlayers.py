"""The layer check of one stored juan (層次核對): how much of a reference edition's classic the
juan stores as classic, and where the two differ, for the juan page, its 層次核對 page and the
API (``collation.layercheck``, the alignment ``manage.py check_layers`` runs).

A *reference* of a commentary edition is another edition the library holds of the classic it
comments on: an edition of a work titled as the classic the catalogue files it under
(``reader.commented_classic.classic_of``, decision 0100: 論語注疏 → 論語, 儀禮鄭註句讀 → 儀禮, 周禮
KR1d0002 with 鄭注 → 周禮, whose plain text KR1d0001 is held too), or the reference the shared pairs
give its Kanripo text (``layercheck.PAIRS``: 周禮注疏 → 周禮句解, judged with the 四部叢刊 周禮 when the
library holds it too). The two are separate works, so the
collation (校勘, the editions of one work) does not compare them.

The check aligns the whole stored edition with the whole reference, as ``check_layers EDITION
REFERENCE`` does with their slugs, and counts each juan's part (``layercheck.check_by_juan``): a
juan's figures are what ``check_layers EDITION REFERENCE --juan N`` prints, and the juans'
figures sum to the edition's. The texts are the stored ones, as imported (accepted corrections
are an overlay the check does not read). One alignment serves every juan of the edition: it is
made in a thread of its own (``CHECKS``, a ``config.kept_work.KeptWork``: once per pair however
many requests ask for it, to its end whatever their time budgets) and kept in process memory
(``KEPT`` pairs, the newest) under the editions' stamps (``edition_stamp``: the juans as
imported, not their versions), so an import of either is measured again and an accepted
correction or annotation is not. A request waits for it ``LAYER_CHECK_SECONDS`` at most (never past its
own budget less one second): past them ``juan_json`` raises ``config.budget.BudgetExceeded``, a
503 with ``Retry-After`` that says the check is being made (正在核對), and the next request after
it is made is answered from what was kept. With neither limit (``manage.py``, the tests) the
caller aligns the pair itself, and it is kept alike.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Sum
from django.urls import reverse

from config.budget import BudgetExceeded
from config.kept_work import PENDING, Crowded, KeptWork, request_wait
from reader.commented_classic import classic_of, commentary_word
from reader.importers.worklock import being_imported, still_storing
from reader.models import Edition, Juan, Piece, Work

from .layercheck import PAIRS, Result, check_by_juan, juan_result, percent
from .layersources import edition_stream, reference_stream

#: How many (edition, reference) checks a process keeps (each holds its juans' figures and places).
KEPT = 8
#: Seconds an alignment takes per character of the editions it reads (``Juan.char_count``) before
#: this process has made one (then the last one made gives the rate), what the 503's
#: ``Retry-After`` is reckoned from: on 2 cores loaded by other work (PostgreSQL), 論語注疏 with
#: 論語 (211,964 characters) took 6.6 s, 31 µs a character, and 春秋穀梁傳注疏 with 春秋穀梁傳
#: (314,715) 23.5 s, 75 µs, mostly waiting on the database.
SECONDS_PER_CHAR = 0.00005
#: The pairs' alignments, made one at a time per process, each in a thread of its own, and kept
#: (the ``KEPT`` last asked for); the rate is measured on editions of 10,000 characters or more.
CHECKS = KeptWork("layer-check", lambda: 1, keep=KEPT, seconds_per_unit=lambda: SECONDS_PER_CHAR,
                  measured_from=10_000)


@dataclass
class Reference:
    """A reference of an edition's classic the library holds: ``edition`` (an ``Edition``) and
    ``judges``, other held references of the same classic that judge it (``layercheck.check``)."""

    edition: Edition
    judges: list[Edition] = field(default_factory=list)


def references_of(edition: Edition, work=None) -> list[Reference]:
    """The references of ``edition``'s classic the library holds (see the module docstring), the
    shared pairs' first (in ``PAIRS`` order), then the editions of the works titled as its classic
    (``work_classic``) by id; none of ``edition``'s own work. [] for an edition that is no
    commentary edition of a classic and in no pair. ``work``: the edition's work when the caller
    has it (no query for it); a book that comments on no classic and whose Kanripo text is in no
    pair costs no query."""
    work = work or edition.work
    found: dict[int, Reference] = {}
    own = edition.kanripo_id or edition.slug
    for ed_folder, ref_folder, *judge_folders in PAIRS:
        if ed_folder.rsplit("/", 1)[-1] != own:
            continue
        wanted = [ref_folder.rsplit("/", 1)[-1]] + [j.rsplit("/", 1)[-1] for j in judge_folders]
        held = {e.kanripo_id: e for e in Edition.objects.filter(kanripo_id__in=wanted).exclude(work=edition.work_id)
                .select_related("work").order_by("id")}
        ref = held.get(wanted[0])
        if ref is not None and ref.pk not in found:
            found[ref.pk] = Reference(ref, [held[k] for k in wanted[1:] if k in held])
    classic = work_classic(work)
    if classic:
        for ref in Edition.objects.filter(work__title=classic).exclude(work=edition.work_id).select_related("work") \
                .order_by("id"):
            found.setdefault(ref.pk, Reference(ref))
    return list(found.values())


def work_classic(work: Work) -> str:
    """The classic ``work`` comments on (``classic_of`` of its title, 類 and Kanripo ID); "" for none."""
    return classic_of(work.title, work.classification, work.kanripo_id)


def why_none(edition: Edition, work=None) -> tuple[str, str]:
    """Why ``edition`` has no reference to check its layers against (``references_of`` gave []),
    in Chinese and English, as the page and the API say it (a 404): a commentary edition of a classic
    (``work_classic``: named after its notes, or the classic printed with its notes) or a book in a
    shared pair whose classic the library holds no other edition of (毛詩注疏 before 毛詩 is imported:
    a 注疏 with no reference here; 周禮 KR1d0002 before 周禮 KR1d0001); an edition that is itself the
    reference of a commentary held, said first (論語 for 論語注疏, 春秋經傳集解杜林合注 for 左傳注疏: other
    books' layers are checked against it); a book named after its notes on a book the catalogue does
    not list under a title it opens with (莊子注: the catalogue's 莊子 is 南華真經); or a book that is
    none of these."""
    work = work or edition.work
    own = edition.kanripo_id or edition.slug
    classic = work_classic(work)
    paired = [ref.rsplit("/", 1)[-1] for ed, ref, *_ in PAIRS if ed.rsplit("/", 1)[-1] == own]
    shelf = Work.objects.filter(classification=work.classification).exclude(pk=work.pk) if work.classification \
        else Work.objects.none()
    readers = sorted({t for t, code, kr_id in shelf.values_list("title", "classification", "kanripo_id")
                      if classic_of(t, code, kr_id) == work.title}
                     | set(Edition.objects.filter(kanripo_id__in=[ed.rsplit("/", 1)[-1] for ed, ref, *judges in PAIRS
                                                                  if own in {f.rsplit("/", 1)[-1] for f in (ref, *judges)}])
                           .values_list("work__title", flat=True)))
    if readers:
        return (f"{work.title}（{edition.name}）本身是他書核對層次所據之本（{'、'.join(readers)}之層次以之核對），無可核對層次",
                f"this edition is itself a reference: the layers of {', '.join(readers)} are checked against it, and "
                f"the library holds none to check its own against")
    word = commentary_word(work.title)
    if classic and word:
        return (f"{work.title}是{classic}之{word}，本館未藏{classic}之他本，無可核對層次",
                f"{work.title} is a commentary ({word}) on {classic}, and the library holds no other edition of "
                f"{classic} to check its layers against")
    if classic:
        return (f"{work.title}（{edition.name}）是{classic}經注之本，本館未藏{classic}之他本，無可核對層次",
                f"{work.title} ({edition.name}) prints {classic} with its commentary, and the library holds no other "
                f"edition of {classic} to check its layers against")
    if paired:
        return (f"{work.title}是注釋之書，本館未藏其經文之他本（{'、'.join(paired)}），無可核對層次",
                f"{work.title} is a commentary, and the library holds no edition of its classic "
                f"({', '.join(paired)}) to check its layers against")
    if word:
        return (f"{work.title}是注釋之書（{word}），目錄所載其類之書無其所注者，無可核對層次",
                f"{work.title} is a commentary ({word}), and the catalogue lists no book of its class it comments on: "
                f"there is nothing to check its layers against")
    return (f"{work.title}不是注釋之書，無可核對層次",
            f"{work.title} is not a commentary on a classic: it has no layers to check")


def notes_in_small_print(juan: Juan) -> bool:
    """Whether ``juan`` prints its commentary (layer ``commentary``, labels aside) in small print,
    as the 層次核對 page's explanation says: most of its characters are in notes written between
    the source's parentheses (their ``layout`` holds the ``(``: 史記集解, 楚辭補注) rather than at
    full size after a label that marks only where they begin (注 in 論語注疏, where the importer
    decides where the classic comes back). False for a juan with no commentary."""
    small = total = 0
    for text, layout in (Piece.objects.filter(section__juan=juan, layer="commentary").exclude(kind="label")
                         .values_list("text", "layout")):
        total += len(text)
        small += len(text) if any("(" in raw for _, raw in layout or ()) else 0
    return 2 * small > total


def edition_stamp(edition: Edition) -> tuple[int, int]:
    """``(juans, newest juan id)`` of ``edition``: the stamp of the pieces a check reads, as
    imported. An import stores a changed juan as a new row (``reader.importers.loader``: the old
    one deleted, ids never reused), so the stamp changes whenever a juan of it is imported anew,
    added or removed; it does not change when a reader's correction or annotation is accepted or
    reverted (those bump ``Juan.version``, an overlay the check does not read: keyed on the version,
    穀梁 was aligned again, 23.5 s of 503s per worker, after every accepted annotation)."""
    row = Juan.objects.filter(edition=edition).aggregate(n=Count("id"), last=Max("id"))
    return row["n"], row["last"] or 0


def _editions(edition: Edition, reference: Reference) -> list[Edition]:
    """The editions a check of ``edition`` against ``reference`` reads: it, the reference, its judges."""
    return [edition, reference.edition, *reference.judges]


#: Seconds the last alignment of each pair took in this process, by the ids of the editions it read
#: (``_editions``): what the ``Retry-After`` of the next one of the pair is reckoned from (an import
#: of either makes it again, about as long), where the editions' size at ``SECONDS_PER_CHAR`` (or
#: the last rate measured) is all there is before one was made: 論語注疏 with 論語 took 0.5 s on an
#: idle machine where its size said 11 s.
MEASURED: dict[tuple[int, ...], float] = {}
#: Seconds per character each pair's last alignment took in this process (``MEASURED`` over the
#: editions' characters, pairs of ``CHECKS.measured_from`` characters or more), by the same keys: what
#: a pair never aligned here is estimated from (``expected_seconds``).
RATES: dict[tuple[int, ...], float] = {}


def expected_seconds(pair: tuple[int, ...], size: int) -> float | None:
    """Seconds the alignment of ``pair`` (the ids of the editions it reads, ``_editions``) of ``size``
    characters (``Juan.char_count`` of them all) is expected to take: the pair's last time
    (``MEASURED``); for a pair never aligned here, its size at the slowest rate a pair was aligned at
    (``RATES``); None before any was (``CHECKS`` reckons the size at ``SECONDS_PER_CHAR``). The slowest,
    not the last: the rate differs between pairs as much as twice over on one machine at one load
    (measured on 2 cores at a load of 15-19, SQLite: 論語注疏 with 論語, 210,800 characters, 80-86 µs a
    character; 孟子注疏 with 孟子, 382,347, 76 µs; 楚詞補注 with 楚辭, 367,581, 130-163 µs, its reference a
    commentary book too): the last pair's rate said 1 s of 楚詞補注's (KR4a0003) first check, which took
    about 5 s. A wait too short is another 503; one too long, a page that comes a little later.
    One that has run past its estimate is expected to run as long again (``KeptWork.expected_wait``)."""
    if pair in MEASURED:
        return MEASURED[pair]
    return size * max(RATES.values()) if RATES else None


def _timed(edition: Edition, reference: Reference, size: int = 0) -> dict[int | None, Result]:
    """``_aligned``, its time (on ``CHECKS.clock``) kept in ``MEASURED``, and per character of its
    ``size`` in ``RATES`` (a size of ``CHECKS.measured_from`` or more)."""
    begun = CHECKS.clock()
    found = _aligned(edition, reference)
    pair = tuple(e.pk for e in _editions(edition, reference))
    MEASURED[pair] = CHECKS.clock() - begun
    if size >= CHECKS.measured_from:
        RATES[pair] = MEASURED[pair] / size
    return found


def _aligned(edition: Edition, reference: Reference) -> dict[int | None, Result]:
    """``check_by_juan`` of ``edition`` against ``reference``, every place kept (seconds: it reads
    the whole editions from the database)."""
    ref = reference_stream(reference.edition.slug)
    judges = [reference_stream(j.slug) for j in reference.judges]
    ed = edition_stream(edition.slug, front_matter=any(r.front_matter for r in [ref, *judges]))
    return check_by_juan(ed, ref, worst=None, judges=judges)


#: Seconds after which a layer check refused while an edition it reads is being imported is
#: asked again (``Retry-After``; a work's import runs from seconds to minutes).
IMPORTING_RETRY = 30


def _not_being_imported(edition: Edition, references: list[Reference]) -> None:
    """Raise ``BudgetExceeded`` (a 503 with ``Retry-After`` ``IMPORTING_RETRY``, page and API) when
    a run of ``import_texts`` holds the work of an edition a check of ``edition`` against
    ``references`` reads (``reader.importers.worklock.being_imported``): aligned half stored, a
    reference being imported again gave 0 of 373 aligned, then 875 of 16,366 three seconds later.
    A run that has stored every file of the work and gone on to other works (``worklock.STORED``: a
    work of the first folder of four is checkable in the run's first minute, not its last), or
    only writes the search index (``worklock.INDEXING``), is no reason to wait: the check reads the
    stored texts, not the index. The run (its process and host) is named in the log, not to the
    reader."""
    for ref in references:
        for read in _editions(edition, ref):
            run = being_imported(connection, read.work.kanripo_id or read.work.title)
            if not still_storing(run):
                continue
            title = f"{read.work.title}（{read.name}）"
            raise BudgetExceeded(
                "waiting for an import", f"Try again in {IMPORTING_RETRY} s, once the import has ended.",
                IMPORTING_RETRY, f"請 {IMPORTING_RETRY} 秒後再試，待匯入完成。",
                detail=f"{read.work.title} ({read.name}) is being imported: its layers are not checked "
                       f"against a half-stored edition.",
                detail_zh=f"{title}正在匯入，未存全之本不核對層次。",
                log=f"layer check not made: {read.work.title} ({read.name}) is being imported by {run} "
                    f"(Retry-After {IMPORTING_RETRY} s)")


def _checked(edition: Edition, references: list[Reference]) -> list[dict[int | None, Result]]:
    """``_aligned`` of ``edition`` against each of ``references``, from ``CHECKS`` (kept under the
    editions' stamps, or made in its thread, all of them started before any is waited for; see
    the module docstring). Raises ``BudgetExceeded`` with ``Retry-After`` while any is being
    made (the longest expected wait of them) or when ``CHECKS`` takes no more (``Crowded``)."""
    _not_being_imported(edition, references)
    seconds = request_wait(settings.LAYER_CHECK_SECONDS)
    asked = []
    for ref in references:
        editions = _editions(edition, ref)
        key = tuple((e.pk, edition_stamp(e)) for e in editions)
        size = Juan.objects.filter(edition__in=editions).aggregate(n=Sum("char_count"))["n"] or 0
        asked.append((key, partial(_timed, edition, ref, size), size))
    if seconds is None:
        return [CHECKS.answer(key, compute, None) for key, compute, _ in asked]
    until = time.monotonic() + seconds
    try:
        for key, compute, size in asked:  # every one started (or found kept) before any is waited for
            CHECKS.answer(key, compute, 0, size)
        found = [CHECKS.answer(key, compute, max(0.0, until - time.monotonic()), size) for key, compute, size in asked]
    except Crowded as exc:
        retry = CHECKS.crowded_wait()
        raise BudgetExceeded("waiting for other layer checks", f"Try again in {retry} s.", retry,
                             f"請 {retry} 秒後再試。",
                             detail=f"Other layer checks are being made: this one was not started; the first of them "
                                    f"is expected to end in {retry} s.",
                             detail_zh=f"其他層次核對正在進行，本卷的未能開始；其中最先的預計 {retry} 秒後完成。",
                             log=f"layer check not started: {exc} (Retry-After {retry} s)") from exc
    pending = [(key, size) for (key, _, size), result in zip(asked, found) if result is PENDING]
    if pending:
        retry = max(CHECKS.expected_wait(key, size, expected_seconds(tuple(pk for pk, _ in key), size))
                    for key, size in pending)
        names = "、".join(f"{r.edition.work.title}（{r.edition.name}）" for r in references)
        raise BudgetExceeded(
            "checking the layers", f"Try again in {retry} s: the check is then read from what was kept.", retry,
            f"請 {retry} 秒後再試：屆時直接讀取已完成的核對。",
            detail=f"The layers of this book are being checked: the whole edition is aligned with "
                   f"{'; '.join(f'{r.edition.work.title} ({r.edition.name})' for r in references)} first, which takes "
                   f"longer than a request "
                   f"may wait ({seconds:g} s); it goes on without this request and is kept when done.",
            detail_zh=f"正在核對層次：全書須先與{names}逐字對齊，所需時間超過一次請求可等候的時限（{seconds:g} 秒）；"
                      f"核對不因此中止，完成後即存留。",
            log=f"layer check not made within the {seconds:g} s a request waits for it; it goes on "
                f"(Retry-After {retry} s)")
    return found


def juan_check(juan: Juan, reference: Reference) -> Result:
    """The layer check of ``juan`` against ``reference`` (see the module docstring): a ``Result``
    whose ``*_aligned``, ``*_ok``, ``disputed``, ``other_commentary`` and places (all of them,
    largest first) are the juan's, ``*_total`` the whole reference's."""
    return juan_result(_checked(juan.edition, [reference])[0], juan.number)


#: What each kind of place says (``layercheck.Place.kind``).
PLACE_KINDS = {"classic": ("classic stored otherwise", "他本之經，此本存為注等"),
               "commentary": ("commentary stored as classic", "他本之注，此本存為經")}


def _edition_json(edition: Edition) -> dict:
    return {"id": edition.pk, "slug": edition.slug, "work": edition.work.title, "name": edition.name}


def command(juan: Juan, reference: Reference) -> str:
    """The ``check_layers`` command that prints ``juan``'s figures against ``reference``."""
    slugs = " ".join(e.slug for e in [juan.edition, reference.edition, *reference.judges])
    return f"manage.py check_layers {slugs} --juan {juan.number}"


def to_json(juan: Juan, reference: Reference, res: Result) -> dict:
    """One reference's check of ``juan`` (``juan_check``) as the API gives it and the page shows
    it: the reference and its judges (id, slug, work title, edition name); ``classic``: reference
    classic characters aligned with this juan, of them stored as classic, the share as
    ``check_layers`` prints it and the whole reference's classic; ``commentary`` the same for
    its notes (stored as 注 or 音義); the characters not counted (notes by another commentator,
    ``other_commentary``; what the judges print otherwise, ``disputed``); every place, largest
    first: ``kind`` (``classic``: the reference's classic stored otherwise here; ``commentary``:
    its commentary stored as classic here), ``what`` (English, Chinese), ``characters``, the
    section's ``position`` and ``url``, and the two texts around it (``edition``: layers other
    than the classic in 〔…〕; ``reference``: small print in (…)); ``command``, the
    ``check_layers`` command that prints the same figures."""
    places = []
    for p in res.places:
        url = reverse("reader:section", args=[juan.edition.slug, juan.number, p.section]) if p.section else None
        places.append({"kind": p.kind, "what": list(PLACE_KINDS[p.kind]), "characters": p.chars,
                       "section": p.section, "url": url, "edition": p.edition, "reference": p.reference})
    return {
        "reference": _edition_json(reference.edition),
        "judges": [_edition_json(e) for e in reference.judges],
        "classic": {"aligned": res.classic_aligned, "stored_as_classic": res.classic_ok,
                    "share": percent(res.classic_share), "in_reference": res.classic_total},
        "commentary": {"aligned": res.commentary_aligned, "stored_as_commentary": res.commentary_ok,
                       "share": percent(res.commentary_share), "in_reference": res.commentary_total},
        "not_counted": {"other_commentary": res.other_commentary, "other_commentators": list(res.other_names),
                        "disputed": res.disputed},
        "places": places,
        "command": command(juan, reference),
    }


def juan_json(juan: Juan, references: list[Reference]) -> dict:
    """The 層次核對 of ``juan`` against each of ``references`` (``to_json``), with the edition
    and the juan: ``{"edition": {…}, "juan": {"number", "label", "url"}, "references": […]}``.
    Raises ``config.budget.BudgetExceeded`` (a 503 with ``Retry-After``) while a check is being made
    (``_checked``)."""
    return {"edition": _edition_json(juan.edition),
            "juan": {"number": juan.number, "label": juan.display_label, "url": juan.get_absolute_url()},
            "references": [to_json(juan, ref, juan_result(checked, juan.number))
                           for ref, checked in zip(references, _checked(juan.edition, references))]}


def chosen_references(juan: Juan, wanted: list[str]) -> tuple[list[Reference], list[Reference], list[str]]:
    """``(chosen, all, unknown)``: the references of ``juan``'s edition (``references_of``) named
    by ``wanted`` (slugs or ids; all of them when it names none) and the values naming none."""
    found = references_of(juan.edition, juan.work)
    wanted = [w for w in wanted if w.strip()]
    if not wanted:
        return found, found, []
    known = {r.edition.slug for r in found} | {str(r.edition.pk) for r in found}
    chosen = [r for r in found if r.edition.slug in wanted or str(r.edition.pk) in wanted]
    return chosen, found, [w for w in wanted if w not in known]
