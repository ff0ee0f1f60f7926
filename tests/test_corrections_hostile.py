"""Corrections against hostile input: characters that show as nothing in a new text, a note or
a link; a section the juan lacks typed on the form; a form whose CSRF token is missing."""
import pytest
from django.test import Client

from corrections.models import PENDING, Proposal
from corrections.workflow import ReviewError, accept, propose
from corrections.links import LinkError, clean_link
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
