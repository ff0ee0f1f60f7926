from django.apps import AppConfig


class CollationConfig(AppConfig):
    """Collation of editions and parallel passages (issue 14)."""

    name = "collation"
    default_auto_field = "django.db.models.BigAutoField"
