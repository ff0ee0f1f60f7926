#!/usr/bin/env python
"""Django's command-line utility."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # reads the environment (config/settings.py)
    except ImproperlyConfigured as exc:  # one line on how to run, not a traceback
        sys.exit(f"manage.py: {exc}")

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
