"""Issue 14, after 0007 filled ``Juan.edition``: it becomes required, juan numbers are unique
per edition, and the Kanripo edition name moves from the work to its editions."""
from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('reader', '0007_editions'),
    ]

    operations = [
        migrations.AlterField(
            model_name='juan',
            name='edition',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='juans',
                                    to='reader.edition'),
        ),
        migrations.AddConstraint(
            model_name='juan',
            constraint=models.UniqueConstraint(fields=('edition', 'number'), name='unique_juan_number_in_edition'),
        ),
        migrations.AlterModelOptions(name='juan', options={'ordering': ['edition', 'number']}),
        migrations.RemoveField(model_name='work', name='edition'),
    ]
