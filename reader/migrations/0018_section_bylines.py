"""A section's byline (the author's line under an anthology piece's title: 文選 ``班孟堅``),
stored as metadata (``Section.bylines``). Sections imported before have none until their juan
is imported again (the parser reads it: ``SectionDoc.bylines``)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0017_juan_columns_reversed"),
    ]

    operations = [
        migrations.AddField(
            model_name="section",
            name="bylines",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
