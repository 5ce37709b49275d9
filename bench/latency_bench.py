"""Latency of every page and API endpoint at two catalogue sizes, and the site held while loading.

    .venv/bin/python bench/latency_bench.py [--papers 20000 500000] [--duration 5] [--reuse] [--only RE]
    .venv/bin/python bench/latency_bench.py --reload-under-load [--reload-papers 20000] [--cache on off]

Issue 6 asks two things of the site on PostgreSQL, and this measures both.

(a) Every page and API endpoint keeps its p50 at 500,000 papers within 1.5x of its p50 at
20,000 (deep pagination, facet counts and search must not scan the whole table). For each
scale, the database ``cwp_<papers>`` in the cluster DATABASE_URL names (an admin URL; without
it a throwaway cluster from scripts/pgcluster.py) is created, migrated and loaded with
``load_snapshot`` from bench/out/data/papers-<papers>-seed-0 (generated once if missing), or,
with ``--reuse``, taken as it is (it must be migrated and loaded); then VACUUM ANALYZE. The
objects each URL shows are picked by the same SQL at every scale (the busiest code entry, the
biggest leaderboard, the row in the middle of a list for deep pages...). One gunicorn per
scale, config/gunicorn.conf.py with the same settings (2 workers x 4 threads, CONN_MAX_AGE=600,
the response cache off: the database path is what is timed; throttling off; no request log);
all are up together and each URL is timed at one scale right after the other, so both
figures of a row share the machine's background load. Every URL is checked to answer 200
(else it is marked FAILED and skipped), warmed, then timed with wrk (2 threads, 8
connections, ``--duration`` s). Afterwards, unless
``--no-profile``, each URL is requested in-process (Django's test client) with its queries
captured: how many, their total time, the slowest, and that one's EXPLAIN ANALYZE.
Output: bench/out/latency-<a>-<b>.md and .json (raw wrk output and plans in the JSON).

(b) Load held while loading. On a copy of ``cwp_<papers>`` (the smallest scale unless
``--reload-papers``), gunicorn serves with the response cache on as deployed (redis, when
redis-server is installed, as scripts/serve.sh runs it) and, with ``--cache on off``, off; one
wrk rotates over a paper page, the busiest code-entry page and a search page for the whole of a
``load_snapshot --force`` run, and Python threads poll pages and API figures meanwhile. Two
loads: the same snapshot again (every file re-read and merged; nothing changes), and the next
snapshot: the same generator and seed with 5 % more papers (bench/out/data/papers-<N*1.05>-seed-0:
new papers, bodies, entries and places, busier code entries; the catalogue really changes). Every
polled answer must be the one from before the load or the one from after it, never another
(a page built from some rows before the commit and some after), and no request may fail.
Output: bench/out/reload-under-load-<papers>.md and .json.

Databases named ``cwp_<papers>`` that exist are never dropped unless ``--fresh`` says so.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import http.client
import itertools
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

from django.utils.text import slugify  # needs no settings

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "scripts"))

import pages_bench  # noqa: E402
from archive_bench import cluster_url, database, drop  # noqa: E402
from load_bench import OUT, PYTHON, ROOT, ensure_snapshot, machine, measure  # noqa: E402

WORK = OUT / "latency"
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
LUA_ROTATE = BENCH / "reload_rotate.lua"
TARGET_RATIO = 1.5
NARROW_QUERY = "language pretraining"  # ~2 % of search documents in the synthetic data
BROAD_QUERY = "learning"  # ~12 %
DEEP_PAGE = 200  # page mode: page 200 of 50 rows, when every scale has that many
API_PAGE_SIZE = 50
GROWTH = 20  # (b): the changed snapshot has 1/GROWTH more papers

# The same for every scale and every run: what differs between two rows is the data alone.
BUST = "zzpoll"  # a page's copy nobody has asked for: a new value each time (answer())
SERVER_ENV = {
    "WEB_CONCURRENCY": "2",
    "GUNICORN_THREADS": "4",
    "GUNICORN_TIMEOUT": "30",
    "GUNICORN_LOG_LEVEL": "warning",
    "CONN_MAX_AGE": "600",
    "PAGE_CACHE_SECONDS": "0",  # pages and API: catalogue.caching's response cache off
    "CACHE_URL": "",  # local memory (only throttling would use it, and that is off)
    "API_THROTTLE_ANON": "off",
    "CACHE_BUST_PARAM": BUST,  # pages accept it only when told to (any other is redirected away)
    "REQUEST_LOG_LEVEL": "WARNING",  # no line per request
    "LOG_LEVEL": "WARNING",
    "DEBUG": "",
    "SECRET_KEY": "latency-bench-" + "x" * 50,
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "STATIC_MANIFEST": "0",  # no collectstatic needed; no page here is a static file
    "SECURE_SSL_REDIRECT": "",
    "HOST": "127.0.0.1",
}
DROPPED_ENV = ("DATABASE_REPLICA_URL", "PORT")


# --------------------------------------------------------------------------- small helpers


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def db_url(admin_url: str, name: str) -> str:
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


def server_env(url: str, **overrides: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    return {**env, **SERVER_ENV, "DATABASE_URL": url, **overrides}


def fetch(port: int, path: str, timeout: float = 120) -> tuple[int, dict, bytes]:
    """One GET, redirects not followed: (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def keyset_cursor(values: list) -> str:
    """The pages' cursor for a row (catalogue.pagination.keyset.encode_cursor, without importing Django)."""
    raw = json.dumps(values, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def drf_cursor(position: str) -> str:
    """The API's cursor-mode token for "after the row whose ordering value is ``position``"."""
    return base64.b64encode(urlencode({"p": position}).encode("ascii")).decode("ascii")


def seg(value: str) -> str:
    return quote(str(value), safe="")


class Server(pages_bench.Server):
    """gunicorn with config/gunicorn.conf.py on a free loopback port, in its own process group."""

    def __init__(self, env: dict, label: str):  # not super().__init__: it names its own log file
        WORK.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.log = open(WORK / f"server-{label}.log", "w")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            [GUNICORN, "-c", "config/gunicorn.conf.py"],
            env={**env, "PORT": str(self.port)},
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=45)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


class Redis:
    """A redis-server of our own on a free port (the deployed cache; scripts/serve.sh starts one)."""

    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly",
             "no", "--maxmemory", "256mb", "--maxmemory-policy", "allkeys-lru", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5):
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(timeout=30)


# --------------------------------------------------------------------------- wrk


def wrk_command(url: str, duration: int, *, connections: int = 8, script: Path | None = None, args=()):
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "--latency"]
    if script:
        cmd += ["-s", str(script)]
    return [*cmd, url, *(["--", *args] if args else [])]


def parse_wrk(out: str) -> dict:
    """Figures of one wrk --latency run (times in ms); missing figures are None."""

    def ms(value):
        return pages_bench._ms(value) if value else None

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in ([\d.]+\w+)", out)
    stats = re.search(r"^\s+Latency\s+(\S+)\s+(\S+)\s+(\S+)", out, re.M)
    percentiles = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M))
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    statuses = re.search(r"^STATUS(.*)$", out, re.M)
    kinds = ("connect", "read", "write", "timeout")
    errors = dict(zip(kinds, map(int, sockets.groups()), strict=True)) if sockets else dict.fromkeys(kinds, 0)
    return {
        "requests": int(total[1]) if total else 0,
        "rps": float(rps[1]) if rps else 0.0,
        "mean_ms": ms(stats[1]) if stats else None,
        "max_ms": ms(stats[3]) if stats else None,
        "p50_ms": ms(percentiles.get("50")),
        "p75_ms": ms(percentiles.get("75")),
        "p90_ms": ms(percentiles.get("90")),
        "p99_ms": ms(percentiles.get("99")),
        "non_2xx_3xx": int(non_ok[1]) if non_ok else 0,
        "socket_errors": errors,
        "statuses": {int(k): int(v) for k, v in re.findall(r"(\d+)=(\d+)", statuses[1])} if statuses else {},
    }


def run_wrk(url: str, duration: int) -> dict:
    done = subprocess.run(wrk_command(url, duration), capture_output=True, text=True, check=False)
    return {**parse_wrk(done.stdout), "raw": done.stdout + done.stderr}


# --------------------------------------------------------------------------- databases


def psql(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True)


def database_exists(admin_url: str, name: str) -> bool:
    with psql(admin_url) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None


def loaded_state(url: str) -> dict | None:
    """Papers, places and the last successful load of a database, or None if it holds no catalogue."""
    with psql(url) as conn:
        if conn.execute("SELECT to_regclass('catalogue_loadrun')").fetchone()[0] is None:
            return None
        run = conn.execute("SELECT MAX(id) FROM catalogue_loadrun WHERE outcome = 'succeeded'").fetchone()[0]
        papers = conn.execute("SELECT COUNT(*) FROM catalogue_paper").fetchone()[0]
        places = conn.execute("SELECT COUNT(*) FROM catalogue_sample").fetchone()[0]
    return {"load_run": run, "papers": papers, "places": places}


def prepare(
    admin_url: str, papers: int, seed: int, *, reuse: bool, fresh: bool, source: str = "seed"
) -> tuple[str, dict]:
    """The URL of ``cwp_<papers>`` (``cwp_archive_<papers>``), migrated, loaded and analysed, and how."""
    name = f"cwp_{papers}" if source == "seed" else f"cwp_archive_{papers}"
    url = db_url(admin_url, name)
    info: dict = {"database": name}
    exists = database_exists(admin_url, name)
    if exists and not (reuse or fresh):
        sys.exit(f"database {name} exists: --reuse to measure it as it is, --fresh to drop and reload it")
    env = {**os.environ, "DATABASE_URL": url}
    if exists and reuse:
        check = subprocess.run(
            [PYTHON, "manage.py", "migrate", "--check", "-v", "0"], env=env, cwd=ROOT, capture_output=True
        )
        state = loaded_state(url)
        if state is None or not state["load_run"] or not state["papers"]:
            sys.exit(f"--reuse: {name} holds no loaded catalogue ({state}); --fresh reloads it")
        info["reused"] = True
        if check.returncode != 0:  # the tree gained a migration since the load (another app's, say)
            log(f"{name}: applying migrations added since it was loaded")
            migrate = measure([PYTHON, "manage.py", "migrate", "-v", "0"], env=env)
            if not migrate.ok:
                sys.exit(f"--reuse: migrate {name} failed:\n{migrate.output}")
            info["migrated_on_reuse"] = True
        log(f"{name}: reused ({state['papers']:,} papers, {state['places']:,} places)")
    else:
        snapshot = (
            ensure_snapshot(papers, seed, OUT / "data") if source == "seed" else archive_dumps(papers, seed)
        )
        database(admin_url, name)  # drops (only reached with --fresh when it exists) and creates
        migrate = measure([PYTHON, "manage.py", "migrate", "-v", "0"], env=env)
        if not migrate.ok:
            sys.exit(f"migrate {name} failed:\n{migrate.output}")
        log(f"{name}: load_snapshot {snapshot} ...")
        load = measure([PYTHON, "manage.py", "load_snapshot", str(snapshot), "-v", "0"], env=env)
        if not load.ok:
            sys.exit(f"load_snapshot into {name} failed:\n{load.output}")
        log(f"{name}: loaded in {load.wall_s:.1f} s, peak RSS {load.peak_rss_mb:.0f} MB")
        info.update(reused=False, snapshot=str(snapshot), load_s=round(load.wall_s, 1))
    started = time.perf_counter()
    with psql(url) as conn:
        conn.execute("VACUUM ANALYZE")  # what autovacuum would leave: statistics and visibility map
    info["vacuum_analyze_s"] = round(time.perf_counter() - started, 1)
    info.update(loaded_state(url) or {})
    return url, info


def archive_dumps(papers: int, seed: int) -> Path:
    """The Parquet form of bench/generate_archive.py's dumps at this scale, generated once."""
    folder = OUT / "archive" / f"papers-{papers}-seed-{seed}"
    if not (folder / "manifest-parquet.txt").exists():
        log(f"generating archive dumps of {papers:,} papers into {folder} ...")
        subprocess.run(
            [PYTHON, str(BENCH / "generate_archive.py"), "--format", "parquet", "--papers", str(papers),
             "--seed", str(seed), "--out", str(folder)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    return folder / "parquet"


# --------------------------------------------------------------------------- what to request

PICKS = {
    # A paper as pages_bench/api_bench chose it: results, code links and 4-10 places; first by id.
    "paper": """SELECT p.slug, COUNT(s.id) FROM catalogue_paper p JOIN catalogue_sample s ON s.paper_id = p.id
        WHERE EXISTS (SELECT 1 FROM catalogue_result r WHERE r.paper_id = p.id)
          AND EXISTS (SELECT 1 FROM catalogue_codelink c WHERE c.paper_id = p.id)
        GROUP BY p.id HAVING COUNT(s.id) BETWEEN 4 AND 10 ORDER BY p.id LIMIT 1""",
    "paper_fallback": """SELECT p.slug, COUNT(s.id) n FROM catalogue_paper p
        JOIN catalogue_sample s ON s.paper_id = p.id GROUP BY p.id
        ORDER BY (COUNT(s.id) BETWEEN 4 AND 10) DESC, p.id LIMIT 1""",
    "paper_busiest": """SELECT p.slug, COUNT(*) n FROM catalogue_sample s JOIN catalogue_paper p
        ON p.id = s.paper_id GROUP BY p.id ORDER BY n DESC, p.id LIMIT 1""",
    "entry_busiest": """SELECT e.slug, COUNT(*) n, e.id FROM catalogue_sample s JOIN catalogue_codeentry e
        ON e.id = s.entry_id GROUP BY e.id ORDER BY n DESC, e.id LIMIT 1""",
    "entry_typical": """SELECT e.slug, COUNT(*) n FROM catalogue_sample s JOIN catalogue_codeentry e
        ON e.id = s.entry_id GROUP BY e.id ORDER BY (COUNT(*) BETWEEN 10 AND 30) DESC, e.id LIMIT 1""",
    "body_busiest": """SELECT b.sha256_prefix, COUNT(*) n FROM catalogue_sample s JOIN catalogue_codebody b
        ON b.id = s.body_id GROUP BY b.id ORDER BY n DESC, b.id LIMIT 1""",
    "repo_busiest": """SELECT r.host, r.owner, r.name, COUNT(*) n FROM catalogue_sample s
        JOIN catalogue_repo r ON r.id = s.repo_id GROUP BY r.id ORDER BY n DESC, r.id LIMIT 1""",
    "board_biggest": """SELECT b.slug, COUNT(*) n FROM catalogue_result r JOIN catalogue_leaderboard b
        ON b.id = r.leaderboard_id GROUP BY b.id ORDER BY n DESC, b.id LIMIT 1""",
    "task_busiest": """SELECT t.slug, COUNT(*) n FROM catalogue_paper_tasks pt JOIN catalogue_task t
        ON t.id = pt.task_id GROUP BY t.id ORDER BY n DESC, t.id LIMIT 1""",
    "method_busiest": """SELECT m.slug, COUNT(*) n FROM catalogue_paper_methods pm JOIN catalogue_method m
        ON m.id = pm.method_id GROUP BY m.id ORDER BY n DESC, m.id LIMIT 1""",
    "year": """SELECT substr(month, 1, 4) y, COUNT(*) n FROM catalogue_paper WHERE month <> ''
        GROUP BY y ORDER BY n DESC, y LIMIT 1""",
}
COUNTS = {
    "n_papers": "SELECT COUNT(*) FROM catalogue_paper",
    "n_places": "SELECT COUNT(*) FROM catalogue_sample",
    "n_entries": "SELECT COUNT(*) FROM catalogue_codeentry",
    "n_repos": "SELECT COUNT(*) FROM catalogue_repo",
    "n_tasks": "SELECT COUNT(*) FROM catalogue_task",
}


def pick(url: str) -> dict:
    """The objects and positions every URL names, chosen by the same SQL at every scale."""
    t: dict = {}
    with psql(url) as conn:

        def one(sql, params=()):
            return conn.execute(sql, params).fetchone()

        for key, sql in COUNTS.items():
            t[key] = one(sql)[0]
        row = one(PICKS["paper"]) or one(PICKS["paper_fallback"])
        t["paper"], t["paper_places"] = row
        t["paper_busiest"], t["paper_busiest_places"] = one(PICKS["paper_busiest"])
        t["entry"], t["entry_places"], entry_id = one(PICKS["entry_busiest"])
        t["entry_typical"], t["entry_typical_places"] = one(PICKS["entry_typical"])
        t["body"], t["body_places"] = one(PICKS["body_busiest"])
        t["repo_host"], t["repo_owner"], t["repo_name"], t["repo_places"] = one(PICKS["repo_busiest"])
        t["board"], t["board_results"] = one(PICKS["board_biggest"])
        t["task"], t["task_papers"] = one(PICKS["task_busiest"])
        t["method"], t["method_papers"] = one(PICKS["method_busiest"])
        t["year"], _ = one(PICKS["year"])
        t["entry_id"] = entry_id
        # Deep positions: the row in the middle of each list, in that list's own order.
        mid = t["n_papers"] // 2
        month, paper_id = one(
            "SELECT month, id FROM catalogue_paper ORDER BY month DESC, id DESC OFFSET %s LIMIT 1", (mid,)
        )
        t["papers_mid_cursor"] = keyset_cursor([month, paper_id])
        t["papers_mid_slug"] = one(
            "SELECT slug FROM catalogue_paper ORDER BY slug OFFSET %s LIMIT 1", (mid,)
        )[0]
        t["samples_mid_id"] = one(
            "SELECT id FROM catalogue_sample ORDER BY id OFFSET %s LIMIT 1", (t["n_places"] // 2,)
        )[0]
        name, eid = one(
            "SELECT name, id FROM catalogue_codeentry ORDER BY name, id OFFSET %s LIMIT 1",
            (t["n_entries"] // 2,),
        )
        t["entries_mid_cursor"] = keyset_cursor([name, eid])
        (place_id,) = one(
            "SELECT id FROM catalogue_sample WHERE entry_id = %s ORDER BY id DESC OFFSET %s LIMIT 1",
            (entry_id, t["entry_places"] // 2),
        )
        t["entry_mid_cursor"] = keyset_cursor([place_id])
    t["papers_pages"] = -(-t["n_papers"] // API_PAGE_SIZE)
    t["samples_pages"] = -(-t["n_places"] // API_PAGE_SIZE)
    return t


def resolve(port: int, t: dict) -> None:
    """Ids a client learns from the site itself: a leaderboard's first metric and first result;
    with archive data, the conference of the proceeding picked (its page's JSON form names it)."""
    if t.get("source") == "archive":
        status, _, body = fetch(port, f"/proceeding/{seg(t['proceeding_id'])}.json")
        t["conference_id"] = json.loads(body)["conference"] if status == 200 else "none"
        return
    for key, path in (
        ("metric_id", f"/api/v1/evaluations/{seg(t['board'])}/metrics/"),
        ("result_id", f"/api/v1/evaluations/{seg(t['board'])}/results/"),
    ):
        status, _, body = fetch(port, path)
        results = json.loads(body).get("results") if status == 200 else None
        t[key] = results[0]["id"] if results else "none"


@dataclass
class Endpoint:
    name: str
    pattern: str
    path: str


def endpoints(t: dict, deep_page: int) -> list[Endpoint]:
    """Every page kind and every API endpoint, with the objects of ``t``."""
    if t.get("source") == "archive":
        return archive_endpoints(t)
    q_narrow, q_broad = NARROW_QUERY.replace(" ", "+"), BROAD_QUERY
    repo_host = "" if t["repo_host"] == "github.com" else f"?host={seg(t['repo_host'])}"
    owner, name = seg(t["repo_owner"]), seg(t["repo_name"])
    paper, busiest, entry = seg(t["paper"]), seg(t["paper_busiest"]), seg(t["entry"])
    board, task, method = seg(t["board"]), seg(t["task"]), seg(t["method"])
    mid_page = max(1, t["papers_pages"] // 2)
    mid_samples_page = max(1, t["samples_pages"] // 2)
    papers_cursor = urlencode({"pagination": "cursor", "cursor": drf_cursor(t["papers_mid_slug"])})
    samples_cursor = urlencode({"pagination": "cursor", "cursor": drf_cursor(str(t["samples_mid_id"]))})
    sitemap_last = max(1, -(-t["n_papers"] // 5000))
    rows = [
        ("control: healthz (no database)", "/healthz", "/healthz"),
        ("page: home", "/", "/"),
        ("page: about", "/about", "/about"),
        ("page: papers, newest", "/papers/", "/papers/"),
        ("page: papers, sort=title", "/papers/?sort=title", "/papers/?sort=title"),
        ("page: papers, sort=samples", "/papers/?sort=samples", "/papers/?sort=samples"),
        (
            "page: papers, middle of list",
            "/papers/?after=<middle row>",
            f"/papers/?after={t['papers_mid_cursor']}",
        ),
        ("page: papers, task", "/papers/?task=<busiest task>", f"/papers/?task={task}"),
        ("page: papers, method", "/papers/?method=<busiest method>", f"/papers/?method={method}"),
        ("page: papers, year", "/papers/?year=<commonest year>", f"/papers/?year={t['year']}"),
        ("page: papers, has code", "/papers/?has_code=1", "/papers/?has_code=1"),
        ("page: papers, official code", "/papers/?official=1", "/papers/?official=1"),
        ("page: papers, ran", "/papers/?ran=1", "/papers/?ran=1"),
        ("page: paper, typical", "/paper/<slug>", f"/paper/{paper}"),
        ("page: paper, most places", "/paper/<slug>", f"/paper/{busiest}"),
        ("page: code entries, most places", "/code/", "/code/"),
        ("page: code entries, sort=papers", "/code/?sort=papers", "/code/?sort=papers"),
        ("page: code entries, sort=ran", "/code/?sort=ran", "/code/?sort=ran"),
        (
            "page: code entries, by name, middle",
            "/code/?sort=name&after=<middle>",
            f"/code/?sort=name&after={t['entries_mid_cursor']}",
        ),
        ("page: code entries, q", "/code/?q=forward", "/code/?q=forward"),
        ("page: code entry, busiest", "/code/<slug>", f"/code/{entry}"),
        ("page: code entry, busiest, status=ran", "/code/<slug>?status=ran", f"/code/{entry}?status=ran"),
        (
            "page: code entry, busiest, middle",
            "/code/<slug>?after=<middle>",
            f"/code/{entry}?after={t['entry_mid_cursor']}",
        ),
        ("page: code entry, typical", "/code/<slug>", f"/code/{seg(t['entry_typical'])}"),
        ("page: code body, most places", "/body/<prefix>", f"/body/{t['body']}"),
        ("page: repository, most places", "/repo/<owner>/<name>", f"/repo/{owner}/{name}{repo_host}"),
        ("page: leaderboard, most results", "/sota/<slug>", f"/sota/{board}"),
        ("page: task, most papers", "/task/<slug>", f"/task/{task}"),
        ("page: method, most papers", "/method/<slug>", f"/method/{method}"),
        ("page: search, narrow", "/search?q=<2 words>", f"/search?q={q_narrow}"),
        ("page: search, broad", "/search?q=<common word>", f"/search?q={q_broad}"),
        (
            "page: search, facets chosen",
            "/search?q=…&kind=paper&year=…&official=1",
            f"/search?q={q_broad}&kind=paper&year={t['year']}&official=1",
        ),
        ("page: search, page 5", "/search?q=…&page=5", f"/search?q={q_broad}&page=5"),
        ("page: sitemap index", "/sitemap.xml", "/sitemap.xml"),
        ("page: sitemap papers, first", "/sitemap-papers.xml", "/sitemap-papers.xml"),
        (
            "page: sitemap papers, last",
            "/sitemap-papers.xml?p=<last>",
            f"/sitemap-papers.xml?p={sitemap_last}",
        ),
        ("api: search, narrow", "/api/v1/search/?q=<2 words>", f"/api/v1/search/?q={q_narrow}"),
        ("api: search, broad", "/api/v1/search/?q=<common word>", f"/api/v1/search/?q={q_broad}"),
        ("api: papers", "/api/v1/papers/", "/api/v1/papers/"),
        (f"api: papers, page {deep_page}", "/api/v1/papers/?page=N", f"/api/v1/papers/?page={deep_page}"),
        ("api: papers, middle page", "/api/v1/papers/?page=<middle>", f"/api/v1/papers/?page={mid_page}"),
        (
            "api: papers, cursor from middle",
            "/api/v1/papers/?pagination=cursor&cursor=…",
            f"/api/v1/papers/?{papers_cursor}",
        ),
        ("api: papers, q", "/api/v1/papers/?q=<common word>", f"/api/v1/papers/?q={q_broad}"),
        ("api: papers, task", "/api/v1/papers/?task=<busiest>", f"/api/v1/papers/?task={task}"),
        ("api: papers, has_code", "/api/v1/papers/?has_code=true", "/api/v1/papers/?has_code=true"),
        ("api: papers, official", "/api/v1/papers/?official=true", "/api/v1/papers/?official=true"),
        ("api: papers, status", "/api/v1/papers/?status=ran", "/api/v1/papers/?status=ran"),
        ("api: papers, year_min", "/api/v1/papers/?year_min=<year>", f"/api/v1/papers/?year_min={t['year']}"),
        (
            "api: papers, ordering",
            "/api/v1/papers/?ordering=-published",
            "/api/v1/papers/?ordering=-published",
        ),
        ("api: papers, title contains", "/api/v1/papers/?title=<word>", f"/api/v1/papers/?title={q_broad}"),
        ("api: paper", "/api/v1/papers/<id>/", f"/api/v1/papers/{paper}/"),
        (
            "api: paper repositories",
            "/api/v1/papers/<id>/repositories/",
            f"/api/v1/papers/{paper}/repositories/",
        ),
        ("api: paper tasks", "/api/v1/papers/<id>/tasks/", f"/api/v1/papers/{paper}/tasks/"),
        ("api: paper methods", "/api/v1/papers/<id>/methods/", f"/api/v1/papers/{paper}/methods/"),
        ("api: paper results", "/api/v1/papers/<id>/results/", f"/api/v1/papers/{paper}/results/"),
        ("api: paper samples", "/api/v1/papers/<id>/samples/", f"/api/v1/papers/{paper}/samples/"),
        (
            "api: paper samples, most places",
            "/api/v1/papers/<id>/samples/",
            f"/api/v1/papers/{busiest}/samples/",
        ),
        ("api: repositories", "/api/v1/repositories/", "/api/v1/repositories/"),
        ("api: repositories of owner", "/api/v1/repositories/<owner>", f"/api/v1/repositories/{owner}"),
        ("api: repository", "/api/v1/repositories/<owner>/<name>/", f"/api/v1/repositories/{owner}/{name}/"),
        (
            "api: repository papers",
            "/api/v1/repositories/<owner>/<name>/papers/",
            f"/api/v1/repositories/{owner}/{name}/papers/",
        ),
        (
            "api: repository samples",
            "/api/v1/repositories/<owner>/<name>/samples/",
            f"/api/v1/repositories/{owner}/{name}/samples/",
        ),
        ("api: tasks", "/api/v1/tasks/", "/api/v1/tasks/"),
        ("api: task", "/api/v1/tasks/<id>/", f"/api/v1/tasks/{task}/"),
        ("api: task papers", "/api/v1/tasks/<id>/papers/", f"/api/v1/tasks/{task}/papers/"),
        ("api: task evaluations", "/api/v1/tasks/<id>/evaluations/", f"/api/v1/tasks/{task}/evaluations/"),
        ("api: methods", "/api/v1/methods/", "/api/v1/methods/"),
        ("api: method", "/api/v1/methods/<id>/", f"/api/v1/methods/{method}/"),
        ("api: evaluations", "/api/v1/evaluations/", "/api/v1/evaluations/"),
        ("api: evaluation", "/api/v1/evaluations/<id>/", f"/api/v1/evaluations/{board}/"),
        (
            "api: evaluation metrics",
            "/api/v1/evaluations/<id>/metrics/",
            f"/api/v1/evaluations/{board}/metrics/",
        ),
        (
            "api: evaluation metric",
            "/api/v1/evaluations/<id>/metrics/<id>/",
            f"/api/v1/evaluations/{board}/metrics/{seg(t.get('metric_id', 'none'))}/",
        ),
        (
            "api: evaluation results",
            "/api/v1/evaluations/<id>/results/",
            f"/api/v1/evaluations/{board}/results/",
        ),
        (
            "api: evaluation result",
            "/api/v1/evaluations/<id>/results/<id>/",
            f"/api/v1/evaluations/{board}/results/{seg(t.get('result_id', 'none'))}/",
        ),
        ("api: code entries", "/api/v1/code-entries/", "/api/v1/code-entries/"),
        ("api: code entries, q", "/api/v1/code-entries/?q=forward", "/api/v1/code-entries/?q=forward"),
        ("api: code entry, busiest", "/api/v1/code-entries/<id>/", f"/api/v1/code-entries/{entry}/"),
        (
            "api: code entry samples, busiest",
            "/api/v1/code-entries/<id>/samples/",
            f"/api/v1/code-entries/{entry}/samples/",
        ),
        ("api: samples", "/api/v1/samples/", "/api/v1/samples/"),
        (f"api: samples, page {deep_page}", "/api/v1/samples/?page=N", f"/api/v1/samples/?page={deep_page}"),
        (
            "api: samples, middle page",
            "/api/v1/samples/?page=<middle>",
            f"/api/v1/samples/?page={mid_samples_page}",
        ),
        (
            "api: samples, cursor from middle",
            "/api/v1/samples/?pagination=cursor&cursor=…",
            f"/api/v1/samples/?{samples_cursor}",
        ),
        (
            "api: samples, status and entry",
            "/api/v1/samples/?status=unverified&code_entry=<busiest>",
            f"/api/v1/samples/?status=unverified&code_entry={entry}",
        ),
        ("api: samples, status=ran", "/api/v1/samples/?status=ran", "/api/v1/samples/?status=ran"),
        ("api: samples, q", "/api/v1/samples/?q=<2 words>", f"/api/v1/samples/?q={q_narrow}"),
        ("api: schema", "/api/v1/schema/", "/api/v1/schema/"),
    ]
    return [Endpoint(*row) for row in rows]


def describe(t: dict) -> list[str]:
    """What was picked, for the report."""
    if t.get("source") == "archive":
        return describe_archive(t)
    repo = f"{t['repo_host']}/{t['repo_owner']}/{t['repo_name']}"
    return [
        f"{t['n_papers']:,} papers, {t['n_places']:,} places, {t['n_entries']:,} code entries, "
        f"{t['n_repos']:,} repositories, {t['n_tasks']:,} tasks",
        f"paper `{t['paper']}` ({t['paper_places']} places, with results and code links); most places: "
        f"`{t['paper_busiest']}` ({t['paper_busiest_places']:,})",
        f"code entry `{t['entry']}` ({t['entry_places']:,} places); typical `{t['entry_typical']}` "
        f"({t['entry_typical_places']}); body `{t['body']}` ({t['body_places']:,} places); "
        f"repository `{repo}` ({t['repo_places']:,} places)",
        f"leaderboard `{t['board']}` ({t['board_results']:,} results); task `{t['task']}` "
        f"({t['task_papers']:,} papers); method `{t['method']}` ({t['method_papers']:,} papers); "
        f"year {t['year']}",
    ]


# ------------------------------------------------------------------- the browsing doors (archive data)

# The doors of issue 13 need what only the archive's dumps carry (the task tree's areas,
# datasets with modalities, methods in collections, authors, proceedings), so they are timed on
# databases loaded from bench/generate_archive.py's dumps: cwp_archive_<papers>.
ARCHIVE_PICKS = {
    "paper": """SELECT p.slug, p.arxiv_id FROM catalogue_paper p
        WHERE p.arxiv_id IS NOT NULL AND p.proceeding <> ''
          AND EXISTS (SELECT 1 FROM catalogue_result r WHERE r.paper_id = p.id) ORDER BY p.id LIMIT 1""",
    "paper_fallback": """SELECT slug, arxiv_id FROM catalogue_paper WHERE arxiv_id IS NOT NULL
        ORDER BY id LIMIT 1""",
    "area": """SELECT a.slug, COUNT(*) n FROM catalogue_task_areas ta
        JOIN catalogue_area a ON a.id = ta.area_id GROUP BY a.id ORDER BY n DESC, a.id LIMIT 1""",
    "task_inner": """SELECT t.slug FROM catalogue_task t WHERE t.parent_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM catalogue_task c WHERE c.parent_id = t.id) ORDER BY t.id LIMIT 1""",
    "dataset": """SELECT d.slug, COUNT(*) n FROM catalogue_leaderboard b JOIN catalogue_dataset d
        ON d.id = b.dataset_id GROUP BY d.id ORDER BY n DESC, d.id LIMIT 1""",
    "modality": """SELECT m, COUNT(*) n FROM catalogue_dataset, jsonb_array_elements_text(modalities) m
        GROUP BY m ORDER BY n DESC, m LIMIT 1""",
    "collection": """SELECT c.slug, COUNT(*) n FROM catalogue_method_collections mc
        JOIN catalogue_methodcollection c ON c.id = mc.methodcollection_id
        GROUP BY c.id ORDER BY n DESC, c.id LIMIT 1""",
    "author": "SELECT name, COUNT(*) n FROM catalogue_author GROUP BY name ORDER BY n DESC, name LIMIT 1",
    "proceeding": """SELECT proceeding, COUNT(*) n FROM catalogue_paper WHERE proceeding <> ''
        GROUP BY proceeding ORDER BY n DESC, proceeding LIMIT 1""",
}
ARCHIVE_COUNTS = {
    "n_papers": "SELECT COUNT(*) FROM catalogue_paper",
    "n_tasks": "SELECT COUNT(*) FROM catalogue_task",
    "n_datasets": "SELECT COUNT(*) FROM catalogue_dataset",
    "n_methods": "SELECT COUNT(*) FROM catalogue_method",
    "n_leaderboards": "SELECT COUNT(*) FROM catalogue_leaderboard",
    "n_authors": "SELECT COUNT(*) FROM catalogue_author",
}


def pick_archive(url: str) -> dict:
    """The objects the browsing doors show, chosen by the same SQL at every scale."""
    t: dict = {"source": "archive"}
    with psql(url) as conn:

        def one(sql, params=()):
            return conn.execute(sql, params).fetchone()

        for key, sql in ARCHIVE_COUNTS.items():
            t[key] = one(sql)[0]
        t["paper"], t["arxiv"] = one(ARCHIVE_PICKS["paper"]) or one(ARCHIVE_PICKS["paper_fallback"])
        t["area"], t["area_tasks"] = one(ARCHIVE_PICKS["area"])
        t["task"], t["task_papers"] = one(PICKS["task_busiest"])
        t["task_inner"] = (one(ARCHIVE_PICKS["task_inner"]) or (t["task"],))[0]
        t["board"], t["board_results"] = one(PICKS["board_biggest"])
        t["dataset"], t["dataset_boards"] = one(ARCHIVE_PICKS["dataset"])
        t["modality"], t["modality_datasets"] = one(ARCHIVE_PICKS["modality"])
        t["method"], t["method_papers"] = one(PICKS["method_busiest"])
        t["collection"], t["collection_methods"] = one(ARCHIVE_PICKS["collection"])
        t["author"], t["author_papers"] = one(ARCHIVE_PICKS["author"])
        proceeding, t["proceeding_papers"] = one(ARCHIVE_PICKS["proceeding"])
        t["proceeding_name"] = proceeding
        # Its id is its name's slug (Django's slugify, as catalogue.conferences makes it);
        # its conference the site says (``resolve``), not a second copy of that module's rule.
        t["proceeding_id"] = slugify(proceeding, allow_unicode=True) or "unnamed"
        # The middle of the dataset list by name, for a deep keyset page.
        name, slug = one(
            "SELECT name, slug FROM catalogue_dataset ORDER BY name, slug OFFSET %s LIMIT 1",
            (t["n_datasets"] // 2,),
        )
        t["datasets_mid_cursor"] = keyset_cursor([name, slug])
    return t


def archive_endpoints(t: dict) -> list[Endpoint]:
    """Every page and API endpoint issue 13 added, with the objects of ``t``."""
    paper, area, task, inner = seg(t["paper"]), seg(t["area"]), seg(t["task"]), seg(t["task_inner"])
    board, dataset, author = seg(t["board"]), seg(t["dataset"]), seg(t["author"])
    modality, collection = seg(t["modality"]), seg(t["collection"])
    conference, proceeding = seg(t["conference_id"]), seg(t["proceeding_id"])
    rows = [
        ("control: healthz (no database)", "/healthz", "/healthz"),
        ("page: sota index", "/sota/", "/sota/"),
        ("page: area, most tasks", "/area/<slug>", f"/area/{area}"),
        ("page: tasks, by papers", "/tasks/", "/tasks/"),
        ("page: tasks, by leaderboards", "/tasks/?sort=leaderboards", "/tasks/?sort=leaderboards"),
        ("page: tasks, q", "/tasks/?q=<word>", "/tasks/?q=classification"),
        ("page: task, most papers", "/task/<slug>", f"/task/{task}"),
        ("page: task, inner node", "/task/<slug>", f"/task/{inner}"),
        ("page: task leaderboards, all", "/task/<slug>/leaderboards", f"/task/{task}/leaderboards"),
        ("page: subtasks of the inner node", "/tasks/?parent=<slug>", f"/tasks/?parent={inner}"),
        ("page: leaderboard, most results", "/sota/<slug>", f"/sota/{board}"),
        ("page: datasets", "/datasets/", "/datasets/"),
        ("page: datasets, modality", "/datasets/?modality=<commonest>", f"/datasets/?modality={modality}"),
        ("page: datasets, by papers", "/datasets/?sort=papers", "/datasets/?sort=papers"),
        ("page: datasets, q", "/datasets/?q=<word>", "/datasets/?q=image"),
        ("page: datasets, task", "/datasets/?task=<busiest>", f"/datasets/?task={task}"),
        (
            "page: datasets, middle of list",
            "/datasets/?after=<middle row>",
            f"/datasets/?after={t['datasets_mid_cursor']}",
        ),
        ("page: dataset, most leaderboards", "/dataset/<slug>", f"/dataset/{dataset}"),
        (
            "page: dataset leaderboards, all",
            "/dataset/<slug>/leaderboards",
            f"/dataset/{dataset}/leaderboards",
        ),
        ("page: methods", "/methods/", "/methods/"),
        ("page: methods, collection", "/methods/?collection=<biggest>", f"/methods/?collection={collection}"),
        ("page: author, most papers", "/author/<name>", f"/author/{author}"),
        ("page: proceedings", "/proceedings/", "/proceedings/"),
        ("page: conference of that proceeding", "/conference/<id>", f"/conference/{conference}"),
        ("page: proceeding, most papers", "/proceeding/<id>", f"/proceeding/{proceeding}"),
        ("page: paper BibTeX", "/paper/<slug>/bibtex", f"/paper/{paper}/bibtex"),
        ("feed: new papers", "/papers/feed", "/papers/feed"),
        ("feed: task, most papers", "/task/<slug>/feed", f"/task/{task}/feed"),
        ("feed: leaderboard, most results", "/sota/<slug>/feed", f"/sota/{board}/feed"),
        ("api: datasets", "/api/v1/datasets/", "/api/v1/datasets/"),
        (
            "api: datasets, modality",
            "/api/v1/datasets/?modality=<commonest>",
            f"/api/v1/datasets/?modality={modality}",
        ),
        ("api: datasets, q", "/api/v1/datasets/?q=<word>", "/api/v1/datasets/?q=image"),
        ("api: dataset", "/api/v1/datasets/<id>/", f"/api/v1/datasets/{dataset}/"),
        ("api: paper datasets", "/api/v1/papers/<id>/datasets/", f"/api/v1/papers/{paper}/datasets/"),
        ("api: areas", "/api/v1/areas/", "/api/v1/areas/"),
        ("api: area", "/api/v1/areas/<id>/", f"/api/v1/areas/{area}/"),
        ("api: area tasks", "/api/v1/areas/<id>/tasks/", f"/api/v1/areas/{area}/tasks/"),
        ("api: task parents", "/api/v1/tasks/<id>/parents/", f"/api/v1/tasks/{inner}/parents/"),
        ("api: task children", "/api/v1/tasks/<id>/children/", f"/api/v1/tasks/{inner}/children/"),
        ("api: authors", "/api/v1/authors/", "/api/v1/authors/"),
        (
            "api: authors, q",
            "/api/v1/authors/?q=<surname>",
            f"/api/v1/authors/?q={seg(t['author'].split()[-1])}",
        ),
        ("api: author", "/api/v1/authors/<id>/", f"/api/v1/authors/{author}/"),
        ("api: author papers", "/api/v1/authors/<id>/papers/", f"/api/v1/authors/{author}/papers/"),
        ("api: conferences", "/api/v1/conferences/", "/api/v1/conferences/"),
        ("api: conference", "/api/v1/conferences/<id>/", f"/api/v1/conferences/{conference}/"),
        (
            "api: conference proceedings",
            "/api/v1/conferences/<id>/proceedings/",
            f"/api/v1/conferences/{conference}/proceedings/",
        ),
        (
            "api: proceeding",
            "/api/v1/conferences/<id>/proceedings/<id>/",
            f"/api/v1/conferences/{conference}/proceedings/{proceeding}/",
        ),
        (
            "api: proceeding papers",
            "/api/v1/conferences/<id>/proceedings/<id>/papers/",
            f"/api/v1/conferences/{conference}/proceedings/{proceeding}/papers/",
        ),
    ]
    return [Endpoint(*row) for row in rows]


def describe_archive(t: dict) -> list[str]:
    return [
        f"{t['n_papers']:,} papers, {t['n_tasks']:,} tasks, {t['n_datasets']:,} datasets, "
        f"{t['n_methods']:,} methods, {t['n_leaderboards']:,} leaderboards, {t['n_authors']:,} author places",
        f"paper `{t['paper']}` (arXiv {t['arxiv']}); area `{t['area']}` ({t['area_tasks']:,} tasks); task "
        f"`{t['task']}` ({t['task_papers']:,} papers); inner task `{t['task_inner']}`; "
        f"leaderboard `{t['board']}` "
        f"({t['board_results']:,} results)",
        f"dataset `{t['dataset']}` ({t['dataset_boards']:,} leaderboards); modality {t['modality']} "
        f"({t['modality_datasets']:,} datasets); collection `{t['collection']}` ({t['collection_methods']:,} "
        f"methods); author {t['author']} ({t['author_papers']:,} papers); proceeding {t['proceeding_name']} "
        f"({t['proceeding_papers']:,} papers)",
    ]


# --------------------------------------------------------------------------- (a) latency


def measure_one(server: Server, ep: Endpoint, duration: int) -> dict:
    """Check that ``ep`` answers 200 (redirects not followed), warm it, then time it with wrk."""
    try:
        status, headers, body = fetch(server.port, ep.path)
    except OSError as exc:
        status, headers, body = 0, {}, str(exc).encode()
    row = {"path": ep.path, "pattern": ep.pattern, "status": status, "bytes": len(body)}
    if status != 200:
        where = headers.get("Location", "") or body[:200].decode(errors="replace")
        row["failed"] = f"{status} {where}".strip()
        return row
    for _ in range(2):  # warm: each worker's connection, PostgreSQL's buffers
        fetch(server.port, ep.path)
    row.update(run_wrk(f"http://127.0.0.1:{server.port}{ep.path}", duration))
    if not row["requests"]:
        row["failed"] = f"no request finished within {duration} s"
        row["p50_ms"] = row["p99_ms"] = None
    return row


def measure_all(prepared: dict, deep_page: int, args) -> dict[int, dict[str, dict]]:
    """Every URL at every scale: {papers: {endpoint name: figures}}.

    One server per scale, all up at once, and each URL timed at one scale right after the
    other (the order alternating from URL to URL): on a shared machine whose load drifts, the
    two figures of a row are then taken seconds apart, under the same background.
    """
    scales = list(prepared)
    servers: dict[int, Server] = {}
    measured: dict[int, dict[str, dict]] = {s: {} for s in scales}
    redis = Redis() if args.page_cache else None
    try:
        for i, s in enumerate(scales):
            # With --page-cache, the response cache as deployed (redis), one redis database per
            # scale: the servers' keys would otherwise meet (same paths, maybe the same version).
            cache = {"PAGE_CACHE_SECONDS": "3600", "CACHE_URL": f"{redis.url[:-2]}/{i}"} if redis else {}
            servers[s] = Server(server_env(prepared[s][0], **cache), str(s))
        for s in scales:
            servers[s].wait("/healthz")
            resolve(servers[s].port, prepared[s][2])
        chosen = {s: {e.name: e for e in endpoints(prepared[s][2], deep_page)} for s in scales}
        names = [n for n, e in chosen[scales[0]].items() if not args.only or re.search(args.only, n + e.path)]
        for s in scales:
            prepared[s][2]["loadavg"] = [round(os.getloadavg()[0], 2)]
        for i, name in enumerate(names * args.rounds, 1):
            order = scales if i % 2 else scales[::-1]
            for s in order:
                row = measure_one(servers[s], chosen[s][name], args.duration)
                measured[s].setdefault(name, []).append(row)
                figures = (
                    f"FAILED {row['failed']}"
                    if row.get("failed")
                    else f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms, {row['rps']:.0f} req/s"
                    + (f", {row['non_2xx_3xx']} non-2xx/3xx" if row["non_2xx_3xx"] else "")
                )
                log(f"  [{i}/{len(names) * args.rounds}] {s:>7,} {name}: {figures}")
        for s in scales:
            prepared[s][2]["loadavg"].append(round(os.getloadavg()[0], 2))
    finally:
        for server in servers.values():
            server.stop()
        if redis:
            redis.stop()
    return {s: {name: median_row(rows) for name, rows in measured[s].items()} for s in scales}


def median_row(rows: list[dict]) -> dict:
    """One row from several rounds: the median of each figure; failed if any round failed."""
    if len(rows) == 1:
        return rows[0]
    failed = next((r for r in rows if r.get("failed")), None)
    if failed:
        return {**failed, "rounds": rows}
    row = dict(rows[0])
    for key in ("rps", "p50_ms", "p75_ms", "p90_ms", "p99_ms", "mean_ms"):
        row[key] = statistics.median(r[key] for r in rows)
    row["max_ms"] = max(r["max_ms"] for r in rows)
    row["requests"] = sum(r["requests"] for r in rows)
    row["non_2xx_3xx"] = sum(r["non_2xx_3xx"] for r in rows)
    row["socket_errors"] = {k: sum(r["socket_errors"][k] for r in rows) for k in row["socket_errors"]}
    row["rounds"] = rows
    return row


def profile(url: str, t: dict, deep_page: int, names: list[str], label: str) -> dict[str, dict]:
    """Queries per URL, in a separate process (Django set up against ``url``)."""
    paths = {e.name: e.path for e in endpoints(t, deep_page) if e.name in names}
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.json", Path(tmp) / "out.json"
        src.write_text(json.dumps(paths))
        done = subprocess.run(
            [PYTHON, str(Path(__file__).resolve()), "--profile-in", str(src), "--profile-out", str(dst)],
            env=server_env(url),
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not dst.exists():
            log(f"profile {label} failed:\n{done.stderr[-3000:]}")
            return {}
        return json.loads(dst.read_text())


PROFILE_RUNS = 3


def profile_worker(src: Path, dst: Path) -> None:
    """In-process, one request at a time through Django's test client, every query timed.

    Each URL once untimed, then PROFILE_RUNS times; the run with the median wall time is
    kept (its wall time, the sum and count of its queries, its three slowest queries), and
    the slowest query gets an EXPLAIN (ANALYZE, BUFFERS).
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    client = Client(raise_request_exception=False)
    captured: list[tuple[float, str]] = []

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            ms = (time.perf_counter() - started) * 1000
            try:
                text = connection.ops.last_executed_query(context["cursor"], sql, params) or sql
            except Exception:  # the SQL with its parameters is for reading; fall back to the template
                text = sql
            captured.append((ms, text))

    out = {}
    for name, path in json.loads(src.read_text()).items():
        client.get(path)
        trials = []
        for _ in range(PROFILE_RUNS):
            captured.clear()
            with connection.execute_wrapper(timed):
                started = time.perf_counter()
                response = client.get(path)
                wall = (time.perf_counter() - started) * 1000
            trials.append((wall, response.status_code, sorted(captured, key=lambda q: -q[0])))
        trials.sort(key=lambda trial: trial[0])
        wall, status, queries = trials[len(trials) // 2]
        row = {
            "status": status,
            "wall_ms": round(wall, 2),
            "wall_ms_runs": [round(trial[0], 2) for trial in trials],
            "queries": len(queries),
            "sql_ms": round(sum(ms for ms, _ in queries), 2),
            "slowest": [{"ms": round(ms, 2), "sql": sql[:4000]} for ms, sql in queries[:3]],
        }
        if queries and queries[0][0] >= 1.0:
            try:
                with connection.cursor() as cur:
                    cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + queries[0][1])
                    row["plan"] = "\n".join(line for (line,) in cur.fetchall())
            except Exception as exc:  # a plan is a nice-to-have
                row["plan"] = f"EXPLAIN failed: {exc}"
        out[name] = row
    dst.write_text(json.dumps(out))


def latency(admin_url: str, args) -> None:
    scales = sorted(set(args.papers))
    prepared = {}
    for papers in scales:
        url, info = prepare(
            admin_url, papers, args.seed, reuse=args.reuse, fresh=args.fresh, source=args.source
        )
        prepared[papers] = (url, info, pick(url) if args.source == "seed" else pick_archive(url))
    # Page mode's deep page is the same page number at every scale, so the offset is the same.
    deep_page = min(
        DEEP_PAGE,
        *(
            min(t.get("papers_pages", DEEP_PAGE), t.get("samples_pages", DEEP_PAGE))
            for _, _, t in prepared.values()
        ),
    )
    log(f"== {', '.join(f'{p:,}' for p in scales)} papers side by side, {args.duration} s of wrk per URL")
    measured = measure_all(prepared, deep_page, args)
    profiles: dict[int, dict] = {}
    for papers in [] if args.no_profile else scales:
        url, _, t = prepared[papers]
        log(f"   profiling queries at {papers:,} papers ...")
        profiles[papers] = profile(url, t, deep_page, list(measured[papers]), f"{papers}")
    report_latency(scales, prepared, measured, profiles, deep_page, args)


def _fmt(value, spec=".1f") -> str:
    return "–" if value is None else format(value, spec)


SQL_FLOOR_MS = 5.0  # below this at the larger scale, SQL growth is not worth a plan


def verdict_of(rows: list[dict], small: dict | None, big: dict | None) -> dict:
    """The row's p50 ratio (largest scale / smallest), its SQL ratio, and the verdict."""
    failed = [r["failed"] for r in rows if r.get("failed")] or ([] if all(rows) else ["not measured"])
    errors = sum(r.get("non_2xx_3xx", 0) + sum(r.get("socket_errors", {}).values()) for r in rows)
    p50a, p50b = rows[0].get("p50_ms"), rows[-1].get("p50_ms")
    ratio = p50b / p50a if p50a and p50b else None
    sql_ratio = None
    if small and big and small.get("sql_ms") and big.get("sql_ms"):
        sql_ratio = big["sql_ms"] / small["sql_ms"]
    if failed or ratio is None:
        verdict = "FAILED"
    else:
        verdict = "yes" if ratio <= TARGET_RATIO else "**no**"
        verdict += f" ({errors} errors)" if errors else ""
    sql_grows = bool(sql_ratio and sql_ratio > TARGET_RATIO and big["sql_ms"] >= SQL_FLOOR_MS)
    return {
        "ratio": ratio,
        "sql_ratio": sql_ratio,
        "sql_grows": sql_grows,
        "verdict": verdict,
        "failed": failed,
    }


def report_latency(scales, prepared, measured, profiles, deep_page, args) -> None:
    a, b = scales[0], scales[-1]
    each = " / ".join(f"{s:,}" for s in scales)
    names = list(dict.fromkeys(n for s in scales for n in measured[s]))
    head = [
        "endpoint", "URL pattern", *(f"p50 ms {s:,}" for s in scales), "ratio", f"p99 ms {each}",
        f"req/s {each}", f"1 request: ms (SQL ms, queries) {each}", "SQL ratio", f"within {TARGET_RATIO}×",
    ]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    verdicts = {}
    for name in names:
        rows = [measured[s].get(name, {}) for s in scales]
        small, big = profiles.get(a, {}).get(name), profiles.get(b, {}).get(name)
        v = verdicts[name] = verdict_of(rows, small, big)
        one = []
        for s in scales:
            p = profiles.get(s, {}).get(name)
            one.append(f"{p['wall_ms']:.1f} ({p['sql_ms']:.1f}, {p['queries']})" if p else "–")
        pattern = next((r["pattern"] for r in rows if r), "")
        note = "; ".join(
            f"{s:,}: {r['failed']}" for s, r in zip(scales, rows, strict=True) if r.get("failed")
        )
        lines.append(
            f"| {name} | `{pattern}` | "
            + " | ".join(_fmt(r.get("p50_ms")) for r in rows)
            + f" | {_fmt(v['ratio'], '.2f')} | "
            + " / ".join(_fmt(r.get("p99_ms")) for r in rows)
            + " | "
            + " / ".join(_fmt(r.get("rps"), ",.0f") for r in rows)
            + f" | {' / '.join(one)} | {_fmt(v['sql_ratio'], '.2f')}{' ⚠' if v['sql_grows'] else ''} | "
            + v["verdict"]
            + (f" — {note}" if note else "")
            + " |"
        )
    passed = sum(v["verdict"].startswith("yes") for v in verdicts.values())
    control = verdicts.get("control: healthz (no database)", {}).get("ratio")
    growing = [n for n, v in verdicts.items() if v["sql_grows"]]
    notes = [
        "",
        f"{passed} of {len(verdicts)} within {TARGET_RATIO}× (ratio = p50 at {b:,} papers ÷ p50 at {a:,}; "
        "FAILED = no 200 answer, or no request finished, at some scale)."
        + (
            f" The control /healthz, which reads no database, came out at {control:.2f}×: read ratios "
            "against that noise."
            if control
            else ""
        ),
        f"SQL grows more than {TARGET_RATIO}× (⚠, SQL ≥ {SQL_FLOOR_MS:g} ms at {b:,}): "
        f"{len(growing)} endpoints" + (": " + ", ".join(growing) if growing else "") + ".",
        "",
        "Objects (picked by the same SQL at each scale):",
    ]
    for s in scales:
        notes += [f"- {s:,}: " + "; ".join(describe(prepared[s][2]))]
    notes += [
        "",
        f"- Deep pages: page mode `?page={deep_page}` (50 rows) at every scale; 'middle' = the row or page "
        "halfway down each list at each scale (keyset cursor for pages, DRF cursor for the API, "
        "`?page=` middle in page mode). Searches: narrow `"
        + NARROW_QUERY
        + "`, broad `"
        + BROAD_QUERY
        + "`.",
        "- Server: gunicorn -c config/gunicorn.conf.py, "
        + ", ".join(
            f"{k}={v or '(unset)'}" for k, v in SERVER_ENV.items() if k not in ("SECRET_KEY", "ALLOWED_HOSTS")
        )
        + (
            "; with --page-cache: PAGE_CACHE_SECONDS=3600 and CACHE_URL a redis-server of the run's own "
            "(one database per scale), so after the untimed requests wrk is answered from the cache"
            if args.page_cache
            else ""
        )
        + "; databases VACUUM ANALYZEd after loading.",
        f"- wrk: 2 threads, 8 connections, {args.duration} s per URL"
        + (f", median of {args.rounds} rounds" if args.rounds > 1 else "")
        + f", --timeout 10s, after 3 untimed requests; on the same {os.cpu_count()}-CPU machine as the "
        f"server and PostgreSQL ({platform.platform()}). Each URL is timed at one scale right after the "
        f"other (order alternating), all servers up. Load average at the start and end: "
        f"{prepared[a][2].get('loadavg')}.",
        "- 1 request: in-process through Django's test client, one at a time, median of "
        f"{PROFILE_RUNS} after one untimed: wall ms (sum of its queries' ms, number of queries). "
        f"SQL ratio = SQL ms at {b:,} ÷ at {a:,}.",
    ]
    plans = []
    for name in [n for n, v in verdicts.items() if v["sql_grows"] or not v["verdict"].startswith("yes")]:
        big, small = profiles.get(b, {}).get(name), profiles.get(a, {}).get(name)
        if not big or not big.get("slowest") or big["sql_ms"] < SQL_FLOOR_MS:
            continue
        top = big["slowest"][0]
        versus = f" (vs {small['sql_ms']:.1f} ms in {small['queries']} at {a:,})" if small else ""
        plans += [
            f"### {name}",
            "",
            f"`{measured[b][name]['path']}`: {big['queries']} queries, {big['sql_ms']:.1f} ms of SQL at {b:,}"
            f"{versus}; the slowest, {top['ms']:.1f} ms:",
            "",
            "```sql",
            top["sql"][:1500] + (" …" if len(top["sql"]) > 1500 else ""),
            "```",
            "",
            "```",
            big.get("plan", "(no plan: under 1 ms)"),
            "```",
            "",
        ]
    text = "\n".join(lines + notes)
    if plans:
        text += (
            f"\n\n## Slowest query of each endpoint over {TARGET_RATIO}× or with growing SQL "
            f"(at {b:,} papers)\n\n" + "\n".join(plans)
        )
    print(text)
    stamp = "-".join(
        [
            *(["archive"] if args.source == "archive" else []),
            *map(str, scales),
            *(["cached"] if args.page_cache else []),
        ]
    )
    OUT.mkdir(exist_ok=True)
    (OUT / f"latency-{stamp}.md").write_text(text + "\n")
    (OUT / f"latency-{stamp}.json").write_text(
        json.dumps(
            {
                "machine": machine(),
                "settings": {**SERVER_ENV, "SECRET_KEY": "(set)"},
                "wrk": {"threads": 2, "connections": 8, "duration_s": args.duration, "rounds": args.rounds},
                "deep_page": deep_page,
                "databases": {s: prepared[s][1] for s in scales},
                "objects": {s: prepared[s][2] for s in scales},
                "results": {s: measured[s] for s in scales},
                "profiles": {s: profiles.get(s, {}) for s in scales},
                "verdicts": verdicts,
            },
            indent=1,
            default=str,
        )
        + "\n"
    )
    log(f"wrote {OUT / f'latency-{stamp}.md'} and .json")


# --------------------------------------------------------------------------- (b) load held while loading


@dataclass
class Poll:
    """One URL polled throughout a load: every answer's (sent, received, status, digest), in order.

    Times are wall-clock seconds (time.time()), comparable with the load run's ``finished_at``.
    """

    name: str
    path: str
    bust: bool = False  # ask with a throw-away parameter: a cache miss every time
    seen: list[tuple[float, float, int, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    samples: dict[str, bytes] = field(default_factory=dict)  # digest -> body, the first of each


_bust_numbers = itertools.count(1)


def answer(port: int, path: str, bust: bool = False) -> tuple[int, str, bytes]:
    """(status, digest of the body, body); with ``bust``, the server's CACHE_BUST_PARAM is added.

    The response cache keys on that parameter, so a busted request is always built afresh, as
    a page nobody asked for within PAGE_CACHE_SECONDS is; the parameter is taken out of the
    links the page writes before hashing, so the body compares with the plain page's.
    """
    if bust:
        token = f"{BUST}={next(_bust_numbers)}"
        status, headers, body = fetch(port, path + ("&" if "?" in path else "?") + token, timeout=60)
        body = re.sub(
            rb"(\?|&amp;|&)" + token.encode() + rb"\b", b"", re.sub(token.encode() + rb"(&amp;|&)", b"", body)
        )
    else:
        status, headers, body = fetch(port, path, timeout=60)
    if 300 <= status < 400:
        body = f"-> {headers.get('Location', '')}".encode()
    return status, hashlib.sha256(body).hexdigest()[:16], body


def settled(port: int, path: str) -> tuple[int, str, bytes]:
    """The answer once two in a row agree (a page is the same for everyone at one data version)."""
    last = None
    for _ in range(5):
        current = answer(port, path)
        if last and current[:2] == last[:2]:
            return current
        last = current
    return last


def poller(port: int, poll: Poll, stop: threading.Event) -> None:
    while not stop.is_set():
        sent = time.time()
        try:
            status, digest, body = answer(port, poll.path, poll.bust)
        except OSError as exc:
            poll.errors.append(f"{sent:.3f} {exc}")
            continue
        poll.seen.append((sent, time.time(), status, digest))
        poll.samples.setdefault(digest, body)


def commit_time(url: str) -> float | None:
    """When the last successful load finished (set just before its one transaction commits)."""
    with psql(url) as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM finished_at) FROM catalogue_loadrun WHERE outcome = 'succeeded' "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return float(row[0]) if row and row[0] is not None else None


def reload_variant(admin_url, base_name, t, *, cache: bool, changed: bool, snapshot: Path, args) -> dict:
    """One load under traffic, on a fresh copy of ``base_name``."""
    label = f"{'next snapshot (+5 %)' if changed else 'same snapshot'}, cache {'on' if cache else 'off'}"
    copy = f"{base_name}_reload"
    log(f"== load under traffic: {label}")
    with psql(admin_url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {copy} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {copy} TEMPLATE {base_name}")
    url = db_url(admin_url, copy)
    redis = Redis() if cache and shutil.which("redis-server") else None
    overrides = {"PAGE_CACHE_SECONDS": "60" if cache else "0", "CACHE_URL": redis.url if redis else ""}
    server = Server(server_env(url, **overrides), f"reload-{'cache' if cache else 'nocache'}")
    wrk_proc = None
    stop = threading.Event()
    result: dict = {"variant": label, "cache": cache, "changed": changed, "snapshot": str(snapshot)}
    result["cache_backend"] = ("redis" if redis else "local memory") if cache else "off"
    try:
        server.wait("/healthz")
        rotated = [
            f"/paper/{seg(t['paper'])}",
            f"/code/{seg(t['entry'])}",
            f"/search?q={NARROW_QUERY.replace(' ', '+')}",
        ]
        entry_page = f"/code/{seg(t['entry'])}"
        polled = {
            "home page": ("/", False),
            "code entry page": (entry_page, False),
            "code entry API": (f"/api/v1/code-entries/{seg(t['entry'])}/", False),
            "paper API": (f"/api/v1/papers/{seg(t['paper'])}/", False),
            "papers API, first page": ("/api/v1/papers/?ordering=-published&items_per_page=20", False),
        }
        if cache:  # pages nobody asked for lately: built at the moment of the commit, not cached
            polled["home page, never cached"] = ("/", True)
            polled["code entry page, never cached"] = (entry_page, True)
        for path in [*rotated, *(path for path, _ in polled.values())]:
            fetch(server.port, path)
        before = {name: settled(server.port, path) for name, (path, _) in polled.items()}
        # Several threads per URL: more requests in flight when the load commits.
        polls = [Poll(name, path, bust) for name, (path, bust) in polled.items() for _ in range(args.pollers)]
        started = time.time()
        threads = [threading.Thread(target=poller, args=(server.port, p, stop), daemon=True) for p in polls]
        for thread in threads:
            thread.start()
        wrk_proc = subprocess.Popen(
            wrk_command(f"http://127.0.0.1:{server.port}", 3600, script=LUA_ROTATE, args=rotated),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        time.sleep(args.settle)
        command = [PYTHON, "manage.py", "load_snapshot", "--force", str(snapshot), "-v", "0"]
        load_started = time.time()
        load = measure(command, env={**os.environ, "DATABASE_URL": url})
        load_ended = time.time()
        log(f"   load {'ok' if load.ok else 'FAILED'} in {load.wall_s:.1f} s")
        time.sleep(args.settle)
        os.killpg(wrk_proc.pid, signal.SIGINT)  # wrk prints its summary on SIGINT
        out = wrk_proc.communicate(timeout=60)[0]
        wrk_proc = None
        stop.set()
        for thread in threads:
            thread.join(timeout=70)
        after = {name: settled(server.port, path) for name, (path, _) in polled.items()}
        committed = commit_time(url) if load.ok else None
        result.update(
            load_ok=load.ok,
            load_s=round(load.wall_s, 1),
            load_window_s=[round(load_started - started, 2), round(load_ended - started, 2)],
            commit_s=round(committed - started, 3) if committed else None,
            load_tail=load.output.strip().splitlines()[-3:],
            wrk=parse_wrk(out),
            wrk_raw=out,
            rotated=rotated,
            polls=judge(
                polls,
                before,
                after,
                (load_started, load_ended),
                committed,
                started,
                tag=f"{copy}-{'next' if changed else 'same'}-{'cache' if cache else 'nocache'}",
            ),
        )
    finally:
        stop.set()
        if wrk_proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(wrk_proc.pid, signal.SIGKILL)
            wrk_proc.wait()
        server.stop()
        if redis:
            redis.stop()
        drop(admin_url, copy)
    w, polls = result["wrk"], result["polls"]
    failed_requests = (
        w["non_2xx_3xx"] + sum(w["socket_errors"].values()) + sum(p["errors"] for p in polls.values())
    )
    mixed = sum(p["other"] for p in polls.values())
    result["failed_requests"] = failed_requests
    result["mixed"] = mixed
    result["held"] = bool(result["load_ok"] and failed_requests == 0 and mixed == 0)
    log(
        f"   {w['requests']:,} requests, {w['non_2xx_3xx']} non-2xx/3xx, socket errors {w['socket_errors']}, "
        f"max {w['max_ms']} ms; polls: {sum(p['answers'] for p in polls.values())} answers, {mixed} neither "
        f"before nor after -> {'held' if result['held'] else 'NOT HELD'}"
    )
    return result


def judge(polls: list[Poll], before: dict, after: dict, window, committed, started, tag: str) -> dict:
    """Per polled URL: answers that were the before-version, the after-version, or neither (a mix).

    Also how many requests were in flight when the load committed (sent before, answered after):
    the only ones that could have been built from both catalogues.
    """
    out = {}
    for name in dict.fromkeys(p.name for p in polls):
        mine = [p for p in polls if p.name == name]
        b, a = before[name], after[name]
        ok = {b[:2]: "before", a[:2]: "after"} if b[:2] != a[:2] else {b[:2]: "unchanged"}
        counts = {"before": 0, "after": 0, "unchanged": 0, "other": 0}
        others, reverted, during, straddled = [], 0, 0, 0
        for poll in mine:
            seen_after = False
            for sent, received, status, digest in poll.seen:
                kind = ok.get((status, digest), "other")
                counts[kind] += 1
                during += window[0] <= sent <= window[1]
                straddled += bool(committed and sent <= committed <= received)
                if kind == "after":
                    seen_after = True
                elif kind == "before" and seen_after:
                    reverted += 1
                if kind == "other" and len(others) < 5:
                    others.append({"at_s": round(sent - started, 3), "status": status, "digest": digest})
                    WORK.mkdir(parents=True, exist_ok=True)
                    slug = tag + "-" + re.sub(r"\W+", "-", name)
                    (WORK / f"mixed-{slug}-{digest}.txt").write_bytes(poll.samples.get(digest, b""))
                    (WORK / f"mixed-{slug}-before.txt").write_bytes(b[2])
                    (WORK / f"mixed-{slug}-after.txt").write_bytes(a[2])
        errors = [e for p in mine for e in p.errors]
        out[name] = {
            "path": mine[0].path + (f" + {BUST}=<n>" if mine[0].bust else ""),
            "pollers": len(mine),
            "answers": sum(len(p.seen) for p in mine),
            "during_load": during,
            "in_flight_at_commit": straddled,
            "changed_by_load": b[:2] != a[:2],
            "before": list(b[:2]),
            "after": list(a[:2]),
            **counts,
            "reverted": reverted,
            "errors": len(errors),
            "error_samples": errors[:5],
            "other_samples": others,
        }
    return out


def reload_under_load(admin_url: str, args) -> None:
    papers = args.reload_papers or min(args.papers)
    url, info = prepare(admin_url, papers, args.seed, reuse=args.reuse, fresh=args.fresh)
    t = pick(url)
    same = Path(info.get("snapshot") or ensure_snapshot(papers, args.seed, OUT / "data"))
    # The next snapshot: generated with the same seed, 5 % more papers. The first papers come out
    # (almost all) the same, so it loads on top as the archive's next snapshot would; another
    # seed would not (its slugs collide with other papers' identities, which the loader refuses).
    changed = ensure_snapshot(papers + papers // GROWTH, args.seed, OUT / "data")
    results = []
    for cache in [c == "on" for c in args.cache]:
        for is_changed, snapshot in ((False, same), (True, changed)):
            results.append(
                reload_variant(admin_url, info["database"], t, cache=cache, changed=is_changed,
                               snapshot=snapshot, args=args)
            )  # fmt: skip
    report_reload(papers, info, t, results, args)


def report_reload(papers: int, info: dict, t: dict, results: list[dict], args) -> None:
    lines = [
        f"Load held while loading: {papers:,} papers ({t['n_places']:,} places), PostgreSQL, a copy of "
        f"`{info['database']}` per row",
        "",
        "| load | cache | load s | requests | req/s | non-2xx/3xx | socket errors c/r/w/t | statuses "
        "| p50 / p99 / max ms | polled answers (during load) | in flight at commit "
        "| before / after / neither | held |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        w, polls = r["wrk"], r["polls"]
        se = w["socket_errors"]
        answers = sum(p["answers"] for p in polls.values())
        during = sum(p["during_load"] for p in polls.values())
        b = sum(p["before"] + p["unchanged"] for p in polls.values())
        a = sum(p["after"] for p in polls.values())
        straddled = sum(p["in_flight_at_commit"] for p in polls.values())
        statuses = " ".join(f"{k}: {v:,}" for k, v in sorted(w["statuses"].items()))
        lines.append(
            f"| {r['variant'].split(', cache')[0]} | {r['cache_backend']} | "
            f"{r['load_s']}{'' if r['load_ok'] else ' FAILED'} | {w['requests']:,} | {w['rps']:,.0f} | "
            f"{w['non_2xx_3xx']} | {se['connect']}/{se['read']}/{se['write']}/{se['timeout']} | {statuses} | "
            f"{_fmt(w['p50_ms'])} / {_fmt(w['p99_ms'])} / {_fmt(w['max_ms'])} | {answers:,} ({during:,}) | "
            f"{straddled} | {b:,} / {a:,} / {r['mixed']} | {'yes' if r['held'] else '**no**'} |"
        )
    lines += [
        "",
        f"Polled by {args.pollers} threads each, one request after another, for the whole run "
        "(answers before / after / neither, in flight at the commit, per load):",
    ]
    paths = {name: p["path"] for r in results for name, p in r["polls"].items()}
    for name, path in paths.items():
        per_load = "; ".join(
            f"{r['variant']}: {q['before'] + q['unchanged']:,} / {q['after']:,} / {q['other']}, "
            f"{q['in_flight_at_commit']}"
            + (f", {q['errors']} errors" if q["errors"] else "")
            + (f", {q['reverted']} old after new" if q["reverted"] else "")
            for r in results
            if name in r["polls"]
            for q in [r["polls"][name]]
        )
        lines.append(f"- {name} `{path}`: {per_load}")
    lines += [
        "",
        f"- wrk: 2 threads, 8 connections, rotating over `{'`, `'.join(results[0]['rotated'])}`"
        if results
        else "",
        f"  from {args.settle} s before the load until {args.settle} s after it (bench/reload_rotate.lua); "
        "statuses are every answer wrk got (3xx would count as success in wrk's own figure).",
        f"- Loads: `load_snapshot --force papers-{papers}-seed-{args.seed}` again (every file re-read and "
        f"merged; nothing changes), and `load_snapshot --force papers-{papers + papers // GROWTH}-seed-"
        f"{args.seed}` on top: the next snapshot, {100 // GROWTH} % more papers (new papers, bodies, "
        "entries and places; busier entries), so pages do change.",
        "- 'neither' = an answer equal to neither the page before the load nor the page after it: a page "
        "built partly from the old catalogue and partly from the new (bodies kept in bench/out/latency/"
        "mixed-*, beside the before and after pages). "
        "'in flight at commit' = polled requests sent before the load run's `finished_at` and answered "
        "after it: the only ones that could mix. A --force reload of the same snapshot changes no page, "
        f"so there any answer but the one page is a failure. `{BUST}=<n>`: the server's CACHE_BUST_PARAM, "
        "new "
        "on every request, so the response cache never has the page (as for most of the catalogue's "
        "pages at any moment); it is taken out of the page's links before comparing.",
        "- Server settings as in the latency table, except PAGE_CACHE_SECONDS=60 when the cache is on "
        "(CACHE_URL: a redis-server of the run's own when installed).",
    ]
    text = "\n".join(lines)
    print(text)
    (OUT / f"reload-under-load-{papers}.md").write_text(text + "\n")
    (OUT / f"reload-under-load-{papers}.json").write_text(
        json.dumps(
            {"machine": machine(), "database": info, "objects": t, "results": results}, indent=1, default=str
        )
        + "\n"
    )
    log(f"wrote {OUT / f'reload-under-load-{papers}.md'} and .json")


# --------------------------------------------------------------------------- main


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--papers", type=int, nargs="+", default=[20_000, 500_000], help="scales to compare")
    parser.add_argument("--duration", type=int, default=5, help="seconds of wrk per URL")
    parser.add_argument("--rounds", type=int, default=1, help="time every URL this many times (median)")
    parser.add_argument(
        "--reuse", action="store_true", help="use existing cwp_<papers> databases as they are"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="drop existing cwp_<papers> databases and reload"
    )
    parser.add_argument("--only", metavar="REGEX", help="only endpoints whose name or path matches")
    parser.add_argument("--no-profile", action="store_true", help="skip the in-process query profile")
    parser.add_argument(
        "--source",
        choices=["seed", "archive"],
        default="seed",
        help="seed: cwp_<papers> from bench/generate.py, every page; archive: cwp_archive_<papers> from "
        "bench/generate_archive.py's Parquet dumps, the browsing doors (sota, datasets, authors...)",
    )
    parser.add_argument(
        "--page-cache", action="store_true", help="(a): the response cache on (redis), as deployed"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reload-under-load", action="store_true", help="run part (b) instead of (a)")
    parser.add_argument("--reload-papers", type=int, help="scale for (b) (default: the smallest --papers)")
    parser.add_argument("--cache", nargs="+", choices=["on", "off"], default=["on"], help="(b): cache on/off")
    parser.add_argument(
        "--settle", type=float, default=3.0, help="(b): seconds of traffic before/after the load"
    )
    parser.add_argument("--pollers", type=int, default=2, help="(b): polling threads per polled URL")
    parser.add_argument("--profile-in", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile_in:
        profile_worker(args.profile_in, args.profile_out)
        return
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install -y wrk")
    if args.reuse and args.fresh:
        sys.exit("--reuse and --fresh exclude each other")
    # SIGTERM (pgcluster.py run forwards it) unwinds like Ctrl-C: servers, wrk and redis stop.
    signal.signal(signal.SIGTERM, _interrupt)
    with cluster_url() as admin_url:
        if args.reload_under_load:
            reload_under_load(admin_url, args)
        else:
            latency(admin_url, args)


if __name__ == "__main__":
    main()
