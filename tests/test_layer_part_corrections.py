"""A layer correction of part of a piece: a classic/commentary boundary that falls a few
characters off (老子 河上公 KR5c0065) is moved by correcting the layer of the characters
between where it falls and where it should, at a piece's start or end, or of a span in its
middle (the piece read in three parts). Proposed, reviewed and accepted like a whole-piece
layer correction, and read the same way by the reading page, the 白文 view, search (the
index reads the corrected reading), the API and the exports; the stored pieces never change,
and reverting it restores the old boundary (docs/corrections.md, decision 0061)."""
import json
import re

import pytest
from django.test import Client

from corrections.models import ACCEPTED, REVERTED, Proposal
from corrections.overlay import juan_overlay
from corrections.workflow import ReviewError, accept, propose
from reader.importers.loader import import_file, render_source
from reader.models import Piece
from reader.reading import chapter_views
from search.backends import SearchQuery
from search.documents import layers_for

from .conftest import SEED
from .test_corrections import URL, account
from .test_laozi import HESHANG_2

FORM = "/corrections/propose/禮書綱目/10/"
P4, P5, P6 = "宰戒百官有事於射者", "宰於天子冢宰治官卿也作大事則掌以君命戒於百官", "射人戒諸公卿大夫射司士戒士射與贊者"


def shown(juan, section=1, overlay=True):
    """``[(position, text, layer, layer_name), ...]`` of ``section`` as the reading page reads it."""
    views = chapter_views(juan, [section], overlay=juan_overlay(juan) or None if overlay else None)
    return [(p.position, p.text, p.layer, p.layer_name) for cv in views for v in cv.sections
            for para in v.paragraphs for p in para]


def test_the_overlay_splits_a_piece_at_its_end_and_in_its_middle(seed_juan):
    who, editor = account("cs", "contributor"), account("es", "editor")
    end = propose(who, seed_juan, kind="layer", section=1, piece=4, start=6, end=9, new_layer="commentary",
                  reason="於射者是注")
    middle = propose(who, seed_juan, kind="layer", section=1, piece=6, start=9, end=13, new_layer="commentary",
                     reason="司士戒士是注")
    start = propose(who, seed_juan, kind="layer", section=1, piece=5, start=0, end=2, new_layer="classic",
                    reason="宰於是經")
    assert [(p.start, p.end, p.original, p.new_layer) for p in (end, middle, start)] == [
        (6, 9, "於射者", "commentary"), (9, 13, "司士戒士", "commentary"), (0, 2, "宰於", "classic")]
    before = shown(seed_juan)
    for p in (end, middle, start):
        accept(p, editor)
    after = shown(seed_juan)
    assert before[4:7] == [(4, P4, "classic", ""), (5, P5, "commentary", "注"), (6, P6, "classic", "")]
    assert after[4:11] == [
        (4, "宰戒百官有事", "classic", ""), (4, "於射者", "commentary", "注"),
        (5, "宰於", "classic", ""), (5, "天子冢宰治官卿也作大事則掌以君命戒於百官", "commentary", "注"),
        (6, "射人戒諸公卿大夫射", "classic", ""), (6, "司士戒士", "commentary", "注"), (6, "射與贊者", "classic", "")]
    assert len(after) == len(before) + 4 and after[:4] == before[:4] and after[11:] == before[7:]
    # the stored pieces never change
    assert list(Piece.objects.filter(section__juan=seed_juan, section__position=1, position__in=(4, 5, 6))
                .order_by("position").values_list("text", "layer")) == [(P4, "classic"), (P5, "commentary"),
                                                                       (P6, "classic")]
    assert shown(seed_juan, overlay=False) == before
    # a layer correction meets another of the same characters only
    again = propose(who, seed_juan, kind="layer", section=1, piece=6, start=12, end=14, new_layer="readings",
                    reason="r")
    with pytest.raises(ReviewError, match=f"^與已採納的提議 #{middle.pk} 同處"):
        accept(again, editor)
    beside = propose(who, seed_juan, kind="layer", section=1, piece=6, start=0, end=2, new_layer="readings",
                     reason="r")
    assert accept(beside, editor).status == ACCEPTED
    assert [t for pos, t, *_ in shown(seed_juan) if pos == 6] == ["射人", "戒諸公卿大夫射", "司士戒士", "射與贊者"]


def classic(backend, text):
    return backend.search(SearchQuery(text, layers=layers_for("classic"))).count


@pytest.mark.django_db(transaction=True)
def test_a_boundary_moved_from_the_form_is_read_by_page_search_api_and_exports_then_reverted(search_backend):
    """The boundary between 經 piece 4 (宰戒百官有事於射者) and its 注 (piece 5, 宰於天子…) moved
    both ways: 於射者, piece 4's last three characters, made 注, and 宰於, its note's first two,
    made 經. The page, 白文, search, the API and the exports read the new boundary; reverting
    the two restores the old one."""
    juan = import_file(SEED).juan
    source = render_source(juan)
    c, e, o = Client(), Client(), Client()
    c.force_login(account("cs", "contributor"))
    e.force_login(account("es", "editor"))
    o.force_login(account("es2", "editor"))
    assert [classic(search_backend, q) for q in ("有事於射者", "有事宰於射人", "於射者射人")] == [1, 0, 1]
    api = f"/api/works/{juan.work_id}/juans/10/"
    before = json.loads(Client().get(api + "sections/1/").content)
    # characters 85–87 of §1 are piece 4's last three (79–87), 88–89 its note's first two
    for first, last, layer in ((85, 87, "commentary"), (88, 89, "classic")):
        response = c.post(FORM, {"kind": "layer", "section": 1, "first": first, "last": last, "new_layer": layer,
                                 "reason": "經注界線", "evidence": "他本"})
        assert response.status_code == 302, response.content.decode()[:2000]
    moved, back = Proposal.objects.order_by("pk")
    assert [(p.piece_position, p.start, p.end, p.original, p.new_layer) for p in (moved, back)] == [
        (4, 6, 9, "於射者", "commentary"), (5, 0, 2, "宰於", "classic")]
    for p in (moved, back):
        assert e.post(f"/corrections/{p.pk}/review/", {"action": "accept", "reason": "是"}).status_code == 302
    # the reading page: piece 4 is 經 then 注, its note 經 then 注, each part with its id and 「校」
    html = Client().get(URL + "1/?layout=horizontal").content.decode()
    mark = ('<a class="corr-mark" href="/corrections/{pk}/" title="校正 #{pk}：層次 → {name}；cs 提出，{day} 採納；經注界線">'
            '<span aria-hidden="true">校</span><span class="visually-hidden">已校正：校正 #{pk}：層次 → {name}；cs 提出，'
            '{day} 採納；經注界線</span></a>')
    day = f"{Proposal.objects.get(pk=moved.pk).reviewed_at:%Y-%m-%d}"
    assert ('<span class="text" id="s1-p4">宰戒百官有事</span>'
            '<span class="text layer-commentary" id="s1-p4-6" data-layer="注">於射者</span>'
            + mark.format(pk=moved.pk, name="注", day=day)
            + '<span class="text" id="s1-p5">宰於</span>' + mark.format(pk=back.pk, name="經", day=day)
            + '<span class="note layer-commentary" data-layer="注" id="s1-p5-2" role="note"><span class="visually-hidden">'
              '注：</span>天子冢宰治官卿也作大事則掌以君命戒於百官</span>'
              '<span class="text" id="s1-p6">射人戒諸公卿大夫射司士戒士射與贊者</span>') in html
    # 白文: the classic reads 宰戒百官有事宰於射人…
    plain = Client().get(URL + "1/?layout=horizontal&notes=hidden").content.decode()
    assert ('<span class="text" id="s1-p4">宰戒百官有事</span><span class="note-gap" id="s1-p4-6"></span>'
            + mark.format(pk=moved.pk, name="注", day=day)
            + '<span class="text" id="s1-p5">宰於</span>' + mark.format(pk=back.pk, name="經", day=day)
            + '<span class="note-gap" id="s1-p5-2"></span><span class="text" id="s1-p6">') in plain
    assert '<span class="text" id="s1-p4">宰戒百官有事於射者</span>' in Client().get(URL + "1/?text=imported").content.decode()
    # search: the index read the corrected layers
    assert [classic(search_backend, q) for q in ("有事於射者", "有事宰於射人", "於射者射人")] == [0, 1, 0]
    hits = search_backend.search(SearchQuery("於射者", layers=layers_for("commentary"))).hits
    assert [(h.layer, h.section_position, h.piece_position, h.layer_name) for h in hits] == [
        ("commentary", 1, 4, "注")]
    # the API: the whole section as before, pieces 4 and 5 each in two parts
    after = json.loads(Client().get(api + "sections/1/").content)
    p4, p5 = before["pieces"][4], before["pieces"][5]
    assert after == {**before, "pieces": before["pieces"][:4] + [
        {"position": 4, "paragraph": 1, "kind": "text", "layer": "classic", "layer_name": "", "commentator": "",
         "layer_basis": "default", "text": "宰戒百官有事", "source_tag": "", "source": "", "pages": [], "piece_offset": 0},
        {"position": 4, "paragraph": 1, "kind": "text", "layer": "commentary", "layer_name": "注", "commentator": "",
         "layer_basis": "default", "text": "於射者", "source_tag": "", "source": "", "pages": [], "piece_offset": 6,
         "corrections": [{"id": moved.pk, "kind": "layer", "start": 0, "end": 3, "imported": "classic",
                          "corrected": "commentary", "url": f"http://testserver/corrections/{moved.pk}/"}]},
        {"position": 5, "paragraph": 1, "kind": "note", "layer": "classic", "layer_name": "", "commentator": "",
         "layer_basis": "marked", "text": "宰於", "source_tag": "", "source": "", "pages": [], "piece_offset": 0,
         "corrections": [{"id": back.pk, "kind": "layer", "start": 0, "end": 2, "imported": "commentary",
                          "corrected": "classic", "url": f"http://testserver/corrections/{back.pk}/"}]},
        {"position": 5, "paragraph": 1, "kind": "note", "layer": "commentary", "layer_name": "注", "commentator": "",
         "layer_basis": "marked", "text": "天子冢宰治官卿也作大事則掌以君命戒於百官", "source_tag": "", "source": "",
         "pages": [], "piece_offset": 2},
    ] + before["pieces"][6:]}
    assert (p4["text"], p5["text"]) == (P4, P5)
    notes = json.loads(Client().get(api + "sections/1/notes/").content)["results"]
    assert [(n["position"], n["text"]) for n in notes][2:5] == [(4, "於射者"), (5, "天子冢宰治官卿也作大事則掌以君命戒於百官"),
                                                                 (7, before["pieces"][7]["text"])]
    # the exports: JSON as the API, the 白文 and TEI with the new boundary, the source as imported
    exported = json.loads(Client().get(api + "export/json/").content)
    assert exported["juans"][0]["chapters"][0]["sections"][0]["pieces"] == after["pieces"]
    maintext = Client().get(api + "export/maintext/").content.decode()
    assert "\n大射之儀君有命戒射宰戒百官有事宰於射人戒諸公卿大夫射司士戒士射與贊者前射三日宰夫戒宰及司馬射人宿視滌\n" in maintext
    tei = Client().get(api + "export/tei/").content.decode()
    assert ('宰戒百官有事<seg type="commentary" n="注">於射者</seg>宰於<note type="commentary" place="inline" n="注">'
            '天子冢宰治官卿也作大事則掌以君命戒於百官</note>射人') in tei
    assert Client().get(api + "export/source/").content.decode("utf-8") == source
    # the stored pieces never changed; the history names the span
    assert list(Piece.objects.filter(section__juan=juan, section__position=1, position__in=(4, 5)).order_by(
        "position").values_list("text", "layer")) == [(P4, "classic"), (P5, "commentary")]
    history = Client().get(f"/corrections/{moved.pk}/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", history))
    assert "卷十 §1 ，第 85–87 字（第5段）" in text and "「於射者」 → 層次 注" in text
    # reverting restores the old boundary everywhere
    for p in (moved, back):
        assert o.post(f"/corrections/{p.pk}/review/", {"action": "revert", "reason": "界線本不誤"}).status_code == 302
        assert [a.action for a in Proposal.objects.get(pk=p.pk).audit.all()] == ["proposed", "accepted", "reverted"]
    assert Proposal.objects.get(pk=moved.pk).status == REVERTED
    assert [classic(search_backend, q) for q in ("有事於射者", "有事宰於射人", "於射者射人")] == [1, 0, 1]
    assert json.loads(Client().get(api + "sections/1/").content) == before
    assert '<span class="text" id="s1-p4">宰戒百官有事於射者</span>' in Client().get(URL + "1/?layout=horizontal").content.decode()


@pytest.mark.django_db(transaction=True)
def test_heshang_gong_chapter_61s_boundary_moved_by_one_character(search_backend):
    """河上公章句 謙德第六十一 (道藏, KR5c0065_003 §24): the 白文 reads 天下之牝。牝常以靜勝牡, and the
    import ended the 章句 after 天下之牝 with the second 牝 (牝者陰類也柔謙和而不倡也牝), so 白文 and
    the classic's search read 天下之牝常以靜勝牡 (test_laozi's 「牝常」 miss). A layer correction of
    that one character gives it back to the classic."""
    juan = import_file(HESHANG_2).juan
    searched = ("天下之牝牝常", "牝常以靜勝牡", "不倡也牝")

    def counts():
        return [(classic(search_backend, q), search_backend.search(SearchQuery(q, layers=layers_for("commentary"))).count)
                for q in searched]

    assert counts() == [(0, 0), (1, 0), (0, 1)]
    assert shown(juan, 24)[4:7] == [(4, "天下之牝", "classic", ""), (5, "牝者陰類也柔謙和而不倡也牝", "commentary", "章句"),
                                    (6, "常以靜勝牡", "classic", "")]
    p = propose(account("cl", "contributor"), juan, kind="layer", section=24, piece=5, start=12, end=13,
                new_layer="classic", reason="白文：天下之牝。牝常以靜勝牡")
    assert (p.original, p.before, p.after) == ("牝", "牝者陰類也柔謙和而不倡也", "")
    accept(p, account("el", "editor"))
    assert shown(juan, 24)[4:8] == [(4, "天下之牝", "classic", ""), (5, "牝者陰類也柔謙和而不倡也", "commentary", "章句"),
                                    (5, "牝", "classic", ""), (6, "常以靜勝牡", "classic", "")]
    assert counts() == [(1, 0), (1, 0), (0, 0)]
    pieces = Client().get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/sections/24/").json()["pieces"]
    assert pieces[5:7] == [
        {"position": 5, "paragraph": 0, "kind": "text", "layer": "commentary", "layer_name": "章句", "commentator": "河上公",
         "layer_basis": "reference", "text": "牝者陰類也柔謙和而不倡也", "source_tag": "", "source": "", "pages": [],
         "piece_offset": 0},
        {"position": 5, "paragraph": 0, "kind": "text", "layer": "classic", "layer_name": "", "commentator": "",
         "layer_basis": "reference", "text": "牝", "source_tag": "", "source": "", "pages": [], "piece_offset": 12,
         "corrections": [{"id": p.pk, "kind": "layer", "start": 0, "end": 1, "imported": "commentary",
                          "corrected": "classic", "url": f"http://testserver/corrections/{p.pk}/"}]}]
    maintext = Client().get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/export/maintext/").content.decode()
    assert "\n謙德第六十一\n大國者下流天下之交天下之牝牝常以靜勝牡以靜爲下" in maintext
