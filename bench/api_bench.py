"""Throughput of the JSON API next to Datasette's JSON API, on the same 20,000-paper data.

    .venv/bin/python bench/api_bench.py [--papers 20000] [--duration 10] [--reuse]

In one run:
1. makes (or reuses) a synthetic snapshot with bench/generate.py and loads it with
   ``manage.py load_snapshot`` into a fresh SQLite file (``--reuse`` keeps a loaded one);
2. copies the file for Datasette and gives the copy an FTS table over paper titles and
   abstracts (``sqlite-utils enable-fts``: Datasette's ``_search`` needs its own);
3. serves our API with gunicorn and the copy with Datasette (bench/.venv-datasette, built on
   first use; never a project dependency), one at a time;
4. runs wrk on each pair of equivalent requests and writes bench/out/api-<papers>.md/.json.

Pairs: a samples list filtered by status and code entry; a paper detail; a deep page
(page 200 of 50 rows, and the cursor equivalent; Datasette has only keyset pages, so its
``_next`` token serves for both); a full-text query. Targets: at or above Datasette on
each, and our cursor page 200 within 1.5x of our cursor page 1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
WORK = OUT / "api"
VENV = ROOT / ".venv" / "bin"
DATASETTE_VENV = ROOT / "bench" / ".venv-datasette"
OUR_PORT, DATASETTE_PORT = 8821, 8822
SEARCH_WORDS = "language pretraining"
DEEP_PAGE, PAGE_SIZE = 200, 50


def run(cmd, **kwargs):
    print("$", " ".join(map(str, cmd)), file=sys.stderr)
    return subprocess.run(cmd, check=True, **kwargs)


def snapshot(papers: int) -> Path:
    data = OUT / "data" / f"papers-{papers}-seed-0"
    if not (data / ".complete").exists():
        run([VENV / "python", ROOT / "bench" / "generate.py", "--papers", str(papers), "--out", data])
        (data / ".complete").touch()
    return data


def load(data: Path, db: Path, reuse: bool) -> None:
    if reuse and db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    for stale in db.parent.glob(db.name + "*"):
        stale.unlink()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    run([VENV / "python", ROOT / "manage.py", "migrate", "-v0"], env=env, cwd=ROOT)
    run([VENV / "python", ROOT / "manage.py", "load_snapshot", data, "-v0"], env=env, cwd=ROOT)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("ANALYZE")


def datasette_copy(db: Path) -> Path:
    copy = db.with_name("datasette.db")
    for stale in copy.parent.glob(copy.name + "*"):
        stale.unlink()
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    run([VENV / "sqlite-utils", "enable-fts", copy, "catalogue_paper", "title", "abstract", "--fts5"])
    return copy


def datasette_bin() -> Path:
    binary = DATASETTE_VENV / "bin" / "datasette"
    if not binary.exists():
        run([sys.executable, "-m", "venv", DATASETTE_VENV])
        run([DATASETTE_VENV / "bin" / "pip", "install", "--quiet", "datasette"])
    return binary


def pick(db: Path) -> dict:
    """The busiest code entry, a paper with samples, code links and results, the row at page 200."""
    with sqlite3.connect(db) as conn:
        entry_id, entry_slug, n_unverified = conn.execute(
            """SELECT e.id, e.slug, COUNT(*) n FROM catalogue_sample s
               JOIN catalogue_codeentry e ON e.id = s.entry_id WHERE s.status = 'unverified'
               GROUP BY e.id ORDER BY n DESC, e.id LIMIT 1"""
        ).fetchone()
        paper_id, slug = conn.execute(
            """SELECT p.id, p.slug FROM catalogue_paper p
               WHERE EXISTS (SELECT 1 FROM catalogue_result r WHERE r.paper_id = p.id)
                 AND EXISTS (SELECT 1 FROM catalogue_codelink c WHERE c.paper_id = p.id)
                 AND (SELECT COUNT(*) FROM catalogue_sample s WHERE s.paper_id = p.id) BETWEEN 4 AND 10
               ORDER BY p.id LIMIT 1"""
        ).fetchone()
        n_samples = conn.execute("SELECT COUNT(*) FROM catalogue_sample").fetchone()[0]
        # Datasette's keyset token for page 200: the id of the last row of page 199.
        (deep_after,) = conn.execute(
            "SELECT id FROM catalogue_sample ORDER BY id LIMIT 1 OFFSET ?", [(DEEP_PAGE - 1) * PAGE_SIZE - 1]
        ).fetchone()
    return {
        "entry_id": entry_id,
        "entry_slug": entry_slug,
        "n_unverified": n_unverified,
        "paper_id": paper_id,
        "paper_slug": slug,
        "n_samples": n_samples,
        "deep_after": deep_after,
    }


class Server:
    def __init__(self, cmd, port, env=None):
        self.port = port
        self.log = open(WORK / f"server-{port}.log", "w")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            cmd, env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait(self, path):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"server on {self.port} did not answer {path}; see {self.log.name}")

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)  # its own process group (start_new_session)
        self.proc.wait(timeout=30)
        self.log.close()


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.status == 200, url
        return json.loads(response.read())


def warm(url: str, times: int = 20) -> None:
    for _ in range(times):
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()


def wrk(url: str, duration: int) -> dict:
    out = subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{duration}s", "--timeout", "10s", "--latency", url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    percentiles = {p: _ms(v) for p, v in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M)}
    non_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "url": url,
        "rps": rps,
        "p50_ms": percentiles.get("50"),
        "p99_ms": percentiles.get("99"),
        "non_2xx": int(non_ok[1]) if non_ok else 0,
    }


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def cursor_page(base: str, page: int) -> str:
    """The URL of cursor page ``page``, reached as a client would: by following ``next``."""
    url = f"{base}/api/v1/samples/?pagination=cursor&items_per_page={PAGE_SIZE}"
    for _ in range(page - 1):
        url = get_json(url)["next"]
    return url


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--papers", type=int, default=20000)
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk per URL")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--reuse", action="store_true", help="keep an already loaded database")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install -y wrk")
    WORK.mkdir(parents=True, exist_ok=True)
    db = WORK / f"api-{args.papers}.sqlite3"
    load(snapshot(args.papers), db, args.reuse)
    copy = datasette_copy(db)
    t = pick(db)
    q = SEARCH_WORDS.replace(" ", "+")

    ours_base = f"http://127.0.0.1:{OUR_PORT}"
    ours = {
        "samples by status and entry": f"/api/v1/samples/?status=unverified&code_entry={t['entry_slug']}"
        f"&items_per_page={PAGE_SIZE}",
        "paper detail": f"/api/v1/papers/{t['paper_slug']}/",
        "first page (page mode)": f"/api/v1/samples/?items_per_page={PAGE_SIZE}",
        f"page {DEEP_PAGE} (page mode)": f"/api/v1/samples/?page={DEEP_PAGE}&items_per_page={PAGE_SIZE}",
        "first page (cursor)": None,
        f"page {DEEP_PAGE} (cursor)": None,
        "full-text query": f"/api/v1/papers/?q={q}&items_per_page={PAGE_SIZE}",
    }
    ds = "/datasette"
    samples = f"{ds}/catalogue_sample.json?_size={PAGE_SIZE}"
    theirs = {
        "samples by status and entry": f"{samples}&status=unverified&entry_id={t['entry_id']}",
        "paper detail": f"{ds}/catalogue_paper/{t['paper_id']}.json",
        "first page (page mode)": samples,
        f"page {DEEP_PAGE} (page mode)": f"{samples}&_next={t['deep_after']}",
        "first page (cursor)": samples,
        f"page {DEEP_PAGE} (cursor)": f"{samples}&_next={t['deep_after']}",
        "full-text query": f"{ds}/catalogue_paper.json?_search={q}&_size={PAGE_SIZE}",
    }
    rows = []
    gunicorn = [
        VENV / "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{OUR_PORT}",
        "--workers", str(args.workers), "--worker-class", "gthread", "--threads", str(args.threads),
        "--log-level", "warning",
    ]  # fmt: skip
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "CONN_MAX_AGE": "600",
        "DEBUG": "",
        "API_THROTTLE_ANON": "off",
        "REQUEST_LOG_LEVEL": "WARNING",  # no per-request log line: Datasette writes none either
    }
    server = Server(gunicorn, OUR_PORT, env=env)
    try:
        server.wait("/healthz")
        ours["first page (cursor)"] = cursor_page(ours_base, 1).removeprefix(ours_base)
        ours[f"page {DEEP_PAGE} (cursor)"] = cursor_page(ours_base, DEEP_PAGE).removeprefix(ours_base)
        sizes = {
            name: len(get_json(ours_base + path)["results"])
            for name, path in ours.items()
            if name != "paper detail"
        }
        assert all(n == PAGE_SIZE for name, n in sizes.items() if "query" not in name), sizes
        for name, path in ours.items():
            warm(ours_base + path)
            rows.append({"server": "ours", "request": name, **wrk(ours_base + path, args.duration)})
            print(f"ours {name}: {rows[-1]['rps']:.0f} req/s", file=sys.stderr)
    finally:
        server.stop()
    datasette = Server([datasette_bin(), "serve", "-i", copy, "--port", str(DATASETTE_PORT)], DATASETTE_PORT)
    theirs_base = f"http://127.0.0.1:{DATASETTE_PORT}"
    try:
        datasette.wait(f"{ds}.json")
        for name, path in theirs.items():
            warm(theirs_base + path)
            rows.append({"server": "datasette", "request": name, **wrk(theirs_base + path, args.duration)})
            print(f"datasette {name}: {rows[-1]['rps']:.0f} req/s", file=sys.stderr)
    finally:
        datasette.stop()
    report(rows, t, args)


def report(rows: list[dict], t: dict, args) -> None:
    def row(server, request):
        return next(r for r in rows if r["server"] == server and r["request"] == request)

    lines = [
        f"| request ({args.papers:,} papers, {t['n_samples']:,} places) | ours req/s | ours p50 / p99 ms "
        "| Datasette req/s | Datasette p50 / p99 ms | ours ÷ Datasette |",
        "|---|---|---|---|---|---|",
    ]
    for request in dict.fromkeys(r["request"] for r in rows):
        a, b = row("ours", request), row("datasette", request)
        lines.append(
            f"| {request} | {a['rps']:,.0f} | {a['p50_ms']:.1f} / {a['p99_ms']:.1f} | {b['rps']:,.0f} "
            f"| {b['p50_ms']:.1f} / {b['p99_ms']:.1f} | {a['rps'] / b['rps']:.2f} |"
        )
    first, deep = row("ours", "first page (cursor)"), row("ours", f"page {DEEP_PAGE} (cursor)")
    lines += [
        "",
        f"- Deep cursor page: page {DEEP_PAGE} serves {deep['rps']:,.0f} req/s against {first['rps']:,.0f} "
        f"for page 1 ({first['rps'] / deep['rps']:.2f}x the cost; target within 1.5x).",
        f"- Entry filtered: `{t['entry_slug']}` ({t['n_unverified']:,} unverified places); paper: "
        f"`{t['paper_slug']}`; search: `{SEARCH_WORDS}`.",
        f"- gunicorn: {args.workers} workers x {args.threads} threads (gthread), CONN_MAX_AGE=600, "
        "throttling off, no request log; Datasette: one process (`datasette serve -i`), its defaults.",
        f"- wrk: 2 threads, 16 connections, {args.duration} s per URL; {platform.platform()}, "
        f"{os.cpu_count()} CPUs shared by wrk and the server.",
        f"- Non-2xx responses: {sum(r['non_2xx'] for r in rows)}.",
    ]
    text = "\n".join(lines) + "\n"
    (OUT / f"api-{args.papers}.md").write_text(text)
    (OUT / f"api-{args.papers}.json").write_text(json.dumps({"targets": t, "rows": rows}, indent=1))
    print(text)


if __name__ == "__main__":
    main()
