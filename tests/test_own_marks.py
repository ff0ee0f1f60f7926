"""A reader's private notes and bookmarks marked on the reading pages for that reader alone: a
new user kept a private note on a passage and found nothing on the page to say so. Each passage
carrying one of the signed-in reader's own notes or bookmarks now has a mark after it, a word
(筆記, 書籤) linking to the note, named for a screen reader; nobody else's page has it, and the
pages the page cache keeps (anonymous readers') are the same as before."""
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from corrections.workflow import accept, propose

from .test_corrections import PW, people  # noqa: F401 - the fixture

JUAN = "/works/禮書綱目/juan/10/"
SECTION = JUAN + "1/"


def marks(html: str) -> list[str]:
    return re.findall(r'<a class="own-mark[^"]*"[^>]*>.*?</span></a>', html)


def right_after(html: str, piece: str, href: str) -> bool:
    """Whether the mark linking to ``href`` stands right after the piece ``piece`` (its closing
    tag), before any other piece: outside its text, so that a selection of the passage counts no
    character of the mark."""
    start = html.index(f'id="{piece}"')
    end = html.index(f'<a class="own-mark', start)
    return 'id="s' not in html[start + 4:end] and html[end - 7:end] == "</span>" and \
        html[end:].startswith(f'<a class="own-mark own-private_note" href="{href}"')


def reader_client(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, password=PW)
    c = Client()
    c.force_login(user)
    return user, c


def test_a_readers_own_notes_and_bookmarks_are_marked_on_their_passages_for_them_alone(seed_juan, people):
    reader, c = reader_client("reader")
    note = propose(reader, seed_juan, kind="private_note", section=1, piece=3, start=0, end=2, reason="",
                   replacement="參看鄉射禮")
    mark = propose(reader, seed_juan, kind="bookmark", section=2, piece=0, start=0, end=1, reason="")
    html = c.get(JUAN).content.decode()
    assert marks(html) == [
        f'<a class="own-mark own-private_note" href="/corrections/{note.pk}/" title="我的私人筆記 #{note.pk}，只有你看得到：'
        f'「將有」：參看鄉射禮">筆記<span class="visually-hidden">（我的私人筆記 #{note.pk}，只有你看得到：「將有」：參看鄉射禮）</span></a>',
        f'<a class="own-mark own-bookmark" href="/corrections/{mark.pk}/" title="我的書籤 #{mark.pk}，只有你看得到：'
        f'「{mark.original}」">書籤<span class="visually-hidden">（我的書籤 #{mark.pk}，只有你看得到：「{mark.original}」）</span></a>']
    # right after the passage the note is on (its note 〔將有祭祀之事…〕), outside its text
    assert "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者</span><a class=\"own-mark own-private_note\"" in html
    assert right_after(html, "s1-p3", f"/corrections/{note.pk}/")
    # the section's own page too, in every layout
    assert len(marks(c.get(SECTION).content.decode())) == 1
    assert len(marks(c.get(SECTION, {"layout": "vertical"}).content.decode())) == 1
    # nobody else: another reader, an editor, an anonymous reader
    _, other = reader_client("other")
    editor = Client()
    editor.force_login(people["editor"])
    for client in (other, editor, Client()):
        assert marks(client.get(JUAN).content.decode()) == []


def test_a_note_whose_passage_was_corrected_is_marked_where_its_words_are(seed_juan, people):
    """An accepted correction before the note's words shifts them: the note is placed by its
    words (``corrections.overlay.place``), as an annotation is, and its mark follows its passage."""
    reader, c = reader_client("reader")
    note = propose(reader, seed_juan, kind="private_note", section=1, piece=3, start=10, end=12, reason="",
                   replacement="君君")  # 於君 of 〔將有祭祀之事當射宰告於君君乃命之…〕
    fix = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                  replacement="將將將", reason="他本")
    accept(fix, people["editor"])
    html = c.get(SECTION).content.decode()
    assert '<span class="corrected">將將將</span>' in html and right_after(html, "s1-p3", f"/corrections/{note.pk}/")
    assert f'title="我的私人筆記 #{note.pk}，只有你看得到：「於君」：君君"' in html


def test_the_marks_leave_the_kept_pages_of_anonymous_readers_as_they_were(seed_juan, page_cache):
    """The marks are read for a signed-in reader only: an anonymous reader's page touches no
    session and is kept by the page cache as before; a signed-in reader's page goes around it."""
    reader, c = reader_client("reader")
    propose(reader, seed_juan, kind="private_note", section=1, piece=3, start=0, end=2, reason="", replacement="甲")
    anonymous = Client()
    first = anonymous.get(JUAN)
    assert first.status_code == 200 and marks(first.content.decode()) == []
    assert len(page_cache._cache) == 1
    assert len(marks(c.get(JUAN).content.decode())) == 1
    assert len(page_cache._cache) == 1
    assert marks(anonymous.get(JUAN).content.decode()) == []
