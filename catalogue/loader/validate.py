"""Checking one snapshot document (docs/SNAPSHOT-FORMAT.md) and turning it into rows for the staging tables.

Nothing here touches the database. A document becomes a :class:`Parsed` (rows per staging
table, plus warnings), or raises :class:`SnapshotError` naming the file, the JSON path of the
field and what was expected when its own identity cannot be established. A bad field is left
out and a bad row skipped, each with a warning (``fields``). The rows are the document
schema's (``schema.TABLES``), and so is how each plain field is read and checked. The
archive's dump files become the same rows in ``archive_rows``; the rows both give (a repository,
a place, a code link, a result, a paper a row names) are built in ``row_builders``.
"""

from __future__ import annotations

import json
import re

from catalogue import figures, identities
from catalogue.identities import clean_name
from catalogue.loader import schema
from catalogue.loader.documents import RawDocument
from catalogue.loader.fields import (
    MENTION_RANK,
    Fields,
    Parsed,
    _NotAnObject,
    as_json,
    author_names,
    clean_text,
    dates,
    make_stamp,
    memo_entry_slug,
    memo_name_slug,
    paper_key,
)
from catalogue.loader.row_builders import (
    add_paper,
    add_paper_method,
    add_repo_link,
    add_result,
    add_sample,
    arxiv_in_links,
    read_place,
    stated_arxiv,
)
from catalogue.loader.warnings import LoadWarning
from catalogue.models import Correction, DocumentKind, Status, TitleSource

_SHA16 = re.compile(r"^[0-9a-f]{16}$")

FIGURES = "figures_disagree"  # the kind of warning: a document's stated figure against its rows

__all__ = ["MENTION_RANK", "Parsed", "make_stamp", "parse"]


def parse(raw: RawDocument) -> Parsed:
    # The fields left out and the rows skipped are warned of in the document's Parsed.
    doc = Fields(raw.name, raw.value, check_chars=raw.may_hold_bad_chars, warnings=[])
    url = doc.str("url", required=True, max_length=schema.max_chars("document", "url"))
    if slug := identities.slug_from_path(url, "/paper/"):
        return _parse_paper(doc, raw, url, slug)
    if slug := identities.slug_from_path(url, "/code/"):
        return _parse_code_entry(doc, raw, url, slug)
    if url == CORRECTIONS_URL:
        return _parse_corrections(doc, raw, url)
    doc.fail(
        "url", f"{url!r} is neither /paper/<slug>, /code/<slug> nor {CORRECTIONS_URL}: unknown document kind"
    )


def _document_row(out: Parsed, doc: Fields, raw: RawDocument, read_at, stamp) -> None:
    out.add(
        "document",
        url=out.url,
        kind=out.kind,
        sha256=raw.sha256,
        file_name=raw.name,
        read_at=read_at,
        stamp=stamp,
        extra=_extra(doc, out.kind),
        **schema.TABLES["document"].read(doc, schema.STAMP),
    )


def _extra(doc: Fields, kind: str) -> str | None:
    """The document's fields of ``schema.EXTRA_FIELDS`` (JSON, as given), or None if it has none;
    one no database could hold (:func:`fields.as_json`) is left out, warning."""
    kept: dict = {}
    for name in schema.EXTRA_FIELDS.get(kind, ()):
        *parents, last = name.split(".")
        source, target = doc.value, kept
        for parent in parents:
            source = source.get(parent) if isinstance(source, dict) else None
            target = target.setdefault(parent, {})
        if isinstance(source, dict) and last in source:
            try:
                target[last] = json.loads(as_json(source[last]))
            except ValueError as exc:
                doc.leave_out(name, str(exc))
    kept = {k: v for k, v in kept.items() if v != {}}
    return json.dumps(kept, ensure_ascii=False) if kept else None


# --- corrections documents --------------------------------------------------------------

CORRECTIONS_URL = "/corrections/"


def _parse_corrections(doc: Fields, raw: RawDocument, url: str) -> Parsed:
    """Curators' corrections with their history, as dump_snapshot writes them (README, format).

    Each names what it corrects by natural keys (the paper; for a status, its entry and body);
    the merge restores the ones the catalogue does not hold yet (loader.merge.corrections).
    """
    read_at = doc.datetime("read_at")
    stamp = make_stamp(read_at, raw.sha256)
    out = Parsed(url=url, kind=DocumentKind.CORRECTIONS, stamp=stamp, warnings=doc.warnings, file=raw.name)
    _document_row(out, doc, raw, read_at, stamp)
    for rec, c in enumerate(doc.objects("corrections")):
        with out.row("correction", c.path):
            _correction(out, c, rec)
    return out


def _correction(out: Parsed, c: Fields, rec: int) -> None:
    field = c.choice("field", Correction.Field, required=True)
    arxiv_id = stated_arxiv(c)
    paper_path = c.str("paper", required=True)
    slug = identities.slug_from_path(paper_path, "/paper/")
    if slug is None:
        c.fail("paper", f"expected /paper/<slug>, got {paper_path[:80]!r}")
    value = c.str("value", required=True, blank=False)
    sha = entry = None
    if field == Correction.Field.STATUS:
        entry = c.str("entry", required=True, max_length=schema.max_chars("entry", "name"), blank=False)
        sha = c.str("code_sha256_prefix", required=True)
        if not _SHA16.match(sha):
            c.fail("code_sha256_prefix", f"expected 16 lower-case hex digits, got {sha[:40]!r}")
        for key in ("value", "previous_value", "snapshot_value"):
            c.choice(key, Status, required=True)
    made_at = c.datetime("made_at")
    if made_at is None:
        c.fail("made_at", "is required: when the curator made the correction")
    removed = c.obj("removed")
    removed_at = removed.datetime("at") if removed else None
    if removed and removed_at is None:
        removed.fail("at", "is required: when the correction was removed")
    out.add(
        "correction",
        field=field,
        pkey=paper_key(arxiv_id, slug),
        sha=sha,
        entry_name=entry,
        value=value,
        previous_value=c.str("previous_value", required=True),
        upstream_value=c.str("snapshot_value", required=True),
        reason=c.str("reason") or "",
        curator_name=(c.str("curator", max_length=schema.max_chars("correction", "curator_name")) or ""),
        created_at=made_at,
        removed_at=removed_at,
        removed_by_name=(
            removed.str("curator", max_length=schema.max_chars("correction", "removed_by_name")) or ""
        )
        if removed
        else "",
        removal_reason=(removed.str("reason") or "") if removed else "",
        doc_url=out.url,
        rec=rec,
    )


# --- code-entry documents -------------------------------------------------------------


def _parse_code_entry(doc: Fields, raw: RawDocument, url: str, slug: str) -> Parsed:
    (out,) = _code_entry_batches(doc, raw, url, slug, _samples(doc), [], batch=0)
    return out


def _samples(doc: Fields):
    yield from doc.objects("samples")  # read when reached, after the fields before it, as ever


def parse_streamed(raw: RawDocument, samples, places, batch: int):
    """A code-entry document too large to hold whole (``loader.streaming``): ``raw.value`` holds
    its members but ``samples``, which come one at a time; its rows come as a ``Parsed`` every
    ``batch`` samples, the same rows and warnings ``parse`` gives. ``places`` keeps what the
    document's figures are checked against (a list, or a compact stand-in with ``append``)."""
    doc = Fields(raw.name, raw.value, check_chars=raw.may_hold_bad_chars, warnings=[])
    url = doc.str("url", required=True, max_length=schema.max_chars("document", "url"))
    slug = identities.slug_from_path(url, "/code/")
    if slug is None:
        doc.fail("url", f"{url!r}: only a /code/<slug> document is read streaming")
    base = doc.at("samples")
    fields = (
        doc.child(item, f"{base}[{i}]") if isinstance(item, dict) else _NotAnObject(doc, f"{base}[{i}]", item)
        for i, item in enumerate(samples)
    )
    return _code_entry_batches(doc, raw, url, slug, fields, places, batch)


def _code_entry_batches(doc: Fields, raw: RawDocument, url: str, slug: str, samples, places, batch: int):
    """The document's rows; with ``batch``, a ``Parsed`` every ``batch`` samples (its warnings
    too: each batch's are taken out of ``doc.warnings`` once the next is asked for)."""
    read_at = doc.datetime("read_at")
    stamp = make_stamp(read_at, raw.sha256)
    out = Parsed(url=url, kind=DocumentKind.CODE_ENTRY, stamp=stamp, warnings=doc.warnings, file=raw.name)
    _document_row(out, doc, raw, read_at, stamp)
    entry = doc.str("entry", required=True, max_length=schema.max_chars("entry", "name"), blank=False)
    out.add("entry", name=entry, slug=slug, claim=doc.str("claim") or "", stamp="1|" + stamp, doc_url=url)
    for i, s in enumerate(samples, 1):
        with out.row("sample", s.path):
            places.append(_code_entry_place(out, s, entry, stamp))
        if batch and i % batch == 0:
            yield out
            del doc.warnings[:]
            out = Parsed(
                url=url, kind=DocumentKind.CODE_ENTRY, stamp=stamp, warnings=doc.warnings, file=raw.name
            )
    _check_entry_figures(doc, out, places)
    yield out


def _code_entry_place(out: Parsed, s: Fields, entry: str, stamp: str) -> dict:
    arxiv_id = stated_arxiv(s)
    paper_path = s.str("paper")
    paper_slug = identities.slug_from_path(paper_path, "/paper/") if paper_path else None
    if paper_path and paper_slug is None:
        s.fail("paper", f"expected /paper/<slug>, got {paper_path[:80]!r}")
    if not paper_slug:
        if not arxiv_id:
            s.fail("paper", "is required when arxiv_id is missing")
        paper_slug = identities.arxiv_slug(arxiv_id)
    pkey = add_paper(
        out,
        schema.CODE_VIEW,
        stamp,
        arxiv_id=arxiv_id,
        slug=paper_slug,
        title=s.str("title"),
        title_source=s.choice("title_source", TitleSource),
        **dates(s, arxiv_id),
    )
    place = read_place(s)
    add_sample(out, pkey, entry, place, stamp, schema.CODE_VIEW)
    return place.figures_row(pkey)


def _check_entry_figures(doc: Fields, out: Parsed, places: list[dict]):
    """Warn where the document's stated figures disagree with its own rows."""
    computed = figures.stated_entry_figures(places)
    by_status = computed.pop("by_status")
    for name, value in computed.items():
        stated = doc.value.get(name)
        if stated is not None and stated != value:
            out.warnings.append(
                LoadWarning(FIGURES, doc.file, f"{name}: document states {stated!r}, its rows give {value}")
            )
    stated_by_status = doc.value.get("by_status")
    if isinstance(stated_by_status, dict):
        for status, value in by_status.items():
            if stated_by_status.get(status, 0) != value:
                out.warnings.append(
                    LoadWarning(
                        FIGURES,
                        doc.file,
                        f"by_status.{status}: document states {stated_by_status.get(status, 0)!r}, "
                        f"its rows give {value}",
                    )
                )


# --- paper documents ------------------------------------------------------------------


def _parse_paper(doc: Fields, raw: RawDocument, url: str, slug: str) -> Parsed:
    syn = doc.obj("syntology")
    read_at = syn.datetime("read_at") if syn else None
    stamp = make_stamp(read_at, raw.sha256)
    out = Parsed(url=url, kind=DocumentKind.PAPER, stamp=stamp, warnings=doc.warnings, file=raw.name)
    _document_row(out, doc, raw, read_at, stamp)
    arxiv_id = stated_arxiv(doc) or arxiv_in_links(doc)
    title = doc.str("title")
    links = None
    if syn:
        links = {}
        for k in ("syntology_url", "atlas_url", "mcp", "developers"):
            if k in syn.value:
                try:
                    links[k] = json.loads(as_json(syn.value[k]))
                except ValueError as exc:
                    syn.leave_out(k, str(exc))
        for k in ("syntology_url", "atlas_url", "developers"):
            syn.url(k)
    pkey = add_paper(
        out,
        schema.PAPER_DOCUMENT_VIEW,
        stamp,
        arxiv_id=arxiv_id,
        slug=slug,
        title=title,
        # A paper document's title is the archive's (its ``source`` is the archive).
        title_source=TitleSource.ARCHIVE if title is not None else None,
        **dates(doc, arxiv_id),
        **schema.PAPER.read(doc, schema.PAPER_DOCUMENT),
        **schema.PAPER.read(doc, schema.SYNTOLOGY),
        syntology_read_at=read_at,
        syntology_claim=(syn.str("claim") or "") if syn else "",
        syntology_links=json.dumps(links) if links else None,
    )
    for i, name in enumerate(author_names(doc)):
        out.add("author", pkey=pkey, stamp=stamp, position=i, name=name)
    _parse_tasks_methods(doc, out, pkey, stamp)
    for link in doc.objects("code_links"):
        with out.row("code link", link.path):
            add_repo_link(out, link, "repo_url", schema.CODE_LINK, pkey, stamp)
    _parse_results(doc, out, pkey, stamp)
    if syn:
        _parse_syntology(syn, out, pkey, stamp)
    return out


def name_rank(name: str, slug: str) -> str:
    """A name that is more than its slug again ('Image Classification') ranks first."""
    return "0|" if name.strip().lower().replace(" ", "-") == slug else "1|"


def _parse_tasks_methods(doc: Fields, out: Parsed, pkey, stamp):
    """The tasks, methods and datasets a paper document names (and those it introduces)."""
    _parse_tasks(doc, out, pkey, stamp)
    _parse_methods(doc, out, pkey, stamp)
    _parse_datasets_introduced(doc, out, pkey, stamp)


def _parse_tasks(doc: Fields, out: Parsed, pkey, stamp):
    for t in doc.objects("tasks"):
        with out.row("task", t.path):
            tslug = t.str(
                "task_slug", required=True, max_length=schema.max_chars("task", "slug"), blank=False
            )
            name = clean_name(t.str("task_name", max_length=schema.max_chars("task", "name")) or "") or tslug
            _add_task_name(out, tslug, name, stamp, doc_url=out.url)
            out.add("paper_task", pkey=pkey, stamp=stamp, slug=tslug)


def _add_task_name(out: Parsed, slug: str, name: str, stamp: str, doc_url: str | None = None):
    """A task as a paper or a result names it, ranked by how well its name fits its slug."""
    ranked = name_rank(name, slug) + stamp
    out.add("task", slug=slug, name=name, stamp=ranked, detailed=False, doc_url=doc_url)


def _parse_methods(doc: Fields, out: Parsed, pkey, stamp):
    for key, slug_key, name_key, introduced in (
        ("methods", "method_slug", "method_name", False),
        ("methods_introduced", "slug", "name", True),
    ):
        for m in doc.objects(key):
            with out.row("method", m.path):
                mslug = m.str(
                    slug_key, required=True, max_length=schema.max_chars("method", "slug"), blank=False
                )
                name = (
                    clean_name(m.str(name_key, max_length=schema.max_chars("method", "name")) or "") or mslug
                )
                add_paper_method(
                    out,
                    m,
                    pkey,
                    stamp,
                    name=name,
                    slug=mslug,
                    derived_slug=mslug,
                    rank=name_rank(name, mslug),
                    introduced=introduced,
                )


def _parse_datasets_introduced(doc: Fields, out: Parsed, pkey, stamp):
    for i, item in enumerate(doc.list("datasets_introduced")):
        with out.row("dataset", f"datasets_introduced[{i}]"):
            if isinstance(item, dict):
                name = doc.child(item, f"datasets_introduced[{i}]").str(
                    "name", required=True, max_length=schema.max_chars("dataset", "name")
                )
            elif isinstance(item, str):
                name = clean_text(doc, f"datasets_introduced[{i}]", item)
            else:
                doc.fail(f"datasets_introduced[{i}]", "expected a string or an object with a name")
            name = clean_name(name)
            if not name:
                doc.fail(f"datasets_introduced[{i}]", "is blank: it names no dataset")
            add_dataset_name(out, name, stamp)
            out.add(
                "paper_dataset",
                pkey=pkey,
                stamp=stamp,
                name=name,
                derived_slug=memo_name_slug(name),
            )


def add_dataset_name(out: Parsed, name: str, stamp: str, parent: str | None = None) -> str:
    """A dataset as a leaderboard or paper names it (by name: the merge finds its slug)."""
    derived = memo_name_slug(name)
    out.add(
        "dataset",
        derived_slug=derived,
        name=name,
        name_key=memo_name_slug(name),
        stamp="0|" + stamp,
        detailed=False,
        parent_name=parent,
        doc_url=out.url,
    )
    return derived


def _parse_results(doc: Fields, out: Parsed, pkey, stamp):
    tasks = doc.value.get("tasks")
    task_slugs = {
        clean_name(t["task_name"]).lower(): t["task_slug"]
        for t in (tasks if isinstance(tasks, list) else [])
        if isinstance(t, dict) and isinstance(t.get("task_name"), str) and isinstance(t.get("task_slug"), str)
    }
    for r in doc.objects("results"):
        with out.row("result", r.path):
            task_name = clean_name(
                r.str("task", required=True, max_length=schema.max_chars("task", "name"), blank=False)
            )
            dataset = clean_name(
                r.str("dataset", required=True, max_length=schema.max_chars("dataset", "name"), blank=False)
            )
            model = r.str("model", max_length=schema.max_chars("result", "model")) or ""
            board_path = r.str(
                "leaderboard", max_length=len("/sota/") + schema.max_chars("leaderboard", "slug")
            )
            board_slug = identities.slug_from_path(board_path, "/sota/") if board_path else None
            if board_path and board_slug is None:
                r.leave_out("leaderboard", f"expected /sota/<slug>, got {board_path[:80]!r}")
            task_slug = task_slugs.get(task_name.lower())
            if not task_slug and board_slug and "-on-" in board_slug:
                task_slug = board_slug.split("-on-", 1)[0]
            task_slug = task_slug or identities.slugify(task_name) or "task"
            _add_task_name(out, task_slug, task_name, stamp)
            derived = add_dataset_name(out, dataset, stamp)
            out.add(
                "leaderboard",
                task_slug=task_slug,
                dataset=dataset,
                derived_dataset_slug=derived,
                slug=board_slug or identities.leaderboard_slug(task_slug, dataset),
                stamp=("1|" if board_slug else "0|") + stamp,
                doc_url=out.url,
                rec=0,
            )
            board = {"task_slug": task_slug, "dataset": dataset, "derived_dataset_slug": derived}
            add_result(out, r, pkey, stamp, model=model, rec=0, **board)


def _parse_syntology(syn: Fields, out: Parsed, pkey, stamp):
    for repo in syn.objects("repos"):
        with out.row("repository", repo.path):
            add_repo_link(out, repo, "url", schema.HARVESTED_REPO, pkey, stamp)
    places = []
    for s in syn.objects("samples"):
        with out.row("sample", s.path):
            entry = s.str("entry", required=True, max_length=schema.max_chars("entry", "name"), blank=False)
            place = read_place(s)
            paper_view = schema.SAMPLE.read(s, schema.PAPER_VIEW)
            add_sample(out, pkey, entry, place, stamp, schema.PAPER_DOCUMENT_VIEW, paper_view)
            out.add(
                "entry",
                name=entry,
                slug=memo_entry_slug(entry),
                claim=None,
                stamp="0|" + stamp,
                doc_url=None,
            )
            places.append(place.figures_row(pkey, paper_view["repo_kind"]))
    _check_paper_figures(syn, out, places)


def _check_paper_figures(syn: Fields, out: Parsed, places: list[dict]):
    computed = figures.stated_paper_figures(places)
    for name in ("summary", "by_repo_kind"):
        stated = syn.value.get(name)
        if isinstance(stated, dict) and stated != computed[name]:
            out.warnings.append(
                LoadWarning(
                    FIGURES,
                    syn.file,
                    f"syntology.{name}: document states {stated!r}, its rows give {computed[name]!r}",
                )
            )
    stated = syn.value.get("n_pointer_only_for_licence")
    if stated is not None and stated != computed["n_pointer_only_for_licence"]:
        out.warnings.append(
            LoadWarning(
                FIGURES,
                syn.file,
                f"syntology.n_pointer_only_for_licence: document states {stated!r}, "
                f"its rows give {computed['n_pointer_only_for_licence']}",
            )
        )
