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

from catalogue import attribution
from catalogue.loader import documents
from catalogue.loader.documents import DUMP_ALIASES, DUMP_PREFIXES, SnapshotError, dump_kind
from catalogue.models import DocumentKind

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
