"""Load benchmark: our ``load_snapshot`` against the peers, SQLite and PostgreSQL.

    .venv/bin/python bench/load_bench.py --papers 2000 20000 [--runs 3] [--backends sqlite postgres]

For each scale it generates (once, cached under bench/out/data/) a synthetic snapshot with
bench/generate.py, then times every load into a fresh database, ``--runs`` times, and
reports medians: wall time, rows/s, documents/s, peak RSS of the loading process tree,
database size. Results go to stdout as a Markdown table and to bench/out/load-*.json/.md.

Why each load runs as its own process under ``/usr/bin/time`` plus psutil polling: peak
RSS must belong to that load alone (time's ``%M`` catches a short peak the polling can
miss; the polling adds children, which ``%M`` reports only as a maximum). Wall time
includes interpreter start-up (and Django's set-up for ours): that is what a user waits.
PostgreSQL's own server memory is not counted, for any loader.

Our loader: ``manage.py migrate`` into the fresh database (not timed), then the timed
``manage.py load_snapshot DIR``. Skipped, with a message, while the command is missing.

Issue 35: ``--mess all`` (or a list of generate.py's kinds) measures on the messy snapshot;
``--reloads`` follows each of our loads, in the same database, with a timed reload of the same
snapshot (nothing changed) and one of a copy with 5 % of its files touched (``generate.py
--touch``), and, where that is refused, the same again with ``--keep-going``; ``--timeout S``
stops a load that runs longer (the row says how far it got). Every run is listed with the
machine's load averages (1, 5, 15 minutes) as it started and ended: the 2 cores are shared.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
OUT = BENCH / "out"
LOAD_COMMAND = ROOT / "catalogue" / "management" / "commands" / "load_snapshot.py"
PEER_LABELS = {
    "ours": "ours: manage.py load_snapshot",
    "before": "before: manage.py load_snapshot (--baseline checkout)",
    "sqlite-utils": "sqlite-utils insert_all (Datasette way)",
    "raw": "limit: raw executemany / COPY",
    "parse": "floor: parse + flatten only",
    # --reloads: after each of our loads (and the --baseline's), into the same database
    "reload": "ours: reload, nothing changed",
    "touched": "ours: reload, 5 % of files touched",
    "touched-keep-going": "ours: reload, 5 % touched, --keep-going",
    "before-reload": "before: reload, nothing changed",
    "before-touched": "before: reload, 5 % of files touched",
    "before-touched-keep-going": "before: reload, 5 % touched, --keep-going",
}
RELOADS = tuple(p for p in PEER_LABELS if p.endswith(("reload", "touched", "keep-going")))


@dataclass
class Measure:
    wall_s: float
    peak_rss_mb: float
    ok: bool
    output: str
    # RSS of each process of the tree at the sampled peak, largest first (MB): which of the
    # loader, its reading workers and the forkserver the peak is made of
    peak_parts_mb: list[int] = field(default_factory=list)
    # the machine's load averages (1, 5, 15 minutes) as the command started: the cores are shared
    load_start: list[float] = field(default_factory=list)


@dataclass
class Row:
    papers: int
    backend: str
    peer: str
    documents: int = 0
    rows: int = 0
    runs: list[dict] = field(default_factory=list)
    median_wall_s: float | None = None
    rows_per_s: float | None = None
    documents_per_s: float | None = None
    median_peak_rss_mb: float | None = None
    db_mb: float | None = None
    note: str = ""


# --------------------------------------------------------------------------- measuring


# --timeout: a load still running after this many seconds is stopped (its row says so)
TIMEOUT: float | None = None


def measure(cmd: list[str], env: dict | None = None, cwd: Path = ROOT) -> Measure:
    """Run ``cmd`` and return its wall time and the peak RSS of its process tree (stopped after
    TIMEOUT seconds, if set: then not ok, and the output says so)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        full = (
            ["/usr/bin/time", "-f", "%M", "-o", timing.name, *cmd] if Path("/usr/bin/time").exists() else cmd
        )
        # Output goes to a file, not a pipe: a load's warnings fill a pipe's 64 KB long before
        # the end, and nothing reads it while _poll_rss waits (the load then hangs in write()).
        with tempfile.TemporaryFile("w+") as sink:
            load_start = load_averages()
            start = time.perf_counter()
            proc = subprocess.Popen(
                full,
                cwd=cwd,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
            polled, parts, timed_out = _poll_rss(proc, start + TIMEOUT if TIMEOUT else None)
            proc.wait()
            wall = time.perf_counter() - start
            sink.seek(0)
            output = sink.read()
            if timed_out:
                output += f"\ndid not finish within {TIMEOUT:.0f} s: stopped"
        timed_kb = timing.read().strip().splitlines()
    time_rss = int(timed_kb[-1]) * 1024 if timed_kb and timed_kb[-1].isdigit() else 0
    ok = proc.returncode == 0 and not timed_out
    return Measure(wall, max(polled, time_rss) / 2**20, ok, output[-3000:], parts, load_start)


def _poll_rss(proc: subprocess.Popen, deadline: float | None = None) -> tuple[int, list[int], bool]:
    """Highest sum of RSS over the process and all its descendants, sampled, and each
    process's RSS (MB, largest first) at that sample.

    Every 10 ms for the first seconds (short loads), then every 50 ms so that the
    sampling itself does not take a noticeable share of this 2-core machine. Past ``deadline``
    the process group is stopped (SIGTERM, then SIGKILL); the third value says whether it was.
    """
    peak, parts = 0, []
    started = time.perf_counter()
    try:
        root = psutil.Process(proc.pid)
        while proc.poll() is None:
            if deadline is not None and time.perf_counter() > deadline:
                _stop_group(proc)
                return peak, parts, True
            every = 0.01 if time.perf_counter() - started < 3 else 0.05
            sizes = []
            for p in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    sizes.append(p.memory_info().rss)
            if sum(sizes) > peak:
                peak, parts = sum(sizes), sorted((round(s / 2**20) for s in sizes), reverse=True)
            time.sleep(every)
    except psutil.Error:
        pass
    return peak, parts, False


def _stop_group(proc: subprocess.Popen) -> None:
    """Stop the command's own process group (it was started in a session of its own)."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=grace)
            return


def load_averages() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def ensure_snapshot(papers: int, seed: int, data_dir: Path, mess: str = "") -> Path:
    """Generate the snapshot for this scale once; reuse it across runs and invocations.
    ``mess``: generate.py's ``--mess`` (the folder's name says which kinds)."""
    folder = data_dir / f"papers-{papers}-seed-{seed}{mess_tag(mess)}"
    if (folder / ".complete").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    print(f"generating {papers} papers into {folder} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [
            PYTHON,
            str(BENCH / "generate.py"),
            "--papers",
            str(papers),
            "--out",
            str(folder),
            "--seed",
            str(seed),
            *(["--mess", mess] if mess else []),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (folder / ".complete").write_text("")
    return folder


def mess_tag(mess: str) -> str:
    if not mess:
        return ""
    return "-messy" if mess == "all" else "-mess-" + "-".join(sorted(k.strip() for k in mess.split(",")))


def ensure_touched(snapshot: Path, seed: int) -> Path:
    """The copy of ``snapshot`` with 5 % of its files touched (generate.py --touch), made once."""
    folder = snapshot.with_name(snapshot.name + "-touched")
    if (folder / ".complete").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    print(f"touching 5 % of {snapshot} into {folder} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [
            PYTHON,
            str(BENCH / "generate.py"),
            "--touch",
            str(snapshot),
            "--out",
            str(folder),
            "--seed",
            str(seed),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (folder / ".complete").write_text("")
    return folder


# --------------------------------------------------------------------------- databases


class SqliteTarget:
    """A fresh SQLite file per run."""

    backend = "sqlite"

    @contextlib.contextmanager
    def fresh(self):
        tmp = Path(tempfile.mkdtemp(prefix="cwp-bench-"))
        try:
            path = tmp / "bench.sqlite3"
            yield {"path": str(path), "url": f"sqlite:///{path}"}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    @staticmethod
    def size_mb(db: dict) -> float:
        return sum(p.stat().st_size for p in Path(db["path"]).parent.iterdir()) / 2**20


class PostgresTarget:
    """A fresh database per run (CREATE DATABASE) inside one throwaway cluster."""

    backend = "postgres"

    def __init__(self, cluster_url: str):
        import psycopg

        self.psycopg = psycopg
        self.admin_url = cluster_url
        self.counter = 0

    @contextlib.contextmanager
    def fresh(self):
        self.counter += 1
        name = f"bench_{os.getpid()}_{self.counter}"
        with self.psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        url = self.admin_url.rsplit("/", 1)[0] + f"/{name}"
        try:
            yield {"url": url, "name": name}
        finally:
            with self.psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def size_mb(self, db: dict) -> float:
        with self.psycopg.connect(self.admin_url) as conn:
            return conn.execute("SELECT pg_database_size(%s)", (db["name"],)).fetchone()[0] / 2**20


# --------------------------------------------------------------------------- one load


# ``--baseline DIR``: another checkout (a git worktree of an earlier commit) whose
# ``load_snapshot`` runs as the peer "before", its runs alternating with ours.
BASELINE: Path | None = None
# ``--reloads``: the touched copy our reloads load after the snapshot itself (None: no reloads)
TOUCHED: Path | None = None


def run_once(peer: str, target, snapshot: Path) -> list[tuple[str, Measure, float | None]]:
    """One load of ``snapshot`` by ``peer`` into a fresh database of ``target``: (peer, measure,
    database MB); for ours with ``--reloads``, the reloads into the same database follow."""
    with target.fresh() as db:
        if peer in ("ours", "before"):
            where = ROOT if peer == "ours" else BASELINE
            env = {**os.environ, "DATABASE_URL": db["url"]}
            # The checkout's own code, not whatever the venv's editable install points at.
            env["PYTHONPATH"] = str(where)
            migrate = measure([PYTHON, "manage.py", "migrate", "-v", "0"], env=env, cwd=where)
            if not migrate.ok:
                return [(peer, Measure(0, 0, False, "migrate failed: " + migrate.output), None)]
            result = measure([PYTHON, "manage.py", "load_snapshot", str(snapshot)], env=env, cwd=where)
            out = [(peer, result, target.size_mb(db) if result.ok else None)]
            if TOUCHED and result.ok:
                out += [
                    (name if peer == "ours" else f"before-{name}", *rest)
                    for name, *rest in reloads(env, where, snapshot)
                ]
            return out
        elif peer == "parse":
            result = measure([PYTHON, str(BENCH / "peers.py"), "parse", str(snapshot)])
        else:
            name = (
                peer
                if peer == "sqlite-utils"
                else ("sqlite-raw" if target.backend == "sqlite" else "pg-copy")
            )
            where = db["path"] if target.backend == "sqlite" else db["url"]
            result = measure([PYTHON, str(BENCH / "peers.py"), name, str(snapshot), where])
        size = target.size_mb(db) if result.ok and peer != "parse" else None
        return [(peer, result, size)]


def reloads(env: dict, where: Path, snapshot: Path) -> list[tuple[str, Measure, None]]:
    """After a load: the same snapshot again (nothing changed), then the touched copy; where that
    is refused, the touched copy with ``--keep-going`` (what a user tries next)."""
    load = [PYTHON, "manage.py", "load_snapshot"]
    out = [("reload", measure([*load, str(snapshot)], env=env, cwd=where), None)]
    touched = measure([*load, str(TOUCHED)], env=env, cwd=where)
    out.append(("touched", touched, None))
    if not touched.ok:
        out.append(
            ("touched-keep-going", measure([*load, "--keep-going", str(TOUCHED)], env=env, cwd=where), None)
        )
    return out


def run_peers(peers: list[str], target, snapshot: Path, papers: int, runs: int, counts: dict) -> list[Row]:
    """Every peer's runs, alternating (run 1 of each, then run 2 of each…): a change in the
    machine's load over the benchmark then falls on all peers alike, not on one of them."""
    rows = {
        peer: Row(papers=papers, backend="–" if peer == "parse" else target.backend, peer=peer, **counts)
        for peer in peers
    }
    sizes: dict[str, list[float]] = {peer: [] for peer in peers}
    live = []
    for peer in peers:
        if peer == "ours" and not LOAD_COMMAND.exists():
            rows[peer].note = "pending: manage.py load_snapshot does not exist yet"
            print(f"  skip ours ({rows[peer].note})", file=sys.stderr)
        else:
            live.append(peer)
    for i in range(runs):
        for peer in list(live):
            for name, result, size in run_once(peer, target, snapshot):
                if name not in rows:  # a reload's row, made by our load's run
                    rows[name] = Row(papers=papers, backend=target.backend, peer=name, **counts)
                    sizes[name] = []
                row = rows[name]
                row.runs.append(
                    {
                        "wall_s": round(result.wall_s, 3),
                        "peak_rss_mb": round(result.peak_rss_mb, 1),
                        "ok": result.ok,
                        "load_average": load_averages()[0],
                        "load_averages_start": result.load_start,
                        "load_averages_end": load_averages(),
                        "peak_parts_mb": result.peak_parts_mb,
                        "output_tail": result.output[-1500:],
                    }
                )
                print(
                    f"  {target.backend:8} {name:18} run {i + 1}: "
                    f"{result.wall_s:7.2f} s  {result.peak_rss_mb:7.1f} MB  "
                    f"load {' '.join(map(str, result.load_start))} -> {' '.join(map(str, load_averages()))}"
                    f"{'' if result.ok else '  FAILED'}",
                    file=sys.stderr,
                    flush=True,
                )
                if size is not None:
                    sizes[name].append(size)
                if result.ok:
                    continue
                last = result.output.strip().splitlines()[-1][:300] if result.output.strip() else "no output"
                print(result.output, file=sys.stderr)
                if name in RELOADS:  # a refused reload is a figure too: every run tries it again
                    said = result.output.strip().splitlines()
                    reason = next((line.strip() for line in said if "both claim" in line), last)
                    refused = sum(not r["ok"] for r in row.runs)
                    row.note = f"refused ({refused} of {len(row.runs)} runs): {reason[:300]}"
                    continue
                done = ", ".join(f"{r['wall_s']:.1f} s" for r in row.runs if r["ok"])
                row.note = f"failed on run {i + 1}: {last}" + (f" (earlier runs: {done})" if done else "")
                live.remove(peer)
    for name, row in rows.items():
        if name in live or (name in RELOADS and row.runs):
            summarise(row, sizes[name])
    order = [*peers, *(name for name in RELOADS if name in rows)]
    return [rows[name] for name in order]


def summarise(row: Row, sizes: list[float]) -> None:
    """Medians over the runs (a refused reload's too: how long the refusal took)."""
    walls = [r["wall_s"] for r in row.runs]
    row.median_wall_s = statistics.median(walls)
    row.rows_per_s = row.rows / row.median_wall_s
    row.documents_per_s = row.documents / row.median_wall_s
    row.median_peak_rss_mb = statistics.median(r["peak_rss_mb"] for r in row.runs)
    row.db_mb = round(statistics.median(sizes), 1) if sizes else None


def count_rows(snapshot: Path) -> dict:
    """Rows and documents every load writes (from flatten, so identical for all peers)."""
    out = subprocess.run(
        [PYTHON, str(BENCH / "peers.py"), "parse", str(snapshot)], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


# --------------------------------------------------------------------------- report


def markdown(rows: list[Row]) -> str:
    head = (
        "| papers | docs | rows | backend | load | median wall s | rows/s | docs/s | "
        "peak RSS MB | DB MB | note |"
    )
    lines = [head, "|" + "---|" * 11]
    for r in rows:

        def fmt(v, spec):
            return format(v, spec) if v is not None else "–"

        lines.append(
            f"| {r.papers:,} | {r.documents:,} | {r.rows:,} | {r.backend} | {PEER_LABELS[r.peer]} | "
            f"{fmt(r.median_wall_s, '.2f')} | {fmt(r.rows_per_s, ',.0f')} | "
            f"{fmt(r.documents_per_s, ',.0f')} | "
            f"{fmt(r.median_peak_rss_mb, '.0f')} | {fmt(r.db_mb, '.1f')} | {r.note} |"
        )
    lines += [
        "",
        "| papers | backend | load | run | wall s | ok | peak RSS MB | load averages at start | at end |",
        "|" + "---|" * 9,
    ]
    for r in rows:
        for i, run in enumerate(r.runs, 1):
            start = " / ".join(map(str, run.get("load_averages_start", [])))
            end = " / ".join(map(str, run.get("load_averages_end", [run["load_average"]])))
            lines.append(
                f"| {r.papers:,} | {r.backend} | {PEER_LABELS[r.peer]} | {i} | {run['wall_s']:.2f} | "
                f"{'yes' if run['ok'] else 'no'} | {run['peak_rss_mb']:.0f} | {start} | {end} |"
            )
    return "\n".join(lines)


def commit(checkout: Path) -> str:
    out = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip()


def machine() -> dict:
    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": sys.version.split()[0],
    }


@contextlib.contextmanager
def targets(backends: list[str]):
    """SQLite always available; PostgreSQL through scripts/pgcluster.py's throwaway cluster."""
    found = []
    if "sqlite" in backends:
        found.append(SqliteTarget())
    if "postgres" not in backends:
        yield found
        return
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from pgcluster import throwaway_cluster
    except ImportError as exc:
        print(f"skipping PostgreSQL: scripts/pgcluster.py not importable ({exc})", file=sys.stderr)
        yield found
        return
    with throwaway_cluster() as url:
        yield [*found, PostgresTarget(url)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--backends", nargs="+", default=["sqlite", "postgres"], choices=["sqlite", "postgres"]
    )
    parser.add_argument(
        "--peers",
        nargs="+",
        default=[p for p in PEER_LABELS if p not in ("before", *RELOADS)],
        choices=[p for p in PEER_LABELS if p not in RELOADS],
    )
    parser.add_argument(
        "--data", type=Path, default=OUT / "data", help="where generated snapshots are cached"
    )
    parser.add_argument(
        "--mess",
        default="",
        metavar="KIND,…",
        help="measure on generate.py's messy snapshot: its kinds, or 'all'",
    )
    parser.add_argument(
        "--reloads",
        action="store_true",
        help="after each of our loads: a reload of the same snapshot, then of a copy with 5 %% of "
        "files touched "
        "(generate.py --touch)",
    )
    parser.add_argument("--timeout", type=float, help="stop a load running longer than this many seconds")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of an earlier commit (git worktree add --detach DIR COMMIT, with its .venv): "
        "its load_snapshot runs too, as 'before', alternating with ours",
    )
    args = parser.parse_args(argv)
    global BASELINE, TIMEOUT, TOUCHED
    BASELINE = args.baseline.resolve() if args.baseline else None
    TIMEOUT = args.timeout
    peers = list(args.peers)
    if BASELINE and "before" not in peers:
        peers.insert(peers.index("ours") if "ours" in peers else 0, "before")
    if "before" in peers and not BASELINE:
        parser.error("the peer 'before' needs --baseline DIR")

    results: list[Row] = []
    with targets(args.backends) as found:
        for papers in args.papers:
            snapshot = ensure_snapshot(papers, args.seed, args.data, args.mess)
            TOUCHED = ensure_touched(snapshot, args.seed) if args.reloads else None
            counts = count_rows(snapshot)
            print(f"{papers} papers: {counts['documents']} documents, {counts['rows']} rows", file=sys.stderr)
            for target in found:
                chosen = [
                    peer
                    for peer in peers
                    # sqlite-utils is SQLite only; parsing involves no database: once per scale
                    if not (peer == "sqlite-utils" and target.backend != "sqlite")
                    and not (peer == "parse" and target is not found[0])
                ]
                results += run_peers(chosen, target, snapshot, papers, args.runs, counts)

    table = markdown(results)
    print(table)
    OUT.mkdir(exist_ok=True)
    stamp = "-".join(str(p) for p in args.papers)
    if args.mess or args.seed:
        stamp += f"-seed-{args.seed}{mess_tag(args.mess)}"
    (OUT / f"load-{stamp}.md").write_text(table + "\n")
    (OUT / f"load-{stamp}.json").write_text(
        json.dumps(
            {
                "machine": machine(),
                "commit": commit(ROOT),
                "baseline_commit": commit(BASELINE) if BASELINE else None,
                "runs": args.runs,
                "seed": args.seed,
                "mess": args.mess,
                "reloads": args.reloads,
                "timeout_s": args.timeout,
                "results": [asdict(r) for r in results],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
