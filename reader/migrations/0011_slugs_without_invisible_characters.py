from django.db import migrations

import reader.slugs


def repair_slugs(apps, schema_editor):
    """Give every work and edition whose slug breaks the slug rule as it now stands
    (``reader.slugs``: no invisible characters such as the Hangul filler U+3164 or a
    variation selector, no combining mark first, Unicode NFC) a valid slug made from it
    (``KR1d0086`` + U+3164 → ``KR1d0086-2`` when ``KR1d0086`` is taken), unique among its kind."""
    for name in ("Work", "Edition"):
        model = apps.get_model("reader", name)
        for row in model.objects.order_by("pk"):
            if reader.slugs.slug_problem(row.slug) is None:
                continue
            taken = lambda slug, pk=row.pk: model.objects.filter(slug=slug).exclude(pk=pk).exists()  # noqa: E731
            row.slug = reader.slugs.unique_slug(row.slug or name.lower(), taken)
            row.save(update_fields=["slug"])


class Migration(migrations.Migration):

    dependencies = [
        ('reader', '0010_edition_slugs'),
    ]

    operations = [
        migrations.RunPython(repair_slugs, migrations.RunPython.noop),
    ]
