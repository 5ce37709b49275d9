"""The loader at archive size: 500,000 papers into PostgreSQL, beside its limit and its floor.

    .venv/bin/python bench/archive_bench.py [--papers 500000] [--runs 3] [--keep cwp_500000] [--no-peers]

In one run, on one throwaway PostgreSQL cluster (scripts/pgcluster.py; or the cluster that
DATABASE_URL names, when it is set, e.g. under ``pgcluster.py run --``):
1. makes (once, cached under bench/out/data/) a synthetic snapshot with bench/generate.py;
2. floor: parse + flatten only (bench/peers.py parse), no database;
3. limit: psycopg COPY of the same rows into plain tables without keys (bench/peers.py pg-copy);
4. ours: ``manage.py migrate`` (not timed) then the timed ``manage.py load_snapshot DIR``;
5. ours again, the same snapshot into the same database: nothing changed, so the loader
   skips every file whose checksum it already holds; the target is ≥ 3× faster than step 4.
Each step runs as its own process, timed and with the peak RSS of its process tree
(bench/load_bench.py's ``measure``). Targets: peak RSS of our load < 500 MB; reload ≥ 3×.
With ``--runs N`` every step runs N times (the peers and ours taking turns to go first):
the report gives each run, the medians, and the highest peak RSS of our loads.
Results: stdout, bench/out/archive-<papers>.md and .json. ``--keep NAME`` leaves our loaded
database behind under that name (for bench/latency_bench.py --reuse in the same cluster).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "scripts"))

from load_bench import OUT, PYTHON, ROOT, Measure, ensure_snapshot, machine, measure  # noqa: E402

RSS_TARGET_MB = 500
RELOAD_TARGET = 3.0


@contextlib.contextmanager
def cluster_url():
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        yield os.environ["DATABASE_URL"]
        return
    from pgcluster import throwaway_cluster

    with throwaway_cluster() as url:
        yield url


def database(admin_url: str, name: str, *, fresh: bool = True) -> str:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if fresh:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


def drop(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def size_mb(admin_url: str, name: str) -> float:
    import psycopg

    with psycopg.connect(admin_url) as conn:
        return conn.execute("SELECT pg_database_size(%s)", (name,)).fetchone()[0] / 2**20


def step(label: str, result: Measure) -> dict:
    print(
        f"  {label:34} {result.wall_s:8.1f} s  {result.peak_rss_mb:7.0f} MB{'' if result.ok else '  FAILED'}",
        file=sys.stderr,
        flush=True,
    )
    if not result.ok:
        print(result.output, file=sys.stderr)
    return {
        "load": label,
        "wall_s": round(result.wall_s, 2),
        "peak_rss_mb": round(result.peak_rss_mb, 1),
        "ok": result.ok,
        "load_average": round(os.getloadavg()[0], 2),  # 1 minute, as the step ended
        "peak_parts_mb": result.peak_parts_mb,
        "tail": result.output.strip().splitlines()[-3:] if result.output.strip() else [],
    }


FLOOR, LIMIT, OURS, RELOAD = (
    "floor: parse + flatten only",
    "limit: COPY",
    "ours: load_snapshot",
    "ours: reload, nothing changed",
)


def one_round(admin_url: str, snapshot: Path, keep: str | None, peers: bool, peers_first: bool) -> list[dict]:
    """The peers (parse floor, COPY limit) and ours (a load, then a reload), in the order asked."""

    def run_peers() -> list[dict]:
        parse = step(FLOOR, measure([PYTHON, str(BENCH / "peers.py"), "parse", str(snapshot)]))
        if parse["ok"]:
            parse["counts"] = json.loads(parse.pop("tail")[-1])
        url = database(admin_url, "archive_copy")
        copy = step(LIMIT, measure([PYTHON, str(BENCH / "peers.py"), "pg-copy", str(snapshot), url]))
        copy["db_mb"] = round(size_mb(admin_url, "archive_copy"))
        drop(admin_url, "archive_copy")
        return [parse, copy]

    def run_ours() -> list[dict]:
        name = keep or "archive_ours"
        url = database(admin_url, name)
        env = {**os.environ, "DATABASE_URL": url}
        migrate = measure([PYTHON, "manage.py", "migrate", "-v", "0"], env=env, cwd=ROOT)
        if not migrate.ok:
            sys.exit("migrate failed:\n" + migrate.output)
        load = step(OURS, measure([PYTHON, "manage.py", "load_snapshot", str(snapshot)], env=env, cwd=ROOT))
        load["db_mb"] = round(size_mb(admin_url, name))
        reload = step(
            RELOAD, measure([PYTHON, "manage.py", "load_snapshot", str(snapshot)], env=env, cwd=ROOT)
        )
        if not keep:
            drop(admin_url, name)
        return [load, reload]

    if not peers:
        return run_ours()
    return run_peers() + run_ours() if peers_first else run_ours() + run_peers()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1, help="rounds; each runs every step once")
    parser.add_argument("--keep", metavar="NAME", help="keep our loaded database under this name")
    parser.add_argument("--no-peers", action="store_true", help="skip the parse floor and COPY limit")
    args = parser.parse_args(argv)

    snapshot = ensure_snapshot(args.papers, args.seed, OUT / "data")
    runs: list[dict] = []
    with cluster_url() as admin_url:
        for index in range(args.runs):
            # the peers and ours take turns going first: neither always meets a cold page cache
            print(f"round {index + 1} of {args.runs}", file=sys.stderr, flush=True)
            for r in one_round(admin_url, snapshot, args.keep, not args.no_peers, index % 2 == 0):
                runs.append(r | {"round": index + 1})

    counts = next((r["counts"] for r in runs if "counts" in r), {"rows": 0, "documents": 0})
    steps = []
    for label in (FLOOR, LIMIT, OURS, RELOAD):
        mine = [r for r in runs if r["load"] == label]
        if not mine:
            continue
        ok = [r for r in mine if r["ok"]]
        median = statistics.median(r["wall_s"] for r in ok) if ok else None
        steps.append(
            {
                "load": label,
                "median_wall_s": median,
                "walls_s": [r["wall_s"] if r["ok"] else None for r in mine],
                "max_peak_rss_mb": max(r["peak_rss_mb"] for r in mine),
                "peak_rss_mb": [r["peak_rss_mb"] for r in mine],
                "peak_parts_mb": [r["peak_parts_mb"] for r in mine],
                "db_mb": [r["db_mb"] for r in mine if "db_mb" in r],
                "load_average": [r["load_average"] for r in mine],
                "rows_per_s": round(counts["rows"] / median) if counts["rows"] and median else None,
                "ok": len(ok) == len(mine),
            }
        )
    by = {s["load"]: s for s in steps}
    ours, again = by[OURS], by[RELOAD]
    verdict = {
        # the highest peak of the runs: the target is a ceiling, not a typical value
        "peak_rss_mb": ours["max_peak_rss_mb"],
        "rss_target_mb": RSS_TARGET_MB,
        "rss_met": ours["ok"] and ours["max_peak_rss_mb"] < RSS_TARGET_MB,
        "reload_speedup": round(ours["median_wall_s"] / again["median_wall_s"], 1)
        if ours["ok"] and again["ok"]
        else None,
        "reload_target": RELOAD_TARGET,
        "reload_met": ours["ok"]
        and again["ok"]
        and ours["median_wall_s"] >= RELOAD_TARGET * again["median_wall_s"],
    }
    if FLOOR in by and LIMIT in by and by[FLOOR]["ok"] and by[LIMIT]["ok"] and ours["ok"]:
        verdict["ours_over_copy"] = round(ours["median_wall_s"] / by[LIMIT]["median_wall_s"], 1)
        verdict["ours_over_parse_plus_copy"] = round(
            ours["median_wall_s"] / (by[FLOOR]["median_wall_s"] + by[LIMIT]["median_wall_s"]), 1
        )
    report = {
        "papers": args.papers,
        "seed": args.seed,
        "runs": args.runs,
        **counts,
        "machine": machine(),
        "steps": steps,
        "each_run": runs,
        "verdict": verdict,
    }

    def seconds(values: list) -> str:
        return ", ".join("FAILED" if v is None else f"{v:.1f}" for v in values)

    lines = [
        f"Archive load: {args.papers:,} papers, {counts['documents']:,} documents, {counts['rows']:,} rows"
        f" (PostgreSQL 15, throwaway cluster), {args.runs} round(s)",
        "",
        "| load | median s | each run s | rows/s | peak RSS MB, each run | DB MB | load average |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in steps:
        rate = f"{s['rows_per_s']:,}" if s["rows_per_s"] else "–"
        median = f"{s['median_wall_s']:.1f}" if s["median_wall_s"] is not None else "FAILED"
        lines.append(
            f"| {s['load']} | {median} | {seconds(s['walls_s'])} | {rate} "
            f"| {', '.join(f'{v:.0f}' for v in s['peak_rss_mb'])} "
            f"| {', '.join(str(v) for v in s['db_mb']) or '–'} "
            f"| {', '.join(f'{v:.1f}' for v in s['load_average'])} |"
        )
    lines += [
        "",
        "Our loads' peaks, process by process (MB, largest first; the /usr/bin/time wrapper is one): "
        + "; ".join(
            f"run {i}: {' + '.join(map(str, parts))}" for i, parts in enumerate(ours["peak_parts_mb"], 1)
        )
        + ".",
        "",
        f"Highest peak RSS of our loads {verdict['peak_rss_mb']:.0f} MB (target < {RSS_TARGET_MB}): "
        f"{'met' if verdict['rss_met'] else 'MISSED'}. Reload {verdict['reload_speedup']}× faster "
        f"(target ≥ {RELOAD_TARGET:g}×): {'met' if verdict['reload_met'] else 'MISSED'}."
        + (
            f" Ours / COPY limit: {verdict['ours_over_copy']}×; ours / (parse + COPY): "
            f"{verdict['ours_over_parse_plus_copy']}×."
            if "ours_over_copy" in verdict
            else ""
        ),
    ]
    text = "\n".join(lines)
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / f"archive-{args.papers}.md").write_text(text + "\n")
    (OUT / f"archive-{args.papers}.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
