"""``manage.py search 大射 --layer classic``: KWIC lines in the terminal (thin over the search service).
Each line names its place as the hit list does (a work of several editions with its edition).
Names and text read as the pages show them (a gaiji as the character Kanripo's gaiji table reads
it as, else 〓, as is U+0001: ``characters.gaiji.readable``, decisions 0102 and 0108);
``--stored`` prints the KWIC as stored (``&KR0237;``), as the API's ``before``/``match``/``after``.

``--layer`` takes one or more layer choices, comma-separated or repeated
(``--layer commentary,subcommentary``, ``--layer commentary --layer readings``)."""
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from characters.gaiji import readable

from search.startup import sync_at_start
from search.backends import IndexUnavailable, SearchError
from search.backends.base import SORTS
from search.documents import LAYER_ALIASES, LAYER_GROUPS
from search.forms import SearchForm
from search.service import edition_places, name_layers, run_search


class Command(BaseCommand):
    help = "Search the texts and print one KWIC line per hit: place, layer, before [match] after."

    def add_arguments(self, parser):
        parser.add_argument("query", nargs="+", help="the query (words are joined by spaces: AND)")
        parser.add_argument("--layer", action="append", default=[], metavar="LAYER[,LAYER…]",
                            help="limit to these layers (repeat or separate by commas): "
                                 + ", ".join(list(LAYER_GROUPS) + list(LAYER_ALIASES)) + "; default all")
        parser.add_argument("--exact", action="store_true", help="compare characters exactly (no variant folding)")
        parser.add_argument("--work", help="the work's slug (禮書綱目) or id, as in /works/<slug>/ and the API: all its "
                                           "editions")
        parser.add_argument("--edition", help="the edition's slug (KR1d0086-WYG) or id")
        parser.add_argument("--juan", help="the book's juan label (卷十, 十, 10, 卷首上), as the search page takes it")
        parser.add_argument("--context", type=int, default=15, help="characters on each side (default 15)")
        parser.add_argument("--limit", type=int, default=0, help="print at most this many hits (0: all)")
        parser.add_argument("--stored", action="store_true",
                            help="print the text as stored, a gaiji as its entity (&KR0237;) and an unreadable "
                                 "character as U+0001; by default as the pages show them (𥜗, 〓)")
        parser.add_argument("--sort", choices=list(SORTS), default="text",
                            help="text order, relevance, or the concordance sorts: after (by the characters after "
                                 "the match), before (by those before it, read right to left)")

    def handle(self, *args, **opts):
        sync_at_start()  # an index left behind by an interrupted update is repaired first
        form = SearchForm({"q": " ".join(opts["query"]), "layer": opts["layer"], "exact": opts["exact"],
                           "work": opts["work"], "edition": opts["edition"], "juan": opts["juan"],
                           "context": opts["context"],
                           "sort": opts["sort"]})
        if not form.is_valid():
            raise CommandError("; ".join(e for errors in form.errors.values() for e in errors))
        try:
            query = form.search_query()
            results = run_search(query) if query is not None else None
        except (SearchError, IndexUnavailable) as exc:
            raise CommandError(str(exc)) from None
        if results is None:  # "" or spaces: the search page shows its empty form; here, say so
            raise CommandError("請輸入檢索詞 (an empty query: give the characters to search for)")
        hits = results.hits[: opts["limit"]] if opts["limit"] else results.hits
        # a work of several editions names the edition, as the hit list does: 禮書綱目（四庫全書・文淵閣本）
        names = {p["slug"]: p["full_name"] for p in edition_places().values()}
        text = (lambda t: t) if opts["stored"] else readable  # the KWIC as stored, or as the pages show it
        try:
            for h in (h for i in range(0, len(hits), 500) for h in name_layers(hits[i:i + 500])):
                title = f"「{h.section_title}」" if h.section_title else ""
                place = readable(f"{names.get(h.work_slug, h.work_title)} {h.juan_label} {h.section_position}{title}")
                self.stdout.write(f"{place}\t{readable(h.layer_name)}\t{text(h.before):>{opts['context']}}"
                                  f"[{text(h.match)}]{text(h.after)}")
            self.stdout.write(f"{results.count} hits in {results.passages} passages")
            self.stdout.flush()
        except BrokenPipeError:  # piped into head: stop quietly, as Unix tools do
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
