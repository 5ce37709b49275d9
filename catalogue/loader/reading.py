"""Reading and checking snapshot files, in worker processes when there are many.

Reading, checking and flattening documents is pure Python and CPU-bound; writing the
staging tables is the database's work. With many files, worker processes do the
first part while the loading process writes, so a load uses every core. Results come
back in file order, so reports read the same way however many workers ran.

Workers are started with ``forkserver``: a forked copy of a process holding an open
database connection could close that connection under its parent.
"""

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from catalogue import loadworker
from catalogue.loader.documents import SnapshotError

# Below this many files a pool costs more to start than it saves.
PARALLEL_FROM_FILES = 256
CHUNK_FILES = 64


@dataclass
class FileOutcome:
    path: str
    sha256: str = ""
    url: str = ""
    status: str = ""  # loaded | already_loaded | skipped (bad, with --keep-going)
    error: str = ""


@dataclass
class ReadResult:
    outcome: FileOutcome
    tuples: dict[str, list[tuple]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: SnapshotError | None = None


def read_one(path: Path, root: str | None, known: set[int], vendor: str) -> ReadResult:
    """Read, check and flatten one file; errors are returned, not raised."""
    from catalogue.loader import documents, staging, validate

    raw = None
    try:
        raw = documents.read(path, root)
        outcome = FileOutcome(path=raw.name, sha256=raw.sha256)
        if int(raw.sha256[:16], 16) in known:
            outcome.status = "already_loaded"
            return ReadResult(outcome)
        parsed = validate.parse(raw)
    except SnapshotError as exc:
        name = raw.name if raw else documents.display_name(path, root)
        outcome = FileOutcome(path=name, sha256=raw.sha256 if raw else "", status="skipped", error=str(exc))
        return ReadResult(outcome, error=exc)
    outcome.url, outcome.status = parsed.url, "loaded"
    return ReadResult(outcome, staging.as_tuples(parsed.rows, vendor), parsed.warnings)


def default_workers() -> int:
    configured = os.environ.get("LOAD_WORKERS")
    if configured is not None:
        return max(0, int(configured))
    return min(os.cpu_count() or 1, 4)


def read_all(
    files: list[Path], root: str | None, known: set[int], vendor: str, workers: int | None = None
) -> Iterator[ReadResult]:
    """Every file's result, in order; in ``workers`` processes when there are enough files."""
    workers = default_workers() if workers is None else workers
    if workers < 2 or len(files) < PARALLEL_FROM_FILES:
        for path in files:
            yield read_one(path, root, known, vendor)
        return
    chunks = [files[i : i + CHUNK_FILES] for i in range(0, len(files), CHUNK_FILES)]
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=loadworker.start, initargs=(known,)
    ) as pool:
        try:
            for results in pool.map(
                loadworker.read_chunk, chunks, [root] * len(chunks), [vendor] * len(chunks)
            ):
                yield from results
        finally:
            pool.shutdown(cancel_futures=True)
