"""A heading the reading page shows is proposed on by what can be proposed of it (decision 0095,
``corrections.headings``): the 「校正」 button of a selected heading that is no piece's text (a chapter's heading,
a section's 右… closer, a section page's title: ``tests/browser/test_heading_proposals_browser.py``) opens the
form with ``?heading=``, and the form fills in the place and kind allowed and says what the proposal does:

- a section's title line (六臣註文選 KR4h0003 卷三十三 §5's 「卜居」, a label piece): 此行是正文 of the line, the
  section then named by its opening words (the form names them: 「卜居屈平既放三年…」), or a text correction of
  its characters, the line then read as corrected and the title as stored (both accepted here: the page
  reads as the form said);
- a section's 右… closer (the seed's 「右戒百官」, stored on the section) and a chapter's heading (「大射儀 嘉禮十五」,
  on its chapter, decision 0083): an annotation on the last (first) passage, filled in."""
import html
import re

from django.test import Client

from corrections.models import Proposal
from corrections.workflow import accept
from reader.importers.loader import import_file
from search.signals import muted

from .conftest import SHARED
from .test_corrections import people  # noqa: F401 - the fixture

BOOK = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_033.txt"
FORM = "/corrections/propose/KR4h0003/33/"
SEED_FORM = "/corrections/propose/禮書綱目/10/"
NOTE = re.compile(r'<p class="help heading-line-note" role="note">(.*?)</p>', re.S)
#: What the form says of §5's title line (``?heading=title``, or a span of the line itself).
TITLE_LINE = ("§5 之題「卜居」是本節之一行（第 1–2 字），匯入時讀為標題。此行若實為正文：種類選「結構校正」，結構選「此行是正文」，"
              "並選其層次；採納後此行為該層之文字，留在原處，不再是本節之題，本節於本頁、目錄、引用及檢索皆以其開首之字稱之"
              "（作經則為「卜居屈平既放三年…」）。此行之字若有誤：種類選「文字校正」，採納後此行依所改而讀、而檢索，本節之題則仍為所存之"
              "「卜居」。 <span lang=\"en\">The title of §5 is a line of the section (characters 1–2) the import read as a "
              "heading. If the line is text: choose the kind 結構校正 and the structure 此行是正文, and its layer; once "
              "accepted, the line is text of that layer where it stands, no longer the section's title, and the section "
              "is named by its opening words on this page, in the contents, citations and search (made 經: "
              "「卜居屈平既放三年…」). If its characters are wrong: choose 文字校正; once accepted, the line reads and is "
              "searched as corrected, and the section's title stays the stored 「卜居」.</span>")
CLOSER = ("§1 之題「右戒百官」是節末之結語，存於節，不在任何一段之文字中：無從提出文字、層次或結構校正。若有誤，請就 §1 末段提出注記"
          "（已填入第 193–230 字），說明所見，編輯據以修訂原文檔或匯入之規則。 <span lang=\"en\">The closing line of §1 is "
          "stored with the section, in no passage's text: no text, layer or structure correction can be proposed on it. "
          "If it is wrong, write an annotation on the last passage of §1 (filled in: characters 193–230) saying so, for "
          "the editors to mend the source file or the import's rule.</span>")


def form(client, url: str, query: dict) -> tuple:
    """The form at ``url`` with ``query``: its heading notes, the kind and structure chosen, the place filled in,
    and the characters the preview marks."""
    page = html.unescape(client.get(url, query).content.decode())
    chosen = dict(re.findall(r'<select name="(kind|structure)".*?<option value="([^"]*)" selected>', page, re.S))
    place = tuple(re.search(rf'name="{name}"(?: value="(\d*)")?', page)[1] or "" for name in ("section", "first", "last"))
    marked = re.findall(r'<p class="diff" lang="zh-Hant">.*?<mark>(.*?)</mark>', page, re.S)
    return NOTE.findall(page), chosen, place, marked


def test_a_title_line_is_offered_made_text_and_the_page_reads_as_the_form_said(db, people):
    with muted():
        import_file(BOOK)
    client = Client()
    client.force_login(people["contributor"])
    said = ([TITLE_LINE], {"kind": "structure", "structure": "text"}, ("5", "1", "2"), ["卜居"])
    assert form(client, FORM, {"section": 5, "heading": "title"}) == said
    # a selection of the line itself (the reading page's button over its characters) is told the same
    notes, chosen, place, marked = form(client, FORM, {"section": 5, "piece": 0, "start": 0, "end": 2})
    assert (notes, place, marked) == ([TITLE_LINE], ("5", "1", "2"), ["卜居"]) and "structure" not in chosen
    # of another passage of §5, or of a section with no title line, nothing is said
    assert form(client, FORM, {"section": 5, "piece": 8, "start": 0, "end": 2})[0] == []
    assert form(client, FORM, {"section": 8, "heading": "title"})[::2] == ([], ("8", "", ""))  # 竊悲夫蕙華之曽敷…: untitled
    response = client.post(FORM + "?section=5&heading=title", {"kind": "structure", "structure": "text", "new_layer": "",
                                                               "section": 5, "first": 1, "last": 2, "reason": "篇名是正文之試"})
    assert response.status_code == 302
    p = Proposal.objects.get()
    assert (p.kind, p.structure, p.section_position, p.piece_position, p.start, p.end, p.original) == (
        "structure", "text", 5, 0, 0, 2, "卜居")
    with muted():
        accept(p, people["editor"])
    page = client.get("/works/KR4h0003/juan/33/5/").content.decode()
    assert re.search(r'<h1 class="section-page-title"[^>]*>([^<]*)<small>', page)[1] == "卜居屈平既放三年… "
    # made text, the line is no title line any more: the form says nothing of it
    assert form(client, FORM, {"section": 5, "heading": "title"})[::2] == ([], ("5", "", ""))


def test_a_text_correction_of_a_title_line_reads_the_line_corrected_and_keeps_the_title(db, people):
    with muted():
        import_file(BOOK)
    client = Client()
    client.force_login(people["contributor"])
    response = client.post(FORM + "?section=5&heading=title", {"kind": "text", "replacement": "卜居篇", "section": 5,
                                                               "first": 1, "last": 2, "reason": "篇名之試"})
    assert response.status_code == 302, re.findall(r"<li>.*?</li>", html.unescape(response.content.decode()).split("error-summary-title")[1])[:3]
    with muted():
        accept(Proposal.objects.get(), people["editor"])
    page = client.get("/works/KR4h0003/juan/33/5/").content.decode()
    assert re.search(r'<h1 class="section-page-title"[^>]*>([^<]*)<small>', page)[1] == "卜居 "
    line = re.search(r'<span class="label" id="s5-p0">(.*?)<span class="note', page, re.S)[1]
    assert re.sub(r'<span class="pb".*?</span>[^<]*</span>|<a class="corr-mark".*?</a>', "", line) == (
        '<span class="corrected">卜居篇</span></span>')


def test_a_closer_and_a_chapter_heading_are_offered_an_annotation_filled_in(seed_juan, people):
    client = Client()
    client.force_login(people["contributor"])
    notes, chosen, place, marked = form(client, SEED_FORM, {"section": 1, "heading": "closer"})
    assert (notes, chosen, place) == ([CLOSER], {"kind": "annotation", "structure": ""}, ("1", "193", "230"))
    assert marked == ["宰夫冢宰官屬掌百官之徵令者司馬於天子政官之卿凡大射則合其六耦滌謂溉器埽除射宮"]
    # the section page's title of a section titled by its closer is the closer
    assert form(client, SEED_FORM, {"section": 2, "heading": "title"})[:3] == (
        [CLOSER.replace("§1", "§2").replace("右戒百官", "右張侯").replace("第 193–230 字", "第 233–503 字")
         .replace("characters 193–230", "characters 233–503")], {"kind": "annotation", "structure": ""}, ("2", "233", "503"))
    # the chapter's heading: decision 0083's note, and an annotation on §1's first passage filled in
    page = html.unescape(client.get(SEED_FORM, {"section": 1, "heading": "chapter"}).content.decode())
    assert len(re.findall(r'<p class="help chapter-heading-note"', page)) == 1
    assert form(client, SEED_FORM, {"section": 1, "heading": "chapter"})[1:] == (
        {"kind": "annotation", "structure": ""}, ("1", "2", "43"), ["鄭目録云諸侯將有祭祀之事與其臣射以觀其禮數中者得與於祭不數中者不得與於祭於五禮屬嘉禮"])
    # asked from a later section of the chapter (a page of the juan that starts there): the chapter's first section
    assert form(client, SEED_FORM, {"section": 2, "heading": "chapter"})[1:3] == (
        {"kind": "annotation", "structure": ""}, ("1", "2", "43"))
