"""The README's commands work as written on a fresh clone: a management command run without
``DJANGO_DEBUG`` (and without ``DJANGO_SECRET_KEY``) stops with a one-line message
(``config.settings``), so every ``manage.py`` command the README shows sets it."""
import re

from .conftest import BASE_DIR


def _commands(markdown: str) -> list[str]:
    """The shell commands of the README: the lines of its ``sh`` blocks (a line ending in ``\\``
    joined with the next) and its inline code spans that run the virtualenv's Python (not those
    that only name a command, such as ``manage.py import_texts PATH...``)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", markdown, re.S):
        commands += [c.strip() for c in block.replace("\\\n", " ").splitlines() if c.strip()]
    prose = re.sub(r"```.*?```", "", markdown, flags=re.S)
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]  # a span may wrap a line
    commands += [span for span in spans if ".venv/bin/python " in span]
    return commands


def test_every_management_command_of_the_readme_sets_django_debug():
    """The README's import of the whole library (Benchmark) ran ``.venv/bin/python manage.py
    import_texts …`` without ``DJANGO_DEBUG=true``: copied as written, it only printed
    "DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set"."""
    commands = [c for c in _commands((BASE_DIR / "README.md").read_text(encoding="utf-8")) if "manage.py " in c]
    assert [c.split("manage.py ")[1].split()[0] for c in commands] == ["import_texts", "runserver", "create_account"]
    assert [c for c in commands if not re.match(r"DJANGO_DEBUG=true \.venv/bin/python manage\.py ", c)] == []
