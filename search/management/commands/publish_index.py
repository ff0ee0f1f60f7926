"""``manage.py publish_index DIR``: copy the current index generation to a shared folder."""
from django.core.management.base import BaseCommand, CommandError

from search.backends import SearchError, get_search_backend
from search.shipping import publish


class Command(BaseCommand):
    help = "Copy the finished search index to DIR (shared by the app servers; see README, Production)."

    def add_arguments(self, parser):
        parser.add_argument("dir", help="the shared folder (a path or a mounted volume)")

    def handle(self, *args, **opts):
        try:
            name = publish(get_search_backend(), opts["dir"])
        except (SearchError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"published {name} to {opts['dir']}")
