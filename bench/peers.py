"""The loads we compare ours with, each run as its own process by load_bench.py.

    .venv/bin/python bench/peers.py parse        SNAPSHOT_DIR
    .venv/bin/python bench/peers.py sqlite-raw   SNAPSHOT_DIR DB_PATH
    .venv/bin/python bench/peers.py sqlite-utils SNAPSHOT_DIR DB_PATH
    .venv/bin/python bench/peers.py pg-copy      SNAPSHOT_DIR POSTGRES_URL

Why separate processes: peak RSS must be the peer's own, not the harness's. Every peer
writes the rows bench/flatten.py yields (the same rows, the same count), and prints one
JSON line ``{"rows": N, "documents": M}``.

- ``parse``: read + json + flatten, no database: the floor no loader can go below.
- ``sqlite-raw`` / ``pg-copy``: the limit of a database load: plain tables with the same
  columns, no keys or indexes, one transaction, ``executemany`` / psycopg 3 ``COPY``.
- ``sqlite-utils``: what a user would reach for otherwise (the Datasette way):
  ``Database(path)[table].insert_all(dict_rows, pk=...)`` per table batch, tables and
  types inferred by sqlite-utils, its default journal and commits.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flatten import COLUMNS, TABLES, batched_by_table, flatten, read_documents


class Counted:
    """Wraps the document stream to count documents on the way through."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.documents = 0

    def __iter__(self):
        for doc in read_documents(self.folder):
            self.documents += 1
            yield doc


def plain_ddl(table: str, pg: bool) -> str:
    types = {"boolean": "boolean" if pg else "integer"}
    cols = ", ".join(f"{name} {types.get(kind, kind)}" for name, kind in TABLES[table][0])
    return f"CREATE TABLE {table} ({cols})"


def parse_only(docs: Counted) -> int:
    return sum(1 for _ in flatten(docs))


def sqlite_raw(docs: Counted, db_path: str) -> int:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")  # as config/settings.py sets for our loader
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("BEGIN")
    for table in TABLES:
        conn.execute(plain_ddl(table, pg=False))
    inserts = {t: f"INSERT INTO {t} VALUES ({', '.join('?' * len(COLUMNS[t]))})" for t in TABLES}
    rows = 0
    for table, batch in batched_by_table(flatten(docs)):
        conn.executemany(inserts[table], batch)
        rows += len(batch)
    conn.execute("COMMIT")
    conn.close()
    return rows


def sqlite_utils_insert(docs: Counted, db_path: str) -> int:
    from sqlite_utils import Database

    db = Database(db_path)
    rows = 0
    for table, batch in batched_by_table(flatten(docs)):
        columns, pk = COLUMNS[table], TABLES[table][1]
        db[table].insert_all(
            (dict(zip(columns, row, strict=True)) for row in batch),
            pk=pk[0] if len(pk) == 1 else pk,
        )
        rows += len(batch)
    db.close()
    return rows


def pg_copy(docs: Counted, url: str) -> int:
    import psycopg

    rows = 0
    with psycopg.connect(url) as conn, conn.cursor() as cur:
        for table in TABLES:
            cur.execute(plain_ddl(table, pg=True))
        for table, batch in batched_by_table(flatten(docs)):
            with cur.copy(f"COPY {table} ({', '.join(COLUMNS[table])}) FROM STDIN") as copy:
                for row in batch:
                    copy.write_row(row)
            rows += len(batch)
    return rows  # the with-block commits once, at the end


PEERS = {
    "parse": parse_only,
    "sqlite-raw": sqlite_raw,
    "sqlite-utils": sqlite_utils_insert,
    "pg-copy": pg_copy,
}


def main(argv: list[str]) -> None:
    peer, folder, *target = argv
    docs = Counted(Path(folder))
    rows = PEERS[peer](docs, *target)
    print(json.dumps({"rows": rows, "documents": docs.documents}))


if __name__ == "__main__":
    main(sys.argv[1:])
