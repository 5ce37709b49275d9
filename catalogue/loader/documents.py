"""Finding snapshot files and reading each into a JSON value, with clear errors.

Every error is a :class:`SnapshotError` whose text starts with the file's name and,
where one is to blame, the JSON path of the field: ``001_x.json: samples[3].status: …``.
"""

import gzip
import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path


class SnapshotError(Exception):
    """Bad input: names the file, the field and what was expected."""

    def __init__(self, file: str, path: str, message: str):
        self.file, self.path, self.message = file, path, message
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(where + message)

    def __reduce__(self):  # errors travel back from reading workers
        return type(self), (self.file, self.path, self.message)


SUFFIXES = (".json", ".json.gz")


def discover(paths: list[str | Path]) -> list[Path]:
    """Every snapshot file under ``paths`` (files, or directories searched recursively).

    Sorted by path so that reports read the same way every run; the result of a load
    does not depend on this order.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise SnapshotError(str(path), "", "no such file or directory")
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(SUFFIXES))
            if not inside:
                raise SnapshotError(str(path), "", "directory holds no .json or .json.gz file")
            found.extend(inside)
        elif path.name.endswith(SUFFIXES):
            found.append(path)
        else:
            raise SnapshotError(str(path), "", "expected a .json or .json.gz file")
    return [Path(p) for p in sorted({str(p) for p in found})]


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


def display_name(path: Path, root: str | None) -> str:
    """The file's name relative to the common root of a load (string work: pathlib is slow here)."""
    text = str(path)
    return text[len(root) :].lstrip("/") if root and text.startswith(root) else path.name


def read(path: Path, display_root: str | None = None) -> RawDocument:
    """Read one file: gunzip if named .gz, decode UTF-8 (a BOM is allowed), parse JSON."""
    name = display_name(path, display_root)
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
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
