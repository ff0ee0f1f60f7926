"""The groups of the roles (corrections/roles.py): contributor and editor."""
from django.db import migrations

ROLES = ("contributor", "editor")


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES, user__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("corrections", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_groups, remove_groups)]
