"""The database goes away and comes back: a clean 503 meanwhile, no failed request afterwards.

The fast tests below simulate a lost connection in-process (any backend): a view that needs the
database answers 503 with ``Retry-After`` (the site's page, or JSON under /api/) and keeps the
security headers; an operational error on a working connection stays a 500; with the page cache
on, a copy at the last data version this process read is served instead of the 503.

The slow test restarts a real PostgreSQL under traffic. It makes its own throwaway cluster
(``scripts/pgcluster.py``'s ``Cluster``; never the suite's), migrates and loads the seeds into
it, and starts two gunicorns against it (2 workers × 4 threads, ``CONN_MAX_AGE=600``, connections
health-checked): one with the page cache off, where every answer during the outage must be the
503 (a determinate outcome), and one with it on, where an answer may also be the cached page,
byte for byte as before. Client threads ask both for a paper page, the search page and an API
detail without pause while PostgreSQL is stopped (``-m fast``, then ``-m immediate``), kept down
for a few seconds and started again on the same port. Every answer must be that 200 or the clean
503 (never a 500, a traceback or a dropped connection); once ``/readyz`` answers 200 again, every
answer, and then N in a row to each URL on each server, must be the 200 with the right content.
Last, a restart with no traffic at all, after which every thread's persistent connection is dead
without anyone having noticed: N in a row must still all be 200 (what ``CONN_HEALTH_CHECKS`` is for).
"""

import http.client
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection, connections
from django.test import Client, RequestFactory, override_settings
from django.urls import include, path

from catalogue import caching
from config import errors
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 (the site's, for this URLconf)
from tests.conftest import ROOT, SEEDS
from tests.servers import free_port, run_manage, start_gunicorn, stop

SLUG = "gpipe-efficient-training-of-giant-neural"
TITLE = "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism"
PAPER = f"/paper/{SLUG}"
SEARCH = "/search?q=pipeline"
API = f"/api/v1/papers/{SLUG}/"
UNAVAILABLE = {"detail": "Service temporarily unavailable, try again later."}
LEAKS = (
    "Traceback",
    "OperationalError",
    "InterfaceError",
    "psycopg",
    "SELECT",
    "connection to server",
    'File "',
)


def assert_clean_503(status: int, headers: dict, body: bytes, api: bool) -> None:
    assert status == 503
    assert int(headers["Retry-After"]) > 0
    assert headers["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" in headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    text = body.decode()
    for leak in LEAKS:
        assert leak not in text, leak
    if api:
        assert headers["Content-Type"] == "application/json"
        assert json.loads(body) == UNAVAILABLE
    else:
        assert headers["Content-Type"].startswith("text/html")
        assert "Back in a moment" in text


# --- in-process: a lost connection, simulated -------------------------------------------------


def _lose_the_connection():
    """What a query on a connection the server has closed raises, through Django's wrapper."""
    with connection.wrap_database_errors:
        raise connection.Database.OperationalError("server closed the connection unexpectedly")


def needs_the_database(request):
    _lose_the_connection()


def hits_a_working_database_error(request):
    with connection.wrap_database_errors:
        raise connection.Database.OperationalError("canceling statement due to statement timeout")


urlpatterns = [
    path("needs-db", needs_the_database),
    path("api/needs-db", needs_the_database),
    path("db-error", hits_a_working_database_error),
    path("", include("config.urls")),
]


@pytest.fixture
def connection_lost(db, monkeypatch):
    """From now on the default connection fails its health check, as a dead one would."""
    monkeypatch.setattr(connections["default"], "is_usable", lambda: False)
    yield
    connections["default"].errors_occurred = False


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
@pytest.mark.parametrize(("url", "api"), [("/needs-db", False), ("/api/needs-db", True)])
def test_a_lost_database_gives_a_clean_503(connection_lost, url, api):
    response = Client(raise_request_exception=False).get(url)
    assert_clean_503(response.status_code, response.headers, response.content, api)


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
def test_a_database_error_on_a_working_connection_stays_a_500(db):
    response = Client(raise_request_exception=False).get("/db-error")
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
    assert "Retry-After" not in response


def test_the_500_handler_answers_503_for_a_lost_database_too(connection_lost):
    # Django calls handler500 while handling an exception raised outside a view (a middleware).
    request = RequestFactory().get("/api/v1/papers/")
    try:
        _lose_the_connection()
    except Exception:
        response = errors.server_error(request)
    assert response.status_code == 503
    assert json.loads(response.content) == UNAVAILABLE


@pytest.mark.parametrize("url", [PAPER, API])
def test_with_the_cache_on_a_lost_database_serves_the_last_copy(loaded_seeds, settings, monkeypatch, url):
    settings.PAGE_CACHE_SECONDS = 60
    settings.API_THROTTLE_ANON = "off"
    client = Client(raise_request_exception=False)
    before = client.get(url)
    assert before.status_code == 200

    monkeypatch.setattr(connections["default"], "is_usable", lambda: False)
    monkeypatch.setattr(caching, "data_version", _lose_the_connection)
    try:
        during = client.get(url)
        assert during.status_code == 200
        assert during.content == before.content
        assert during["ETag"] == before["ETag"]
        # Nothing was cached for this one: the 503 stands.
        missing = client.get(url.replace("gpipe", "no-such-gpipe"))
        assert_clean_503(missing.status_code, missing.headers, missing.content, url.startswith("/api/"))
    finally:
        connections["default"].errors_occurred = False


# --- a real PostgreSQL restarted under traffic -------------------------------------------------

URLS = {PAPER: TITLE.encode(), SEARCH: b"GPipe", API: TITLE.encode()}
CLIENTS_PER_URL = 1
OUTAGE_SECONDS = 3.0
IN_A_ROW = 20  # requests to each URL on each server once /readyz is 200 again


def _pgcluster():
    spec = importlib.util.spec_from_file_location("pgcluster", ROOT / "scripts" / "pgcluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def own_cluster():
    """A cluster of this test's own; stopping and starting it touches no other."""
    if connection.vendor != "postgresql":
        pytest.skip("the production database is PostgreSQL")
    pgcluster = _pgcluster()
    try:
        cluster = pgcluster.Cluster()
    except pgcluster.ClusterError as exc:
        pytest.skip(str(exc))
    try:
        cluster.create()
        cluster.start()
        cluster.create_database()
        yield cluster
    finally:
        cluster.destroy()


def stop_postgres(cluster, mode: str) -> None:
    cluster._pg("pg_ctl", "--pgdata", str(cluster.datadir), "-m", mode, "--wait", "--timeout", "60", "stop")


def start_postgres(cluster) -> None:
    # On the port it had: the servers' DATABASE_URL names it.
    cluster._pg(
        "pg_ctl",
        "--pgdata",
        str(cluster.datadir),
        "--log",
        str(cluster.logfile),
        "--options",
        f"-p {cluster.port}",
        "--wait",
        "--timeout",
        "60",
        "start",
    )


@dataclass
class Answer:
    server: str
    path: str
    started: float
    ended: float
    status: int | None = None
    headers: dict | None = None
    body: bytes = b""
    error: str | None = None


def fetch(server: str, port: int, path: str) -> Answer:
    answer = Answer(server, path, started=time.monotonic(), ended=0.0)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        answer.status, answer.headers, answer.body = response.status, dict(response.headers), response.read()
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, cut short
        answer.error = f"{exc.__class__.__name__}: {exc}"
    finally:
        conn.close()
        answer.ended = time.monotonic()
    return answer


def wait_until_ready(port: int, proc: subprocess.Popen, log: Path, timeout: float = 60) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"gunicorn exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        answer = fetch("", port, "/readyz")
        if answer.status == 200:
            return answer.ended
        time.sleep(0.05)
    pytest.fail(f"/readyz on {port} not 200 within {timeout} s:\n{log.read_text()[-3000:]}")


@pytest.fixture
def servers(own_cluster, tmp_path):
    """{"cache off": (port, proc, log), "cache on": ...}: two gunicorns on the cluster, seeds loaded."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": own_cluster.url,
        "CACHE_URL": "",  # each worker its own local-memory cache
        "STATIC_MANIFEST": "0",  # the suite never runs collectstatic
        "API_THROTTLE_ANON": "off",
        "REQUEST_LOG_LEVEL": "WARNING",
    }
    for command in (["migrate", "--noinput", "-v0"], ["load_snapshot", *map(str, SEEDS)]):
        done = run_manage(*command, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
    started = {}
    try:
        for name, cache_seconds in (("cache off", "0"), ("cache on", "600")):
            port = free_port()
            log = tmp_path / f"gunicorn-{name.replace(' ', '-')}.log"
            proc = start_gunicorn(
                {
                    **env,
                    "PORT": str(port),
                    "WEB_CONCURRENCY": "2",
                    "GUNICORN_THREADS": "4",
                    "CONN_MAX_AGE": "600",
                    "PAGE_CACHE_SECONDS": cache_seconds,
                },
                log,
            )
            started[name] = (port, proc, log)
            wait_until_ready(port, proc, log)
        yield started
    finally:
        for _port, proc, _log in started.values():
            stop(proc)


class Traffic:
    """Client threads asking every server for every URL, one request after another, until stopped."""

    def __init__(self, servers: dict):
        self.answers: list[Answer] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._run, args=(name, port, url), daemon=True)
            for name, (port, _proc, _log) in servers.items()
            for url in URLS
            for _ in range(CLIENTS_PER_URL)
        ]

    def _run(self, name: str, port: int, url: str) -> None:
        while not self._stop.is_set():
            answer = fetch(name, port, url)
            with self._lock:
                self.answers.append(answer)
            time.sleep(0.005)

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def check_answer(answer: Answer, good: dict) -> None:
    """The right 200 or the clean 503, nothing else."""
    where = f"{answer.server} {answer.path}"
    assert answer.error is None, f"{where}: {answer.error}"
    if answer.status == 200:
        assert answer.body == good[(answer.server, answer.path)], f"{where}: a 200 with other content"
        return
    assert answer.status == 503, f"{where}: {answer.status}\n{answer.body[:2000].decode(errors='replace')}"
    assert_clean_503(answer.status, answer.headers, answer.body, answer.path.startswith("/api/"))


def all_200_in_a_row(servers: dict, good: dict, when: str) -> None:
    # One after another: each worker's idle threads take turns, so every thread answers some.
    for name, (port, _proc, _log) in servers.items():
        for url in URLS:
            in_a_row = [fetch(name, port, url) for _ in range(IN_A_ROW)]
            assert [a.status for a in in_a_row] == [200] * IN_A_ROW, (when, name, url)
            assert all(a.body == good[(name, url)] for a in in_a_row), (when, name, url)


@pytest.mark.slow
@pytest.mark.postgres_only
def test_postgresql_restarted_under_traffic(servers, own_cluster):
    # What each server answers with the database up (the same copy every time, cache or not).
    good = {}
    for name, (port, _proc, _log) in servers.items():
        for url, marker in URLS.items():
            answer = fetch(name, port, url)
            assert answer.status == 200, (name, url, answer.status, answer.error)
            assert marker in answer.body, (name, url)
            good[(name, url)] = answer.body

    outages = []
    with Traffic(servers) as traffic:
        time.sleep(1.5)  # warm: both workers of each server have served (and cached) every URL
        for mode in ("fast", "immediate"):
            stopping = time.monotonic()
            stop_postgres(own_cluster, mode)
            down = time.monotonic()
            time.sleep(OUTAGE_SECONDS)
            starting = time.monotonic()
            start_postgres(own_cluster)
            back = max(wait_until_ready(port, proc, log) for port, proc, log in servers.values())
            outages.append((mode, stopping, down, starting, back))
            time.sleep(1.5)  # traffic on the restarted database
    answers = traffic.answers

    for answer in answers:
        check_answer(answer, good)

    first_stop = outages[0][1]
    assert all(a.status == 200 for a in answers if a.ended < first_stop), "failures before any outage"
    report = []
    next_stops = [o[1] for o in outages[1:]] + [float("inf")]
    for (mode, stopping, down, starting, back), next_stop in zip(outages, next_stops, strict=True):
        during = [a for a in answers if a.started >= down and a.ended <= starting]
        after = [a for a in answers if a.started >= back and a.ended < next_stop]
        counts = Counter((a.server, a.path, a.status) for a in during)
        counts = dict(sorted(counts.items()))
        report.append(
            f"-m {mode}: down {starting - down:.1f} s (stopping took {down - stopping:.2f} s, "
            f"start to /readyz 200 {back - starting:.2f} s); answers while down: {counts}; "
            f"after /readyz: {len(after)}, all 200"
        )
        for name in servers:
            for url in URLS:
                statuses = [a.status for a in during if a.server == name and a.path == url]
                assert statuses, f"-m {mode}: no answer from {name} {url} during the outage"
                if name == "cache off":
                    assert set(statuses) == {503}, f"-m {mode}: {name} {url}: {Counter(statuses)}"
                else:
                    # Some worker had this page cached at the version it last read.
                    assert 200 in statuses, f"-m {mode}: {name} {url}: {Counter(statuses)}"
        # Once /readyz answers again, nothing fails: stale connections were health-checked away.
        failed = [(a.server, a.path, a.status) for a in after if a.status != 200]
        assert not failed, f"-m {mode}: after /readyz was 200 again: {Counter(failed)}"
        assert after

    all_200_in_a_row(servers, good, "after the restarts under traffic")

    # A quiet restart: no request meanwhile, so every thread's persistent connection now leads to
    # a server process that is gone. Each must be found dead and replaced before its first query.
    stop_postgres(own_cluster, "fast")
    start_postgres(own_cluster)
    for port, proc, log in servers.values():
        wait_until_ready(port, proc, log)
    all_200_in_a_row(servers, good, "after a quiet restart")
    for name, (_port, _proc, log) in servers.items():
        text = log.read_text()
        assert "Traceback" not in text, f"{name}:\n{text[-3000:]}"
        assert "WORKER TIMEOUT" not in text, f"{name}:\n{text[-3000:]}"
    # The figures (pytest -rP or -s shows them).
    sys.stderr.write(f"\n{len(answers)} answers under traffic\n" + "\n".join(report) + "\n")
