"""Trigram indexes for the dataset list's filters on PostgreSQL (``/datasets/`` and the API's).

``q`` is ``UPPER(name::text) LIKE UPPER('%…%')`` (and full name, and slug), a modality or a
language the same over the JSON list's text: no B-tree helps, so every dataset was read for
each (15,000 at archive size: 20-40 ms). pg_trgm's GIN indexes on the same expressions serve
them (0008 created the extension). SQLite: nothing to do.
"""

from django.db import migrations

COLUMNS = ("name", "full_name", "slug", "modalities", "languages")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for column in COLUMNS:
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS dataset_{column}_trgm ON catalogue_dataset"
                f" USING gin ((UPPER({column}::text)) gin_trgm_ops)"
            )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for column in COLUMNS:
            schema_editor.execute(f"DROP INDEX IF EXISTS dataset_{column}_trgm")


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0018_dataset_by_papers_index")]
    operations = [migrations.RunPython(forwards, backwards)]
