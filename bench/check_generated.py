"""Self-check of a generated snapshot: every stated figure and both views of every place.

    .venv/bin/python bench/check_generated.py /tmp/snap2k

Why: a loader benchmark on data whose figures disagree with its rows would measure the
error path, not the load. This re-derives every aggregate from the rows with code written
independently of generate.py (docs/SNAPSHOT-FORMAT.md's definitions, read afresh) and checks
that a paper document's samples and the code-entry documents' samples describe the same
places with the same fields. Exits 1 listing the first problems; prints a profile of the
data (skew, oddities) otherwise. Holds one small record per place: fine at bench scales.

It also counts the mess a real harvest has (``mess`` in the report; bench/generate.py
``--mess``, issue 35), whoever made the snapshot: names that slug alike (what the loader takes
as one method, task or dataset, named otherwise), blank and repeated authors, code entries whose
names slug alike and the addresses that follow, papers given by several documents.
``--touched`` (a copy from ``generate.py --touch``): where a place's two views differ the newer
document is meant to win, so the differences are counted, not failed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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
SEED_DIRS = (Path("/work/shared/seeds"), ROOT / "fixtures")
# Fields of the paper a code-entry row copies; a touched copy may differ in them.
PAPER_FIELDS = ("arxiv_id", "title", "date")


def catalogue_rules():
    """The catalogue's own rules for what names one thing (``name_slug``) and the address a
    code entry no document named gets (``entry_slug``): the mess is counted as the loader sees it."""
    sys.path.insert(0, str(ROOT))
    from catalogue import identities

    return identities.name_slug, identities.entry_slug


def address_slug(name: str) -> str:
    """A routine name's address as the seeds write it (``forward_step_func`` -> forward-step-func)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


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
    def __init__(self, touched: bool = False):
        self.touched = touched
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
        self.name_slug, self.entry_slug = catalogue_rules()
        # mess: spellings per (kind, slug); paper documents per paper; differing views (touched)
        self.spellings: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.paper_documents: dict[str, list[str]] = defaultdict(list)
        self.mess = Counter()
        self.mess_papers: dict[str, set[str]] = defaultdict(set)

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
        # A paper is its arXiv id where it has one (two documents can give one paper), else its url.
        paper = doc["arxiv_id"] or url
        self.paper_documents[paper].append(url)
        self.profile_paper(doc)
        self.count_paper_mess(doc)
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
        listed = set()
        for s in samples:
            if s["status"] not in STATUSES:
                self.fail(name, f"status {s['status']!r} outside the vocabulary")
            if s["mcp_get_code"]["code_sha256"] != s["code_sha256_prefix"]:
                self.fail(name, "mcp_get_code.code_sha256 differs from code_sha256_prefix")
            key = (paper, s["code_sha256_prefix"], s["entry"])
            if key in listed:
                self.fail(name, f"place {key} listed twice")
            listed.add(key)
            fields = {f: s[f] for f in SHARED_FIELDS}
            if key in self.paper_places and self.paper_places[key] != fields:
                self.mess["places_two_documents_of_a_paper_give_otherwise"] += 1
                if not self.touched:
                    self.fail(name, f"place {key}: another document of the paper gives it otherwise")
            self.paper_places[key] = fields
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

    def count_paper_mess(self, doc: dict) -> None:
        """Spellings of each name under the slug that makes it one thing; blank and repeated authors."""
        for t in doc["tasks"]:
            self.spellings["task", t["task_slug"]].add(t["task_name"])
        for m in doc["methods"] + doc["methods_introduced"]:
            self.spellings["method", m.get("method_slug", m.get("slug"))].add(
                m.get("method_name", m.get("name"))
            )
        datasets = [r["dataset"] for r in doc["results"]]
        datasets += [d if isinstance(d, str) else d["name"] for d in doc["datasets_introduced"]]
        for name in datasets:
            self.spellings["dataset", self.name_slug(name)].add(name)
        # per paper, not per document: a paper's second document repeats its authors
        paper = doc["arxiv_id"] or doc["url"]
        authors = [a for a in doc["authors"] if isinstance(a, str)]
        if any(not a.strip() for a in authors):
            self.mess_papers["papers_with_blank_author"].add(paper)
        named = [" ".join(a.split()).casefold() for a in authors if a.strip()]
        if len(set(named)) < len(named):
            self.mess_papers["papers_with_duplicate_author"].add(paper)

    def mess_report(self) -> dict:
        groups = Counter()
        examples: dict[str, list] = defaultdict(list)
        for (kind, slug), names in self.spellings.items():
            # a name that is only the slug again is no spelling of its own (so the loader reads it)
            spelled = {n for n in names if n != slug} if kind != "code entry" else names
            if len(spelled) > 1:
                groups[kind] += 1
                if len(examples[kind]) < 3:
                    examples[kind].append(" / ".join(sorted(spelled)))
        # a code-entry document whose address is the one another entry's name gives, when that
        # entry's own document is not read (a reload of the papers alone, for one)
        claimed = sum(
            1
            for entry in self.places_per_entry
            if self.entry_slugs.get(self.entry_slug(entry), entry) != entry
        )
        several = [urls for urls in self.paper_documents.values() if len(urls) > 1]
        return {
            "names_that_slug_alike": {
                "method": groups["method"],
                "task": groups["task"],
                "dataset": groups["dataset"],
                "all three": groups["method"] + groups["task"] + groups["dataset"],
                "examples": {k: v for k, v in examples.items() if k != "code entry"},
            },
            "code_entry_names_that_slug_alike": groups["code entry"],
            "code_entry_examples": examples["code entry"],
            "entries_whose_name_gives_another_entrys_address": claimed,
            "papers_with_blank_author": len(self.mess_papers["papers_with_blank_author"]),
            "papers_with_duplicate_author": len(self.mess_papers["papers_with_duplicate_author"]),
            "papers_in_several_documents": len(several),
            "of_which_slug_and_slug-1": sum(
                any(u.endswith("-1") and u.removesuffix("-1") in urls for u in urls) for urls in several
            ),
            "of_which_an_arxiv_address": sum(
                any(u.startswith("/paper/arxiv-") for u in urls) for urls in several
            ),
            "places_whose_two_views_differ": self.mess["places_whose_two_views_differ"],
            "places_two_documents_of_a_paper_give_otherwise": self.mess[
                "places_two_documents_of_a_paper_give_otherwise"
            ],
        }

    # -- code-entry documents ---------------------------------------------------------

    def check_entry(self, name: str, doc: dict) -> None:
        entry, rows = doc["entry"], doc["samples"]
        slug = doc["url"].removeprefix("/code/")
        if slug in self.entry_slugs:
            self.fail(name, f"slug {slug!r} used by {self.entry_slugs[slug]!r} and {entry!r}")
        self.entry_slugs[slug] = entry
        self.places_per_entry[entry] = len(rows)
        self.spellings["code entry", address_slug(entry)].add(entry)
        for field, derived in self.entry_aggregates(rows).items():
            self.expect(name, field, doc[field], derived)
        for row in rows:
            key = (row["arxiv_id"] or row["paper"], row["code_sha256_prefix"], entry)
            if key in self.code_places:
                self.fail(name, f"place {key} listed twice")
            self.code_places[key] = {f: row[f] for f in SHARED_FIELDS}
            self.code_places[key]["_paper"] = {f: row[f] for f in PAPER_FIELDS}
            self.code_places[key]["_url"] = row["paper"]

    @staticmethod
    def entry_aggregates(rows: list[dict]) -> dict:
        """docs/SNAPSHOT-FORMAT.md's table, one line per figure."""
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
            differ = False
            for field in SHARED_FIELDS:
                if paper_side[field] != code_side[field]:
                    differ = True
                    if not self.touched:
                        self.fail(
                            "views",
                            f"{key} {field}: paper says {paper_side[field]!r}, entry {code_side[field]!r}",
                        )
            paper = self.papers.get(code_side["_url"])
            if paper is None and not partial:
                self.fail("views", f"{key}: names {code_side['_url']}, which no paper document is")
            if paper is not None and paper != code_side["_paper"]:
                differ = True
                if not self.touched:
                    self.fail("views", f"{key}: paper fields differ: {paper} vs {code_side['_paper']}")
            self.mess["places_whose_two_views_differ"] += differ

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
            "mess": self.mess_report(),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--partial", action="store_true", help="a subset: skip the completeness check")
    parser.add_argument(
        "--touched",
        action="store_true",
        help="a copy from generate.py --touch: count differing views, not fail",
    )
    args = parser.parse_args(argv)
    checker = Checker(touched=args.touched)
    for name, doc in iter_documents(args.folder):
        checker.check(name, doc)
    checker.cross_check(args.partial)
    if checker.problems:
        print(f"{len(checker.problems)} problem(s):", *checker.problems[:50], sep="\n  ")
        return 1
    print(json.dumps(checker.report(), indent=1, ensure_ascii=False))
    if args.touched:
        print("OK: every stated figure matches its rows (the views that differ are counted under mess)")
    else:
        print("OK: every stated figure matches its rows and both views of every place agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
