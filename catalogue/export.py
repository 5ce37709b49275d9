"""Writing the catalogue back out as snapshot documents (``manage.py dump_snapshot``).

The output is what ``load_snapshot`` reads (docs/SNAPSHOT-FORMAT.md), so loading it into an
empty database gives the same catalogue. Three kinds of file:

* ``paper/…json``: one paper document per paper that came from one, with its code links,
  tasks, methods, results and every place a paper document described (``syntology``);
* ``code/…json``: one code-entry document per entry that came from one, with *every* place
  of the entry, and the entry's figures stated as ``catalogue.reads`` computes them;
* ``alias/…json``: a minimal paper document per older slug of a paper, so that every
  address keeps working after a reload.

The loader keeps, per field, the value of the newest document. Every document written here
states the same values for what they share (a paper's title, a place's status), so which
one wins does not change the result, with two exceptions the ``read_at`` stamps settle: a
paper document always calls its title the archive's, so where a title came from Syntology
the code-entry documents that state it must be newer; and an old slug must be older than
the current one. Ids inside the database are never written: documents name things by
their natural keys.

Curators' corrections travel as themselves, so that dump → empty database → load gives back
the same catalogue, corrections, their history and all:

* paper and code-entry documents state the **snapshot's** values (a paper's title, a
  place's status), as the documents they were loaded from did, and the figures those rows
  give; a corrected row carries ``corrected`` with the value the catalogue shows instead,
  and each document lists its corrections under ``exported.corrected`` (for readers: the
  loader reads neither);
* ``corrections/…json`` (url ``/corrections/``) holds every correction ever made, removed
  ones included, each naming its row by natural keys, with the curator's public name (never
  a login); the loader restores the ones a catalogue lacks (``loader.merge.corrections``).

What a document says of itself that no model holds (a code-entry document's
``status_vocabulary``, ``units`` and ``syntology`` notes...) is kept on its SourceDocument
(``extra``) and written back as it came.
"""

import datetime as dt
import gzip
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from django.db.models import F, Prefetch
from django.utils.text import slugify

from catalogue import attribution, figures, identities
from catalogue.loader import schema
from catalogue.models import (
    Author,
    CodeEntry,
    CodeLink,
    Correction,
    Dataset,
    HarvestedRepo,
    Method,
    Paper,
    PaperSlug,
    Repo,
    Result,
    Sample,
    Task,
)

CHUNK = 500
DEFAULT_ABOUT = attribution.DOCUMENT_ABOUT
EXPORTED_BY = "codewithpapers dump_snapshot"


class ExportError(Exception):
    pass


@dataclass
class ExportResult:
    papers: int = 0
    code_entries: int = 0
    aliases: int = 0
    corrections: int = 0
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def _repo_ref(repo: Repo | None) -> str | None:
    if repo is None:
        return None
    return repo.full_name if repo.host == "github.com" else repo.url


def _reach(repo: Repo) -> dict | None:
    reach = {k: v for k, v in schema.TABLES["repo"].export(repo, schema.STAMP).items() if v}
    return reach or None


def _exported(corrected: list[dict], **extra) -> dict:
    return {"by": EXPORTED_BY, "corrected": corrected, **extra}


def _corrections(sample: Sample) -> list[dict]:
    """The corrections shown on a place: its status (for readers; corrections/ restores them)."""
    out = []
    paper = sample.paper
    if sample.status_corrected:
        out.append(
            {
                "url": f"/paper/{paper.slug}",
                "code_sha256_prefix": sample.body.sha256_prefix,
                "entry": sample.entry.name,
                "field": "status",
                "value": sample.status,
                "snapshot": sample.status_upstream,
            }
        )
    return out


def _title_correction(paper: Paper) -> list[dict]:
    if not paper.title_corrected:
        return []
    return [
        {
            "url": f"/paper/{paper.slug}",
            "field": "title",
            "value": paper.title,
            "snapshot": paper.title_upstream,
        }
    ]


def _marks(sample: Sample) -> dict:
    """On a corrected row, the value the catalogue shows instead of the one the row states."""
    marks = {}
    if sample.status_corrected:
        marks["status"] = {"shown": sample.status, "snapshot": sample.status_upstream}
    if sample.paper.title_corrected:
        marks["title"] = {"shown": sample.paper.title, "snapshot": sample.paper.title_upstream}
    return {"corrected": marks} if marks else {}


def _snapshot_title(paper: Paper) -> str | None:
    """The title as the snapshot states it (a curator's correction travels in corrections/)."""
    return paper.title_upstream if (paper.title_upstream or paper.title_source) else None


def _place(sample: Sample) -> dict:
    """What both views of a place state; the same in paper and code-entry documents."""
    return {
        "repo": _repo_ref(sample.repo),
        **schema.SAMPLE.export(sample, schema.STAMP),
        "status": sample.status_upstream,  # the snapshot's; a correction travels in corrections/
        "code_sha256_prefix": sample.body.sha256_prefix,
        "mcp_get_code": {"code_sha256": sample.body.sha256_prefix},
        **_code_text(sample),
    }


def _figures_row(sample: Sample, row: dict) -> dict:
    """A written place as ``figures.compute`` reads it, the way the loader will when it checks it."""
    return {
        "body": row["code_sha256_prefix"],
        "paper": sample.paper_id,
        "repo": sample.repo.key if sample.repo else None,
        **{field: row[field] for field in ("status", "inline_ok", "behaviour_fingerprint")},
        "repo_kind": row.get("repo_kind"),
    }


def _with_extra(doc: dict, source) -> dict:
    """``doc`` with what its SourceDocument kept of the document it came from (``extra``)."""
    for key, value in ((source.extra if source else None) or {}).items():
        if isinstance(value, dict) and isinstance(doc.get(key), dict):
            doc[key] = {**doc[key], **value}
        elif key not in doc:
            doc[key] = value
    return doc


def _code_text(sample: Sample) -> dict:
    """The body's text and language, on a place that shows it and no other:
    a pointer-only place's row never carries the text. (A paper document's row then states
    its own ``language``, which is the body's unless the two views disagree.)"""
    if not sample.shows_code:
        return {}
    return schema.BODY.export(sample.body, schema.CODE_TEXT)


class _Writer:
    def __init__(self, target: Path, compress: bool, result: ExportResult):
        self.target, self.compress, self.result = target, compress, result
        self.counts: dict[str, int] = {}

    def encode(self, doc: dict) -> bytes:
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode() + b"\n"
        return gzip.compress(data, mtime=0) if self.compress else data

    def write(self, kind: str, doc: dict, data: bytes | None = None) -> Path:
        data = data if data is not None else self.encode(doc)
        n = self.counts[kind] = self.counts.get(kind, 0) + 1
        name = hashlib.sha256(doc["url"].encode()).hexdigest()[:16]
        path = self.target / kind / f"{n:06d}_{name}.json{'.gz' if self.compress else ''}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.result.files.append(path)
        return path


def dump_snapshot(target: Path, *, compress: bool = False) -> ExportResult:
    """Write the whole catalogue under ``target`` (which must not hold snapshot files)."""
    target = Path(target)
    if target.exists() and any(target.iterdir()):
        raise ExportError(f"{target} is not empty: dump into a new or empty directory")
    target.mkdir(parents=True, exist_ok=True)
    result = ExportResult()
    writer = _Writer(target, compress, result)
    main_docs = _paper_documents(writer, result)
    _code_entry_documents(writer, result)
    _alias_documents(writer, result, main_docs)
    _corrections_document(writer, result)
    return result


# --- paper documents ------------------------------------------------------------------------


def _papers_with_documents():
    return (
        Paper.objects.from_paper_documents()
        .select_related("paper_document")
        .prefetch_related(
            Prefetch("authors", queryset=Author.objects.order_by("position")),
            Prefetch("tasks", queryset=Task.objects.order_by("slug")),
            Prefetch("methods", queryset=Method.objects.order_by("slug")),
            Prefetch("methods_introduced", queryset=Method.objects.order_by("slug")),
            Prefetch("datasets_introduced", queryset=Dataset.objects.order_by("name")),
            Prefetch(
                "code_links",
                queryset=CodeLink.objects.select_related("repo").order_by("repo__key", "sub_path"),
            ),
            Prefetch(
                "harvested_repos",
                queryset=HarvestedRepo.objects.select_related("repo").order_by("repo__key", "sub_path"),
            ),
            Prefetch(
                "results",
                queryset=Result.objects.select_related("leaderboard__task", "leaderboard__dataset").order_by(
                    "leaderboard__slug", "model", "row_key"
                ),
            ),
            Prefetch(
                "samples",
                queryset=Sample.objects.described_by_paper_documents()
                .select_related("paper", "entry", "body", "repo")
                .order_by("entry__name", "body__sha256_prefix"),
                to_attr="paper_view_samples",
            ),
        )
        .order_by("slug")
    )


def _chunks(queryset):
    ids = list(queryset.values_list("id", flat=True))
    for start in range(0, len(ids), CHUNK):
        yield from queryset.filter(id__in=ids[start : start + CHUNK])


def _paper_documents(writer: _Writer, result: ExportResult) -> dict[int, bytes]:
    """Write every paper document; returns each one's bytes by paper id (aliases need them)."""
    written = {}
    for paper in _chunks(_papers_with_documents()):
        doc = _paper_document(paper, result)
        data = writer.encode(doc)
        writer.write("paper", doc, data)
        written[paper.id] = data
        result.papers += 1
    return written


def _paper_document(paper: Paper, result: ExportResult) -> dict:
    tasks = [{"task_slug": t.slug, "task_name": t.name} for t in paper.tasks.all()]
    doc = {
        "about": (paper.paper_document.about if paper.paper_document else None) or DEFAULT_ABOUT,
        "exported": _exported(
            _title_correction(paper) + [c for s in paper.paper_view_samples for c in _corrections(s)]
        ),
        "url": f"/paper/{paper.slug}",
        # A paper document's title is always taken as the archive's; one from Syntology is
        # stated by the (newer) code-entry documents too.
        "title": _snapshot_title(paper),
        "arxiv_id": paper.arxiv_id,
        "date": _iso(paper.date),
        "authors": [a.name for a in paper.authors.all()],
        **schema.PAPER.export(paper, schema.PAPER_DOCUMENT),
        **schema.PAPER.export(paper, schema.SYNTOLOGY),
        "code_links": [
            {
                "paper_slug": paper.slug,
                "repo_url": link.repo_url,
                **schema.CODE_LINK.export(link, schema.STAMP),
                "reach": _reach(link.repo),
            }
            for link in paper.code_links.all()
        ],
        "tasks": tasks,
        "methods": [
            {"method_slug": m.slug, "method_name": m.name, "full_name": m.full_name or None}
            for m in paper.methods.all()
        ],
        "datasets_introduced": [d.name for d in paper.datasets_introduced.all()],
        "methods_introduced": [
            {"slug": m.slug, "name": m.name, "full_name": m.full_name or None}
            for m in paper.methods_introduced.all()
        ],
        "results": [_result(r, tasks, paper, result) for r in paper.results.all()],
    }
    syntology = _syntology(paper)
    if syntology is not None:
        doc["syntology"] = syntology
        _with_extra(doc, paper.paper_document)
    return doc


def _result(r: Result, tasks: list[dict], paper: Paper, result: ExportResult) -> dict:
    board = r.leaderboard
    # The loader finds a result's task by name among the paper's tasks, else from the
    # leaderboard's slug; say so where that would find another task.
    by_name = {t["task_name"].strip().lower(): t["task_slug"] for t in tasks}
    found = by_name.get(board.task.name.strip().lower())
    if not found and "-on-" in board.slug:
        found = board.slug.split("-on-", 1)[0]
    if (found or slugify(board.task.name)) != board.task.slug:
        result.warnings.append(
            f"/paper/{paper.slug}: result {r.model!r} on {board.slug}: a reload would file it "
            f"under task {found!r}, not {board.task.slug!r}"
        )
    return {
        "leaderboard": f"/sota/{board.slug}",
        "task": board.task.name,
        "dataset": board.dataset.name,
        "model": r.model,
        **schema.RESULT.export(r, schema.STAMP),
        "metrics": r.metrics,
    }


def _syntology(paper: Paper) -> dict | None:
    samples = paper.paper_view_samples
    repos = list(paper.harvested_repos.all())
    links = paper.syntology_links or {}
    if not (paper.syntology_read_at or paper.syntology_claim or links or repos or samples):
        return None
    rows = [
        {
            **_place(s),
            "entry": s.entry.name,
            **schema.SAMPLE.export(s, schema.PAPER_VIEW),
            **_marks(s),
        }
        for s in samples
    ]
    return {
        **links,
        "read_at": _iso(paper.syntology_read_at),
        "claim": paper.syntology_claim,
        "repos": [
            {
                **schema.HARVESTED_REPO.export(h, schema.STAMP),
                "url": h.repo.url + (f"/{h.sub_path}" if h.sub_path else ""),
                "reach": _reach(h.repo),
            }
            for h in repos
        ],
        **_stated_paper_figures(rows, paper),
        "samples": rows,
    }


def _stated_paper_figures(rows: list[dict], paper: Paper) -> dict:
    """The figures a paper document states, of the places it lists (as the loader checks them)."""
    places = [
        {
            "body": row["code_sha256_prefix"],
            "paper": paper.pk,
            "repo": identities.parse_repo(row["repo"]).key if row["repo"] else None,
            **{field: row[field] for field in ("status", "inline_ok", "behaviour_fingerprint", "repo_kind")},
        }
        for row in rows
    ]
    return figures.stated_paper_figures(places)


# --- code-entry documents -------------------------------------------------------------------


def _code_entry_documents(writer: _Writer, result: ExportResult):
    entries = CodeEntry.objects.exclude(document=None).select_related("document").order_by("name")
    for entry in entries.iterator(chunk_size=CHUNK):
        samples = list(
            Sample.objects.filter(entry=entry)
            .select_related("paper", "entry", "body", "repo")
            .order_by("paper__slug", "body__sha256_prefix")
        )
        titles = {s.paper_id: _title_correction(s.paper) for s in samples}
        rows = [
            {
                "arxiv_id": s.paper.arxiv_id,
                "paper": f"/paper/{s.paper.slug}",
                "title": _snapshot_title(s.paper),
                "title_source": s.paper.title_source,
                "date": _iso(s.paper.date),
                "month_inferred_from_arxiv_id": s.paper.month if s.paper.month_is_inferred else None,
                **_place(s),
                **_marks(s),
            }
            for s in samples
        ]
        # The figures of the rows as written (the snapshot's statuses), as the loader checks them.
        stated = figures.stated_entry_figures(
            [_figures_row(s, row) for s, row in zip(samples, rows, strict=True)]
        )
        doc = {
            "about": entry.document.about or DEFAULT_ABOUT,
            "exported": _exported(
                [c for t in titles.values() for c in t] + [c for s in samples for c in _corrections(s)]
            ),
            "url": f"/code/{entry.slug}",
            "entry": entry.name,
            "source": entry.document.source,
            "read_at": _iso(_code_read_at(entry, samples)),
            "claim": entry.claim,
            **stated,
        }
        _with_extra(doc, entry.document)
        doc["samples"] = rows
        writer.write("code", doc)
        result.code_entries += 1


def _code_read_at(entry: CodeEntry, samples: list[Sample]) -> dt.datetime | None:
    """The entry document's own read_at, moved past any paper document whose title it must beat."""
    read_at = entry.document.read_at
    for s in samples:
        paper = s.paper
        if paper.title_source != "archive" and paper.paper_stamp and paper.syntology_read_at:
            needed = paper.syntology_read_at + dt.timedelta(microseconds=1)
            if read_at is None or read_at < needed:
                read_at = needed
    return read_at


# --- old slugs ------------------------------------------------------------------------------


def _alias_documents(writer: _Writer, result: ExportResult, main_docs: dict[int, bytes]):
    """A minimal, undated paper document per old slug: it only records the address.

    Undated, it is older than anything dated. Where the paper's own document is undated
    too, the content hash breaks the tie; a ``nonce`` makes the alias's hash the smaller.
    """
    old = (
        PaperSlug.objects.select_related("paper")
        .exclude(slug=F("paper__slug"))
        .order_by("paper__slug", "slug")
    )
    for alias in old.iterator(chunk_size=CHUNK):
        paper = alias.paper
        if not paper.arxiv_id:
            result.warnings.append(
                f"/paper/{alias.slug} (old address of /paper/{paper.slug}) is not written: "
                "a paper without an arXiv id is its slug, so a document cannot give it two"
            )
            continue
        doc = {
            "about": DEFAULT_ABOUT,
            "exported": _exported([], alias_of=f"/paper/{paper.slug}"),
            "url": f"/paper/{alias.slug}",
            "arxiv_id": paper.arxiv_id,
        }
        data = writer.encode(doc)
        main = main_docs.get(paper.id)
        if main is not None and paper.syntology_read_at is None:
            main_sha = hashlib.sha256(main).hexdigest()[:16]
            nonce = 0
            while hashlib.sha256(data).hexdigest()[:16] >= main_sha:
                nonce += 1
                doc["exported"] = _exported([], alias_of=f"/paper/{paper.slug}", nonce=nonce)
                data = writer.encode(doc)
        writer.write("alias", doc, data)
        result.aliases += 1


# --- corrections ----------------------------------------------------------------------------


def _corrections_document(writer: _Writer, result: ExportResult) -> None:
    """Every correction ever made, oldest first, each naming its row by natural keys."""
    corrections = list(
        Correction.objects.select_related("paper", "sample__paper", "sample__entry", "sample__body").order_by(
            "created_at", "id"
        )
    )
    if not corrections:
        return
    records = [_correction_record(c) for c in corrections]
    # Dated by the last change it records: the same corrections always give the same bytes.
    read_at = max(c.removed_at or c.created_at for c in corrections)
    doc = {
        "about": DEFAULT_ABOUT,
        "exported": _exported([]),
        "url": "/corrections/",
        "read_at": _iso(read_at),
        "corrections": records,
    }
    writer.write("corrections", doc)
    result.corrections = len(records)


def _correction_record(c: Correction) -> dict:
    paper = c.paper if c.paper_id else c.sample.paper
    record = {"field": c.field, "paper": f"/paper/{paper.slug}", "arxiv_id": paper.arxiv_id}
    if c.sample_id:
        record.update(entry=c.sample.entry.name, code_sha256_prefix=c.sample.body.sha256_prefix)
    record.update(
        value=c.value,
        previous_value=c.previous_value,
        snapshot_value=c.upstream_value,
        reason=c.reason,
        curator=c.curator_name or None,  # the public name chosen, never a login
        made_at=_iso(c.created_at),
        removed=None
        if c.active
        else {"at": _iso(c.removed_at), "curator": c.removed_by_name or None, "reason": c.removal_reason},
    )
    return record
