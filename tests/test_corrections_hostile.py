"""Corrections against hostile input: characters that show as nothing in a new text, a note or
a link; a section the juan lacks typed on the form; a form whose CSRF token is missing."""
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from corrections.models import PENDING, Proposal
from corrections.workflow import ReviewError, accept, propose
from corrections.links import LinkError, clean_link, href, label
from reader.models import Piece

from .test_corrections import account, people  # noqa: F401 - the fixture

PROPOSE = "/corrections/propose/禮書綱目/10/"


def test_a_new_text_holding_a_character_that_shows_as_nothing_is_refused_when_proposed_or_accepted(seed_juan, people):
    """「樂人」→「樂\\u200b人」 was accepted: the page showed 「樂人」→「樂人」 and the phrase 樂人 was no longer
    found; U+0007 went through the same way. A new text holds what the book prints, each
    character seen."""
    piece = Piece.objects.get(section__juan=seed_juan, section__position=3, position=0)
    assert piece.text[:2] == "樂人"
    for hidden, name in (("\u200b", "U+200B（ZERO WIDTH SPACE）"), ("\u200d", "U+200D（ZERO WIDTH JOINER）"),
                         ("\u200f", "U+200F（RIGHT-TO-LEFT MARK）"), ("\u00ad", "U+00AD（SOFT HYPHEN）"),
                         ("\ufeff", "U+FEFF（ZERO WIDTH NO-BREAK SPACE）"), ("\x07", "U+0007（CONTROL CHARACTER）"),
                         ("\U000e0041", "U+E0041（TAG LATIN CAPITAL LETTER A）")):
        with pytest.raises(ReviewError) as refused:
            propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=0, end=2,
                    replacement=f"樂{hidden}人", reason="他本")
        said = str(refused.value)
        assert said.startswith(f"文字第 2 字為不可見字元 {name}") or said.startswith(f"新文字第 2 字為不可見字元 {name}"), said
    assert str(refused.value) == ("文字第 2 字為不可見字元 U+E0041（TAG LATIN CAPITAL LETTER A），請去除 (the text holds an "
                                  "invisible character, U+E0041 TAG LATIN CAPITAL LETTER A, at character 2: write it without)")
    with pytest.raises(ReviewError) as refused:
        propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=0, end=2,
                replacement="樂\u200d人", reason="他本")
    assert str(refused.value) == ("新文字第 2 字為不可見字元 U+200D（ZERO WIDTH JOINER）：書中文字無不可見者，請去除；無法辨讀之字以〓記之 "
                                  "(the new text holds an invisible character, U+200D ZERO WIDTH JOINER, at character 2: "
                                  "a book's text holds none; write a character that cannot be read as 〓)")
    assert Proposal.objects.count() == 0
    # an editor's edit at accepting is held to the same rule, and the proposal stays as it was
    p = propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=0, end=2,
                replacement="樂入", reason="他本")
    with pytest.raises(ReviewError, match=r"^新文字第 2 字為不可見字元 U\+200C（ZERO WIDTH NON-JOINER）"):
        accept(p, people["editor"], reason="是", replacement="樂\u200c入")
    p.refresh_from_db()
    assert (p.status, p.replacement, [a.action for a in p.audit.all()]) == (PENDING, "樂入", ["proposed"])
    # through the form: a 400 naming the character, nothing stored
    c = Client()
    c.force_login(people["contributor"])
    response = c.post(PROPOSE, {"kind": "text", "section": 3, "first": 1, "last": 2, "replacement": "樂\u200b人",
                                "reason": "他本"})
    assert response.status_code == 400
    assert "文字第 2 字為不可見字元 U+200B（ZERO WIDTH SPACE），請去除" in response.content.decode()
    assert Proposal.objects.count() == 1
    assert Piece.objects.get(pk=piece.pk).text == piece.text


def test_a_note_keeps_its_joiners_and_line_breaks_but_not_a_control_or_a_zero_width_space(seed_juan, people):
    """A note, a reason and evidence are free text: a joiner or a direction mark other scripts
    need, a tab and line breaks stay; a control character or a character that only hides a word
    from search (U+200B, U+FEFF, a tag character) is refused with its place."""
    kept = propose(people["contributor"], seed_juan, kind="annotation", section=3, piece=0, start=0, end=2,
                   replacement="大射：\n\t諸侯之射。\u200dय\u200c", reason="注\u200f")
    assert (kept.status, kept.replacement, kept.reason) == (PENDING, "大射：\n\t諸侯之射。\u200dय\u200c", "注\u200f")
    for fields, said in (({"replacement": "鄭\u200b玄"}, "文字第 2 字為不可見字元 U+200B（ZERO WIDTH SPACE），請去除"),
                         ({"reason": "宋本\x1b[2J"}, "文字第 3 字為不可見字元 U+001B（CONTROL CHARACTER），請去除"),
                         ({"evidence": "\ufeff四庫本"}, "文字第 1 字為不可見字元 U+FEFF（ZERO WIDTH NO-BREAK SPACE），請去除")):
        with pytest.raises(ReviewError) as refused:
            propose(people["contributor"], seed_juan, kind="annotation", section=3, piece=0, start=0, end=2,
                    **{"replacement": "鄭玄", "reason": "注", **fields})
        assert str(refused.value).startswith(said)
    assert Proposal.objects.count() == 1


@pytest.mark.parametrize(("link", "name"), [
    ("https://goo\u200bgle.com/", "U+200B（ZERO WIDTH SPACE）"),          # reads as google.com
    ("https://example.org/\u202egnp.exe", "U+202E（RIGHT-TO-LEFT OVERRIDE）"),  # reads as …exe.png
    ("https://example.org/\x07", "U+0007（CONTROL CHARACTER）"),
    ("cbdb:37\u200c67", "U+200C（ZERO WIDTH NON-JOINER）"),
])
def test_a_link_holding_a_character_that_shows_as_nothing_is_refused(link, name):
    """Links were checked for their scheme only: an address with U+200B in its host read as
    another site's, one with U+202E backwards, and both were stored and shown."""
    with pytest.raises(LinkError) as refused:
        clean_link(link)
    at = next(i for i, ch in enumerate(link) if ch in "\u200b\u202e\x07\u200c") + 1
    assert str(refused.value) == (f"連結第 {at} 字為不可見字元 {name}，請去除 (the link holds an invisible character, "
                                  f"{name.replace('（', ' ').rstrip('）')}, at character {at}: write it without)")
    assert clean_link("https://zh.wikipedia.org/wiki/鄭玄") == "https://zh.wikipedia.org/wiki/鄭玄"


@pytest.mark.parametrize(("link", "said"), [
    ("https://google.com@evil.com/", "「https://google.com@evil.com/」在網址中含帳號資訊（@ 之前），所開的是 @ 之後的網站："
     "請只寫網站位址 (the link holds user information before an @: it opens the site after the @, 'evil.com'; write "
     "the site's address alone)"),
    ("http://user:pw@example.com/", "「http://user:pw@example.com/」在網址中含帳號資訊（@ 之前），所開的是 @ 之後的網站："
     "請只寫網站位址 (the link holds user information before an @: it opens the site after the @, 'example.com'; "
     "write the site's address alone)"),
    ("https://гoogle.com/", "「https://гoogle.com/」的網域「гoogle」混用西里爾、拉丁字母，看似另一網站 (the link's "
     "host name 'гoogle' mixes Cyrillic and Latin letters, which look alike: it reads as another site)"),
    ("https://ctext.οrg/", "「https://ctext.οrg/」的網域「οrg」混用希臘、拉丁字母，看似另一網站 (the link's "
     "host name 'οrg' mixes Greek and Latin letters, which look alike: it reads as another site)"),
])
def test_a_link_that_reads_as_another_site_is_refused(link, said):
    """https://google.com@evil.com/ (user information: it opens evil.com) and https://гoogle.com/
    (its г Cyrillic) were taken as links. Both are refused; a host of one script, an @ in the
    path, and a plain address stay links."""
    with pytest.raises(LinkError) as refused:
        clean_link(link)
    assert str(refused.value) == said
    for fine in ("https://пример.рф/", "https://example.org/a@b",
                 "https://ctext.org/liji/da-she-yi"):
        assert clean_link(fine) == fine


@pytest.mark.parametrize(("link", "shown"), [
    # every letter Cyrillic (its ӏ the palochka) and each a Latin look-alike, under .com: Chromium's and
    # Firefox's punycode (аррӏе.com is Chromium's own example, xn--80ak6aa92e.com)
    ("https://раураӏ.com/", "https://xn--80aa0cbo65f.com/"),
    ("https://www.аррӏе.com:8080/a?b=1", "https://www.xn--80ak6aa92e.com:8080/a?b=1"),
    ("https://сосо-2.com/", "https://xn---2-emcanb.com/"),          # a digit and a hyphen are no letters
    ("https://ικον.org/", "https://xn--uxacjh.org/"),              # Greek look-alikes
    # the same under a domain of many names in that script, or one written in it: as written
    ("https://раураӏ.ru/", "https://раураӏ.ru/"), ("https://раураӏ.рф/", "https://раураӏ.рф/"),
    ("https://раураӏ.xn--p1ai/", "https://раураӏ.xn--p1ai/"), ("https://ικον.gr/", "https://ικον.gr/"),
    # a Russian scholar's site: и and т look like no Latin letter
    ("https://историк.com/статьи", "https://историк.com/статьи"),
    ("https://пример.рф/", "https://пример.рф/"), ("https://北京大學.cn/", "https://北京大學.cn/"),
    ("https://ctext.org/liji/da-she-yi", "https://ctext.org/liji/da-she-yi"),
])
def test_a_host_of_latin_look_alikes_in_another_script_is_taken_and_shown_in_punycode(link, shown):
    """https://раураӏ.com/, every letter Cyrillic, was taken and shown as written, reading as paypal.com,
    while a mixed-script host is refused (79c3017). It is taken as written (a link in Cyrillic is a
    scholar's as often as not) and shown as the browsers show it (``corrections.hosts``: Chromium's
    whole-script confusables, step 10 of its IDN policy)."""
    assert clean_link(link) == link
    assert label(link) == shown and href(link) == link


def test_a_link_with_a_zero_width_space_is_refused_through_the_form(seed_juan, people):
    c = Client()
    c.force_login(people["contributor"])
    response = c.post(PROPOSE, {"kind": "annotation", "section": 3, "first": 1, "last": 2, "replacement": "樂人",
                                "reason": "注", "links": "https://goo\u200bgle.com/"})
    assert response.status_code == 400
    assert "連結第 12 字為不可見字元 U+200B（ZERO WIDTH SPACE），請去除" in response.content.decode()
    assert Proposal.objects.count() == 0


def test_a_section_the_juan_lacks_is_named_as_such(seed_juan, people):
    """§999 of a juan of 45 sections was told 「第 1–2 字超出本節的 0 字」 (characters 1–2 are past the
    section's 0), as if the section were empty."""
    c = Client()
    c.force_login(people["contributor"])
    response = c.post(PROPOSE, {"kind": "text", "section": 999, "first": 1, "last": 2, "replacement": "甲乙",
                                "reason": "他本"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "卷十無第 999 節：本卷有第 1–45 節 (the juan has no section 999: its sections are 1–45)" in html
    assert "超出本節的 0 字" not in html
    assert Proposal.objects.count() == 0


def test_a_form_without_its_csrf_token_is_answered_by_the_sites_page_saying_what_to_do(seed_juan, people):
    """A form posted without its token (a page left open past a sign-in elsewhere, cookies
    blocked) was Django's page, telling a reader to 「設定 DEBUG=True 以獲得更多資訊」 (set DEBUG=True),
    its style inline where the Content-Security-Policy blocks it."""
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["contributor"])
    response = strict.post(PROPOSE, {"kind": "text", "section": 1, "first": 1, "last": 2, "replacement": "甲乙",
                                     "reason": "他本"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "<h1>表單無法驗證 (403)</h1>" in html
    assert "請先複製所填的內容，回到上一頁，重新載入後再提交。" in html
    assert "Copy what you wrote, go back, reload the page and submit it again." in html
    assert "DEBUG" not in html and "<style" not in html
    assert "登出（cx）" in html  # the site's page, with the reader signed in
    assert Proposal.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_pending_proposal_moves_with_its_text_at_a_reimport_or_says_that_the_text_is_gone(tmp_path, search_backend):
    """A proposal pending when its juan was imported again stayed where it was: one whose text
    had moved kept the old place, and one whose text was gone looked acceptable in the queue
    until an editor tried (「定位已不相符」), its proposer never told. Now the first moves (audited
    re-anchored) and the second says why in the queue and its history, until the text is back."""
    from reader.importers.loader import import_file

    from .test_corrections import NOTE, SEED, _seed_copy

    juan = import_file(SEED).juan
    contributor, editor = account("cp", "contributor"), account("ep", "editor")
    at = NOTE.index("政教")
    moving = propose(contributor, juan, kind="text", section=1, piece=3, start=at, end=at + 2, replacement="政令",
                     reason="宋本作令")
    losing = propose(contributor, juan, kind="text", section=1, piece=3, start=0, end=2, replacement="方將", reason="r")
    bookmark = propose(contributor, juan, kind="bookmark", section=1, piece=3, start=0, end=2, replacement="將有", reason="")
    # upstream, a note before it (the pieces after it move by two) and the note's opening changed
    import_file(_seed_copy(tmp_path, "大射之儀君有命戒射【" + NOTE, "大射之儀【新注】君有命戒射【方有" + NOTE[2:]))
    moving.refresh_from_db()
    losing.refresh_from_db()
    assert (moving.status, moving.piece_position, moving.start, moving.end, moving.status_reason) == (PENDING, 5, at, at + 2, "")
    assert [a.action for a in moving.audit.all()] == ["proposed", "re-anchored"]
    # its own text changed (將有 → 方有 where its context still stands), which the reason says
    gone = ("重新匯入後無從定位，無法採納 (after a re-import it is not found, and cannot be accepted: "
            "此處「將有」今作「方有」 (its own text changed: between its context, 「」 and 「祭祀之事當射宰告於君君乃」, "
            "section 1, piece 5, character 0 now reads 「方有」, not 「將有」))")
    assert (losing.status, losing.piece_position, losing.status_reason) == (PENDING, 3, gone)
    assert [(a.action, a.actor) for a in losing.audit.all()] == [("proposed", losing.author), ("unanchored", None)]
    c = Client()
    c.force_login(editor)
    queue = c.get("/corrections/").content.decode()
    assert f'<p class="unanchored">{gone}</p>' in queue.replace("&#x27;", "'")
    assert queue.count('class="unanchored"') == 1
    c.force_login(contributor)
    assert "待審 (pending)：重新匯入後無從定位，無法採納" in c.get(f"/corrections/{losing.pk}/").content.decode()
    bookmark.refresh_from_db()  # a reader's bookmark of the words that are gone says so on his notes' page
    words_gone = gone.replace("，無法採納 (after a re-import it is not found, and cannot be accepted:",
                              " (after a re-import your note's words are not found:")
    assert (bookmark.status, bookmark.status_reason) == ("private", words_gone)  # a note is never accepted
    notes = c.get("/corrections/notes/").content.decode().replace("&#x27;", "'")
    assert f'<span class="unanchored">{words_gone}</span>' in notes and "無法採納" not in notes
    # the moved one is accepted where its text now is; the text back as it was clears the other's reason
    accept(moving, editor)
    import_file(SEED)
    losing.refresh_from_db()
    assert (losing.status, losing.status_reason) == (PENDING, "")
    assert [a.action for a in losing.audit.all()] == ["proposed", "unanchored"]
    accept(losing, editor)
    assert Proposal.objects.get(pk=losing.pk).status == "accepted"


def test_the_review_queue_and_ones_own_lists_are_paged_not_cut(seed_juan, people):
    """The queue showed the oldest 200 pending proposals under 「待審校正（200）」 however many
    there were, one's own proposals the newest 500 and one's notes the first 1,000: the rest
    were never seen. Each list is paged now, the heading counting them all."""
    from corrections import views

    base = dict(edition=seed_juan.edition, edition_slug="禮書綱目", juan_number=10, section_position=3,
                piece_position=0, start=0, end=2, original="樂人", reason="r", author=people["contributor"])
    Proposal.objects.bulk_create([Proposal(kind="annotation", replacement=f"注{i}", status=PENDING, **base)
                                  for i in range(views.QUEUE_PAGE + 3)])
    Proposal.objects.bulk_create([Proposal(kind="bookmark", replacement=f"籤{i}", status="private", **base)
                                  for i in range(3)])
    c = Client()
    c.force_login(people["editor"])
    first = c.get("/corrections/").content.decode()
    assert "<h1>待審校正（203）</h1>" in first
    assert first.count('<article class="pending">') == 200
    assert '第 1 / 2 頁，共 203 件 · <a href="?page=2" rel="next">下一頁</a>' in first
    last = c.get("/corrections/?page=2").content.decode()
    assert last.count('<article class="pending">') == 3 and "注202" in last and "注199" not in last
    # a page past the last names the last and links to it (a 404), one that is no page number is a
    # 400 naming ``page`` (they showed the last page and the first), as the search's hits and the API's lists
    for bad, status, words in [
            ("3", 404, "<p>沒有此頁：/corrections/。沒有第「3」頁：已過末頁，本表末頁為第 2 頁（<a href=\"/corrections/?page=2\">到末頁</a>）。回到"),
            ("0003", 404, "<p>沒有此頁：/corrections/。沒有第「3」頁：已過末頁，本表末頁為第 2 頁（<a href=\"/corrections/?page=2\">到末頁</a>）。回到"),
            *((bad, 400, f"<p>無法顯示：/corrections/。page 須為從 1 起的整數或 last (page must be a whole number from 1, or "
                         f"'last'; not {bad!r})。回到")
              # full-width digits are no page number (they showed page 1), as in the API
              for bad in ("x", "0", "-1", "１", "+2"))]:
        response = c.get("/corrections/", {"page": bad})
        shown = response.content.decode().replace("&#x27;", "'")
        assert response.status_code == status, bad
        assert words in shown, bad
        assert '<article class="pending">' not in shown
    at_last = c.get("/corrections/", {"page": "last"}).content.decode()  # ``last``, as every list reads it
    assert at_last.count('<article class="pending">') == 3 and "注202" in at_last and "第 2 / 2 頁" in at_last
    english = c.get("/corrections/", {"page": "9" * 30}).content.decode()
    assert (f'<p lang="en">Not found: /corrections/ (no page &#x27;{"9" * 20}…&#x27;: past the last page of this list, '
            '2).') in english
    assert c.get("/corrections/", {"page": ""}).content.decode().count('<article class="pending">') == 200
    c.force_login(people["contributor"])
    mine = c.get("/corrections/mine/").content.decode()
    assert mine.count("注記 (annotation)</a>") == 203 and "分頁" not in mine  # one page of 500
    notes = c.get("/corrections/notes/").content.decode()
    assert notes.count("書籤 (bookmark)：") == 3
    # one's own lists: an empty list has its page 1, and no page 2
    c.force_login(people["editor"])
    assert c.get("/corrections/mine/").status_code == 200
    missing = c.get("/corrections/mine/", {"page": "2"}).content.decode()
    assert "沒有第「2」頁：已過末頁，本表末頁為第 1 頁（<a href=\"/corrections/mine/\">到末頁</a>）" in missing
    assert c.get("/corrections/notes/", {"page": "2"}).status_code == 404


def test_deleting_the_last_note_of_the_last_page_leads_to_the_page_before(seed_juan, people, monkeypatch):
    """Deleting a note goes back to the page of the list it was on; the only note of the last page
    deleted, that page is past the last (a 404), so the page before it is shown."""
    from corrections import views

    monkeypatch.setattr(views, "NOTES_PAGE", 2)
    base = dict(edition=seed_juan.edition, edition_slug="禮書綱目", juan_number=10, section_position=3,
                piece_position=0, start=0, end=2, original="樂人", reason="", author=people["contributor"])
    marks = Proposal.objects.bulk_create([Proposal(kind="bookmark", replacement=f"籤{i}", status="private", **base)
                                          for i in range(3)])
    c = Client()
    c.force_login(people["contributor"])
    assert c.get("/corrections/notes/", {"page": "2"}).content.decode().count("書籤 (bookmark)：") == 1
    assert c.get("/corrections/notes/", {"page": "3"}).status_code == 404
    response = c.post(f"/corrections/{marks[2].pk}/delete/", {"page": "2"})
    assert (response.status_code, response["Location"]) == (302, "/corrections/notes/")
    response = c.post(f"/corrections/{marks[1].pk}/delete/", {"page": "1"})
    assert (response.status_code, response["Location"]) == (302, "/corrections/notes/")


def test_an_editor_signing_in_again_after_pressing_accept_is_led_to_the_proposal_not_a_bare_405(seed_juan, people):
    """An editor whose session had ended pressed 採納: the sign-in page came with
    ``next=/corrections/<pk>/review/``, and signing in led to a GET of that address, an empty 405."""
    from .test_corrections import PW

    p = propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=0, end=2,
                replacement="樂入", reason="他本")
    c = Client()
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "是"})
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/corrections/{p.pk}/review/"
    response = c.post("/accounts/login/", {"username": "ex", "password": PW, "next": f"/corrections/{p.pk}/review/"})
    assert (response.status_code, response["Location"]) == (302, f"/corrections/{p.pk}/review/")
    response = c.get(f"/corrections/{p.pk}/review/")
    assert (response.status_code, response["Location"]) == (302, f"/corrections/{p.pk}/")
    assert 'value="accept"' in c.get(f"/corrections/{p.pk}/").content.decode()
    assert c.put(f"/corrections/{p.pk}/review/").status_code == 405
    p.refresh_from_db()
    assert (p.status, [a.action for a in p.audit.all()]) == (PENDING, ["proposed"])


def test_a_review_reason_past_the_limit_is_refused_whole_never_cut(seed_juan, people):
    """The review form cut an editor's reason to its first 4,000 characters without a word (the
    view read ``reason[:MAX_NOTE]``), so the proposer read a rejection that stopped mid-sentence
    and its end was lost; the workflow refused a longer one only when called directly. Now the
    form answers 400 with the limit, and the proposal is as it was; 4,000 characters are kept whole."""
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=1,
                replacement="射", reason="宋本作射")
    c = Client()
    c.force_login(people["editor"])
    for action in ("reject", "accept"):
        response = c.post(f"/corrections/{p.pk}/review/", {"action": action, "reason": "不" * 4000 + "是"})
        assert response.status_code == 400
        assert ("理由、依據與新文字各至多 4000 字 (the reason, the evidence and the new text are at most 4000 "
                "characters each)") in response.content.decode()
    p.refresh_from_db()
    assert (p.status, p.review_reason, [a.action for a in p.audit.all()]) == (PENDING, "", ["proposed"])
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "reject", "reason": "不" * 3999 + "是"})
    assert (response.status_code, response["Location"]) == (302, f"/corrections/{p.pk}/")
    p.refresh_from_db()
    assert (p.status, p.review_reason) == ("rejected", "不" * 3999 + "是")


def test_an_ideographic_space_in_a_new_text_is_kept_as_written(seed_juan, people):
    """U+3000 is a character of these books (a line's indentation, a gap the book leaves), but
    the form and the workflow stripped a new text as every white space: 「司馬」→「　」 was stored
    as a deletion, and 「甲　」 as 「甲」. A text correction's new text, proposed or edited by the
    editor who accepts it, now keeps its U+3000 and loses only the spaces and line breaks a form
    adds; a note still loses them all."""
    c = Client()
    c.force_login(people["contributor"])
    made = []
    for typed in ("\u3000", " 甲\u3000\r\n", "\u3000乙", "\u00a0\t丙 "):
        response = c.post(PROPOSE, {"kind": "text", "section": 2, "first": 1, "last": 2, "replacement": typed,
                                    "reason": "他本空格"})
        assert response.status_code == 302
        made.append(Proposal.objects.get(pk=response["Location"].split("/")[-2]))
    assert [(p.original, p.replacement) for p in made] == [
        ("司馬", "\u3000"), ("司馬", "甲\u3000"), ("司馬", "\u3000乙"), ("司馬", "丙")]
    response = c.post(PROPOSE, {"kind": "annotation", "section": 2, "first": 1, "last": 2,
                                "replacement": "\u3000官名\u3000\n", "reason": "注"})
    assert Proposal.objects.get(pk=response["Location"].split("/")[-2]).replacement == "官名"
    e = Client()
    e.force_login(people["editor"])
    response = e.post(f"/corrections/{made[0].pk}/review/", {"action": "accept", "reason": "是",
                                                             "replacement": "\u3000\u3000\n"})
    assert response.status_code == 302
    made[0].refresh_from_db()
    assert (made[0].status, made[0].replacement) == ("accepted", "\u3000\u3000")
    assert [a.detail for a in made[0].audit.filter(action="edited")] == ["new text 「\u3000」 → 「\u3000\u3000」"]
    text = Piece.objects.get(section__juan=seed_juan, section__position=2, position=0).text
    section = e.get(f"/api/works/{seed_juan.work_id}/juans/10/sections/2/").json()
    assert (text[:2], section["pieces"][0]["text"]) == ("司馬", "\u3000\u3000" + text[2:])


@pytest.mark.django_db
def test_signing_up_with_a_name_taken_in_any_case_is_the_forms_error(client, settings):
    """Sign-up with a name already taken (``cx``, or ``CX``: Django refuses a name that differs in
    case only) was a 500: Django's check of the name gives None for a taken one, its error
    told, and the one-script check then read None (TypeError). Now the form says it, as a 400,
    and no account is made; a form with errors is a 400, as the proposal form's is."""
    settings.CORRECTIONS_SIGNUP = True
    account("cx", "contributor")
    for name in ("cx", "CX", "Cx"):
        response = client.post("/accounts/signup/", {"username": name, "email": "x@example.org",
                                                     "password1": "Very-long-pw-123!", "password2": "Very-long-pw-123!"})
        assert response.status_code == 400, name
        assert '<ul class="errorlist" id="id_username_error"><li>一個相同名稱的使用者已經存在。</li></ul>' \
            in response.content.decode(), name
    assert list(User.objects.values_list("username", flat=True)) == ["cx"]
    assert client.get("/accounts/signup/").status_code == 200


def test_a_new_text_holding_a_code_point_that_is_no_character_is_refused_naming_it_and_its_place(seed_juan, people,
                                                                                                   settings):
    """U+FFFF, U+FFFE and U+FDD0–U+FDEF (noncharacters, which Unicode keeps for programs' own use),
    a private-use code point (whatever a font makes of it; in plane 15, the search key of a
    gaiji) and characters that show as nothing without being controls or format characters (a
    Hangul filler, U+034F, U+2065) were taken in a new text. Each is refused through the form
    with its code point, name and place, and nothing is stored; a noncharacter in a reason too.
    The CJK extensions (B, C, G, H and I, the last two newer than this Python's Unicode data), a
    variation selector after its character and U+3000 are taken as typed."""
    noncharacter = ("文字第 {n} 字為非字元 U+{code}（NONCHARACTER）：Unicode 留作程式內部之用，非文字，請去除 (the text holds a "
                    "noncharacter, U+{code} NONCHARACTER, at character {n}, which Unicode keeps for programs' own use and "
                    "no text holds: write it without)")
    private = ("新文字第 {n} 字為私用區字元 U+{code}（PRIVATE USE CHARACTER）：其字因字型而異，非通用之字；Unicode 未收之字以其造字 &KR…; "
               "或〓記之 (the new text holds a private-use character, U+{code} PRIVATE USE CHARACTER, at character {n}, "
               "which is whatever a font makes of it: write a character Unicode lacks as its Kanripo gaiji entity, "
               "&KR…;, or as 〓)")
    unseen = ("新文字第 {n} 字為不可見字元 U+{code}（{name}）：書中文字無不可見者，請去除；無法辨讀之字以〓記之 (the new text holds an "
              "invisible character, U+{code} {name}, at character {n}: a book's text holds none; write a character that "
              "cannot be read as 〓)")
    settings.CORRECTIONS_USER_RATE = settings.CORRECTIONS_ADDRESS_RATE = "none"  # 20 writes: no other test's budget
    c = Client()
    c.force_login(people["contributor"])
    for typed, said in (("樂\uffff人", noncharacter.format(n=2, code="FFFF")),
                        ("樂人\ufffe", noncharacter.format(n=3, code="FFFE")),
                        ("\ufdd0樂", noncharacter.format(n=1, code="FDD0")),
                        ("樂\ufdef", noncharacter.format(n=2, code="FDEF")),
                        ("樂\U0010ffff", noncharacter.format(n=2, code="10FFFF")),
                        ("樂\ue000人", private.format(n=2, code="E000")),
                        ("樂人\U000f07b1", private.format(n=3, code="F07B1")),
                        ("樂\u3164人", unseen.format(n=2, code="3164", name="HANGUL FILLER")),
                        ("樂\u034f人", unseen.format(n=2, code="034F", name="COMBINING GRAPHEME JOINER")),
                        ("樂\u2065人", unseen.format(n=2, code="2065", name="UNASSIGNED CODE POINT"))):
        response = c.post(PROPOSE, {"kind": "text", "section": 3, "first": 1, "last": 2, "replacement": typed,
                                    "reason": "他本"})
        assert response.status_code == 400, typed
        assert escape(said) in response.content.decode(), typed
    response = c.post(PROPOSE, {"kind": "text", "section": 3, "first": 1, "last": 2, "replacement": "樂入",
                                "reason": "他本\ufdd5"})
    assert (response.status_code, escape(noncharacter.format(n=3, code="FDD5")) in response.content.decode()) == (400, True)
    assert Proposal.objects.count() == 0
    kept = ["\U00020000人", "樂\U0002a700", "\U00030000人", "樂\U00031350", "\U0002ebf0人", "樂\U000e0100人", "\u3000樂"]
    made = []
    for typed in kept:
        response = c.post(PROPOSE, {"kind": "text", "section": 3, "first": 1, "last": 2, "replacement": typed,
                                    "reason": "他本"})
        assert response.status_code == 302, typed
        made.append(Proposal.objects.get(pk=response["Location"].split("/")[-2]).replacement)
    assert made == kept


def test_a_private_use_character_the_passage_holds_may_be_copied_into_its_new_text(people, tmp_path, settings):
    """A few sources write a character Unicode lacks with a private-use code point of their own
    (史記 KR2a0001_206 U+E005), which the import keeps as text. A new text may copy one that the
    corrected passage holds; any other private-use code point is refused, as the import's gaiji
    is written &KR…; or 〓."""
    from reader.importers.loader import import_file
    from search.signals import muted

    path = tmp_path / "pua.txt"
    path.write_text("測試書卷三 婺源江永撰\n射禮 嘉禮一\n射人\ue005戒【戒告也】宰戒\n右戒射\n測試書卷三", encoding="utf-8")
    with muted():
        juan = import_file(path).juan
    settings.CORRECTIONS_USER_RATE = settings.CORRECTIONS_ADDRESS_RATE = "none"
    c = Client()
    c.force_login(people["contributor"])
    url = f"/corrections/propose/{juan.edition.slug}/{juan.number}/"
    response = c.post(url, {"kind": "text", "section": 1, "first": 1, "last": 2, "replacement": "射\ue005",
                            "reason": "他本"})
    assert response.status_code == 302
    assert Proposal.objects.get(pk=response["Location"].split("/")[-2]).replacement == "射\ue005"
    response = c.post(url, {"kind": "text", "section": 1, "first": 1, "last": 2, "replacement": "射\ue006",
                            "reason": "他本"})
    assert response.status_code == 400
    assert escape("新文字第 2 字為私用區字元 U+E006（PRIVATE USE CHARACTER）") in response.content.decode()


def test_reverting_a_pending_proposal_says_it_is_not_accepted(seed_juan, people):
    """Reverting a pending proposal answered 400 「此提議待審，並非待審」 (pending, not pending). It
    says what is true: the proposal is not accepted, there is no change to revert; nothing changes."""
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=0, end=2, replacement="方將",
                reason="他本")
    c = Client()
    c.force_login(people["editor"])
    response = c.post(f"/corrections/{p.pk}/review/", {"action": "revert", "reason": "誤"})
    assert response.status_code == 400
    assert ("此提議待審，並未採納，無從撤回 (the proposal is pending, not accepted: there is no change to revert)"
            in response.content.decode().replace("&#x27;", "'"))
    p.refresh_from_db()
    assert (p.status, [a.action for a in p.audit.all()]) == ("pending", ["proposed"])
    accept(p, people["editor"])
    with pytest.raises(ReviewError) as refused:
        accept(p, people["editor2"])
    assert str(refused.value) == "此提議已採納，並非待審 (the proposal is accepted, not pending)"


def test_the_tei_declares_every_gaiji_the_corrected_text_uses_and_an_unknown_one_is_refused(client, seed_juan, people):
    """An accepted correction wrote <g ref="#KR0237"/> into the TEI, whose <charDecl> declared only
    the imported text's gaiji (a reference to nothing), and &KR9999;, no gaiji of Kanripo's table,
    was taken in a proposal. The export of the juan and of the edition declare the gaiji of the
    corrections and annotations, and a number the table lacks is refused, proposed or edited."""
    from tests.tei import tei_errors

    contributor, editor = people["contributor"], people["editor"]
    where = dict(section=1, piece=3, start=0, end=2, reason="他本")
    for kind in ("text", "annotation"):
        with pytest.raises(ReviewError) as refused:
            propose(contributor, seed_juan, kind=kind, replacement="將&KR9999;", **where)
        assert str(refused.value) == ("無此造字 &KR9999;（第 2 字）：Kanripo 造字表無此編號；請查其編號，或以〓記之 (there is no "
                                      "gaiji &KR9999;, at character 2: Kanripo's gaiji table has no such number; look it "
                                      "up, or write 〓)")
    p = propose(contributor, seed_juan, kind="text", replacement="將&KR0237;", **where)
    with pytest.raises(ReviewError, match="^無此造字 &KR9999;（第 1 字）"):
        accept(p, editor, replacement="&KR9999;有")
    accept(p, editor)
    note = propose(contributor, seed_juan, kind="annotation", replacement="讀若&KR1969;", section=1, piece=5, start=0,
                   end=2, reason="注")
    accept(note, editor)
    edition = seed_juan.edition_id
    for url in (f"/api/editions/{edition}/juans/10/export/tei/", f"/api/editions/{edition}/export/tei/",
                f"/api/works/{seed_juan.work_id}/juans/10/export/tei/"):
        response = client.get(url)
        xml = b"".join(response.streaming_content) if response.streaming else response.content
        text = xml.decode("utf-8")
        assert '將<g ref="#KR0237">𥜗</g>' in text, url  # the character Kanripo's gaiji table reads (decision 0108)
        assert '讀若<g ref="#KR1969" />' in text, url   # the annotation's gaiji, which the table reads as nothing
        assert text.count('<char xml:id="KR0237">') == 1 and text.count('<char xml:id="KR1969">') == 1, url
        assert tei_errors(xml) == [], url


@pytest.mark.django_db(transaction=True)
def test_a_file_restored_after_a_reimport_keeps_the_accepted_corrections_it_moved(tmp_path, search_backend):
    """An accepted text correction of 「宰戒」 and an annotation on it (§1 passage 4, characters
    0–2); a copy with 甲 inserted before 宰戒 moved both to 1–3 and rewrote their context before
    to 「甲」; the original file imported again set both aside, though 宰戒 was back at 0–2 with
    its first context. The context as proposed is kept (``first_before``): both come back to 0–2,
    accepted, with a pending proposal and a private note of the same words."""
    from reader.importers.loader import import_file

    from .test_corrections import SEED, _seed_copy

    juan = import_file(SEED).juan
    contributor, editor = account("cq", "contributor"), account("eq", "editor")
    assert Piece.objects.get(section__juan=juan, section__position=1, position=4).text.startswith("宰戒百官")
    where = dict(section=1, piece=4, start=0, end=2)
    text = propose(contributor, juan, kind="text", replacement="宰誡", reason="他本", **where)
    note = propose(contributor, juan, kind="annotation", replacement="冢宰戒百官", reason="注", **where)
    pending = propose(contributor, juan, kind="text", replacement="宰告", reason="他本", **where)
    own = propose(contributor, juan, kind="private_note", replacement="看此", reason="", **where)
    accept(text, editor)
    accept(note, editor)
    import_file(_seed_copy(tmp_path, "】宰戒百官有事於射者【", "】甲宰戒百官有事於射者【"))
    for p in (text, note, pending, own):
        p.refresh_from_db()
        assert (p.start, p.end, p.before, p.first_before) == (1, 3, "甲", ""), p.pk
    assert [p.status for p in (text, note)] == ["accepted", "accepted"]
    import_file(SEED)
    for p in (text, note, pending, own):
        p.refresh_from_db()
        assert (p.start, p.end, p.before, p.status_reason) == (0, 2, "", ""), p.pk
        assert [a.action for a in p.audit.all()][-2:] == ["re-anchored", "re-anchored"], p.pk
    assert [p.status for p in (text, note, pending, own)] == ["accepted", "accepted", "pending", "private"]
    html = Client().get("/works/禮書綱目/juan/10/").content.decode()
    assert (f'<span class="text" id="s1-p4"><span class="annotated-text"><span class="corrected">宰誡</span></span>'
            f'<a class="corr-mark" href="/corrections/{text.pk}/"') in html  # corrected and annotated, at 0–2
