"""Every author name once (``AuthorName``), collected from the author places already loaded, with
a trigram index on PostgreSQL for the API's name search (``icontains`` is
``UPPER(name::text) LIKE UPPER('%…%')``, as for titles in 0008). SQLite scans the names."""

from django.db import migrations, models

TRIGRAM = (
    "CREATE INDEX IF NOT EXISTS authorname_trgm ON catalogue_authorname"
    " USING gin ((UPPER(name::text)) gin_trgm_ops)"
)


def collect(apps, schema_editor):
    # A frozen copy of what catalogue.counters did when this was written: it may change; this must not.
    from catalogue.migrations._frozen_counts import collect_author_names

    with schema_editor.connection.cursor() as cursor:
        collect_author_names(cursor)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(TRIGRAM)


def uncollect(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS authorname_trgm")


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0016_task_counts")]

    operations = [
        migrations.CreateModel(
            name="AuthorName",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=500, unique=True)),
            ],
            options={"ordering": ["name"]},
        ),
        migrations.RunPython(collect, uncollect),
    ]
