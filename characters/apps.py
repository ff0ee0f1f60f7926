from django.apps import AppConfig


class CharactersConfig(AppConfig):
    """Character knowledge (``characters``): no models, no signals; listed in
    ``INSTALLED_APPS`` so that its data and management commands belong to the project."""

    name = "characters"
    verbose_name = "Characters"
