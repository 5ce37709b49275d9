"""The Curators group: the permissions curation needs, and nothing else.

Curators view every catalogue table and correct what the admin lets them correct (paper
titles, sample statuses, and withdrawing a correction, which is a change of it). They add
and delete nothing: harvested rows come and go with snapshots. No permission of the auth
app (no user management), nor of the admin log, sessions or login-attempt records.

The list is written out here, not imported, so that this migration keeps meaning what it
meant when it ran; a model added later needs its own migration to join the group.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CURATORS = "Curators"
VIEWED = [
    "loadrun",
    "sourcedocument",
    "paper",
    "paperslug",
    "author",
    "task",
    "method",
    "dataset",
    "leaderboard",
    "result",
    "repo",
    "codelink",
    "harvestedrepo",
    "codeentry",
    "codebody",
    "sample",
    "correction",
]
CHANGED = ["paper", "sample", "correction"]


def create_curators_group(apps, schema_editor):
    # Permissions are normally made after the whole migrate run; make catalogue's now.
    app_config = apps.get_app_config("catalogue")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0, using=schema_editor.connection.alias)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    codenames = [f"view_{m}" for m in VIEWED] + [f"change_{m}" for m in CHANGED]
    permissions = list(
        Permission.objects.filter(content_type__app_label="catalogue", codename__in=codenames)
    )
    missing = set(codenames) - {p.codename for p in permissions}
    if missing:
        raise RuntimeError(f"permissions not found: {sorted(missing)}")
    group, _ = Group.objects.get_or_create(name=CURATORS)
    group.permissions.set(permissions)


def remove_curators_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=CURATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0004_curation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_curators_group, remove_curators_group)]
