"""The archive's real evaluation tables (copied from tests/data/pwc-archive-samples/sota-extractor/):
they load and reload unchanged, rank by the right metric, and give the same API responses on
SQLite and PostgreSQL."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection
from rest_framework.test import APIClient

from catalogue import models as m
from tests import archive_dumps
from tests.api_helpers import api_state
from tests.archive_dumps import PSPNET_BOARD, dumps
from tests.conftest import ROOT, SEEDS, load
from tests.dump import catalogue_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- the real evaluation tables ------------------------------------------------------------


def test_the_sota_extractor_tables_load_and_reload_unchanged(sota):
    load(sota)
    n_rows = sum(_rows(json.loads(p.read_text())) for p in sota.glob("*.json"))
    assert n_rows == 3826
    # no row lost: every row is a result, or one with an identical row of its board
    collapsed = next(w for w in m.LoadRun.objects.get().warnings if "were identical" in w)
    assert m.Result.objects.count() + int(collapsed.split()[0]) == n_rows
    before = catalogue_state()
    out, _ = load(sota, force=True)
    assert "nothing changed" in out
    assert catalogue_state() == before


def _rows(tasks) -> int:
    def tables(d):
        return len((d.get("sota") or {}).get("rows") or []) + sum(
            tables(s) for s in d.get("subdatasets") or []
        )

    return sum(
        sum(tables(d) for d in t.get("datasets") or []) + _rows(t.get("subtasks") or []) for t in tasks
    )


def test_language_modelling_boards_rank_by_perplexity_not_parameters(tmp_path, client):
    load(dumps(tmp_path))
    page = client.get("/sota/language-modelling-on-wikitext-103")
    assert page.context["metric"] == "Test perplexity"
    assert [r.model for r in page.context["results"]] == ["Transformer-XL", "LSTM"]  # lower first


def test_a_metric_of_unknown_direction_says_so_and_keeps_the_table_s_order(tmp_path, client):
    def unknown(tables):
        tables[0]["datasets"][0]["sota"] = {
            "metrics": ["Q->A"],
            "rows": [
                archive_dumps._row("first", {"Q->A": "50"}),
                archive_dumps._row("second", {"Q->A": "60"}),
            ],
        }

    load(dumps(tmp_path, evaluation_tables=unknown))
    page = client.get(f"/sota/{PSPNET_BOARD}")
    models = [r.model for r in page.context["results"]]
    assert page.context["metric"] == "Q->A"
    assert models.index("first") < models.index("second")  # as the table gives them, not by value
    assert "whether higher or lower is better is not known" in page.content.decode()


# --- both databases give the same catalogue ------------------------------------------------


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL")


@pytest.mark.postgres_only
@pytest.mark.slow
def test_sqlite_and_postgresql_give_the_same_api_responses(postgres, tmp_path, sota):
    folder = dumps(tmp_path)
    # Three real tables (boards without papers, subdatasets, numbers as JSON): every answer is
    # walked, so all twelve would take minutes for no new case.
    for path in sota.iterdir():
        if path.name not in (
            "evaluation-tables-squad.json",
            "evaluation-tables-nlpprogress.json",
            "evaluation-tables-ogb.json",
        ):
            path.unlink()
    load(folder, sota, *SEEDS)
    on_postgres = api_state(APIClient())
    script = (
        "import json, sys, django; django.setup()\n"
        "from django.core.management import call_command\n"
        "from rest_framework.test import APIClient\n"
        "from tests.api_helpers import api_state\n"
        "call_command('migrate', verbosity=0)\n"
        "call_command('load_snapshot', *sys.argv[1:], verbosity=0)\n"
        "print(json.dumps(api_state(APIClient())))\n"
    )
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'compare.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOAD_WORKERS": "0",
        "API_THROTTLE_ANON": "off",
        "PAGE_CACHE_SECONDS": "0",
        "FIGURES_CACHE_SECONDS": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder), str(sota), *map(str, SEEDS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    on_sqlite = json.loads(done.stdout.splitlines()[-1])
    assert set(on_sqlite) == set(on_postgres)
    for url in sorted(on_postgres):
        assert on_sqlite[url] == on_postgres[url], url


@pytest.mark.postgres_only
def test_the_merge_lets_the_planner_know_what_it_wrote(postgres, tmp_path, monkeypatch):
    """Stale statistics (a table analysed empty, as after a failed load) must not plan the merge.

    The joins of the result rows read the leaderboards and papers the merge has just written;
    by then PostgreSQL's statistics must count them, whatever they said before the load.
    """
    from catalogue.loader.merge import rows as merge_rows

    with connection.cursor() as cursor:
        for table in ("catalogue_paper", "catalogue_leaderboard", "catalogue_task", "catalogue_dataset"):
            cursor.execute(f"ANALYZE {table}")  # empty: reltuples 0, as a failed earlier load leaves them
    seen = {}
    original = merge_rows.results

    def results():
        with connection.cursor() as cursor:
            for table in ("catalogue_paper", "catalogue_leaderboard", "catalogue_dataset"):
                cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
                estimate = cursor.fetchone()[0]
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                seen[table] = (estimate, cursor.fetchone()[0])
        return original()

    monkeypatch.setattr(merge_rows, "results", results)
    load(dumps(tmp_path))
    assert all(estimate == actual > 0 for estimate, actual in seen.values()), seen
