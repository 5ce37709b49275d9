"""The loader at archive size: 500,000 papers into PostgreSQL, beside its limit and its floor.

    .venv/bin/python bench/archive_bench.py [--papers 500000] [--keep cwp_500000] [--no-peers]

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
Results: stdout, bench/out/archive-<papers>.md and .json. ``--keep NAME`` leaves our loaded
database behind under that name (for bench/latency_bench.py --reuse in the same cluster).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
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
        "tail": result.output.strip().splitlines()[-3:] if result.output.strip() else [],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", metavar="NAME", help="keep our loaded database under this name")
    parser.add_argument("--no-peers", action="store_true", help="skip the parse floor and COPY limit")
    args = parser.parse_args(argv)

    snapshot = ensure_snapshot(args.papers, args.seed, OUT / "data")
    results: list[dict] = []
    counts = {"rows": 0, "documents": 0}
    with cluster_url() as admin_url:
        if not args.no_peers:
            parse = measure([PYTHON, str(BENCH / "peers.py"), "parse", str(snapshot)])
            results.append(step("floor: parse + flatten only", parse))
            if parse.ok:
                counts = json.loads(parse.output.strip().splitlines()[-1])
            url = database(admin_url, "archive_copy")
            copy = measure([PYTHON, str(BENCH / "peers.py"), "pg-copy", str(snapshot), url])
            results.append(step("limit: COPY", copy) | {"db_mb": round(size_mb(admin_url, "archive_copy"))})
            drop(admin_url, "archive_copy")

        name = args.keep or "archive_ours"
        url = database(admin_url, name)
        env = {**os.environ, "DATABASE_URL": url}
        migrate = measure([PYTHON, "manage.py", "migrate", "-v", "0"], env=env, cwd=ROOT)
        if not migrate.ok:
            sys.exit("migrate failed:\n" + migrate.output)
        load = measure([PYTHON, "manage.py", "load_snapshot", str(snapshot)], env=env, cwd=ROOT)
        results.append(step("ours: load_snapshot", load) | {"db_mb": round(size_mb(admin_url, name))})
        reload = measure([PYTHON, "manage.py", "load_snapshot", str(snapshot)], env=env, cwd=ROOT)
        results.append(step("ours: reload, nothing changed", reload))
        if not args.keep:
            drop(admin_url, name)

    by = {r["load"]: r for r in results}
    ours, again = by["ours: load_snapshot"], by["ours: reload, nothing changed"]
    for r in results:
        r["rows_per_s"] = round(counts["rows"] / r["wall_s"]) if counts["rows"] and r["ok"] else None
    verdict = {
        "peak_rss_mb": ours["peak_rss_mb"],
        "rss_target_mb": RSS_TARGET_MB,
        "rss_met": ours["ok"] and ours["peak_rss_mb"] < RSS_TARGET_MB,
        "reload_speedup": round(ours["wall_s"] / again["wall_s"], 1) if again["wall_s"] else None,
        "reload_target": RELOAD_TARGET,
        "reload_met": ours["ok"] and again["ok"] and ours["wall_s"] >= RELOAD_TARGET * again["wall_s"],
    }
    if "limit: COPY" in by and by["limit: COPY"]["ok"]:
        verdict["ours_over_copy"] = round(ours["wall_s"] / by["limit: COPY"]["wall_s"], 1)
    report = {"papers": args.papers, "seed": args.seed, **counts, "machine": machine(), "results": results}
    report["verdict"] = verdict

    lines = [
        f"Archive load: {args.papers:,} papers, {counts['documents']:,} documents, {counts['rows']:,} rows"
        " (PostgreSQL 15, throwaway cluster)",
        "",
        "| load | wall s | rows/s | peak RSS MB | DB MB | ok |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        rate = f"{r['rows_per_s']:,}" if r["rows_per_s"] else "–"
        lines.append(
            f"| {r['load']} | {r['wall_s']:.1f} | {rate} | {r['peak_rss_mb']:.0f} | {r.get('db_mb', '–')} "
            f"| {'yes' if r['ok'] else 'FAILED'} |"
        )
    lines += [
        "",
        f"Peak RSS {verdict['peak_rss_mb']:.0f} MB (target < {RSS_TARGET_MB}): "
        f"{'met' if verdict['rss_met'] else 'MISSED'}. Reload {verdict['reload_speedup']}× faster "
        f"(target ≥ {RELOAD_TARGET:g}×): {'met' if verdict['reload_met'] else 'MISSED'}."
        + (f" Ours / COPY limit: {verdict['ours_over_copy']}×." if "ours_over_copy" in verdict else ""),
    ]
    text = "\n".join(lines)
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / f"archive-{args.papers}.md").write_text(text + "\n")
    (OUT / f"archive-{args.papers}.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
