"""The Papers-with-Code archive's dump files, read into the same staged rows as snapshot documents.

Five dumps (docs/PWC-ARCHIVE.md), each recognised by a name that starts with its kind:
``papers-with-abstracts``, ``links-between-papers-and-code``, ``evaluation-tables``, ``methods``,
``datasets``; as ``.json``, ``.json.gz`` (a gzip stream is read as gzip whatever its name), a
``.parquet`` file, or a folder of ``.parquet`` shards so named (the Hugging Face layout,
``papers-with-abstracts/data/train-00000-of-00004.parquet``). One dump is one document: its
identity is its name without suffix or date (``archive:papers-with-abstracts``), so a later
copy of it replaces the earlier one's rows, and a date in its name
(``papers-with-abstracts-2025-07-28.json.gz``) is when it was read, for "newest wins".

Records are streamed (JSON a record at a time, by the rules of a document: ``_json_records``;
pyarrow row group by row group for Parquet), never a whole list in memory, and turned into rows
in batches. A record is what a document is for a
snapshot: one whose identity cannot be established (a paper with neither a URL nor an arXiv
id) is skipped with a warning naming file, record and field; within a record a bad field is
left out and a bad row skipped (``fields``), and the rest of the record loads.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from catalogue import attribution, identities
from catalogue.identities import clean_name
from catalogue.loader import documents, schema
from catalogue.loader.documents import DUMP_ALIASES, DUMP_PREFIXES, SnapshotError, dump_kind
from catalogue.loader.fields import (
    MENTION_RANK,
    Fields,
    Parsed,
    author_names,
    bad_char,
    dates,
    make_stamp,
    memo_name_slug,
    paper_key,
    paper_naming,
    text_list,
)
from catalogue.loader.validate import (
    add_dataset_name,
    add_repo,
    add_repo_link,
    add_result,
    arxiv_in_links,
    mention_paper,
)
from catalogue.models import DocumentKind, TitleSource

KINDS = dict(
    zip(
        DUMP_PREFIXES,
        (
            DocumentKind.ARCHIVE_PAPERS,
            DocumentKind.ARCHIVE_LINKS,
            DocumentKind.ARCHIVE_EVALUATIONS,
            DocumentKind.ARCHIVE_METHODS,
            DocumentKind.ARCHIVE_DATASETS,
        ),
        strict=True,
    )
)
BATCH_RECORDS = 2000
# ... or fewer, once a batch holds this many rows (counted every BATCH_CHECK records): a record of
# ``evaluation-tables`` is a task with all its tables and results. By records alone, the main
# process held 235 MB after the 576,000-paper evaluation tables, and 154 MB with batches of 50.
BATCH_ROWS = 20_000
BATCH_CHECK = 16
_DATE_IN_NAME = re.compile(r"[-_](\d{4})-?(\d{2})-?(\d{2})$")
ARCHIVE_ABOUT = {
    "source": "Papers with Code archive (pwc-archive dumps)",
    **{
        key: attribution.DOCUMENT_ABOUT[key]
        for key in ("licence", "licence_url", "attribution", "non_affiliation")
    },
}


@dataclass(frozen=True)
class Dump:
    name: str  # as the load names it: a file, or a folder of shards
    files: tuple[Path, ...]  # what holds its records, in order

    @property
    def kind(self) -> str:
        return dump_kind(self.name)

    @property
    def stem(self) -> str:
        """The dump's identity: its name without suffix and date, in the one spelling of its kind."""
        base = os.path.basename(self.name.rstrip("/"))
        for suffix in (".json.gz", ".parquet", ".json"):
            base = base.removesuffix(suffix)
        for alias, kind in DUMP_ALIASES.items():
            if base.startswith(alias):
                base = kind + base[len(alias) :]
        return _DATE_IN_NAME.sub("", base)

    @property
    def url(self) -> str:
        return f"archive:{self.stem}"

    @property
    def read_at(self) -> dt.datetime | None:
        base = os.path.basename(self.name.rstrip("/"))
        for suffix in (".json.gz", ".parquet", ".json"):
            base = base.removesuffix(suffix)
        m = _DATE_IN_NAME.search(base)
        try:
            return dt.datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=dt.UTC) if m else None
        except ValueError:
            return None


def open_dump(root: str, name: str) -> Dump:
    """The dump ``name`` (relative to ``root``): a file, or a folder whose .parquet files are its shards."""
    path = Path(root, name)
    if path.is_dir():
        shards = tuple(sorted(p for p in path.rglob("*.parquet") if p.is_file()))
        if not shards:
            raise SnapshotError(name, "", "a dump folder holds no .parquet shard")
        return Dump(name, shards)
    return Dump(name, (path,))


def checksum(dump: Dump) -> str:
    """SHA-256 of the dump's bytes (of every shard, by name, in order), read in chunks."""
    digest = hashlib.sha256()
    for path in dump.files:
        if len(dump.files) > 1:
            digest.update(path.name.encode() + b"\0")
        try:
            with open(path, "rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
        except OSError as exc:
            raise SnapshotError(dump.name, "", f"cannot read: {exc.strerror or exc}") from None
    return digest.hexdigest()


# --- records ------------------------------------------------------------------------------


def records(dump: Dump, part: Part | None = None, limit: int | None = None) -> Iterator[object]:
    """Every record of the dump (or of ``part`` of it), streamed. ``limit``: the cap on a JSON
    record's text (default ``documents.MAX_DOCUMENT_BYTES``, as a document's)."""
    if part is not None and part.file is not None:
        yield from _parquet_records(dump, part.file, part.groups, part.rows)
        return
    for path in dump.files:
        if path.suffix == ".parquet":
            yield from _parquet_records(dump, path)
        else:
            yield from _json_records(dump, path, limit)


# --- parts --------------------------------------------------------------------------------

# Dumps whose records are one unit each (a paper; a code link), whose unit is the record's own
# number: such a dump in Parquet can be read in parts by several reading processes at once
# (``reading.read_dumps``) and still give the same rows.
BY_RECORD = frozenset({"papers-with-abstracts", "links-between-papers-and-code"})
# About this many records a part: worth a round trip to a reading process, and few enough that
# the rows waiting to be written stay small (1,000 papers: about 1 MB pickled).
PART_RECORDS = 1000
# A large row group is read in at most this many slices. Parquet cannot start reading in the middle
# of a row group, so a slice decodes the group's rows before it to skip them: in slices of
# PART_RECORDS, a group of 100,000 records would be decoded some 50 times over; in 8, about 4.5.
SLICES_PER_GROUP = 8


@dataclass(frozen=True)
class Part:
    """A run of a dump's records read apart from the rest: of the Parquet ``file``, row groups
    ``groups`` (first, end), of which records ``rows`` (start, end) when it is one large group;
    ``file`` None is the whole dump. ``first`` numbers its first record within the dump; the
    first part also gives the dump's own row."""

    first: int = 0
    file: Path | None = None
    groups: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None


WHOLE = Part()


def parts(dump: Dump) -> list[Part]:
    """How the dump can be read: in parts (a Parquet dump of ``BY_RECORD`` records), else whole.
    Reads only the Parquet footers."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if dump.kind not in BY_RECORD or any(path.suffix != ".parquet" for path in dump.files):
        return [WHOLE]
    out, first = [], 0
    for path in dump.files:
        try:
            meta = pq.read_metadata(path)
        except (pa.ArrowException, OSError) as exc:
            raise SnapshotError(
                dump.name, path.name if len(dump.files) > 1 else "", f"not a Parquet file ({exc})"
            ) from None
        start, held = 0, 0
        for group in range(meta.num_row_groups):
            size = meta.row_group(group).num_rows
            if size >= 2 * PART_RECORDS:  # a large group: in slices
                if held:
                    out.append(Part(first, path, (start, group)))
                    first += held
                step = max(PART_RECORDS, -(-size // SLICES_PER_GROUP))
                for at in range(0, size, step):
                    end = min(at + step, size)
                    out.append(Part(first, path, (group, group + 1), (at, end)))
                    first += end - at
                start, held = group + 1, 0
                continue
            held += size
            if held >= PART_RECORDS or group == meta.num_row_groups - 1:
                out.append(Part(first, path, (start, group + 1)))
                first, start, held = first + held, group + 1, 0
    return out or [WHOLE]


def _json_records(dump: Dump, path: Path, limit: int | None = None) -> Iterator[object]:
    """The records of a JSON dump, one at a time, by the rules of a document (``documents``): a
    record is decoded by ``json``'s own decoder only once its text is read whole, and that text is
    never held past the per-file cap of a document, nor decoded past ``documents.MAX_DEPTH``
    levels; duplicate keys, NaN and Infinity refuse the dump, naming record and field; a BOM is
    allowed; text that is not UTF-8 is refused, naming the byte. Whatever the nesting or the length
    of one string, memory stays within about twice the cap and time within a few passes over it."""
    limit = documents.MAX_DOCUMENT_BYTES if limit is None else limit
    with open(path, "rb") as raw:
        gzipped = raw.read(2) == b"\x1f\x8b"
    text = documents._Text(path, dump.name, None, gzipped=gzipped)
    try:
        start = text.skip_ws()
        if start != "[":
            what = "nothing" if not start else "an object" if start == "{" else repr(start)
            raise SnapshotError(dump.name, "", f"expected a list of records, got {what}")
        text.pos += 1
        if text.skip_ws() == "]":
            text.pos += 1
        else:
            for i in itertools.count():
                yield _json_record(text, dump.name, i, limit)
                char = text.skip_ws()
                text.pos += 1
                if char == "]":
                    break
                if char != ",":
                    text.fail(f"Expecting ',' delimiter after record [{i}]", text.pos - 1)
        if text.skip_ws() != "":
            text.fail("Extra data after the list of records")
    finally:
        text.close()


def _json_record(text, name: str, i: int, limit: int) -> object:
    text.skip_ws()
    while True:
        try:
            value, end = documents._DECODER.raw_decode(text.buf, text.pos)
        except json.JSONDecodeError as exc:
            cut = exc.pos >= len(text.buf) - 8 or exc.msg.startswith("Unterminated string")
            if cut and not text.eof:  # the record runs on past what is read so far
                _read_more(text, name, i, limit)
                continue
            text.fail(f"{exc.msg.removesuffix(' at')} (in record [{i}])", exc.pos)
        except RecursionError:
            raise SnapshotError(name, f"[{i}]", documents.too_deep_message()) from None
        except ValueError as exc:  # a duplicate key, NaN or Infinity
            raise SnapshotError(name, f"[{i}]{_where_refused(text)}", f"invalid JSON: {exc}") from None
        if end == len(text.buf) and not text.eof:  # a number may go on in the next chunk
            _read_more(text, name, i, limit)
            continue
        if documents.too_deep(text.buf, text.pos, end):
            raise SnapshotError(name, f"[{i}]", documents.too_deep_message())
        text.pos = end
        return value


def _read_more(text, name: str, i: int, limit: int) -> None:
    """More of a record's text: as much again as is held (so that it is decoded a few times only),
    refused once it holds more than a document may."""
    held = len(text.buf) - text.pos
    if held > limit:
        raise SnapshotError(
            name,
            f"[{i}]",
            f"a record larger than the per-file cap of {limit // 2**20} MB as JSON text"
            " (load_snapshot --max-file-mb raises it)",
        )
    text.more(min(held, limit + 1 - held))


class _Constant:
    def __init__(self, name):
        self.name = name


class _Duplicated(dict):
    key = None


def _keep_duplicates(pairs):
    out = _Duplicated()
    for key, value in pairs:
        if key in out and out.key is None:
            out.key = key
        out[key] = value
    return out


_TOLERANT = json.JSONDecoder(object_pairs_hook=_keep_duplicates, parse_constant=_Constant)


def _where_refused(text) -> str:
    """Where in the record at ``text.pos`` the first duplicate key or NaN/Infinity literal is (a
    path such as ``.methods[0].name``): the record decoded again, tolerating them, and searched."""
    try:
        value, _end = _TOLERANT.raw_decode(text.buf, text.pos)
    except (ValueError, RecursionError):
        return ""
    stack = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, _Constant):
            return path
        if isinstance(item, _Duplicated) and item.key is not None:
            return f"{path}.{item.key}"
        if isinstance(item, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{n}]", v) for n, v in reversed(list(enumerate(item))))
    return ""


# Parquet records are turned into Python this many at a time, not a row group at once: a reading
# process peaked 25 MB lower on the 576,000-paper dumps (152 against 177 MB), and read faster.
RECORDS_AT_ONCE = 250


def use_system_allocator() -> None:
    """Arrow's default pool (jemalloc) keeps memory it freed, for later: in a load, memory held
    through the merge and by each reading process. The system allocator gives it back. For the
    whole process: call it where only the loader reads Parquet. Setting it again is harmless."""
    import pyarrow

    pyarrow.set_memory_pool(pyarrow.system_memory_pool())


def _parquet_records(
    dump: Dump, path: Path, groups: tuple[int, int] | None = None, rows: tuple[int, int] | None = None
) -> Iterator[dict]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    shard = path.name if len(dump.files) > 1 else ""
    try:
        parquet = pq.ParquetFile(path)
        if _type_depth(parquet.schema_arrow) > documents.MAX_DEPTH:  # a record is nested as its schema
            raise SnapshotError(dump.name, shard, documents.too_deep_message())
        first, end = rows or (0, None)
        for group in range(*(groups or (0, parquet.num_row_groups))):
            seen = 0
            for batch in parquet.iter_batches(batch_size=RECORDS_AT_ONCE, row_groups=[group]):
                start, seen = seen, seen + batch.num_rows
                if end is not None and start >= end:
                    break
                if seen <= first:
                    continue
                lo, hi = (
                    max(0, first - start),
                    batch.num_rows if end is None else min(batch.num_rows, end - start),
                )
                try:
                    records = batch.slice(lo, hi - lo).to_pylist()
                except UnicodeDecodeError as exc:  # a string column's bytes that are not UTF-8
                    raise SnapshotError(
                        dump.name, shard, f"not UTF-8 text in its row group {group} ({exc.reason})"
                    ) from None
                for record in records:
                    yield _jsonable(record)
    except (pa.ArrowException, OSError) as exc:
        raise SnapshotError(dump.name, shard, f"not a Parquet file ({exc})") from None


def _type_depth(schema) -> int:
    """How deep a record of this Arrow schema nests, as JSON counts it (the record itself is one
    level; each list, struct or map one more), walked without recursion."""
    import pyarrow as pa

    deepest, stack = 1, [(column.type, 2) for column in schema]
    while stack:
        kind, depth = stack.pop()
        if isinstance(kind, pa.StructType):
            stack.extend((kind.field(n).type, depth + 1) for n in range(kind.num_fields))
        elif isinstance(kind, pa.MapType):
            stack.append((kind.item_type, depth + 1))
        elif isinstance(kind, pa.ListType | pa.LargeListType | pa.FixedSizeListType):
            stack.append((kind.value_type, depth + 1))
        else:
            continue
        deepest = max(deepest, depth)
    return deepest


# The values JSON has as they are: most of a record's. They are tested first, by exact type, and
# inside records and lists without a call: a call and five isinstance tests per value took 0.90 s
# for the 20,000-paper dumps' 1.2 million values (0.37 s now).
_AS_IS = frozenset({str, int, float, bool, type(None)})


def _jsonable(value):
    """Parquet's typed values as JSON's (dates as ISO text, decimals as numbers)."""
    if type(value) in _AS_IS:
        return value
    if isinstance(value, dict):
        return {k: v if type(v) in _AS_IS else _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(v, tuple) and len(v) == 2 for v in value):  # a Parquet MAP
            return {str(k): _jsonable(v) for k, v in value}
        return [v if type(v) in _AS_IS else _jsonable(v) for v in value]
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value


# --- rows ---------------------------------------------------------------------------------


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
    pkey = paper_key(arxiv_id, slug)
    title = r.str("title")
    rec = ctx.record  # a dump can hold one paper twice (under two slugs): its lists go with its record
    out.add(
        "paper",
        pkey=pkey,
        arxiv_id=arxiv_id,
        slug=slug,
        view=schema.ARCHIVE_VIEW,
        stamp=stamp,
        **paper_naming(title, slug),
        title_source=TitleSource.ARCHIVE if title is not None else None,
        **dates(r, arxiv_id),
        **{
            **schema.PAPER.read(r, schema.PAPER_DOCUMENT),
            # where the record came from, not a field of the record
            "source": json.dumps({**ctx.source, "row_kind": "abstracts"}),
        },
        **schema.PAPER.read(r, schema.ARCHIVE_RECORD),
        doc_url=out.url,
        rec=rec,
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
            derived = memo_name_slug(name)
            out.add(
                "method",
                derived_slug=derived,
                name=name,
                name_key=memo_name_slug(name),
                full_name=m.str("full_name", max_length=schema.max_chars("method", "full_name")),
                stamp="1|" + stamp,
                detailed=False,
                doc_url=out.url,
            )
            out.add(
                "paper_method",
                pkey=pkey,
                stamp=stamp,
                name=name,
                derived_slug=derived,
                introduced=False,
                rec=rec,
            )


def _read_link(out: Parsed, r: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    slug, arxiv_id = _paper_identity(r, "paper_url", "paper_arxiv_id", ("paper_url_abs", "paper_url_pdf"))
    rec = ctx.record
    ref = identities.PaperRef(slug=None if arxiv_id else slug, arxiv_id=arxiv_id)
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


def _read_method(out: Parsed, m: Fields, ctx: _Context) -> None:
    stamp = ctx.stamp
    url = m.str("url")
    slug = identities.slug_from_url(url, "method")
    name = clean_name(m.str("name", max_length=schema.max_chars("method", "name")) or "")
    if not slug:
        if not name:
            m.fail("url", "names no method: neither a method URL nor a name")
        slug = memo_name_slug(name)
    out.add(
        "method",
        slug=slug,
        derived_slug=slug,
        name=name or slug,
        name_key=memo_name_slug(name or slug),
        full_name=m.str("full_name", max_length=schema.max_chars("method", "full_name")),
        stamp="2|" + stamp,
        detailed=True,
        **schema.METHOD.read(m, schema.DETAIL),
        paper_pkey=_introducing_paper(out, m, ctx),
        doc_url=out.url,
    )
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
    url = d.str("url")
    slug = identities.slug_from_url(url, "dataset")
    name = clean_name(d.str("name", max_length=schema.max_chars("dataset", "name")) or "")
    if not slug:
        if not name:
            d.fail("url", "names no dataset: neither a dataset URL nor a name")
        slug = memo_name_slug(name)
    out.add(
        "dataset",
        slug=slug,
        derived_slug=slug,
        name=name or slug,
        name_key=memo_name_slug(name or slug),
        stamp="2|" + stamp,
        detailed=True,
        **schema.DATASET.read(d, schema.DETAIL),
        introduced_date=d.date("introduced_date"),
        modalities=json.dumps(text_list(d, "modalities")),
        languages=json.dumps(text_list(d, "languages")),
        variants=json.dumps(text_list(d, "variants")),
        data_loaders=json.dumps(_data_loaders(d)),
        paper_pkey=_introducing_paper(out, d, ctx),
        doc_url=out.url,
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
