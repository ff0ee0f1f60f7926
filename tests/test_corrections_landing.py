"""A juan's corrections are looked for in its new text in the transaction that stores it
(``reader.signals.juans_stored``, ``corrections.receivers.on_juans_stored``), not once the whole command
ends, and a correction whose own text changed is set aside with its context as the new import reads it.

論語注疏 (KR1h0007) 卷四 §2's classic 「子曰人之過也各於其黨觀過斯知仁矣」, an accepted 矣 → 也: removed, imported
again from a copy reading 各於其類觀過期知 (the correction re-anchored there), then from a copy reading
各於其黨觀過斯知仁兮. The reason quoted the previous import's context (「之過也各於其類觀過期知仁」), not the
text the juan now reads; and while the same ``import_texts`` went on to other works (六臣註文選, 新唐書), the
correction stayed accepted though the page already read 兮: it was set aside only when the command ended."""
import shutil

import pytest
from django.core.management import call_command
from django.test import Client

from corrections.models import ACCEPTED, PENDING, SET_ASIDE, Proposal
from corrections.workflow import accept, propose
from reader.management.commands import import_texts
from reader.models import Juan, Piece
from search.backends import SearchQuery

from .conftest import SHARED
from .test_corrections import account
from .test_corrections_reattach import SLUG, juan4  # noqa: F401  (juan4: a fixture)

LINE = "　　子曰人之過也各於其黨觀過斯知仁矣注孔曰黨黨¶"
COMMENTARY = SHARED / "corpus" / "kanripo-commentary"


def _copy(path, raw, old, new):
    """Write ``raw`` with 卷四 §2's classic (line 83) reading ``new`` for ``old``."""
    lines = raw.split("\n")
    assert lines[82].startswith(LINE.rstrip("¶"))
    lines[82] = lines[82].replace(old, new)
    path.write_bytes("\n".join(lines).encode("utf-8"))


def _state(p):
    p.refresh_from_db()
    return (p.status, p.section_position, p.piece_position, p.start, p.end, p.before, p.after, p.status_reason)


def _classic():
    """The classic of 卷四 §2 as the API serves it (corrected)."""
    work = Juan.objects.get(edition__slug=SLUG, number=4).work_id
    return Client().get(f"/api/works/{work}/juans/4/sections/2/").json()["pieces"][0]["text"]


@pytest.fixture
def corrected(juan4, search_backend):
    """卷四 imported, its classic's 矣 (§2 piece 0, 15–16) corrected to 也 and accepted; (file, its text, proposal)."""
    path = juan4 / "KR1h0007_004.txt"
    raw = path.read_bytes().decode("utf-8")
    call_command("import_texts", str(juan4), stdout=open("/dev/null", "w"))
    juan = Juan.objects.get(edition__slug=SLUG, number=4)
    piece = Piece.objects.get(section__juan=juan, section__position=2, position=0)
    assert piece.text == "子曰人之過也各於其黨觀過斯知仁矣"
    made = propose(account("cl", "contributor"), juan, kind="text", section=2, piece=0, start=15, end=16,
                   replacement="也", reason="他本")
    accept(made, account("el", "editor"))
    assert _state(made) == (ACCEPTED, 2, 0, 15, 16, "之過也各於其黨觀過斯知仁", "", "")
    return path, raw, made


@pytest.mark.django_db(transaction=True)
def test_the_reason_quotes_the_context_as_the_new_import_reads_it(corrected):
    path, raw, made = corrected
    call_command("remove_texts", SLUG, stdout=open("/dev/null", "w"))
    _copy(path, raw, "各於其黨觀過斯知仁矣", "各於其類觀過期知仁矣")
    call_command("import_texts", str(path.parent), stdout=open("/dev/null", "w"))
    assert _state(made) == (ACCEPTED, 2, 0, 15, 16, "之過也各於其類觀過期知仁", "", "")
    assert _classic() == "子曰人之過也各於其類觀過期知仁也"
    _copy(path, raw, "各於其黨觀過斯知仁矣", "各於其黨觀過斯知仁兮")
    call_command("import_texts", str(path.parent), stdout=open("/dev/null", "w"))
    why = ("此處「矣」今作「兮」 (its own text changed: between its context, 「之過也各於其黨觀過斯知仁」 and 「」, "
           "section 2, piece 0, character 15 now reads 「兮」, not 「矣」)")
    # the anchor keeps the context it was last found with; the reason quotes the text as it now reads
    assert _state(made) == (SET_ASIDE, 2, 0, 15, 16, "之過也各於其類觀過期知仁", "", why)
    assert _classic() == "子曰人之過也各於其黨觀過斯知仁兮"


@pytest.mark.django_db(transaction=True)
def test_a_juans_corrections_are_set_aside_when_it_lands_not_when_the_command_ends(corrected, tmp_path, monkeypatch,
                                                                                    search_backend):
    """One ``import_texts`` of 卷四 (its 黨…矣 read 類…兮: an accepted 矣 → 也 and a pending 黨 → 羣), then 六臣註文選's 卷首 and four juans of 新唐書 (six files: the index
    is written once, at the end): at the moment each juan lands (``WorkProgress.landed``, called after its
    transaction committed), the correction's status is what 卷四's text asks."""
    path, raw, made = corrected
    pending = propose(account("cp", "contributor"), Juan.objects.get(edition__slug=SLUG, number=4), kind="text",
                      section=2, piece=0, start=9, end=10, replacement="羣", reason="他本")
    _copy(path, raw, "各於其黨觀過斯知仁矣", "各於其類觀過斯知仁兮")
    for name in ("KR4h0003/KR4h0003_000.txt", "KR2a0009/KR2a0009_121.txt", "KR2a0009/KR2a0009_122.txt",
                 "KR2a0009/KR2a0009_123.txt", "KR2a0009/KR2a0009_124.txt"):
        (tmp_path / "more" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(COMMENTARY / name, tmp_path / "more" / name)
    seen = []
    landed = import_texts.WorkProgress.landed

    def watch(self, juan, *args, **kwargs):
        p, q = Proposal.objects.get(pk=made.pk), Proposal.objects.get(pk=pending.pk)
        seen.append((juan.edition.slug, juan.number, p.status, p.status_reason, q.status, q.status_reason, _classic()))
        return landed(self, juan, *args, **kwargs)

    monkeypatch.setattr(import_texts.WorkProgress, "landed", watch)
    call_command("import_texts", str(path.parent), str(tmp_path / "more" / "KR4h0003"), str(tmp_path / "more" / "KR2a0009"),
                 stdout=open("/dev/null", "w"))
    why = ("此處「矣」今作「兮」 (its own text changed: between its context, 「之過也各於其類觀過斯知仁」 and 「」, "
           "section 2, piece 0, character 15 now reads 「兮」, not 「矣」)")
    unplaced = ("重新匯入後無從定位，無法採納 (after a re-import it is not found, and cannot be accepted: 此處「黨」今作「類」 "
                "(its own text changed: between its context, 「子曰人之過也各於其」 and 「觀過斯知仁兮」, section 2, piece 0, "
                "character 9 now reads 「類」, not 「黨」))")
    set_aside = (SET_ASIDE, why, PENDING, unplaced, "子曰人之過也各於其類觀過斯知仁兮")
    assert seen == [(SLUG, 4, *set_aside), ("KR4h0003", 0, *set_aside), ("KR2a0009", 121, *set_aside),
                    ("KR2a0009", 122, *set_aside), ("KR2a0009", 123, *set_aside), ("KR2a0009", 124, *set_aside)]
    # the index, written once at the end, reads the juan as rechecked
    assert search_backend.search(SearchQuery("其類觀過斯知仁兮")).count == 1
    assert search_backend.search(SearchQuery("其類觀過斯知仁也")).count == 0


@pytest.mark.django_db(transaction=True)
def test_a_recheck_that_fails_leaves_the_import_standing(corrected, monkeypatch, caplog):
    """A recheck that raises is rolled back to its own savepoint and logged: the juan lands with its new text,
    the correction keeps its status (the page skips what it cannot place)."""
    from corrections import receivers

    path, raw, made = corrected
    _copy(path, raw, "各於其黨觀過斯知仁矣", "各於其黨觀過斯知仁兮")

    def broken(juan, **kwargs):
        Proposal.objects.filter(pk=made.pk).update(status_reason="half done")
        raise RuntimeError("boom")

    monkeypatch.setattr(receivers, "recheck", broken)
    call_command("import_texts", str(path.parent), stdout=open("/dev/null", "w"))
    assert _classic() == "子曰人之過也各於其黨觀過斯知仁兮"
    assert _state(made) == (ACCEPTED, 2, 0, 15, 16, "之過也各於其黨觀過斯知仁", "", "")
    assert [r.getMessage() for r in caplog.records if r.name == "corrections.receivers"] == [
        f"corrections of juan {Juan.objects.get(edition__slug=SLUG, number=4).pk} not rechecked"]
