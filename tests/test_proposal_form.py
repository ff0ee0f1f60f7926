"""The proposal form as a new user found it: every field shown for every kind of correction, the
edition corrected not named, one character printed as a span (「第 1–1 字」). Each field after the
place now names the kinds it belongs to (and ``static/js/corrections.js`` shows only the chosen
kind's: ``tests/browser/test_corrections_browser.py``), the page names the edition, the juan and
the section, and one character is 「第 N 字」 everywhere a span is printed."""
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from corrections.forms import FIELD_KINDS, ProposalForm
from corrections.models import Proposal
from corrections.positions import char_span
from corrections.workflow import EMPTY_NEW_TEXT, NOT_EMPTY_FOR_DELETION, ReviewError, propose
from reader.templatetags.reading import through

from .test_corrections import PW, people  # noqa: F401 - the fixture

FORM = "/corrections/propose/禮書綱目/10/"


def kind_fields(html: str) -> list[tuple[str, str, str]]:
    """``(data-kinds, the field's name as labelled, the kinds its label names)`` of each field box."""
    return re.findall(r'<div class="kind-field" data-kinds="([^"]+)">\n(?:<fieldset><legend>|<label for="[^"]+">)'
                      r'<span class="field-name"[^>]*>([^<]+)</span> <span class="field-kinds">（([^）]+)）</span>', html)


def test_a_span_of_one_character_is_named_as_one():
    assert [char_span(14, 14), char_span(14, 16), char_span(5, 4)] == ["第 14 字", "第 14–16 字", "無字"]
    assert [char_span(14, 14, "en"), char_span(14, 16, "en")] == ["character 14", "characters 14–16"]
    # the sections a page of a long juan holds, as its page links and table of contents name them
    assert [through(3, 3), through(3, 5)] == ["3", "3–5"]


def test_each_field_names_the_kinds_it_belongs_to_and_the_page_names_the_edition_juan_and_section(seed_juan, people):
    c = Client()
    c.force_login(people["contributor"])
    html = c.get(FORM, {"section": 1, "piece": 3, "start": 0, "end": 2}).content.decode()
    assert kind_fields(html) == [
        ("text annotation private_note", "改為／注記 (new text, or the note)", "文字校正、注記、私人筆記"),
        ("text", "刪去所選文字，不改為他字 (delete the selected characters)", "文字校正"),
        ("layer", "層次 (layer)", "層次校正"),
        ("structure", "結構 (structure)", "結構校正"),
        ("annotation private_note", "標籤 (tags)", "注記、私人筆記"),
        ("annotation private_note", "連結（每行一個：cbdb:3767 或 https://…） (links, one a line)", "注記、私人筆記"),
        ("text layer structure annotation", "理由（必填） (reason, required)", "文字校正、層次校正、結構校正、注記"),
        ("text layer structure annotation", "依據（他本、書影、字書） (evidence)", "文字校正、層次校正、結構校正、注記")]
    # the new text's label as each kind reads it, for the script to show
    assert ('<span class="field-name" data-label-text="改為 (new text)" data-label-annotation="注記 (the note)" '
            'data-label-private_note="筆記 (the note, yours alone)">改為／注記 (new text, or the note)</span>') in html
    # the tags are a group of check boxes: a fieldset named by its legend
    assert '<fieldset><legend><span class="field-name">標籤 (tags)</span>' in html
    # the place: the edition (the seed, the only edition of its work, is named by its collection), juan, section
    assert "<h1>校正：禮書綱目（欽定四庫全書・純文字本）卷十 §1「戒百官」</h1>" in html
    assert ('<p class="proposal-place">所校之本：<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/">'
            '禮書綱目（欽定四庫全書・純文字本）</a> · <a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/">卷十</a>'
            ' · <a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/1/">§1「戒百官」</a>。') in html
    # the section's pieces: the one-character 經 is 「第 1 字」, never 「第 1–1 字」
    spans = re.findall(r'<span class="char-range">([^<]+)</span>', html)
    assert spans[:4] == ["第 1 字", "第 2–43 字", "第 44–52 字", "第 53–78 字"]
    assert not [s for s in spans if re.fullmatch(r"第 (\d+)–\1 字", s)]


def test_a_reader_without_a_role_is_shown_the_fields_of_notes_and_bookmarks_only(seed_juan):
    c = Client()
    c.force_login(User.objects.create_user("plain", password=PW))
    html = c.get(FORM, {"section": 1}).content.decode()
    assert kind_fields(html) == [
        ("private_note", "改為／注記 (new text, or the note)", "私人筆記"),
        ("private_note", "標籤 (tags)", "私人筆記"),
        ("private_note", "連結（每行一個：cbdb:3767 或 https://…） (links, one a line)", "私人筆記")]
    assert 'name="reason"' not in html and 'name="new_layer"' not in html


def test_every_field_of_a_proposal_is_given_to_the_kinds_that_read_it():
    assert set(FIELD_KINDS) == set(ProposalForm.base_fields) - {"kind", "section", "first", "last"}


def test_one_character_is_named_as_one_on_a_proposals_page_and_in_an_error(seed_juan, people):
    c = Client()
    c.force_login(people["contributor"])
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=3, start=4, end=5,
                replacement="公", reason="他本作公")
    page = c.get(f"/corrections/{p.pk}/").content.decode()
    assert re.search(r"<dt>位置</dt><dd><a [^>]+>禮書綱目 卷十 §1</a>，第4段第 5 字</dd>", page), page
    # a layer correction typed on one character of a piece of nine
    response = c.post(FORM, {"kind": "layer", "section": 1, "first": 81, "last": 81, "new_layer": "commentary",
                             "reason": "底本小字"})
    assert response.status_code == 400
    assert "層次校正改動整段：所選第 81 字只是此段第 79–87 字「宰戒百官有事於射者」（9 字）的一部分。" in response.content.decode()
    assert "(A layer correction changes the whole piece: character 81 is part of the piece 79–87" in response.content.decode()
    assert Proposal.objects.count() == 1


@pytest.mark.parametrize("kind, extra", [("text", {"replacement": "公"}), ("layer", {"new_layer": "commentary"})])
def test_a_form_sent_with_only_its_kinds_fields_is_taken(seed_juan, people, kind, extra):
    """What the script sends: the chosen kind's fields alone (the others disabled)."""
    c = Client()
    c.force_login(people["contributor"])
    first, last = (57, 57) if kind == "text" else (53, 78)
    response = c.post(FORM, {"kind": kind, "section": 1, "first": first, "last": last, "reason": "他本", **extra})
    assert response.status_code == 302
    assert Proposal.objects.get().kind == kind


def test_an_empty_new_text_is_refused_unless_the_deletion_is_ticked(seed_juan, people):
    """A text correction sent with 改為 left empty was stored as a deletion, with no question
    asked: 「司馬」 → 「」, the book's characters gone from the reading once accepted. An empty
    new text is now refused at its field unless 刪去所選文字 is ticked, and a new text with it
    ticked too (which was meant is not known); the workflow refuses both for every caller."""
    c = Client()
    c.force_login(people["contributor"])
    place = {"kind": "text", "section": 2, "first": 1, "last": 2, "reason": "衍文"}
    empty = ('<li><a href="#id_replacement">改為／注記 (new text, or the note)：改為一欄空白：請寫下新文字；若要刪去所選文字，'
             '請勾選「刪去所選文字」 (the new text is empty: write it, or tick 「刪去所選文字」 to delete the selected '
             'characters)</a></li>')
    both = ('<li><a href="#id_deletion">刪去所選文字，不改為他字 (delete the selected characters)：已勾選「刪去所選文字」，'
            '改為一欄須空白；若要改為新文字，請取消勾選 (a deletion has no new text: leave 改為 empty, or untick '
            '「刪去所選文字」 to change the characters to the new text)</a></li>')
    for sent, message in [({"replacement": ""}, empty), ({}, empty), ({"replacement": " \r\n"}, empty),
                          ({"replacement": "司", "deletion": "on"}, both)]:
        response = c.post(FORM, {**place, **sent})
        assert response.status_code == 400, sent
        assert message in response.content.decode(), sent
    assert Proposal.objects.count() == 0
    # ticked, with 改為 empty: a deletion of 司馬
    response = c.post(FORM, {**place, "replacement": "", "deletion": "on"})
    assert response.status_code == 302
    made = Proposal.objects.get()
    assert (made.kind, made.original, made.replacement, made.start, made.end) == ("text", "司馬", "", 0, 2)
    # an ideographic space is a new text, not a deletion (the book's blank)
    response = c.post(FORM, {**place, "first": 3, "last": 3, "replacement": "\u3000"})
    assert response.status_code == 302 and Proposal.objects.latest("pk").replacement == "\u3000"
    # the box is a text correction's: a layer correction with it ticked is taken, the box not read
    response = c.post(FORM, {"kind": "layer", "section": 1, "first": 53, "last": 78, "new_layer": "commentary",
                             "reason": "他本", "deletion": "on"})
    assert response.status_code == 302 and Proposal.objects.latest("pk").kind == "layer"
    # the workflow, for every caller
    contributor = people["contributor"]
    for replacement, deletion, message in [("", False, EMPTY_NEW_TEXT), ("\n", False, EMPTY_NEW_TEXT),
                                           ("司", True, NOT_EMPTY_FOR_DELETION)]:
        with pytest.raises(ReviewError) as refused:
            propose(contributor, seed_juan, kind="text", section=2, piece=0, start=0, end=2, replacement=replacement,
                    deletion=deletion, reason="衍文")
        assert str(refused.value) == message
    assert Proposal.objects.count() == 3
    kept = propose(contributor, seed_juan, kind="text", section=2, piece=0, start=0, end=2, replacement="", deletion=True,
                   reason="衍文")
    assert (kept.original, kept.replacement) == ("司馬", "")
