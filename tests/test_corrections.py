"""Corrections (issue 31): accounts and roles, proposals, review, the overlay (reading page,
search, API, exports; the source untouched), re-import, the upstream patch, safety."""
import json
import re
import shutil
import subprocess

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from corrections.models import ACCEPTED, PENDING, REJECTED, REVERTED, SET_ASIDE, AuditEntry, Proposal
from corrections.overlay import juan_overlay
from corrections.workflow import ReviewError, accept, propose, reject, revert
from reader.importers.loader import import_file, render_source
from reader.models import Juan, Piece
from search.backends import SearchQuery

from .conftest import SEED

PW = "a-long-enough-password-1"
URL = "/works/禮書綱目/juan/10/"


def account(name, role):
    """A user in ``role`` (contributor, editor, staff) made by the operators' command."""
    import os
    os.environ["CORRECTIONS_PASSWORD"] = PW
    try:
        call_command("create_account", name, "--role", role)
    finally:
        del os.environ["CORRECTIONS_PASSWORD"]
    return User.objects.get(username=name)


def note_1_3(juan):
    return Piece.objects.get(section__juan=juan, section__position=1, position=3)


# ------------------------------------------------------------------ accounts and roles

@pytest.mark.django_db
def test_the_roles_are_groups_made_by_the_migration_and_the_command_gives_them():
    assert set(Group.objects.values_list("name", flat=True)) >= {"contributor", "editor"}
    c, e, s = account("c1", "contributor"), account("e1", "editor"), account("s1", "staff")
    assert [g.name for g in c.groups.all()] == ["contributor"] and not c.is_staff
    assert [g.name for g in e.groups.all()] == ["editor"] and not e.is_staff
    assert s.is_staff and s.is_superuser and [g.name for g in s.groups.all()] == ["editor"]
    assert c.check_password(PW)
    with pytest.raises(CommandError, match="exists already"):
        account("c1", "editor")
    assert [g.name for g in User.objects.get(username="c1").groups.all()] == ["contributor"]


@pytest.mark.django_db
@pytest.mark.parametrize("name, email, message", [
    ("", "", "the name '' is refused: an account needs a name"),
    ("bad name<script>", "", "the name 'bad name<script>' is refused: 輸入合法的使用者名稱。只能包含字母、數字和 @/./+/-/_ 符號。"),
    ("x" * 151, "", f"the name '{'x' * 151}' is refused: 請確認這個值至多包含 150 個字 (目前為 151 個字)。"),
    ("scholar", "not-an-address", "the e-mail address 'not-an-address' is refused: 請輸入有效的電子郵件地址。"),
])
def test_create_account_refuses_a_name_or_address_the_sign_up_form_would(monkeypatch, name, email, message):
    """An empty name, one with spaces and markup, or one longer than the column were stored (SQLite
    does not enforce the length), as the sign-up form and the admin never would."""
    monkeypatch.setenv("CORRECTIONS_PASSWORD", PW)
    with pytest.raises(CommandError) as info:
        call_command("create_account", name, "--role", "contributor", *(["--email", email] if email else []))
    assert str(info.value) == message + "; no account was created"
    assert not User.objects.exists()
    call_command("create_account", "李善", "--role", "contributor", "--email", "li.shan@example.org")
    assert list(User.objects.values_list("username", "email")) == [("李善", "li.shan@example.org")]


@pytest.mark.django_db
def test_create_account_without_a_terminal_or_password_is_a_clear_error(monkeypatch):
    """``echo | manage.py create_account …`` ended in an EOFError traceback."""
    import getpass

    monkeypatch.delenv("CORRECTIONS_PASSWORD", raising=False)

    def no_terminal(prompt=""):
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", no_terminal)
    with pytest.raises(CommandError, match=r"^no password given: run the command in a terminal, or set "
                                           r"CORRECTIONS_PASSWORD; no account was created$"):
        call_command("create_account", "scholar", "--role", "contributor")
    assert not User.objects.filter(username="scholar").exists()


@pytest.mark.django_db
def test_a_contributor_at_the_editors_queue_gets_the_sites_page_saying_why(seed_juan):
    """Django's bare English 403 page, without the site's frame, told a contributor nothing."""
    client = Client()
    client.force_login(account("c3", "contributor"))
    response = client.get("/corrections/")
    body = response.content.decode()
    assert response.status_code == 403
    assert "<h1>無權限 (403)</h1>" in body and "the review queue is for editors" in body
    assert '<html lang="zh-Hant"' in body


@pytest.mark.django_db
def test_sign_up_is_closed_by_default_and_opens_as_contributor_when_allowed(client, settings):
    assert client.get("/accounts/signup/").status_code == 404
    settings.CORRECTIONS_SIGNUP = True
    response = client.post("/accounts/signup/", {"username": "newbie", "email": "n@example.org",
                                                 "password1": PW, "password2": PW})
    assert response.status_code == 302 and response["Location"] == "/corrections/mine/"
    assert [g.name for g in User.objects.get(username="newbie").groups.all()] == ["contributor"]


@pytest.mark.django_db
def test_a_name_that_mixes_latin_greek_and_cyrillic_letters_is_refused(client, settings, monkeypatch):
    """"еditor" (a Cyrillic е, then Latin) signed up beside the editor "editor" and was shown
    as the same name beside every annotation and in every history."""
    settings.CORRECTIONS_SIGNUP = True
    account("editor", "editor")
    said = "名稱不可混用拉丁、希臘、西里爾字母 (the name mixes Cyrillic and Latin letters, which look alike: write it in one script)"
    for name in ("\u0435ditor", "edit\u043er", "\u03bfdysseus-x"):
        response = client.post("/accounts/signup/", {"username": name, "email": "x@example.org",
                                                     "password1": PW, "password2": PW})
        assert response.status_code == 400 and said.replace("Cyrillic", "Greek" if "\u03bf" in name else "Cyrillic") \
            in response.content.decode().replace("&#x27;", "'"), name
    monkeypatch.setenv("CORRECTIONS_PASSWORD", PW)
    with pytest.raises(CommandError) as info:
        call_command("create_account", "\u0435ditor", "--role", "editor")
    assert str(info.value) == f"the name '\u0435ditor' is refused: {said}; no account was created"
    assert list(User.objects.values_list("username", flat=True)) == ["editor"]
    for name in ("李善", "Ли\u0441", "\u039f\u03b4\u03c5\u03c3\u03c3\u03b5\u03cd\u03c2", "zhang.san_2", "張san", "すずき鈴木"):
        response = client.post("/accounts/signup/", {"username": name, "email": "x@example.org",
                                                     "password1": PW, "password2": PW})
        assert response.status_code == 302, name
        client.post("/accounts/logout/")


@pytest.mark.django_db
def test_a_name_that_looks_like_an_existing_one_is_refused(client, settings, monkeypatch):
    """A name of one script passed however it looked: "ѕсоре", every letter Cyrillic, signed up
    beside the editor "scope", "adminl" beside "admin1" and "lan" beside "Ian", each shown beside
    annotations and in histories as the other. A name whose UTS #39 skeleton is an existing
    name's, as written or case-folded, is refused at sign-up and by create_account."""
    from django.utils.html import escape

    from corrections.usernames import prototypes, skeleton

    settings.CORRECTIONS_SIGNUP, settings.CORRECTIONS_ADDRESS_RATE = True, "none"  # 4 sign-ups: no other test's budget
    for name in ("scope", "admin1", "Ian"):
        account(name, "editor")
    for name, other in (("\u0455\u0441\u043e\u0440\u0435", "scope"), ("\u0405\u0421\u041e\u0420\u0415", "scope"),
                        ("adminl", "admin1"), ("lan", "Ian"), ("scop\u0435", "scope")):
        response = client.post("/accounts/signup/", {"username": name, "email": "x@example.org",
                                                     "password1": PW, "password2": PW})
        body = response.content.decode()
        said = (f"此名稱與已有的「{other}」形似，易相混淆，請另擇一名 (the name looks like the existing name {other!r}: "
                "choose another)")
        if name == "scop\u0435":  # Latin and one Cyrillic letter: the mixed scripts are said first
            said = "名稱不可混用拉丁、希臘、西里爾字母 (the name mixes Cyrillic and Latin letters, which look alike: write it in one script)"
        assert (response.status_code, escape(said) in body) == (400, True), (name, body[body.find("errorlist"):][:300])
    monkeypatch.setenv("CORRECTIONS_PASSWORD", PW)
    with pytest.raises(CommandError) as info:
        call_command("create_account", "adminl", "--role", "contributor")
    assert str(info.value) == ("the name 'adminl' is refused: 此名稱與已有的「admin1」形似，易相混淆，請另擇一名 (the name looks "
                               "like the existing name 'admin1': choose another); no account was created")
    assert sorted(User.objects.values_list("username", flat=True)) == ["Ian", "admin1", "scope"]
    for name in ("scoped", "\u0418\u0432\u0430\u043d", "李善", "admin2"):
        response = client.post("/accounts/signup/", {"username": name, "email": "x@example.org",
                                                     "password1": PW, "password2": PW})
        assert response.status_code == 302, name
        client.post("/accounts/logout/")
    # the skeleton as UTS #39 gives it, from the pinned data: each prototype maps to itself
    assert [skeleton(n) for n in ("\u0455\u0441\u043e\u0440\u0435", "admin1", "Ian", "\u2f08", "O0")] == [
        "scope", "adrninl", "lan", "人", "OO"]
    table = prototypes()
    assert (len(table), [k for k, v in table.items() if any(c in table for c in v)]) == (6307, [])


@pytest.mark.django_db
def test_every_page_links_to_sign_in_and_a_signed_in_user_to_sign_out(client, seed_juan, settings):
    """The footer of every page offers 登入 to a visitor, as the same link for everyone, so a
    page kept in the page cache names nobody; a signed-in user (whose requests go around the
    page cache) sees their name with 登出, not 登入 (it said 登入 to them too)."""
    account("c5", "contributor")
    settings.PAGE_CACHE_SECONDS = 600
    visitor = '<a href="/corrections/mine/">校正</a> · <a href="/accounts/login/">登入</a></footer>'
    member = '<a href="/corrections/mine/">校正</a> · <a href="/accounts/logout/">登出（c5）</a></footer>'
    for url in ("/", "/search/?q=鵠", "/works/禮書綱目/juan/10/"):
        assert visitor in client.get(url).content.decode(), url
        client.force_login(User.objects.get(username="c5"))
        html = client.get(url).content.decode()
        assert member in html and "登入" not in html, url
        client.logout()
        assert visitor in client.get(url).content.decode(), url
        assert visitor in Client().get(url).content.decode(), url


@pytest.mark.django_db
def test_login_is_csrf_protected_and_password_reset_mails_a_link(mailoutbox):
    account("c2", "contributor").__class__.objects.filter(username="c2").update(email="c2@example.org")
    strict = Client(enforce_csrf_checks=True)
    page = strict.get("/accounts/login/")
    assert page.status_code == 200 and 'name="csrfmiddlewaretoken"' in page.content.decode()
    assert strict.post("/accounts/login/", {"username": "c2", "password": PW}).status_code == 403
    token = page.cookies["csrftoken"].value
    response = strict.post("/accounts/login/", {"username": "c2", "password": PW, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/corrections/mine/"
    assert Client().post("/accounts/password_reset/", {"email": "c2@example.org"}).status_code == 302
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body


@pytest.mark.django_db
def test_signing_out_and_changing_ones_password_are_pages_of_the_site(client):
    """``/accounts/logout/`` typed in the address bar was a bare 405 (Django signs out by POST
    only), and ``/accounts/password_change/`` the admin's page (「Django 網站管理」, its links
    to an admin a contributor may not enter)."""
    account("c4", "contributor")
    anonymous = client.get("/accounts/logout/").content.decode()
    assert '<h1>登出</h1>\n<p>你沒有登入。<a href="/accounts/login/">登入</a></p>' in anonymous
    client.force_login(User.objects.get(username="c4"))
    page = client.get("/accounts/logout/")
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    assert re.search(r'<form method="post" action="/accounts/logout/"><input type="hidden" name="csrfmiddlewaretoken" '
                     r'value="[^"]+"><p>已登入：c4</p><button type="submit">登出</button></form>', page.content.decode())
    assert '<a href="/accounts/password_change/">更改密碼</a>' in client.get("/corrections/mine/").content.decode()
    form = client.get("/accounts/password_change/").content.decode()
    assert "<title>更改密碼 · 經注閱讀</title>" in form and "Django" not in form
    response = client.post("/accounts/password_change/", {
        "old_password": PW, "new_password1": "another-long-password-2", "new_password2": "another-long-password-2"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/password_change/done/")
    done = client.get("/accounts/password_change/done/").content.decode()
    assert "<title>密碼已更改 · 經注閱讀</title>" in done and "Django" not in done
    assert User.objects.get(username="c4").check_password("another-long-password-2")
    response = client.post("/accounts/logout/")
    assert (response.status_code, response["Location"]) == (302, "/")
    assert client.get("/corrections/mine/").status_code == 302  # signed out


@pytest.mark.django_db
def test_the_login_page_is_locked_after_failed_attempts_as_the_admin_is(client):
    account("c3", "contributor")
    codes = [client.post("/accounts/login/", {"username": "c3", "password": "wrong"}).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]  # django-axes: AXES_FAILURE_LIMIT=5
    assert client.post("/accounts/login/", {"username": "c3", "password": PW}).status_code == 429
    assert client.get("/corrections/mine/").status_code == 302  # not signed in


# ------------------------------------------------------------------ proposals and review

@pytest.fixture
def people(db):
    return {role: account(role[:1] + "x", role) for role in ("contributor", "editor", "staff")} | {
        "editor2": account("e2", "editor")}


def test_a_proposal_is_anchored_by_place_and_text_and_audited(seed_juan, people):
    note = note_1_3(seed_juan)
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="將將", reason="他本作將將", evidence="四庫本卷十")
    assert (p.status, p.original, p.before, p.after) == (PENDING, note.text[:2], "", note.text[2:14])
    assert (p.edition_slug, p.juan_number, p.section_position, p.piece_position) == ("禮書綱目", 10, 1, 3)
    assert [(a.action, a.actor.username) for a in p.audit.all()] == [("proposed", "cx")]
    with pytest.raises(ReviewError, match=r"^請說明修改理由 \(give the reason for the change\)$"):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="x", reason="  ")
    with pytest.raises(ReviewError, match=r"^範圍 5–999 超出此段的 \d+ 字 \(the span is not inside the piece's \d+ characters\)$"):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=5, end=999,
                replacement="x", reason="r")
    with pytest.raises(ReviewError, match=r"^只有貢獻者與編輯可提出校正 \(only contributors and editors may propose corrections\)$"):
        propose(User.objects.create_user("plain", password=PW), seed_juan, kind="text", section=1, piece=3,
                start=0, end=1, replacement="x", reason="r")


def test_nobody_reviews_their_own_proposal(seed_juan, people):
    p = propose(people["editor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="X", reason="r")
    for action in (lambda: accept(p, people["editor"]), lambda: reject(p, people["editor"], reason="no")):
        with pytest.raises(ReviewError, match=r"^不可審核自己的提議 \(nobody reviews their own proposal\)$"):
            action()
    with pytest.raises(ReviewError, match="only editors"):
        accept(p, people["contributor"])
    assert Proposal.objects.get(pk=p.pk).status == PENDING
    accept(p, people["editor2"], reason="ok")
    assert Proposal.objects.get(pk=p.pk).status == ACCEPTED


def test_reject_needs_a_reason_and_edit_then_accept_is_audited(seed_juan, people):
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="X", reason="r")
    with pytest.raises(ReviewError, match="reason for rejecting"):
        reject(p, people["editor"], reason="")
    q = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=2, end=3,
                replacement="Y", reason="r")
    reject(p, people["editor"], reason="the book has it")
    accept(q, people["editor"], replacement="Z", reason="Z, not Y")
    q.refresh_from_db()
    assert (q.status, q.replacement, q.reviewer.username) == (ACCEPTED, "Z", "ex")
    assert [a.action for a in q.audit.all()] == ["proposed", "edited", "accepted"]
    assert Proposal.objects.get(pk=p.pk).status == REJECTED


def test_overlapping_accepted_changes_are_refused(seed_juan, people):
    a = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="AB", reason="r")
    b = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=1, end=3,
                replacement="CD", reason="r")
    accept(a, people["editor"])
    with pytest.raises(ReviewError, match=f"^與已採納的提議 #{a.pk} 同處，請先撤回該提議 "):
        accept(b, people["editor"])


# ------------------------------------------------------------------ the overlay

@pytest.mark.django_db(transaction=True)
def test_an_accepted_correction_is_read_searched_and_exported_and_the_source_is_unchanged(search_backend):
    juan = import_file(SEED).juan
    contributor, editor = account("cc", "contributor"), account("ee", "editor")
    note = Piece.objects.get(section__juan=juan, section__position=1, kind="note", position=3)
    original = note.text
    source_before = render_source(juan)
    assert original.startswith("將有祭祀之事")
    assert search_backend.search(SearchQuery("校勘新字")).count == 0
    c, e = Client(), Client()
    c.force_login(contributor)
    e.force_login(editor)
    response = c.post("/corrections/propose/禮書綱目/10/", {
        "kind": "text", "section": 1, "first": 53, "last": 58, "replacement": "校勘新字",
        "reason": "<script>alert(1)</script>", "evidence": "宋本"})
    assert response.status_code == 302
    p = Proposal.objects.get()
    assert response["Location"] == f"/corrections/{p.pk}/"
    page = e.get(f"/corrections/{p.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    # the place is the section's position, not a 「第 N 節」 the book does not have
    # the juan as the book and the reading page name it (卷十), not its number in the URL (卷10)
    # the piece counted from 1 (its fourth piece, position 3, said 第3段) and the edition by its title;
    # the characters as they were typed on the form (53–58 of the section), not in the piece (1–6)
    assert re.search(r"<dt>位置</dt><dd><a [^>]+>禮書綱目 卷十 §1</a>，第 53–58 字（第4段）</dd>", page)
    assert e.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "宋本是"}).status_code == 302
    # the log names each action in Chinese first, as the interface's other messages (the stored word after it)
    log = re.findall(r"<li>\d{4}-\d\d-\d\d \d\d:\d\d ([^<]*)", e.get(f"/corrections/{p.pk}/").content.decode())
    assert log == ["提出 (proposed) — cc：", "採納 (accepted) — ee："]
    # the reading page: corrected, marked, linked to its history; the text as imported on request
    html = Client().get(URL).content.decode()
    assert "校勘新字" in html and f'href="/corrections/{p.pk}/"' in html and 'class="corr-mark"' in html
    imported = Client().get(URL + "?text=imported").content.decode()
    assert "校勘新字" not in imported and original[:6] in imported
    # search follows the accepted correction
    assert search_backend.search(SearchQuery("校勘新字")).count == 1
    # the source export is the imported file; the others read the corrected text
    assert render_source(juan) == source_before
    assert Piece.objects.get(pk=note.pk).text == original
    api = f"/api/works/{juan.work_id}/juans/10/"
    assert Client().get(api + "export/source/").content.decode("utf-8") == source_before
    assert "校勘新字" not in Client().get(api + "export/maintext/").content.decode("utf-8")  # a note: left out
    for kind in ("json", "tei"):
        assert "校勘新字" in Client().get(api + f"export/{kind}/").content.decode("utf-8"), kind
    assert "校勘新字" in Client().get(api).content.decode()
    # a revert brings the text as imported back, everywhere
    assert e.post(f"/corrections/{p.pk}/review/", {"action": "revert", "reason": ""}).status_code == 400
    other = account("e3", "editor")
    e3 = Client()
    e3.force_login(other)
    assert e3.post(f"/corrections/{p.pk}/review/", {"action": "revert", "reason": "誤採"}).status_code == 302
    assert Proposal.objects.get(pk=p.pk).status == REVERTED
    assert "校勘新字" not in Client().get(URL).content.decode()
    assert search_backend.search(SearchQuery("校勘新字")).count == 0
    assert [a.action for a in AuditEntry.objects.filter(proposal=p)] == ["proposed", "accepted", "reverted"]


# ------------------------------------------------------------------ re-import and upstream

def _seed_copy(tmp_path, old=None, new=None):
    """The seed file copied under ``tmp_path`` (same name), ``old`` replaced by ``new`` once."""
    text = SEED.read_bytes().decode("utf-8")
    if old is not None:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / SEED.name
    path.write_bytes(text.encode("utf-8"))
    return path


NOTE = "將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者"


@pytest.mark.django_db(transaction=True)
def test_a_reimport_keeps_moves_or_sets_aside_each_correction_with_the_reason(tmp_path, search_backend):
    juan = import_file(SEED).juan
    contributor, editor = account("cr", "contributor"), account("er", "editor")
    note = Piece.objects.get(section__juan=juan, section__position=1, position=3)
    assert note.text == NOTE
    at = NOTE.index("政教")
    kept = propose(contributor, juan, kind="text", section=1, piece=3, start=at, end=at + 2, replacement="政令",
                   reason="宋本作令")
    lost = propose(contributor, juan, kind="text", section=1, piece=3, start=0, end=2, replacement="方將",
                   reason="r")
    accept(kept, editor)
    accept(lost, editor)
    # The same file again: both are kept (a new juan row, the same text).
    new = import_file(SEED).juan
    assert new.pk != juan.pk
    assert set(Proposal.objects.values_list("status", flat=True)) == {ACCEPTED}
    assert "政令" in Client().get(URL).content.decode()
    # Upstream, a note is added before it (the pieces after it move by two) and the note's
    # opening changed: the kept one moves with its text, the other is set aside with the reason.
    text = SEED.read_bytes().decode("utf-8")
    assert text.count("大射之儀君有命戒射【" + NOTE) == 1
    path = tmp_path / SEED.name
    path.write_bytes(text.replace("大射之儀君有命戒射【" + NOTE, "大射之儀【新注】君有命戒射【方有" + NOTE[2:]).encode("utf-8"))
    import_file(path)
    kept.refresh_from_db()
    lost.refresh_from_db()
    assert (kept.status, kept.piece_position, kept.start, kept.end, kept.original) == (ACCEPTED, 5, at, at + 2, "政教")
    assert lost.status == SET_ASIDE
    assert lost.status_reason == ("此處「將有」今作「方有」 (its own text changed: between its context, 「」 and "
                                  "「祭祀之事當射宰告於君君乃」, section 1, piece 5, character 0 now reads 「方有」, not 「將有」)")
    assert [a.action for a in lost.audit.all()][-1] == "set aside"
    assert [a.action for a in kept.audit.all()][-1] == "re-anchored"
    html = Client().get(URL).content.decode()
    assert (f'方有祭祀之事當射宰告於君君乃命之言君有命<span class="corrected">政令</span><a class="corr-mark" '
            f'href="/corrections/{kept.pk}/"') in html and "方將" not in html
    assert re.search(r'<span class="corrected">政令</span><a class="corr-mark" [^>]*>.*?</a>宜由尊者', html)
    assert search_backend.search(SearchQuery("有命政令")).count == 1


@pytest.mark.django_db(transaction=True)
def test_the_upstream_patch_applies_to_the_source_file_with_git_apply(tmp_path, search_backend):
    juan = import_file(SEED).juan
    contributor, editor = account("cu", "contributor"), account("eu", "editor")
    at = NOTE.index("君乃命之")
    p = propose(contributor, juan, kind="text", section=1, piece=3, start=at, end=at + 4, replacement="君迺命",
                reason="宋本作迺", evidence="宋本大射儀第三葉")
    accept(p, editor, reason="是")
    response = Client().get("/corrections/patch/禮書綱目.diff")
    assert response.status_code == 200 and response["Content-Type"] == "text/x-diff; charset=utf-8"
    patch = response.content.decode("utf-8")
    assert patch.startswith("Corrections to 禮書綱目 (1)\n\n* ")
    assert "evidence: 宋本大射儀第三葉" in patch and "reason: 宋本作迺" in patch
    shutil.copy(SEED, tmp_path / juan.source_name)
    (tmp_path / "fix.diff").write_text(patch, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    run = subprocess.run(["git", "apply", "--check", "-v", "fix.diff"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    subprocess.run(["git", "apply", "fix.diff"], cwd=tmp_path, check=True)
    patched = (tmp_path / juan.source_name).read_bytes().decode("utf-8")
    assert patched == SEED.read_bytes().decode("utf-8").replace(NOTE, NOTE.replace("君乃命之", "君迺命"))
    assert Client().get("/corrections/patch/禮書綱目.diff").status_code == 200
    revert(p, account("eu2", "editor"), reason="誤")
    assert Client().get("/corrections/patch/禮書綱目.diff").status_code == 404


# ------------------------------------------------------------------ permissions and limits

@pytest.mark.django_db
def test_every_endpoint_for_every_role(seed_juan, people):
    mine = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                   replacement="X", reason="r")
    clients = {"anonymous": Client()}
    for role in ("contributor", "editor", "staff"):
        clients[role] = Client()
        clients[role].force_login(people[role])
    propose_url = "/corrections/propose/禮書綱目/10/?section=1&piece=3&start=0&end=2"
    expected = {  # role: (queue, mine, history of a pending proposal, propose form, review POST)
        "anonymous": (302, 302, 404, 302, 302),
        "contributor": (403, 200, 200, 200, 403),
        "editor": (200, 200, 200, 200, 302),
        "staff": (200, 200, 200, 200, 400),  # the editor accepted it first: no longer pending
    }
    for role, codes in expected.items():
        c = clients[role]
        got = (c.get("/corrections/").status_code, c.get("/corrections/mine/").status_code,
               c.get(f"/corrections/{mine.pk}/").status_code, c.get(propose_url).status_code,
               c.post(f"/corrections/{mine.pk}/review/", {"action": "accept"}).status_code)
        assert got == codes, role
    assert clients["anonymous"].get("/corrections/").headers["Location"] == "/accounts/login/?next=/corrections/"
    # the pages every role reads alike: own notes (signed in), the patch (of the change accepted
    # above), the annotations; sign-up closed
    for role, c in clients.items():
        got = (c.get("/corrections/notes/").status_code, c.get("/corrections/patch/禮書綱目.diff").status_code,
               c.get("/corrections/annotations/禮書綱目.jsonld").status_code, c.get("/accounts/signup/").status_code)
        assert got == ((302,) if role == "anonymous" else (200,)) + (200, 200, 404), role
    # once accepted, its history is public
    assert Client().get(f"/corrections/{mine.pk}/").status_code == 200
    # a plain account (no role) may not propose; it is offered its own notes and bookmarks only
    plain = Client()
    plain.force_login(User.objects.create_user("plain", password=PW))
    form = plain.get(propose_url).content.decode()
    assert re.findall(r'<option value="(\w+)"', form.split('name="kind"')[1].split("</select>")[0]) == [
        "private_note", "bookmark"]
    response = plain.post(propose_url, {"kind": "text", "section": 1, "first": 53, "last": 53,
                                        "replacement": "X", "reason": "r"})
    assert response.status_code == 400 and Proposal.objects.filter(author__username="plain").count() == 0


@pytest.mark.django_db
def test_a_forged_form_is_refused(seed_juan, people):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["contributor"])
    response = strict.post("/corrections/propose/禮書綱目/10/", {"kind": "text", "section": 1, "first": 53,
                                                              "last": 53, "replacement": "X", "reason": "r"})
    assert response.status_code == 403 and Proposal.objects.count() == 0


@pytest.mark.django_db
def test_a_flood_of_proposals_is_limited_per_account_and_per_address(seed_juan, people, settings):
    settings.CORRECTIONS_USER_RATE, settings.CORRECTIONS_ADDRESS_RATE = "3/min", "5/min"
    from django.core.cache import caches
    caches[settings.THROTTLE_CACHE].clear()
    data = {"kind": "text", "section": 1, "first": 53, "last": 53, "replacement": "X", "reason": "r"}
    c = Client()
    c.force_login(people["contributor"])
    codes = [c.post("/corrections/propose/禮書綱目/10/", data).status_code for _ in range(4)]
    assert codes == [302, 302, 302, 429]
    other = Client()  # another account from the same address: the address's budget has 2 left
    other.force_login(people["editor"])
    codes = [other.post("/corrections/propose/禮書綱目/10/", data).status_code for _ in range(3)]
    assert codes == [302, 302, 429]
    assert Proposal.objects.count() == 5


@pytest.mark.django_db
def test_an_editors_reviews_have_their_own_budget_apart_from_the_address(seed_juan, people, settings):
    """Reviews shared the address's write budget: after contributors behind one NAT wrote their 60 an hour,
    an editor's 採納 from the same address was a 429 (「請 1923 秒後再試」). An editor's reviews count on his
    account alone (``CORRECTIONS_REVIEW_RATE``), and his proposals still on the address's."""
    settings.CORRECTIONS_USER_RATE, settings.CORRECTIONS_ADDRESS_RATE = "100/min", "2/min"
    settings.CORRECTIONS_REVIEW_RATE = "3/min"
    from django.core.cache import caches
    caches[settings.THROTTLE_CACHE].clear()
    data = {"kind": "text", "section": 1, "first": 53, "last": 53, "replacement": "X", "reason": "r"}
    c = Client()
    c.force_login(people["contributor"])
    assert [c.post("/corrections/propose/禮書綱目/10/", data).status_code for _ in range(3)] == [302, 302, 429]
    made = [propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=0, end=2,
                    replacement=f"注{n}", reason="r") for n in range(4)]
    editor = Client()  # the same address, whose budget is spent
    editor.force_login(people["editor"])
    codes = [editor.post(f"/corrections/{p.pk}/review/", {"action": action, "reason": "r"}).status_code
             for p, action in zip(made, ("accept", "reject", "accept", "accept"))]
    assert codes == [302, 302, 302, 429]
    assert [Proposal.objects.get(pk=p.pk).status for p in made] == ["accepted", "rejected", "accepted", "pending"]
    refused = editor.post(f"/corrections/{made[3].pk}/review/", {"action": "accept", "reason": "r"})
    assert refused.status_code == 429 and 55 <= int(refused["Retry-After"]) <= 61
    # his proposals are a contributor's writes: the address's budget
    assert editor.post("/corrections/propose/禮書綱目/10/", data).status_code == 429
    # a contributor cannot reach the review budget at all
    assert c.post(f"/corrections/{made[3].pk}/review/", {"action": "accept", "reason": "r"}).status_code == 403
    caches[settings.THROTTLE_CACHE].clear()


@pytest.mark.django_db
def test_sign_ups_are_limited_per_address_not_all_together(settings):
    """A sign-up counted against the "account" budget of a user who has none, one counter
    (``throttle_write-user-None``) for every visitor: one address that signed up its own
    quota of accounts closed sign-up for everybody else for the hour."""
    from django.core.cache import caches

    settings.CORRECTIONS_SIGNUP, settings.CORRECTIONS_ADDRESS_RATE = True, "2/hour"
    caches[settings.THROTTLE_CACHE].clear()

    def sign_up(name, address):
        return Client(REMOTE_ADDR=address).post("/accounts/signup/", {
            "username": name, "email": f"{name}@example.org", "password1": PW, "password2": PW}).status_code

    assert [sign_up(f"flood{n}", "203.0.113.5") for n in range(3)] == [302, 302, 429]
    assert [sign_up(name, address) for name, address in (("scholar", "198.51.100.7"), ("student", "198.51.100.8"))] \
        == [302, 302]
    assert sorted(User.objects.values_list("username", flat=True)) == ["flood0", "flood1", "scholar", "student"]
    caches[settings.THROTTLE_CACHE].clear()


@pytest.mark.django_db(transaction=True)
def test_a_layer_correction_changes_the_passage_layer_in_reading_and_search(search_backend):
    juan = import_file(SEED).juan
    contributor, editor = account("cl", "contributor"), account("el", "editor")
    assert search_backend.search(SearchQuery("君乃命之", layers=frozenset({"readings"}))).count == 0
    assert search_backend.search(SearchQuery("君乃命之", layers=frozenset({"commentary"}))).count == 1
    with pytest.raises(ReviewError, match=r"^請選擇此段所屬層次 \(choose the layer the piece belongs to\)$"):
        propose(contributor, juan, kind="layer", section=1, piece=3, start=2, end=4, reason="r")
    p = propose(contributor, juan, kind="layer", section=1, piece=3, start=0, end=len(NOTE), new_layer="readings",
                reason="此是音義")
    assert (p.start, p.end, p.original) == (0, len(NOTE), NOTE)  # the whole passage's (of part: test_layer_part_corrections)
    accept(p, editor, new_layer="subcommentary", reason="疏，非音義")
    p.refresh_from_db()
    assert p.new_layer == "subcommentary"
    assert [a.detail for a in p.audit.all()][1] == "layer readings → subcommentary"
    assert search_backend.search(SearchQuery("君乃命之", layers=frozenset({"subcommentary"}))).count == 1
    assert search_backend.search(SearchQuery("君乃命之", layers=frozenset({"commentary"}))).count == 0
    html = Client().get(URL).content.decode()
    i = html.index('id="s1-p3"')
    assert "layer-subcommentary" in html[html.rindex("<span", 0, i):i]
    assert Piece.objects.get(section__juan=juan, section__position=1, position=3).layer == "commentary"


def test_a_kept_reading_page_gives_way_to_the_corrected_one(client, seed_juan, people, settings, tmp_path,
                                                            django_capture_on_commit_callbacks):
    from django.core.cache import caches
    from pages.caching import recent
    from reader.stamp import corpus_changed

    settings.PAGE_CACHE_SECONDS = 60
    settings.PAGE_CACHE_STAMP = tmp_path / "corpus-version"
    caches[settings.PAGE_CACHE].clear()
    recent.clear()
    try:
        assert "君迺命" not in client.get(URL).content.decode()  # kept now
        at = NOTE.index("君乃命")
        p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=at, end=at + 3,
                    replacement="君迺命", reason="r")
        with django_capture_on_commit_callbacks() as callbacks:
            accept(p, people["editor"])
        assert corpus_changed in callbacks  # accepting touches the corpus stamp once it commits
        corpus_changed()  # run it (not the index write: the default index is shared by the tests)
        assert "君迺命" in client.get(URL).content.decode()
    finally:
        caches[settings.PAGE_CACHE].clear()
        recent.clear()


# ------------------------------------------------------------------ annotations

def test_a_public_annotation_shows_in_the_margin_escaped_and_exports_as_a_web_annotation(client, seed_juan, people):

    at = NOTE.index("宰")
    p = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=at, end=at + 1,
                replacement="<script>alert('x')</script>天官之長也", reason="人物")
    assert "天官之長也" not in client.get(URL).content.decode()  # pending: not shown
    accept(p, people["editor"])
    html = client.get(URL).content.decode()
    assert ('<span class="annotation" role="note"><a href="/corrections/%d/">注記</a><span class="annotated">「宰」</span>'
            "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;天官之長也<span class=\"annotator\">—cx</span></span>"
            % p.pk) in html
    assert "<script>alert" not in html
    # the text itself is unchanged: its annotated character framed, the note just after it
    assert (f'{NOTE[:at]}<span class="annotated-text">宰</span><input type="checkbox" class="annotation-toggle" '
            f'id="an-{p.pk}"><label class="annotation-marker" for="an-{p.pk}" title="讀者注記：點擊展開">注記</label>'
            '<span class="annotation" role="note">') in html
    assert f'<span class="annotator">—cx</span></span>{NOTE[at + 1:]}</span>' in html
    assert "天官之長也" not in client.get(URL + "?annotations=hidden").content.decode()
    response = client.get("/corrections/annotations/禮書綱目.jsonld")
    assert response["Content-Type"] == 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"; charset=utf-8'
    data = json.loads(response.content)
    p.refresh_from_db()
    section = "http://testserver/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/"
    assert data == {
        "@context": "http://www.w3.org/ns/anno.jsonld",
        "id": "http://testserver/corrections/annotations/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE.jsonld",
        "type": "AnnotationCollection", "label": f"{seed_juan.edition} 注記", "total": 1,
        "first": {"id": "http://testserver/corrections/annotations/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE.jsonld#page1",
                  "type": "AnnotationPage", "items": [{
                      "id": f"http://testserver/corrections/{p.pk}/", "type": "Annotation", "motivation": "commenting",
                      "created": p.created_at.isoformat(), "modified": p.reviewed_at.isoformat(),
                      "creator": {"type": "Person", "nickname": "cx"},
                      "body": {"type": "TextualBody", "value": "<script>alert('x')</script>天官之長也",
                               "format": "text/plain", "language": "zh-Hant", "purpose": "commenting"},
                      "target": {"source": section, "scope": section + "#s1-p3", "selector": {
                          "type": "TextQuoteSelector", "exact": "宰", "prefix": NOTE[:at],
                          "suffix": NOTE[at + 1:at + 13],
                          "refinedBy": {"type": "TextPositionSelector", "start": at, "end": at + 1}}}}]}}


def test_an_annotation_is_shown_to_editors_as_its_span_and_its_note_never_as_a_replacement(client, seed_juan, people):
    """An annotation changes no text: the queue and its page showed the span struck out and the
    note inserted in its place, as if the note were to replace the words it explains."""
    at = NOTE.index("宰")
    p = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=at, end=at + 1,
                replacement="天官之長<b>也</b>", reason="人物")
    client.force_login(people["editor"])
    span = (f'<p class="diff" lang="zh-Hant"><span class="ctx">{NOTE[max(0, at - 12):at]}</span><mark title="所注之文">宰</mark>'
            f'<span class="ctx">{NOTE[at + 1:at + 13]}</span></p><p class="annotation-text"><span class="annotation-label">注記：'
            '</span><span class="user-text">天官之長&lt;b&gt;也&lt;/b&gt;</span></p>')
    queue = client.get("/corrections/").content.decode()
    # its place as the form counts it: the note (piece 3) starts at the section's character 53
    assert (f'<h2><a href="/corrections/{p.pk}/">#{p.pk} 注記 (annotation)</a>：禮書綱目 卷十 §1 第 {53 + at} 字</h2>\n  {span}'
            ) in queue
    page = client.get(f"/corrections/{p.pk}/").content.decode()
    assert f"<dt>所注之文</dt><dd>{span}</dd>" in page
    assert '<label for="replacement">注記（可先修改再採納）</label>' in page
    assert "<del" not in queue and "<ins" not in queue and "<del" not in page and "<ins" not in page
    # a text correction keeps its diff, in the queue and on its page
    t = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2, replacement="將將",
                reason="他本")
    diff = (f'<p class="diff" lang="zh-Hant"><span class="ctx"></span><del title="原文">{NOTE[:2]}</del>'
            f'<ins title="改為">將將</ins><span class="ctx">{NOTE[2:14]}</span></p>')
    assert diff in client.get("/corrections/").content.decode()
    assert f"<dt>前後</dt><dd>{diff}\n</dd>" in client.get(f"/corrections/{t.pk}/").content.decode()
    client.force_login(people["contributor"])
    assert (f'<a href="/corrections/{p.pk}/">#{p.pk} 注記 (annotation)</a> 禮書綱目 卷十 §1：待審 (pending)'
            in client.get("/corrections/mine/").content.decode())


def test_a_public_annotation_is_a_tei_note_and_the_document_stays_valid(client, seed_juan, people):
    from tests.tei import tei_errors

    at = NOTE.index("宰")
    p = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=at, end=at + 1,
                replacement="天官之長也 <b>&amp;", reason="人物")
    accept(p, people["editor"])
    xml = client.get(f"/api/works/{seed_juan.work_id}/juans/10/export/tei/").content
    text = xml.decode("utf-8")
    assert (f'<note type="annotation" resp="#reader-cx" source="/corrections/{p.pk}/" n="宰">天官之長也 &lt;b&gt;&amp;amp;'
            "</note>") in text
    assert ('<respStmt xml:id="reader-cx"><resp>校正 (corrections and annotations accepted by the site\'s editors)'
            '</resp><name>cx</name></respStmt>') in text
    assert tei_errors(xml) == []


def test_an_accepted_text_correction_is_a_tei_choice_of_sic_and_corr_by_its_reader(client, seed_juan, people):
    """The TEI export reads the corrected text, and says so: each accepted text correction is
    ``<choice><sic>`` (as imported) ``<corr resp source>`` (as corrected), its reader declared in
    the header, whose publication statement no longer calls the text unchanged."""
    from tests.tei import tei_errors

    url = f"/api/works/{seed_juan.work_id}/juans/10/export/tei/"
    before = client.get(url).content.decode("utf-8")
    assert "from the stored text, unchanged." in before and "<choice>" not in before
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="將將", reason="他本作將將", evidence="四庫本卷十")
    accept(p, people["editor"])
    xml = client.get(url).content
    text = xml.decode("utf-8")
    assert (f'<choice><sic>將有</sic><corr resp="#reader-cx" source="/corrections/{p.pk}/">將將</corr></choice>'
            "祭祀之事") in text
    assert '<respStmt xml:id="reader-cx">' in text and "unchanged" not in text
    assert "with readers' accepted corrections" in text
    assert tei_errors(xml) == []


def test_readers_whose_names_escaped_open_were_one_id_have_two_in_the_tei(client, seed_juan, people):
    """Two readers, ``a❶b`` and ``a𧝫`` (U+2776B), each with an accepted correction of the seed
    juan: the TEI declares each once, under an id of its own, every ``@resp`` points to a declared
    id, and no id is declared twice (an escape written open gave both ``reader-a_2776b``)."""
    from lxml import etree

    from tests.tei import tei_errors

    dingbat, ext_b = account("a❶b", "contributor"), account("a𧝫", "contributor")
    for who, piece in ((dingbat, 3), (ext_b, 5)):
        accept(propose(who, seed_juan, kind="text", section=1, piece=piece, start=0, end=1, replacement="將將",
                       reason="他本", evidence="四庫本卷十"), people["editor"])
    xml = client.get(f"/api/works/{seed_juan.work_id}/juans/10/export/tei/").content
    assert tei_errors(xml) == []
    tei = etree.fromstring(xml)
    ids = tei.xpath("//@xml:id")
    assert len(ids) == len(set(ids))
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    readers = [(r.get("{http://www.w3.org/XML/1998/namespace}id"), r.findtext("t:name", namespaces=ns))
               for r in tei.iterfind(".//t:respStmt", ns) if r.findtext("t:name", namespaces=ns)]
    assert readers == [("reader-a_2776_b", "a❶b"), ("reader-a_2776b_", "a𧝫")]
    assert sorted(c.get("resp") for c in tei.iterfind(".//t:corr", ns)) == ["#reader-a_2776_b", "#reader-a_2776b_"]
    assert {r[1:] for r in tei.xpath("//@resp")} <= set(ids)


def test_a_reader_id_is_a_distinct_ncname_for_every_username():
    """A username is letters and digits to Python (Django's rule), and the dingbat digits ❶…➓, Ext
    B's 𠀀 or ⅻ are, but no name character of XML 1.0's fourth edition, by which libxml2 checks
    an xml:id: the TEI of a juan with an accepted correction by ``a❶`` (a name sign-up takes)
    declared ``xml:id="reader-a❶"``, which lxml refuses to read (“attribute value reader-a❶ is not
    an NCName”). Each escape is closed by a ``_``: written open (``reader-a_2776b``), ``a❶b`` and
    ``a𧝫`` had one id, and a TEI with both readers' corrections declared it twice."""
    from lxml import etree

    from api.exports import reader_id

    names = ("cx", "a@b.c", "a_40b", "王+1", "x-y", "a❶", "ⅻ➓", "𠀀·", "すず", "Ａ〇", "a❶b", "a𧝫", "a_40_b")
    ids = [reader_id(u) for u in names]
    assert ids == ["reader-cx", "reader-a_40_b.c", "reader-a_5f_40b", "reader-王_2b_1", "reader-x-y", "reader-a_2776_",
                   "reader-_217b__2793_", "reader-_20000__b7_", "reader-_3059__305a_", "reader-_ff21__3007_",
                   "reader-a_2776_b", "reader-a_2776b_", "reader-a_5f_40_5f_b"]
    # a❶b and a𧝫 (U+2776B), a@b and a_40_b: each escape closed, no two names one id (open, a❶b was a𧝫's)
    assert len(set(ids)) == len(names)
    for i in ids:  # each read as an xml:id
        assert etree.fromstring(f'<a xml:id="{i}"/>'.encode()).get("{http://www.w3.org/XML/1998/namespace}id") == i


def test_an_account_keeps_at_most_reader_notes_max_notes_and_bookmarks(seed_juan, people, settings):
    """Private notes and bookmarks had no bound but the hourly write limit: a script could keep
    writing them for ever. Past ``READER_NOTES_MAX`` (notes and bookmarks together) the form says
    so and keeps nothing; another account and a public annotation are not counted."""
    settings.READER_NOTES_MAX = 2
    reader = User.objects.create_user("reader", password=PW)
    c = Client()
    c.force_login(reader)
    url = "/corrections/propose/禮書綱目/10/"
    assert c.post(url, {"kind": "private_note", "section": 1, "first": 53, "last": 54, "replacement": "記"}).status_code == 302
    assert c.post(url, {"kind": "bookmark", "section": 2, "first": 36, "last": 36}).status_code == 302
    response = c.post(url, {"kind": "bookmark", "section": 2, "first": 37, "last": 37})
    assert response.status_code == 400
    assert ("已存筆記與書籤 2 則，已達每帳號上限 2 則 (you keep 2 private notes and bookmarks, the most one account "
            "may keep: 2)") in response.content.decode()
    assert Proposal.objects.filter(author=reader).count() == 2
    with pytest.raises(ReviewError, match=r"^已存筆記與書籤 2 則"):
        propose(reader, seed_juan, kind="private_note", section=1, piece=3, start=0, end=1, replacement="記", reason="")
    for kind in ("private_note", "annotation"):  # another account's; a public annotation is no private note
        propose(people["contributor"], seed_juan, kind=kind, section=1, piece=3, start=0, end=1, replacement="記", reason="r")
    propose(people["contributor"], seed_juan, kind="bookmark", section=1, piece=3, start=0, end=1, reason="")
    assert Proposal.objects.filter(author=people["contributor"]).count() == 3
    settings.READER_NOTES_MAX = 3
    assert c.post(url, {"kind": "bookmark", "section": 2, "first": 37, "last": 37}).status_code == 302


def test_private_notes_and_bookmarks_are_the_readers_own(client, seed_juan, people):
    reader = User.objects.create_user("reader", password=PW)
    c = Client()
    c.force_login(reader)
    url = "/corrections/propose/禮書綱目/10/"
    assert c.post(url, {"kind": "private_note", "section": 1, "first": 53, "last": 54,
                        "replacement": "<i>記</i>：參看鄉射禮"}).status_code == 302
    assert c.post(url, {"kind": "bookmark", "section": 2, "first": 36, "last": 36}).status_code == 302
    note, mark = Proposal.objects.filter(author=reader).order_by("pk")
    assert (note.status, mark.status, note.kind, mark.kind) == ("private", "private", "private_note", "bookmark")
    page = c.get("/corrections/notes/").content.decode()
    assert "&lt;i&gt;記&lt;/i&gt;：參看鄉射禮" in page and page.count('<li>') == 2
    # a note is named a note, not a correction, and a row the note has no words for is left out
    own = c.get(f"/corrections/{note.pk}/").content.decode()
    assert re.search(r"<title>([^<]*)</title>", own).group(1).startswith(f"私人筆記 #{note.pk} ")
    assert f"<h1>私人筆記 #{note.pk}</h1>" in own and "校正 #" not in own and "<dt>理由</dt>" not in own
    assert f"<h1>書籤 #{mark.pk}</h1>" in c.get(f"/corrections/{mark.pk}/").content.decode()
    for role in ("editor", "staff", "contributor"):  # nobody else reads them, editors neither
        other = Client()
        other.force_login(people[role])
        assert other.get(f"/corrections/{note.pk}/").status_code == 404
        assert "參看鄉射禮" not in other.get("/corrections/notes/").content.decode()
    assert Client().get(f"/corrections/{note.pk}/").status_code == 404
    editor = Client()
    editor.force_login(people["editor"])
    assert "參看鄉射禮" not in editor.get("/corrections/").content.decode()
    assert editor.post(f"/corrections/{note.pk}/review/", {"action": "accept"}).status_code == 404  # as its page
    # the proposer's record editors read counts his proposals, not his private notes and bookmarks
    propose(people["contributor"], seed_juan, kind="private_note", section=1, piece=3, start=0, end=1, replacement="記", reason="")
    propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1, replacement="持",
            reason="他本作持")
    name = people["contributor"].get_username()
    assert f"{name}（共 1，採納 0，不採納 0）" in editor.get("/corrections/").content.decode()
    assert "參看鄉射禮" not in client.get(URL).content.decode()
    assert json.loads(client.get("/corrections/annotations/禮書綱目.jsonld").content)["total"] == 0


@pytest.mark.django_db(transaction=True)
def test_the_patch_summary_shows_an_unreadable_character_as_the_pages_do(tmp_path, search_backend):
    """A correction of an unreadable character (U+0001, the transcription's mark) read 「\x01」 → 「之」 in the
    patch's summary, the control written raw: the summary shows it 〓 as the pages do, and the diff's own lines
    keep the source's bytes (``git apply`` still takes it). KR1d0086-WYG 卷十 with the 之 of 大射之儀 unread."""
    from .conftest import SHARED

    raw = (SHARED / "corpus" / "kanripo" / "KR1d0086-WYG" / "KR1d0086_012.txt").read_bytes().decode("utf-8")
    raw = raw.replace("大射之儀", "大射\x01儀", 1)
    source = tmp_path / "src" / "KR1d0086-ILL" / "KR1d0086_012.txt"
    source.parent.mkdir(parents=True)
    source.write_bytes(raw.encode("utf-8"))
    juan = import_file(source).juan
    piece = next(p for p in Piece.objects.filter(section__juan=juan).order_by("section__position", "position")
                 if "\x01" in p.text)
    at = piece.text.index("\x01")
    p = propose(account("cx", "contributor"), juan, kind="text", section=piece.section.position, piece=piece.position,
                start=at, end=at + 1, replacement="之", reason="他本作之")
    accept(p, account("ex", "editor"))
    patch = Client().get(f"/corrections/patch/{juan.edition.slug}.diff").content.decode("utf-8")
    head, diff = patch.split("\n--- a/", 1)
    assert head == (f"Corrections to {juan.edition.slug} (1)\n\n* {juan.source_name}, section {piece.section.position}: "
                    f"「〓」 → 「之」 (#{p.pk}, proposed by cx, accepted by ex)\n  reason: 他本作之\n")
    line = next(line for line in raw.split("\n") if "大射\x01儀" in line)
    assert [d for d in diff.split("\n") if d[:1] in ("-", "+") and not d.startswith(("--", "++"))] == [
        "-" + line, "+" + line.replace("大射\x01儀", "大射之儀")]
    work = tmp_path / "work"
    (work / juan.source_name).parent.mkdir(parents=True, exist_ok=True)
    (work / juan.source_name).write_bytes(raw.encode("utf-8"))
    (work / "fix.diff").write_text(patch, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    run = subprocess.run(["git", "apply", "fix.diff"], cwd=work, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (work / juan.source_name).read_bytes().decode("utf-8") == raw.replace("大射\x01儀", "大射之儀", 1)


@pytest.mark.django_db(transaction=True)
def test_the_patch_of_a_kanripo_file_applies_with_git_apply_and_keeps_its_line_breaks(tmp_path, search_backend):
    from .conftest import SHARED

    source = SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt"
    raw = source.read_bytes().decode("utf-8")
    juan = import_file(source).juan
    assert juan.source_format == "mandoku"
    contributor, editor = account("ck", "contributor"), account("ek", "editor")
    # a span of four characters, once in the file and on one of its lines, in the middle of a passage
    chosen = None
    for piece in Piece.objects.filter(section__juan=juan, kind="text").order_by("section__position", "position"):
        for at in range(3, len(piece.text) - 8):
            span = piece.text[at:at + 4]
            if raw.count(span) == 1 and any(span in line for line in raw.split("\n")):
                chosen = (piece, at, span)
                break
        if chosen:
            break
    piece, at, span = chosen
    p = propose(contributor, juan, kind="text", section=piece.section.position, piece=piece.position, start=at,
                end=at + 4, replacement=span[:2] + "〇", reason="他本", evidence="四部叢刊本")
    accept(p, editor)
    patch = Client().get(f"/corrections/patch/{juan.edition.slug}.diff").content.decode("utf-8")
    assert f"「{span}」 → 「{span[:2]}〇」" in patch and "evidence: 四部叢刊本" in patch
    name = juan.source_name
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, tmp_path / name)
    (tmp_path / "fix.diff").write_text(patch, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    run = subprocess.run(["git", "apply", "fix.diff"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / name).read_bytes().decode("utf-8") == raw.replace(span, span[:2] + "〇")


def test_a_layer_that_does_not_exist_is_refused_when_proposed_or_accepted(seed_juan, people, search_backend):
    """An editor's forged review form (``new_layer=<script>bogus``) was
    accepted, so the passage's layer became a name no layer has; the API showed it and every
    later index write of the juan failed (KeyError: '<script>bogus'), leaving search stale."""
    with pytest.raises(ReviewError, match=r"^無此層次 '<script>bogus'：層次有 classic, commentary, "):
        propose(people["contributor"], seed_juan, kind="layer", section=1, piece=3, start=0, end=1,
                new_layer="<script>bogus", reason="r")
    p = propose(people["contributor"], seed_juan, kind="layer", section=1, piece=3, start=0, end=1,
                new_layer="readings", reason="此是音義")
    c = Client()
    c.force_login(people["editor"])
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "x",
                                                       "new_layer": "<script>bogus"})
    assert response.status_code == 400
    assert "無此層次 &#x27;&lt;script&gt;bogus&#x27;：層次有 classic" in response.content.decode()
    p.refresh_from_db()
    assert (p.status, p.new_layer) == (PENDING, "readings")
    assert [a.action for a in p.audit.all()] == ["proposed"]


@pytest.mark.parametrize("field", ["section", "piece", "start", "end", "first", "last"])
def test_a_place_number_too_large_for_the_database_is_a_form_error(seed_juan, people, field):
    """``?piece=10**30`` on the proposal form, or ``section=10**30``
    posted, ended in a 500 (OverflowError: Python int too large to convert to SQLite
    INTEGER); on PostgreSQL, a DataError."""
    c = Client()
    c.force_login(people["contributor"])
    if field in ("section", "piece", "start", "end"):  # the stored place the reading page sends
        place = {"section": 1, "piece": 3, "start": 0, "end": 1}
        response = c.get("/corrections/propose/禮書綱目/10/", {**place, field: 10**30})
        assert response.status_code == 200
        assert "前後對照" not in response.content.decode()  # no passage shown for a place that is not there
    if field in ("section", "first", "last"):  # the place as typed
        place = {"section": 1, "first": 53, "last": 53}
        response = c.post("/corrections/propose/禮書綱目/10/", {**place, field: 10**30, "kind": "text",
                                                                "replacement": "x", "reason": "r"})
        assert response.status_code == 400
        assert "請確認此數值是否小於或等於 2147483647。" in response.content.decode()
    assert Proposal.objects.count() == 0


def test_a_replacement_character_or_a_lone_combining_mark_is_refused_with_its_place(seed_juan, people):
    """U+FFFD is what a decoder leaves where bytes could not be read, no character of a book; a
    combining mark at the start of a text (or after a space) has nothing to combine with and would
    join the character before the corrected span. Both were accepted; both are refused when
    proposed, through the form too, with the character and its place named."""
    fffd = ("文字含替換字元 U+FFFD（\ufffd，第 2 字）：原文讀取有誤，請改寫其字；Unicode 未收之字以〓或 &KR…; 記之 (the text "
            "holds U+FFFD REPLACEMENT CHARACTER at character 2, left where bytes could not be read: write the character itself)")
    acute = ("文字第 1 字為單獨的組合符號 U+0301（COMBINING ACUTE ACCENT），前無可附之字，請去除或補上其字 (the text holds a "
             "combining mark, U+0301 COMBINING ACUTE ACCENT, at character 1 with no character before it to combine with)")
    selector = ("文字第 4 字為單獨的組合符號 U+FE00（VARIATION SELECTOR-1），前無可附之字，請去除或補上其字 (the text holds a "
                "combining mark, U+FE00 VARIATION SELECTOR-1, at character 4 with no character before it to combine with)")
    for fields, said in (({"replacement": "射\ufffd"}, fffd), ({"reason": "宋\ufffd本"}, fffd),
                         ({"replacement": "\u0301射"}, acute), ({"evidence": "\u0301"}, acute),
                         ({"reason": "宋本 \ufe00射"}, selector)):
        with pytest.raises(ReviewError) as refused:
            propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                    **{"replacement": "射", "reason": "宋本作射", **fields})
        assert str(refused.value) == said
    c = Client()
    c.force_login(people["contributor"])
    response = c.post("/corrections/propose/禮書綱目/10/", {"kind": "text", "section": 1, "first": 53,
                                                            "last": 53, "replacement": "\u0301射", "reason": "宋本"})
    assert response.status_code == 400 and "文字第 1 字為單獨的組合符號 U+0301（COMBINING ACUTE ACCENT）" in response.content.decode()
    assert Proposal.objects.count() == 0
    # a mark after its character (a variation selector choosing a glyph) is text
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射\ufe00", reason="宋本作射")
    assert (p.status, p.replacement) == (PENDING, "射\ufe00")


def test_direction_controls_and_overlong_edits_are_refused_when_proposed_or_accepted(seed_juan, people):
    """A reason or new text holding U+202E (RIGHT-TO-LEFT OVERRIDE) would show otherwise than it
    is stored: refused when proposed and when an editor edits it at accepting; an editor's new
    text is held to the proposal's length limit too."""
    with pytest.raises(ReviewError, match=r"^文字含 Unicode 方向控制字元"):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射", reason="宋本\u202e作射")
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射", reason="宋本作射")
    c = Client()
    c.force_login(people["editor"])
    for replacement, said in (("\u2067射", "文字含 Unicode 方向控制字元（U+202A–U+202E、U+2066–U+2069），請去除"),
                              ("射" * 4001, "理由、依據與新文字各至多 4000 字 (the reason, the evidence and the new text are at most 4000 characters each)")):
        response = c.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "是",
                                                           "replacement": replacement})
        assert response.status_code == 400 and said in response.content.decode()
    p.refresh_from_db()
    assert (p.status, p.replacement) == (PENDING, "射")
    assert [a.action for a in p.audit.all()] == ["proposed"]


def test_a_text_correction_holding_a_line_break_is_refused_when_proposed_or_accepted(seed_juan, people):
    """A new text of 「司馬\\n--- a/evil.txt\\n+++ b/evil.txt\\n@@ -0,0 +1 @@\\n+pwned\\n命」 was accepted
    into the reading, and the upstream patch's message then held a diff of its own: ``git apply``
    made evil.txt beside the source file. A correction changes characters within one passage;
    an annotation may run over lines."""
    for breaking in ("\n", "\r", "\u2028", "\x85"):
        with pytest.raises(ReviewError) as refused:
            propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                    replacement=f"將{breaking}有", reason="他本")
        assert str(refused.value) == (f"新文字不可含換行（U+{ord(breaking):04X}）：校正只改一段之內的字 (the new text "
                                      f"holds a line break, U+{ord(breaking):04X}: a correction changes characters "
                                      f"within one passage)")
    note = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=0, end=2,
                   replacement="將有：\n將要。", reason="注")
    assert note.replacement == "將有：\n將要。"
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="方將", reason="他本")
    c = Client()
    c.force_login(people["editor"])
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "是",
                                                       "replacement": "方\n--- a/evil.txt\n將"})
    assert response.status_code == 400
    assert ("新文字不可含換行（U+000A）：校正只改一段之內的字 (the new text holds a line break, U+000A: a correction "
            "changes characters within one passage)") in response.content.decode()
    p.refresh_from_db()
    assert (p.status, p.replacement, [a.action for a in p.audit.all()]) == (PENDING, "方將", ["proposed"])


KANRIPO_JUAN = ("#+TITLE: 楚辭補注\n#+PROPERTY: ID KR9z0001\n#+PROPERTY: BASEEDITION WYG\n#+PROPERTY: JUAN 卷一\n"
                "<pb:KR9z0001_WYG_001-1a>¶\n離騷經者屈原之所作也(屈原楚/同姓也)屈原與楚同姓¶\n")


def test_a_text_correction_holding_the_source_forms_markup_is_refused(tmp_path, seed_juan, people):
    """甲)乙(丙 accepted into a Kanripo note was written by the upstream patch into the source
    file, where ``)`` closed the note and ``(`` opened another (the patched file read 「甲」, then
    乙 as main text, then 「丙…」), and ``¶<pb:x>`` made a line end and a page break; 【】 in the
    Siku form do the same. Each form's markup (``document.MARKUP``) is refused in a text
    correction, as proposed and as edited at accepting; other forms' brackets and any
    character in an annotation stay allowed."""
    path = tmp_path / "KR9z0001_001.txt"
    path.write_text(KANRIPO_JUAN, encoding="utf-8")
    kanripo = import_file(path).juan
    note = Piece.objects.get(section__juan=kanripo, kind="note")
    assert (kanripo.source_format, note.text) == ("mandoku", "屈原楚同姓也")
    for juan, piece, replacement, found in ((kanripo, note.position, "甲)乙(丙", ")"),
                                            (kanripo, note.position, "屈原¶<pb:x>楚", "¶"),
                                            (kanripo, note.position, "屈原/楚", "/"),
                                            (seed_juan, 3, "將】有【", "】")):
        with pytest.raises(ReviewError) as refused:
            propose(people["contributor"], juan, kind="text", section=1, piece=piece, start=0, end=2,
                    replacement=replacement, reason="他本")
        assert str(refused.value) == (f"新文字不可含「{found}」：此卷原文以之為標記 (the new text holds {found!r}, which "
                                      f"this juan's source file reads as markup, not text)")
    with pytest.raises(ReviewError) as refused:  # the importer reads a file with （ in a 【】 note as the plain form
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="將（有）", reason="他本")
    assert str(refused.value) == ("新文字寫入原文檔後，匯入程式讀之不再是此段文字，請改寫 (written into the juan's source file, the "
                                  "new text is not read back as the text of its passage: lishu_gangmu_juan10.txt:5:10: 【 is "
                                  "not closed before the next （ at column 12 (notes cannot nest): kept as text)")
    kept = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                   replacement="將[有]", reason="他本")  # Kanripo's markup is text in the Siku form
    assert kept.replacement == "將[有]"
    assert propose(people["contributor"], kanripo, kind="annotation", section=1, piece=note.position, start=0, end=2,
                   replacement="屈原(人名)", reason="注").replacement == "屈原(人名)"
    p = propose(people["contributor"], kanripo, kind="text", section=1, piece=note.position, start=0, end=2,
                replacement="屈平", reason="他本")
    with pytest.raises(ReviewError, match=r"^新文字不可含「\(」"):
        accept(p, people["editor"], reason="是", replacement="屈(平")
    p.refresh_from_db()
    assert (p.status, p.replacement) == (PENDING, "屈平")


def test_lists_name_an_edition_as_its_breadcrumbs_do(tmp_path, client, people):
    """A proposal's place named the edition by its id alone (「KR9z0001 卷一 §1，第0段」): the
    lists and its page give the work's title with the edition, as the reading page's
    breadcrumbs do, and count pieces from 1."""
    path = tmp_path / "KR9z0001_001.txt"
    path.write_text(KANRIPO_JUAN, encoding="utf-8")
    kanripo = import_file(path).juan
    note = Piece.objects.get(section__juan=kanripo, kind="note")
    p = propose(people["contributor"], kanripo, kind="text", section=1, piece=note.position, start=0, end=2,
                replacement="屈平", reason="他本")
    client.force_login(people["contributor"])
    mine = client.get("/corrections/mine/").content.decode()
    assert f'<a href="/corrections/{p.pk}/">#{p.pk} 文字校正 (text correction)</a> 楚辭補注（四庫全書・文淵閣本） 卷一 §1：待審 (pending)' in mine
    page = client.get(f"/corrections/{p.pk}/").content.decode()
    first = sum(len(t) for t in Piece.objects.filter(section=note.section, position__lt=note.position)
                .values_list("text", flat=True)) + 1
    assert first > 1
    assert re.search(rf"<dt>位置</dt><dd><a [^>]+>楚辭補注（四庫全書・文淵閣本） 卷一 §1</a>，第 {first}–{first + 1} 字"
                     rf"（第{note.position + 1}段）</dd>", page)
    client.force_login(people["editor"])
    assert (f"#{p.pk} 文字校正 (text correction)</a>：楚辭補注（四庫全書・文淵閣本）卷一 §1 第 {first}–{first + 1} 字</h2>"
            in client.get("/corrections/").content.decode())


def test_the_patch_message_keeps_each_new_text_on_its_line(tmp_path, seed_juan, people):
    """A correction accepted before new texts were held to one line: its message line in the
    upstream patch stays one line, and ``git apply`` changes the source file alone."""
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="方將", reason="他本")
    evil = "方\n--- a/evil.txt\n+++ b/evil.txt\n@@ -0,0 +1 @@\n+pwned\n將"
    Proposal.objects.filter(pk=p.pk).update(replacement=evil, status="accepted", reviewer=people["editor"],
                                            reviewed_at=timezone.now())
    patch = Client().get("/corrections/patch/禮書綱目.diff").content.decode("utf-8")
    assert patch.splitlines()[2] == (f"* {seed_juan.source_name}, section 1: 「將有」 → 「方 --- a/evil.txt +++ "
                                     f"b/evil.txt @@ -0,0 +1 @@ +pwned 將」 (#{p.pk}, proposed by cx, accepted by ex)")
    shutil.copy(SEED, tmp_path / seed_juan.source_name)
    (tmp_path / "fix.diff").write_text(patch, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    run = subprocess.run(["git", "apply", "--check", "-v", "fix.diff"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == f"Checking patch {seed_juan.source_name}..."
    assert "evil.txt" not in run.stderr


def test_a_span_that_ends_before_it_starts_is_refused_with_the_reason_and_no_preview(client, seed_juan, people):
    """起 5, 訖 2 was refused as "not inside the piece", and the preview showed the piece's
    characters 0–5 then 2–32, the same characters twice."""
    client.force_login(people["contributor"])
    response = client.post("/corrections/propose/禮書綱目/10/", {
        "kind": "text", "section": 1, "first": 58, "last": 54, "replacement": "將", "reason": "他本"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "訖字 54 在起字 58 之前 (the last character comes before the first)" in page
    assert "前後對照" not in page and '<ol class="section-pieces">' in page  # the section's pieces, to choose again
    assert not Proposal.objects.exists()
    with pytest.raises(ReviewError, match=r"^範圍 3–3 不含一字"):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=3, end=3, replacement="將",
                reason="他本")


def test_the_form_counts_from_1_in_the_section_as_shown_and_stores_the_pieces_offsets(client, seed_juan, people):
    """The form showed raw ``piece``/``start``/``end`` fields, the piece and the offsets from 0 beside a
    section from 1: a scholar types the first and last character from 1 in the section as shown
    (labelled 起字 (first character), 訖字 (last character)); the proposal stores the piece and its
    offsets from 0 as before, and the form shows a stored place as typed again (exact round trip)."""
    client.force_login(people["contributor"])
    url = "/corrections/propose/禮書綱目/10/"
    form = client.get(url, {"section": 1, "piece": 3, "start": 2, "end": 5}).content.decode()  # as 「校正」 sends it
    # section 1: 經 (1), a note of 42, a text of 9, then piece 3 from character 53: 將有祭祀…
    assert '<li><span class="char-range">第 1 字</span> <span lang="zh-Hant">經</span></li>' in form  # one character
    assert '<li><span class="char-range">第 53–78 字</span> <span lang="zh-Hant">將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者</span></li>' in form
    assert '<label for="id_first">起字 (first character)：</label>' in form
    assert '<input type="text" name="first" value="55" inputmode="numeric" pattern="[0-9]*" size="6" ' \
        'autocomplete="off" aria-describedby="place-help" required id="id_first">' in form
    assert 'name="last" value="57"' in form and 'name="piece"' not in form and 'name="start"' not in form
    assert '<mark>祭祀之</mark>' in form
    response = client.post(url, {"kind": "text", "section": 1, "first": 55, "last": 57, "replacement": "祭祀事",
                                 "reason": "他本"})
    p = Proposal.objects.get()
    assert response.status_code == 302
    assert (p.section_position, p.piece_position, p.start, p.end, p.original) == (1, 3, 2, 5, "祭祀之")
    again = client.get(url, {"section": p.section_position, "piece": p.piece_position, "start": p.start, "end": p.end})
    assert 'name="first" value="55"' in again.content.decode() and 'name="last" value="57"' in again.content.decode()
    # the last character of a piece, and the first of the next (a span is inside one piece)
    client.post(url, {"kind": "bookmark", "section": 1, "first": 78, "last": 78})
    client.post(url, {"kind": "bookmark", "section": 1, "first": 79, "last": 79})
    assert [(b.piece_position, b.start, b.end, b.original) for b in Proposal.objects.filter(kind="bookmark").order_by("pk")] == [
        (3, 25, 26, "者"), (4, 0, 1, "宰")]
    across = client.post(url, {"kind": "bookmark", "section": 1, "first": 77, "last": 80}).content.decode()
    assert "第 77–80 字跨段：第 78 字為一段之末 (the span runs past the end of its piece at character 78: " \
        "a proposal changes one piece)" in across
    outside = client.post(url, {"kind": "bookmark", "section": 1, "first": 250, "last": 251}).content.decode()
    assert "第 250–251 字超出本節的 230 字 (the span is not inside the section&#x27;s 230 characters)" in outside
    assert Proposal.objects.count() == 3


def test_every_section_has_its_propose_link_on_the_juan_page_and_on_its_own_page(client, seed_juan):
    """Without JavaScript the 「校正」 link of a section is the way to propose; the section's own
    page (its permalink, where a search hit leads) had none."""
    link = '<a class="propose" href="/corrections/propose/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/10/?section={}" rel="nofollow">校正</a>'
    juan = client.get(URL).content.decode()
    assert [int(n) for n in re.findall(r'<a class="propose" href="[^"]+\?section=(\d+)"', juan)] == list(range(1, 46))
    assert link.format(26) in juan
    section = client.get(URL + "26/").content.decode()
    assert re.findall(r'<a class="propose" [^>]+>校正</a>', section) == [link.format(26)]


def test_a_rejection_or_revert_reason_is_held_to_the_rules_of_every_text_a_user_writes(seed_juan, people):
    """The proposer reads a rejection's reason and anyone a revert's (the history page): one
    holding U+202E showed otherwise than it was stored, and a revert's had no length limit
    when the workflow was called without the view's cut."""
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射", reason="宋本作射")
    with pytest.raises(ReviewError, match=r"^文字含 Unicode 方向控制字元"):
        reject(p, people["editor"], reason="不\u202e是")
    c = Client()
    c.force_login(people["editor"])
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "reject", "reason": "不\u2066是"})
    assert response.status_code == 400 and "文字含 Unicode 方向控制字元（U+202A–U+202E、U+2066–U+2069），請去除" in response.content.decode()
    accept(p, people["editor"], reason="是")
    with pytest.raises(ReviewError, match=r"^文字含 Unicode 方向控制字元"):
        revert(p, people["editor2"], reason="\u202b誤")
    with pytest.raises(ReviewError, match="at most 4000 characters each"):
        revert(p, people["editor2"], reason="誤" * 4001)
    p.refresh_from_db()
    assert p.status == ACCEPTED
    assert [a.action for a in p.audit.all()] == ["proposed", "accepted"]


def test_an_edit_at_accepting_that_gives_back_the_text_is_refused(seed_juan, people):
    """Proposing the text as it stands is refused; an editor's edit to it was accepted as a
    correction that changes nothing, framed on the page and listed in the upstream patch."""
    note = note_1_3(seed_juan)
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射", reason="宋本作射")
    with pytest.raises(ReviewError, match=r"^新文字與原文相同 \(the new text is the same as the text\)$"):
        accept(p, people["editor"], replacement=note.text[0], reason="是")
    p.refresh_from_db()
    assert (p.status, p.replacement) == (PENDING, "射")


def test_a_note_over_a_corrected_place_holds_the_whole_corrected_span(seed_juan, people):
    """A reader selects characters of the corrected reading; a note or an annotation meeting
    a corrected place was refused ("an editor can revert it"), though it changes no text. It
    now covers the corrected places it meets whole, anchored on the text as imported; a text
    correction there is still refused."""
    note = note_1_3(seed_juan)
    fix = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=2, end=4,
                  replacement="射", reason="宋本作射")
    accept(fix, people["editor"], reason="是")
    reader = User.objects.create_user("reader", password=PW)
    # the reading: note.text[:2] + 射 + note.text[4:]; the reader selects 射 and the character after it
    mine = propose(reader, seed_juan, kind="private_note", section=1, piece=3, start=2, end=4, replacement="參看",
                   reason="")
    assert (mine.start, mine.end, mine.original) == (2, 5, note.text[2:5])
    # a selection ending inside the corrected place takes it whole too
    public = propose(people["contributor"], seed_juan, kind="annotation", section=1, piece=3, start=1, end=3,
                     replacement="人名", reason="注")
    assert (public.start, public.end, public.original) == (1, 4, note.text[1:4])
    # after it, offsets map back by the correction's change of length (2 characters became 1)
    later = propose(reader, seed_juan, kind="bookmark", section=1, piece=3, start=5, end=6, reason="")
    assert (later.start, later.end, later.original) == (6, 7, note.text[6:7])
    with pytest.raises(ReviewError, match=f"^範圍觸及已校正處（提議 #{fix.pk}），須由編輯撤回 "):
        propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=1, end=3,
                replacement="將射", reason="r")
    accept(public, people["editor"], reason="是")
    assert Proposal.objects.get(pk=public.pk).status == ACCEPTED


def test_the_lists_of_proposals_name_their_juans_with_one_query(client, seed_juan, people):
    """/corrections/mine/, /corrections/notes/ and the queue named each proposal's juan (卷十)
    with a query of its own: 500 proposals, 500 queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(url, user):
        c = Client()
        c.force_login(user)
        with CaptureQueriesContext(connection) as done:
            page = c.get(url).content.decode()
        return len(done), page.count("卷十 §1")

    def add(n):
        for i in range(n):
            propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=i, end=i + 1,
                    replacement="〇", reason="r")
            propose(people["contributor"], seed_juan, kind="private_note", section=1, piece=3, start=i, end=i + 1,
                    replacement="記", reason="")

    add(1)
    one = [queries(url, user) for url, user in (("/corrections/mine/", people["contributor"]),
                                                  ("/corrections/notes/", people["contributor"]),
                                                  ("/corrections/", people["editor"]))]
    add(4)
    five = [queries(url, user) for url, user in (("/corrections/mine/", people["contributor"]),
                                                   ("/corrections/notes/", people["contributor"]),
                                                   ("/corrections/", people["editor"]))]
    assert [n for n, _ in five] == [n for n, _ in one]
    assert [shown for _, shown in one] == [1, 1, 1] and [shown for _, shown in five] == [5, 5, 5]


@pytest.mark.django_db(transaction=True)
def test_two_editors_accepting_two_proposals_of_one_place_at_once_accept_one(search_backend, monkeypatch):
    """Each accept locked only its own proposal, then looked for accepted changes of the
    place: on PostgreSQL two editors accepting two overlapping proposals at the same moment
    each saw the other's still pending, and both were accepted (the reading then repeated
    characters). The second now waits for the first (the juan's row is locked) and is refused.
    SQLite runs one writing transaction at a time (they start IMMEDIATE); the suite's in-memory
    SQLite database cannot hold two at once, so there the settings are checked."""
    import threading

    from django.db import connection

    from corrections import workflow

    if connection.vendor == "sqlite":
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        return
    juan = import_file(SEED).juan
    contributor, first, second = account("cq", "contributor"), account("eq", "editor"), account("fq", "editor")
    a = propose(contributor, juan, kind="text", section=1, piece=3, start=0, end=2, replacement="甲乙", reason="r")
    b = propose(contributor, juan, kind="text", section=1, piece=3, start=1, end=3, replacement="丙丁", reason="r")
    both_checking = threading.Barrier(2)
    checked = workflow.overlapping

    def overlapping(candidate, others):  # both editors at the check at once, when nothing makes one wait
        try:
            both_checking.wait(timeout=3)
        except threading.BrokenBarrierError:
            pass
        return checked(candidate, others)

    monkeypatch.setattr(workflow, "overlapping", overlapping)
    outcomes = {}

    def review(proposal, editor):
        try:
            accept(proposal, editor, reason="是")
            outcomes[proposal.pk] = "accepted"
        except ReviewError as exc:
            outcomes[proposal.pk] = str(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=review, args=args) for args in ((a, first), (b, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winner = a if outcomes[a.pk] == "accepted" else b
    assert sorted(outcomes.values()) == ["accepted", f"與已採納的提議 #{winner.pk} 同處，請先撤回該提議 "
                                                     "(it meets an accepted proposal at the same place: revert that first)"]
    assert list(Proposal.objects.filter(status=ACCEPTED).values_list("pk", flat=True)) == [winner.pk]


@pytest.mark.django_db(transaction=True)
def test_an_accept_while_its_juan_is_imported_again_waits_for_the_import_and_is_taken(search_backend):
    """An accept locks the juan's row; on PostgreSQL, when an import holding that row (it deletes
    the juan and stores it anew) committed, the row waited for was gone and the accept was refused
    with 「此版本已無卷 10 (the edition has no juan 10 any more)」 while the edition held it (2 of 30
    accepts sent during four re-imports of the seed, on a server). It now looks again and is
    accepted on the juan as imported. SQLite runs one writing transaction at a time (the accept
    waits before it reads), as the two-editors test checks."""
    import threading

    from django.db import connection, transaction

    if connection.vendor == "sqlite":
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        return
    juan = import_file(SEED).juan
    p = propose(account("ci", "contributor"), juan, kind="text", section=1, piece=3, start=0, end=2,
                replacement="甲乙", reason="r")
    editor = account("ei", "editor")
    holding, outcome = threading.Event(), {}

    def reimport():
        try:
            with transaction.atomic():
                import_file(SEED)  # the juan deleted and stored anew, not yet committed
                holding.set()
                with connection.cursor() as cursor:  # until the accept waits for the row
                    for _ in range(600):
                        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                       "AND datname = current_database()")
                        if cursor.fetchone()[0]:
                            break
                        threading.Event().wait(0.05)
        finally:
            connection.close()

    def review():
        holding.wait(timeout=60)
        try:
            accept(p, editor, reason="是")
            outcome["accept"] = "accepted"
        except ReviewError as exc:
            outcome["accept"] = str(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=reimport), threading.Thread(target=review)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcome == {"accept": "accepted"}
    p.refresh_from_db()
    new = Juan.objects.get(edition_id=p.edition_id, number=10)
    text = Piece.objects.get(section__juan=new, section__position=1, position=3).text
    assert (p.status, new.pk != juan.pk, juan_overlay(new).apply(1, 3, text, "")[0]) == (ACCEPTED, True, "甲乙" + text[2:])


def test_the_text_group_is_worded_and_linked_as_the_other_display_controls(client, seed_juan):
    """The 文本 group (校正本 / 原文, 隱藏注記) was written into the template with its parameters'
    English values compared there, and its links dropped the highlight and the other settings:
    it is built beside the other groups (``corrections.reading.text_controls``), each link
    keeping the highlight, the settings given in the URL and the group's other choice."""
    body = client.get(URL, {"hl": "射", "notes": "hidden", "text": "imported", "annotations": "person"}).content.decode()
    group = body.split('aria-labelledby="ctl-text">')[1].split("</div>")[0]
    base = "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?hl=%E5%B0%84&amp;notes=hidden"
    assert re.findall(r'<a href="([^"]+)" rel="nofollow" title="[^"]+"( class="current" aria-current="true")?>([^<]+)</a>',
                      group) == [
        (base + "&amp;annotations=person", "", "校正本"),
        (base + "&amp;text=imported&amp;annotations=person", ' class="current" aria-current="true"', "原文"),
        (base + "&amp;text=imported&amp;annotations=hidden", "", "隱藏注記"),
        (base + "&amp;text=imported", "", "全部注記")]
    plain = client.get(URL).content.decode().split('aria-labelledby="ctl-text">')[1].split("</div>")[0]
    assert re.findall(r">([^<]+)</a>", plain) == ["校正本", "原文", "隱藏注記"]
    assert 'href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/" rel="nofollow" title="採納的校正已改入（每處有「校」號）" ' \
        'class="current" aria-current="true">校正本</a>' in plain
    hidden = client.get(URL, {"annotations": "hidden"}).content.decode().split('aria-labelledby="ctl-text">')[1]
    assert '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/" rel="nofollow" title="讀者的注記，在欄外">顯示注記</a>' \
        in hidden.split("</div>")[0]


@pytest.mark.django_db(transaction=True)
def test_a_layer_correction_gives_the_piece_the_new_layers_name_everywhere(search_backend):
    """After 注 → 按語 (editorial) of 禮書綱目 卷十 §5's first note, the API said
    ``"layer": "editorial", "layer_name": "注"``, so did the search hit, and the reading page
    tagged it 注 with the screen-reader text 「注：」: the name is now the new layer's, and a
    note made 注 again takes the name the juan's 注 have (注)."""
    juan = import_file(SEED).juan
    contributor, editor = account("cv", "contributor"), account("ev", "editor")
    note = Piece.objects.filter(section__juan=juan, section__position=5, kind="note").order_by("position").first()
    assert (note.position, note.text[:8], note.layer, note.layer_name) == (1, "亨肉孰也射義曰諸", "commentary", "注")
    p = propose(contributor, juan, kind="layer", section=5, piece=1, start=0, end=len(note.text), new_layer="editorial",
                reason="按語，非鄭注")
    accept(p, editor)
    api = Client().get(f"/api/works/{juan.work_id}/juans/10/sections/5/").json()
    piece = next(x for x in api["pieces"] if x["position"] == 1)
    assert (piece["layer"], piece["layer_name"], piece["commentator"]) == ("editorial", "", "")  # the usual name: 按語
    other = next(x for x in api["pieces"] if x["position"] == 9)
    assert (other["layer"], other["layer_name"]) == ("commentary", "注")
    hits = Client().get("/api/search/", {"q": "亨肉孰也射義"}).json()["results"]
    assert [(h["layer"], h["layer_name"], h["section"]["position"]) for h in hits] == [("editorial", "按語", 5)]
    html = Client().get(URL).content.decode()
    i = html.index('id="s5-p1"')
    opening = html[html.rindex("<span", 0, i):html.index(">", i) + 1]
    assert 'class="note layer-editorial" data-layer="按語"' in opening
    assert html[i:html.index("亨肉孰也", i)] == ('id="s5-p1" role="note"><span class="layer-tag" aria-hidden="true">按語</span>'
                                               '<span class="visually-hidden">按語：</span>')
    assert Piece.objects.get(pk=note.pk).layer_name == "注"  # the stored piece is unchanged
    # the text back in its layer by a second correction of another note: named as the juan names 注
    ninth = Piece.objects.get(section__juan=juan, section__position=5, position=9)
    q = propose(contributor, juan, kind="layer", section=5, piece=9, start=0, end=len(ninth.text), new_layer="classic",
                reason="經文")
    accept(q, editor)
    api = Client().get(f"/api/works/{juan.work_id}/juans/10/sections/5/").json()
    piece = next(x for x in api["pieces"] if x["position"] == 9)
    assert (piece["layer"], piece["layer_name"]) == ("classic", "")  # as the juan's 經 are named


@pytest.mark.django_db(transaction=True)
def test_a_text_corrected_note_made_a_heading_keeps_its_layers_name(search_backend):
    """A note given a text correction and made a heading is a heading: a label of no layer's name or
    writer, as a line of the classic made a heading is (it kept the note's layer, commentary, named 注)."""
    juan = import_file(SEED).juan
    contributor, editor = account("ch", "contributor"), account("eh", "editor")
    accept(propose(contributor, juan, kind="text", section=5, piece=1, start=0, end=1, replacement="烹",
                   reason="r"), editor)
    accept(propose(contributor, juan, kind="structure", section=5, piece=1, start=0, end=1, structure="heading",
                   reason="r"), editor)
    api = Client().get(f"/api/works/{juan.work_id}/juans/10/sections/5/").json()
    piece = next(x for x in api["pieces"] if x["position"] == 1)
    assert (piece["kind"], piece["layer"], piece["text"][:4], piece["layer_name"], piece["commentator"]) == (
        "label", "classic", "烹肉孰也", "", "")
