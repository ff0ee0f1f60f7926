"""A reader deletes their own private notes and bookmarks (``/corrections/<pk>/delete/``, a POST
with the form's CSRF token); nobody else can, and nobody learns that another's exists."""
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from corrections.models import AuditEntry, Proposal
from corrections.workflow import ReviewError, accept, forget, propose

from .test_corrections import PW, people  # noqa: F401 - the fixture

URL = "/corrections/propose/禮書綱目/10/"


def reader_with_notes(name="reader"):
    """A signed-in reader (CSRF checked, as a browser is) with a private note and a bookmark."""
    reader = User.objects.create_user(name, password=PW)
    c = Client(enforce_csrf_checks=True)
    c.force_login(reader)
    form = c.get(URL).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    assert c.post(URL, {"kind": "private_note", "section": 1, "first": 53, "last": 54, "replacement": "參看鄉射禮",
                        "csrfmiddlewaretoken": token}).status_code == 302
    assert c.post(URL, {"kind": "bookmark", "section": 2, "first": 36, "last": 36,
                        "csrfmiddlewaretoken": token}).status_code == 302
    note, mark = Proposal.objects.filter(author=reader).order_by("pk")
    return reader, c, note, mark


def page_token(c, path) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', c.get(path).content.decode()).group(1)


def test_a_reader_deletes_a_note_from_the_list_and_a_bookmark_from_its_page(seed_juan, settings):
    settings.READER_NOTES_MAX = 2
    reader, c, note, mark = reader_with_notes()
    listed = c.get("/corrections/notes/").content.decode()
    assert (f'<form method="post" action="/corrections/{note.pk}/delete/" class="inline delete-own">'
            f'<input type="hidden" name="csrfmiddlewaretoken"') in listed
    assert f'<button type="submit" aria-label="刪除私人筆記 #{note.pk}">刪除</button>' in listed
    assert f'<button type="submit" aria-label="刪除書籤 #{mark.pk}">刪除</button>' in listed
    # full: a third is refused until one is deleted
    token = page_token(c, URL)
    third = {"kind": "bookmark", "section": 2, "first": 37, "last": 37, "csrfmiddlewaretoken": token}
    assert c.post(URL, third).status_code == 400
    response = c.post(f"/corrections/{note.pk}/delete/", {"csrfmiddlewaretoken": page_token(c, "/corrections/notes/"),
                                                           "page": "1"})
    assert (response.status_code, response["Location"]) == (302, "/corrections/notes/")
    assert list(Proposal.objects.filter(author=reader)) == [mark]
    assert AuditEntry.objects.filter(proposal_id=note.pk).count() == 0   # its log, which only its owner read
    assert "參看鄉射禮" not in c.get("/corrections/notes/").content.decode()
    assert c.get(f"/corrections/{note.pk}/").status_code == 404
    assert c.post(URL, third).status_code == 302
    # a bookmark's own page offers the same control
    own = c.get(f"/corrections/{mark.pk}/").content.decode()
    assert (f'<form method="post" action="/corrections/{mark.pk}/delete/" class="inline delete-own">') in own
    assert '<button type="submit">刪除此書籤</button>（刪除後不能復原）</form>' in own
    response = c.post(f"/corrections/{mark.pk}/delete/", {"csrfmiddlewaretoken": page_token(c, f"/corrections/{mark.pk}/")})
    assert (response.status_code, response["Location"]) == (302, "/corrections/notes/")
    assert Proposal.objects.filter(author=reader).count() == 1


def test_nobody_else_deletes_a_note_nor_learns_it_exists(seed_juan, people):  # noqa: F811
    reader, c, note, mark = reader_with_notes()
    url = f"/corrections/{note.pk}/delete/"
    missing = f"/corrections/{Proposal.objects.order_by('-pk').first().pk + 1000}/delete/"
    # another reader, an editor, staff: 404, as for a note that does not exist
    for user in (User.objects.create_user("other", password=PW), people["editor"], people["staff"]):
        other = Client()
        other.force_login(user)
        assert other.post(url).status_code == other.post(missing).status_code == 404
        with pytest.raises(ReviewError, match=r"^只可刪除自己的私人筆記與書籤"):
            forget(note, user)
    # signed out: to the sign-in page, as every page of one's own
    response = Client().post(url)
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={url}")
    # without the form's token, or by GET: nothing deleted
    assert c.post(url).status_code == 403
    assert c.get(url).status_code == 405
    assert Proposal.objects.filter(pk__in=[note.pk, mark.pk]).count() == 2
    # a proposal or an annotation, even one's own, keeps its history: no delete
    annotation = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=0, end=1,
                         replacement="記", reason="人物")
    text = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                   replacement="持", reason="他本作持")
    accept(annotation, people["editor"])
    author = Client()
    author.force_login(people["contributor"])
    for p in (annotation, text):
        assert author.post(f"/corrections/{p.pk}/delete/").status_code == 404
        with pytest.raises(ReviewError, match=r"^只可刪除自己的私人筆記與書籤"):
            forget(p, people["contributor"])
    assert Proposal.objects.filter(pk__in=[annotation.pk, text.pk]).count() == 2


def test_nobody_else_reviews_a_note_nor_learns_it_exists(seed_juan, people):  # noqa: F811
    """The review address answered an editor 400 「此提議私人，並非待審 (the proposal is private, not
    pending)」 for another reader's note or bookmark, and a contributor 403, where a proposal that
    does not exist is a 404: each answer told that the note exists. Now 404 alike, and nothing changes."""
    reader, c, note, mark = reader_with_notes()
    missing = Proposal.objects.order_by("-pk").first().pk + 1000
    for user in (people["contributor"], people["editor"], people["staff"]):
        other = Client()
        other.force_login(user)
        got = {(action, pk): other.post(f"/corrections/{pk}/review/", {"action": action, "reason": "看"}).status_code
               for action in ("accept", "reject", "revert") for pk in (note.pk, mark.pk, missing)}
        assert set(got.values()) == {404}, (user.username, got)
    assert list(Proposal.objects.filter(pk__in=[note.pk, mark.pk]).order_by("pk").values_list(
        "status", "reviewer_id")) == [("private", None), ("private", None)]
    assert [a.action for a in AuditEntry.objects.filter(proposal__in=[note, mark]).order_by("pk")] == ["kept", "kept"]
    # another's pending proposal is a 404 to a contributor too (its page is); his own a 403: editors review
    contributor = Client()
    contributor.force_login(people["contributor"])
    theirs = propose(people["editor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1, replacement="持",
                     reason="他本作持")
    own = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=1, end=2, replacement="持",
                  reason="他本作持")
    assert [contributor.post(f"/corrections/{p.pk}/review/", {"action": "accept"}).status_code
            for p in (theirs, own)] == [404, 403]
    # its owner, who reads it, is told what anyone reading a proposal is: editors review
    owner = Client()
    owner.force_login(reader)
    assert owner.post(f"/corrections/{note.pk}/review/", {"action": "accept"}).status_code == 403
