"""Issue 38: three MCP tool calls beside their API twins, at 20,000 papers.

    .venv/bin/python bench/mcp_bench.py [--papers 20000] [--board-rows 348] [--runs 3] [--requests 200]
                                        [--duration 5] [--reuse]

The snapshot bench/out/data/papers-<N>-seed-0 (bench/generate.py, made once) is loaded into
SQLite (bench/out/mcp-<N>.sqlite3; ``--reuse`` keeps a loaded one). The biggest leaderboard is
grown to ``--board-rows`` results (synthetic rows on the catalogue's papers, as the biggest board
at 500,000 papers holds 346-348), so the board call reads a board of the size the issue names.
One gunicorn (config/gunicorn.conf.py: 2 workers x 4 threads, the response cache and the figure
memo off so the database path is what is timed, throttling off, no request log) serves both sides.

Pairs, each the MCP request a client sends (the SDK client's own bytes: protocol 2026-07-28,
one POST per call) and the API requests that answer the same question:

- search:      tools/call search_papers {query}  vs  GET /api/v1/papers/?q=…&items_per_page=25
- paper:       tools/call get_paper {paper}      vs  the 4 GETs its answer holds (the paper, its
               repositories, results and samples, 25 rows each), one after the other
- leaderboard: tools/call get_leaderboard {board} (rows 1-25 of the ranked board)
               vs  GET /api/v1/evaluations/<board>/results/?items_per_page=25

p50: ``--requests`` sequential calls on one keep-alive connection, after 20 warm-up calls.
req/s: 8 client threads, each on its own keep-alive connection, for ``--duration`` seconds.
``--runs`` runs; the table gives the median of the runs and lists each run.
Output: bench/out/mcp-<N>.md and .json.
"""

import argparse
import http.client
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
VENV = ROOT / ".venv" / "bin"
PORT = 8831
THREADS = 8
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2026-07-28",
    "MCP-Method": "tools/call",
}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "mcp_bench", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def run(cmd, **kwargs):
    print("$", " ".join(map(str, cmd)), file=sys.stderr)
    return subprocess.run(cmd, check=True, **kwargs)


def snapshot(papers: int) -> Path:
    data = OUT / "data" / f"papers-{papers}-seed-0"
    if not (data / ".complete").exists():
        run([VENV / "python", ROOT / "bench" / "generate.py", "--papers", str(papers), "--out", data])
        (data / ".complete").touch()
    return data


def load(data: Path, db: Path, reuse: bool, env: dict) -> None:
    if reuse and db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    for stale in db.parent.glob(db.name + "*"):
        stale.unlink()
    run([VENV / "python", ROOT / "manage.py", "migrate", "-v0"], env=env, cwd=ROOT)
    run([VENV / "python", ROOT / "manage.py", "load_snapshot", data, "-v0"], env=env, cwd=ROOT)


GROW = """
import random
from catalogue import counters
from catalogue.models import Leaderboard, Paper, Result
board = Leaderboard.objects.order_by("-n_results", "slug").first()
have = board.results.count()
metric = next(iter(board.metrics or []), None) or next(
    iter(next((r.metrics for r in board.results.all() if r.metrics), {{}}) or {{"Accuracy": 0}}))
rng = random.Random(38)
papers = list(Paper.objects.order_by("id").values_list("id", flat=True))
rows = []
for n in range(have, {rows}):
    value = f"{{rng.uniform(40, 95):.2f}}"
    rows.append(Result(leaderboard=board, paper_id=rng.choice(papers), model=f"bench model {{n}}",
                       metrics={{metric: value}}, row_key=f"bench-{{n}}", stamp="bench"))
Result.objects.bulk_create(rows)
counters.refresh(loaded=True)
print(board.slug, board.results.count())
"""


def grow_board(rows: int, env: dict) -> str:
    out = run(
        [VENV / "python", ROOT / "manage.py", "shell", "-c", GROW.format(rows=rows)],
        env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    slug, count = out.stdout.split()[-2:]
    assert int(count) >= rows, out.stdout
    return slug


def pick(db: Path) -> dict:
    with sqlite3.connect(db) as conn:
        (paper,) = conn.execute(
            """SELECT p.slug FROM catalogue_paper p
               WHERE EXISTS (SELECT 1 FROM catalogue_sample s WHERE s.paper_id = p.id)
                 AND EXISTS (SELECT 1 FROM catalogue_result r WHERE r.paper_id = p.id)
                 AND EXISTS (SELECT 1 FROM catalogue_codelink c WHERE c.paper_id = p.id)
               ORDER BY p.n_samples DESC, p.slug LIMIT 1"""
        ).fetchone()
    return {"paper": paper, "words": "language model"}


def wait_up(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not come up")


class Call:
    """One question, asked as one or more HTTP requests on a keep-alive connection."""

    def __init__(self, name: str, requests: list[tuple[str, str, bytes | None, dict]]):
        self.name, self.requests = name, requests

    def once(self, conn: http.client.HTTPConnection) -> None:
        for method, path, body, headers in self.requests:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            if response.status != 200 or b'"isError":true' in data or b'"error"' in data[:200]:
                raise SystemExit(f"{self.name}: {method} {path}: {response.status} {data[:300]!r}")


def mcp(tool: str, arguments: dict) -> list:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": META},
    }
    return [("POST", "/mcp", json.dumps(body).encode(), {**MCP_HEADERS, "MCP-Name": tool})]


def get(*paths: str) -> list:
    return [("GET", path, None, {"Accept": "application/json"}) for path in paths]


def p50(call: Call, n: int) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    for _ in range(20):
        call.once(conn)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call.once(conn)
        times.append((time.perf_counter() - start) * 1000)
    conn.close()
    return statistics.median(times)


def throughput(call: Call, duration: float) -> float:
    done = [0] * THREADS
    stop = time.perf_counter() + duration

    def worker(i):
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        while time.perf_counter() < stop:
            call.once(conn)
            done[i] += 1
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20000)
    parser.add_argument("--board-rows", type=int, default=348)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args(argv)

    db = OUT / f"mcp-{args.papers}.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    load(snapshot(args.papers), db, args.reuse, env)
    board = grow_board(args.board_rows, env)
    chosen = {**pick(db), "board": board}
    q = chosen["words"].replace(" ", "+")
    p = chosen["paper"]
    pairs = [
        ("search", Call("mcp", mcp("search_papers", {"query": chosen["words"]})),
         Call("api", get(f"/api/v1/papers/?q={q}&items_per_page=25"))),
        ("paper", Call("mcp", mcp("get_paper", {"paper": p})),
         Call("api", get(*(f"/api/v1/papers/{p}/{tail}" for tail in
                           ("", "repositories/?items_per_page=25", "results/?items_per_page=25",
                            "samples/?items_per_page=25"))))),
        (f"leaderboard ({args.board_rows} rows)", Call("mcp", mcp("get_leaderboard", {"board": board})),
         Call("api", get(f"/api/v1/evaluations/{board}/results/?items_per_page=25"))),
    ]  # fmt: skip

    serve_env = {
        **env,
        "PORT": str(PORT),
        "WEB_CONCURRENCY": "2",
        "GUNICORN_THREADS": "4",
        "API_THROTTLE_ANON": "off",
        "PAGE_CACHE_SECONDS": "0",
        "FIGURES_CACHE_SECONDS": "0",
        "REQUEST_LOG_LEVEL": "WARNING",
        "STATIC_MANIFEST": "0",
    }
    server = subprocess.Popen(
        [VENV / "gunicorn", "-c", "config/gunicorn.conf.py"], cwd=ROOT, env=serve_env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    results = {}
    try:
        wait_up(PORT)
        for name, *calls in pairs:
            for call in calls:
                runs = [(p50(call, args.requests), throughput(call, args.duration)) for _ in range(args.runs)]
                results[(name, call.name)] = runs
                print(name, call.name, runs, file=sys.stderr)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()

    lines = [
        f"| call, {args.papers:,} papers, SQLite | MCP p50 ms | API p50 ms | MCP ÷ API (p50) "
        "| MCP req/s | API req/s | API ÷ MCP (req/s) | runs (p50 ms / req/s) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, *_ in pairs:
        m, a = results[(name, "mcp")], results[(name, "api")]
        mp, ap = statistics.median(r[0] for r in m), statistics.median(r[0] for r in a)
        mr, ar = statistics.median(r[1] for r in m), statistics.median(r[1] for r in a)
        each = "; ".join(
            f"MCP {x:.1f}/{y:.0f}, API {u:.1f}/{v:.0f}" for (x, y), (u, v) in zip(m, a, strict=True)
        )
        ratios = f"{mp / ap:.2f}× | {mr:.0f} | {ar:.0f} | {ar / mr:.2f}×"
        lines.append(f"| {name} | {mp:.1f} | {ap:.1f} | {ratios} | {each} |")
    table = "\n".join(lines)
    print(table)
    (OUT / f"mcp-{args.papers}.md").write_text(table + "\n")
    (OUT / f"mcp-{args.papers}.json").write_text(
        json.dumps({"chosen": chosen, "runs": {f"{k[0]} / {k[1]}": v for k, v in results.items()}}, indent=2)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
