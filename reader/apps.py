from django.apps import AppConfig


class ReaderConfig(AppConfig):
    name = "reader"
    verbose_name = "Reader"

    def ready(self):
        from .caching import connect_signals

        connect_signals()
