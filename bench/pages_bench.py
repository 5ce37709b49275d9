"""Throughput and latency of the public pages, next to Datasette on the same data and /healthz.

    .venv/bin/python bench/pages_bench.py [--papers 20000] [--runs 3] [--duration 10] [--reuse]
    .venv/bin/python bench/pages_bench.py --compare TREE ...    # before (TREE) and after, uncached

What it does, in one run:
1. makes (or reuses) a synthetic snapshot with bench/generate.py, and loads it with
   ``manage.py load_snapshot`` into a fresh SQLite file (``--reuse`` keeps a loaded one);
2. copies that file for Datasette and gives the copy an FTS table over paper titles and
   abstracts with ``sqlite-utils enable-fts`` (Datasette's table search needs its own);
3. serves our site with gunicorn, uncached (page cache and figures memo off) and cached (as
   deployed), and the copy with Datasette (its own venv, bench/out/venv-datasette, built here on
   first use: it is not a project dependency), the three taking turns to go first each round;
4. runs wrk (2 threads and 16 connections, and 1 and 1, ``--duration`` seconds) against the
   paper, code-entry, leaderboard and search pages and their API equivalents, /healthz and
   /about, and writes bench/out/pages-matrix-<papers>.md and .json.

The trivial view (/healthz, no database) is the ceiling of this stack, /about (a page, no
database) the floor of any HTML page; Datasette's row page, filtered tables and table search
are what a reader would get from publishing the same SQLite file with the usual tool. Targets
(issue 16): every page at or above Datasette, at least half of /healthz.
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
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
VENV = ROOT / ".venv" / "bin"
DATASETTE_VENV = OUT / "venv-datasette"  # under bench/out/: git-ignored
# PAGES_BENCH_PORT moves both, for two runs on one machine (their figures then share the cores)
OUR_PORT = int(os.environ.get("PAGES_BENCH_PORT", "8811"))
DATASETTE_PORT = OUR_PORT + 1
SEARCH_WORDS = "language pretraining"


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
    for stale in db.parent.glob(db.name + "*"):
        stale.unlink()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    run([VENV / "python", ROOT / "manage.py", "migrate", "-v0"], env=env, cwd=ROOT)
    run([VENV / "python", ROOT / "manage.py", "load_snapshot", data, "-v0"], env=env, cwd=ROOT)
    with sqlite3.connect(db) as conn:  # one file, no WAL beside it: what gets copied and served
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


def pick_targets(db: Path) -> dict[str, str]:
    """Representative addresses: a paper with samples, code links and results, the busiest entry."""
    with sqlite3.connect(db) as conn:
        paper_id, slug, n_samples = conn.execute(
            """SELECT p.id, p.slug, COUNT(s.id) FROM catalogue_paper p
               JOIN catalogue_sample s ON s.paper_id = p.id
               WHERE EXISTS (SELECT 1 FROM catalogue_result r WHERE r.paper_id = p.id)
                 AND EXISTS (SELECT 1 FROM catalogue_codelink c WHERE c.paper_id = p.id)
               GROUP BY p.id HAVING COUNT(s.id) BETWEEN 4 AND 10 ORDER BY p.id LIMIT 1"""
        ).fetchone()
        entry_id, entry_slug, n_places = conn.execute(
            """SELECT e.id, e.slug, COUNT(*) n FROM catalogue_sample s JOIN catalogue_codeentry e
               ON e.id = s.entry_id GROUP BY e.id ORDER BY n DESC, e.id LIMIT 1"""
        ).fetchone()
        board_id, board_slug, n_results = conn.execute(
            """SELECT b.id, b.slug, COUNT(*) n FROM catalogue_result r JOIN catalogue_leaderboard b
               ON b.id = r.leaderboard_id GROUP BY b.id ORDER BY n DESC, b.id LIMIT 1"""
        ).fetchone()
    q = SEARCH_WORDS.replace(" ", "+")
    return {
        "paper_id": paper_id,
        "paper_note": f"/paper/{slug}: {n_samples} samples, with code links and results",
        "paper": f"/paper/{slug}",
        "entry_note": f"/code/{entry_slug}: the busiest entry, {n_places} places (25 a page)",
        "entry": f"/code/{entry_slug}",
        "search": f"/search?q={q}",
        "datasette_row": f"/datasette/catalogue_paper/{paper_id}",
        # 20 rows a page, as our search shows (Datasette's default is 100).
        "datasette_search": f"/datasette/catalogue_paper?_search={q}&_size=20",
        "board_note": f"/sota/{board_slug}: the largest leaderboard, {n_results} results (100 shown)",
        "board": f"/sota/{board_slug}",
        # The equivalents of the entry's and the board's pages: the same rows, filtered tables.
        "datasette_entry": f"/datasette/catalogue_sample?entry_id={entry_id}&_size=25",
        "datasette_board": f"/datasette/catalogue_result?leaderboard_id={board_id}&_size=100",
        # The API's equivalents of the pages, and Datasette's JSON of the same rows.
        "api_paper": f"/api/v1/papers/{slug}/",
        "api_samples": f"/api/v1/samples/?status=unverified&code_entry={entry_slug}",
        "api_search": f"/api/v1/search/?q={q}",
        # issue 35: places by status alone (the ran ones: 5 % of places), 50 a page
        "api_samples_status": "/api/v1/samples/?status=ran",
        "api_board": f"/api/v1/evaluations/{board_slug}/results/",
        "datasette_api_paper": f"/datasette/catalogue_paper/{paper_id}.json",
        "datasette_api_samples": (
            f"/datasette/catalogue_sample.json?status=unverified&entry_id={entry_id}&_size=50"
        ),
        "datasette_api_search": f"/datasette/catalogue_paper.json?_search={q}&_size=50",
        "datasette_api_samples_status": "/datasette/catalogue_sample.json?status=ran&_size=50",
        "datasette_api_board": f"/datasette/catalogue_result.json?leaderboard_id={board_id}&_size=50",
    }


class Server:
    def __init__(self, cmd, port, env=None, cwd=ROOT):
        self.port = port
        self.log = open(OUT / f"server-{port}.log", "w")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            cmd, env=env, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
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
        os.killpg(self.proc.pid, signal.SIGTERM)  # our own process group (start_new_session)
        self.proc.wait(timeout=30)
        self.log.close()


def gunicorn(args, tree: Path = ROOT) -> list:
    """Our site under gunicorn as deployed (gthread workers), from ``tree``'s checkout and venv."""
    return [
        tree / ".venv" / "bin" / "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{OUR_PORT}",
        "--workers", str(args.workers), "--worker-class", "gthread", "--threads", str(args.threads),
        "--log-level", "warning",
    ]  # fmt: skip


def warm(url: str, times: int = 20) -> None:
    """A few requests first, so that every worker has its connection (and cache) ready."""
    for _ in range(times):
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()


def wrk(url: str, duration: int, connections: int = 16) -> dict:
    threads = min(2, connections)  # wrk wants a connection per thread at least
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "--latency", url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    percentiles = {p: _ms(v) for p, v in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M)}
    non_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    timeouts = re.search(r"Socket errors: .*timeout (\d+)", out)
    return {
        "url": url,
        "rps": rps,
        "p50_ms": percentiles.get("50"),
        "p99_ms": percentiles.get("99"),
        "non_2xx": int(non_ok[1]) if non_ok else 0,
        "timeouts": int(timeouts[1]) if timeouts else 0,
        "raw": out,
    }


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=20000)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default: one per CPU)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--reuse", action="store_true", help="reuse an already loaded database")
    parser.add_argument(
        "--compare",
        metavar="TREE",
        help="another checkout (with its .venv) to serve as 'before': uncached pages and their API "
        "equivalents, before and after, beside Datasette, --runs rounds (issue 16)",
    )
    parser.add_argument("--runs", type=int, default=3, help="rounds")
    parser.add_argument("--connections", type=int, nargs="+", default=[16, 1], help="wrk connections")
    parser.add_argument(
        "--data",
        type=Path,
        help="a snapshot to load instead of the generated one (bench/generate.py --messy)",
    )
    parser.add_argument(
        "--pages", nargs="+", choices=sorted(DATASETTE_PEER), help="with --compare: these pages only"
    )
    parser.add_argument(
        "--datasette-lean",
        action="store_true",
        help="Datasette's tables without their count, facets and facet suggestions (_nocount=1&_nofacet=1"
        "&_nosuggest=1): only the rows, its fastest form",
    )
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install -y wrk")

    work = OUT / "pages"
    work.mkdir(parents=True, exist_ok=True)
    db = work / f"catalogue-{args.papers}.sqlite3"
    load(args.data or snapshot(args.papers), db, args.reuse)
    if args.reuse:  # loaded elsewhere (bench/side_by_side.sh): served as load() leaves its own files
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("ANALYZE")
    targets = pick_targets(db)
    if args.datasette_lean:
        for name, path in targets.items():
            if name.startswith("datasette_") and "?" in path:  # tables, not row pages
                targets[name] = path + "&_nocount=1&_nofacet=1&_nosuggest=1"
    copy = datasette_copy(db)
    if args.compare:
        compare(args, db, targets, copy)
        return
    matrix(args, targets, db, copy)


# Issue 16: uncached pages and their API equivalents, built by two checkouts of the site on the
# same database (before and after), beside Datasette and /healthz, rounds alternating.
COMPARED = ("paper", "entry", "board", "search", "api_paper", "api_samples", "api_search")
DATASETTE_PEER = {
    "paper": "datasette_row",
    "entry": "datasette_entry",
    "board": "datasette_board",
    "search": "datasette_search",
    "api_paper": "datasette_api_paper",
    "api_samples": "datasette_api_samples",
    "api_search": "datasette_api_search",
    "api_board": "datasette_api_board",
    "api_samples_status": "datasette_api_samples_status",
}


def uncached_env(db: Path) -> dict:
    """The page cache and the figures memo both off: every request builds its page from the rows."""
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "CONN_MAX_AGE": "600",
        "DEBUG": "",
        "PAGE_CACHE_SECONDS": "0",
        "FIGURES_CACHE_SECONDS": "0",
        "API_THROTTLE_ANON": "off",
        "REQUEST_LOG_LEVEL": "WARNING",  # no per-request log line: Datasette writes none either
    }


# Issue 16's side-by-side run: each page and its API equivalent, uncached (page cache and figures
# memo off) and cached (as deployed on the embedded default: both on, local memory), at 16
# connections and at one, beside Datasette serving a copy of the same file and /healthz.
MATRIX_PAGES = ("paper", "entry", "board", "search", "api_paper", "api_samples", "api_board", "api_search")
MODES = {"uncached": {}, "cached": {"PAGE_CACHE_SECONDS": "60", "FIGURES_CACHE_SECONDS": "600"}}
# Our stack's ceilings: no database and no template (/healthz); a static page through the base
# template and its middleware, no database (/about): the least any HTML page here costs.
CONTROLS = {"healthz": "/healthz", "about": "/about"}
MODE_NOTES = {
    "uncached": "page cache and figures memo off",
    "cached": "page cache 60 s and figures memo on, local memory per worker",
}


def matrix(args, targets: dict, db: Path, copy: Path) -> None:
    datasette = [datasette_bin(), "serve", "-i", copy, "--port", str(DATASETTE_PORT)]
    servers = [*MODES, "Datasette"]
    rows = []
    for round_no in range(1, args.runs + 1):
        shift = (round_no - 1) % len(servers)  # who goes first turns round by round
        for server in servers[shift:] + servers[:shift]:
            if server == "Datasette":
                proc, port, base = Server(datasette, DATASETTE_PORT), DATASETTE_PORT, f"/{copy.stem}"
                paths = {
                    page: targets[DATASETTE_PEER[page]].replace("/datasette", base) for page in MATRIX_PAGES
                }
                proc_ready = base
            else:
                proc = Server(gunicorn(args), OUR_PORT, env={**uncached_env(db), **MODES[server]})
                port, paths, proc_ready = OUR_PORT, {**CONTROLS, **targets}, "/healthz"
                paths = {page: paths[page] for page in (*CONTROLS, *MATRIX_PAGES)}
            try:
                proc.wait(proc_ready)
                for page, path in paths.items():
                    url = f"http://127.0.0.1:{port}{path}"
                    warm(url)
                    for connections in args.connections:
                        result = wrk(url, args.duration, connections)
                        rows.append(
                            {
                                "round": round_no,
                                "server": server,
                                "page": page,
                                "connections": connections,
                                "load_average": round(os.getloadavg()[0], 2),
                                **result,
                            }
                        )
                        print(
                            f"round {round_no} {server} {page} c{connections}: {result['rps']:.0f} req/s "
                            f"p50 {result['p50_ms']:.1f} ms",
                            file=sys.stderr,
                            flush=True,
                        )
            finally:
                proc.stop()
    matrix_report(rows, targets, args)


def matrix_report(rows: list[dict], targets: dict, args) -> None:
    def cell(server, page, connections, key="rps"):
        return [
            r[key]
            for r in sorted(rows, key=lambda r: r["round"])
            if (r["server"], r["page"], r["connections"]) == (server, page, connections)
        ]

    def median(values):
        return statistics.median(values) if values else 0.0

    def ratio(a, b):
        return f"{a / b:.2f}" if b else "—"

    def listed(values, digits=0):
        return ", ".join(f"{v:,.{digits}f}" for v in values)

    lines = []
    for mode in MODES:
        lines += [
            f"**{mode}** ({MODE_NOTES[mode]})",
            "",
            "| page | conns | ours req/s (runs) | Datasette req/s (runs) | ours ÷ Datasette "
            "| ours ÷ /healthz | p50 ms ours / Datasette | p99 ms ours / Datasette | non-2xx, timeouts |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for connections in args.connections:
            healthz = cell(mode, "healthz", connections)
            for control, path in CONTROLS.items():
                runs = cell(mode, control, connections)
                lines.append(
                    f"| {path} | {connections} | {median(runs):,.0f} ({listed(runs)}) | | "
                    f"| {ratio(median(runs), median(healthz))} "
                    f"| {median(cell(mode, control, connections, 'p50_ms')):.2f} | "
                    f"{median(cell(mode, control, connections, 'p99_ms')):.2f} | |"
                )
            for page in MATRIX_PAGES:
                ours, peer = cell(mode, page, connections), cell("Datasette", page, connections)
                bad = sum(cell(mode, page, connections, "non_2xx")) + sum(
                    cell(mode, page, connections, "timeouts")
                )
                lines.append(
                    f"| {page} | {connections} | {median(ours):,.0f} ({listed(ours)}) "
                    f"| {median(peer):,.0f} ({listed(peer)}) | {ratio(median(ours), median(peer))} "
                    f"| {ratio(median(ours), median(healthz))} "
                    f"| {median(cell(mode, page, connections, 'p50_ms')):.1f} / "
                    f"{median(cell('Datasette', page, connections, 'p50_ms')):.1f} "
                    f"| {median(cell(mode, page, connections, 'p99_ms')):.1f} / "
                    f"{median(cell('Datasette', page, connections, 'p99_ms')):.1f} | {bad} |"
                )
        lines.append("")
    loads = [r["load_average"] for r in rows]
    notes = [
        *(
            f"- {page}: ours `{targets[page]}`, Datasette `{targets[DATASETTE_PEER[page]]}`"
            for page in MATRIX_PAGES
        ),
        f"- {targets['paper_note']}; {targets['entry_note']}; {targets['board_note']}",
        f"- gunicorn: {args.workers} workers × {args.threads} threads (gthread), CONN_MAX_AGE=600, "
        "throttling and the request log off; Datasette: one process (`datasette serve -i`), its defaults, "
        "an FTS5 table over paper titles and abstracts",
        f"- wrk: 2 threads and 16 connections, or 1 and 1, {args.duration} s per URL after 20 warming "
        f"requests; {args.runs} rounds, the three servers taking turns to go first; medians",
        f"- load average (1 min) at the end of each wrk run: {min(loads):.2f}–{max(loads):.2f}, median "
        f"{median(loads):.2f}; {platform.platform()}, {os.cpu_count()} CPUs, wrk on the same machine",
    ]
    text = "\n".join([*lines, *notes]) + "\n"
    print(text)
    (OUT / f"pages-matrix-{args.papers}.md").write_text(text)
    (OUT / f"pages-matrix-{args.papers}.json").write_text(
        json.dumps({"rows": rows, "targets": targets}, indent=2)
    )


def compare(args, db: Path, targets: dict, copy: Path) -> None:
    trees = {"before": Path(args.compare).resolve(), "after": ROOT}
    compared = tuple(args.pages or COMPARED)
    rows = []
    for round_no in range(1, args.runs + 1):
        order = list(trees) if round_no % 2 else list(reversed(trees))  # alternate who goes first
        for label in order:
            tree = trees[label]
            server = Server(gunicorn(args, tree), OUR_PORT, env=uncached_env(db), cwd=tree)
            try:
                server.wait("/healthz")
                for page in ("healthz", *compared):
                    url = f"http://127.0.0.1:{OUR_PORT}" + (
                        "/healthz" if page == "healthz" else targets[page]
                    )
                    warm(url)
                    for connections in args.connections:
                        result = wrk(url, args.duration, connections)
                        rows.append(
                            {
                                "round": round_no,
                                "server": label,
                                "page": page,
                                "connections": connections,
                                "load_average": os.getloadavg(),
                                **result,
                            }
                        )
                        print(
                            f"round {round_no} {label} {page} c{connections}: {result['rps']:.0f} req/s",
                            file=sys.stderr,
                        )
            finally:
                server.stop()
        datasette = Server(
            [datasette_bin(), "serve", "-i", copy, "--port", str(DATASETTE_PORT)], DATASETTE_PORT
        )
        try:
            base = f"/{copy.stem}"
            datasette.wait(base)
            for page in compared:
                url = f"http://127.0.0.1:{DATASETTE_PORT}" + targets[DATASETTE_PEER[page]].replace(
                    "/datasette", base
                )
                warm(url)
                for connections in args.connections:
                    result = wrk(url, args.duration, connections)
                    rows.append(
                        {
                            "round": round_no,
                            "server": "Datasette",
                            "page": page,
                            "connections": connections,
                            "load_average": os.getloadavg(),
                            **result,
                        }
                    )
                    print(
                        f"round {round_no} Datasette {page} c{connections}: {result['rps']:.0f} req/s",
                        file=sys.stderr,
                    )
        finally:
            datasette.stop()
    compare_report(rows, targets, args, compared)


def compare_report(rows: list[dict], targets: dict, args, compared=COMPARED) -> None:
    def runs(server, page, connections, key="rps"):
        return [
            r[key]
            for r in sorted(rows, key=lambda r: r["round"])
            if (r["server"], r["page"], r.get("connections", 16)) == (server, page, connections)
        ]

    def median(values):
        return sorted(values)[len(values) // 2]

    def listed(values):
        return ", ".join(f"{v:,.0f}" for v in values)

    def ratio(a, b):
        return f"{a / b:.2f}" if b else "—"  # nothing answered within the run

    lines = [
        "| page | conns | before req/s (runs) | after req/s (runs) | Datasette req/s (runs) | after ÷ before "
        "| after ÷ Datasette | before ÷ Datasette | after ÷ /healthz | p50 ms before / after / Datasette |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for connections in args.connections:
        healthz = {s: median(runs(s, "healthz", connections)) for s in ("before", "after")}
        lines.append(
            f"| /healthz | {connections} "
            f"| {healthz['before']:,.0f} ({listed(runs('before', 'healthz', connections))}) "
            f"| {healthz['after']:,.0f} ({listed(runs('after', 'healthz', connections))}) | | | | | | |"
        )
        for page in compared:
            cells = {server: runs(server, page, connections) for server in ("before", "after", "Datasette")}
            med = {server: median(values) for server, values in cells.items()}
            shown = {s: f"{med[s]:,.0f} ({listed(cells[s])})" for s in cells}
            p50 = {s: median(runs(s, page, connections, "p50_ms")) for s in cells}
            lines.append(
                f"| {page} | {connections} | {shown['before']} | {shown['after']} | {shown['Datasette']} "
                f"| {ratio(med['after'], med['before'])} | {ratio(med['after'], med['Datasette'])} "
                f"| {ratio(med['before'], med['Datasette'])} | {ratio(med['after'], healthz['after'])} "
                f"| {p50['before']:.1f} / {p50['after']:.1f} / {p50['Datasette']:.1f} |"
            )
    loads = [r["load_average"][0] for r in rows if isinstance(r.get("load_average"), (list, tuple))]
    notes = (
        [f"- ours: {page} `{targets[page]}`" for page in compared]
        + [f"- Datasette: {page} `{targets[DATASETTE_PEER[page]]}`" for page in compared]
        + [
            f"- {targets['paper_note']}; {targets['entry_note']}; {targets['board_note']}",
            f"- before: {args.compare}; after: {ROOT}; same database, `PAGE_CACHE_SECONDS=0` and "
            "`FIGURES_CACHE_SECONDS=0` (page cache and figures memo off), throttling off",
            f"- gunicorn: {args.workers} workers × {args.threads} threads (gthread), CONN_MAX_AGE=600; "
            "Datasette: one process (`datasette serve -i`), its defaults",
            f"- wrk: 2 threads and {' or '.join(map(str, args.connections))} connections (one thread "
            "for one), "
            f"{args.duration} s per URL after 20 warming requests, {args.runs} rounds (before and after "
            "alternating which goes first, Datasette after them), medians; "
            f"{platform.platform()}, {os.cpu_count()} CPUs, wrk on the same machine",
        ]
        + (
            [
                f"- load average (1 min) at the end of each wrk run: {min(loads):.2f}–{max(loads):.2f}, "
                f"median {median(loads):.2f}"
            ]
            if loads
            else []
        )
    )
    text = "\n".join([*lines, "", *notes]) + "\n"
    print(text)
    (OUT / f"pages-compare-{args.papers}.md").write_text(text)
    (OUT / f"pages-compare-{args.papers}.json").write_text(
        json.dumps({"rows": rows, "targets": targets}, indent=2)
    )


if __name__ == "__main__":
    main()
