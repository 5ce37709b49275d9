"""Hardening of the web side (issue 15): what a stranger's request costs and what it leaves in
the logs, where a refused ``next=`` lands after the admin's login, and gunicorn's control socket
when two instances share a machine.
"""

import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from catalogue.twofactor import devices
from tests.admin_client import code, make_curator
from tests.api_helpers import V1
from tests.servers import free_port, start_gunicorn, up, wait_until

PASSWORD = "cora-curates-papers-2026"  # make_curator's password for "cora"
EVIL = "https://evil.example/"


# --- A host not in ALLOWED_HOSTS: one warning line, no traceback -------------------------------


@pytest.mark.parametrize("path", ["/", "/api/v1/papers/"])
def test_a_disallowed_host_is_one_warning_without_a_traceback(client, db, caplog, path):
    with caplog.at_level(logging.DEBUG):
        response = client.get(path, HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert b"evil" not in response.content
    (record,) = [r for r in caplog.records if r.name.startswith("django.security")]
    assert record.levelno == logging.WARNING
    assert record.exc_info is None
    assert "evil.example" in record.getMessage()  # the operator learns which host was asked for
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# --- A refused next= after the admin's login lands on the admin ---------------------------------


@pytest.mark.django_db
def test_an_off_site_next_after_login_lands_on_the_admin(client):
    make_curator("cora")
    login = reverse("admin:login") + "?next=" + EVIL
    response = client.post(login, {"username": "cora", "password": PASSWORD, "next": EVIL})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")


@pytest.mark.django_db
def test_an_off_site_next_after_a_login_with_a_code_lands_on_the_admin(client):
    device = devices.create_confirmed_device(make_curator("cora"))
    response = client.post(
        reverse("admin:login"),
        {"username": "cora", "password": PASSWORD, "otp_token": code(device), "next": EVIL},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")


# --- Refused parameters and throttled requests cost no database query ---------------------------


def statements(ctx) -> list[str]:
    # Django logs leaving and re-entering autocommit as "BEGIN" and "COMMIT"; psycopg sends
    # nothing for either while no statement ran (it begins at the first statement).
    return [q["sql"] for q in ctx.captured_queries if q["sql"] not in {"BEGIN", "COMMIT"}]


@pytest.fixture
def cache_on(settings):
    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


# Outside a test transaction, as in production (PostgreSQL's consistent read then applies).
# serialized_rollback, as the suite's other transactional tests: the flush after this test must
# not re-create content types that a later serialized_rollback test restores.
OUTSIDE_A_TRANSACTION = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@OUTSIDE_A_TRANSACTION
@pytest.mark.parametrize("path", [f"{V1}/papers/", f"{V1}/tasks/image-classification/", f"{V1}/samples/"])
def test_unknown_parameters_cost_no_query_even_outside_a_transaction(settings, cache_on, path):
    # A fresh made-up parameter per request must not reach the database (PostgreSQL's consistent
    # read transaction included): each would otherwise be an uncached query at will.
    settings.API_THROTTLE_ANON = "1000/minute"
    api = APIClient(REMOTE_ADDR="198.51.100.7")
    for n in range(3):
        with CaptureQueriesContext(connection) as ctx:
            response = api.get(path, {f"zz{n}": "1"})
        assert response.status_code == 400, response.content
        assert statements(ctx) == []


@OUTSIDE_A_TRANSACTION
def test_a_throttled_request_costs_no_query(settings, cache_on):
    settings.API_THROTTLE_ANON = "1/minute"
    api = APIClient(REMOTE_ADDR="198.51.100.7")
    api.get(f"{V1}/papers/")
    for params in ({}, {"zz": "1"}):
        with CaptureQueriesContext(connection) as ctx:
            response = api.get(f"{V1}/papers/", params)
        assert response.status_code == 429
        assert statements(ctx) == []


# --- gunicorn: each instance its own control socket ---------------------------------------------


def control_sockets_answering(runtime: Path, home: Path) -> dict[str, str]:
    """Every gunicorn control socket under the runtime dir or ~/.gunicorn: path -> the bind it serves."""
    gunicornc = Path(sys.executable).with_name("gunicornc")
    found = {}
    for path in [*runtime.rglob("*.ctl"), *(home / ".gunicorn").rglob("*.ctl")]:
        done = subprocess.run(
            [str(gunicornc), "-s", str(path), "-c", "show config", "-j"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0:
            found[str(path)] = ",".join(json.loads(done.stdout)["bind"])
    return found


@pytest.mark.slow
def test_two_gunicorns_on_one_machine_each_have_their_own_control_socket(tmp_path):
    # A short runtime dir: a Unix socket's path is limited to 107 bytes.
    runtime = Path(tempfile.mkdtemp(prefix="cwp-rt-"))
    home = tmp_path / "home"
    home.mkdir()
    ports = [free_port(), free_port()]
    binds = {f"127.0.0.1:{port}" for port in ports}
    procs = []
    try:
        for port in ports:
            env = {
                **{
                    k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}
                },
                "XDG_RUNTIME_DIR": str(runtime),
                "HOME": str(home),
                "PORT": str(port),
                "WEB_CONCURRENCY": "1",
                "GUNICORN_THREADS": "1",
                "STATIC_MANIFEST": "0",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",  # /healthz touches none
            }
            procs.append(start_gunicorn(env, tmp_path / f"gunicorn-{port}.log"))
        for port in ports:
            wait_until(lambda port=port: up(f"http://127.0.0.1:{port}/healthz"), procs)
        # The control server starts just after the workers: wait until each instance answers on one.
        wait_until(lambda: set(control_sockets_answering(runtime, home).values()) >= binds, procs, give_up=15)
        sockets = control_sockets_answering(runtime, home)
        assert sorted(sockets.values()) == sorted(binds), sockets
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
        for path in runtime.rglob("*"):
            if not path.is_dir():
                path.unlink()
        for path in sorted(runtime.rglob("*"), reverse=True):
            path.rmdir()
        runtime.rmdir()
