"""Commentary layers (issue 12): ``Piece.layer`` and ``Piece.layer_name``.

Existing rows get the default layer of their kind (``reader.importers.document.DEFAULT_LAYER``
as it stood when this migration was written): notes are commentary, everything else the
classic.
"""
from django.db import migrations, models

DEFAULT_LAYER = {"text": "classic", "record": "classic", "label": "classic",
                 "note": "commentary", "record_note": "commentary"}


def fill_layers(apps, schema_editor):
    Piece = apps.get_model("reader", "Piece")
    for kind, layer in DEFAULT_LAYER.items():
        Piece.objects.filter(kind=kind, layer="").update(layer=layer)


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0005_juan_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="piece",
            name="layer",
            field=models.CharField(blank=True, choices=[("classic", "經"), ("commentary", "注"), ("readings", "音義"),
                                                        ("subcommentary", "疏"), ("editorial", "按語"),
                                                        ("smallprint", "小字")], max_length=16),
        ),
        migrations.AddField(
            model_name="piece",
            name="layer_name",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.RunPython(fill_layers, migrations.RunPython.noop),
    ]
