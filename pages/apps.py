from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The reading pages and the page cache: the top layer, above the texts, search and
    collation (docs/architecture.md)."""
    name = "pages"
    verbose_name = "Pages"
