"""``load_snapshot`` of two checkouts on the same input, side by side: the before/after of a change.

    .venv/bin/python bench/versus_load.py --before /path/to/old/checkout INPUT [INPUT…]
        [--backends sqlite postgres] [--runs 3] [--label "sota + methods"]

Each checkout loads with its own ``.venv`` (``make venv`` in it first). For each backend and run,
the two take turns going first (round-robin: a busy machine slows both alike), each on a fresh
database of its own: ``migrate`` (not timed), then the timed ``manage.py load_snapshot INPUT…`` as
its own process, with the peak RSS of its process tree (load_bench.measure). PostgreSQL runs in one
throwaway cluster (or the one DATABASE_URL names). Prints every run, the medians and the ratio
after / before, with the machine's load average at each run; writes bench/out/versus-<label>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "scripts"))

from archive_bench import cluster_url, database, drop  # noqa: E402
from load_bench import OUT, ROOT, commit, machine, measure  # noqa: E402


def _load(checkout: Path, inputs: list[str], db_url: str) -> dict:
    python = str(checkout / ".venv" / "bin" / "python")
    env = {**os.environ, "DATABASE_URL": db_url}
    migrated = measure([python, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=checkout)
    if not migrated.ok:
        raise SystemExit(f"migrate failed in {checkout}:\n{migrated.output}")
    result = measure([python, "manage.py", "load_snapshot", *inputs], env=env, cwd=checkout)
    if not result.ok:
        raise SystemExit(f"load_snapshot failed in {checkout}:\n{result.output}")
    return {
        "seconds": round(result.wall_s, 2),
        "peak_mb": round(result.peak_rss_mb),
        "load": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--after", type=Path, default=ROOT, help="default: this checkout")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--label", default="load")
    args = parser.parse_args(argv)
    inputs = [str(Path(p).resolve()) for p in args.inputs]
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    report = {
        "label": args.label,
        "inputs": inputs,
        "commits": {side: commit(path) for side, path in sides.items()},
        "machine": machine(),
        "runs": {},
    }
    for backend in args.backends:
        runs = report["runs"][backend] = {"before": [], "after": []}
        for run in range(args.runs):
            order = ["before", "after"] if run % 2 == 0 else ["after", "before"]
            for side in order:
                if backend == "sqlite":
                    with tempfile.TemporaryDirectory() as scratch:
                        got = _load(sides[side], inputs, f"sqlite:///{scratch}/db.sqlite3")
                else:
                    with cluster_url() as admin:
                        name = f"versus_{side}"
                        got = _load(sides[side], inputs, database(admin, name))
                        drop(admin, name)
                runs[side].append(got)
                print(
                    f"{backend:<8} run {run + 1} {side:<6} {got['seconds']:>8.2f} s  {got['peak_mb']:>5} MB  "
                    f"load {got['load']:.2f}",
                    flush=True,
                )
    print(f"\n{args.label}: medians of {args.runs}, after / before")
    for backend, runs in report["runs"].items():
        med = {side: statistics.median(r["seconds"] for r in runs[side]) for side in runs}
        peak = {side: max(r["peak_mb"] for r in runs[side]) for side in runs}
        runs["median"] = med
        runs["ratio"] = round(med["after"] / med["before"], 3)
        each = {side: ", ".join(str(r["seconds"]) for r in runs[side]) for side in ("before", "after")}
        print(
            f"  {backend:<8} before {med['before']:.2f} s ({each['before']}), "
            f"after {med['after']:.2f} s ({each['after']}): "
            f"{runs['ratio']:.2f}x; peak {peak['before']} / {peak['after']} MB"
        )
    OUT.mkdir(exist_ok=True)
    slug = "".join(c if c.isalnum() else "-" for c in args.label).strip("-")
    (OUT / f"versus-{slug}.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
