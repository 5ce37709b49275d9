"""SQLite: the site and ``load_snapshot`` running together never answer "database is locked".

One SQLite file (WAL) holds the seeds and the 2,000-paper synthetic snapshot (bench/generate.py).
gunicorn (config/gunicorn.conf.py, 2 workers × 4 threads) serves it while ``load_snapshot --force``
reloads that snapshot together with a newer edition of its Syntology-read paper documents (every
one of their titles changed). Meanwhile two curators correct the titles of those very papers and
the statuses of their samples through the admin, as a browser would (GET the change form, POST
it back), and two readers fetch public pages and the API.

The admin's change views run in a transaction, which on SQLite takes the write lock up front
(``transaction_mode: IMMEDIATE``), so a curator's page waits while the load's write transaction
is open: the promise is that it waits (the busy timeout, config/settings.py) and then succeeds.

Checked: every answer is 2xx/3xx; neither the server's log nor the loader's output says
"database is locked"; the loader exits 0 and its new titles are stored as the snapshot's value;
every correction a curator saved is shown afterwards, in the database and through the API.
A watcher reads /proc/locks to see which process holds the WAL write lock (a POSIX lock on byte
120 of the -shm file) and when; the test insists that admin requests were made while the loader
held it and waited for it, so it cannot pass by missing the load.
"""

import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.db import connection

from tests.admin_client import form_data
from tests.conftest import ROOT, SEEDS
from tests.servers import free_port, run_manage, start_gunicorn, stop

log = logging.getLogger(__name__)

PAPERS = 2000
NEWER_READ_AT = "2027-01-01T00:00:00+00:00"
NEWER_TITLE = "(newer edition)"
LOCKED = "database is locked"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "sqlite",
        reason="SQLite's locking: checked in the SQLite run (it makes its own SQLite file either way)",
    ),
    pytest.mark.skipif(
        not Path("/proc/locks").exists(), reason="needs Linux's /proc/locks to see who holds the write lock"
    ),
]


# --- processes ----------------------------------------------------------------------------------


def manage(env, *args) -> subprocess.CompletedProcess:
    done = run_manage(*args, env=env, timeout=600)
    assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


def newer_edition(snapshot: Path, target: Path) -> set[str]:
    """Paper documents of ``snapshot`` read again later with a changed title; returns their slugs.

    Only documents with a Syntology ``read_at``: without one, which version wins is up to the
    content hashes, not to time.
    """
    target.mkdir()
    slugs = set()
    for path in sorted(snapshot.glob("*.json")):
        doc = json.loads(path.read_text())
        if not doc["url"].startswith("/paper/") or not (doc.get("syntology") or {}).get("read_at"):
            continue
        doc["title"] = f"{(doc.get('title') or '').strip()} {NEWER_TITLE}".strip()
        doc["syntology"]["read_at"] = NEWER_READ_AT
        (target / path.name).write_text(json.dumps(doc))
        slugs.add(doc["url"].removeprefix("/paper/"))
    return slugs


class WriteLockWatcher(threading.Thread):
    """Which process holds the SQLite file's write lock, sampled every few milliseconds.

    In WAL mode a write transaction holds a POSIX lock on byte 120 of the ``-shm`` file (SQLite's
    WAL_WRITE_LOCK) from its BEGIN to its COMMIT; /proc/locks names the process. One connection
    is kept open here so that the ``-shm`` file (and its inode) stays the same throughout.
    """

    def __init__(self, database: Path):
        super().__init__(daemon=True)
        self.keep_open = sqlite3.connect(database)
        self.keep_open.execute("SELECT count(*) FROM sqlite_master").fetchall()
        shm = os.stat(f"{database}-shm")
        self.inode = f"{os.major(shm.st_dev):02x}:{os.minor(shm.st_dev):02x}:{shm.st_ino}"
        self.windows: list[tuple[int, float, float]] = []  # (pid, first seen, last seen)
        self.done = threading.Event()

    def holder(self) -> int | None:
        with open("/proc/locks") as locks:
            for line in locks:
                f = line.split()
                if f[1] != "->" and f[3] == "WRITE" and f[5] == self.inode and f[6] == "120":
                    return int(f[4])
        return None

    def run(self):
        current, first, last = None, 0.0, 0.0
        while not self.done.is_set():
            now, pid = time.monotonic(), self.holder()
            if pid != current:
                if current is not None:
                    self.windows.append((current, first, last))
                current, first = pid, now
            last = now
            time.sleep(0.003)
        if current is not None:
            self.windows.append((current, first, last))

    def stop(self):
        self.done.set()
        self.join()
        self.keep_open.close()

    def held_by(self, pid: int) -> list[tuple[float, float]]:
        return [(first, last) for holder, first, last in self.windows if holder == pid]


# --- clients ------------------------------------------------------------------------------------


@dataclass
class Call:
    who: str
    method: str
    path: str
    status: int  # 0: no answer (the exception is in ``error``)
    started: float
    ended: float
    error: str = ""


@dataclass
class Traffic:
    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    calls: list[Call] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    titles: dict[int, str] = field(default_factory=dict)  # paper id -> title a curator saved
    statuses: dict[int, str] = field(default_factory=dict)  # sample id -> status a curator saved
    refused: int = 0  # saves refused as stale (a load changed the row under the form): retried

    def call(self, session, who, method, path, **kwargs) -> requests.Response | None:
        started = time.monotonic()
        try:
            response = session.request(method, self.base + path, timeout=120, allow_redirects=False, **kwargs)
        except requests.RequestException as exc:
            self.calls.append(Call(who, method, path, 0, started, time.monotonic(), repr(exc)))
            return None
        self.calls.append(Call(who, method, path, response.status_code, started, time.monotonic()))
        return response


def log_in(traffic: Traffic, username: str, password: str) -> requests.Session:
    session = requests.Session()
    page = traffic.call(session, username, "GET", "/admin/login/?next=/admin/")
    assert page is not None
    assert page.status_code == 200, page.text[:2000]
    answer = traffic.call(
        session,
        username,
        "POST",
        "/admin/login/?next=/admin/",
        data=form_data(page, username=username, password=password),
    )
    assert answer is not None
    assert answer.status_code == 302, answer.text[:2000]
    return session


def save(traffic: Traffic, session, who: str, path: str, **changes) -> bool:
    """Correct one row through its admin change form; a stale form is reloaded and sent again."""
    changelist = path.rsplit("/", 3)[0] + "/"  # where a saved change form sends the curator
    for _ in range(5):
        page = traffic.call(session, who, "GET", path)
        if page is None or page.status_code != 200:
            return False
        answer = traffic.call(session, who, "POST", path, data=form_data(page, **changes))
        if answer is None:
            return False
        went = urllib.parse.urlsplit(answer.headers.get("Location", "")).path
        if answer.status_code == 302 and went == changelist:
            return True
        if (answer.status_code == 302 and went == path) or (
            answer.status_code == 200 and "was changed by someone else" in answer.text
        ):
            traffic.refused += 1
            continue
        traffic.problems.append(f"{who}: POST {path} answered {answer.status_code} (to {went!r})")
        return False
    traffic.problems.append(f"{who}: {path} refused as stale five times running")
    return False


def curate(traffic: Traffic, session, who: str, papers: list[int], samples: list[tuple[int, str]]):
    for n, (paper, (sample, status)) in enumerate(zip(papers, samples, strict=False)):
        if traffic.stop.is_set():
            return
        title = f"Title corrected by {who}, edit {n}"
        if save(traffic, session, who, f"/admin/catalogue/paper/{paper}/change/", title=title):
            traffic.titles[paper] = title
        reason = f"checked by {who} while a load ran"
        if save(
            traffic, session, who, f"/admin/catalogue/sample/{sample}/change/", status=status, reason=reason
        ):
            traffic.statuses[sample] = status
    traffic.problems.append(f"{who} ran out of rows to correct before the load ended")


def read(traffic: Traffic, who: str, paths: list[str]):
    session = requests.Session()
    while not traffic.stop.is_set():
        for path in paths:
            traffic.call(session, who, "GET", path)
            if traffic.stop.is_set():
                return


def in_thread(traffic: Traffic, target, *args) -> threading.Thread:
    def run():
        try:
            target(traffic, *args)
        except Exception as exc:  # a failed assertion in a thread must fail the test
            traffic.problems.append(f"{target.__name__}: {exc!r}")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


# --- the test -----------------------------------------------------------------------------------


def test_curators_and_readers_during_a_load_never_see_database_is_locked(tmp_path):
    database = tmp_path / "catalogue.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": f"sqlite:///{database}",
        "CURATOR_PASSWORD": "curates-papers-during-loads-2026",
        "PYTHONUNBUFFERED": "1",
    }
    snapshot = tmp_path / "snapshot"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "generate.py"),
            "--papers",
            str(PAPERS),
            "--out",
            str(snapshot),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    newer_slugs = newer_edition(snapshot, tmp_path / "newer")
    manage(env, "migrate", "-v0")
    manage(env, "load_snapshot", *map(str, SEEDS))
    manage(env, "load_snapshot", str(snapshot))
    for name in ("cora", "cid"):
        manage(env, "create_curator", name, "--noinput")

    # The rows to correct: the papers the load will give new titles, and their samples.
    with closing(sqlite3.connect(database)) as db:
        slug_of = dict(db.execute("SELECT id, slug FROM catalogue_paper"))
        papers = sorted(pk for pk, slug in slug_of.items() if slug in newer_slugs)
        samples = [
            (pk, "ran_violates" if status == "ran_honours" else "ran_honours")
            for pk, status in db.execute(
                f"SELECT id, status FROM catalogue_sample WHERE paper_id IN ({','.join('?' * len(papers))}) "
                "ORDER BY id",
                papers,
            )
        ]
    assert len(papers) > 500
    assert len(samples) > 200

    port = free_port()
    server_log = tmp_path / "gunicorn.log"
    server_env = {
        **env,
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "GUNICORN_THREADS": "4",
        "SECURE_COOKIES": "0",  # plain http on loopback: the session and CSRF cookies must travel
        "ADMIN_REQUIRE_2FA": "0",
        "STATIC_MANIFEST": "0",
        "API_THROTTLE_ANON": "off",
        "PAGE_CACHE_SECONDS": "0",  # every read goes to the database
    }
    server = start_gunicorn(server_env, server_log)
    loader = None
    watcher = WriteLockWatcher(database)
    traffic = Traffic(f"http://127.0.0.1:{port}")
    try:
        for _ in range(300):
            assert server.poll() is None, server_log.read_text()[-3000:]
            try:
                if requests.get(traffic.base + "/readyz", timeout=10).status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.1)
        else:
            pytest.fail(f"gunicorn did not come up:\n{server_log.read_text()[-3000:]}")

        sessions = {name: log_in(traffic, name, env["CURATOR_PASSWORD"]) for name in ("cora", "cid")}
        watcher.start()
        slugs = sorted(slug_of[pk] for pk in papers)[:20]
        public = ["/", "/papers/", *(f"/paper/{s}" for s in slugs[:5]), "/search?q=learning", "/code/"]
        api = [
            "/api/v1/papers/",
            *(f"/api/v1/papers/{s}/" for s in slugs[5:10]),
            "/api/v1/code-entries/",
            "/api/v1/search/?q=learning",
        ]
        threads = [
            in_thread(traffic, curate, sessions["cora"], "cora", papers[0::2], samples[0::2]),
            in_thread(traffic, curate, sessions["cid"], "cid", papers[1::2], samples[1::2]),
            in_thread(traffic, read, "pages", public),
            in_thread(traffic, read, "api", api),
        ]
        time.sleep(1.0)  # curators at work before the load starts, and after it ends
        load_started = time.monotonic()
        loader = subprocess.Popen(
            [sys.executable, "manage.py", "load_snapshot", "--force", str(snapshot), str(tmp_path / "newer")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        loader_out, loader_err = loader.communicate(timeout=600)
        load_seconds = time.monotonic() - load_started
        time.sleep(1.5)
        traffic.stop.set()
        for thread in threads:
            thread.join(timeout=180)
        watcher.stop()

        # What the API shows now: each correction, whatever the order of load and save.
        shown = {}
        for pk in traffic.titles:
            answer = requests.get(f"{traffic.base}/api/v1/papers/{slug_of[pk]}/", timeout=60)
            shown[pk] = (answer.status_code, answer.json().get("title"))
    finally:
        traffic.stop.set()
        if loader is not None and loader.poll() is None:
            loader.kill()
            loader.wait()
        stop(server)
        if watcher.is_alive():
            watcher.stop()
    server_text = server_log.read_text()

    # The loader: finished, and never locked out.
    assert loader.returncode == 0, f"{loader_out}\n{loader_err}"
    assert "loaded (load record" in loader_out
    assert LOCKED not in loader_out + loader_err
    # The site: no error of any kind, and none logged.
    locked = [line for line in server_text.splitlines() if LOCKED in line]
    assert not locked, f"{len(locked)} lines of the server's log say {LOCKED!r}, e.g. {locked[:2]}"
    failed = [c for c in traffic.calls if not 200 <= c.status < 400]
    assert not failed, f"{len(failed)} of {len(traffic.calls)} requests failed, e.g. {failed[:5]}"
    assert not traffic.problems, "\n".join(traffic.problems[:20])
    assert "Traceback" not in server_text, server_text[-5000:]

    # The load ran while curators worked, and held the write lock while they waited for it.
    held = watcher.held_by(loader.pid)
    assert held, "the loader was never seen holding the write lock"
    admin_calls = [c for c in traffic.calls if c.path.startswith("/admin/catalogue/")]
    waited = [c for c in admin_calls for first, last in held if first <= c.started <= last < c.ended]
    assert waited, "no curator request was made while the load held the write lock: nothing was tested"
    longest = max(last - first for first, last in held)
    server_holds = [last - first for pid, first, last in watcher.windows if pid not in (None, loader.pid)]

    # Every correction saved is there, and the load's own values beside them.
    assert traffic.titles
    assert traffic.statuses
    with closing(sqlite3.connect(database)) as db:
        for pk, title in traffic.titles.items():
            row = db.execute(
                "SELECT title, title_corrected, title_upstream FROM catalogue_paper WHERE id = ?", (pk,)
            ).fetchone()
            assert row[:2] == (title, 1), (pk, row)
            assert row[2].endswith(NEWER_TITLE), (pk, row)  # the load wrote this row too
            assert shown[pk] == (200, title), (pk, shown[pk])
        for pk, status in traffic.statuses.items():
            row = db.execute(
                "SELECT status, status_corrected FROM catalogue_sample WHERE id = ?", (pk,)
            ).fetchone()
            assert row == (status, 1), (pk, row)
        active = db.execute("SELECT count(*) FROM catalogue_correction WHERE removed_at IS NULL").fetchone()[
            0
        ]
        assert active == len(traffic.titles) + len(traffic.statuses)
        newer = db.execute(
            "SELECT count(*) FROM catalogue_paper WHERE title_upstream LIKE ?", (f"%{NEWER_TITLE}",)
        ).fetchone()[0]
        assert newer == len(papers)

    log.info(
        "load %.1f s, write lock held by the loader %.2f s (longest of %d holds), by the site at most "
        "%.2f s; %d requests (%d admin, %d made while the load held the lock, slowest %.2f s), "
        "%d titles and %d statuses corrected, %d stale forms reloaded",
        load_seconds,
        longest,
        len(held),
        max(server_holds, default=0.0),
        len(traffic.calls),
        len(admin_calls),
        len(waited),
        max(c.ended - c.started for c in traffic.calls),
        len(traffic.titles),
        len(traffic.statuses),
        traffic.refused,
    )
