"""The place a proposal was made at, and the layer and writer of its piece, kept for re-anchoring
(``corrections.anchors.locate``, ``corrections.pieces.candidates``; decision 0075).

Existing proposals: the first place is the one the earliest ``re-anchored`` entry of its log names
(``S.P A–B → …``), else its place now; the layer and writer are those of the stored piece at that place
(none when the edition or the piece is gone: any piece may then hold it, as before)."""

import re

from django.db import migrations, models

WAS = re.compile(r"^(\d+)\.(\d+) (\d+)–\d+ → ")


def fill(apps, schema_editor):
    Proposal = apps.get_model("corrections", "Proposal")
    AuditEntry = apps.get_model("corrections", "AuditEntry")
    Piece = apps.get_model("reader", "Piece")
    first = {}
    for pk, detail in (AuditEntry.objects.filter(action="re-anchored").order_by("at", "pk")
                       .values_list("proposal_id", "detail")):
        m = WAS.match(detail)
        if m and pk not in first:
            first[pk] = tuple(int(g) for g in m.groups())
    for p in Proposal.objects.all().iterator():
        p.first_section_position, p.first_piece_position, p.first_start = first.get(
            p.pk, (p.section_position, p.piece_position, p.start))
        voice = (Piece.objects.filter(section__juan__edition_id=p.edition_id, section__juan__number=p.juan_number,
                                      section__position=p.first_section_position, position=p.first_piece_position)
                 .values_list("layer", "commentator").first()) if p.edition_id else None
        p.layer, p.commentator = voice or ("", "")
        p.save(update_fields=["first_section_position", "first_piece_position", "first_start", "layer",
                              "commentator"])


class Migration(migrations.Migration):

    dependencies = [
        ('corrections', '0008_proposal_structure_main_text'),
        ('reader', '0022_chapter_printed_juan'),
    ]

    operations = [
        migrations.AddField(model_name='proposal', name='first_section_position',
                            field=models.PositiveIntegerField(blank=True, null=True)),
        migrations.AddField(model_name='proposal', name='first_piece_position',
                            field=models.PositiveIntegerField(blank=True, null=True)),
        migrations.AddField(model_name='proposal', name='first_start',
                            field=models.PositiveIntegerField(blank=True, null=True)),
        migrations.AddField(model_name='proposal', name='layer', field=models.CharField(blank=True, max_length=16)),
        migrations.AddField(model_name='proposal', name='commentator', field=models.CharField(blank=True, max_length=40)),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
