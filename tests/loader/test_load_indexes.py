"""The paper table's indexes through a load: SQLite's first load drops its plain ones for the bulk
insert and makes them again (``loader/merge/sql.plain_indexes_built_after``); whatever happens,
the table ends with the indexes its migrations made."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from catalogue.loader.merge import sql
from tests.conftest import SEEDS, load

pytestmark = pytest.mark.django_db


def _paper_indexes() -> set[tuple[str, str]]:
    """(name, definition) of every index of the paper table, as the database itself reports it."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'catalogue_paper'")
        else:
            cursor.execute(
                "SELECT name, COALESCE(sql, '') FROM sqlite_master "
                "WHERE type = 'index' AND tbl_name = 'catalogue_paper'"
            )
        return set(cursor.fetchall())


def _dropped(queries) -> set[str]:
    """The names of the indexes the captured statements dropped."""
    return {q["sql"].split('"')[1] for q in queries if q["sql"].startswith("DROP INDEX")}


def test_a_first_load_and_a_reload_leave_the_paper_table_its_indexes():
    migrated = _paper_indexes()
    assert len(migrated) >= 10  # the table's read indexes are there to begin with
    with CaptureQueriesContext(connection) as first:
        load(*SEEDS)
    assert _paper_indexes() == migrated
    # Only SQLite's first load takes indexes off: every plain one (eleven today), no unique one.
    plain = {name for name, definition in migrated if definition.startswith("CREATE INDEX")}
    assert _dropped(first.captured_queries) == (plain if connection.vendor == "sqlite" else set())
    with CaptureQueriesContext(connection) as reload:
        load(*SEEDS)
    assert _dropped(reload.captured_queries) == set()  # a catalogue with papers keeps every index
    assert _paper_indexes() == migrated


def _fail_inside_a_bulk_insert(seen: list) -> None:
    with transaction.atomic(), sql.plain_indexes_built_after("catalogue_paper", bulk=True):
        seen.append(_paper_indexes())
        raise RuntimeError("a merge step failed")


def test_indexes_dropped_for_a_bulk_insert_come_back_when_the_load_fails_inside():
    migrated, inside = _paper_indexes(), []
    with pytest.raises(RuntimeError):
        _fail_inside_a_bulk_insert(inside)
    if connection.vendor == "sqlite":
        assert len(inside[0]) < len(migrated)  # they were dropped…
    assert _paper_indexes() == migrated  # …and the rollback gave them back
