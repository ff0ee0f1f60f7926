"""``manage.py pull_index DIR``: fetch the newest published index generation and swap it in."""
from django.core.management.base import BaseCommand, CommandError

from search.backends import IndexUnavailable, SearchError, get_search_backend
from search.shipping import pull


class Command(BaseCommand):
    help = "Fetch the newest index published in DIR and swap it in atomically (see docs/production.md)."

    def add_arguments(self, parser):
        parser.add_argument("dir", help="the shared folder publish_index wrote to")
        parser.add_argument("--allow-older", action="store_true",
                            help="take the published generation even when it was made before the newest one this "
                                 "server has pulled (going back on purpose; refused otherwise as a replay)")

    def handle(self, *args, **opts):
        try:
            name, changed = pull(get_search_backend(), opts["dir"], allow_older=opts["allow_older"])
        except (SearchError, IndexUnavailable, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"swapped in {name}" if changed else f"{name} is already the current index")
