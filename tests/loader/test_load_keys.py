"""A load's foreign keys: on PostgreSQL checked once by the merge when the database role may
turn the per-row triggers off, per row at COMMIT otherwise; a dangling key fails the load
either way, on both databases, and leaves the catalogue as it was."""

import pytest
from django.core.management.base import CommandError
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from catalogue import models as m
from catalogue.loader.merge import papers as merge_papers
from catalogue.loader.merge.sql import execute
from tests.conftest import SEEDS, load

# Outside the test's own transaction: per-row key checks only run at a real COMMIT.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

NO_PAPER = 987_654_321
DANGLING_AUTHOR = "INSERT INTO catalogue_author (paper_id, position, name) VALUES (%s, 0, 'Nobody')"
ONCE = "SET LOCAL session_replication_role = replica"


@pytest.fixture
def dangling(monkeypatch):
    """A merge that writes one author of a paper that does not exist (a bug the keys must catch)."""
    authors = merge_papers.authors

    def with_a_dangling_author():
        counts = authors()
        execute(DANGLING_AUTHOR, [NO_PAPER])
        return counts

    monkeypatch.setattr(merge_papers, "authors", with_a_dangling_author)


def _load_capturing(*paths):
    with CaptureQueriesContext(connection) as captured:
        load(*paths)
    return [q["sql"] for q in captured]


def test_a_dangling_key_written_by_the_merge_fails_the_load_and_leaves_the_catalogue_as_it_was(dangling):
    with pytest.raises(CommandError, match="the database refused the load") as error:
        load(*SEEDS)
    if connection.vendor == "postgresql":  # checked once by the merge: the key is named
        assert f'"catalogue_author" violates foreign key: paper_id = {NO_PAPER}' in str(error.value)
    assert not m.Paper.objects.exists()
    assert not m.Author.objects.exists()
    assert list(m.LoadRun.objects.values_list("outcome", flat=True)) == ["failed"]


@pytest.mark.postgres_only
def test_a_load_checks_its_keys_once_and_leaves_the_triggers_on_for_what_follows(postgresql):
    queries = _load_capturing(*SEEDS)
    assert ONCE in queries
    anti_joins = [q for q in queries if "NOT EXISTS (SELECT 1 FROM" in q and "LIMIT 1" in q]
    assert any('"catalogue_sample"' in q and '"paper_id"' in q for q in anti_joins)
    assert m.Author.objects.exists()
    with connection.cursor() as cur:
        cur.execute("SHOW session_replication_role")
        assert cur.fetchone()[0] == "origin"
    # The per-row checks are back: a dangling key written after the load fails at its COMMIT.
    with pytest.raises(IntegrityError):
        execute(DANGLING_AUTHOR, [NO_PAPER])


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's per-row key triggers and its roles")


@pytest.fixture
def plain_role(postgresql):
    """A login role that is not a superuser, owning nothing, allowed what a deployment's would be."""
    name = "cwp_loader_plain"
    with connection.cursor() as cur:
        cur.execute(f"CREATE ROLE {name}")
        cur.execute(f"GRANT USAGE, CREATE ON SCHEMA public TO {name}")
        cur.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {name}")
        cur.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {name}")
        cur.execute(f"SET ROLE {name}")
    try:
        yield name
    finally:
        with connection.cursor() as cur:
            cur.execute("RESET ROLE")
            cur.execute(f"DROP OWNED BY {name}")
            cur.execute(f"DROP ROLE {name}")


@pytest.mark.postgres_only
def test_a_role_that_may_not_turn_the_triggers_off_keeps_the_per_row_checks(plain_role, dangling):
    # At COMMIT, by the trigger.
    with CaptureQueriesContext(connection) as captured, pytest.raises(CommandError, match="catalogue_author"):
        load(*SEEDS)
    assert ONCE not in [q["sql"] for q in captured]
    assert not m.Paper.objects.exists()


@pytest.mark.postgres_only
def test_a_role_granted_the_setting_checks_once(plain_role):
    with connection.cursor() as cur:
        cur.execute("RESET ROLE")
        cur.execute(f"GRANT SET ON PARAMETER session_replication_role TO {plain_role}")
        cur.execute(f"SET ROLE {plain_role}")
    assert ONCE in _load_capturing(*SEEDS)
    assert m.Paper.objects.exists()
    with connection.cursor() as cur:
        cur.execute("RESET ROLE")
        cur.execute(f"REVOKE SET ON PARAMETER session_replication_role FROM {plain_role}")
        cur.execute(f"SET ROLE {plain_role}")
