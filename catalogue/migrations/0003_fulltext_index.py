"""The full-text index behind SearchDocument, in each database's own engine.

PostgreSQL: a stored, weighted tsvector column (title A, authors B, body C) with a GIN
index. SQLite: an FTS5 table over the same rows (external content), kept in step by
triggers. ``catalogue.search`` queries whichever is there.
"""

from django.db import migrations

POSTGRES = [
    """ALTER TABLE catalogue_searchdocument ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(authors, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(body, '')), 'C')) STORED""",
    "CREATE INDEX catalogue_searchdocument_search ON catalogue_searchdocument USING GIN (search)",
]
POSTGRES_UNDO = [
    "DROP INDEX IF EXISTS catalogue_searchdocument_search",
    "ALTER TABLE catalogue_searchdocument DROP COLUMN IF EXISTS search",
]

SQLITE = [
    """CREATE VIRTUAL TABLE catalogue_searchdocument_fts USING fts5(
        title, authors, body, content='catalogue_searchdocument', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2')""",
    """CREATE TRIGGER catalogue_searchdocument_ai AFTER INSERT ON catalogue_searchdocument BEGIN
        INSERT INTO catalogue_searchdocument_fts(rowid, title, authors, body)
        VALUES (new.id, new.title, new.authors, new.body);
    END""",
    """CREATE TRIGGER catalogue_searchdocument_ad AFTER DELETE ON catalogue_searchdocument BEGIN
        INSERT INTO catalogue_searchdocument_fts(catalogue_searchdocument_fts, rowid, title, authors, body)
        VALUES ('delete', old.id, old.title, old.authors, old.body);
    END""",
    """CREATE TRIGGER catalogue_searchdocument_au AFTER UPDATE ON catalogue_searchdocument BEGIN
        INSERT INTO catalogue_searchdocument_fts(catalogue_searchdocument_fts, rowid, title, authors, body)
        VALUES ('delete', old.id, old.title, old.authors, old.body);
        INSERT INTO catalogue_searchdocument_fts(rowid, title, authors, body)
        VALUES (new.id, new.title, new.authors, new.body);
    END""",
]
SQLITE_UNDO = [
    "DROP TRIGGER IF EXISTS catalogue_searchdocument_au",
    "DROP TRIGGER IF EXISTS catalogue_searchdocument_ad",
    "DROP TRIGGER IF EXISTS catalogue_searchdocument_ai",
    "DROP TABLE IF EXISTS catalogue_searchdocument_fts",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0002_paper_month_searchdocument")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_UNDO, "sqlite": SQLITE_UNDO}),
        )
    ]
