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
