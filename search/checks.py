"""System checks of the search index (``manage.py check``, also run by ``migrate`` and
``runserver``): an index rebuilt by an older rule for reading juans into passages than the
code's (``search.documents.ANALYSIS``) answers searches, short of what the newer rule adds,
until ``rebuild_index`` runs; the check says so and names the command."""
from django.core import checks

from search.backends import get_search_backend
from search.documents import ANALYSIS, ANALYSIS_CHANGES


@checks.register("search")
def index_analysis(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """``[]``, or one warning (``search.W001``) when the default index records an older rule
    (``BaseSearchBackend.analysis``) than ``ANALYSIS``, naming what the rules since add and the
    command to run. Nothing for an engine with no index of its own or no index yet (the first
    import or ``rebuild_index`` writes one), or an index that cannot be read (the search
    itself then says what is wrong)."""
    try:
        backend = get_search_backend()
        written = backend.analysis()
    except Exception:  # noqa: BLE001 - a check reports what it can; searching reports the rest
        return []
    if written is None or written >= ANALYSIS:
        return []
    where = getattr(backend, "path", "the default search index")
    added = "; ".join(ANALYSIS_CHANGES[n] for n in sorted(ANALYSIS_CHANGES) if n > written)
    return [checks.Warning(
        f"the search index at {where} was written by rule {written} for reading the texts into passages, and this "
        f"code reads them by rule {ANALYSIS}: until it is rebuilt, searches lack what the newer rule adds ({added})",
        hint="run `python manage.py rebuild_index` (nothing is imported again; searches go on meanwhile)",
        id="search.W001")]
