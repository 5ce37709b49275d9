"""Health endpoints, request ids and the one-line request log."""

import json
import logging
import os
import subprocess
import sys

import pytest

from config.observability import JsonLineFormatter
from tests.conftest import ROOT


def test_healthz_touches_nothing(db, client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"


@pytest.mark.django_db
def test_readyz_is_ready_with_a_migrated_database(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"ready": True}


def _readyz_in_a_process(database_url: str) -> tuple[int, dict]:
    code = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/readyz'); print(r.status_code, json.dumps(r.json()))"
    )
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    status, body = done.stdout.strip().splitlines()[-1].split(" ", 1)
    return int(status), json.loads(body)


@pytest.mark.slow
def test_readyz_is_not_ready_without_migrations_or_database(tmp_path):
    assert _readyz_in_a_process(f"sqlite:///{tmp_path / 'empty.sqlite3'}") == (
        503,
        {"ready": False, "reason": _pending_reason()},
    )
    status, body = _readyz_in_a_process("postgres://nobody@127.0.0.1:9/none?connect_timeout=2")
    assert (status, body) == (503, {"ready": False, "reason": "database unreachable"})


def _pending_reason() -> str:
    from django.db.migrations.loader import MigrationLoader

    count = len(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
    return f"{count} migrations not applied"


def test_every_response_carries_a_request_id(db, client, caplog):
    with caplog.at_level(logging.INFO, logger="catalogue.requests"):
        given = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
        made_up = client.get("/healthz", headers={"X-Request-ID": "<script>"})
    assert given["X-Request-ID"] == "abc-123"
    assert made_up["X-Request-ID"] != "<script>"
    assert len(made_up["X-Request-ID"]) == 32
    record = next(r for r in caplog.records if getattr(r, "request_id", None) == "abc-123")
    line = json.loads(JsonLineFormatter().format(record))
    assert line["method"] == "GET"
    assert line["path"] == "/healthz"
    assert line["status"] == 200
    assert line["duration_ms"] >= 0
