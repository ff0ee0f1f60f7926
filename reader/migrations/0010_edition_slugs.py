from django.db import migrations, models

import reader.slugs


def repair_slugs(apps, schema_editor):
    """Give every edition whose slug breaks the one slug rule (``reader.slugs``; e.g. a
    Kanripo folder named ``KR1d0086 WYG``) a valid one made from it (``KR1d0086-WYG``),
    unique among editions, as ``0009_safe_slugs`` does for works."""
    Edition = apps.get_model("reader", "Edition")
    for edition in Edition.objects.order_by("pk"):
        if reader.slugs.slug_problem(edition.slug) is None:
            continue
        taken = lambda slug, pk=edition.pk: Edition.objects.filter(slug=slug).exclude(pk=pk).exists()  # noqa: E731
        edition.slug = reader.slugs.unique_slug(edition.slug or "edition", taken)
        edition.save(update_fields=["slug"])


class Migration(migrations.Migration):

    dependencies = [
        ('reader', '0009_safe_slugs'),
    ]

    operations = [
        migrations.RunPython(repair_slugs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='edition',
            name='slug',
            field=models.CharField(help_text="URL key: letters, digits, '-' and '_' (e.g. KR1d0086-WYG, 禮書綱目)", max_length=250, unique=True, validators=[reader.slugs.validate_slug]),
        ),
    ]
