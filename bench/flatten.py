"""Snapshot documents -> the flat rows a loader would write, one table at a time.

Why: the peers in load_bench.py (sqlite-utils, raw executemany, PostgreSQL COPY) must
write the *same* rows our loader writes, or the comparison measures different work. This
module is that shared definition: it reads the documents once, streams rows out as
``(table, tuple)`` pairs, and does the little merging a correct loader must do anyway:

- a paper is its arXiv id (version suffix dropped) where it has one, else its slug; a paper
  given by two documents (``x`` and ``x-1``, or its ``arxiv-…`` address: generate.py's
  multi-document-papers) is one paper row, the first document read giving its fields and
  lists, the other adding its slug and any place the first lacks;
- a place (paper, code body, entry) seen from both its paper document and its code-entry
  document gives ONE ``samples`` row, whatever the reading order; the paper side wins
  (it alone carries repo_kind, link_basis and language), the code side fills papers that
  have no paper document of their own (the seeds reference such papers);
- vocabularies (repos, tasks, methods, leaderboards, entries, bodies) are emitted once.

Stated aggregates are not rows: a loader stores rows and computes figures, so they are
dropped here. Memory held: the keys of what was emitted, plus code-side places whose paper
document has not been read yet.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# table -> (columns with a SQL type, primary key columns). Types are what the raw COPY /
# executemany peers declare; sqlite-utils infers its own, as its users let it.
TABLES: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "papers": (
        (
            ("paper_key", "text"),
            ("slug", "text"),
            ("arxiv_id", "text"),
            ("title", "text"),
            ("title_source", "text"),
            ("date", "text"),
            ("month_inferred", "text"),
            ("proceeding", "text"),
            ("abstract", "text"),
            ("url_abs", "text"),
            ("url_pdf", "text"),
            ("source_snapshot", "text"),
            ("has_document", "boolean"),
        ),
        ("paper_key",),
    ),
    "paper_slugs": ((("slug", "text"), ("paper_key", "text")), ("slug",)),
    "authors": (
        (("paper_key", "text"), ("position", "integer"), ("name", "text")),
        ("paper_key", "position"),
    ),
    "repos": ((("repo_key", "text"), ("host", "text"), ("full_name", "text")), ("repo_key",)),
    "code_links": (
        (
            ("paper_key", "text"),
            ("repo_url", "text"),
            ("repo_key", "text"),
            ("is_official", "boolean"),
            ("mentioned_in_paper", "boolean"),
            ("mentioned_in_github", "boolean"),
            ("framework", "text"),
            ("reach_status", "text"),
            ("reach_spdx", "text"),
        ),
        ("paper_key", "repo_url"),
    ),
    "tasks": ((("task_slug", "text"), ("task_name", "text")), ("task_slug",)),
    "paper_tasks": (
        (("paper_key", "text"), ("task_slug", "text"), ("task_name", "text")),
        ("paper_key", "task_slug", "task_name"),
    ),
    "methods": ((("method_slug", "text"), ("method_name", "text")), ("method_slug",)),
    "paper_methods": ((("paper_key", "text"), ("method_slug", "text")), ("paper_key", "method_slug")),
    "leaderboards": ((("leaderboard", "text"), ("task", "text"), ("dataset", "text")), ("leaderboard",)),
    "results": (
        (
            ("paper_key", "text"),
            ("position", "integer"),
            ("leaderboard", "text"),
            ("task", "text"),
            ("dataset", "text"),
            ("model", "text"),
            ("rank_in_archive_order", "integer"),
            ("of_n", "integer"),
            ("metrics", "text"),
            ("uses_additional_data", "boolean"),
        ),
        ("paper_key", "position"),
    ),
    "code_entries": ((("entry", "text"), ("slug", "text")), ("entry",)),
    "code_bodies": ((("code_sha256", "text"),), ("code_sha256",)),
    "samples": (
        (
            ("paper_key", "text"),
            ("code_sha256", "text"),
            ("entry", "text"),
            ("repo_key", "text"),
            ("repo", "text"),
            ("repo_kind", "text"),
            ("path", "text"),
            ("file_url", "text"),
            ("link_basis", "text"),
            ("language", "text"),
            ("status", "text"),
            ("verification_level", "integer"),
            ("contract_check", "text"),
            ("metamorphic_tier", "text"),
            ("behaviour_fingerprint", "boolean"),
            ("licence", "text"),
            ("inline_ok", "boolean"),
        ),
        ("paper_key", "code_sha256", "entry"),
    ),
}

COLUMNS = {table: tuple(name for name, _ in spec[0]) for table, spec in TABLES.items()}

Row = tuple
_VERSION = re.compile(r"v\d+$")
_REPO = re.compile(r"^https?://([^/]+)/([^/]+)/([^/?#]+)", re.IGNORECASE)


def paper_key(arxiv_id: str | None, slug: str) -> str:
    return _VERSION.sub("", arxiv_id) if arxiv_id else slug


def flag(value) -> bool | None:
    """0/1, true/false and null all occur for the archive's flags."""
    return None if value is None else bool(value)


def repo_key_from_url(url: str) -> tuple[str, str, str] | None:
    """(key, host, owner/name) for a repository URL with any /tree/ path or .git ending."""
    match = _REPO.match(url)
    if not match:
        return None
    host, owner, name = match.groups()
    name = name.removesuffix(".git")
    return f"{host.lower()}/{owner.lower()}/{name.lower()}", host.lower(), f"{owner}/{name}"


def read_documents(folder: Path) -> Iterator[dict]:
    """Documents in file-name order, ``.json`` or ``.json.gz``."""
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".json"):
            yield json.loads(path.read_bytes())
        elif path.name.endswith(".json.gz"):
            with gzip.open(path) as fh:
                yield json.loads(fh.read())


@dataclass
class Flattener:
    """Stateful: feed documents with ``rows(doc)``, then drain ``finish()``."""

    emitted: dict[str, set] = field(
        default_factory=lambda: {
            t: set()
            for t in (
                "repos",
                "tasks",
                "methods",
                "leaderboards",
                "code_entries",
                "code_bodies",
                "paper_slugs",
            )
        }
    )
    papers_with_document: set[str] = field(default_factory=set)
    paper_stubs: dict[str, Row] = field(default_factory=dict)
    places_seen: set[tuple] = field(default_factory=set)
    code_side_places: dict[tuple, Row] = field(default_factory=dict)

    def rows(self, doc: dict) -> Iterator[tuple[str, Row]]:
        url = doc.get("url") or ""
        if url.startswith("/paper/"):
            yield from self.paper_rows(doc)
        elif url.startswith("/code/"):
            yield from self.entry_rows(doc)
        else:
            raise ValueError(f"document url {url!r} is neither /paper/ nor /code/")

    def once(self, table: str, key, row: Row) -> Iterator[tuple[str, Row]]:
        if key not in self.emitted[table]:
            self.emitted[table].add(key)
            yield table, row

    def repo_rows(self, url: str) -> Iterator[tuple[str, Row]]:
        parsed = repo_key_from_url(url)
        if parsed:
            yield from self.once("repos", parsed[0], parsed)

    # -- paper documents ----------------------------------------------------------

    def paper_rows(self, doc: dict) -> Iterator[tuple[str, Row]]:
        slug = doc["url"].removeprefix("/paper/")
        key = paper_key(doc.get("arxiv_id"), slug)
        if key in self.papers_with_document:  # the paper's second document: its address and places
            yield from self.once("paper_slugs", slug, (slug, key))
            for sample in (doc.get("syntology") or {}).get("samples") or []:
                yield from self.paper_side_place(key, sample)
            return
        self.papers_with_document.add(key)
        self.paper_stubs.pop(key, None)
        source = doc.get("source") or {}
        month = (doc.get("arxiv_id") or "")[:4] if not doc.get("date") else None
        yield (
            "papers",
            (
                key,
                slug,
                doc.get("arxiv_id"),
                doc.get("title"),
                "syntology" if source == {} else "archive",
                doc.get("date"),
                f"20{month[:2]}-{month[2:]}" if month and month.isdigit() else None,
                doc.get("proceeding"),
                doc.get("abstract"),
                doc.get("url_abs"),
                doc.get("url_pdf"),
                source.get("snapshot"),
                True,
            ),
        )
        yield from self.once("paper_slugs", slug, (slug, key))
        for position, name in enumerate(doc.get("authors") or []):
            yield "authors", (key, position, name)
        yield from self.link_rows(key, doc.get("code_links") or [])
        yield from self.vocabulary_rows(key, doc)
        yield from self.result_rows(key, doc.get("results") or [])
        syntology = doc.get("syntology") or {}
        for sample in syntology.get("samples") or []:
            yield from self.paper_side_place(key, sample)

    def link_rows(self, key: str, links: list[dict]) -> Iterator[tuple[str, Row]]:
        seen = set()
        for link in links:
            url = link["repo_url"]
            if url in seen:
                continue
            seen.add(url)
            yield from self.repo_rows(url)
            parsed = repo_key_from_url(url)
            reach = link.get("reach") or {}
            yield (
                "code_links",
                (
                    key,
                    url,
                    parsed[0] if parsed else None,
                    flag(link.get("is_official")),
                    flag(link.get("mentioned_in_paper")),
                    flag(link.get("mentioned_in_github")),
                    link.get("framework"),
                    reach.get("status"),
                    reach.get("spdx"),
                ),
            )

    def vocabulary_rows(self, key: str, doc: dict) -> Iterator[tuple[str, Row]]:
        pairs = set()
        for task in doc.get("tasks") or []:
            slug, name = task["task_slug"], task["task_name"]
            yield from self.once("tasks", slug, (slug, name))
            if (slug, name) not in pairs:
                pairs.add((slug, name))
                yield "paper_tasks", (key, slug, name)
        methods = set()
        for method in doc.get("methods") or []:
            slug = method["method_slug"]
            yield from self.once("methods", slug, (slug, method["method_name"]))
            if slug not in methods:
                methods.add(slug)
                yield "paper_methods", (key, slug)

    def result_rows(self, key: str, results: list[dict]) -> Iterator[tuple[str, Row]]:
        for position, result in enumerate(results):
            board = result.get("leaderboard")
            if board:
                board = board.removeprefix("/sota/")
                yield from self.once(
                    "leaderboards", board, (board, result.get("task"), result.get("dataset"))
                )
            yield (
                "results",
                (
                    key,
                    position,
                    board,
                    result.get("task"),
                    result.get("dataset"),
                    result.get("model"),
                    result.get("rank_in_archive_order"),
                    result.get("of"),
                    json.dumps(result.get("metrics") or {}, ensure_ascii=False),
                    flag(result.get("uses_additional_data")),
                ),
            )

    def paper_side_place(self, key: str, s: dict) -> Iterator[tuple[str, Row]]:
        place = (key, s["code_sha256_prefix"], s["entry"])
        if place in self.places_seen:
            return
        self.places_seen.add(place)
        self.code_side_places.pop(place, None)
        yield from self.body_and_entry_rows(s["code_sha256_prefix"], s["entry"])
        repo = s.get("repo")
        if repo:
            yield from self.repo_rows(f"https://github.com/{repo}")
        yield "samples", self.sample_row(place, s, s.get("repo_kind"), s.get("link_basis"), s.get("language"))

    # -- code-entry documents -----------------------------------------------------------

    def entry_rows(self, doc: dict) -> Iterator[tuple[str, Row]]:
        entry = doc["entry"]
        yield from self.once("code_entries", entry, (entry, doc["url"].removeprefix("/code/")))
        for s in doc.get("samples") or []:
            slug = s["paper"].removeprefix("/paper/")
            key = paper_key(s.get("arxiv_id"), slug)
            yield from self.once("paper_slugs", slug, (slug, key))
            if key not in self.papers_with_document and key not in self.paper_stubs:
                self.paper_stubs[key] = (
                    key,
                    slug,
                    s.get("arxiv_id"),
                    s.get("title"),
                    s.get("title_source"),
                    s.get("date"),
                    s.get("month_inferred_from_arxiv_id"),
                    None,
                    None,
                    None,
                    None,
                    None,
                    False,
                )
            place = (key, s["code_sha256_prefix"], entry)
            if place in self.places_seen or place in self.code_side_places:
                continue
            yield from self.body_and_entry_rows(s["code_sha256_prefix"], None)
            if s.get("repo"):
                yield from self.repo_rows(f"https://github.com/{s['repo']}")
            self.code_side_places[place] = self.sample_row(place, s, None, None, None)

    def body_and_entry_rows(self, sha: str, entry: str | None) -> Iterator[tuple[str, Row]]:
        yield from self.once("code_bodies", sha, (sha,))
        if entry is not None:
            slug = re.sub(r"[^a-z0-9]+", "-", entry.lower()).strip("-")
            yield from self.once("code_entries", entry, (entry, slug))

    @staticmethod
    def sample_row(place: tuple, s: dict, kind, link_basis, language) -> Row:
        repo = s.get("repo")
        return (
            *place,
            repo_key_from_url(f"https://github.com/{repo}")[0] if repo else None,
            repo,
            kind,
            s.get("path"),
            s.get("file_url"),
            link_basis,
            language,
            s.get("status"),
            s.get("verification_level"),
            s.get("contract_check"),
            s.get("metamorphic_tier"),
            flag(s.get("behaviour_fingerprint")),
            s.get("licence"),
            flag(s.get("inline_ok")),
        )

    def finish(self) -> Iterator[tuple[str, Row]]:
        """Rows that could only be settled once every document was read."""
        for row in self.paper_stubs.values():
            yield "papers", row
        for row in self.code_side_places.values():
            yield "samples", row
        self.paper_stubs.clear()
        self.code_side_places.clear()


def flatten(documents: Iterable[dict]) -> Iterator[tuple[str, Row]]:
    """Every row of a snapshot, streamed."""
    flattener = Flattener()
    for doc in documents:
        yield from flattener.rows(doc)
    yield from flattener.finish()


def flatten_folder(folder: Path) -> Iterator[tuple[str, Row]]:
    return flatten(read_documents(folder))


def batched_by_table(rows: Iterable[tuple[str, Row]], size: int = 5000) -> Iterator[tuple[str, list[Row]]]:
    """Group the interleaved stream into per-table batches, as bulk inserts want them."""
    buffers: dict[str, list[Row]] = {t: [] for t in TABLES}
    for table, row in rows:
        buffer = buffers[table]
        buffer.append(row)
        if len(buffer) >= size:
            yield table, buffer
            buffers[table] = []
    for table, buffer in buffers.items():
        if buffer:
            yield table, buffer


if __name__ == "__main__":  # row counts per table: a quick look at what a loader writes
    import sys
    from collections import Counter

    counts = Counter(table for table, _ in flatten_folder(Path(sys.argv[1])))
    print(json.dumps({t: counts[t] for t in TABLES} | {"total": sum(counts.values())}, indent=1))
