"""Whether a juan's file holds its notes' printed columns in reverse reading order (the left
column first, as 四部叢刊 transcriptions do), decided at import from the columns' lengths
(``reader.importers.mandoku.commentators.columns_reversed``). Juans imported before are given
what their book's profile expects (六臣註文選 and 水經注 file them so), the reading they had;
importing a juan again decides it from its own lines."""
from django.db import migrations, models

#: The ``#+TITLE`` values (with the forms the profiles fold) of books whose files were read
#: with reversed columns before the field existed (commentators.PROFILES, reversed_columns).
REVERSED_TITLES = ("六臣註文選", "六臣注文選", "水經注", "水經註")


def mark_reversed(apps, schema_editor):
    Juan = apps.get_model("reader", "Juan")
    Juan.objects.filter(work__title__in=REVERSED_TITLES).update(columns_reversed=True)


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0016_juan_label_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="juan",
            name="columns_reversed",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_reversed, migrations.RunPython.noop),
    ]
