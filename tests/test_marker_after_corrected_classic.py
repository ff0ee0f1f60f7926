"""A layer correction that makes the first words of a 注疏's note the classic moves the note's marker (注, 疏,
音義, printed full size before the note's small print) to where the note now starts: the page reads the new
classic, then 注 and the rest of the note, as the book prints a note after the words it is on
(``corrections.markers``, docs/corrections.md). On a real juan, 孟子注疏 卷一 (KR1h0003_001), through the Django
client: §2's 「…不為不多矣」 then 注 then 趙岐's 「周制君十卿禄君食萬鍾臣食千鍾亦多矣不為不多矣」."""
import re

import pytest
from django.test import Client

from corrections.models import Proposal
from reader.models import Piece

from .test_corrections import account
from .test_printed_juans import MENGZI, imported

NOTE = "周制君十卿禄君食萬鍾臣食千鍾亦多矣不為不多矣"
MARKER = '<span class="layer-label layer-commentary" data-layer="趙注" id="s2-p20">注</span>'


def spans(html: str, start: str, end: str) -> list[tuple[str, str]]:
    """``(id, text)`` of the spans with an id from ``start`` to ``end`` (ids) of ``html``, tags and the
    screen-reader labels left out."""
    html = html[html.index(f'id="{start}"') - 40:]
    html = html[:html.index(f'id="{end}"') + 200]
    html = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", html)
    html = re.sub(r'<span class="pb"[^>]*>.*?</span>', "", html)
    found = [(i, re.sub(r"<[^>]+>", "", t)) for i, t in re.findall(r'id="(s2-p[\d-]+)"[^>]*>(.*?)</span>', html)]
    return found[:[i for i, _ in found].index(end) + 1]


@pytest.mark.django_db
def test_the_notes_marker_follows_the_words_a_layer_correction_makes_the_classic(tmp_path):
    juan, = imported(tmp_path, MENGZI, "KR1h0003_001.txt")
    note = Piece.objects.get(section__juan=juan, text=NOTE)
    marker = Piece.objects.get(section=note.section, position=note.position - 1)
    assert (note.section.position, note.position, marker.kind, marker.layer, marker.layer_name, marker.text) == (
        2, 21, "label", "commentary", "趙注", "注")
    c, e = Client(), Client()
    c.force_login(account("cs", "contributor"))
    e.force_login(account("es", "editor"))
    page = f"/works/{juan.work.slug}/juan/{juan.number}/2/?layout=horizontal"
    before = Client().get(page).content.decode()
    assert spans(before, "s2-p19", "s2-p22") == [
        ("s2-p19", "萬取千焉千取百焉不為不多矣"), ("s2-p20", "注"), ("s2-p21", NOTE), ("s2-p22", "苟為後義而先利不奪不饜")]
    # a scholar reads the note's first six characters as the classic: §2 piece 21, code points 0–6
    text = "".join(p.text for p in Piece.objects.filter(section=note.section).order_by("position"))
    first = text.index(NOTE) + 1
    response = c.post(f"/corrections/propose/{juan.work.slug}/{juan.number}/", {
        "kind": "layer", "section": 2, "first": first, "last": first + 5, "new_layer": "classic",
        "reason": "周制君十卿禄是經", "evidence": "他本"})
    assert response.status_code == 302, response.content.decode()[:2000]
    proposal = Proposal.objects.get()
    assert (proposal.piece_position, proposal.start, proposal.end, proposal.original, proposal.new_layer) == (
        21, 0, 6, "周制君十卿禄", "classic")
    assert e.post(f"/corrections/{proposal.pk}/review/", {"action": "accept", "reason": "是"}).status_code == 302
    after = Client().get(page).content.decode()
    # the new classic, then the marker where the note now starts, then the note's rest
    assert spans(after, "s2-p19", "s2-p22") == [
        ("s2-p19", "萬取千焉千取百焉不為不多矣"), ("s2-p21", "周制君十卿禄"), ("s2-p20", "注"),
        ("s2-p21-6", "君食萬鍾臣食千鍾亦多矣不為不多矣"), ("s2-p22", "苟為後義而先利不奪不饜")]
    assert MARKER in after and after.index('id="s2-p21"') < after.index(MARKER) < after.index('id="s2-p21-6"')
    assert '<span class="text" id="s2-p21">周制君十卿禄</span>' in after
    # every character of the section still shown once, the stored pieces unchanged
    assert Piece.objects.get(pk=note.pk).text == NOTE
    assert after.count(">注</span>") == before.count(">注</span>")
