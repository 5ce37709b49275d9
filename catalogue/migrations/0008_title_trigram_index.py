"""A trigram index for the API's ``title=`` filter (case-insensitive "contains").

``icontains`` is ``UPPER(title::text) LIKE UPPER('%…%')``: no B-tree helps, so every paper was
read (2.1 s at 500,000 papers). pg_trgm's GIN index on the same expression serves it. pg_trgm
is a trusted extension (PostgreSQL 13+): the database's owner may create it. SQLite: nothing
to do (its ``LIKE`` scan is what it has).
"""

from django.db import migrations

CREATE = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS paper_title_trgm ON catalogue_paper"
    " USING gin ((UPPER(title::text)) gin_trgm_ops)",
]
DROP = ["DROP INDEX IF EXISTS paper_title_trgm"]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in CREATE:
            schema_editor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in DROP:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0007_order_indexes")]
    operations = [migrations.RunPython(forwards, backwards)]
