from django.apps import AppConfig


class ReaderConfig(AppConfig):
    name = "reader"
    verbose_name = "Reader"

    def ready(self):
        # Imported here, not at the top: the stamp imports the models, which need the app registry ready.
        from .stamp import connect_signals

        connect_signals()
