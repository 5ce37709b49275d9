"""A load killed with SIGKILL halfway leaves the database exactly as before; the next one succeeds."""

import os
import signal
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from tests.conftest import ROOT, SEEDS

pytestmark = pytest.mark.slow

DIGEST = (
    "import django, hashlib, json; django.setup(); from tests.dump import catalogue_state; "
    "from catalogue.models import LoadRun; s = catalogue_state(); s['runs'] = LoadRun.objects.count(); "
    "print(json.dumps({k: len(v) if isinstance(v, list) else v for k, v in s.items()}), "
    "hashlib.sha256(json.dumps(s, sort_keys=True, default=str).encode()).hexdigest())"
)


def _run(args, env, **kwargs):
    return subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, **kwargs)


def _manage(env, *args):
    done = _run([sys.executable, "manage.py", *args], env)
    assert done.returncode == 0, done.stderr
    return done


def _digest(env) -> str:
    return _run([sys.executable, "-c", DIGEST], env).stdout.strip()


def _generate(tmp_path, papers=1500):
    out = tmp_path / "snapshot"
    _run(
        [sys.executable, str(ROOT / "bench" / "generate.py"), "--papers", str(papers), "--out", str(out)],
        os.environ,
    )
    return out


def _kill_halfway_then_reload(env, snapshot):
    before = _digest(env)
    loader = subprocess.Popen(
        [sys.executable, "manage.py", "load_snapshot", str(snapshot)],
        env={**env, "PYTHONUNBUFFERED": "1"},
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in loader.stdout:
        if "(50%)" in line:  # halfway through reading: rows are staged, nothing merged yet
            break
    os.kill(loader.pid, signal.SIGKILL)
    loader.wait()
    loader.stdout.close()
    assert loader.returncode == -signal.SIGKILL
    assert _digest(env) == before
    done = _manage(env, "load_snapshot", str(snapshot))
    assert "loaded" in done.stdout
    assert _digest(env) != before


def test_sqlite_load_killed_halfway_changes_nothing(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}", "LOAD_WORKERS": "0"}
    _manage(env, "migrate", "-v0")
    _manage(env, "load_snapshot", *map(str, SEEDS))
    _kill_halfway_then_reload(env, _generate(tmp_path))


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_postgresql_load_killed_halfway_changes_nothing(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL")
    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/killtest"
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:  # CREATE DATABASE needs no transaction
        admin.execute("DROP DATABASE IF EXISTS killtest")
        admin.execute("CREATE DATABASE killtest")
    env = {**os.environ, "DATABASE_URL": url, "LOAD_WORKERS": "0"}
    _manage(env, "migrate", "-v0")
    _manage(env, "load_snapshot", *map(str, SEEDS))
    _kill_halfway_then_reload(env, _generate(tmp_path))
