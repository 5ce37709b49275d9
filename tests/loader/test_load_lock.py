"""A second load_snapshot is refused at once, with its own exit code; a killed holder leaves no lock."""

import fcntl
import os
import signal
import subprocess
import sys
import time

import psycopg
import pytest
from django.db import connection

from catalogue.management.commands.load_snapshot import EXIT_LOCKED
from tests.conftest import ROOT, SEEDS, load


def _manage(*args, env):
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_sqlite_second_loader_is_refused_and_a_killed_holder_leaves_no_lock(tmp_path):
    database = tmp_path / "catalogue.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    assert _manage("migrate", "-v0", env=env).returncode == 0

    with open(f"{database}.load-lock", "a") as handle:  # what a running load holds
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        refused = _manage("load_snapshot", *map(str, SEEDS), env=env)
    assert refused.returncode == EXIT_LOCKED
    assert "refused: another load_snapshot is running" in refused.stderr

    # A holder killed with SIGKILL: the kernel drops its lock with it.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; h = open(sys.argv[1], 'a'); fcntl.flock(h, fcntl.LOCK_EX); "
            "print('locked', flush=True); time.sleep(60)",
            f"{database}.load-lock",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "locked"
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    holder.stdout.close()
    started = time.monotonic()
    done = _manage("load_snapshot", *map(str, SEEDS), env=env)
    assert done.returncode == 0, done.stderr
    assert "loaded" in done.stdout
    assert time.monotonic() - started < 60  # it did not wait for a lock


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_postgresql_second_loader_is_refused():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL advisory lock")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(hashtext('catalogue.load_snapshot'))")
        with pytest.raises(SystemExit) as exit_:
            load(*SEEDS)
        assert exit_.value.code == EXIT_LOCKED
    # The holder's connection closed; the server drops its locks as that backend exits.
    with connection.cursor() as cur:
        for _ in range(100):
            cur.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
            if cur.fetchone()[0] == 0:
                break
            time.sleep(0.05)
    out, _ = load(*SEEDS)
    assert "loaded" in out
