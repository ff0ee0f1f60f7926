from django.db import migrations

from reader.counting import characters_of


def count_characters(apps, schema_editor):
    """Every juan's ``char_count`` counted again by ``reader.counting`` (a gaiji, a lost ``?`` and
    a description one character each, punctuation and cell marks none), as the import now counts
    it; 0015 counted code points. One pass over the pieces, in juan order."""
    Juan = apps.get_model("reader", "Juan")
    Piece = apps.get_model("reader", "Piece")
    juan_id, texts = None, []
    rows = Piece.objects.order_by("section__juan_id").values_list("section__juan_id", "text")
    for jid, text in rows.iterator(chunk_size=5000):
        if jid != juan_id:
            if juan_id is not None:
                Juan.objects.filter(pk=juan_id).update(char_count=characters_of(texts))
            juan_id, texts = jid, []
        texts.append(text)
    if juan_id is not None:
        Juan.objects.filter(pk=juan_id).update(char_count=characters_of(texts))


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0018_section_bylines"),
    ]

    operations = [
        migrations.RunPython(count_characters, migrations.RunPython.noop),
    ]
