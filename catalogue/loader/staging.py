"""Temporary staging tables, one per kind of row, filled in bulk as documents are read.

The tables and their columns are the document schema's (``schema.TABLES``). PostgreSQL gets
typed tables filled with ``COPY``; SQLite gets the same tables filled with ``executemany``.
Values are written in the form Django itself stores, so that the set-based merge
(``merge.py``) can compare staged and stored values directly.
"""

import contextlib
import datetime as dt

from django.db import DatabaseError, connection

from catalogue.loader.columns import DATE, TIMESTAMP
from catalogue.loader.merge.sql import analyze_scratch
from catalogue.loader.schema import TABLES
from catalogue.models.vocabulary import LoadFileStatus

_PG_TYPES = {"t": "text", "i": "bigint", "b": "boolean", "d": "date", "ts": "timestamptz", "j": "jsonb"}
_SQLITE_TYPES = {"t": "TEXT", "i": "INTEGER", "b": "INTEGER", "d": "TEXT", "ts": "TEXT", "j": "TEXT"}
FLUSH_ROWS = 5000


def _sqlite_value(value, kind):
    # Django's SQLite backend stores aware datetimes as naive UTC text and dates as ISO.
    if value is None:
        return None
    if kind == "ts":
        return str(value.astimezone(dt.UTC).replace(tzinfo=None))
    if kind == "d":
        return value.isoformat()
    return value


# SQLite needs dates and times as Django writes them; other columns pass through.
_CONVERSIONS = {
    name: [(i, column.type) for i, column in enumerate(table.columns) if column.type in (DATE, TIMESTAMP)]
    for name, table in TABLES.items()
}


def as_tuples(rows: dict[str, list[tuple]], vendor: str) -> dict[str, list[tuple]]:
    """A document's rows (``columns.Table.row`` tuples) as the staging tables take them.

    Runs in the reading workers, so that only compact tuples cross the process boundary.
    """
    if vendor == "postgresql":
        return {name: items for name, items in rows.items() if items}
    return {name: [_for_sqlite(name, item) for item in items] for name, items in rows.items() if items}


def _for_sqlite(name: str, row: tuple) -> tuple:
    if not _CONVERSIONS[name]:
        return row
    values = list(row)
    for i, kind in _CONVERSIONS[name]:
        values[i] = _sqlite_value(values[i], kind)
    return tuple(values)


class Staging:
    """Creates the staging tables and buffers rows into them."""

    def __init__(self):
        self.vendor = connection.vendor
        self.buffers: dict[str, list[tuple]] = {name: [] for name in TABLES}
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)

    def create(self):
        types = _PG_TYPES if self.vendor == "postgresql" else _SQLITE_TYPES
        with connection.cursor() as cur:
            for name, table in TABLES.items():
                cols = ", ".join(f"{column.name} {types[column.type]}" for column in table.columns)
                # ``seq``: staging order, the merge's tie-breaker and narrow row handle.
                seq = (
                    "seq bigint GENERATED ALWAYS AS IDENTITY"
                    if self.vendor == "postgresql"
                    else ("seq INTEGER PRIMARY KEY")
                )
                cols = f"{seq}, {cols}"
                cur.execute(f"DROP TABLE IF EXISTS stg_{name}")
                cur.execute(f"CREATE TEMPORARY TABLE stg_{name} ({cols})")

    def add(self, tuples: dict[str, list[tuple]]):
        """Buffer one document's rows (from :func:`as_tuples`), writing full buffers out."""
        for name, items in tuples.items():
            buffer = self.buffers[name]
            buffer.extend(items)
            if len(buffer) >= FLUSH_ROWS:
                self._flush(name)

    def flush(self):
        for name in TABLES:
            self._flush(name)
        with connection.cursor() as cur:
            # Looked up row by row in the merge (resolving papers by any slug they had).
            cur.execute("CREATE INDEX stg_paper_pkey ON stg_paper (pkey)")
            cur.execute("CREATE INDEX stg_paper_slug ON stg_paper (slug)")
            # The files a warning or a clash names, looked up by the documents' urls.
            cur.execute("CREATE INDEX stg_document_url ON stg_document (url)")
        for name in TABLES:  # the merge's plans depend on the planner knowing these sizes
            analyze_scratch(f"stg_{name}")

    def _flush(self, name):
        rows = self.buffers[name]
        if not rows:
            return
        columns = TABLES[name].names
        with connection.cursor() as cur:
            raw = cur.cursor  # the driver's own cursor: COPY / executemany without Django's wrapping
            if self.vendor == "postgresql":
                with raw.copy(f"COPY stg_{name} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                marks = ", ".join("?" * len(columns))
                raw.executemany(f"INSERT INTO stg_{name} ({', '.join(columns)}) VALUES ({marks})", rows)
        self.counts[name] += len(rows)
        rows.clear()

    def discard(self, stamp: str) -> None:
        """Take out every staged row of the document version ``stamp`` (rows ranked by a prefix too)."""
        for name, table in TABLES.items():
            self._flush(name)
            if "stamp" in table.names:
                with connection.cursor() as cur:
                    cur.execute(f"DELETE FROM stg_{name} WHERE stamp LIKE %s", ["%" + stamp])

    def mark_skipped(self, units, clashes) -> None:
        """A document skipped whole for a clash is a skipped file in the load's record."""
        documents = sorted({url for url, rec in units if not rec})
        if not documents:
            return
        self._flush("file")
        reasons = {url: c.message for c in clashes for url, rec in c.units if not rec}
        with connection.cursor() as cur:
            for url in documents:
                cur.execute(
                    "UPDATE stg_file SET status = %s, error = %s WHERE url = %s",
                    [LoadFileStatus.SKIPPED, reasons.get(url, ""), url],
                )

    def flush_files(self):
        """Write out the buffered file outcomes (a stopped load's record reads them)."""
        self._flush("file")

    def drop(self):
        with connection.cursor() as cur:
            for name in TABLES:
                cur.execute(f"DROP TABLE IF EXISTS stg_{name}")

    def drop_quietly(self):
        """``drop``, unless the connection is gone (then so are the tables): never hides a load's error."""
        with contextlib.suppress(DatabaseError):
            self.drop()
