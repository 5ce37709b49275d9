"""Scale-out: two gunicorn processes behind one PostgreSQL and one Redis answer alike.

Starts a redis-server on a free loopback port and two gunicorn processes (config/gunicorn.conf.py,
one worker each, on their own ports) on the suite's own PostgreSQL test database, with the
response cache on and shared. Checks that both serve the same pages and API answers, byte for
byte, and that a load and a correction made once are seen through both at once. Skipped on
SQLite (the production database is PostgreSQL) and when redis-server is missing.
"""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from catalogue import curation
from catalogue.models import Paper
from tests.conftest import SEEDS, load
from tests.servers import free_port, start_gunicorn, stop

SLUG = "gpipe-efficient-training-of-giant-neural"
URLS = [
    "/",
    f"/paper/{SLUG}",
    "/papers/",
    "/code/forward-step-func",
    "/search?q=pipeline",
    f"/api/v1/papers/{SLUG}/",
    "/api/v1/papers/",
    "/api/v1/code-entries/",
    "/api/v1/search/?q=pipeline",
]

pytestmark = [
    # Committed data the servers can see; serialized rollback so that the flush afterwards does
    # not leave later serialized-rollback tests with re-created (duplicate) content types.
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.slow,
    pytest.mark.postgres_only,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed"),
]


def wait_until_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            pytest.fail(f"{url} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    pytest.fail(f"{url} did not come up:\n{log.read_text()[-3000:]}")


def fetch(base: str, path: str) -> tuple[int, bytes, dict]:
    # One public name for both, as a load balancer in front would pass on (pages and the API
    # write absolute links with it, so each port would otherwise be a site of its own).
    request = urllib.request.Request(base + path, headers={"Host": "localhost"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


@pytest.fixture
def redis_url(tmp_path):
    port = free_port()
    log = tmp_path / "redis.log"
    with log.open("w") as out:  # the child holds its own copy of the descriptor
        proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc, timeout=20)


@pytest.fixture
def two_servers(redis_url, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("scale-out runs on PostgreSQL")
    db = settings.DATABASES["default"]
    database_url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    load(*SEEDS)  # committed (transactional_db): the servers see it
    servers, procs = [], []
    try:
        for n in range(2):
            port = free_port()
            env = {
                **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
                "DATABASE_URL": database_url,
                "CACHE_URL": redis_url,
                "PORT": str(port),
                "WEB_CONCURRENCY": "1",
                "GUNICORN_THREADS": "2",
                "CONN_MAX_AGE": "60",
                "PAGE_CACHE_SECONDS": "60",
                "API_THROTTLE_ANON": "off",
                # The suite never runs collectstatic; hashed static names are test_production's.
                "STATIC_MANIFEST": "0",
                "REQUEST_LOG_LEVEL": "WARNING",
            }
            log = tmp_path / f"gunicorn-{n}.log"
            proc = start_gunicorn(env, log)
            procs.append(proc)
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base + "/readyz", proc, log)
            servers.append(base)
        yield servers
    finally:
        for proc in procs:
            stop(proc, timeout=20)


def same_answers(a: str, b: str) -> dict[str, bytes]:
    seen = {}
    for path in URLS:
        status_a, body_a, headers_a = fetch(a, path)
        status_b, body_b, headers_b = fetch(b, path)
        assert status_a == status_b == 200, (path, status_a, status_b)
        assert body_a == body_b, path
        # One copy in the shared cache: the second process served the first one's.
        assert headers_a["ETag"] == headers_b["ETag"], path
        assert headers_a["Last-Modified"] == headers_b["Last-Modified"], path
        seen[path] = body_a
    return seen


def test_two_processes_share_database_and_cache(two_servers, redis_url, tmp_path):
    import redis

    a, b = two_servers
    before = same_answers(a, b)
    assert redis.Redis.from_url(redis_url).dbsize() >= len(URLS)
    assert b"GPipe: Efficient Training" in before[f"/paper/{SLUG}"]

    # A load through one process's database is seen by both at once.
    doc = json.loads(next(s for s in SEEDS if s.name.startswith("003")).read_text())
    doc["title"] = "GPipe, as the newer snapshot names it"
    doc["read_at"] = "2027-01-01T00:00:00+00:00"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc))
    load(path)
    after_load = same_answers(b, a)  # this time the other process builds first
    for url in (f"/paper/{SLUG}", f"/api/v1/papers/{SLUG}/"):
        assert "GPipe, as the newer snapshot names it" in after_load[url].decode()

    # So is a curator's correction.
    curator = get_user_model().objects.create(username="curator")
    curation.correct_title(
        Paper.objects.get(slug=SLUG), "GPipe (corrected)", user=curator, reason="r", expected_version=None
    )
    after_correction = same_answers(a, b)
    for url in (f"/paper/{SLUG}", f"/api/v1/papers/{SLUG}/"):
        assert "GPipe (corrected)" in after_correction[url].decode()
