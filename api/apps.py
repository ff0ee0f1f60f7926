from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The JSON API (``/api/``): DRF views over the texts, search and collation; it holds no models."""

    name = "api"
    verbose_name = "API"
