"""The merge's SQL building blocks: winners per natural key, stamp groups, and the upsert.

Each table goes through the same steps (:func:`upsert`): pick one winning staged row per
natural key and stamp group (the newest ``stamp`` among the rows that state the group), find
the existing row, insert the missing ones, and update existing rows only where the winner is
not older than what is stored and something differs. Because the winner is a pure function
of the stamps, any order of the same files (in one run or several) gives the same database,
and a second load of the same snapshot writes nothing.

SQL here is the common ground of PostgreSQL and SQLite ≥ 3.35 (window functions,
``UPDATE … FROM``); the one difference, the null-safe comparison, is ``distinct()``.
"""

import contextlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection
from django.db.models import NOT_PROVIDED

from catalogue.loader import columns


def distinct(a: str, b: str) -> str:
    op = "IS DISTINCT FROM" if connection.vendor == "postgresql" else "IS NOT"
    return f"{a} {op} {b}"


def execute(sql: str, params=None) -> int:
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def scalar(sql: str, params=None):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        row = cur.fetchone()
        return row[0] if row else None


def rows(sql: str, params=None):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall()


def same(a: str, b: str) -> str:
    """``a = b``, with NULL equal to NULL (a result row that names no paper)."""
    return f"NOT ({distinct(a, b)})"


def json_param() -> str:
    """A placeholder for a JSON text written to a JSON column (jsonb on PostgreSQL)."""
    return "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"


def true() -> str:
    return "TRUE" if connection.vendor == "postgresql" else "1"


def false() -> str:
    return "FALSE" if connection.vendor == "postgresql" else "0"


def next_id(table: str) -> str:
    """SQL: the id ``table``'s own id source gives its next row, a new one at each evaluation.

    So that rows know their id before they are inserted: PostgreSQL's sequence of the column; on
    SQLite, a function counting on from the table's AUTOINCREMENT record (``sqlite_sequence``,
    which an insert of a larger id moves on).
    """
    if connection.vendor == "postgresql":
        return f"nextval(pg_get_serial_sequence('{table}', 'id'))"
    last = scalar(
        f"SELECT MAX(n) FROM (SELECT seq AS n FROM sqlite_sequence WHERE name = '{table}' "
        f"UNION ALL SELECT MAX(id) FROM {table}) x"
    )
    counter = itertools.count((last or 0) + 1)
    function = f"next_{table}_id"
    connection.connection.create_function(function, 0, lambda: next(counter))
    return f"{function}()"


def is_empty(table: str) -> bool:
    return not scalar(f"SELECT COUNT(*) FROM (SELECT 1 FROM {table} LIMIT 1) x")


# SQLite's page caches during a merge, in MB: the database's (which also bounds the memory its
# sorter takes before it writes runs to temporary files) and its temporary tables'. Sized so that
# the merge stays under the reading's peak memory at archive size (bench/README.md, issue 33).
MERGE_CACHE_MB = {"main": 48, "temp": 16}
# PostgreSQL's work_mem during a merge (why: merge_memory).
MERGE_WORK_MEM = "64MB"


@contextlib.contextmanager
def merge_memory() -> Iterator[None]:
    """Working memory for the merge's whole-snapshot sorts, joins and index builds: the merge only.

    PostgreSQL: ``work_mem`` for the load's transaction (the default 4 MB sends a snapshot's sorts
    and hashes to disk). SQLite: the page caches (``MERGE_CACHE_MB``). At the default 2 MB every
    sort of a 576,000-paper merge (window rankings, GROUP BY, DISTINCT, an index made after an
    insert) was written to temporary files in 2 MB runs and merged back (the inserts' index pages
    also stay in memory now; their share of the gain was not measured apart). The serving
    connection gets its sizes back when the merge ends, so pages and the site keep theirs.
    """
    if connection.vendor == "postgresql":
        execute(f"SET LOCAL work_mem = '{MERGE_WORK_MEM}'")
        yield
        return
    before = {schema: scalar(f"PRAGMA {schema}.cache_size") for schema in MERGE_CACHE_MB}
    for schema, mb in MERGE_CACHE_MB.items():
        execute(f"PRAGMA {schema}.cache_size = -{mb * 1024}")  # negative: KiB, not pages
    try:
        yield
    finally:
        # On the driver's connection: Django refuses statements in an atomic block a failed step
        # marked for rollback, and a PRAGMA of the cache is no part of the transaction anyway.
        for schema, size in before.items():
            connection.connection.execute(f"PRAGMA {schema}.cache_size = {int(size)}")


@contextlib.contextmanager
def plain_indexes_built_after(table: str, *, bulk: bool) -> Iterator[None]:
    """On SQLite, for a ``bulk`` insert (a first load's), ``table``'s plain indexes dropped for the
    statements inside and made again after them; unique indexes stay, so duplicates still fail.

    Inserted row by row, each row goes into every index B-tree at a place of its own, through
    SQLite's 2 MB page cache: the paper table's fourteen indexes took about half of a first
    load's paper insert. An index made after the insert is one sort. PostgreSQL's insert did not
    show this cost and is left as it was (bench/README.md, issue 33). The indexes come back
    with the same names and definitions, inside the load's transaction.
    """
    if not bulk or connection.vendor != "sqlite":
        yield
        return
    made = rows(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
        "AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%%' ORDER BY name",
        [table],
    )
    for name, _ in made:
        execute(f'DROP INDEX "{name}"')
    yield
    for _, definition in made:
        execute(definition)


def analyze(table: str) -> None:
    """Let PostgreSQL's planner know what a merge step just wrote to a catalogue table.

    Its statistics are otherwise those of before the load (or of a failed earlier load): a
    join over a table that went from 0 to 500,000 rows was planned as a nested loop (265 s
    where 9 s do). SQLite plans from its indexes and needs no help here.
    """
    if connection.vendor == "postgresql":
        execute(f"ANALYZE {table}")


# Scratch tables (staging, winners, materialised joins) are read by the next few statements
# and dropped: the planner needs their sizes and rough spread, not the 30,000-row sample of
# PostgreSQL's default statistics target (100). At 10 the scratch tables' ANALYZEs of a
# 20,000-paper load take 0.6 s instead of 4.0-4.1 s (bench/README.md, issue 16).
SCRATCH_STATISTICS_TARGET = 10


def analyze_scratch(table: str) -> None:
    """Let the planner know a scratch table's size (both databases plan joins on it)."""
    if connection.vendor != "postgresql":
        execute(f"ANALYZE {table}")
        return
    execute(f"SET default_statistics_target = {SCRATCH_STATISTICS_TARGET}")
    try:
        execute(f"ANALYZE {table}")
    finally:
        execute("RESET default_statistics_target")


def temp_table(name: str, select_sql: str):
    """A temporary table of winners with room for the target row's id and flags."""
    execute(f"DROP TABLE IF EXISTS {name}")
    execute(
        f"CREATE TEMPORARY TABLE {name} AS SELECT q.*, CAST(NULL AS BIGINT) AS target_id, "
        f"0 AS created, 0 AS changed, 0 AS applied FROM ({select_sql}) q"
    )


def materialize(name: str, select_sql: str, index: str | None = None) -> str:
    """A temporary table of ``select_sql`` (indexed on ``index``, analysed); returns its name.

    Joining derived tables lets SQLite fall back to nested scans (quadratic: minutes at
    2,000 papers) and leaves PostgreSQL guessing their sizes; a real, analysed table does not.
    """
    execute(f"DROP TABLE IF EXISTS {name}")
    execute(f"CREATE TEMPORARY TABLE {name} AS {select_sql}")
    if index:
        execute(f"CREATE INDEX {name}_key ON {name} ({index})")
    analyze_scratch(name)
    return name


def index_targets(w: str) -> None:
    """Index a winners table by target id, and let the planner know its size.

    Without this SQLite may drive an ``UPDATE … FROM`` from the target table and scan
    the winners table once per row: quadratic, minutes at 20,000 papers.
    """
    execute(f"CREATE INDEX IF NOT EXISTS {w}_target ON {w} (target_id)")
    analyze_scratch(w)


def winners(source: str, partition: str, columns: str, order: str = "stamp DESC", where: str = "") -> str:
    """SELECT the one row per ``partition`` that ranks first by ``order`` (ties: staging order).

    The ranking reads only the narrow columns it needs and picks rows by their staging
    ``seq``: sorting whole rows (abstracts and all) was the costliest step of a merge.
    """
    condition = f"WHERE {where}" if where else ""
    ranked = (
        f"SELECT seq FROM (SELECT x.seq, ROW_NUMBER() OVER (PARTITION BY {partition} "
        f"ORDER BY {order}, x.seq) AS rn FROM {source} x {condition}) r WHERE rn = 1"
    )
    return f"SELECT {columns} FROM {source} s WHERE s.seq IN ({ranked})"


@dataclass
class Group:
    """Columns that one kind of document states, ordered by their own stamp column."""

    stamp: str  # stamp column, same name in the winners table and the target table
    # target column -> SQL over the winners row ``w`` (and, for updates, the stored row ``t``)
    columns: dict[str, str]
    insert_columns: dict[str, str] = field(default_factory=dict)  # where an insert differs (no ``t``)
    also_set: dict[str, str] = field(default_factory=dict)  # written on update, never compared

    def apply(self, w: str, table: str) -> None:
        """Write this group's columns where the winner is not older than the stored row.

        Rows whose values differ are marked ``changed``; a newer stamp with equal values
        still moves the stored stamp (and provenance) forward, so later comparisons hold.
        """
        newer = f"w.{self.stamp} IS NOT NULL AND w.{self.stamp} >= t.{self.stamp}"
        differs = " OR ".join(distinct(f"t.{col}", expr) for col, expr in self.columns.items())
        execute(
            f"UPDATE {w} AS w SET changed = 1 FROM {table} t "
            f"WHERE t.id = w.target_id AND w.created = 0 AND {newer} AND ({differs})"
        )
        sets = {**self.columns, **self.also_set, self.stamp: f"w.{self.stamp}"}
        execute(
            f"UPDATE {table} AS t SET {', '.join(f'{c} = {e}' for c, e in sets.items())} FROM {w} w "
            f"WHERE t.id = w.target_id AND w.created = 0 "
            f"AND {newer} AND ({differs} OR w.{self.stamp} > t.{self.stamp})"
        )


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0

    def as_dict(self):
        return {k: v for k, v in self.__dict__.items() if v or k != "deleted"}


def upsert(
    w: str,
    table: str,
    keys: dict[str, str],
    groups: list[Group],
    extra_insert: dict | None = None,
    *,
    nullable_keys: tuple[str, ...] = (),
    applied: str | None = None,
) -> Counts:
    """Merge winners table ``w`` into ``table``; ``keys`` maps target key columns to ``w`` columns.

    ``nullable_keys`` are key columns where NULL is a value (NULL matches NULL). ``applied``
    names the group whose winner, where it is newer than what is stored (or the row is new),
    marks the winners row ``applied``: the lists that group owns are then rewritten.
    """
    key_match = " AND ".join(
        same(f"t.{col}", f"{w}.{expr}") if col in nullable_keys else f"t.{col} = {w}.{expr}"
        for col, expr in keys.items()
    )
    execute(f"UPDATE {w} SET target_id = (SELECT t.id FROM {table} t WHERE {key_match})")
    execute(f"UPDATE {w} SET created = 1 WHERE target_id IS NULL")

    insert_cols = {col: f"w.{expr}" for col, expr in keys.items()}
    for group in groups:
        insert_cols[group.stamp] = f"COALESCE(w.{group.stamp}, '')"
        insert_cols.update(group.columns)
        insert_cols.update(group.insert_columns)
    insert_cols.update(extra_insert or {})
    insert_cols.update(_defaults(table, insert_cols))
    created = execute(
        f"INSERT INTO {table} ({', '.join(insert_cols)}) "
        f"SELECT {', '.join(insert_cols.values())} FROM {w} w WHERE w.created = 1"
    )
    execute(f"UPDATE {w} SET target_id = (SELECT t.id FROM {table} t WHERE {key_match}) WHERE created = 1")
    index_targets(w)
    if applied:
        execute(f"UPDATE {w} SET applied = 1 WHERE created = 1 AND {applied} IS NOT NULL")
        execute(
            f"UPDATE {w} AS w SET applied = 1 FROM {table} t "
            f"WHERE t.id = w.target_id AND w.created = 0 AND w.{applied} > t.{applied}"
        )
    for group in groups:
        group.apply(w, table)
    if created:
        analyze(table)
    matched = scalar(f"SELECT COUNT(*) FROM {w} WHERE created = 0")
    updated = scalar(f"SELECT COUNT(*) FROM {w} WHERE changed = 1")
    return Counts(created=created, updated=updated, unchanged=matched - updated)


def stated(table: columns.Table, group: str, **special: str) -> dict[str, str]:
    """The SET list of one stamp group, from the schema: model field -> SQL over the winner ``w``.

    A column the model keeps as non-null text is ``''`` where no document stated it; every
    other column is the winner's value as staged. ``special`` gives the few columns merged
    otherwise (a curator's correction, a document's id), in the group's order.
    """
    model = apps.get_model("catalogue", table.model)
    columns = {}
    for column in table.group(group):
        columns[column.field] = _value(model._meta.get_field(column.field), f"w.{column.name}")
    for name, sql in special.items():
        columns[name] = sql
    return columns


def _defaults(table: str, given) -> dict[str, str]:
    """The model's defaults, as SQL, for the non-null columns an insert does not set (``aliases``)."""
    models = apps.get_app_config("catalogue").get_models(include_auto_created=True)
    model = next((m for m in models if m._meta.db_table == table), None)
    out = {}
    for f in model._meta.concrete_fields if model else ():
        if f.column in given or f.primary_key or f.null or not f.has_default():
            continue
        if f.db_default is not NOT_PROVIDED:
            continue
        default = f.get_default()
        if isinstance(default, list | dict):
            out[f.column] = "'" + json.dumps(default) + "'"
        elif isinstance(default, str):
            out[f.column] = "'" + default.replace("'", "''") + "'"
        elif isinstance(default, bool):
            out[f.column] = true() if default else false()
        elif isinstance(default, int):
            out[f.column] = str(default)
    return out


def _value(target, sql: str) -> str:
    """A staged value as the model field stores it: what a non-null field holds when nothing was stated."""
    if target.null:
        return sql
    kind = target.get_internal_type()
    if kind in ("CharField", "TextField", "URLField"):
        return f"COALESCE({sql}, '')"
    if kind == "JSONField" and target.has_default():
        return f"COALESCE({sql}, '{'[]' if target.default is list else '{}'}')"
    return sql


def doc_id(doc_url_col: str) -> str:
    return f"(SELECT d.id FROM catalogue_sourcedocument d WHERE d.url = {doc_url_col})"
