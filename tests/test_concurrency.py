"""Readers while writers work: no error, no half page, never an empty result in between."""
import subprocess
import sys

import pytest

from pages import views
from reader import reading
from reader.importers.loader import import_file

from .conftest import BASE_DIR, SEED


@pytest.mark.django_db
def test_a_page_read_while_its_juan_is_replaced_is_read_again(client, seed_juan, monkeypatch):
    original = reading.chapter_views
    calls = []

    def replaced_between_queries(juan, sections=None, page=None, **options):
        calls.append(juan.pk)
        if len(calls) == 1:
            import_file(SEED)  # an import commits between the page's queries
        return original(juan, sections, page, **options)

    monkeypatch.setattr(views, "chapter_views", replaced_between_queries)
    page = client.get("/works/禮書綱目/juan/10/").content.decode()
    assert len(calls) == 2 and calls[0] != calls[1]
    assert page.count('<section class="section') == 45


def test_twenty_readers_during_imports_and_rebuilds():
    """The documented script, shortened: 20 clients against gunicorn while imports and
    rebuilds run (bench/concurrency.py, whose default run is 30 s)."""
    result = subprocess.run([sys.executable, "bench/concurrency.py", "--seconds", "8", "--port", "8792"],
                            cwd=BASE_DIR, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 errors" in result.stdout and "search counts seen: {21: " in result.stdout
