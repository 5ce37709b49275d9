"""Hostile documents hypothesis generates give one outcome per document on SQLite and PostgreSQL.

Both databases cannot be in one pytest process (the suite runs once per backend), so
``test_generated_hostile_documents_give_one_outcome_per_document`` feeds documents that
hypothesis generates (derandomized: the same ones every run) to this backend and writes each
document's outcome, keyed by the document's checksum, to a file named by this backend (and by
the code that made it) in a stable folder (``CWP_DIFFERENTIAL_DIR``, else the system's
temporary one); when the other backend's file is there (the suite ran on it with this code),
every document both saw must have had the same outcome. Keyed by content, not by example number, so
a run that generated a different sequence still compares what both saw. Where the other
backend's record is missing the test can only check this backend's own rules, and says so.

The issue's hostile documents, each with its committed outcome, are in test_loader_hostile.py.
"""

import hashlib
import json
import os
import tempfile
from pathlib import Path

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.dump import wipe
from tests.loader import hostile
from tests.loader.hostile import document, outcome_of

# --- generated hostile documents, compared across the two backends -------------------------

hostile_text = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["\x00", "a\x00b", "\ud800", "x\udfffy", "\ufffd", "é", "https://github.com/a/b\x00"]),
    st.integers(290, 1010).map(lambda n: "L" * n),
    st.integers(0, 3).map(
        lambda n: "https://github.com/" + "o" * (100 + 60 * n) + "/" + "n" * (150 + 30 * n)
    ),
)


hostile_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**80), 2**80),
    st.sampled_from(["@inf@", "@ninf@", 1.5, -0.0, 1.5e300, 1e16]),
    hostile_text,
    st.sampled_from(
        [
            "0001-01-01T00:00:00+01:00",
            "9999-12-31T23:59:59-01:00",
            "0999-01-01T00:00:00Z",
            "0001-01-01",
            "9999-12-31T23:59:59+00:00",
        ]
    ),
)


hostile_values = st.recursive(
    hostile_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=8,
)


# Where a hostile value goes: every kind of field of the small document.
TARGETS = [
    ["url"],
    ["title"],
    ["arxiv_id"],
    ["date"],
    ["abstract"],
    ["authors", 0],
    ["source"],
    ["arxiv_metadata"],
    ["code_links", 0, "repo_url"],
    ["code_links", 0, "framework"],
    ["tasks", 0, "task_slug"],
    ["tasks", 0, "task_name"],
    ["methods", 0, "method_name"],
    ["datasets_introduced", 0],
    ["results", 0, "task"],
    ["results", 0, "dataset"],
    ["results", 0, "model"],
    ["results", 0, "leaderboard"],
    ["results", 0, "metrics"],
    ["syntology", "read_at"],
    ["syntology", "mcp"],
    ["syntology", "samples", 0, "entry"],
    ["syntology", "samples", 0, "path"],
    ["syntology", "samples", 0, "repo"],
]


def _hostile_text(changes) -> str:
    text = json.dumps(document(*changes), sort_keys=True)
    return text.replace('"@inf@"', "1e400").replace('"@ninf@"', "-1e400")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    changes=st.lists(
        # Mostly one hostile text or number where a field is; sometimes a nested value.
        st.tuples(st.sampled_from(TARGETS), st.one_of(hostile_text, hostile_scalars, hostile_values)),
        min_size=1,
        max_size=3,
    )
)
def test_generated_hostile_documents_give_one_outcome_per_document(tmp_path_factory, changes):
    text = _hostile_text(changes)
    wipe()
    got = outcome_of(text, tmp_path_factory.mktemp("hostile"))
    wipe()
    assert got["outcome"] in ("loaded", "skipped")
    assert got["error"] == "" or got["error"].startswith("doc.json: "), got
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    mine, theirs = (_record_file(v) for v in _this_and_other_backend())
    record = json.loads(mine.read_text()) if mine.exists() else {}
    record[key] = got
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(json.dumps(record, sort_keys=True))
    other = json.loads(theirs.read_text()) if theirs.exists() else {}
    if key in other:
        assert got == other[key], f"{connection.vendor} and the other database differ on {text[:300]}"


def _this_and_other_backend() -> tuple[str, str]:
    return (connection.vendor, "postgresql" if connection.vendor == "sqlite" else "sqlite")


def _record_file(vendor: str) -> Path:
    """Where a backend's outcomes go: a stable folder (``CWP_DIFFERENTIAL_DIR``, else the system's
    temporary one), in a file named by the backend and by the code that made them (the loader,
    the models and migrations, the counters and this test), so that outcomes of different code
    are never compared."""
    folder = Path(
        os.environ.get("CWP_DIFFERENTIAL_DIR") or Path(tempfile.gettempdir()) / "cwp-loader-differential"
    )
    return folder / f"{_CODE_VERSION}-{vendor}.json"


# What an outcome depends on: the loader, and the tables it writes (their columns are in each
# stored-row digest) with what fills their derived columns after a load.
_CATALOGUE = ROOT / "catalogue"


_CODE_VERSION = hashlib.sha256(
    b"".join(
        p.read_bytes()
        for p in sorted(
            [
                *(_CATALOGUE / "loader").rglob("*.py"),
                *(_CATALOGUE / "models").rglob("*.py"),
                *(_CATALOGUE / "migrations").glob("*.py"),
                _CATALOGUE / "counters.py",
                Path(__file__),
                Path(hostile.__file__),
            ]
        )
    )
).hexdigest()[:12]
