from django.apps import AppConfig


class ReaderConfig(AppConfig):
    name = "reader"
    verbose_name = "Reader"
