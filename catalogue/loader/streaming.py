"""Code-entry documents too large to hold whole, read a batch of samples at a time.

A document is read twice, never whole: once to check it as JSON and keep its members but
``samples`` (``documents.stream_members``), then again for its samples, which the validator
turns into rows a batch at a time (``validate.parse_streamed``): the same checks, rows and
warnings as a document read whole, in memory that does not grow with the number of samples
but for what its figures count (``CompactPlaces``).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from pathlib import Path

from catalogue import figures
from catalogue.loader import documents, staging, validate
from catalogue.loader.documents import SnapshotError
from catalogue.models.vocabulary import LoadFileStatus

BATCH_SAMPLES = 2000
STREAMED = "samples"


class CompactPlaces:
    """A document's places as its figures read them, some 20 bytes each instead of a dict's 1 KB:
    what the figures count distinct (bodies, papers) by its 64-bit hash, a collision being
    negligible; what their conditions test (status, inline_ok…) by its index among few values."""

    def __init__(self):
        definitions = figures.definitions(curated=False).values()
        counted = [figures.UNITS[f.unit] for f in definitions if isinstance(f, figures.Count)]
        self.hashed = sorted({unit for unit in counted if unit})
        self.tested = sorted({f.where.field for f in definitions if isinstance(f, figures.Count) and f.where})
        self.hashes = {key: array("q") for key in self.hashed}
        self.indexes = {key: array("B") for key in self.tested}
        self.values: dict[str, list] = {key: [] for key in self.tested}

    def append(self, place: dict) -> None:
        for key in self.hashed:
            value = place[key]
            self.hashes[key].append(_NONE if value is None else (hash(value) or 1))
        for key in self.tested:
            values, value = self.values[key], place[key]
            if value not in values:
                values.append(value)
            self.indexes[key].append(values.index(value))

    def __len__(self) -> int:
        return len(self.indexes[self.tested[0]])

    def __iter__(self) -> Iterator[dict]:
        for i in range(len(self)):
            place = {key: self.hashes[key][i] for key in self.hashed}
            for key in self.hashed:
                if place[key] == _NONE:
                    place[key] = None
            for key in self.tested:
                place[key] = self.values[key][self.indexes[key][i]]
            yield place


_NONE = 0  # no unit (a place without a repository); a real hash of 0 is taken as 1


def read_streamed(path: Path, name: str, known, stage, limit: int | None = None):
    """One document, streamed: ``ReadResult``s of a batch of rows each, then its outcome.

    A document that fails once rows are staged has them taken out again (``stage.discard``).
    """
    from catalogue.loader.reading import FileOutcome, ReadResult

    sha, stamp = "", None
    try:
        sha = documents.file_checksum(path, name)
        if sha in known:
            yield ReadResult(FileOutcome(path=name, sha256=sha, status=LoadFileStatus.ALREADY_LOADED))
            return
        head, streamed = _head(path, name, limit)
        if not streamed or not isinstance(head, dict) or not str(head.get("url", "")).startswith("/code/"):
            # Not a code entry's list of samples: read whole, as any document (within the cap).
            raw = documents.parse(path, name, path.read_bytes(), sha, limit)
            parsed = validate.parse(raw)
            yield ReadResult(
                FileOutcome(path=name, sha256=sha, url=parsed.url, status=LoadFileStatus.LOADED),
                staging.as_tuples(parsed.rows, stage.vendor),
                parsed.warnings,
            )
            return
        raw = documents.RawDocument(path=path, name=name, sha256=sha, value=head)
        samples = _samples(path, name, limit)
        url = ""
        for parsed in validate.parse_streamed(raw, samples, CompactPlaces(), BATCH_SAMPLES):
            stamp, url = parsed.stamp, parsed.url
            tuples = staging.as_tuples(parsed.rows, stage.vendor)
            yield ReadResult(None, tuples, list(parsed.warnings), name=name)
    except SnapshotError as exc:
        if stamp:
            stage.discard(stamp)
        yield ReadResult(
            FileOutcome(path=name, sha256=sha, status=LoadFileStatus.SKIPPED, error=str(exc)), error=exc
        )
        return
    yield ReadResult(FileOutcome(path=name, sha256=sha, url=url, status=LoadFileStatus.LOADED), records=1)


def _head(path: Path, name: str, limit) -> tuple[object, bool]:
    """The document's members but its samples, checked as JSON throughout; and whether it has
    a list of samples (read through, not kept)."""
    head: dict = {}
    streamed = False
    for key, value in documents.stream_members(path, name, STREAMED, limit):
        if key is None:  # not an object: refused by the validator, as when read whole
            return value, False
        if key == STREAMED and isinstance(value, Iterator):
            streamed = True
            for _ in value:
                pass
        else:
            head[key] = value
    return head, streamed


def _samples(path: Path, name: str, limit):
    for key, value in documents.stream_members(path, name, STREAMED, limit):
        if key == STREAMED and isinstance(value, Iterator):
            yield from value
