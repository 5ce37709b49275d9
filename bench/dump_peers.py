"""The floors and limits the archive-dump load is measured against, each run as its own process.

    .venv/bin/python bench/dump_peers.py records DIR          # read every record (ijson / pyarrow)
    .venv/bin/python bench/dump_peers.py rows DIR             # … and turn each into staged rows
    .venv/bin/python bench/dump_peers.py pg-copy DIR URL      # … and COPY them into plain tables
    .venv/bin/python bench/dump_peers.py sqlite-raw DIR PATH  # … or executemany them into SQLite
    .venv/bin/python bench/dump_peers.py sqlite-utils DIR PATH  # … or insert_all them (the Datasette way)

``records`` is parsing alone; ``rows`` is parsing and our own checks (``catalogue.loader.archive``)
with no database; the two writers are the raw limit: the same rows into tables with the same
columns and no key, index or constraint, in one transaction, no merge. ``sqlite-utils`` is what a
Datasette user would write the same rows with: ``insert_all`` of dicts per table, tables and types
inferred, its own batches and commits. Each prints one JSON line of counts last.
"""

import json
import os
import sqlite3
import sys
import tempfile
from enum import Enum
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _django() -> None:
    # The readers import the models' vocabularies; no database is touched.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/dump-peers-unused.sqlite3")
    import django

    django.setup()


def dumps(folder: str):
    from catalogue.loader import archive, documents

    snapshot = documents.discover([folder])
    return [archive.open_dump(snapshot.root, name) for name in snapshot.dumps]


def records(folder: str) -> dict:
    from catalogue.loader import archive

    return {"records": sum(1 for dump in dumps(folder) for _ in archive.records(dump))}


def rows(folder: str, write=None) -> dict:
    from catalogue.loader import archive

    counts = {"records": 0, "rows": 0}
    for dump in dumps(folder):
        for parsed in archive.read(dump, archive.checksum(dump)):
            for table, items in parsed.rows.items():
                counts["rows"] += len(items)
                if write and items:
                    write(table, items)
    return counts


def pg_copy(folder: str, url: str) -> dict:
    import psycopg

    from catalogue.loader.schema import TABLES

    types = {"t": "text", "i": "bigint", "b": "boolean", "d": "date", "ts": "timestamptz", "j": "jsonb"}
    with psycopg.connect(url) as conn:
        for name, table in TABLES.items():
            cols = ", ".join(f"{c.name} {types[c.type]}" for c in table.columns)
            conn.execute(f"CREATE TABLE raw_{name} ({cols})")

        def write(table, items):
            with conn.cursor().copy(
                f"COPY raw_{table} ({', '.join(TABLES[table].names)}) FROM STDIN"
            ) as copy:
                for item in items:
                    copy.write_row(item)

        counts = rows(folder, write)
    return counts


def sqlite_raw(folder: str, path: str) -> dict:
    from catalogue.loader.schema import TABLES
    from catalogue.loader.staging import as_tuples

    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    for name, table in TABLES.items():
        conn.execute(f"CREATE TABLE raw_{name} ({', '.join(table.names)})")

    def write(table, items):
        marks = ", ".join("?" * len(TABLES[table].names))
        conn.executemany(
            f"INSERT INTO raw_{table} VALUES ({marks})", as_tuples({table: items}, "sqlite")[table]
        )

    counts = rows(folder, write)
    conn.commit()
    return counts


def sqlite_utils_insert(folder: str, path: str) -> dict:
    from sqlite_utils import Database

    from catalogue.loader.schema import TABLES
    from catalogue.loader.staging import as_tuples

    db = Database(path)

    def plain(value):  # sqlite-utils infers column types from Python types: no enum subclasses
        return value.value if isinstance(value, Enum) else value

    def write(table, items):
        names = TABLES[table].names
        db[f"raw_{table}"].insert_all(
            {name: plain(v) for name, v in zip(names, row, strict=True)}
            for row in as_tuples({table: items}, "sqlite")[table]
        )

    counts = rows(folder, write)
    db.close()
    return counts


def main() -> None:
    _django()
    verb, folder, *rest = sys.argv[1:]
    work = {
        "records": records,
        "rows": rows,
        "pg-copy": pg_copy,
        "sqlite-raw": sqlite_raw,
        "sqlite-utils": sqlite_utils_insert,
    }[verb]
    print(json.dumps(work(folder, *rest)))


if __name__ == "__main__":
    main()
