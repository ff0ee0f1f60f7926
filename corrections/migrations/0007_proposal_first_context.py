"""The context a proposal was made with, kept apart from the one a re-anchoring rewrites."""

from django.db import migrations, models
from django.db.models import F


def copy_context(apps, schema_editor):
    apps.get_model("corrections", "Proposal").objects.update(first_before=F("before"), first_after=F("after"))


class Migration(migrations.Migration):

    dependencies = [
        ('corrections', '0006_proposal_new_layer_paratext'),
    ]

    operations = [
        migrations.AddField(
            model_name='proposal',
            name='first_after',
            field=models.CharField(blank=True, max_length=48),
        ),
        migrations.AddField(
            model_name='proposal',
            name='first_before',
            field=models.CharField(blank=True, max_length=48),
        ),
        migrations.RunPython(copy_context, migrations.RunPython.noop),
    ]
