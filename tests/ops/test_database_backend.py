"""The suite runs on the database backend it was asked to run on.

`make test` runs the whole suite twice, with ``CWP_EXPECT_DB=sqlite`` and then with
``CWP_EXPECT_DB=postgresql`` against a throwaway cluster. Without this check a PostgreSQL
run whose ``DATABASE_URL`` got lost would quietly pass on SQLite.
"""

import os

import pytest
from django.db import connection

KNOWN_VENDORS = {"sqlite", "postgresql"}


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def test_suite_runs_on_the_expected_database(db):
    expected = os.environ.get("CWP_EXPECT_DB", "").strip()
    if not expected:
        if _truthy(os.environ.get("CI")):
            pytest.fail(
                "CI is set but CWP_EXPECT_DB is not: run the suite through `make test`, "
                "which sets CWP_EXPECT_DB=sqlite, then postgresql, for its two runs"
            )
        pytest.skip("CWP_EXPECT_DB is not set (make test sets it)")
    assert expected in KNOWN_VENDORS, f"CWP_EXPECT_DB={expected!r}: use one of {KNOWN_VENDORS}"

    # A real round trip, so a backend that is configured but unreachable fails here too.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)

    assert connection.vendor == expected, (
        f"expected the {expected} backend, got {connection.vendor} "
        f"(DATABASE_URL set: {bool(os.environ.get('DATABASE_URL'))})"
    )
    if connection.vendor == "postgresql":
        assert connection.pg_version >= 150000, f"PostgreSQL {connection.pg_version} < 15"
