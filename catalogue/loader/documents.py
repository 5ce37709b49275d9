"""Finding snapshot files and reading each into a JSON value, with clear errors.

Every error is a :class:`SnapshotError` whose text starts with the file's name and,
where one is to blame, the JSON path of the field: ``001_x.json: samples[3].status: …``.
"""

import codecs
import gzip
import hashlib
import itertools
import json
import os
import re
import zlib
from array import array
from collections.abc import Iterable, Sequence
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


class FileNames(Sequence[str]):
    """Sorted file names, held as one UTF-8 buffer and an array of offsets.

    At archive size (575,227 files) a list of ``str`` holds 41 MB in the loading process, for
    the whole load; this holds 20 MB. Slicing gives a plain list: what a reading worker is sent.
    """

    def __init__(self, names: Iterable[str] = ()):
        encoded = [name.encode("utf-8", "surrogateescape") for name in names]
        self._data = b"".join(encoded)
        self._ends = array("Q", itertools.accumulate(map(len, encoded)))

    def __len__(self) -> int:
        return len(self._ends)

    def _name(self, index: int) -> str:
        start = self._ends[index - 1] if index else 0
        return self._data[start : self._ends[index]].decode("utf-8", "surrogateescape")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._name(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._name(index)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"FileNames({list(self)!r})"


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
    names: Sequence[str]  # FileNames, from ``discover``
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
        if not os.path.isdir(path) and not os.path.isfile(path):  # read, it could hang or never end
            raise SnapshotError(str(raw), "", "not a regular file or folder (a FIFO, a device, a socket)")
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
    relative: set[str] = set()
    for directory, inside in found:
        prefix = os.path.relpath(directory, root)
        relative.update(inside if prefix == "." else (f"{prefix}/{n}" for n in inside))
    return Snapshot(
        root=root, names=FileNames(sorted(relative)), dumps=sorted({os.path.relpath(d, root) for d in dumps})
    )


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


# One set of rules for every JSON text the loader reads, a document or a dump's record (``archive``):
# nested no deeper than this (an array or object counts a level), and no larger than the per-file cap
# (``MAX_DOCUMENT_BYTES``, a dump's per record). Checked on the text before anything is built from it
# (Python's decoder also stops by itself near 1,500 levels, without building the rest).
MAX_DEPTH = 512
_STRING_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_LEVELS = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def too_deep(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether the JSON text (``text[start:end]``) nests deeper than ``MAX_DEPTH``. Counting its
    brackets is enough for nearly every text; only one with more than ``MAX_DEPTH`` of them is
    measured: strings taken out, then the running sum of +1 per opening and -1 per closing bracket."""
    end = len(text) if end is None else end
    if text.count("[", start, end) + text.count("{", start, end) <= MAX_DEPTH:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING_TOKEN.sub("", text[start:end]))
    steps = array("b", brackets.translate(_LEVELS).encode("latin-1"))
    return max(itertools.accumulate(steps), default=0) > MAX_DEPTH


def too_deep_message() -> str:
    return f"nested deeper than {MAX_DEPTH} levels"


def _no_duplicate_keys(pairs):
    # Built in C, then its size compared: a duplicate key made it smaller. Three times faster than
    # a test per key, in Python (reading a 100,000-paper dump: bench/README.md, issue 34).
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        key = next(key for key, _value in pairs if key in seen or seen.add(key))
        raise ValueError(f"duplicate key {key!r} in one object")
    return out


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


# A document larger than this (its JSON text, gunzipped) is refused: loading one takes
# several times its size in memory, and a page shows it whole. ``load_snapshot --max-file-mb``
# raises it for a load (``LOAD_MAX_FILE_MB`` in the environment, in MB, for every load).
MAX_DOCUMENT_BYTES = int(os.environ.get("LOAD_MAX_FILE_MB", "64")) * 2**20
# Larger documents are read streaming (``documents.stream``), their samples a batch at a time.
STREAM_FROM_BYTES = 8 * 2**20


def check_size(name: str, size: int, limit: int | None = None) -> None:
    limit = MAX_DOCUMENT_BYTES if limit is None else limit
    if size > limit:
        raise SnapshotError(
            name,
            "",
            f"larger than the per-file cap of {limit // 2**20} MB as JSON text"
            " (load_snapshot --max-file-mb raises it)",
        )


def text_size(path: Path) -> int:
    """A document's size as JSON text, as far as it can be known without reading it: its own
    size, or for gzip what its trailer says (only a hint: gunzipping counts for the cap)."""
    size = path.stat().st_size
    if path.name.endswith(".gz") and size >= 18:
        with open(path, "rb") as handle:
            handle.seek(-4, os.SEEK_END)
            return max(size, int.from_bytes(handle.read(4), "little"))
    return size


def _gunzip(name: str, data: bytes, limit: int) -> bytes:
    """The gunzipped bytes, every member; never more than the cap (a small file can unzip huge)."""
    out, room = [], limit + 1
    try:
        while data and room > 0:
            unzip = zlib.decompressobj(wbits=31)
            out.append(unzip.decompress(data, room))
            room -= len(out[-1])
            if room > 0 and not unzip.eof:
                raise EOFError("Compressed file ended before the end-of-stream marker was reached")
            data = unzip.unused_data.lstrip(b"\0") if room > 0 else b""
    except (OSError, EOFError, zlib.error) as exc:
        raise SnapshotError(name, "", f"not a valid gzip file ({exc})") from None
    return b"".join(out)


def parse(path: Path, name: str, data: bytes, sha: str, limit: int | None = None) -> RawDocument:
    """``read`` for bytes already read (a reload checks the checksum first, then parses).

    ``limit``: the per-file cap (default ``MAX_DOCUMENT_BYTES``)."""
    limit = MAX_DOCUMENT_BYTES if limit is None else limit
    if path.name.endswith(".gz"):
        data = _gunzip(name, data, limit)
    check_size(name, len(data), limit)
    if not data.strip():
        raise SnapshotError(name, "", "empty file: expected a JSON document")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SnapshotError(name, "", f"not UTF-8 text (byte {exc.start})") from None
    try:
        if too_deep(text):
            raise SnapshotError(name, "", too_deep_message())
        value = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise SnapshotError(
            name, "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise SnapshotError(name, "", too_deep_message()) from None
    except ValueError as exc:
        raise SnapshotError(name, "", f"invalid JSON: {exc}") from None
    return RawDocument(
        path=path, name=name, sha256=sha, value=value, may_hold_bad_chars=bool(_RISKY_ESCAPE.search(text))
    )


# --- documents too large to hold whole: read streaming ------------------------------------------

_CHUNK = 1 << 20
_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
_WHITESPACE = " \t\n\r"


def file_checksum(path: Path, name: str) -> str:
    """``checksum`` of a file read a chunk at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        head = handle.read(2)
        checksum(name, head if len(head) == 2 else b"")  # gzip or not, as its name says
        digest.update(head)
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class _Text:
    """A document's JSON text, read a chunk at a time (gunzipped, UTF-8 decoded, a BOM allowed),
    and decoded a value at a time by ``json``'s own decoder, with the same rules and errors as a
    whole document (duplicate keys, constants); errors say the line and column in the whole text."""

    def __init__(self, path: Path, name: str, limit: int | None, gzipped: bool | None = None):
        """``limit``: the cap on the whole text (None: none, as for a dump, capped per record);
        ``gzipped``: whether to gunzip (None: as the name says)."""
        self.name, self.limit = name, limit
        raw = open(path, "rb")  # noqa: SIM115 (closed by close())
        if gzipped is None:
            gzipped = name.endswith(".gz")
        self.handle = gzip.GzipFile(fileobj=raw) if gzipped else raw
        self.raw = raw
        self.utf8 = _utf8_decoder()
        self.bytes_read = 0
        self.first = True
        self.buf, self.pos, self.eof = "", 0, False
        self.line, self.column = 1, 1  # where buf[0] is in the whole text

    def close(self):
        self.handle.close()
        self.raw.close()

    def more(self, at_least: int = _CHUNK) -> None:
        """Read on: at least ``at_least`` more bytes (a value longer than a chunk doubles it)."""
        dropped = self.buf[: self.pos]
        if dropped:
            newlines = dropped.count("\n")
            self.line += newlines
            self.column = (len(dropped) - dropped.rfind("\n")) if newlines else self.column + len(dropped)
            self.buf, self.pos = self.buf[self.pos :], 0
        try:
            data = self.handle.read(max(at_least, _CHUNK))
        except (OSError, EOFError, zlib.error) as exc:
            raise SnapshotError(self.name, "", f"not a valid gzip file ({exc})") from None
        if self.first:  # a BOM is allowed (and not counted), as parse's utf-8-sig does
            self.first = False
            data = data.removeprefix(codecs.BOM_UTF8)
        pending = len(self.utf8.getstate()[0])  # bytes of a character cut by the last chunk
        start = self.bytes_read - pending  # where what is decoded now starts
        self.bytes_read += len(data)
        if self.limit is not None:
            check_size(self.name, self.bytes_read, self.limit)
        try:
            self.buf += self.utf8.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise SnapshotError(self.name, "", f"not UTF-8 text (byte {start + exc.start})") from None
        self.eof = not data

    def skip_ws(self) -> str:
        """The next character that is not whitespace ('' at the end of the text)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if self.eof:
                return ""
            self.more()

    def fail(self, message: str, pos: int | None = None) -> None:
        pos = self.pos if pos is None else pos
        before = self.buf[:pos]
        newlines = before.count("\n")
        line = self.line + newlines
        column = pos - before.rfind("\n") if newlines else self.column + pos
        raise SnapshotError(self.name, "", f"invalid JSON at line {line} column {column}: {message}")

    def expect(self, char: str, message: str) -> None:
        if self.skip_ws() != char:
            self.fail(message)
        self.pos += 1

    def value(self):
        """The next JSON value, decoded whole."""
        self.skip_ws()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                cut = exc.pos >= len(self.buf) - 8 or exc.msg.startswith("Unterminated string")
                if cut and not self.eof:  # the value runs on past what is read so far
                    self.more(len(self.buf) - self.pos)
                    continue
                self.fail(exc.msg, exc.pos)
            except RecursionError:
                raise SnapshotError(self.name, "", too_deep_message()) from None
            except ValueError as exc:
                raise SnapshotError(self.name, "", f"invalid JSON: {exc}") from None
            if end == len(self.buf) and not self.eof:  # a number may go on in the next chunk
                self.more(len(self.buf) - self.pos)
                continue
            if too_deep(self.buf, self.pos, end):
                raise SnapshotError(self.name, "", too_deep_message())
            self.pos = end
            return value


def _utf8_decoder():
    return codecs.getincrementaldecoder("utf-8")("strict")


def stream_members(path: Path, name: str, streamed: str, limit: int | None = None):
    """A document's top-level members in order, as (key, value); the list ``streamed`` comes as
    (key, an iterator of its items), to be read through before the next member.

    Checks what ``parse`` checks, as it reads: a document read through is one ``parse`` accepts,
    and one it refuses is refused with the same error.
    """
    text = _Text(path, name, MAX_DOCUMENT_BYTES if limit is None else limit)
    try:
        if text.skip_ws() == "":
            raise SnapshotError(name, "", "empty file: expected a JSON document")
        if text.skip_ws() != "{":  # not an object: decoded whole, as parse would (and refused later)
            yield None, text.value()
        else:
            yield from _members(text, streamed)
        if text.skip_ws() != "":
            text.fail("Extra data")
    finally:
        text.close()


def _members(text: _Text, streamed: str):
    seen = set()
    for _ in _elements(text, "}"):
        if text.skip_ws() != '"':
            text.fail("Expecting property name enclosed in double quotes")
        key = text.value()
        if key in seen:
            raise SnapshotError(text.name, "", f"invalid JSON: duplicate key {key!r} in one object")
        seen.add(key)
        text.expect(":", "Expecting ':' delimiter")
        if key == streamed and text.skip_ws() == "[":
            items = _items(text)
            yield key, items
            for _ in items:  # what the caller did not read is still checked
                pass
        else:
            yield key, text.value()


def _items(text: _Text):
    for _ in _elements(text, "]"):
        yield text.value()


def _elements(text: _Text, close: str):
    """An object's or array's elements (``close``: its closing bracket): the caller reads one
    element at each step; the brackets and commas between them are read and checked here."""
    text.pos += 1
    if text.skip_ws() == close:
        text.pos += 1
        return
    while True:
        yield
        char = text.skip_ws()
        text.pos += 1
        if char == close:
            return
        if char != ",":
            text.fail("Expecting ',' delimiter", text.pos - 1)
