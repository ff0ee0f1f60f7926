"""The admin can save every section: one with more pieces than one form may hold links to
its pieces instead of editing them inline."""
import pytest
from django.contrib.auth.models import User

from reader.models import Piece, Section


@pytest.fixture
def editor(client, db):
    User.objects.create_superuser("editor", password="x-correct-horse-9")
    client.force_login(User.objects.get(username="editor"))
    return client


def _section_form(section, **changes):
    form = {"juan": section.juan_id, "chapter": section.chapter_id, "position": section.position,
            "title": section.title, "closer": section.closer or "", "record_separator": section.record_separator,
            "paragraph_count": section.paragraph_count, "blank_lines_after": section.blank_lines_after,
            "line": section.line, "closer_layout": "[]", "page": section.page, "bylines": "[]"}
    form.update(changes)
    return form


def test_a_section_with_more_pieces_than_one_form_allows_can_be_saved(editor, seed_juan, settings):
    section = Section.objects.get(juan=seed_juan, position=2)
    start = section.pieces.count()
    extra = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 100
    Piece.objects.bulk_create(Piece(section=section, position=start + i, paragraph=0, kind="note", text="注")
                              for i in range(extra))
    url = f"/admin/reader/section/{section.pk}/change/"
    page = editor.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"{start + extra} pieces, too many to edit here" in html
    assert f'href="/admin/reader/piece/?section__id__exact={section.pk}"' in html
    assert "pieces-TOTAL_FORMS" not in html
    response = editor.post(url, _section_form(section, title="右張侯（校）"))
    assert response.status_code == 302, response.content.decode()[:2000]
    section.refresh_from_db()
    assert section.title == "右張侯（校）"
    assert section.pieces.count() == start + extra  # nothing lost
    listing = editor.get(f"/admin/reader/piece/?section__id__exact={section.pk}")
    assert listing.status_code == 200 and f"{start + extra} pieces" in listing.content.decode()


def test_a_small_section_keeps_its_inline(editor, seed_juan):
    section = Section.objects.get(juan=seed_juan, position=2)
    html = editor.get(f"/admin/reader/section/{section.pk}/change/").content.decode()
    assert f'name="pieces-TOTAL_FORMS" value="{section.pieces.count()}"' in html
    assert "too many to edit here" not in html
