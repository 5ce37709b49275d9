"""Temporary staging tables, one per kind of row, filled in bulk as documents are read.

PostgreSQL gets typed tables filled with ``COPY``; SQLite gets the same tables filled
with ``executemany``. Values are written in the form Django itself stores, so that the
set-based merge (``merge.py``) can compare staged and stored values directly.
"""

import datetime as dt
from operator import itemgetter

from django.db import connection

# Column types: t text, i integer, b boolean, d date, ts timestamp, j JSON.
TABLES: dict[str, list[tuple[str, str]]] = {
    # What happened to each file of the load (LoadRun.files is built from it in SQL).
    "file": [("path", "t"), ("sha256", "t"), ("url", "t"), ("status", "t"), ("error", "t")],
    "document": [
        ("url", "t"),
        ("kind", "t"),
        ("sha256", "t"),
        ("file_name", "t"),
        ("read_at", "ts"),
        ("source", "j"),
        ("about", "j"),
        ("stamp", "t"),
    ],
    "paper": [
        ("pkey", "t"),
        ("arxiv_id", "t"),
        ("slug", "t"),
        ("view", "t"),
        ("stamp", "t"),
        ("title", "t"),
        ("title_source", "t"),
        ("date", "d"),
        ("month", "t"),
        ("proceeding", "t"),
        ("abstract", "t"),
        ("url_abs", "t"),
        ("url_pdf", "t"),
        ("source", "j"),
        ("syntology_read_at", "ts"),
        ("syntology_claim", "t"),
        ("syntology_links", "j"),
        ("arxiv_metadata", "j"),
        ("syntology_extracted_results", "j"),
        ("doc_url", "t"),
    ],
    "author": [("pkey", "t"), ("stamp", "t"), ("position", "i"), ("name", "t")],
    "task": [("slug", "t"), ("name", "t"), ("stamp", "t")],
    "paper_task": [("pkey", "t"), ("stamp", "t"), ("slug", "t")],
    "method": [("slug", "t"), ("name", "t"), ("full_name", "t"), ("stamp", "t")],
    "paper_method": [("pkey", "t"), ("stamp", "t"), ("slug", "t"), ("introduced", "b")],
    "dataset": [("name", "t")],
    "paper_dataset": [("pkey", "t"), ("stamp", "t"), ("name", "t")],
    "leaderboard": [("task_slug", "t"), ("dataset", "t"), ("slug", "t"), ("stamp", "t")],
    "result": [
        ("pkey", "t"),
        ("task_slug", "t"),
        ("dataset", "t"),
        ("model", "t"),
        ("rank_in_archive_order", "i"),
        ("of", "i"),
        ("metrics", "j"),
        ("uses_additional_data", "b"),
        ("stamp", "t"),
        ("doc_url", "t"),
    ],
    "repo": [
        ("key", "t"),
        ("host", "t"),
        ("owner", "t"),
        ("name", "t"),
        ("reach_status", "t"),
        ("spdx", "t"),
        ("stamp", "t"),
    ],
    "code_link": [
        ("pkey", "t"),
        ("repo_key", "t"),
        ("sub_path", "t"),
        ("repo_url", "t"),
        ("is_official", "b"),
        ("mentioned_in_paper", "b"),
        ("mentioned_in_github", "b"),
        ("framework", "t"),
        ("stamp", "t"),
        ("doc_url", "t"),
    ],
    "harvested_repo": [
        ("pkey", "t"),
        ("repo_key", "t"),
        ("sub_path", "t"),
        ("provenance", "t"),
        ("stamp", "t"),
        ("doc_url", "t"),
    ],
    "entry": [("name", "t"), ("slug", "t"), ("claim", "t"), ("stamp", "t"), ("doc_url", "t")],
    "body": [("sha", "t")],
    "sample": [
        ("pkey", "t"),
        ("sha", "t"),
        ("entry_name", "t"),
        ("repo_key", "t"),
        ("path", "t"),
        ("file_url", "t"),
        ("status", "t"),
        ("verification_level", "i"),
        ("contract_check", "t"),
        ("metamorphic_tier", "t"),
        ("behaviour_fingerprint", "b"),
        ("licence", "t"),
        ("inline_ok", "b"),
        ("view", "t"),
        ("repo_kind", "t"),
        ("link_basis", "t"),
        ("language", "t"),
        ("stamp", "t"),
        ("doc_url", "t"),
    ],
}

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


_GETTERS = {name: itemgetter(*(col for col, _ in cols)) for name, cols in TABLES.items()}
# SQLite needs dates and times as Django writes them; other columns pass through.
_CONVERSIONS = {
    name: [(i, kind) for i, (_, kind) in enumerate(cols) if kind in ("d", "ts")]
    for name, cols in TABLES.items()
}


def as_tuples(rows: dict[str, list[dict]], vendor: str) -> dict[str, list[tuple]]:
    """A document's rows as tuples in staging-column order, ready for COPY / executemany.

    Runs in the reading workers, so that only compact tuples cross the process boundary.
    """
    return {name: [_tuple(name, item, vendor) for item in items] for name, items in rows.items() if items}


def _tuple(name: str, item: dict, vendor: str) -> tuple:
    columns = TABLES[name]
    try:
        values = _GETTERS[name](item)
    except KeyError:  # a view that leaves columns out (a code-entry's view of a paper)
        values = tuple(item.get(col) for col, _ in columns)
    if len(columns) == 1:
        values = (values,)
    if vendor != "postgresql" and _CONVERSIONS[name]:
        values = list(values)
        for i, kind in _CONVERSIONS[name]:
            values[i] = _sqlite_value(values[i], kind)
        values = tuple(values)
    return values


class Staging:
    """Creates the staging tables and buffers rows into them."""

    def __init__(self):
        self.vendor = connection.vendor
        self.buffers: dict[str, list[tuple]] = {name: [] for name in TABLES}
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)

    def create(self):
        types = _PG_TYPES if self.vendor == "postgresql" else _SQLITE_TYPES
        with connection.cursor() as cur:
            for name, columns in TABLES.items():
                cols = ", ".join(f"{col} {types[kind]}" for col, kind in columns)
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
            for name in TABLES:  # the merge's plans depend on the planner knowing these sizes
                cur.execute(f"ANALYZE stg_{name}")

    def _flush(self, name):
        rows = self.buffers[name]
        if not rows:
            return
        columns = [col for col, _ in TABLES[name]]
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

    def drop(self):
        with connection.cursor() as cur:
            for name in TABLES:
                cur.execute(f"DROP TABLE IF EXISTS stg_{name}")
