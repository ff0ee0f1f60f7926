from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    """The library's classification (``catalogue``): Kanripo's catalogue of the 四部 (and the 道部,
    佛部), shipped as data. No models, no signals; it sits at the bottom of the house beside
    ``characters`` and imports no other app."""

    name = "catalogue"
    verbose_name = "Catalogue"
