"""Layer corrections accepted before ``workflow.propose`` and ``accept`` refused one that changes nothing (its
new layer the layer its span had as proposed: ``Proposal.layer``, no 此行是正文 correction giving the piece
another) are set aside with the reason (``overlay.same_layer_note``) and a ``set aside`` entry of the
system in their log: accepted, they stood in the way of a real correction of the same place until an
editor reverted them. Nothing is deleted; an editor may still revert one."""

from django.db import migrations
from django.db.models import Exists, OuterRef

from corrections.overlay import same_layer_note


def set_aside(apps, schema_editor):
    Proposal = apps.get_model("corrections", "Proposal")
    AuditEntry = apps.get_model("corrections", "AuditEntry")
    made_text = Proposal.objects.filter(
        status="accepted", kind="structure", structure="text", edition_id=OuterRef("edition_id"),
        juan_number=OuterRef("juan_number"), section_position=OuterRef("section_position"),
        piece_position=OuterRef("piece_position"))
    idle = (Proposal.objects.filter(status="accepted", kind="layer").exclude(layer="")
            .exclude(Exists(made_text)).order_by("pk"))
    for p in idle.iterator():
        if p.new_layer != p.layer:
            continue
        why = same_layer_note(p.layer)
        Proposal.objects.filter(pk=p.pk).update(status="set_aside", status_reason=why)
        AuditEntry.objects.create(proposal_id=p.pk, action="set aside", actor=None, detail=why)


class Migration(migrations.Migration):

    dependencies = [
        ('corrections', '0009_proposal_first_place_and_layer'),
    ]

    operations = [
        migrations.RunPython(set_aside, migrations.RunPython.noop),
    ]
