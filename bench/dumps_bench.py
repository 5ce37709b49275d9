"""Loading the archive's dump files at archive size, beside parsing alone and a raw write of the same rows.

    .venv/bin/python bench/dumps_bench.py [--papers 576000] [--forms json parquet]
        [--backends sqlite postgres] [--runs 1]

The dumps come from bench/generate_archive.py (made once, under bench/out/archive/). For each
form and backend, each step is its own process, timed whole with the peak RSS of its process
tree (load_bench.measure), on a fresh database each run:

* records: read every record (ijson / pyarrow), nothing else;
* rows: read and check every record into the loader's staged rows, no database (the floor);
* raw: those rows into plain tables, no key, index or merge (``COPY`` / ``executemany``): the limit;
* sqlite-utils (SQLite): those rows through sqlite-utils' ``insert_all``, as a Datasette user would;
* ours: ``manage.py load_snapshot DIR`` (after an untimed ``migrate``);
* reload: the same again into the same database (every dump is known by its checksum).

Targets (issue 12): ours within 3× of raw; peak RSS under 500 MB. Prints a Markdown table,
and writes bench/out/dumps-<papers>.md and .json (every run listed).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "scripts"))

from archive_bench import cluster_url, database, drop  # noqa: E402
from load_bench import OUT, PYTHON, ROOT, machine, measure  # noqa: E402

RAW_TARGET = 3.0
RSS_TARGET_MB = 500


def ensure_dumps(papers: int, seed: int, forms: list[str]) -> Path:
    folder = OUT / "archive" / f"papers-{papers}-seed-{seed}"
    missing = [form for form in forms if not (folder / f"manifest-{form}.txt").exists()]
    if missing:
        subprocess.run(
            [PYTHON, str(BENCH / "generate_archive.py"), "--papers", str(papers), "--seed", str(seed),
             "--format", missing[0] if len(missing) == 1 else "both"],
            check=True,
        )  # fmt: skip
    return folder


def run_steps(form_dir: Path, backend: str, admin_url: str | None, keep: Path | None = None) -> list[dict]:
    out = []
    with tempfile.TemporaryDirectory(prefix="dumps-bench-") as work:
        for label, cmd, db in _steps(form_dir, backend, admin_url, Path(work)):
            result = measure(cmd, env={**os.environ, **db})
            row = {
                "step": label,
                "wall_s": round(result.wall_s, 2),
                "peak_rss_mb": round(result.peak_rss_mb, 1),
                "ok": result.ok,
                "load_average": round(os.getloadavg()[0], 2),  # 1 minute, as the step ended
            }
            if not result.ok:
                row["tail"] = result.output.strip().splitlines()[-5:]
            elif label in ("records", "rows") and result.output.strip():
                row["counts"] = json.loads(result.output.strip().splitlines()[-1])
            failed = "" if result.ok else "  FAILED"
            where = f"{form_dir.name:8} {backend:8} {label:8}"
            print(
                f"  {where} {row['wall_s']:9.1f} s {row['peak_rss_mb']:7.0f} MB{failed}",
                file=sys.stderr,
                flush=True,
            )
            out.append(row)
        if keep and backend == "sqlite" and (Path(work) / "ours.sqlite3").exists():
            # the loaded catalogue, for serving at this size (bench/pages_bench.py --db)
            keep.parent.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(Path(work) / "ours.sqlite3") as source, sqlite3.connect(keep) as target:
                source.backup(target)
    if backend == "postgres":
        for name in ("dumps_raw", "dumps_ours"):
            drop(admin_url, name)
    return out


def _steps(form_dir: Path, backend: str, admin_url: str | None, work: Path):
    peers = str(BENCH / "dump_peers.py")
    if backend == "sqlite":
        yield "records", [PYTHON, peers, "records", str(form_dir)], {}
        yield "rows", [PYTHON, peers, "rows", str(form_dir)], {}
        yield "raw", [PYTHON, peers, "sqlite-raw", str(form_dir), str(work / "raw.sqlite3")], {}
        yield "sqlite-utils", [PYTHON, peers, "sqlite-utils", str(form_dir), str(work / "utils.sqlite3")], {}
        ours = {"DATABASE_URL": f"sqlite:///{work / 'ours.sqlite3'}"}
    else:
        yield "raw", [PYTHON, peers, "pg-copy", str(form_dir), database(admin_url, "dumps_raw")], {}
        ours = {"DATABASE_URL": database(admin_url, "dumps_ours")}
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env={**os.environ, **ours}, check=True
    )
    yield "ours", [PYTHON, "manage.py", "load_snapshot", "-v", "0", str(form_dir)], ours
    yield "reload", [PYTHON, "manage.py", "load_snapshot", "-v", "0", str(form_dir)], ours


def summarise(runs: list[list[dict]]) -> dict:
    by_step: dict[str, list[dict]] = {}
    for run in runs:
        for row in run:
            by_step.setdefault(row["step"], []).append(row)
    return {
        step: {
            "median_wall_s": statistics.median(r["wall_s"] for r in rows),
            "median_peak_rss_mb": statistics.median(r["peak_rss_mb"] for r in rows),
            "runs": rows,
        }
        for step, rows in by_step.items()
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=576_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--forms", nargs="+", default=["json", "parquet"])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--keep-sqlite", type=Path, metavar="FILE", help="copy the last SQLite catalogue we loaded to FILE"
    )
    args = parser.parse_args(argv)
    folder = ensure_dumps(args.papers, args.seed, args.forms)
    report = {"papers": args.papers, "seed": args.seed, "machine": machine(), "results": {}}
    with cluster_url() as admin_url:
        for backend in args.backends:
            for form in args.forms:
                runs = [
                    run_steps(folder / form, backend, admin_url, args.keep_sqlite) for _ in range(args.runs)
                ]
                report["results"][f"{backend}/{form}"] = summarise(runs)
    lines = [
        f"Archive dumps: {args.papers:,} papers (bench/generate_archive.py, seed {args.seed}), "
        f"medians of {args.runs}",
        "",
        "| backend | form | step | median wall s | median peak RSS MB | ours ÷ this | runs (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, steps in report["results"].items():
        backend, form = key.split("/")
        ours = steps.get("ours", {}).get("median_wall_s")
        for step, s in steps.items():
            ratio = f"{ours / s['median_wall_s']:.1f}×" if ours and s["median_wall_s"] else "–"
            listed = ", ".join(
                f"{r['wall_s']:.1f}{'' if r['ok'] else ' FAILED'} (load {r.get('load_average', '?')})"
                for r in s["runs"]
            )
            lines.append(f"| {backend} | {form} | {step} | {s['median_wall_s']:.1f} | "
                         f"{s['median_peak_rss_mb']:.0f} | {ratio} | {listed} |")  # fmt: skip
    text = "\n".join(lines)
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / f"dumps-{args.papers}.md").write_text(text + "\n")
    (OUT / f"dumps-{args.papers}.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
