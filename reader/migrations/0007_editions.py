"""Issue 14: editions of one work. Every work row becomes an edition (same id, same slug, so
old URLs and API ids keep naming the same text); then the rows that are editions of one work
are merged into one work: the same Kanripo ID, or a text from another source with the title
of exactly one Kanripo work (the seed's 禮書綱目 joins KR1d0086 and KR1d0086-WYG). The oldest
row of a group stays the work. Constraints follow in 0008 (PostgreSQL cannot alter a table
with pending trigger events in the transaction that changed its rows)."""
from django.core.management.color import no_style
from django.db import migrations, models
import django.db.models.deletion


def editions_from_works(apps, schema_editor):
    from reader.editions import work_groups

    Work = apps.get_model("reader", "Work")
    Edition = apps.get_model("reader", "Edition")
    Juan = apps.get_model("reader", "Juan")
    works = list(Work.objects.order_by("id"))
    for w in works:
        Edition.objects.create(id=w.pk, work_id=w.pk, slug=w.slug, label=w.slug if w.kanripo_id else "",
                               kanripo_id=w.kanripo_id, kanripo_edition=w.edition, collection=w.collection)
        Juan.objects.filter(work_id=w.pk).update(edition_id=w.pk)
    by_id = {w.pk: w for w in works}
    for group in work_groups([(w.pk, w.title, w.author, w.kanripo_id) for w in works]):
        keep = by_id[group[0]]
        for other_id in group[1:]:
            other = by_id[other_id]
            Edition.objects.filter(work_id=other_id).update(work_id=keep.pk)
            Juan.objects.filter(work_id=other_id).update(work_id=keep.pk)
            for field in ("kanripo_id", "author", "native_place", "dynasty"):
                if not getattr(keep, field) and getattr(other, field):
                    setattr(keep, field, getattr(other, field))
            other.delete()
        keep.save()
    # Editions were created with explicit ids: move PostgreSQL's sequence past them.
    connection = schema_editor.connection
    sql = connection.ops.sequence_reset_sql(no_style(), [Edition])
    with connection.cursor() as cursor:
        for statement in sql:
            cursor.execute(statement)


def works_from_editions(apps, schema_editor):
    """Backwards: one work row per edition again (ids of editions, which were the old work ids)."""
    Work = apps.get_model("reader", "Work")
    Edition = apps.get_model("reader", "Edition")
    Juan = apps.get_model("reader", "Juan")
    for e in Edition.objects.select_related("work").order_by("id"):
        w = e.work
        if w.pk != e.pk:
            Work.objects.create(id=e.pk, title=w.title, author=w.author, native_place=w.native_place,
                                dynasty=w.dynasty, collection=e.collection, slug=e.slug, kanripo_id=e.kanripo_id,
                                edition=e.kanripo_edition)
        else:
            Work.objects.filter(pk=w.pk).update(slug=e.slug, edition=e.kanripo_edition, kanripo_id=e.kanripo_id)
        Juan.objects.filter(edition_id=e.pk).update(work_id=e.pk)


class Migration(migrations.Migration):

    dependencies = [
        ('reader', '0006_piece_layer'),
    ]

    operations = [
        migrations.CreateModel(
            name='Edition',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slug', models.CharField(max_length=250, unique=True)),
                ('label', models.CharField(blank=True, max_length=100)),
                ('kanripo_id', models.CharField(blank=True, max_length=40)),
                ('kanripo_edition', models.CharField(blank=True, max_length=40)),
                ('collection', models.CharField(blank=True, max_length=100)),
                ('work', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='editions',
                                           to='reader.work')),
            ],
            options={'ordering': ['work', 'id']},
        ),
        migrations.AddField(
            model_name='juan',
            name='edition',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='juans',
                                    to='reader.edition'),
        ),
        migrations.RemoveConstraint(model_name='juan', name='unique_juan_number'),
        migrations.RunPython(editions_from_works, works_from_editions),
    ]
