"""Corrections on 論語注疏 (KR1h0007) 卷四 as a breaker made them: each reading of a corrected place agrees
with the correction, and a correction that would change nothing is refused when proposed."""
import html
import re

import pytest
from django.test import Client

from corrections.models import Proposal
from corrections.workflow import ReviewError, accept, propose
from reader.models import Juan

from .test_corrections import account
from .test_corrections_reattach import SLUG, _import, _piece, juan4  # noqa: F401  (juan4: a fixture)

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
