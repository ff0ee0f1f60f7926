from django.apps import AppConfig


class CorrectionsConfig(AppConfig):
    """Corrections and their review: an overlay on the stored texts (docs/corrections.md)."""

    name = "corrections"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect ``corrections.receivers`` to ``reader.signals`` (re-anchor accepted corrections after a
        re-import)."""
        # The receivers need the models, which exist only once the app registry is ready.
        from corrections import receivers  # noqa: F401  (AppConfig.ready)
