import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.pages import seed_pages

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "fixtures").glob("*.json"))
CODE_SEEDS = [s for s in SEEDS if not s.name.startswith("003")]
PAPER_SEED = next(s for s in SEEDS if s.name.startswith("003"))
# One public page of each kind, all of them filled by the seeds (security and browser tests): the
# URLconf's public pages (catalogue.web.public_pages), each with its example in tests/pages.py.
SEED_PAGE_KINDS = seed_pages()
# The figures a code-entry document states (docs/SNAPSHOT-FORMAT.md), in one place for every test.
FIGURES = (
    "n_papers",
    "n_papers_ran",
    "n_samples",
    "n_samples_ran",
    "n_samples_fingerprinted",
    "n_places",
    "n_places_pointer_only",
    "by_status",
)


@pytest.fixture
def seeds_dir(tmp_path) -> Path:
    """A private copy of the three seed documents."""
    target = tmp_path / "seeds"
    target.mkdir()
    for seed in SEEDS:
        shutil.copy(seed, target / seed.name)
    return target


@pytest.fixture
def seed_docs() -> dict[str, dict]:
    return {seed.name: json.loads(seed.read_text()) for seed in SEEDS}


def load(*paths, **options):
    """Run load_snapshot like an operator would, returning what it printed."""
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("load_snapshot", *map(str, paths), stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def loaded_seeds(db):
    """The catalogue as ``load_snapshot`` leaves it after loading the three seeds.

    On PostgreSQL a load of the seeds is about 500 statements (1.2 s) and some 200 tests start
    from it, so the first test really loads them and keeps a copy of every catalogue row it
    wrote (``COPY … TO``, text form, exact for every type); later tests get those rows back
    with one ``COPY … FROM`` per table. The copy is only taken, and only given back, when the
    catalogue is empty, so a test that adds rows first gets a real load. SQLite loads the seeds
    in a fifth of the time, and always loads them. Tests of loading itself call ``load()``."""
    from django.db import connection

    global _SEED_ROWS
    if connection.vendor != "postgresql" or not _catalogue_is_empty(connection):
        load(*SEEDS)
    elif _SEED_ROWS is None:
        load(*SEEDS)
        _SEED_ROWS = _copy_catalogue(connection)
    else:
        _restore_catalogue(connection, _SEED_ROWS)


_SEED_ROWS: dict[str, tuple[list[str], bytes]] | None = None  # table: (columns, COPY text)


def _catalogue_tables(connection) -> dict[str, list[str]]:
    """Every table of the catalogue app with its columns, the generated ones (the search
    vector) left out: PostgreSQL computes those again."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name LIKE 'catalogue%%'"
            " AND is_generated = 'NEVER' ORDER BY table_name, ordinal_position"
        )
        tables: dict[str, list[str]] = {}
        for table, column in cursor.fetchall():
            tables.setdefault(table, []).append(column)
    return tables


def _catalogue_is_empty(connection) -> bool:
    with connection.cursor() as cursor:
        for table in _catalogue_tables(connection):
            cursor.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}")')
            if cursor.fetchone()[0]:
                return False
    return True


def _copy_catalogue(connection) -> dict[str, tuple[list[str], bytes]]:
    rows = {}
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: Django's has no COPY
        for table, columns in _catalogue_tables(connection).items():
            names = ", ".join(f'"{c}"' for c in columns)
            with raw.copy(f'COPY (SELECT {names} FROM "{table}") TO STDOUT') as copy:
                text = b"".join(bytes(block) for block in copy)
            if text:
                rows[table] = (columns, text)
    return rows


def _restore_catalogue(connection, rows: dict[str, tuple[list[str], bytes]]) -> None:
    # Foreign keys are checked at commit (Django makes them DEFERRABLE INITIALLY DEFERRED), so
    # the order of tables does not matter. The ids are those of the first load; each table's
    # sequence is then moved to its largest id, so rows a test adds get new ones even where the
    # sequence started again since (a test that migrates back and forth recreates the tables:
    # the next load's author names then collided with the restored ones). One transaction, also
    # for tests that run outside one (transaction=True), so that the checks see every table.
    from django.db import transaction

    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        for table, (columns, text) in rows.items():
            names = ", ".join(f'"{c}"' for c in columns)
            with raw.copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
                copy.write(text)
            if "id" in columns:
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence(%s, 'id'), MAX(id)) FROM \"{table}\" "
                    f"HAVING MAX(id) IS NOT NULL AND pg_get_serial_sequence(%s, 'id') IS NOT NULL",
                    [f'"{table}"', f'"{table}"'],
                )


@pytest.fixture(autouse=True)
def _response_cache_off(settings):
    # Pages and API answers are cached against caching.data_version() (catalogue.caching), which
    # only a load or a correction moves; tests that change rows directly would read old copies.
    # So the cache is off unless a test turns it on (tests/web/test_caching.py), and it starts empty:
    # rolled-back tests can reach the same version with other rows (SQLite reuses ids).
    from django.core.cache import cache

    from catalogue import memo

    settings.PAGE_CACHE_SECONDS = 0
    settings.FIGURES_CACHE_SECONDS = 0  # the same for remembered counts (catalogue.memo)
    cache.clear()
    memo.forget_in_process()


@pytest.fixture
def api():
    """A client of the JSON API (tests/api_helpers.py reads its answers)."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def api_throttle_off(settings):
    """The API's anonymous rate limit off: the API's tests make many requests from one address."""
    settings.API_THROTTLE_ANON = "off"
