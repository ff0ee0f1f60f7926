"""A juan's label holds up to 300 characters: the front matter (卷首) of 春秋左傳注疏 (Kanripo
KR1e0004_000) is labelled by its ten titles joined, 86 characters, which PostgreSQL refused in a
varchar(50) (SQLite does not check the length, so the import passed there)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0015_catalogue"),
    ]

    operations = [
        migrations.AlterField(
            model_name="juan",
            name="label",
            field=models.CharField(blank=True, max_length=300),
        ),
    ]
