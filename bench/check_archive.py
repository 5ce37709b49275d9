"""Check a Papers-with-Code archive in its two forms: the same records in the JSON dumps and
the Parquet shards, and how messy they are.

    .venv/bin/python bench/check_archive.py DIR                 # DIR/json and/or DIR/parquet
    .venv/bin/python bench/check_archive.py --json J --parquet P [--report out.json]

For each of the five dumps and each form found: the number of records (and for the
evaluation tables: tasks, tables, result rows), a SHA-256 digest over the records in file
order, and the bytes on disk; then whether the two forms agree. Exit status 1 when they do
not. Then, read from the first form, the tallies of the quirks the real archive has (papers
without arXiv ids, duplicated slugs, odd repository URLs, metric values as text...) and how
many references (links, leaderboard rows, methods, datasets -> paper_url) resolve to a paper.

Written apart from bench/generate_archive.py on purpose (it shares no code with it): it reads
what any operator's copy holds. Both forms are streamed (ijson over the gzip stream, Parquet
batch by batch). The digest is over a canonical form that undoes what Parquet cannot hold,
and nothing else:
- a key missing from a JSON object and a null field are the same (dropped);
- a metric value (``rows[].metrics``) is compared as text: the JSON number ``84.4`` and the
  Parquet map's ``"84.4"`` are one value (``json.dumps`` of the number);
- a method's ``paper`` given as a bare string ``s`` is ``{"url": s}``;
- a Parquet string where a list of subtasks or subdatasets belongs (the fixed-depth nesting's
  deepest level) is the JSON text of that list;
- key order within an object does not count.
Any other difference, however small (a space in a title, a list order, an int for a string),
changes the digest.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import ijson

DUMPS = {
    "papers": (("papers-with-abstracts",), ("papers-with-abstracts",)),
    "links": (
        ("links-between-papers-and-code",),
        ("links-between-paper-and-code", "links-between-papers-and-code"),
    ),
    "evaluation": (("evaluation-tables",), ("evaluation-tables",)),
    "methods": (("methods",), ("methods",)),
    "datasets": (("datasets",), ("datasets",)),
}
PWC_PAPER = "https://paperswithcode.com/paper/"
SNAPSHOT_DAY = "2025-07-28"
COST_WORDS = re.compile(r"param|flop|time|size|memory|latency", re.IGNORECASE)


# --- reading --------------------------------------------------------------------------------


def find_json(folder: Path, stems: tuple[str, ...]) -> Path | None:
    for stem in stems:
        for name in (f"{stem}.json.gz", f"{stem}.json"):
            if (folder / name).is_file():
                return folder / name
    return None


def find_parquet(folder: Path, stems: tuple[str, ...]) -> list[Path]:
    for stem in stems:
        shards = sorted((folder / stem).glob("**/*.parquet"))
        if shards:
            return shards
    return []


def json_records(path: Path) -> Iterator[dict]:
    with path.open("rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"  # a gzip stream under a .json name is a real case
    with gzip.open(path, "rb") if gzipped else path.open("rb") as f:
        yield from ijson.items(f, "item", use_float=True)


def parquet_records(shards: list[Path]) -> Iterator[dict]:
    import pyarrow.parquet as pq

    for shard in shards:
        for batch in pq.ParquetFile(shard).iter_batches(batch_size=1_000):
            for record in batch.to_pylist(maps_as_pydicts="strict"):
                yield unnest(record)


def unnest(value, key: str | None = None):
    """Parquet's deepest level of subtasks/subdatasets holds JSON text: read it back."""
    if isinstance(value, dict):
        return {k: unnest(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [unnest(v) for v in value]
    if isinstance(value, str) and key in ("subtasks", "subdatasets"):
        return json.loads(value)
    return value


# --- the canonical form -----------------------------------------------------------------------


def canonical(value):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if v is None:
                continue
            if k == "metrics" and isinstance(v, dict):
                out[k] = {
                    name: x if isinstance(x, str) else json.dumps(x) for name, x in v.items() if x is not None
                }
            else:
                out[k] = canonical(v)
        return out
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def canonical_record(kind: str, record: dict) -> dict:
    if kind == "methods" and isinstance(record.get("paper"), str):
        record = {**record, "paper": {"url": record["paper"]}}
    return canonical(record)


# --- counting and tallying --------------------------------------------------------------------


def walk_tasks(task: dict, depth: int = 0) -> Iterator[tuple[dict, int]]:
    yield task, depth
    for sub in task.get("subtasks") or []:
        yield from walk_tasks(sub, depth + 1)


def walk_tables(table: dict) -> Iterator[dict]:
    yield table
    for sub in table.get("subdatasets") or []:
        yield from walk_tables(sub)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Tally:
    """Quirks of one form, and the references between dumps."""

    def __init__(self) -> None:
        self.c: Counter = Counter()
        self.paper_slugs: set[str] = set()
        self.arxiv_urls: dict[str, int] = Counter()
        self.links_per_paper: Counter = Counter()
        self.names: dict[str, dict[str, set]] = {"dataset": {}, "task": {}}

    def ref(self, what: str, url) -> None:
        if not url:
            self.c[f"{what}: no paper (empty or null paper_url)"] += 1
        elif not url.startswith(PWC_PAPER):
            self.c[f"{what}: paper_url not a paperswithcode paper page"] += 1
        elif url[len(PWC_PAPER) :] in self.paper_slugs:
            self.c[f"{what}: paper_url found in the papers file"] += 1
        else:
            self.c[f"{what}: paper_url not in the papers file"] += 1

    def papers(self, p: dict) -> None:
        c = self.c
        url = p.get("paper_url") or ""
        s = url[len(PWC_PAPER) :]
        self.paper_slugs.add(s)
        a = p.get("arxiv_id")
        if not a:
            c["papers: no arXiv id"] += 1
        else:
            base = re.sub(r"v\d+$", "", a)
            self.arxiv_urls[base] += 1
            if "/" in a:
                c["papers: old-style arXiv id (cs/9301114)"] += 1
            if base != a:
                c["papers: arXiv id with a version suffix"] += 1
        if s.startswith("arxiv-"):
            c["papers: arxiv-YYMM-NNNNN slug"] += 1
        if s.endswith("-1"):
            c["papers: slug x-1"] += 1
        t = p.get("title")
        if t is None:
            c["papers: title null"] += 1
        elif t == "":
            c["papers: title empty"] += 1
        else:
            if t != t.strip():
                c["papers: title padded"] += 1
            if "$" in t or "\\" in t:
                c["papers: title with LaTeX"] += 1
            if len(t) > 250:
                c["papers: title over 250 characters"] += 1
        ab = p.get("abstract")
        if not ab:
            c["papers: abstract null or empty"] += 1
        elif "\r\n" in ab:
            c["papers: abstract with \\r\\n"] += 1
        d = p.get("date")
        if not d:
            c["papers: date empty"] += 1
        elif d > SNAPSHOT_DAY:
            c["papers: date after the snapshot"] += 1
        u = p.get("url_abs") or ""
        kind = (
            "empty or null"
            if not u
            else "text around a URL"
            if not u.startswith("http")
            else "arXiv"
            if "arxiv.org/abs/" in u
            else "a PDF"
            if u.endswith(".pdf")
            else "a DOI"
            if "doi.org/" in u
            else "OpenReview"
            if "openreview.net" in u
            else "ACL Anthology"
            if "aclanthology.org" in u or "aclweb.org" in u
            else "other"
        )
        c[f"papers: url_abs is {kind}"] += 1
        if p.get("methods"):
            c["papers: with methods"] += 1
        if len(p.get("authors") or []) > 100:
            c["papers: over 100 authors"] += 1
        for key in ("nips_id", "openreview_id", "conference", "proceeding", "reproduces_paper"):
            if p.get(key):
                c[f"papers: with {key}"] += 1

    def papers_done(self) -> None:
        self.c["papers: arXiv ids under two or more slugs"] = sum(
            1 for n in self.arxiv_urls.values() if n > 1
        )
        self.arxiv_urls = Counter()

    def links(self, link: dict) -> None:
        c = self.c
        self.ref("links", link.get("paper_url"))
        self.links_per_paper[link.get("paper_url")] += 1
        u = link.get("repo_url") or ""
        m = re.match(
            r"^https?://(www\.)?(github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|gitee\.com)/[^/\s]+/[^/\s]+",
            u,
        )
        if not u:
            c["links: repo_url empty"] += 1
        elif not m:
            c["links: repo_url not a repository address (homepage, markdown...)"] += 1
        else:
            host = m.group(2)
            if host != "github.com":
                c[f"links: host {host}"] += 1
        for mark, label in (
            ("/tree/", "/tree/"),
            ("/blob/", "/blob/"),
            ("%20", "%20"),
            ("http://", "http://"),
            ("www.", "www."),
        ):
            if mark in u:
                c[f"links: repo_url with {label}"] += 1
        if re.search(r"\.git(?:/|$)", u):  # not github.io, not www.github.com
            c["links: repo_url with .git"] += 1
        if re.search(r"[\[\]()<>*]", u):
            c["links: repo_url with markdown residue"] += 1
        if u.endswith("/"):
            c["links: repo_url with a trailing slash"] += 1
        if u != u.lower():
            c["links: repo_url with capitals"] += 1
        if link.get("is_official"):
            c["links: is_official true"] += 1
        for key in ("is_official", "mentioned_in_paper", "mentioned_in_github"):
            if not isinstance(link.get(key), bool):
                c[f"links: {key} not a boolean"] += 1

    def links_done(self) -> None:
        per = self.links_per_paper
        self.c["links: papers with links"] = len(per)
        self.c["links: most links on one paper"] = max(per.values(), default=0)
        self.c["links: papers with 100 or more links"] = sum(1 for n in per.values() if n >= 100)
        self.links_per_paper = Counter()

    def evaluation(self, top: dict) -> None:
        c = self.c
        for task, depth in walk_tasks(top):
            c["evaluation: tasks (all levels)"] += 1
            c[f"evaluation: tasks at depth {depth}"] += 1
            self._name("task", task.get("task"))
            if "subtasks" not in task:
                c["evaluation: task without a subtasks key"] += 1
            if task.get("categories") is None:
                c["evaluation: categories null"] += 1
            seen_tables = Counter(
                json.dumps(canonical(t), sort_keys=True) for t in task.get("datasets") or []
            )
            c["evaluation: the same table twice in a task"] += sum(n - 1 for n in seen_tables.values())
            for top_table in task.get("datasets") or []:
                for table in walk_tables(top_table):
                    self._table(table)

    def _name(self, kind: str, name) -> None:
        if isinstance(name, str):
            self.names[kind].setdefault(slug(name), set()).add(name)

    def _table(self, table: dict) -> None:
        c = self.c
        c["evaluation: tables"] += 1
        name = table.get("dataset", table.get("subdataset"))
        if "dataset" not in table and "subdataset" in table:
            c["evaluation: table named by 'subdataset'"] += 1
        self._name("dataset", name)
        if isinstance(name, str) and len(name.split()) >= 8:
            c["evaluation: a sentence as the dataset name"] += 1
        sota = table.get("sota") or {}
        metrics = sota.get("metrics") or []
        if any(COST_WORDS.search(m) for m in metrics):
            c["evaluation: tables with a cost column"] += 1
            if metrics and COST_WORDS.search(metrics[0]):
                c["evaluation: tables whose first column is a cost"] += 1
        rows = sota.get("rows") or []
        seen = Counter(json.dumps(canonical(r), sort_keys=True) for r in rows)
        c["evaluation: the same row twice"] += sum(n - 1 for n in seen.values())
        by_model: dict = {}
        for r in rows:
            c["evaluation: result rows"] += 1
            self.ref("evaluation rows", r.get("paper_url"))
            if not r.get("paper_title"):
                c["evaluation rows: paper_title empty or null"] += 1
            if "uses_additional_data" not in r:
                c["evaluation rows: no uses_additional_data key"] += 1
            values = r.get("metrics") or {}
            if not values:
                c["evaluation rows: empty metrics"] += 1
            key = (r.get("model_name"), r.get("paper_url"))
            shown = json.dumps(canonical(values), sort_keys=True)
            by_model.setdefault(key, set()).add(shown)
            for v in values.values():
                c[f"evaluation values: {value_kind(v)}"] += 1
        c["evaluation: the same model with other values on one board"] += sum(
            1 for s in by_model.values() if len(s) > 1
        )

    def evaluation_done(self) -> None:
        for kind, groups in self.names.items():
            self.c[f"evaluation: {kind} names sharing a slug with another name"] = sum(
                len(v) for v in groups.values() if len(v) > 1
            )

    def methods(self, m: dict) -> None:
        c = self.c
        paper = m.get("paper")
        if paper is None:
            c["methods: paper null"] += 1
        elif isinstance(paper, str):
            c["methods: paper a bare string"] += 1
        else:
            self.ref("methods", paper.get("url"))
        y = m.get("introduced_year")
        if y is None:
            c["methods: introduced_year null"] += 1
        elif y == 2000:
            c["methods: introduced_year 2000 (placeholder)"] += 1

    def datasets(self, d: dict) -> None:
        paper = d.get("paper")
        if paper is None:
            self.c["datasets: paper null"] += 1
        else:
            self.ref("datasets", paper.get("url"))
        self.names.setdefault("datasets.json", {}).setdefault(slug(d.get("name") or ""), set()).add(
            d.get("name")
        )

    def datasets_done(self) -> None:
        groups = self.names.get("datasets.json", {})
        self.c["datasets: names sharing a slug with another name"] = sum(
            len(v) for v in groups.values() if len(v) > 1
        )


def value_kind(v) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "JSON number"
    if v is None:
        return "null"
    s = str(v)
    for pattern, label in (
        (r"^$", 'empty ""'),
        (r"^-$", '"-"'),
        (r"^N/A$", '"N/A"'),
        (r"^YES$", '"YES"'),
        (r"^\ufeff", "with a byte-order mark"),
        (r"^-?[\d.]+%$", 'percent "84.4%"'),
        (r"^-?[\d.]+ %$", 'spaced percent "57.01 %"'),
        (r"^-?[\d.]+[KMBG]$", 'suffixed "1.82M"'),
        (r"±", 'with "±"'),
        (r"^-?[\d.]+/[\d.]+$", 'two values "75.8/75.5"'),
        (r"^-?\d+(\.\d+)?$", 'plain "84.4"'),
    ):
        if re.search(pattern, s):
            return label
    return f"other text ({s[:12]!r})"


# --- main ---------------------------------------------------------------------------------------


def human(n: float) -> str:
    """Decimal units, as Hugging Face shows file sizes (1 MB = 10**6 bytes)."""
    for unit in ("B", "kB", "MB"):
        if n < 1000:
            return f"{n:,.1f} {unit}" if unit != "B" else f"{n:.0f} B"
        n /= 1000
    return f"{n:,.2f} GB"


def stated_counts(folder: Path, form: str, kind: str) -> dict | None:
    """What bench/generate_archive.py says it wrote (manifest-<form>.txt beside the folder), if
    it wrote this: an operator's real copy has none."""
    manifest = folder.parent / f"manifest-{form}.txt"
    if not manifest.is_file():
        return None
    stated = json.loads(manifest.read_text())["files"].get(kind)
    if stated is None:
        return None
    counts = {"records": stated["records"]}
    if stated.get("result_rows") is not None:
        counts["result rows"] = stated["result_rows"]
    return counts


def check(json_dir: Path | None, parquet_dir: Path | None) -> dict:
    forms = {f: d for f, d in (("json", json_dir), ("parquet", parquet_dir)) if d is not None and d.is_dir()}
    if not forms:
        raise SystemExit("no json/ or parquet/ folder to check")
    tally = Tally()
    tallied_form = next(iter(forms))
    report: dict = {"forms": {f: str(d) for f, d in forms.items()}, "files": {}, "tallied_from": tallied_form}
    for kind, (json_stems, parquet_stems) in DUMPS.items():
        entry = report["files"][kind] = {}
        for form, folder in forms.items():
            if form == "json":
                path = find_json(folder, json_stems)
                paths = [path] if path else []
                records = json_records(path) if path else iter(())
            else:
                paths = find_parquet(folder, parquet_stems)
                records = parquet_records(paths)
            if not paths:
                entry[form] = {"missing": True}
                continue
            digest = hashlib.sha256()
            counts: Counter = Counter()
            for record in records:
                counts["records"] += 1
                if kind == "evaluation":
                    for task, _ in walk_tasks(record):
                        counts["tasks"] += 1
                        for top_table in task.get("datasets") or []:
                            for table in walk_tables(top_table):
                                counts["tables"] += 1
                                counts["result rows"] += len((table.get("sota") or {}).get("rows") or [])
                if form == tallied_form:
                    getattr(tally, kind)(record)
                text = json.dumps(canonical_record(kind, record), sort_keys=True, ensure_ascii=False)
                digest.update(text.encode())
                digest.update(b"\n")
            if form == tallied_form and hasattr(tally, f"{kind}_done"):
                getattr(tally, f"{kind}_done")()
            entry[form] = {
                "counts": dict(counts),
                "sha256": digest.hexdigest(),
                "bytes": sum(p.stat().st_size for p in paths),
                "files": [str(p.relative_to(folder)) for p in paths],
            }
            print(
                f"{kind:>10} {form:>7}: {counts['records']:>9,} records  {human(entry[form]['bytes']):>10}  "
                f"sha256 {digest.hexdigest()[:16]}"
                + (
                    f"  ({counts['tasks']:,} tasks, {counts['tables']:,} tables, "
                    f"{counts['result rows']:,} rows)"
                    if kind == "evaluation"
                    else ""
                ),
                flush=True,
            )
        for form, folder in forms.items():
            stated = stated_counts(folder, form, kind)
            found = entry[form].get("counts", {})
            if stated is not None:
                entry[form]["manifest_agrees"] = all(found.get(k) == n for k, n in stated.items())
                if not entry[form]["manifest_agrees"]:
                    print(f"{kind} {form}: the generator's manifest says {stated}, the files hold {found}")
        present = [v for v in entry.values() if "sha256" in v]
        entry["same"] = all(v.get("manifest_agrees", True) for v in present) and (
            len(present) == len(forms) and len({(v["sha256"], v["counts"]["records"]) for v in present}) == 1
        )
    report["tally"] = dict(sorted(tally.c.items()))
    report["same"] = all(e["same"] for e in report["files"].values())
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, help="a folder holding json/ and/or parquet/")
    parser.add_argument("--json", type=Path, help="the folder of the *.json.gz dumps")
    parser.add_argument("--parquet", type=Path, help="the folder of the Parquet dump folders")
    parser.add_argument("--report", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    json_dir = args.json or (args.dir / "json" if args.dir else None)
    parquet_dir = args.parquet or (args.dir / "parquet" if args.dir else None)
    report = check(json_dir, parquet_dir)
    print()
    print("| dump | form | records | on disk | sha256 (first 16) |")
    print("|---|---|---:|---:|---|")
    for kind, entry in report["files"].items():
        for form in ("json", "parquet"):
            e = entry.get(form)
            if e and "sha256" in e:
                print(
                    f"| {kind} | {form} | {e['counts']['records']:,} | {human(e['bytes'])} "
                    f"| `{e['sha256'][:16]}` |"
                )
    totals = {
        f: sum(e[f]["bytes"] for e in report["files"].values() if "bytes" in e.get(f, {}))
        for f in report["forms"]
    }
    for form, total in totals.items():
        print(f"| all five | {form} | | {human(total)} | |")
    print()
    print(f"quirks and references (read from the {report['tallied_from']} form):")
    for key, n in report["tally"].items():
        print(f"  {key}: {n:,}")
    print()
    for kind, entry in report["files"].items():
        if len(report["forms"]) > 1 or not entry["same"]:
            verdict = (
                "same records in both forms" if entry["same"] else "THE FORMS DIFFER (or miss the manifest)"
            )
            print(f"{kind}: {verdict}")
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n")
    if not report["same"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
