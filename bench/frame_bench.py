"""The paper page (its most-placed paper and a 5-place one) and the page frame (/about against
/healthz), uncached, from two checkouts side by side, beside Datasette's row page (issue 16).

    .venv/bin/python bench/frame_bench.py BEFORE_TREE AFTER_TREE [--rounds 3] [--db FILE]

``--db``: a loaded SQLite catalogue (default: the one ``pages_bench.py`` loads at 20,000 papers,
bench/out/pages/catalogue-20000.sqlite3). Each tree (a checkout with its .venv) is served in
turn by gunicorn as ``pages_bench`` serves it (page cache and figures memo off), the two
alternating which goes first; then Datasette serves a copy of the same file (made once, beside
it). wrk 10 s a line after 20 warming requests, one connection (16 for the ``c16`` lines).
Prints a Markdown table of medians with every run, and writes ``frame-bench.json`` beside the
database.
"""

import argparse
import json
import os
import sqlite3
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pages_bench as pb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--db", type=Path, default=pb.OUT / "pages" / "catalogue-20000.sqlite3")
    args = parser.parse_args()
    db = args.db.resolve()
    copy = db.with_name("datasette.db")
    if not copy.exists():
        copy = pb.datasette_copy(db)
    targets = pb.pick_targets(db)
    with sqlite3.connect(db) as conn:
        most_id, most_slug, most = conn.execute(
            "SELECT p.id, p.slug, COUNT(*) FROM catalogue_paper p "
            "JOIN catalogue_sample s ON s.paper_id = p.id GROUP BY p.id ORDER BY COUNT(*) DESC, p.id LIMIT 1"
        ).fetchone()
    pages = {  # name: (our address, Datasette's, connections)
        f"paper, {most} places": (f"/paper/{most_slug}", f"/datasette/catalogue_paper/{most_id}", 1),
        "paper, 4-10 places": (targets["paper"], targets["datasette_row"], 1),
        "/about": ("/about", None, 1),
        "/healthz": ("/healthz", None, 1),
        "/about c16": ("/about", None, 16),
        "/healthz c16": ("/healthz", None, 16),
    }
    serving = SimpleNamespace(workers=2, threads=4)
    rows = []

    def measure(round_no, server, name, url, connections):
        pb.warm(url)
        result = pb.wrk(url, 10, connections)
        result.pop("raw")
        rows.append({"round": round_no, "server": server, "page": name, **result, "load": os.getloadavg()[0]})
        print(round_no, server, name, f"{result['rps']:.0f} req/s", result["p50_ms"], file=sys.stderr)

    for round_no in range(1, args.rounds + 1):
        trees = [("before", args.before), ("after", args.after)]
        for label, tree in trees if round_no % 2 else reversed(trees):
            server = pb.Server(pb.gunicorn(serving, tree), pb.OUR_PORT, env=pb.uncached_env(db), cwd=tree)
            try:
                server.wait("/healthz")
                for name, (ours, _, connections) in pages.items():
                    measure(round_no, label, name, f"http://127.0.0.1:{pb.OUR_PORT}{ours}", connections)
            finally:
                server.stop()
        datasette = pb.Server(
            [pb.datasette_bin(), "serve", "-i", copy, "--port", str(pb.DATASETTE_PORT)], pb.DATASETTE_PORT
        )
        try:
            base = f"/{copy.stem}"
            datasette.wait(base)
            for name, (_, theirs, connections) in pages.items():
                if theirs:
                    url = f"http://127.0.0.1:{pb.DATASETTE_PORT}" + theirs.replace("/datasette", base)
                    measure(round_no, "Datasette", name, url, connections)
        finally:
            datasette.stop()
    (db.parent / "frame-bench.json").write_text(json.dumps(rows, indent=1))
    print(
        "| page | server | req/s median (runs) | p50 ms median | load average (runs) |\n|---|---|---|---|---|"
    )
    for name in pages:
        for server in ("before", "after", "Datasette"):
            runs = [r for r in rows if r["page"] == name and r["server"] == server]
            if runs:
                rps = ", ".join(f"{r['rps']:.0f}" for r in runs)
                loads = ", ".join(f"{r['load']:.1f}" for r in runs)
                print(
                    f"| {name} | {server} | {statistics.median(r['rps'] for r in runs):.0f} ({rps}) | "
                    f"{statistics.median(r['p50_ms'] for r in runs):.1f} | {loads} |"
                )


if __name__ == "__main__":
    main()
