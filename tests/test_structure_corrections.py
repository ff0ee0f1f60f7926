"""Structure corrections (issue 31): "a section starts here", "this line is a heading", "this
is a byline", proposed from the reading page's form, reviewed like the others, applied in the
overlay (reading page, search, API, exports) with their history, and reverted."""
import json
import re

import pytest
from django.test import Client

from corrections.models import ACCEPTED, REVERTED, Proposal
from corrections.workflow import ReviewError, accept, propose, revert
from reader.importers.loader import import_file, render_source
from search.backends import SearchQuery
from search.documents import layers_for

from .conftest import SEED
from .test_corrections import URL, account

FORM = "/corrections/propose/禮書綱目/10/"
P4, P6, P8 = "宰戒百官有事於射者", "射人戒諸公卿大夫射司士戒士射與贊者", "前射三日宰夫戒宰及司馬射人宿視滌"


def test_a_structure_correction_needs_its_structure_and_takes_the_whole_passage(seed_juan):
    who = account("cs", "contributor")
    with pytest.raises(ReviewError, match=r"^請選擇此處為何：新節起、標題、署名或正文 \(choose what the passage is"):
        propose(who, seed_juan, kind="structure", section=1, piece=4, start=0, end=2, reason="r")
    with pytest.raises(ReviewError, match=r"^請選擇此處為何：新節起、標題、署名或正文 \(choose what the passage is"):
        propose(who, seed_juan, kind="structure", section=1, piece=4, start=0, end=2, structure="chapter", reason="r")
    p = propose(who, seed_juan, kind="structure", section=1, piece=4, start=2, end=4, structure="heading", reason="r")
    assert (p.start, p.end, p.original, p.structure, p.replacement, p.shown_change) == (
        0, len(P4), P4, "heading", "", "此行是標題 (a heading)")
    other = propose(who, seed_juan, kind="structure", section=1, piece=4, start=0, end=1, structure="byline",
                    reason="r")
    editor = account("es", "editor")
    accept(p, editor)
    with pytest.raises(ReviewError, match=f"^與已採納的提議 #{p.pk} 同處"):
        accept(other, editor)  # one structure per passage
    layer = propose(who, seed_juan, kind="layer", section=1, piece=4, start=0, end=1, new_layer="commentary",
                    reason="r")
    accept(layer, editor)  # a layer correction of the same passage is another matter


@pytest.mark.django_db(transaction=True)
def test_heading_section_start_and_byline_in_reading_search_and_exports_then_reverted(search_backend):
    juan = import_file(SEED).juan
    contributor, editor, other = account("cs", "contributor"), account("es", "editor"), account("es2", "editor")
    source = render_source(juan)
    assert search_backend.search(SearchQuery("戒射宰戒", layers=layers_for("classic"))).count == 1
    assert search_backend.search(SearchQuery("於射者射人", layers=layers_for("classic"))).count == 1
    c, e = Client(), Client()
    c.force_login(contributor)
    e.force_login(editor)
    made = {}
    for piece, structure in ((4, "heading"), (6, "section"), (8, "byline")):
        first = {4: 79, 6: 110, 8: 177}[piece]  # the piece's first character in the section, from 1
        response = c.post(FORM, {"kind": "structure", "section": 1, "first": first, "last": first,
                                 "structure": structure, "reason": "底本版式", "evidence": "四庫本書影"})
        assert response.status_code == 302, response.content.decode()[:2000]
        made[structure] = Proposal.objects.get(piece_position=piece)
        assert e.post(f"/corrections/{made[structure].pk}/review/", {"action": "accept", "reason": "是"}).status_code \
            == 302
    html = Client().get(URL + "1/?layout=horizontal").content.decode()
    heading, section, byline = (made[k].pk for k in ("heading", "section", "byline"))
    assert f'<span class="label corrected-heading" id="s1-p4">{P4}</span><a class="corr-mark" href="/corrections/{heading}/"' \
        in html
    assert re.search(r'<span class="section-start" role="separator" title="此處起新節（據校正）"></span>'
                     rf'<span class="text" id="s1-p6">{P6}</span><a class="corr-mark" href="/corrections/{section}/"', html)
    assert f'<span class="label corrected-byline" id="s1-p8">{P8}</span><a class="corr-mark" href="/corrections/{byline}/"' \
        in html
    assert "corrected-heading" not in Client().get(URL + "1/?text=imported").content.decode()
    # search: the heading is a title, out of the classic's run; no phrase runs across the section start
    assert search_backend.search(SearchQuery("戒射宰戒", layers=layers_for("classic"))).count == 0
    titles = search_backend.search(SearchQuery("宰戒百官", layers=layers_for("titles")))
    assert [(h.layer, h.section_position, h.piece_position) for h in titles.hits] == [("title", 1, 4)]
    assert search_backend.search(SearchQuery("於射者射人", layers=layers_for("classic"))).count == 0
    hit = search_backend.search(SearchQuery("射人戒諸公", layers=layers_for("classic"))).hits[0]
    assert (hit.section_position, hit.piece_position) == (1, 6)
    assert search_backend.search(SearchQuery("宿視滌", layers=layers_for("classic"))).count == 0
    # the API and the exports read the corrected structure; the source is the file imported
    api = f"/api/works/{juan.work_id}/juans/10/"
    exported = json.loads(Client().get(api + "export/json/").content)
    pieces = {p["position"]: p for p in exported["juans"][0]["chapters"][0]["sections"][0]["pieces"]}
    assert [(pieces[n]["kind"], pieces[n]["layer"]) for n in (4, 6, 8)] == [("label", "classic"), ("text", "classic"),
                                                                            ("label", "classic")]
    # the section start is marked on its piece alone, in the JSON export and the section API
    assert [n for n, p in pieces.items() if "section_start" in p] == [6] and pieces[6]["section_start"] is True
    section_api = json.loads(Client().get(api + "sections/1/").content)
    assert [p["position"] for p in section_api["pieces"] if p.get("section_start")] == [6]
    tei = Client().get(api + "export/tei/").content.decode("utf-8")
    assert f'<label type="heading">{P4}</label>' in tei and f'<label type="byline">{P8}</label>' in tei
    assert f'<milestone unit="section" type="correction" />{P6}' in tei or \
        f'<milestone unit="section" type="correction"/>{P6}' in tei
    assert Client().get(api + "export/source/").content.decode("utf-8") == source
    # history and revert
    page = Client().get(f"/corrections/{heading}/").content.decode()
    assert f"<p>「{P4}」 → 此行是標題 (a heading)</p>" in page and "四庫本書影" in page
    o = Client()
    o.force_login(other)
    assert o.post(f"/corrections/{heading}/review/", {"action": "revert", "reason": "誤"}).status_code == 302
    assert Proposal.objects.get(pk=heading).status == REVERTED
    assert [a.action for a in Proposal.objects.get(pk=heading).audit.all()] == ["proposed", "accepted", "reverted"]
    assert f'<span class="text" id="s1-p4">{P4}</span>' in Client().get(URL + "1/?layout=horizontal").content.decode()
    assert search_backend.search(SearchQuery("戒射宰戒", layers=layers_for("classic"))).count == 1
    assert Proposal.objects.get(pk=section).status == ACCEPTED


def test_an_editor_edits_the_structure_before_accepting(seed_juan):
    p = propose(account("cs", "contributor"), seed_juan, kind="structure", section=1, piece=4, start=0, end=1,
                structure="byline", reason="r")
    p = accept(p, account("es", "editor"), structure="heading", reason="是標題")
    assert (p.status, p.structure) == (ACCEPTED, "heading")
    assert [(a.action, a.detail) for a in p.audit.all()] == [("proposed", "r"), ("edited", "structure byline → heading"),
                                                             ("accepted", "是標題")]


def test_the_form_takes_a_layer_correction_of_part_of_a_piece_and_names_a_span_past_it(seed_juan):
    """A layer correction is of the characters selected (decision 0061): four characters of a
    piece are proposed as four (a boundary inside the piece), the whole piece as the whole; a
    span running past its piece is refused at 訖字, the error summary opening the page."""
    c = Client()
    c.force_login(account("cs", "contributor"))
    typed = {"kind": "layer", "section": 1, "new_layer": "commentary", "reason": "底本小字"}
    response = c.post(FORM, {**typed, "first": 81, "last": 90})  # from 百 of piece 4 (characters 79–87) into its note
    assert response.status_code == 400
    page = response.content.decode()
    assert ("第 81–90 字跨段：第 87 字為一段之末 (the span runs past the end of its piece at character 87: "
            "a proposal changes one piece)") in page
    # the error summary opens the page, focused, its error a link to the field (before the
    # form; the section's numbered pieces come after the form)
    summary = re.search(r'<div class="error-summary" id="error-summary" role="alert" tabindex="-1" autofocus '
                        r'aria-labelledby="error-summary-title">.*?</div>', page, re.S).group(0)
    assert re.findall(r'<li><a href="(#[^"]+)">([^：]+)：第 81–90 字跨段', summary) == [("#id_last", "訖字 (last character)")]
    assert page.index("error-summary") < page.index('id="proposal-form"') < page.index('<h2 id="section-pieces">§1 各段')
    assert not Proposal.objects.exists()
    assert c.post(FORM, {**typed, "first": 81, "last": 84}).status_code == 302  # 百官有事 of piece 4
    assert c.post(FORM, {**typed, "first": 79, "last": 87}).status_code == 302
    assert [(p.kind, p.piece_position, p.start, p.end, p.original, p.new_layer) for p in Proposal.objects.order_by("pk")] \
        == [("layer", 4, 2, 6, "百官有事", "commentary"), ("layer", 4, 0, 9, P4, "commentary")]


def test_a_structure_correction_of_part_of_a_passage_says_it_takes_the_whole(seed_juan):
    """此行是標題 of characters 81–83 (戒百官 is 3–5 of 宰戒百官有事於射者) was stored as the whole passage,
    start 0 to end 9, silently: the proposal's page now says so, as docs/corrections.md has it."""
    c = Client()
    c.force_login(account("cs", "contributor"))
    typed = {"kind": "structure", "section": 1, "structure": "heading", "reason": "底本版式"}
    response = c.post(FORM, {**typed, "first": 81, "last": 83}, follow=True)
    p = Proposal.objects.get()
    assert (response.redirect_chain, p.piece_position, p.start, p.end, p.original) == (
        [(f"/corrections/{p.pk}/", 302)], 4, 0, 9, P4)
    assert ('<ul class="notice" role="status"><li>結構校正及於整段：所填第 81–83 字在第 5 段中，已取整段第 79–87 字 '
            '(a structure correction is of the whole passage: characters 81–83 lie in passage 5, taken whole as '
            'characters 79–87)</li></ul>') in response.content.decode()
    # said once; the whole passage typed is said nothing
    assert 'class="notice"' not in c.get(f"/corrections/{p.pk}/").content.decode()
    p.delete()
    whole = c.post(FORM, {**typed, "first": 79, "last": 87}, follow=True)
    assert whole.status_code == 200 and 'class="notice"' not in whole.content.decode()
