from django.apps import AppConfig
from django.core.signals import request_started


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Search"

    def ready(self):
        # Imported here, not at the top: these modules import the models, which can be
        # imported only once the app registry is ready.
        from . import checks  # noqa: F401  (registers the index's system check)
        from . import signals
        from .startup import start_sync

        signals._connect()
        request_started.connect(start_sync, dispatch_uid="search_sync_at_start")
