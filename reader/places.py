"""Finding what a reading URL names: the edition ``/works/<slug>/`` and every address under it
read (one rule, ``edition_by_slug``), the edition of ``/works/<work>/editions/<slug>/``, the
juan ``/works/<slug>/juan/<number>/`` (404 when there is none), and the works a key that is no
slug names by their title (``by_title``, ``works_titled``: the reading pages' ``/works/荀子/`` and the API's
``/api/works/荀子/`` read a title by this one rule)."""
from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import get_object_or_404

from catalogue.catalogue import entry as catalogue_entry
from characters.folding import query_folds

from .importers.mandoku.header import CATALOGUE_MARK
from .models import Edition, Juan, Work


def edition_by_slug(slug) -> Edition:
    """The edition ``/works/<slug>/`` names, and with it every address under that key (a juan,
    a section, their collation and quotation map, the correction form): the edition of that slug
    (every slug a text had before editions existed is its edition's: the seed's 禮書綱目 is the
    seed's text, also when Kanripo's fuller KR1d0086 is an edition of the same work), else the
    default edition of the work of that slug (``Work.default_edition``); 404 otherwise."""
    edition = Edition.objects.select_related("work").filter(slug=slug).first()
    if edition is None:
        work = Work.objects.filter(slug=slug).first()
        edition = work.default_edition() if work else None
    if edition is None:
        raise NoSuchWork(slug)
    return edition


class NoSuchWork(Http404):
    """No edition and no work has the key ``key`` (``edition_by_slug``'s 404). ``suggestions``, read
    when the site's 404 page is written (``config.api_errors.not_found``), are the works whose titles
    are close to it (``close_titles``), as ``{"title", "url"}``."""

    def __init__(self, key: str):
        super().__init__("No such work")
        self.key = key

    @property
    def suggestions(self) -> list[dict]:
        return [{"title": w.title, "url": w.get_absolute_url()} for w in close_titles(self.key)]


#: Most works ``close_titles`` names.
MOST_CLOSE = 8


def close_titles(key: str, most: int = MOST_CLOSE) -> list[Work]:
    """The works whose titles (``work_titles``) are closest to ``key``, a title that names none: those
    one of whose titles shares ``MIN_PART`` characters or more with it, each character compared as a
    query folds it (``characters.folding.query_folds``: 礼 and 禮, 説 and 說 are one), the most shared
    first, then the title nearest in length, then by id; at most ``most``. Kanripo calls the book a
    reader types 儀禮注疏 by its catalogue title 儀禮疏 (KR1d0027): ``儀禮注疏`` → 儀禮疏 (儀禮疏 shared), then
    the works that share 儀禮 or more (儀禮鄭註句讀 …). [] for a key longer than ``MAX_TITLE`` or that
    shares too little with every title."""
    if not key or len(key) > MAX_TITLE:
        return []
    typed = [query_folds(ch) for ch in dict.fromkeys(key)]
    scored = []
    for work in Work.objects.only("pk", "slug", "title", "other_titles", "kanripo_id").order_by("pk"):
        best = None
        for title in work_titles(work):
            held = set().union(*(query_folds(ch) for ch in title))
            shared = sum(1 for folds in typed if folds & held)
            rank = (-shared, abs(len(title) - len(key)))
            if shared >= MIN_PART and (best is None or rank < best):
                best = rank
        if best is not None:
            scored.append((best, work.pk, work))
    return [work for *_, work in sorted(scored, key=lambda s: s[:2])[:most]]


def juan_by_slug(slug, number) -> Juan:
    """The juan ``number`` of the edition ``slug`` names (``edition_by_slug``), with its work
    and edition; 404 when there is none."""
    juan = Juan.objects.select_related("work", "edition").filter(edition__slug=slug, number=number).first()
    if juan is None:
        edition = edition_by_slug(slug)
        juan = get_object_or_404(Juan.objects.select_related("work", "edition"), edition=edition, number=number)
    return juan


def edition_of_work(work_slug, slug) -> Edition:
    """The edition ``slug`` of the work ``work_slug`` (``/works/<work>/editions/<slug>/``);
    404 when the work has no edition of that slug."""
    return get_object_or_404(Edition.objects.select_related("work"), work__slug=work_slug, slug=slug)


#: The longest title ``works_titled`` compares as search folds it (a key longer than any title
#: names nothing, and is not folded).
MAX_TITLE = 100


#: The fewest characters a key has to be read as part of works' titles (one character names too
#: many books to be a title).
MIN_PART = 2


def work_titles(work: Work) -> list[str]:
    """Every title of ``work``, each once: its own, the other titles its sources give it
    (``Work.other_titles``: 老子道德經, the Readme.org's, for KR5c0065 道德真經注), and the title of
    Kanripo's catalogue for its ID without its closing mark (道德真經註 for 道德真經註(一))."""
    titles = [work.title, *work.other_titles.splitlines()]
    listed = catalogue_entry(work.kanripo_id) if work.kanripo_id else None
    if listed is not None:
        titles.append(CATALOGUE_MARK.sub("", listed.title))
    return [t for t in dict.fromkeys(titles) if t]


@dataclass(frozen=True)
class Titled:
    """The works a key names by their titles (``by_title``): ``works`` by id, and ``part``, True
    when the key is only part of their titles (周禮 of 周禮注疏, 老子 of 老子道德經), False when it
    is one of their titles, as written or as a query folds it: the pages and the API word their
    answer by it (「題為」 a title, 「題含」 part of one)."""

    works: list[Work]
    part: bool = False


def by_title(title: str) -> Titled:
    """The works whose title is ``title``: as written, else any of their titles (``work_titles``:
    the sources' and the catalogue's, 老子道德經 for 道德真經注) as written or as a query reads
    both (``characters.folding.query_folds``: variants and simplified forms, a simplified character
    that stands for several traditional ones read as each; 仪礼释宫増注 as 儀禮釋宮增注, 礼书纲目 as
    禮書綱目 and 禮書綱目 as a work titled 礼书纲目, though 纲 is read per place in the index and
    ``fold`` keeps it), else, for a key of ``MIN_PART`` characters or more, the works one of whose
    titles holds it so read (老子 → 老子道德經; 周禮 → 周禮注疏 and 周禮訂義, which the caller lists;
    ``Titled.part``); by id. No works when none is. The reading pages
    (``pages.catalogue.titled_works``) and the API (``api.redirects.work_by_slug``) read a key that
    names no edition and no work by it."""
    works = list(Work.objects.filter(title=title).order_by("pk"))
    if works or len(title) > MAX_TITLE:
        return Titled(works)
    keys = query_folds(title)
    titles = [(w, [query_folds(t) for t in work_titles(w)])
              for w in Work.objects.only("pk", "title", "other_titles", "kanripo_id").order_by("pk")]
    named = [w for w, folds in titles if any(keys & f for f in folds)]
    if named or len(title) < MIN_PART:
        return Titled(named)
    return Titled([w for w, folds in titles if any(k in t for f in folds for t in f for k in keys)], part=True)


def works_titled(title: str) -> list[Work]:
    """The works of ``by_title(title)``, by id (``[]`` when none is)."""
    return by_title(title).works
