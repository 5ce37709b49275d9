"""Self-check of a generated snapshot: every stated figure and both views of every place.

    .venv/bin/python bench/check_generated.py /tmp/snap2k

Why: a loader benchmark on data whose figures disagree with its rows would measure the
error path, not the load. This re-derives every aggregate from the rows with code written
independently of generate.py (SNAPSHOT-FORMAT.md's definitions, read afresh) and checks
that a paper document's samples and the code-entry documents' samples describe the same
places with the same fields. Exits 1 listing the first problems; prints a profile of the
data (skew, oddities) otherwise. Holds one small record per place: fine at bench scales.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

STATUSES = ("ran_honours", "ran_violates", "ran_draft_wrong", "ran_fixture", "ran", "unverified")
# Fields that belong to the place and so must read the same from both sides.
SHARED_FIELDS = (
    "repo",
    "path",
    "file_url",
    "status",
    "verification_level",
    "contract_check",
    "metamorphic_tier",
    "behaviour_fingerprint",
    "licence",
    "inline_ok",
    "mcp_get_code",
)
SEED_DIRS = (Path("/work/shared/seeds"), Path(__file__).resolve().parent.parent / "fixtures")


def iter_documents(folder: Path):
    """(file name, document) for every ``*.json`` / ``*.json.gz`` in name order."""
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".json"):
            yield path.name, json.loads(path.read_bytes())
        elif path.name.endswith(".json.gz"):
            with gzip.open(path) as fh:
                yield path.name, json.loads(fh.read())


def seed_about() -> dict | None:
    for folder in SEED_DIRS:
        for path in sorted(folder.glob("0*.json")):
            return json.loads(path.read_text())["about"]
    return None


class Checker:
    def __init__(self):
        self.problems: list[str] = []
        self.about = seed_about()
        self.paper_places: dict[tuple, dict] = {}
        self.code_places: dict[tuple, dict] = {}
        self.papers: dict[str, dict] = {}
        self.entry_slugs: dict[str, str] = {}
        self.profile = Counter()
        self.places_per_entry: Counter[str] = Counter()
        self.body_papers: dict[str, set] = defaultdict(set)
        self.body_repos: dict[str, set] = defaultdict(set)

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def expect(self, where: str, field: str, stated, derived) -> None:
        if stated != derived:
            self.fail(where, f"{field} states {stated!r}, rows give {derived!r}")

    def check(self, name: str, doc: dict) -> None:
        if self.about is not None and doc.get("about") != self.about:
            self.fail(name, "about block differs from the seeds'")
        url = doc.get("url") or ""
        if url.startswith("/paper/"):
            self.check_paper(name, doc)
        elif url.startswith("/code/"):
            self.check_entry(name, doc)
        else:
            self.fail(name, f"url {url!r} is neither /paper/ nor /code/")

    # -- paper documents ----------------------------------------------------------

    def check_paper(self, name: str, doc: dict) -> None:
        url = doc["url"]
        if url in self.papers:
            self.fail(name, f"second paper document for {url}")
        self.papers[url] = {"arxiv_id": doc["arxiv_id"], "title": doc["title"], "date": doc["date"]}
        self.profile_paper(doc)
        for link in doc["code_links"]:
            if not link["repo_url"].startswith("https://"):
                self.fail(name, f"code link {link['repo_url']!r} is not https")
        for field in ("url_abs", "url_pdf"):
            if doc[field] is not None and not doc[field].startswith("https://"):
                self.fail(name, f"{field} is not https")
        syn = doc["syntology"]
        if syn is None:
            return
        samples = syn["samples"]
        summary = Counter(s["status"] for s in samples)
        self.expect(name, "summary", syn["summary"], {k: v for k, v in summary.items() if v})
        self.expect(name, "by_repo_kind", syn["by_repo_kind"], self.by_repo_kind(samples))
        self.expect(
            name,
            "n_pointer_only_for_licence",
            syn["n_pointer_only_for_licence"],
            sum(1 for s in samples if s["inline_ok"] is False),
        )
        for s in samples:
            if s["status"] not in STATUSES:
                self.fail(name, f"status {s['status']!r} outside the vocabulary")
            if s["mcp_get_code"]["code_sha256"] != s["code_sha256_prefix"]:
                self.fail(name, "mcp_get_code.code_sha256 differs from code_sha256_prefix")
            key = (url, s["code_sha256_prefix"], s["entry"])
            if key in self.paper_places:
                self.fail(name, f"place {key} listed twice")
            self.paper_places[key] = {f: s[f] for f in SHARED_FIELDS}
            self.body_papers[s["code_sha256_prefix"]].add(url)
            if s["repo"]:
                self.body_repos[s["code_sha256_prefix"]].add(s["repo"].lower())
            self.profile["samples_repo_null"] += s["repo"] is None

    @staticmethod
    def by_repo_kind(samples: list[dict]) -> dict:
        kinds: dict[str, list] = defaultdict(list)
        for s in samples:
            kinds[s["repo_kind"]].append(s)
        return {
            kind: {
                "samples": len(rows),
                "ran": sum(1 for r in rows if r["status"] != "unverified"),
                "repositories": len({r["repo"].lower() for r in rows if r["repo"]}),
            }
            for kind, rows in kinds.items()
        }

    def profile_paper(self, doc: dict) -> None:
        p = self.profile
        p["papers"] += 1
        p["papers_no_arxiv_id"] += doc["arxiv_id"] is None
        p["papers_arxiv_slug"] += doc["url"].startswith("/paper/arxiv-")
        p["papers_date_null"] += doc["date"] is None
        p["papers_crlf_abstract"] += "\r\n" in (doc["abstract"] or "")
        p["papers_non_ascii_title"] += bool(re.search(r"[^\x00-\x7f]", doc["title"] or ""))
        p["papers_latex_title"] += "$" in (doc["title"] or "")
        p["papers_with_code_links"] += bool(doc["code_links"])
        p["code_links"] += len(doc["code_links"])
        p["code_links_tree_path"] += sum("/tree/" in lk["repo_url"] for lk in doc["code_links"])
        p["results"] += len(doc["results"])
        p["papers_with_samples"] += bool(doc["syntology"] and doc["syntology"]["samples"])

    # -- code-entry documents ---------------------------------------------------------

    def check_entry(self, name: str, doc: dict) -> None:
        entry, rows = doc["entry"], doc["samples"]
        slug = doc["url"].removeprefix("/code/")
        if slug in self.entry_slugs:
            self.fail(name, f"slug {slug!r} used by {self.entry_slugs[slug]!r} and {entry!r}")
        self.entry_slugs[slug] = entry
        self.places_per_entry[entry] = len(rows)
        for field, derived in self.entry_aggregates(rows).items():
            self.expect(name, field, doc[field], derived)
        for row in rows:
            key = (row["paper"], row["code_sha256_prefix"], entry)
            if key in self.code_places:
                self.fail(name, f"place {key} listed twice")
            self.code_places[key] = {f: row[f] for f in SHARED_FIELDS}
            self.code_places[key]["_paper"] = {f: row[f] for f in ("arxiv_id", "title", "date")}

    @staticmethod
    def entry_aggregates(rows: list[dict]) -> dict:
        """SNAPSHOT-FORMAT.md's table, one line per figure."""
        bodies = lambda pred: {r["code_sha256_prefix"] for r in rows if pred(r)}  # noqa: E731
        by_status = {s: len(bodies(lambda r, s=s: r["status"] == s)) for s in STATUSES}
        return {
            "n_places": len(rows),
            "n_places_pointer_only": sum(1 for r in rows if r["inline_ok"] is False),
            "n_samples": len(bodies(lambda r: True)),
            "by_status": by_status,
            "n_samples_ran": sum(v for s, v in by_status.items() if s != "unverified"),
            "n_papers": len({r["arxiv_id"] for r in rows}),
            "n_papers_ran": len({r["arxiv_id"] for r in rows if r["status"] != "unverified"}),
            "n_samples_fingerprinted": len(bodies(lambda r: r["behaviour_fingerprint"] is True)),
        }

    # -- the two views ----------------------------------------------------------------

    def cross_check(self, partial: bool = False) -> None:
        """Both sides must list the same places; ``partial`` (e.g. the three seeds) only
        compares the places both sides hold."""
        only_paper = self.paper_places.keys() - self.code_places.keys()
        only_code = self.code_places.keys() - self.paper_places.keys()
        if partial:
            only_paper = only_code = set()
        for key in sorted(only_paper)[:10]:
            self.fail("views", f"place {key} in a paper document but no code-entry document")
        for key in sorted(only_code)[:10]:
            self.fail("views", f"place {key} in a code-entry document but not in its paper's")
        for key, code_side in self.code_places.items():
            paper_side = self.paper_places.get(key)
            if paper_side is None:
                continue
            for field in SHARED_FIELDS:
                if paper_side[field] != code_side[field]:
                    self.fail(
                        "views",
                        f"{key} {field}: paper says {paper_side[field]!r}, entry {code_side[field]!r}",
                    )
            paper = self.papers.get(key[0])
            if paper is not None and paper != code_side["_paper"]:
                self.fail("views", f"{key}: paper fields differ: {paper} vs {code_side['_paper']}")

    def report(self) -> dict:
        sizes = sorted(self.places_per_entry.values())
        shared = [sha for sha, papers in self.body_papers.items() if len(papers) > 1]
        return {
            **self.profile,
            "code_entries": len(self.places_per_entry),
            "places": len(self.paper_places),
            "code_bodies": len(self.body_papers),
            "bodies_in_several_papers": len(shared),
            "bodies_in_several_repos": sum(len(r) > 1 for r in self.body_repos.values()),
            "entries_with_1_to_3_places": sum(1 for n in sizes if n <= 3),
            "top_entries": self.places_per_entry.most_common(5),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--partial", action="store_true", help="a subset: skip the completeness check")
    args = parser.parse_args(argv)
    checker = Checker()
    for name, doc in iter_documents(args.folder):
        checker.check(name, doc)
    checker.cross_check(args.partial)
    if checker.problems:
        print(f"{len(checker.problems)} problem(s):", *checker.problems[:50], sep="\n  ")
        return 1
    print(json.dumps(checker.report(), indent=1, ensure_ascii=False))
    print("OK: every stated figure matches its rows and both views of every place agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
