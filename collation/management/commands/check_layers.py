"""``manage.py check_layers EDITION REFERENCE…``: align the classic layer of a commentary
edition with an independent edition of the same text and print how much of the
reference's classic it stores as classic and of its commentary as commentary, with the
worst places (``collation.layercheck``).

EDITION and each REFERENCE are a Kanripo folder or file (parsed as the importer would,
nothing stored) or the slug of a stored edition. Several REFERENCEs are independent editions
of one classic: each is measured, judged with the others (``layercheck.check``: what they
print otherwise, one full size and another small, is not counted); the edition's front matter
takes part only when one of them has front matter too (``layercheck.FRONT_MATTER``). ``--shared`` runs every
pair of ``../shared/corpus`` (``layercheck.PAIRS``, then ``layercheck.CATALOGUE_PAIRS``) and prints one table row
per pair. ``--juan N``
prints the figures and places of the edition's juan N only (the stored juan numbered N, or the
Kanripo file numbered N), out of the same alignment of the whole edition: what a juan's 層次核對
page shows (``collation.juanlayers``).
"""
from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from collation.layercheck import CATALOGUE_PAIRS, PAIRS, Result, check, check_by_juan, juan_result, percent
from collation.layersources import edition_stream, reference_stream

SHARED = Path(settings.BASE_DIR).parent / "shared" / "corpus"


def same_source(source: str):
    """What names one edition however it is written, to tell a reference named twice: the
    resolved path of a folder or file (``./KR1h0005`` and ``KR1h0005/`` alike), else the
    stored edition's slug as given."""
    path = Path(source)
    if path.exists():
        return ("path", path.resolve())
    return ("slug", source)


def row(edition: str, reference: str, res: Result) -> str:
    """One table row: the pair, classic share (aligned/total), commentary share (aligned/total);
    a reference whose notes are another commentator's shows ``— (notes by 朱申)``."""
    commentary = percent(res.commentary_share)
    if res.commentary_aligned == 0 and res.other_names:
        commentary += f" (notes by {'、'.join(res.other_names)})"
    return (f"| {edition} | {reference} | {percent(res.classic_share)} | {res.classic_ok:,} / {res.classic_aligned:,}"
            f" of {res.classic_total:,} | {commentary} | {res.commentary_ok:,} / "
            f"{res.commentary_aligned:,} of {res.commentary_total:,} |")


HEADER = ("| edition | reference | classic as classic | characters (ok / aligned of total) "
          "| commentary as commentary | characters (ok / aligned of total) |\n| --- | --- | --- | --- | --- | --- |")


class Command(BaseCommand):
    """``manage.py check_layers EDITION REFERENCE…`` or ``--shared``: how much of a reference's classic and
    commentary an edition stores in the same layer (``collation.layercheck``), with the worst places; the
    table in docs/reading.md comes from ``--shared``."""

    help = ("Align the classic layer of a commentary edition (a Kanripo folder or file, or a stored "
            "edition's slug) with independent editions of the same text and print the share of the "
            "reference's classic stored as classic, of its commentary stored as commentary, and the "
            "worst places.")

    def add_arguments(self, parser):
        """``edition``, ``reference…``, ``--shared``, ``--worst N``, ``--juan N``."""
        parser.add_argument("edition", nargs="?", help="the commentary edition: folder, file or stored slug")
        parser.add_argument("reference", nargs="*",
                            help="the reference edition(s): each measured, judged with the others")
        parser.add_argument("--shared", action="store_true",
                            help="every pair of ../shared/corpus (SOURCES.md, kanripo-references) as a table")
        parser.add_argument("--worst", type=int, default=10, help="how many places to print (default 10)")
        parser.add_argument("--juan", type=int, help="the figures and places of the edition's juan N only")

    def handle(self, *args, **opts):
        """Measure the edition against each reference (judged with the others), or every pair of ``PAIRS`` with
        ``--shared``. Raises ``CommandError`` without an edition and a reference, or when one cannot be read."""
        if opts["shared"]:
            return self.shared(opts["worst"])
        if not opts["edition"] or not opts["reference"]:
            raise CommandError("give EDITION and at least one REFERENCE, or --shared")
        if opts["worst"] < 0:
            raise CommandError(f"--worst must be 0 or more (the number of places printed), not {opts['worst']}")
        named: dict = {}
        for source in opts["reference"]:
            if (key := same_source(source)) in named:
                raise CommandError(f"{source}: the same reference as {named[key]}, named twice: each reference is "
                                   "measured and judged with the others, so name each once")
            named[key] = source
        try:
            refs = [reference_stream(source) for source in opts["reference"]]
            ed = edition_stream(opts["edition"], front_matter=any(ref.front_matter for ref in refs))
        except LookupError as exc:
            raise CommandError(str(exc)) from exc
        juan = opts["juan"]
        if juan is not None and juan not in ed.juans:
            raise CommandError(f"{opts['edition']} has no juan {juan} (its juans: "
                               f"{', '.join(str(n) for n in ed.juans) or 'none'})")
        for k, (source, ref) in enumerate(zip(opts["reference"], refs)):
            others = opts["reference"][:k] + opts["reference"][k + 1:]
            judges = refs[:k] + refs[k + 1:]
            if juan is None:
                res = check(ed, ref, worst=opts["worst"], judges=judges)
            else:
                res = juan_result(check_by_juan(ed, ref, worst=opts["worst"], judges=judges), juan)
            self.report(opts["edition"] + ("" if juan is None else f" juan {juan}"), source, res, others)

    def report(self, edition: str, reference: str, res: Result, judges=()) -> None:
        """Write one pair's figures (shares, counts in characters) and its worst places to stdout."""
        out = self.stdout
        out.write(f"{edition} against {reference}" + (f", judged with {', '.join(judges)}" if judges else ""))
        out.write(f"  classic stored as classic:        {percent(res.classic_share)} "
                  f"({res.classic_ok:,} of {res.classic_aligned:,} aligned; {res.classic_total:,} in the reference)")
        out.write(f"  commentary stored as commentary:  {percent(res.commentary_share)} "
                  f"({res.commentary_ok:,} of {res.commentary_aligned:,} aligned; "
                  f"{res.commentary_total:,} in the reference)")
        if res.other_commentary:
            out.write(f"  not counted: {res.other_commentary:,} characters of notes by {'、'.join(res.other_names)}, "
                      "whom the edition's bylines do not name and whose notes it does not print: they measure nothing "
                      "of its commentary")
        if judges:
            out.write(f"  not counted: {res.disputed:,} characters aligned where {', '.join(judges)} prints "
                      "otherwise (one full size, the other small)")
        if res.places:
            out.write("  worst places (edition: layers other than the classic in 〔…〕; reference: small print in (…)):")
        for p in res.places:
            what = "classic stored otherwise" if p.kind == "classic" else "commentary stored as classic"
            out.write(f"  {p.chars:>5}  {what}  {p.where}")
            out.write(f"         edition:   {p.edition}")
            out.write(f"         reference: {p.reference}")

    def shared(self, worst: int) -> None:
        """Measure every pair of ``PAIRS``, then of ``CATALOGUE_PAIRS``, under ``../shared/corpus`` and write the
        Markdown table (``HEADER``, one ``row`` a pair, with its time). Raises ``CommandError`` when the shared
        corpus is missing."""
        if not SHARED.is_dir():
            raise CommandError(f"{SHARED}: no shared corpus here")
        rows = []
        for edition, reference, *judges in PAIRS + CATALOGUE_PAIRS:
            started = time.perf_counter()
            ref = reference_stream(str(SHARED / reference))
            others = [reference_stream(str(SHARED / judge)) for judge in judges]
            ed = edition_stream(str(SHARED / edition), front_matter=any(r.front_matter for r in [ref, *others]))
            res = check(ed, ref, worst=worst, judges=others)
            e, r, j = edition.split("/")[-1], reference.split("/")[-1], [judge.split("/")[-1] for judge in judges]
            self.report(e, r, res, j)
            self.stdout.write(f"  ({time.perf_counter() - started:.1f} s)\n")
            rows.append(row(e, r + (f" (judged with {', '.join(j)})" if j else ""), res))
        self.stdout.write(HEADER)
        for line in rows:
            self.stdout.write(line)
