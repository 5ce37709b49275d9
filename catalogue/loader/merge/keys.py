"""Foreign keys checked once by the merge, instead of once per row at COMMIT (PostgreSQL).

Django declares every foreign key ``DEFERRABLE INITIALLY DEFERRED``: PostgreSQL queues one
trigger per row a load writes and runs them all at COMMIT, ~104–135 s of a ~880 s load of
the whole archive, for keys the merge has already resolved by join. So a load whose database
role may set ``session_replication_role`` (a superuser, or from PostgreSQL 15 a role granted
``SET ON PARAMETER session_replication_role``) sets it to ``replica`` for its own transaction,
which turns those triggers off, and then, as the transaction's last statements, checks every
foreign key of a table it changed with one anti-join each (``check``). A role that may not
keeps the per-row checks. Either way a dangling key fails the load and nothing it wrote stands.

Other sessions keep their triggers: a curator's correction naming a row the load deletes
waits for the load's row lock and then fails its own check, as it would without this.
"""

import contextlib

from django.db import IntegrityError, connection

from catalogue.loader.merge.sql import rows, scalar

# Every foreign key of the schema: (child table, column, parent table, column). Django makes
# only single-column keys; a schema with any other kind keeps the per-row checks.
_KEYS = """
SELECT child.relname, child_column.attname, parent.relname, parent_column.attname
FROM pg_constraint k
JOIN pg_class child ON child.oid = k.conrelid
JOIN pg_namespace ns ON ns.oid = child.relnamespace AND ns.nspname = current_schema()
JOIN pg_attribute child_column
  ON child_column.attrelid = k.conrelid AND child_column.attnum = k.conkey[1]
JOIN pg_class parent ON parent.oid = k.confrelid
JOIN pg_attribute parent_column
  ON parent_column.attrelid = k.confrelid AND parent_column.attnum = k.confkey[1]
WHERE k.contype = 'f'
ORDER BY 1, 2
"""

# Tables this transaction has written to: rows inserted or updated (a key may now dangle), rows
# deleted (a key to them may). Ids are never updated. PostgreSQL 15 also counts here what earlier
# transactions of this session did that its statistics have not taken in yet: more keys checked
# than needed at times, never fewer.
_WRITTEN = """
SELECT relname, n_tup_ins + n_tup_upd > 0, n_tup_del > 0
FROM pg_stat_xact_user_tables WHERE schemaname = current_schema()
"""


@contextlib.contextmanager
def checked_once():
    """Within a load's transaction: the per-row key triggers off if the role may, and every key
    the load could have broken checked once at the end (``check``), then the triggers back on."""
    before = _skip_row_checks()
    if before is None:
        yield
        return
    yield
    check()
    with connection.cursor() as cur:
        # A failure above needs no reset: the setting is rolled back with the transaction (or savepoint).
        cur.execute("SELECT set_config('session_replication_role', %s, true)", [before])


def _skip_row_checks() -> str | None:
    """Turn off the per-row key triggers for this transaction if the role may; the setting it
    had before, or None if they stay on."""
    if connection.vendor != "postgresql":
        return None  # SQLite counts deferred violations as it goes: nothing to gain
    if scalar("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND cardinality(conkey) > 1"):
        return None
    may = scalar("SELECT current_setting('is_superuser') = 'on'")
    if not may and connection.pg_version >= 150000:
        may = scalar("SELECT has_parameter_privilege('session_replication_role', 'SET')")
    if not may:
        return None
    before = scalar("SELECT current_setting('session_replication_role')")
    with connection.cursor() as cur:
        cur.execute("SET LOCAL session_replication_role = replica")
    return before


def check() -> None:
    """Every foreign key whose table gained or changed rows, or whose parent lost some, checked
    by one anti-join; the first dangling key raises ``IntegrityError`` naming table, column and value."""
    written = rows(_WRITTEN)
    grew = {table for table, inserted_or_updated, _ in written if inserted_or_updated}
    shrank = {table for table, _, deleted in written if deleted}
    for child, column, parent, parent_column in rows(_KEYS):
        if child not in grew and parent not in shrank:
            continue
        dangling = rows(
            f'SELECT c."{column}" FROM "{child}" c WHERE c."{column}" IS NOT NULL AND NOT EXISTS '
            f'(SELECT 1 FROM "{parent}" p WHERE p."{parent_column}" = c."{column}") LIMIT 1'
        )
        if dangling:
            raise IntegrityError(
                f'insert or update on table "{child}" violates foreign key: '
                f"{column} = {dangling[0][0]} names no row of {parent} ({parent_column})"
            )
