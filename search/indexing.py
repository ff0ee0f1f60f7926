"""Building the index from the database (the one place that walks every juan)."""
from __future__ import annotations

from reader.models import Juan

from .documents import documents_for_juan


def rebuild_from_database(backend) -> int:
    """Rebuild ``backend`` from every stored juan; returns the number of passages.

    A juan imported, replaced or deleted while the rebuild reads the database is caught
    up before the new index goes live (the ``catch_up`` of ``BaseSearchBackend.rebuild``),
    so a rebuild racing an import never swaps in an index without that juan."""
    def documents():
        for juan in Juan.objects.select_related("work").order_by("work_id", "number"):
            yield from documents_for_juan(juan)

    def catch_up(indexed: set[int]):
        current = set(Juan.objects.values_list("pk", flat=True))
        remove = indexed - current
        add = []
        for juan in Juan.objects.select_related("work").filter(pk__in=current - indexed):
            add.extend(documents_for_juan(juan))
        # A juan whose passages came out empty because it was deleted mid-read is gone too.
        return remove, add

    return backend.rebuild(documents(), catch_up=catch_up)


def reindex_juans(backend, changes: list[tuple[int, int | None]]) -> int:
    """Index a batch of imported juans in one writer: ``changes`` is ``[(juan_id,
    replaced_juan_id or None), ...]``. Returns the number of passages added."""
    remove = {jid for pair in changes for jid in pair if jid is not None}
    ids = [new for new, _ in changes]

    def documents():
        for juan in Juan.objects.select_related("work").filter(pk__in=ids).order_by("work_id", "number"):
            yield from documents_for_juan(juan)

    return backend.replace_juans(remove, documents())
