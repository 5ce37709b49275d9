"""Finding snapshot files and reading each into a JSON value, with clear errors.

Every error is a :class:`SnapshotError` whose text starts with the file's name and,
where one is to blame, the JSON path of the field: ``001_x.json: samples[3].status: …``.
"""

import gzip
import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path


class SnapshotError(Exception):
    """Bad input: names the file, the field and what was expected."""

    load_run_id: int | None = None  # the record of the load it stopped (``load_paths`` sets it)

    def __init__(self, file: str, path: str, message: str):
        self.file, self.path, self.message = file, path, message
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(where + message)

    def __reduce__(self):  # errors travel back from reading workers
        return type(self), (self.file, self.path, self.message)


SUFFIXES = (".json", ".json.gz")
# The archive's dump files, by the name each starts with (``archive`` reads them).
DUMP_PREFIXES = (
    "papers-with-abstracts",
    "links-between-papers-and-code",
    "evaluation-tables",
    "methods",
    "datasets",
)
DUMP_SUFFIXES = (".json", ".json.gz", ".parquet")


# Other names the same dumps go by: the Hugging Face repository of the links is singular.
DUMP_ALIASES = {"links-between-paper-and-code": "links-between-papers-and-code"}


def dump_kind(name: str) -> str | None:
    """The dump a file or folder name says it is, or None."""
    base = os.path.basename(name.rstrip("/"))
    for alias, kind in DUMP_ALIASES.items():
        if base.startswith(alias):
            return kind
    return next((kind for kind in DUMP_PREFIXES if base.startswith(kind)), None)


def _is_dump_folder(path: str) -> bool:
    return bool(dump_kind(path)) and any(
        n.endswith(".parquet") for _d, _s, names in os.walk(path) for n in names
    )


@dataclass(frozen=True)
class Snapshot:
    """The files of a load: their common directory, and names relative to it of its documents
    and of its archive dumps (a dump is a file, or a folder of Parquet shards).

    Names, not paths: at archive size (600,000 files) full path strings and ``Path``
    objects would hold about 250 MB; names relative to the root hold a fifth of that.
    The names are sorted so that reports read the same way every run; the result of a
    load does not depend on this order. A name is also what errors call the file.
    """

    root: str
    names: list[str]
    dumps: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.names) + len(self.dumps)

    def path(self, name: str) -> Path:
        return Path(self.root, name)


def discover(paths: list[str | Path]) -> Snapshot:
    """Every snapshot document and archive dump under ``paths`` (files, or directories searched
    recursively; a folder named like a dump that holds .parquet files is that dump's shards)."""
    found: list[tuple[str, list[str]]] = []  # (directory, names of documents directly in it)
    dumps: list[str] = []  # absolute paths
    for raw in paths:
        path = os.path.abspath(raw)
        if not os.path.exists(path):
            raise SnapshotError(str(raw), "", "no such file or directory")
        if os.path.isdir(path):
            if _is_dump_folder(path):
                dumps.append(path)
                continue
            before = (len(found), len(dumps))
            for directory, subdirs, names in os.walk(path):
                for sub in list(subdirs):
                    if _is_dump_folder(os.path.join(directory, sub)):
                        dumps.append(os.path.join(directory, sub))
                        subdirs.remove(sub)
                names = [n for n in names if os.path.isfile(os.path.join(directory, n))]
                dumps += [
                    os.path.join(directory, n) for n in names if dump_kind(n) and n.endswith(DUMP_SUFFIXES)
                ]
                names = [n for n in names if n.endswith(SUFFIXES) and not dump_kind(n)]
                if names:
                    found.append((directory, names))
            if (len(found), len(dumps)) == before:
                raise SnapshotError(str(raw), "", "directory holds no .json, .json.gz or dump file")
        elif dump_kind(path) and path.endswith(DUMP_SUFFIXES):
            dumps.append(path)
        elif path.endswith(SUFFIXES):
            found.append((os.path.dirname(path), [os.path.basename(path)]))
        else:
            raise SnapshotError(str(raw), "", "expected a .json or .json.gz file, or an archive dump")
    if not found and not dumps:
        return Snapshot(root="", names=[])
    root = os.path.commonpath([directory for directory, _ in found] + [os.path.dirname(d) for d in dumps])
    names: set[str] = set()
    for directory, inside in found:
        prefix = os.path.relpath(directory, root)
        names.update(inside if prefix == "." else (f"{prefix}/{n}" for n in inside))
    return Snapshot(root=root, names=sorted(names), dumps=sorted({os.path.relpath(d, root) for d in dumps}))


@dataclass
class RawDocument:
    path: Path
    name: str  # what errors call the file
    sha256: str
    value: object
    # Whether the text escapes a NUL or a surrogate (the only ways JSON can carry them):
    # only then do strings need checking one by one.
    may_hold_bad_chars: bool = True


_RISKY_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def _no_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r} in one object")
        seen[key] = value
    return seen


def _no_constants(name):
    raise ValueError(f"{name} is not a JSON number")


def read(path: Path, name: str | None = None) -> RawDocument:
    """Read one file: gunzip if named .gz, decode UTF-8 (a BOM is allowed), parse JSON.

    ``name`` is what errors call the file (its name within the load; default: its own name).
    """
    data = path.read_bytes()
    name = name or path.name
    return parse(path, name, data, checksum(name, data))


def checksum(name: str, data: bytes) -> str:
    """The SHA-256 of a file's bytes as stored (compressed or not): what a load remembers.

    Bytes already loaded under another name are skipped unparsed by a reload, so whether
    they are gzip must agree with this file's name here, before that shortcut.
    """
    if name.endswith(".gz") != data.startswith(_GZIP_MAGIC):
        if name.endswith(".gz"):
            raise SnapshotError(name, "", "not a valid gzip file (no gzip header)")
        raise SnapshotError(name, "", "gzip-compressed, but not named .json.gz")
    return hashlib.sha256(data).hexdigest()


_GZIP_MAGIC = b"\x1f\x8b"


def parse(path: Path, name: str, data: bytes, sha: str) -> RawDocument:
    """``read`` for bytes already read (a reload checks the checksum first, then parses)."""
    if path.name.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise SnapshotError(name, "", f"not a valid gzip file ({exc})") from None
    if not data.strip():
        raise SnapshotError(name, "", "empty file: expected a JSON document")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SnapshotError(name, "", f"not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise SnapshotError(
            name, "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise SnapshotError(name, "", f"invalid JSON: {exc}") from None
    return RawDocument(
        path=path, name=name, sha256=sha, value=value, may_hold_bad_chars=bool(_RISKY_ESCAPE.search(text))
    )
