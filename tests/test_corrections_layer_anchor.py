"""A correction, an annotation or a proposal re-anchored after a re-import stays in the layer (and with the
commentator) of the span it was proposed on, and its first place is tried first at every import
(``corrections.anchors.locate``, decision 0075). On 論語注疏 (KR1h0007) 卷四 §2 the 疏 quotes the classic
(「…君子小人各於其類也觀過斯知仁矣者言…」): a re-import that changed the classic's 斯 moved an accepted 斯 → 智
into the 疏's quotation, and the API served 「…觀過智知仁矣者言…」; a pending 各 → 於 on the classic moved to
the 疏's 各 and stayed there when the original file was imported again."""
from importlib import import_module

import pytest
from django.core.management import call_command
from django.test import Client

from corrections.models import ACCEPTED, PENDING, SET_ASIDE, AuditEntry, Proposal
from corrections.workflow import accept, propose
from reader.models import Juan, Piece

from .test_corrections import account
from .test_corrections_reattach import SLUG, juan4  # noqa: F401  (juan4: a fixture)

CLASSIC = "子曰人之過也各於其黨觀過斯知仁矣"
#: The 疏's quotation of it, characters 28–45 of §2 piece 6.
QUOTED = "君子小人各於其類也觀過斯知仁矣者言"


def _import(path):
    call_command("import_texts", str(path), stdout=open("/dev/null", "w"))


def _section(juan):
    """API JSON of 卷四 §2: [(position, layer, text)] of its pieces."""
    data = Client().get(f"/api/works/{juan.work_id}/juans/4/sections/2/").json()
    return [(p["position"], p["layer"], p["text"]) for p in data["pieces"]]


@pytest.fixture
def imported(juan4, search_backend):
    """卷四 imported from its own folder: (its file, the file's text as the corpus has it, the stored juan)."""
    path = juan4 / "KR1h0007_004.txt"
    raw = path.read_bytes().decode("utf-8")
    _import(path)
    return path, raw, Juan.objects.get(edition__slug=SLUG, number=4)


def _state(p):
    p.refresh_from_db()
    return (p.status, p.section_position, p.piece_position, p.start, p.end, p.status_reason)


@pytest.mark.django_db(transaction=True)
def test_a_correction_whose_classic_changed_is_set_aside_not_moved_into_the_commentary_quoting_it(imported):
    path, raw, juan = imported
    pieces = {p.position: (p.layer, p.text) for p in Piece.objects.filter(section__juan=juan, section__position=2)}
    assert pieces[0] == ("classic", CLASSIC)
    assert pieces[6][0] == "subcommentary" and pieces[6][1].index(QUOTED) == 28
    contributor, editor = account("cs", "contributor"), account("es", "editor")
    made = propose(contributor, juan, kind="text", section=2, piece=0, start=12, end=13, replacement="智", reason="r")
    note = propose(contributor, juan, kind="annotation", section=2, piece=0, start=12, end=13, replacement="斯，則也",
                   reason="r")
    accept(made, editor)
    accept(note, editor)
    assert (made.before, made.after) == ("子曰人之過也各於其黨觀過", "知仁矣")
    assert _section(juan)[0] == (0, "classic", "子曰人之過也各於其黨觀過智知仁矣")
    lines = raw.split("\n")
    assert lines[82].startswith("　　子曰人之過也各於其黨觀過斯知仁矣")
    lines[82] = lines[82].replace("觀過斯知仁矣", "觀遇期知仁矣")
    path.write_bytes("\n".join(lines).encode("utf-8"))
    _import(path)
    why = ("此處「斯」今作「期」 (its own text changed: between its context, 「子曰人之過也各於其黨觀遇」 and 「知仁矣」, "
           "section 2, piece 0, character 12 now reads 「期」, not 「斯」)")
    assert _state(made) == (SET_ASIDE, 2, 0, 12, 13, why)
    assert _state(note) == (SET_ASIDE, 2, 0, 12, 13, why)
    served = _section(juan)
    assert served[0] == (0, "classic", "子曰人之過也各於其黨觀遇期知仁矣")
    assert [(n, layer) for n, layer, text in served if QUOTED in text] == [(7, "subcommentary")]
    assert not [text for _, _, text in served if "智" in text]
    # the original file again: both accepted again at their place
    path.write_bytes(raw.encode("utf-8"))
    _import(path)
    assert _state(made) == (ACCEPTED, 2, 0, 12, 13, "")
    assert _state(note) == (ACCEPTED, 2, 0, 12, 13, "")
    served = _section(juan)
    assert served[0] == (0, "classic", "子曰人之過也各於其黨觀過智知仁矣")
    assert [(n, layer) for n, layer, text in served if QUOTED in text] == [(6, "subcommentary")]


@pytest.mark.django_db(transaction=True)
def test_a_pending_proposal_stays_in_its_layer_and_returns_to_its_first_place(imported):
    path, raw, juan = imported
    made = propose(account("cs", "contributor"), juan, kind="text", section=2, piece=0, start=6, end=7,
                   replacement="於", reason="r")
    lines = raw.split("\n")
    lines[82] = lines[82].replace("子曰人之過也各", "子日人之過也名")
    changed = "\n".join(lines).replace("多怨", "多恕").replace("爲", "為")
    assert changed.count("多恕") >= 1
    path.write_bytes(changed.encode("utf-8"))
    _import(path)
    why = ("重新匯入後無從定位，無法採納 (after a re-import it is not found, and cannot be accepted: 此處「各」今作「名」 (its own "
           "text changed: between its context, 「子日人之過也」 and 「於其黨觀過斯知仁矣」, section 2, piece 0, character 6 now "
           "reads 「名」, not 「各」))")
    assert _state(made) == (PENDING, 2, 0, 6, 7, why)
    assert [a.action for a in made.audit.all()] == ["proposed", "unanchored"]
    path.write_bytes(raw.encode("utf-8"))
    _import(path)
    assert _state(made) == (PENDING, 2, 0, 6, 7, "")


@pytest.mark.django_db
def test_proposals_made_before_take_their_first_place_and_layer_from_their_log(seed_juan):
    """The migration that records them: the first place is the one the earliest re-anchoring names, the
    layer and writer those of the stored piece there; a proposal never moved keeps its place."""
    from django.apps import apps

    fill = import_module("corrections.migrations.0009_proposal_first_place_and_layer").fill
    contributor = account("cs", "contributor")
    moved, still = (propose(contributor, seed_juan, kind="annotation", section=1, piece=piece, start=0, end=1,
                            replacement="注", reason="r") for piece in (3, 0))
    stored = {p.position: (p.layer, p.commentator) for p in Piece.objects.filter(section__juan=seed_juan,
                                                                                  section__position=1)}
    assert stored[3] != stored[0]
    Proposal.objects.update(first_section_position=None, first_piece_position=None, first_start=None, layer="",
                            commentator="")
    Proposal.objects.filter(pk=moved.pk).update(piece_position=0, start=5, end=6)
    AuditEntry.objects.create(proposal=moved, action="re-anchored", detail="1.3 0–1 → 1.0 5–6")
    AuditEntry.objects.create(proposal=moved, action="re-anchored", detail="1.0 5–6 → 1.0 5–6; context …")
    fill(apps, None)
    rows = Proposal.objects.order_by("pk").values_list("first_section_position", "first_piece_position",
                                                       "first_start", "layer", "commentator")
    assert list(rows) == [(1, 3, 0, *stored[3]), (1, 0, 0, *stored[0])]
