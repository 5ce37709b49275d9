"""Migrations that move data keep it: an operator's database after ``migrate`` says what it said before."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

FILES = [
    {"path": "a.json", "sha256": "ab" * 32, "url": "/paper/a", "status": "loaded", "error": ""},
    {"path": "b.json", "sha256": "", "url": "", "status": "skipped", "error": "b.json: expected an object"},
    {"path": "c.json", "sha256": "cd" * 32, "url": "/paper/c", "status": "already_loaded", "error": ""},
]


def migrate(target: tuple[str, str]):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_runs_list_of_files_becomes_its_rows_in_order_and_back():
    old = migrate(("catalogue", "0021_leaderboard_result_counts"))
    try:
        LoadRun = old.get_model("catalogue", "LoadRun")
        at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        full = LoadRun.objects.create(started_at=at, outcome="succeeded", files=FILES).pk
        empty = LoadRun.objects.create(started_at=at, outcome="failed", files=[]).pk

        new = migrate(("catalogue", "0022_loadrun_files_as_rows"))
        rows = new.get_model("catalogue", "LoadRunFile").objects.order_by("run_id", "seq")
        fields = ("path", "sha256", "url", "status", "error")
        assert [(r["run_id"], r["seq"], {f: r[f] for f in fields}) for r in rows.values()] == [
            (full, i, f) for i, f in enumerate(FILES, 1)
        ]

        back = migrate(("catalogue", "0021_leaderboard_result_counts"))
        files = dict(back.get_model("catalogue", "LoadRun").objects.values_list("pk", "files"))
        files = {pk: json.loads(v) if isinstance(v, str) else v for pk, v in files.items()}
        assert files == {full: FILES, empty: []}
    finally:
        migrate(("catalogue", MigrationExecutor(connection).loader.graph.leaf_nodes("catalogue")[0][1]))


def _file_indexes() -> dict[tuple[str, ...], bool]:
    """The indexes of catalogue_loadrunfile: their columns, and whether unique."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "catalogue_loadrunfile")
    return {
        tuple(c["columns"]): c["unique"]
        for c in found.values()
        if (c["index"] or c["unique"]) and not c["primary_key"]
    }


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_file_rows_lose_the_run_index_the_pair_index_covers_in_place_and_back():
    before = migrate(("catalogue", "0022_loadrun_files_as_rows"))
    try:
        run = before.get_model("catalogue", "LoadRun").objects.create(
            started_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC), outcome="succeeded"
        )
        Files = before.get_model("catalogue", "LoadRunFile")
        Files.objects.bulk_create(Files(run=run, seq=i, **f) for i, f in enumerate(FILES, 1))
        assert ("run_id",) in _file_indexes()
        ids = sorted(Files.objects.values_list("id", flat=True))

        after = migrate(("catalogue", "0023_loadrunfile_by_status"))
        indexes = _file_indexes()
        assert ("run_id",) not in indexes
        assert indexes[("run_id", "seq")] is True
        assert indexes[("status", "run_id", "seq")] is False
        # dropped in place: the rows (and their ids) are the ones there were
        assert sorted(after.get_model("catalogue", "LoadRunFile").objects.values_list("id", flat=True)) == ids

        migrate(("catalogue", "0022_loadrun_files_as_rows"))
        indexes = _file_indexes()
        assert ("run_id",) in indexes
        assert ("status", "run_id", "seq") not in indexes
    finally:
        migrate(("catalogue", MigrationExecutor(connection).loader.graph.leaf_nodes("catalogue")[0][1]))


def _stored_counts() -> dict[str, list]:
    from catalogue.models import AuthorName, CodeEntry, Leaderboard, Paper, Task

    return {
        "entries": list(
            CodeEntry.objects.order_by("pk").values_list("pk", "n_places", "n_papers", "n_samples_ran")
        ),
        "papers": list(Paper.objects.order_by("pk").values_list("pk", "n_samples")),
        "tasks": list(Task.objects.order_by("pk").values_list("pk", "n_papers", "n_leaderboards")),
        "boards": list(Leaderboard.objects.order_by("pk").values_list("pk", "n_results")),
        "names": sorted(AuthorName.objects.values_list("name", flat=True)),
    }


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_counting_migrations_fill_the_counts_a_load_stores_from_their_frozen_copy():
    """0006, 0016, 0017 and 0021 add stored counts to a catalogue that has rows, and count them with
    their own frozen SQL (catalogue/migrations/_frozen_counts.py), not today's counters: on the
    seeds that SQL still gives what a load stores, so ``recount`` finds nothing to change."""
    from catalogue import counters
    from tests.conftest import SEEDS, load

    load(*SEEDS)
    loaded = _stored_counts()
    assert any(n for _, n, _, _ in loaded["entries"])
    assert loaded["names"]
    assert any(n for _, n, _ in loaded["tasks"])
    assert any(n for _, n in loaded["boards"])
    head = MigrationExecutor(connection).loader.graph.leaf_nodes("catalogue")[0][1]
    try:
        migrate(("catalogue", "0005_curators_group"))  # before every stored count
        migrate(("catalogue", head))
        assert _stored_counts() == loaded
        assert not any(counters.recount().values())
    finally:
        migrate(("catalogue", head))


def test_no_migration_calls_the_live_code_of_the_catalogue():
    """A migration imports Django and its own frozen helpers only: live code may change meaning."""
    import re
    from pathlib import Path

    import catalogue.migrations

    folder = Path(catalogue.migrations.__file__).parent
    live = re.compile(r"^\s*(from catalogue(?!\.migrations\b)[\w.]* import|import catalogue\b)", re.M)
    calling = {f.name for f in folder.glob("*.py") if live.search(f.read_text())}
    assert calling == set()
