"""The proposal form as a new user found it: every field shown for every kind of correction, the
edition corrected not named, one character printed as a span (「第 1–1 字」). Each field after the
place now names the kinds it belongs to (and ``static/js/corrections.js`` shows only the chosen
kind's: ``tests/browser/test_corrections_browser.py``), the page names the edition, the juan and
the section, and one character is 「第 N 字」 everywhere a span is printed."""
import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from corrections.forms import FIELD_KINDS, ProposalForm
from corrections.models import Proposal
from corrections.positions import char_span
from corrections.workflow import EMPTY_NEW_TEXT, NOT_EMPTY_FOR_DELETION, ReviewError, propose
from reader.models import Piece
from reader.templatetags.reading import through

from .conftest import SHARED
from .test_corrections import PW, people  # noqa: F401 - the fixture

FORM = "/corrections/propose/禮書綱目/10/"


def kind_fields(html: str) -> list[tuple[str, str, str]]:
    """``(data-kinds, the field's name as labelled, the kinds its label names)`` of each field box."""
    return re.findall(r'<div class="kind-field" data-kinds="([^"]+)"(?: data-structure="[^"]+")?>\n'
                      r'(?:<fieldset><legend>|<label for="[^"]+">)'
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
        ("structure", "結構 (structure)", "結構校正"),
        ("layer structure", "層次 (layer)", "層次校正、結構校正"),
        ("annotation private_note", "標籤 (tags)", "注記、私人筆記"),
        ("annotation private_note", "連結（每行一個：cbdb:3767 或 https://…） (links, one a line)", "注記、私人筆記"),
        ("text layer structure annotation", "理由（必填） (reason, required)", "文字校正、層次校正、結構校正、注記"),
        ("text layer structure annotation", "依據（他本、書影、字書） (evidence)", "文字校正、層次校正、結構校正、注記")]
    # the new text's label as each kind reads it, for the script to show
    assert ('<span class="field-name" data-label-text="改為 (new text)" data-label-annotation="注記 (the note)" '
            'data-label-private_note="筆記 (the note, yours alone)">改為／注記 (new text, or the note)</span>') in html
    # the layer: a structure correction's only when it makes a line text (此行是正文), for the script to show so
    assert ('<div class="kind-field" data-kinds="layer structure" data-structure="text">\n<label for="id_new_layer">'
            '<span class="field-name" data-label-structure="此行是正文時所屬層次，未選為經 (the layer of a line made text: 經 '
            'unless chosen)">層次 (layer)</span>') in html
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
    # counted in the section, as the form counts: the 4th piece starts at character 53
    assert re.search(r"<dt>位置</dt><dd><a [^>]+>禮書綱目 卷十 §1</a>，第 57 字（第4段）</dd>", page), page
    form = c.get(FORM, {"section": 1, "piece": 3, "start": 4, "end": 5}).content.decode()
    assert 'name="first" value="57"' in form and 'name="last" value="57"' in form
    # one character past the section's end, named as one in the error
    response = c.post(FORM, {"kind": "text", "section": 1, "first": 9000, "last": 9000, "replacement": "公",
                             "reason": "他本"})
    assert response.status_code == 400
    total = len("".join(Piece.objects.filter(section__juan=seed_juan, section__position=1).values_list("text", flat=True)))
    assert f"第 9000 字超出本節的 {total} 字 (the span is not inside the section&#x27;s {total} characters)" \
        in response.content.decode()
    assert Proposal.objects.count() == 1
    # a layer correction typed on one character of a piece of nine is of that character
    response = c.post(FORM, {"kind": "layer", "section": 1, "first": 81, "last": 81, "new_layer": "commentary",
                             "reason": "底本小字"})
    assert response.status_code == 302
    p = Proposal.objects.get(kind="layer")
    assert (p.piece_position, p.start, p.end, p.original) == (4, 2, 3, "百")
    assert re.search(r"<dt>位置</dt><dd><a [^>]+>禮書綱目 卷十 §1</a>，第 81 字（第5段）</dd>",
                     c.get(f"/corrections/{p.pk}/").content.decode())


@pytest.mark.parametrize("kind, extra", [("text", {"replacement": "公"}), ("layer", {"new_layer": "classic"})])
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
    response = c.post(FORM, {"kind": "layer", "section": 1, "first": 53, "last": 78, "new_layer": "classic",
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


KR1D0086 = SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt"


def test_the_form_the_queue_and_a_proposals_page_count_a_gaiji_and_an_ext_b_character_as_one(db, people):
    """KR1d0086 卷十 §4: its piece 0 holds 𤣥 (U+24CE5, two UTF-16 code units, one code point) and
    its note 1 the gaiji 從豆&KR1969;聲 (eight code points, shown 〓). The reading page's 「校正」
    sends code points of the text as stored (static/js/corrections.js: tests/browser/
    test_corrections_browser.py); the form, its list of the section's pieces, the queue and the
    proposal's page count characters as search reads them (corrections.positions): the gaiji
    one, 𤣥 one, so the 聲 after the gaiji is the same number everywhere, and the length limits
    count so too."""
    from reader.importers.loader import import_file

    juan = import_file(KR1D0086).juan
    form_url = "/corrections/propose/KR1d0086/12/"
    note = Piece.objects.get(section__juan=juan, section__position=4, position=1).text
    at = note.index("&KR1969;")
    assert note[at - 2:at + 9] == "從豆&KR1969;聲" and note.index("聲") == at + 8 == 37
    c = Client()
    c.force_login(people["contributor"])
    # the piece 0 of §4: 42 characters (code points; 43 UTF-16 units), 皆𤣥尊酒在北 at its end
    first = Piece.objects.get(section__juan=juan, section__position=4, position=0).text
    assert (len(first), first.index("𤣥")) == (42, 37) and len(first.encode("utf-16-le")) // 2 == 43
    form = c.get(form_url, {"section": 4, "piece": 1, "start": 37, "end": 38}).content.decode()
    # 聲: character 42 + 31 of the section (the gaiji one character), never 42 + 38
    assert 'name="first" value="73"' in form and 'name="last" value="73"' in form
    pieces = re.findall(r'<li><span class="char-range">([^<]+)</span>', form)
    assert pieces[:2] == ["第 1–42 字", "第 43–" + str(42 + len(note) - 7) + " 字"]
    assert ('從豆<span class="gaiji" title="KR1969：Unicode 未收之字 (a character Unicode lacks)" '
            'data-code="&amp;KR1969;">〓</span>聲') in form
    # the character 𤣥 itself: one character, 38 (the 38th code point, two UTF-16 units)
    form = c.get(form_url, {"section": 4, "piece": 0, "start": 37, "end": 38}).content.decode()
    assert 'name="first" value="38"' in form and 'name="last" value="38"' in form
    # typed: characters 72–73 are 〓聲, the entity whole; 38 is 𤣥
    response = c.post(form_url, {"kind": "text", "section": 4, "first": 72, "last": 73, "replacement": "&KR1969;声",
                                 "reason": "字形之試"})
    assert response.status_code == 302, response.content.decode()
    p = Proposal.objects.get()
    assert (p.piece_position, p.start, p.end, p.original) == (1, 29, 38, "&KR1969;聲")
    c.post(form_url, {"kind": "text", "section": 4, "first": 38, "last": 38, "replacement": "玄", "reason": "避諱字"})
    q = Proposal.objects.exclude(pk=p.pk).get()
    assert (q.piece_position, q.start, q.end, q.original) == (0, 37, 38, "𤣥")
    editor = Client()
    editor.force_login(people["editor"])
    queue = editor.get("/corrections/").content.decode()
    assert re.findall(r"§4 (第 [0-9–]+ 字)</h2>", queue) == ["第 72–73 字", "第 38 字"]
    page = c.get(f"/corrections/{p.pk}/").content.decode()
    assert re.search(r"<dt>位置</dt><dd><a [^>]+>禮書綱目（四庫全書・文淵閣本） 卷十 §4</a>，第 72–73 字（第2段）</dd>", page), page
    assert '<del title="原文"><span class="gaiji" title="KR1969' in page
    # the new text's limit counts characters too: 4,000 𤣥 (8,000 UTF-16 units) are taken by the
    # form (no maxlength the browser would count in UTF-16), 4,001 refused with the count
    form = c.get(form_url, {"section": 4}).content.decode()
    assert [re.search(rf'<textarea name="{name}"[^>]*>', form).group(0) for name in ("replacement", "reason", "evidence")] == [
        '<textarea name="replacement" cols="40" rows="2" id="id_replacement">',
        '<textarea name="reason" cols="40" rows="3" id="id_reason">',
        '<textarea name="evidence" cols="40" rows="3" id="id_evidence">']
    for n, status in ((4001, 400), (4000, 302)):
        response = c.post(form_url, {"kind": "annotation", "section": 4, "first": 1, "last": 1,
                                     "replacement": "𤣥" * n, "reason": "長注之試"})
        assert response.status_code == status
        if status == 400:
            assert "至多 4000 字，此欄 4001 字 (at most 4000 characters: this has 4001)" in response.content.decode()
    assert Proposal.objects.filter(kind="annotation").count() == 1


XUNZI = SHARED / "corpus" / "kanripo-commentary" / "KR3a0002" / "KR3a0002_001.txt"


def test_the_form_counts_in_the_pages_reading_order_where_note_columns_are_filed_reversed(people):
    """荀子 (KR3a0002) files a note's ``(A/B)`` columns as B then A: the form listed 「第 26–30 字
    過其本性也」 before 「第 31–35 字 以喻學則才」 while the page reads 〔以喻學則才過其本性也〕,
    and 〔大謂有益於人〕 as 有益, 大謂, 人, 於. It counts in the page's order now; a proposal
    stores its piece and the offsets in it, so the same characters as before."""
    from reader.importers.loader import import_file

    juan = import_file(XUNZI).juan
    assert juan.columns_reversed
    assert [(p.position, p.text) for p in Piece.objects.filter(section__juan=juan, section__position=1,
                                                                position__in=range(1, 3)).order_by("position")] \
        == [(1, "過其本性也"), (2, "以喻學則才")]
    c = Client()
    c.force_login(people["contributor"])
    url = "/corrections/propose/KR3a0002/1/"
    form = c.get(url, {"section": 1}).content.decode()
    listed = re.findall(r'<li><span class="char-range">([^<]+)</span> <span lang="zh-Hant">([^<]*)', form)
    assert listed[:14] == [
        ("第 1–25 字", "君子曰學不可以巳青取之於藍而青於藍冰水爲之而寒於水"), ("第 26–30 字", "以喻學則才"),
        ("第 31–35 字", "過其本性也"), ("第 36–60 字", "木直中繩輮以爲輪其曲中規雖有槁暴不復挺者輮使之然也"),
        ("第 61–69 字", "輮屈槁枯暴乾挺直也"), ("第 70–78 字", "晏子春秋作不復羸矣"),
        ("第 79–107 字", "故木受繩則直金就礪則利君子博學而日參省乎已則知明而行無過矣"),
        ("第 108–115 字", "參三也曽子曰日三"), ("第 116–122 字", "省吾身行下孟反"),
        ("第 123–157 字", "故不登髙山不知天之髙也不臨深谿不知地之厚也不聞先王之遺言不知學問之大也"),
        ("第 158–159 字", "大謂"), ("第 160–161 字", "有益"), ("第 162 字", "於"), ("第 163 字", "人")]
    # the reading page's selection of 以喻 (piece 2, offsets 0–2) is characters 26–27
    form = c.get(url, {"section": 1, "piece": 2, "start": 0, "end": 2}).content.decode()
    assert 'name="first" value="26"' in form and 'name="last" value="27"' in form
    # typed 31–32 is 過其, piece 1 offsets 0–2, as stored before: the stored places keep their characters
    response = c.post(url, {"kind": "text", "section": 1, "first": 31, "last": 32, "replacement": "過甚",
                            "reason": "字形之試"})
    assert response.status_code == 302, response.content.decode()
    p = Proposal.objects.get()
    assert (p.piece_position, p.start, p.end, p.original) == (1, 0, 2, "過其")
    page = c.get(f"/corrections/{p.pk}/").content.decode()
    assert "§1</a>，第 31–32 字（第3段）" in page


#: What the form says over the place fields when the section chosen opens a chapter with a heading line (decision 0083).
CHAPTER_HEADING = ("§1 上之篇題「大射儀 嘉禮十五」存於篇，不在任何一節之文字中：無從提出文字、層次或結構校正，亦無從定為正文。篇題若有誤"
                   "或實為正文，請就 §1 第一段提出注記，說明所見，編輯據以修訂原文檔或匯入之規則。 <span lang=\"en\">The chapter "
                   "heading over §1 is stored with its chapter, in no section's text: no text, layer or structure correction "
                   "can be proposed on it, nor can it be made text. If it is wrong, or is text, write an annotation on the "
                   "first passage of §1 saying so, for the editors to mend the source file or the import's rule.</span>")


def test_the_form_says_why_a_chapter_heading_cannot_be_proposed_on(seed_juan, people):
    """禮書綱目 卷十's heading line 「大射儀 嘉禮十五」 is its chapter's (``Chapter.heading``), no piece of §1: the
    reading page shows it over §1, but no span of the form names it (§1's pieces start at 經). The form for
    §1 says so and what to do instead; §2, which opens no chapter, says nothing of it."""
    c = Client()
    c.force_login(people["contributor"])
    note = re.compile(r'<p class="help chapter-heading-note" role="note">(.*?)</p>')
    page = html.unescape(c.get(FORM, {"section": 1}).content.decode())
    assert note.findall(page) == [CHAPTER_HEADING]
    assert "大射儀" not in "".join(re.findall(r'<ol class="section-pieces">.*?</ol>', page, re.S))
    # the same after a refused proposal of §1 (a POST shows the form again)
    page = html.unescape(c.post(FORM, {"kind": "text", "section": 1, "first": 1, "last": 1, "replacement": "",
                                        "reason": "篇題"}).content.decode())
    assert note.findall(page) == [CHAPTER_HEADING]
    assert note.findall(html.unescape(c.get(FORM, {"section": 2}).content.decode())) == []
    assert note.findall(html.unescape(c.get(FORM).content.decode())) == []
