"""Deep pages (issue 16): p50 of page-mode API pages and sitemap pages at two table sizes, before/after.

    .venv/bin/python scripts/pgcluster.py run -- \\
        .venv/bin/python bench/deep_pages_bench.py --before ../wt-deep-base [--scales 20000 500000] \\
        [--rounds 3] [--times 15]

In the cluster DATABASE_URL names (an admin URL), a database ``deep_<n>`` per scale is created,
migrated and filled by INSERT … SELECT FROM generate_series (not load_snapshot: what is timed is
the paginator over a big table, and the rows are built in seconds): n papers (titles shared by
1,000 papers each, so ``ordering=title`` has ties), n code bodies, 1,000 code entries and
repositories, n places (one a paper); then VACUUM ANALYZE. Then, for each round, each source
tree (``--before``: a checkout of the old code; and this one) and each scale, one fresh process
(Django's test client, in-process: no server or network in the figure; response cache off,
remembered figures on as deployed, throttling off) requests each URL once cold (the first
request after a load: it counts, and the new code reads the page boundaries), twice to warm,
then ``--times`` times; the p50 of those is the round's figure; then 3 more with the queries
captured (their SQL time, and the largest OFFSET any of them holds). Trees and scales alternate
within a round so that each pair shares the machine's load. Output: a Markdown table
(median of the rounds' p50s, each round listed) on stdout and bench/out/deep-pages.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
ENTRIES = 1000  # code entries and repositories
TITLES = 1000  # distinct titles: each shared by n / 1000 papers


def db_url(admin_url: str, name: str) -> str:
    parts = urlsplit(admin_url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def urls(n: int) -> dict[str, str]:
    pages = -(-n // 50)
    sitemap_pages = -(-n // 5000)
    return {
        "papers, page 1": "/api/v1/papers/",
        "papers, middle page": f"/api/v1/papers/?page={pages // 2}",
        "papers, last page": f"/api/v1/papers/?page={pages}",
        "papers by title (ties), middle": f"/api/v1/papers/?ordering=title&page={pages // 2}",
        "samples, page 1": "/api/v1/samples/",
        "samples, middle page": f"/api/v1/samples/?page={pages // 2}",
        "samples, last page": f"/api/v1/samples/?page={pages}",
        "sitemap papers, middle page": f"/sitemap-papers.xml?p={sitemap_pages // 2 or 1}",
        "sitemap papers, last page": f"/sitemap-papers.xml?p={sitemap_pages}",
    }


# --- building a database -----------------------------------------------------------------


def _filler(field) -> str:
    """A SQL value for a required column the bench does not set itself."""
    if field.choices:
        return "'" + str(field.choices[0][0]) + "'"
    kind = field.get_internal_type()
    if kind == "BooleanField":
        return "false"
    if "Integer" in kind:
        return "0"
    if kind == "DateTimeField":
        return "now()"
    if kind == "DateField":
        return "current_date"
    if kind == "JSONField":
        return "'{}'::jsonb"
    return "''"


def _insert(cursor, model, n_sql: str, values: dict[str, str]) -> None:
    from django.db.models import NOT_PROVIDED

    columns = {"id": "i"}
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        if field.column in values:
            columns[field.column] = values[field.column]
        elif not field.null and field.db_default is NOT_PROVIDED:
            columns[field.column] = _filler(field)
    names = ", ".join(f'"{c}"' for c in columns)
    cursor.execute(
        f'INSERT INTO "{model._meta.db_table}" ({names}) '
        f"SELECT {', '.join(columns.values())} FROM generate_series(1, {n_sql}) AS i"
    )


def build(n: int) -> None:
    """Fill the (migrated, empty) database DATABASE_URL names with n papers and n places."""
    import django

    django.setup()
    from django.db import connection

    from catalogue import models as m

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM catalogue_paper")
        if cursor.fetchone()[0]:
            return
        slug = "'paper-' || lpad(i::text, 7, '0')"
        _insert(cursor, m.Paper, str(n), {
            "slug": slug, "title": f"'Title ' || (i % {TITLES})", "month": "'2020-01'",
            "stamp": "'s'",
        })  # fmt: skip
        _insert(cursor, m.PaperSlug, str(n), {"slug": slug, "paper_id": "i", "last_stamp": "'s'"})
        _insert(cursor, m.CodeEntry, str(ENTRIES), {"name": "'entry_' || i", "slug": "'entry_' || i"})
        _insert(cursor, m.Repo, str(ENTRIES), {
            "key": "'github.com/o/r' || i", "host": "'github.com'", "owner": "'o'", "name": "'r' || i",
        })  # fmt: skip
        _insert(cursor, m.CodeBody, str(n), {"sha256_prefix": "lpad(to_hex(i), 16, '0')"})
        _insert(cursor, m.Sample, str(n), {
            "paper_id": "i", "body_id": "i", "entry_id": f"i % {ENTRIES} + 1",
            "repo_id": f"i % {ENTRIES} + 1", "path": "'x.py'", "status": "'ran'",
            "status_upstream": "'ran'", "language": "'python'", "inline_ok": "true",
        })  # fmt: skip
        for model in (m.Paper, m.PaperSlug, m.CodeEntry, m.Repo, m.CodeBody, m.Sample):
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
    connection.close()


def prepare(admin_url: str, n: int) -> str:
    import psycopg

    name = f"deep_{n}"
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
    print(f"deep_{n}: built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return url


# --- timing ---------------------------------------------------------------------------------


def measure(n: int, times: int) -> dict:
    """In this process (cwd: the tree under test): cold, then the p50 of ``times`` requests per URL."""
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
        sql_ms, offsets = [], [0]
        for _ in range(3):  # apart from the timed requests: capturing costs time itself
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            sql_ms.append(sum(float(q["time"]) for q in queries.captured_queries) * 1000)
            offsets += [
                int(x) for q in queries.captured_queries for x in re.findall(r"OFFSET (\d+)", q["sql"])
            ]
        out[label] = {
            "cold_ms": cold * 1000,
            "p50_ms": statistics.median(samples) * 1000,
            "runs_ms": [x * 1000 for x in samples],
            "sql_ms": statistics.median(sql_ms),
            "max_offset": max(offsets),
        }
    return out


def run_tree(tree: Path, url: str, n: int, times: int) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(tree),
    }
    script = str(Path(__file__).resolve())
    command = ["nice", str(tree / ".venv/bin/python"), script, "--measure", str(n), "--times", str(times)]
    result = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    return json.loads([line for line in result.stdout.splitlines() if line.startswith("{")][-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, help="a checkout of the code before (with .venv)")
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
        print(json.dumps(measure(args.measure, args.times)))
        return None

    admin_url = os.environ["DATABASE_URL"]
    dbs = {n: prepare(admin_url, n) for n in args.scales}
    trees = {"after": ROOT} | ({"before": args.before.resolve()} if args.before else {})
    runs: list[dict] = []
    for r in range(args.rounds):
        order = list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]
        for name, tree in order:
            for n in args.scales:
                figures = run_tree(tree, dbs[n], n, args.times)
                runs.append({"round": r + 1, "tree": name, "scale": n, "figures": figures})
                print(f"round {r + 1} {name} {n}: done; load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    out = ROOT / "bench/out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "deep-pages.json").write_text(json.dumps(runs, indent=1))
    report(runs, trees, args.scales)
    return None


def report(runs: list[dict], trees: dict, scales: list[int]) -> None:
    small, big = scales[0], scales[-1]
    labels = list(urls(small))

    def p50s(tree, n, label, key="p50_ms"):
        return [r["figures"][label][key] for r in runs if r["tree"] == tree and r["scale"] == n]

    print(
        f"| request | code | p50 ms at {small:,} (runs) | p50 ms at {big:,} (runs) | ratio "
        f"| SQL ms at {small:,} / {big:,} | largest OFFSET at {big:,} | cold ms at {big:,} |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for label in labels:
        for tree in trees:
            a, b = p50s(tree, small, label), p50s(tree, big, label)
            cold = statistics.median(p50s(tree, big, label, "cold_ms"))
            runs_a = ", ".join(f"{x:.1f}" for x in a)
            runs_b = ", ".join(f"{x:.1f}" for x in b)
            ma, mb = statistics.median(a), statistics.median(b)
            sql_a = statistics.median(p50s(tree, small, label, "sql_ms"))
            sql_b = statistics.median(p50s(tree, big, label, "sql_ms"))
            offset = max(p50s(tree, big, label, "max_offset"))
            print(
                f"| {label} | {tree} | {ma:.1f} ({runs_a}) | {mb:.1f} ({runs_b}) | {mb / ma:.2f} "
                f"| {sql_a:.1f} / {sql_b:.1f} | {offset:,} | {cold:.0f} |"
            )


if __name__ == "__main__":
    main()
