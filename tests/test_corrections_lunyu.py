"""Corrections on 論語注疏 (KR1h0007) 卷四 as a breaker made them: each reading of a corrected place agrees
with the correction, and a correction that would change nothing is refused when proposed."""
import html
import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.test import Client

from corrections.models import Proposal
from corrections.recheck import restore
from corrections.workflow import ReviewError, accept, propose
from reader.models import Juan

from .test_corrections import account
from .test_corrections_reattach import SLUG, _import, _piece, juan4, one_file  # noqa: F401  (juan4: a fixture)

PROPOSE = f"/corrections/propose/{SLUG}/4/"
#: 卷四 §3's first passages: the classic, then 包咸's note (characters 14–20 of the section: 鄭曰方猶常也).
CLASSIC, NOTE = "子曰父母在不逺遊遊必有方", "鄭曰方猶常也"


@pytest.fixture
def people():
    return account("cl", "contributor"), account("el", "editor")


@pytest.mark.django_db
def test_a_layer_correction_to_the_layer_the_text_has_is_refused(juan4, people):
    """§3 characters 16–17 (方猶, of the 注) to the commentary was taken, and once accepted it stood in
    the way of a real one (方猶 → 經: 「與已採納的提議 #14 同處」). It is refused when proposed, on the form
    and by ``propose``; to the classic it is taken and accepted."""
    _import(juan4)
    contributor, editor = people
    juan = Juan.objects.get(edition__slug=SLUG, number=4)
    section, position, text = _piece(NOTE)
    assert (section, text[:len(NOTE)]) == (3, NOTE)
    assert juan.sections.get(position=3).pieces.get(position=position).layer == "commentary"
    c = Client()
    c.force_login(contributor)
    form = {"kind": "layer", "section": 3, "first": 16, "last": 17, "new_layer": "commentary", "reason": "注文"}
    page = html.unescape(c.post(PROPOSE, form).content.decode())
    said = "此處已屬注，無須更改層次 (the span is of the layer commentary already: a layer correction must change it)"
    assert said in page and Proposal.objects.count() == 0
    with pytest.raises(ReviewError, match=re.escape(said)):
        propose(contributor, juan, kind="layer", section=3, piece=position, start=2, end=4, new_layer="commentary",
                reason="注文")
    response = c.post(PROPOSE, {**form, "new_layer": "classic"})
    made = Proposal.objects.get()
    assert response["Location"] == f"/corrections/{made.pk}/"
    assert (made.original, made.start, made.end, made.new_layer) == ("方猶", 2, 4, "classic")
    accept(made, editor)
    # now classic, as corrected: to the classic again is refused, back to the commentary is a change
    with pytest.raises(ReviewError, match=re.escape("此處已屬經，無須更改層次")):
        propose(contributor, juan, kind="layer", section=3, piece=position, start=2, end=4, new_layer="classic",
                reason="經文")
    back = propose(contributor, juan, kind="layer", section=3, piece=position, start=2, end=4, new_layer="commentary",
                   reason="注文")
    assert back.new_layer == "commentary"
    # an editor editing a pending one to the layer it has is refused as well
    other = propose(contributor, juan, kind="layer", section=3, piece=position, start=4, end=6, new_layer="classic",
                    reason="經文")
    with pytest.raises(ReviewError, match=re.escape("此處已屬注，無須更改層次")):
        accept(other, editor, new_layer="commentary")


@pytest.mark.django_db(transaction=True)
def test_a_note_made_a_heading_is_a_heading_in_every_reading(juan4, people, search_backend):
    """此行是標題 on 卷四 §3's note 孔曰見其壽考則喜見其衰老則懼 (何晏's 注),
    accepted: TEI exported it as ``<label type="commentary" n="何注">``, the API as kind label of the layer
    commentary by 何晏, a search hit as 何注's; a line of the classic made a heading is
    ``<label type="heading">`` of no writer. Now every reading says heading."""
    _import(juan4)
    contributor, editor = people
    juan = Juan.objects.get(edition__slug=SLUG, number=4)
    section, position, text = _piece("孔曰見其壽考")
    assert (section, position, text) == (3, 14, "孔曰見其壽考則喜見其衰老則懼")
    stored = juan.sections.get(position=3).pieces.get(position=14)
    # 孔安國's part of 何晏's 集解 (孔曰: ``mandoku.collected_notes``)
    assert (stored.kind, stored.layer, stored.layer_name, stored.commentator) == ("note", "commentary", "何注", "孔安國")
    made = propose(contributor, juan, kind="structure", section=3, piece=14, start=0, end=1, structure="heading",
                   reason="標題")
    accept(made, editor)
    work = juan.edition.work_id
    pieces = Client().get(f"/api/works/{work}/juans/4/sections/3/").json()["pieces"]
    assert [p for p in pieces if p["position"] == 14] == [{
        "position": 14, "paragraph": 2, "kind": "label", "layer": "classic", "layer_name": "", "commentator": "",
        "layer_basis": "marked", "text": text, "source_tag": "", "source": "", "pages": [],
        "corrections": [{"id": made.pk, "kind": "structure", "start": 0, "end": 14, "imported": "",
                         "corrected": "heading", "url": f"http://testserver/corrections/{made.pk}/"}]}]
    tei = Client().get(f"/api/works/{work}/juans/4/export/tei/").content.decode()
    assert f'<label type="commentary" n="何注">注</label><label type="heading">{text}</label>' in tei
    hit = Client().get("/api/search/?q=見其壽考").json()["results"][0]
    assert (hit["layer"], hit["layer_name"], hit["commentator"], hit["before"], hit["match"], hit["after"]) == (
        "title", "標題", "", "孔曰", "見其壽考", "則喜見其衰老則懼")
    # 何晏's 注 (孔安國's parts included, decision 0058) no longer counts it, nor 孔安國's parts
    assert Client().get("/api/search/?q=見其壽考&commentator=何晏").json()["count"] == 0
    assert Client().get("/api/search/?q=見其壽考&commentator=孔安國").json()["count"] == 0


@pytest.fixture
def juan0(tmp_path):
    """卷首 (file _000) of KR1h0007 as a Kanripo folder of its own."""
    return one_file(tmp_path, 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", ["paratext", "classic"])
def test_a_heading_made_text_names_its_section_by_its_opening_words_whatever_its_layer(juan0, people, search_backend,
                                                                                      layer):
    """此行是正文 on 卷首 §1's heading 御製讀論語 with the layer 序跋 left the section with title "" and name
    "" (its citation without 「…」, its page title §1 alone), where with the default 經 it is named by its
    opening words: it is named so whatever the layer (decision 0067: everywhere)."""
    _import(juan0)
    contributor, editor = people
    juan = Juan.objects.get(edition__slug=SLUG, number=0)
    section = juan.sections.get(position=1)
    heading = section.pieces.get(text="御製讀論語")
    assert (section.title, heading.kind) == ("御製讀論語", "label")
    made = propose(contributor, juan, kind="structure", section=1, piece=heading.position, start=0, end=1,
                   structure="text", new_layer=layer, reason="御製文之題")
    accept(made, editor)
    api = Client().get(f"/api/works/{juan.edition.work_id}/juans/0/sections/1/").json()
    assert (api["title"], api["name"]) == ("", "御製讀論語")
    assert [(p["kind"], p["layer"]) for p in api["pieces"] if p["text"] == "御製讀論語"] == [("text", layer)]
    assert "《論語注疏》卷〇「御製讀論語」（四庫全書・文淵閣本，葉 0-1a）" in api["citation"]
    page = html.unescape(Client().get(f"/works/{SLUG}/juan/0/1/").content.decode())
    assert "<title>御製讀論語 · 論語注疏（四庫全書・文淵閣本）卷〇 · 經注閱讀</title>" in page


def _stale(contributor, editor, juan, position, start, end):
    """An accepted layer correction of §3's note at ``start``–``end`` to the commentary, the layer it has, as
    one accepted before the refusal was stored (``propose`` and ``accept`` now refuse it: it is proposed and
    accepted to the classic, then its row made what such a one's is)."""
    made = propose(contributor, juan, kind="layer", section=3, piece=position, start=start, end=end,
                   new_layer="classic", reason="經文")
    accept(made, editor)
    Proposal.objects.filter(pk=made.pk).update(new_layer="commentary")
    made.refresh_from_db()
    assert (made.status, made.layer, made.new_layer) == ("accepted", "commentary", "commentary")
    return made


#: What a layer correction that changes nothing says once set aside (``overlay.same_layer_note``).
IDLE = ("此處本屬注，此校正無所更改，已擱置，不擋同處之校正 (the span is of the layer commentary already: the correction "
        "changes nothing, and is set aside so that it stands in no other correction's way)")


@pytest.mark.django_db(transaction=True)
def test_a_layer_correction_accepted_to_the_layer_the_text_had_stands_in_no_ones_way(juan4, people, search_backend):
    """Accepted before the refusal, §3's 方猶 (注) to the commentary blocked the real one (方猶 → 經:
    「與已採納的提議 #14 同處，請先撤回該提議」) until an editor reverted it, and split the note in the reading
    with a 「校」 that changed nothing. It is neither applied nor in the way; the migration and the next import
    set it aside with the reason, its history kept; 重新查找 leaves it set aside."""
    _import(juan4)
    contributor, editor = people
    juan = Juan.objects.get(edition__slug=SLUG, number=4)
    section, position, text = _piece(NOTE)
    stale = [_stale(contributor, editor, juan, position, 2, 4), _stale(contributor, editor, juan, position, 4, 6)]
    api = f"/api/works/{juan.edition.work_id}/juans/4/sections/3/"
    voice = {"position": position, "paragraph": 0, "kind": "note", "layer": "commentary", "layer_name": "何注",
             "commentator": "鄭玄", "layer_basis": "marked", "source_tag": "", "source": "", "pages": []}
    # no part, no 「校」: the note reads as imported
    assert [p for p in Client().get(api).json()["pieces"] if p["position"] == position] == [{**voice, "text": NOTE}]
    real = propose(contributor, juan, kind="layer", section=3, piece=position, start=2, end=4, new_layer="classic",
                   reason="經文")
    accept(real, editor)
    assert [p for p in Client().get(api).json()["pieces"] if p["position"] == position] == [
        {**voice, "text": "鄭曰", "piece_offset": 0},
        {**voice, "layer": "classic", "layer_name": "", "commentator": "", "text": "方猶", "piece_offset": 2,
         "corrections": [{"id": real.pk, "kind": "layer", "start": 0, "end": 2, "imported": "commentary",
                          "corrected": "classic", "url": f"http://testserver/corrections/{real.pk}/"}]},
        {**voice, "text": "常也", "piece_offset": 4}]
    # the migration sets the stored ones aside, with the reason and an entry of the system in their log
    migration = importlib.import_module("corrections.migrations.0010_set_aside_layer_corrections_that_change_nothing")
    migration.set_aside(django_apps, None)
    for made in stale:
        made.refresh_from_db()
        assert (made.status, made.status_reason, made.new_layer) == ("set_aside", IDLE, "commentary")
        assert [(a.action, a.actor, a.detail) for a in made.audit.all()] == [
            ("proposed", contributor, "經文"), ("accepted", editor, ""), ("set aside", None, IDLE)]
    c = Client()
    c.force_login(editor)
    page = html.unescape(c.get(f"/corrections/{stale[0].pk}/").content.decode())
    assert f'<dd class="status-set_aside">擱置 (set aside)：{IDLE}</dd>' in page
    with pytest.raises(ReviewError, match=re.escape(f"仍無法恢復：{IDLE} (it cannot be accepted again)")):
        restore(stale[1], editor)
    # one left accepted is set aside at the juan's next import; the real one stands
    late = _stale(contributor, editor, juan, position, 0, 2)
    call_command("import_texts", str(juan4), "--store-unchanged", stdout=open("/dev/null", "w"))
    late.refresh_from_db()
    assert (late.status, late.status_reason) == ("set_aside", IDLE)
    assert [(a.action, a.actor) for a in late.audit.all()] == [("proposed", contributor), ("accepted", editor),
                                                               ("set aside", None)]
    assert [made.audit.count() for made in stale] == [3, 3]
    real.refresh_from_db()
    assert real.status == "accepted"
