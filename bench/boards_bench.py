"""Issue 37: uncached p50 of a 348-row leaderboard's page, its CSV, its JSON table and a badge at
two catalogue sizes (PostgreSQL, in-process, as bench/deep_pages_bench.py measures).

    .venv/bin/python scripts/pgcluster.py run -- \\
        .venv/bin/python bench/boards_bench.py [--scales 20000 500000] [--rounds 3] [--times 15]

In the cluster DATABASE_URL names, a database ``boards_<n>`` per scale is created, migrated and
filled by INSERT … SELECT FROM generate_series (``deep_pages_bench._insert``): n papers, 1,000
repositories, a code link per paper (every third official, frameworks alternating), 1,000
leaderboards (1,000 tasks on one dataset), the first with 348 rows (one row in 12 names no
paper), the others n / 2 rows between them; then the stored counts and VACUUM ANALYZE. Then per
round and scale, one fresh process (Django's test client: no server or network in the figure;
the response cache off, throttling off) requests each URL once cold, twice to warm, then
``--times`` times: the p50 is the round's figure. Output: a Markdown table (median of the rounds'
p50s, each round listed) on stdout and bench/out/boards.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from deep_pages_bench import _insert, db_url  # noqa: E402

BOARD_ROWS = 348  # the largest board of the generated catalogue at 500,000 papers
BOARDS = 1000
REPOS = 1000
MONTH = "'20' || lpad((10 + i % 15)::text, 2, '0') || '-0' || (1 + i % 9)"
METRICS = (
    "jsonb_build_object('Accuracy', (50 + (i * 7919) % 4900 / 100.0)::text || '%',"
    " 'Params', (i % 90)::text || 'M')"
)
ROW_CODE = '[{"title": "team/code", "url": "https://github.com/team/code"}]'


def board_paper(n: int) -> int:
    """The id of the paper of the board's 7th row (the badge's paper): one spread over the table."""
    return 1 + 6 * (n // BOARD_ROWS)


def urls(n: int) -> dict[str, str]:
    paper = f"paper-{board_paper(n):07d}"
    return {
        "board page (348 rows)": "/sota/board-1",
        "board page, with code only": "/sota/board-1?code=1",
        "board CSV": "/sota/board-1/table.csv",
        "board JSON table": "/sota/board-1/table.json",
        "badge SVG": f"/badge/{paper}/board-1.svg",
        "badge endpoint JSON": f"/badge/{paper}/board-1",
    }


def build(n: int) -> None:
    import django

    django.setup()
    from django.db import connection

    from catalogue import counters
    from catalogue import models as m

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM catalogue_paper")
        if cursor.fetchone()[0]:
            return
        slug = "'paper-' || lpad(i::text, 7, '0')"
        _insert(cursor, m.Paper, str(n), {
            "slug": slug, "title": "'Title of paper ' || i", "month": MONTH,
            "stamp": "'s'",
        })  # fmt: skip
        _insert(cursor, m.PaperSlug, str(n), {"slug": slug, "paper_id": "i", "last_stamp": "'s'"})
        _insert(cursor, m.Repo, str(REPOS), {
            "key": "'github.com/o/r' || i", "host": "'github.com'", "owner": "'o'", "name": "'r' || i",
            "url": "'https://github.com/o/r' || i",
        })  # fmt: skip
        _insert(cursor, m.CodeLink, str(n), {
            "paper_id": "i", "repo_id": f"i % {REPOS} + 1",
            "repo_url": f"'https://github.com/o/r' || (i % {REPOS} + 1)",
            "is_official": "i % 3 = 0", "mentioned_in_github": "i % 2 = 0",
            "framework": "CASE WHEN i % 2 = 0 THEN 'pytorch' ELSE 'tf' END", "stamp": "'s'",
        })  # fmt: skip
        _insert(cursor, m.Dataset, "1", {"slug": "'dataset'", "name": "'Dataset'", "stamp": "'s'"})
        _insert(cursor, m.Task, str(BOARDS), {"slug": "'task-' || i", "name": "'Task ' || i", "stamp": "'s'"})
        _insert(cursor, m.Leaderboard, str(BOARDS), {
            "slug": "'board-' || i", "task_id": "i", "dataset_id": "1", "stamp": "'s'",
            "metrics": "'[\"Accuracy\", \"Params\"]'::jsonb",
        })  # fmt: skip
        step = n // BOARD_ROWS
        metrics = METRICS
        _insert(cursor, m.Result, str(BOARD_ROWS), {
            "leaderboard_id": "1",
            "paper_id": f"CASE WHEN i % 12 = 0 THEN NULL ELSE 1 + (i - 1) * {step} END",
            "row_key": "'k' || i", "model": "'Model ' || i", "metrics": metrics, "rank_in_archive_order": "i",
            "of": str(BOARD_ROWS), "paper_title": "'A row of its own ' || i", "stamp": "'s'",
            "code_links": f"CASE WHEN i % 24 = 0 THEN '{ROW_CODE}'::jsonb ELSE '[]'::jsonb END",
        })  # fmt: skip
        cursor.execute(
            f"INSERT INTO catalogue_result (id, leaderboard_id, paper_id, row_key, model, metrics,"
            f" code_links,"
            f" model_links, paper_title, paper_url, stamp)"
            f" SELECT {BOARD_ROWS} + i, 2 + i % {BOARDS - 1}, i, 'k' || i, 'Model ' || i, {metrics},"
            f" '[]'::jsonb, '[]'::jsonb,"
            f" '', '', 's' FROM generate_series(1, {n // 2}) AS i"
        )
        for model in (m.Paper, m.PaperSlug, m.Repo, m.CodeLink, m.Dataset, m.Task, m.Leaderboard, m.Result):
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
    counters.refresh()
    connection.close()


def prepare(admin_url: str, n: int) -> str:
    import psycopg

    name = f"boards_{n}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
    url = db_url(admin_url, name)
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--build", str(n)], cwd=ROOT, env=env, check=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    print(f"boards_{n}: built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return url


def measure(n: int, times: int) -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.PAGE_CACHE_SECONDS = 0
    settings.API_THROTTLE_ANON = "off"
    client = Client()
    out = {}
    for label, url in urls(n).items():
        started = time.perf_counter()
        response = client.get(url)
        cold = time.perf_counter() - started
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
        for _ in range(2):
            client.get(url)
        samples = []
        for _ in range(times):
            started = time.perf_counter()
            client.get(url)
            samples.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        out[label] = {
            "cold_ms": cold * 1000,
            "p50_ms": statistics.median(samples) * 1000,
            "runs_ms": [x * 1000 for x in samples],
            "queries": len(queries.captured_queries),
            "sql_ms": sum(float(q["time"]) for q in queries.captured_queries) * 1000,
            "bytes": len(response.content),
        }
    return out


def run(url: str, n: int, times: int) -> dict:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    command = ["nice", sys.executable, __file__, "--measure", str(n), "--times", str(times)]
    result = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return json.loads([line for line in result.stdout.splitlines() if line.startswith("{")][-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", type=int, nargs="+", default=[20000, 500000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--times", type=int, default=15)
    parser.add_argument("--build", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        sys.path.insert(0, str(ROOT))
        return build(args.build)
    if args.measure:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(measure(args.measure, args.times)))
        return None
    admin_url = os.environ["DATABASE_URL"]
    dbs = {n: prepare(admin_url, n) for n in args.scales}
    runs = []
    for r in range(args.rounds):
        for n in args.scales if r % 2 == 0 else args.scales[::-1]:
            runs.append({"round": r + 1, "scale": n, "figures": run(dbs[n], n, args.times)})
            print(f"round {r + 1} {n}: done; load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    out = ROOT / "bench/out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "boards.json").write_text(json.dumps(runs, indent=1))
    report(runs, args.scales)
    return None


def report(runs: list[dict], scales: list[int]) -> None:
    small, big = scales[0], scales[-1]

    def of(n, label, key="p50_ms"):
        return [r["figures"][label][key] for r in runs if r["scale"] == n]

    print(
        f"| request | p50 ms at {small:,} (rounds) | p50 ms at {big:,} (rounds) | ratio "
        f"| queries | SQL ms at {small:,} / {big:,} | bytes |"
    )
    print("|---|---|---|---|---|---|---|")
    for label in urls(small):
        a, b = of(small, label), of(big, label)
        ma, mb = statistics.median(a), statistics.median(b)
        print(
            f"| {label} | {ma:.1f} ({', '.join(f'{x:.1f}' for x in a)}) "
            f"| {mb:.1f} ({', '.join(f'{x:.1f}' for x in b)}) | {mb / ma:.2f} "
            f"| {of(small, label, 'queries')[0]} / {of(big, label, 'queries')[0]} "
            f"| {statistics.median(of(small, label, 'sql_ms')):.1f} "
            f"/ {statistics.median(of(big, label, 'sql_ms')):.1f} "
            f"| {of(big, label, 'bytes')[0]:,} |"
        )


if __name__ == "__main__":
    main()
