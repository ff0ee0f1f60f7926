"""``manage.py publish_index DIR``: copy the current index generation to a shared folder, after
repairing what an interrupted update left behind (``search.indexing.sync_index``), linking the
files the previous publication holds unchanged (``search.shipping.publish_generation``)."""
from django.core.management.base import BaseCommand, CommandError

from reader.dberrors import explained
from search.backends import IndexUnavailable, SearchError, get_search_backend
from search.indexing import sync_index
from search.shipping import publish_generation


class Command(BaseCommand):
    help = "Copy the finished search index to DIR (shared by the app servers; see docs/production.md)."

    def add_arguments(self, parser):
        parser.add_argument("dir", help="the shared folder (a path or a mounted volume)")

    @explained("Nothing was published.")
    def handle(self, *args, **opts):
        backend = get_search_backend()
        try:
            # An index left behind the database by an interrupted update is repaired before
            # it is shipped: else every server that pulls it would start behind too.
            written, removed = sync_index(backend)
            if written or removed:
                self.stdout.write(f"repaired the index first (an interrupted update): {written} juans reindexed, "
                                  f"{removed} removed")
            done = publish_generation(backend, opts["dir"])
        except (SearchError, IndexUnavailable, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"published {done.name} to {opts['dir']}: {done.copied} files copied ({done.copied_bytes:,} "
                          f"bytes), {done.linked} linked from the previous publication ({done.linked_bytes:,} bytes)")
