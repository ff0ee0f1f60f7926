"""How each piece's layer was decided (``Piece.layer_basis``) and who wrote it when one layer
holds several commentators (``Piece.commentator``).

Existing notes and labels were placed by the book's markers (``marked``); main text and
records took their kind's default layer (``default``). A re-import records what the
importer now infers.
"""
from django.db import migrations, models


def fill_bases(apps, schema_editor):
    Piece = apps.get_model("reader", "Piece")
    Piece.objects.filter(kind__in=["note", "record_note", "label"]).update(layer_basis="marked")


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0011_slugs_without_invisible_characters"),
    ]

    operations = [
        migrations.AddField(
            model_name="piece",
            name="layer_basis",
            field=models.CharField(choices=[("marked", "marked by the book"),
                                            ("reference", "inferred from a reference text"),
                                            ("layout", "inferred from layout"),
                                            ("default", "default (book order kept)")],
                                   default="default", max_length=12),
        ),
        migrations.AddField(
            model_name="piece",
            name="commentator",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.RunPython(fill_bases, migrations.RunPython.noop),
    ]
