"""Size on disk, table by table and index by index: ``load_snapshot`` against the peers' rows.

    .venv/bin/python bench/disk_size.py SNAPSHOT_DIR [--backends sqlite postgres]

Loads ``SNAPSHOT_DIR`` once with ``load_snapshot`` and once with the peer of each backend
(sqlite-utils' ``insert_all`` on SQLite, with the keys it declares; on PostgreSQL a COPY of the
flattened rows into plain tables, no key and no index: ``bench/peers.py``), each into a fresh
database, and prints each database's size per table: the table itself (with PostgreSQL's
TOAST), its indexes, and together. SQLite's figures are its pages (``dbstat``; an FTS5 index
is its shadow tables), PostgreSQL's ``pg_relation_size``. Writes bench/out/disk-<snapshot>.json.
Not timed: sizes only.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "scripts"))

from archive_bench import cluster_url, database, drop  # noqa: E402
from load_bench import OUT, ROOT, measure  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
MB = 2**20


def _load_ours(snapshot: Path, url: str) -> None:
    env = {**os.environ, "DATABASE_URL": url}
    for cmd in (["migrate", "--noinput", "-v", "0"], ["load_snapshot", "-v", "0", str(snapshot)]):
        done = measure([PYTHON, "manage.py", *cmd], env=env)
        if not done.ok:
            raise SystemExit(f"{cmd[0]} failed:\n{done.output}")


def _load_peer(peer: str, snapshot: Path, where: str) -> None:
    done = measure([PYTHON, str(BENCH / "peers.py"), peer, str(snapshot), where])
    if not done.ok:
        raise SystemExit(f"{peer} failed:\n{done.output}")


def sqlite_sizes(path: str) -> dict[str, dict[str, float]]:
    """{table: {"table": MB, "indexes": MB}} from SQLite's pages; an FTS5 table's shadow tables
    (``<name>_data``, ``_idx``, ``_docsize``, ``_config``, ``_content``) count as its index."""
    conn = sqlite3.connect(path)
    owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
    kind = dict(conn.execute("SELECT name, type FROM sqlite_master"))
    fts = [name for name, sql in conn.execute("SELECT name, sql FROM sqlite_master") if "fts5" in (sql or "")]
    out: dict[str, dict[str, float]] = {}
    for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
        table, part = owner.get(name, name), "indexes" if kind.get(name) == "index" else "table"
        for virtual in fts:
            if name.startswith(f"{virtual}_"):
                table, part = virtual, "indexes"
        entry = out.setdefault(table, {"table": 0.0, "indexes": 0.0})
        entry[part] += size / MB
    conn.close()
    return out


def postgres_sizes(url: str) -> dict[str, dict[str, float]]:
    import psycopg

    query = (
        "SELECT t.relname, pg_relation_size(t.oid) "
        "+ COALESCE(pg_total_relation_size(NULLIF(t.reltoastrelid, 0)), 0), "
        "COALESCE((SELECT SUM(pg_relation_size(i.indexrelid)) FROM pg_index i WHERE i.indrelid = t.oid), 0) "
        "FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace "
        "WHERE n.nspname = 'public' AND t.relkind IN ('r', 'm')"
    )
    with psycopg.connect(url) as conn:
        return {
            name: {"table": table / MB, "indexes": float(indexes) / MB}
            for name, table, indexes in conn.execute(query)
        }


def markdown(label: str, sizes: dict[str, dict[str, float]], top: int = 15) -> str:
    rows = sorted(sizes.items(), key=lambda kv: -(kv[1]["table"] + kv[1]["indexes"]))
    total_t = sum(s["table"] for s in sizes.values())
    total_i = sum(s["indexes"] for s in sizes.values())
    lines = [f"**{label}**: {total_t + total_i:.1f} MB ({total_t:.1f} MB rows, {total_i:.1f} MB indexes)", ""]
    lines += ["| table | rows MB | indexes MB | together MB |", "|---|---|---|---|"]
    for name, s in rows[:top]:
        lines.append(
            f"| `{name}` | {s['table']:.1f} | {s['indexes']:.1f} | {s['table'] + s['indexes']:.1f} |"
        )
    rest = rows[top:]
    if rest:
        t, i = sum(s["table"] for _, s in rest), sum(s["indexes"] for _, s in rest)
        lines.append(f"| {len(rest)} others | {t:.1f} | {i:.1f} | {t + i:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", type=Path)
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    args = parser.parse_args(argv)
    snapshot = args.snapshot.resolve()
    report: dict[str, dict] = {}
    if "sqlite" in args.backends:
        with tempfile.TemporaryDirectory() as tmp:
            ours, peer = f"{tmp}/ours.sqlite3", f"{tmp}/peer.sqlite3"
            _load_ours(snapshot, f"sqlite:///{ours}")
            _load_peer("sqlite-utils", snapshot, peer)
            report["sqlite load_snapshot"] = sqlite_sizes(ours)
            report["sqlite-utils"] = sqlite_sizes(peer)
    if "postgres" in args.backends:
        with cluster_url() as admin:
            try:
                _load_ours(snapshot, database(admin, "disk_ours"))
                _load_peer("pg-copy", snapshot, database(admin, "disk_peer"))
                report["postgres load_snapshot"] = postgres_sizes(admin.rsplit("/", 1)[0] + "/disk_ours")
                report["postgres COPY"] = postgres_sizes(admin.rsplit("/", 1)[0] + "/disk_peer")
            finally:
                drop(admin, "disk_ours")
                drop(admin, "disk_peer")
    for label, sizes in report.items():
        print(markdown(label, sizes), end="\n\n")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"disk-{snapshot.name}.json").write_text(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
