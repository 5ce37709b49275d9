"""The merge's working memory (``loader/merge/sql.merge_memory``): raised for the merge's statements
and given back when it ends, so that the connection that serves pages keeps its own sizes."""

import pytest
from django.db import connection, transaction

from catalogue.loader.merge import sql
from tests.conftest import SEEDS, load

# Each load commits as an operator's does: PostgreSQL's SET LOCAL ends with the load's transaction,
# not with a test's transaction around it.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

MERGE_SQLITE = tuple(-sql.MERGE_CACHE_MB[schema] * 1024 for schema in ("main", "temp"))


def _working_memory() -> tuple:
    """PostgreSQL's work_mem; SQLite's page cache sizes of the database and of its temporary tables
    (the first also bounds its sorter), read on the driver's own connection so that they can be read
    while Django is running a statement."""
    raw = connection.connection
    if connection.vendor == "postgresql":
        with raw.cursor() as cursor:
            cursor.execute("SHOW work_mem")
            return (cursor.fetchone()[0],)
    return tuple(raw.execute(f"PRAGMA {schema}.cache_size").fetchone()[0] for schema in ("main", "temp"))


def test_the_merge_runs_with_its_working_memory_and_gives_it_back():
    load(*SEEDS[:1])  # the connection is open and its temporary schema made
    before, seen = _working_memory(), []

    def watch(execute, statement, params, many, context):
        if statement.startswith("INSERT INTO catalogue_paper "):
            seen.append(_working_memory())
        return execute(statement, params, many, context)

    with connection.execute_wrapper(watch):
        load(*SEEDS)
    merging = (sql.MERGE_WORK_MEM,) if connection.vendor == "postgresql" else MERGE_SQLITE
    assert seen  # the paper insert ran…
    assert set(seen) == {merging}  # …with the merge's memory
    assert before != seen[0]
    assert _working_memory() == before


def _fail_inside_a_merge(seen: list, *, marked_for_rollback: bool) -> None:
    with transaction.atomic(), sql.merge_memory():
        seen.append(_working_memory())
        if marked_for_rollback:  # as a failed inner step leaves it: Django then refuses statements
            transaction.set_rollback(True)
        raise RuntimeError("a merge step failed")


@pytest.mark.parametrize("marked_for_rollback", [False, True])
def test_a_merge_that_fails_gives_the_memory_back(marked_for_rollback):
    load(*SEEDS[:1])
    before, inside = _working_memory(), []
    with pytest.raises(RuntimeError, match="a merge step failed"):
        _fail_inside_a_merge(inside, marked_for_rollback=marked_for_rollback)
    assert inside[0] != before
    assert _working_memory() == before
