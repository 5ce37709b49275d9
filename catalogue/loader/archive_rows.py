"""An archive dump's records turned into staged rows: a paper record, a code link, a task's
evaluation tables, a method, a dataset (``read``), a batch of records at a time.

``archive`` finds and streams the records (JSON or Parquet, whole or in parts); this module says
what each kind of record stages, by the same rules as a snapshot document (``validate``): a record
whose identity cannot be established is skipped with a warning naming file, record and field, a
bad field is left out and a bad row skipped.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass

from catalogue import identities
from catalogue.identities import clean_name
from catalogue.loader import schema
from catalogue.loader.archive import (
    ARCHIVE_ABOUT,
    KINDS,
    WHOLE,
    Dump,
    Part,
    records,
)
from catalogue.loader.documents import SnapshotError
from catalogue.loader.fields import (
    MENTION_RANK,
    Fields,
    Parsed,
    author_names,
    bad_char,
    dates,
    make_stamp,
    memo_name_slug,
    text_list,
)
from catalogue.loader.row_builders import (
    add_paper,
    add_paper_method,
    add_repo,
    add_repo_link,
    add_result,
    arxiv_in_links,
    mention_paper,
)
from catalogue.loader.validate import add_dataset_name
from catalogue.models import TitleSource

# Records per batch of rows sent to staging ...
BATCH_RECORDS = 2000
# ... or fewer, once a batch holds this many rows (counted every BATCH_CHECK records): a record of
# ``evaluation-tables`` is a task with all its tables and results. By records alone, the main
# process held 235 MB after the 576,000-paper evaluation tables, and 154 MB with batches of 50.
BATCH_ROWS = 20_000
BATCH_CHECK = 16


@dataclass
class _Context:
    stamp: str
    source: dict  # what a paper's ``source`` says of the dump
    # A number for each unit --keep-going may skip (a record, a table), from 1: 0 is a whole document.
    units: Iterator[int]
    record: int = 0  # the number of the record being read, from 1 (the unit of ``BY_RECORD`` dumps)

    def unit(self) -> int:
        return next(self.units)


def read(dump: Dump, sha256: str, part: Part = WHOLE, limit: int | None = None) -> Iterator[Parsed]:
    """The dump's staged rows (``part`` of them), a batch of records at a time (the document's row first)."""
    read_at = dump.read_at
    stamp = make_stamp(read_at, sha256)
    kind = KINDS[dump.kind]
    reader = _READERS[dump.kind]
    ctx = _Context(stamp, _source(dump), itertools.count(1))
    out = Parsed(url=dump.url, kind=kind, stamp=stamp, file=dump.name)
    if part.first == 0:
        out.add(
            "document",
            url=dump.url,
            kind=kind,
            sha256=sha256,
            file_name=dump.name,
            read_at=read_at,
            source=json.dumps(_source(dump)),
            about=json.dumps(ARCHIVE_ABOUT),
            stamp=stamp,
        )
    held = 0  # records in this batch
    for i, value in enumerate(records(dump, part, limit), part.first):
        ctx.record = i + 1
        with out.row("record", f"[{i}]"):
            record = Fields(dump.name, value, f"[{i}]", warnings=out.warnings)
            reader(out, record, ctx)
        held += 1
        out.records += 1
        if held == BATCH_RECORDS or (
            held % BATCH_CHECK == 0 and sum(map(len, out.rows.values())) >= BATCH_ROWS
        ):
            yield out
            out, held = Parsed(url=dump.url, kind=kind, stamp=stamp, file=dump.name), 0
    yield out


def _source(dump: Dump) -> dict:
    """Where a row came from: the dump (its name, the snapshot date its name gives) and its licence."""
    return {
        "archive": f"Papers-with-Code archive: {dump.stem}, CC BY-SA 4.0",
        "file": dump.name,
        "snapshot": dump.read_at.date().isoformat() if dump.read_at else None,
        "licence_url": ARCHIVE_ABOUT["licence_url"],
    }


def _paper_identity(
    record: Fields, url_key: str, arxiv_key: str, link_keys: tuple[str, ...]
) -> tuple[str, str | None]:
    """(slug, arXiv id) of the paper a record is, or fails: without either it has no identity.
    The arXiv id is the one stated, else the one its paper URL or its own links give."""
    paper_url = record.str(url_key)
    slug, arxiv_from_url = identities.paper_from_url(paper_url)
    if paper_url and slug is None and arxiv_from_url is None:
        record.leave_out(url_key, f"expected a Papers-with-Code or arXiv paper URL, got {paper_url[:80]!r}")
    stated = record.str(arxiv_key)
    arxiv_id = identities.arxiv_id_in(stated) if stated and stated.strip() else None
    if stated and stated.strip() and arxiv_id is None:
        record.leave_out(arxiv_key, f"{stated[:80]!r} is not an arXiv id")
    arxiv_id = arxiv_id or arxiv_from_url or arxiv_in_links(record, link_keys)
    if slug is None and arxiv_id is None:
        record.fail(url_key, "names no paper: neither a paper URL nor an arXiv id")
    return slug or identities.arxiv_slug(arxiv_id), arxiv_id


def _read_paper(out: Parsed, r: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    slug, arxiv_id = _paper_identity(r, "paper_url", "arxiv_id", ("url_abs", "url_pdf"))
    title = r.str("title")
    rec = ctx.record  # a dump can hold one paper twice (under two slugs): its lists go with its record
    pkey = add_paper(
        out,
        schema.ARCHIVE_VIEW,
        stamp,
        arxiv_id=arxiv_id,
        slug=slug,
        title=title,
        title_source=TitleSource.ARCHIVE if title is not None else None,
        rec=rec,
        **dates(r, arxiv_id),
        **{
            **schema.PAPER.read(r, schema.PAPER_DOCUMENT),
            # where the record came from, not a field of the record
            "source": json.dumps({**ctx.source, "row_kind": "abstracts"}),
        },
        **schema.PAPER.read(r, schema.ARCHIVE_RECORD),
    )
    for i, name in enumerate(author_names(r)):
        out.add("author", pkey=pkey, stamp=stamp, position=i, name=name, rec=rec)
    for name in dict.fromkeys(clean_name(n) for n in text_list(r, "tasks") if n.strip()):
        task_slug = memo_name_slug(name)
        out.add("task", slug=task_slug, name=name, stamp="1|" + stamp, detailed=False, doc_url=out.url)
        out.add("paper_task", pkey=pkey, stamp=stamp, slug=task_slug, rec=rec)
    for m in r.objects("methods"):
        with out.row("method", m.path):
            name = clean_name(
                m.str("name", required=True, max_length=schema.max_chars("method", "name"), blank=False)
            )
            derived, tie = memo_name_slug(name), {"introduced": False, "rec": rec}
            add_paper_method(
                out, m, pkey, stamp, name=name, slug=None, derived_slug=derived, rank="1|", **tie
            )


def _read_link(out: Parsed, r: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    slug, arxiv_id = _paper_identity(r, "paper_url", "paper_arxiv_id", ("paper_url_abs", "paper_url_pdf"))
    rec = ctx.record
    # The slug too, where the record gives both: a paper first known by its slug alone (the methods
    # dump's) is found by it, and so takes the arXiv id instead of standing beside its twin.
    ref = identities.PaperRef(slug=slug, arxiv_id=arxiv_id)
    pkey = mention_paper(
        out, ref, stamp, title=r.str("paper_title"), rec=rec, url_named=r.url("paper_url_abs") or None
    )
    add_repo_link(out, r, "repo_url", schema.CODE_LINK, pkey, stamp, rec=rec)


def _read_task(out: Parsed, t: Fields, ctx: _Context, parent: str | None = None) -> None:
    stamp = ctx.stamp
    name = clean_name(t.str("task", required=True, max_length=schema.max_chars("task", "name"), blank=False))
    task_slug = memo_name_slug(name)
    out.add(
        "task",
        slug=task_slug,
        name=name,
        stamp="1|" + stamp,
        detailed=True,
        description=t.str("description") or "",
        parent_slug=parent,
        synonyms=json.dumps(text_list(t, "synonyms")),
        source_link=t.json("source_link") if t.obj("source_link") else None,
        doc_url=out.url,
    )
    for area in dict.fromkeys(clean_name(a) for a in text_list(t, "categories") if a.strip()):
        out.add("area", slug=memo_name_slug(area), name=area, stamp=stamp)
        out.add("task_area", task_slug=task_slug, area_slug=memo_name_slug(area), stamp="1|" + stamp)
    for d in t.objects("datasets"):
        with out.row("table", d.path):
            _read_table(out, d, task_slug, ctx)
    for sub in t.objects("subtasks"):
        with out.row("task", sub.path):
            _read_task(out, sub, ctx, parent=task_slug)


def _read_table(out: Parsed, d: Fields, task_slug: str, ctx: _Context, parent: str | None = None) -> None:
    """One evaluation table (a dataset under a task; a subdataset is a table of its own)."""
    stamp = ctx.stamp
    own = d.str("dataset", max_length=schema.max_chars("dataset", "name")) or d.str(
        "subdataset", max_length=schema.max_chars("dataset", "name")
    )
    if not own or not own.strip():
        d.fail("dataset", "is required (the table's dataset)")
    dataset = f"{parent} ({clean_name(own)})" if parent else clean_name(own)
    derived = add_dataset_name(out, dataset, stamp, parent=parent)
    sota = d.obj("sota")
    rows = sota.objects("rows") if sota else []
    metrics = list(dict.fromkeys(clean_name(n) for n in text_list(sota, "metrics"))) if sota else []
    rec = ctx.unit()
    if rows or metrics:
        out.add(
            "leaderboard",
            task_slug=task_slug,
            dataset=dataset,
            derived_dataset_slug=derived,
            slug=identities.leaderboard_slug(task_slug, dataset),
            metrics=json.dumps(metrics),
            description=d.str("description") or "",
            stamp="0|" + stamp,
            doc_url=out.url,
            rec=rec,
        )
    board = {"task_slug": task_slug, "dataset": dataset, "derived_dataset_slug": derived, "rec": rec}
    for position, row in enumerate(rows, 1):
        with out.row("result", row.path):
            _read_row(out, row, stamp, board, position, len(rows))
    for sub in d.objects("subdatasets"):
        with out.row("table", sub.path):
            _read_table(out, sub, task_slug, ctx, parent=dataset)


def _read_row(out: Parsed, row: Fields, stamp: str, board: dict, position: int, of: int) -> None:
    paper_url = row.url("paper_url") or None
    paper_title = (row.str("paper_title") or "").strip() or None
    ref = identities.paper_named_by(paper_url)
    paper_date = row.date("paper_date")
    pkey = None
    if ref.known:
        # the address the row gives for its paper is the paper's own, but a Papers-with-Code page
        url_named = None if ref.slug else paper_url
        pkey = mention_paper(
            out, ref, stamp, title=paper_title, date=paper_date, rec=board["rec"], url_named=url_named
        )
    code_links = _links(row, "code_links")
    add_result(
        out,
        row,
        pkey,
        stamp,
        model=(row.str("model_name", max_length=schema.max_chars("result", "model")) or "").strip(),
        rank_in_archive_order=position,
        of=of,
        paper_title=paper_title,
        paper_url=paper_url,
        paper_date=paper_date,
        code_links=json.dumps(code_links),
        model_links=json.dumps(_links(row, "model_links")),
        **board,
    )
    if pkey:
        for url, at in _repository_urls(row, "code_links").items():
            with out.row("code link", at):
                _add_row_code_link(out, url, pkey, stamp, board)


def _repository_urls(row: Fields, key: str) -> dict[str, str]:
    """Every repository address the row's links give (and where), Markdown residue and all: a
    link's ``url`` can hold several (``https://allennlp.org/elmo) [AllenNLP GitHub](https://github.com/…``)."""
    found: dict[str, str] = {}
    limit = schema.max_chars("code_link", "repo_url")
    for link in row.objects(key):
        if not isinstance(link, Fields) or not isinstance(link.value.get("url"), str):
            continue
        for url in identities.urls_in(link.value["url"]):
            if len(url) <= limit and not bad_char(url) and identities.parse_repo(url):
                found.setdefault(url, link.at("url"))
    return found


def _add_row_code_link(out: Parsed, url: str, pkey: str, stamp: str, board: dict) -> None:
    """A row's code link as a code link of its paper: the flags the row does not state stay unknown,
    and it ranks below the links dump's and a paper document's record of the same link."""
    ref = identities.parse_repo(url)
    add_repo(out, ref, stamp)
    out.add(
        "code_link",
        pkey=pkey,
        repo_key=ref.key,
        sub_path=ref.sub_path,
        repo_url=url,
        stamp=MENTION_RANK + stamp,
        doc_url=out.url,
        rec=board["rec"],
        board_task=board["task_slug"],
        board_dataset=board["derived_dataset_slug"],
    )


def _links(row: Fields, key: str) -> list[dict]:
    """``[{title, url}]`` as a table gives them; a link without an http(s) URL is left out."""
    links = []
    for link in row.objects(key):
        try:
            url = link.url("url")
            title = link.str("title", max_length=500)
        except (SnapshotError, AttributeError):
            continue
        if url:
            links.append({"title": (title or "").strip(), "url": url})
    return links


def _identity(record: Fields, kind: str) -> tuple[str, str]:
    """A method's or dataset's record: its slug (from its URL, else from its name) and its name;
    one that gives neither is skipped."""
    url = record.str("url")
    slug = identities.slug_from_url(url, kind)
    name = clean_name(record.str("name", max_length=schema.max_chars(kind, "name")) or "")
    if not slug:
        if not name:
            record.fail("url", f"names no {kind}: neither a {kind} URL nor a name")
        slug = memo_name_slug(name)
    return slug, name


def _add_described(out: Parsed, record: Fields, kind: str, ctx: _Context, **stated) -> str:
    """The archive's own record of a method or dataset (``kind``): who it is, its details
    (``stated``: what only this kind states) and the paper that introduced it; returns its slug."""
    slug, name = _identity(record, kind)
    out.add(
        kind,
        slug=slug,
        derived_slug=slug,
        name=name or slug,
        name_key=memo_name_slug(name or slug),
        stamp="2|" + ctx.stamp,
        detailed=True,
        **schema.TABLES[kind].read(record, schema.DETAIL),
        **stated,
        paper_pkey=_introducing_paper(out, record, ctx),
        doc_url=out.url,
    )
    return slug


def _read_method(out: Parsed, m: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    full_name = m.str("full_name", max_length=schema.max_chars("method", "full_name"))
    slug = _add_described(out, m, "method", ctx, full_name=full_name)
    for c in m.objects("collections"):
        with out.row("collection", c.path):
            collection = clean_name(
                c.str(
                    "collection",
                    required=True,
                    max_length=schema.max_chars("collection", "name"),
                    blank=False,
                )
            )
            area_name = clean_name(c.str("area", max_length=schema.max_chars("area", "name")) or "")
            area_slug = (c.str("area_id", max_length=schema.max_chars("area", "slug")) or "").strip() or (
                memo_name_slug(area_name) if area_name else None
            )
            if area_slug:
                out.add("area", slug=area_slug, name=area_name or area_slug, stamp=stamp)
            collection_slug = memo_name_slug(collection)
            out.add("collection", slug=collection_slug, name=collection, area_slug=area_slug, stamp=stamp)
            out.add(
                "method_collection", method_slug=slug, collection_slug=collection_slug, stamp="2|" + stamp
            )


def _introducing_paper(out: Parsed, record: Fields, ctx: _Context) -> str | None:
    """The paper a method or dataset record says introduced it (``{title, url}``, or a bare title)."""
    paper = (
        record.obj("paper")
        if not isinstance(record.value.get("paper"), str) or record.value["paper"][:1] == "{"
        else None
    )
    if paper is not None:
        url = paper.url("url") or None
        ref = identities.paper_named_by(url)
        if ref.known:
            return mention_paper(
                out,
                ref,
                ctx.stamp,
                title=paper.str("title"),
                rec=ctx.unit(),
                url_named=None if ref.slug else url,
            )
    return None  # a bare title names no paper we could find


def _read_dataset(out: Parsed, d: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    slug = _add_described(
        out,
        d,
        "dataset",
        ctx,
        introduced_date=d.date("introduced_date"),
        modalities=json.dumps(text_list(d, "modalities")),
        languages=json.dumps(text_list(d, "languages")),
        variants=json.dumps(text_list(d, "variants")),
        data_loaders=json.dumps(_data_loaders(d)),
    )
    for t in d.objects("tasks"):
        with out.row("task", t.path):
            task_name = clean_name(
                t.str("task", required=True, max_length=schema.max_chars("task", "name"), blank=False)
            )
            task_slug = identities.slug_from_url(t.str("url"), "task") or memo_name_slug(task_name)
            out.add(
                "task", slug=task_slug, name=task_name, stamp="1|" + stamp, detailed=False, doc_url=out.url
            )
            out.add("dataset_task", dataset_slug=slug, task_slug=task_slug, stamp="2|" + stamp)


def _data_loaders(d: Fields) -> list[dict]:
    loaders = []
    for loader in d.objects("data_loaders"):
        try:
            url = loader.url("url")
            repo = loader.url("repo")
            frameworks = text_list(loader, "frameworks")
        except (SnapshotError, AttributeError):
            continue
        if url or repo:
            loaders.append({"url": url or "", "repo": repo or "", "frameworks": frameworks})
    return loaders


_READERS = {
    "papers-with-abstracts": _read_paper,
    "links-between-papers-and-code": _read_link,
    "evaluation-tables": _read_task,
    "methods": _read_method,
    "datasets": _read_dataset,
}
