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
from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from catalogue import loadworker
from catalogue.loader.documents import Snapshot, SnapshotError
from catalogue.models.vocabulary import LoadFileStatus

# Below this many files a pool costs more to start than it saves.
PARALLEL_FROM_FILES = 256
CHUNK_FILES = 64
IN_FLIGHT_PER_WORKER = 4


@dataclass
class FileOutcome:
    path: str
    sha256: str = ""
    url: str = ""
    status: str = ""  # a LoadFileStatus: loaded | already_loaded | skipped (bad, with --keep-going)
    error: str = ""


@dataclass
class ReadResult:
    outcome: FileOutcome | None  # None: a batch of a dump's records, the dump not read to its end
    tuples: dict[str, list[tuple]] = field(default_factory=dict)
    warnings: list = field(default_factory=list)  # LoadWarning, or plain text (``warnings.as_warning``)
    error: SnapshotError | None = None
    # Too large to read whole: the loading process streams it (``streaming``), not a worker.
    stream: bool = False
    name: str = ""  # of a batch: the file it is of
    records: int = 0  # records read: a dump's batch's, 1 for a document read


class KnownDocuments:
    """The 64-bit prefixes of the checksums of every document already loaded.

    A sorted ``array`` (8 bytes a document: 4.6 MB at 575,000 documents, against about
    50 MB for a ``set`` of ints) that each reading worker gets a copy of.
    """

    def __init__(self, prefixes=()):
        self.sorted = prefixes if isinstance(prefixes, array) else array("Q", sorted(prefixes))
        self.read: set[str] = set()  # this load's: in the loading process, the checksums read so far

    @staticmethod
    def prefix(sha256: str) -> int:
        return int(sha256[:16], 16)

    def add(self, sha256: str) -> None:
        """A file this load has read: the same content again (another copy, in another folder) is
        known, and read once."""
        self.read.add(sha256)

    def __contains__(self, sha256: str) -> bool:
        if sha256 in self.read:
            return True
        key = self.prefix(sha256)
        i = bisect_left(self.sorted, key)
        return i < len(self.sorted) and self.sorted[i] == key

    def __len__(self) -> int:
        return len(self.sorted)


def read_one(
    snapshot: Snapshot, name: str, known: KnownDocuments, vendor: str, limit: int | None = None
) -> ReadResult:
    """Read, check and flatten one file; errors are returned, not raised. ``limit``: the
    per-file cap (``documents.MAX_DOCUMENT_BYTES``); a file over ``STREAM_FROM_BYTES`` is
    only marked ``stream``."""
    from catalogue.loader import documents, staging, validate

    raw = None
    try:
        path = snapshot.path(name)
        try:
            size = documents.text_size(path)
            if not name.endswith(".gz"):  # gzip's own count is only a hint: its text is counted
                documents.check_size(name, size, limit)
            if size > documents.STREAM_FROM_BYTES:
                return ReadResult(FileOutcome(path=name), stream=True)
            data = path.read_bytes()
        except OSError as exc:
            raise SnapshotError(name, "", f"cannot read: {exc.strerror or exc}") from None
        sha = documents.checksum(name, data)
        if sha in known:  # nothing in it can change the catalogue: not even parsed
            return ReadResult(FileOutcome(path=name, sha256=sha, status=LoadFileStatus.ALREADY_LOADED))
        raw = documents.parse(path, name, data, sha, limit)
        outcome = FileOutcome(path=raw.name, sha256=raw.sha256)
        parsed = validate.parse(raw)
    except SnapshotError as exc:
        outcome = FileOutcome(
            path=name, sha256=raw.sha256 if raw else "", status=LoadFileStatus.SKIPPED, error=str(exc)
        )
        return ReadResult(outcome, error=exc)
    outcome.url, outcome.status = parsed.url, LoadFileStatus.LOADED
    return ReadResult(outcome, staging.as_tuples(parsed.rows, vendor), parsed.warnings, records=1)


def default_workers() -> int:
    configured = os.environ.get("LOAD_WORKERS")
    if configured is not None:
        return max(0, int(configured))
    return min(os.cpu_count() or 1, 4)


def _reading_pool(workers: int, root: str, known_sorted, limit: int | None) -> ProcessPoolExecutor:
    """Reading workers (``loadworker``), started by a forkserver that dies with the load."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["catalogue.loadforkserver"])
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=loadworker.start, initargs=(root, known_sorted, limit)
    )


def read_all(
    snapshot: Snapshot, known: KnownDocuments, stage, workers: int | None = None, limit: int | None = None
) -> Iterator[ReadResult]:
    """Every file's result, in order; in ``workers`` processes when there are enough files.

    A file too large to read whole comes as several results, a batch of its rows each, then its
    outcome (``streaming``); the staging tables ``stage`` lose its rows again if it fails.

    At most ``IN_FLIGHT_PER_WORKER`` chunks per worker are submitted ahead of the one being
    consumed: workers that read faster than the database writes wait instead of piling
    their results up in this process (``Executor.map`` would submit every chunk at once).
    """
    from catalogue.loader.streaming import read_streamed

    def streamed(results):
        for result in results:
            if result.stream:
                yield from read_streamed(
                    snapshot.path(result.outcome.path), result.outcome.path, known, stage, limit
                )
            else:
                yield result

    vendor = stage.vendor
    workers = default_workers() if workers is None else workers
    names = snapshot.names
    if workers < 2 or len(names) < PARALLEL_FROM_FILES:
        yield from streamed(read_one(snapshot, name, known, vendor, limit) for name in names)
        return
    with _reading_pool(workers, snapshot.root, known.sorted, limit) as pool:
        pending: deque = deque()
        starts = iter(range(0, len(names), CHUNK_FILES))
        try:
            while True:
                while len(pending) < workers * IN_FLIGHT_PER_WORKER:
                    start = next(starts, None)
                    if start is None:
                        break
                    pending.append(
                        pool.submit(loadworker.read_chunk, names[start : start + CHUNK_FILES], vendor)
                    )
                if not pending:
                    return
                yield from streamed(pending.popleft().result())
        finally:
            pool.shutdown(cancel_futures=True)


# Below this many records in the dumps' parts, a pool costs more to start than it saves.
PARALLEL_FROM_RECORDS = 8000
# Parts of a dump read ahead per worker: each is ``archive.PART_RECORDS`` records of rows waiting
# in this process (1,000 papers: about 1 MB pickled).
PARTS_IN_FLIGHT_PER_WORKER = 2


@dataclass(eq=False)
class _Dump:
    """A dump to read: its name, the dump, its checksum, and how it is read (``archive.parts``)."""

    name: str
    dump: object
    sha256: str
    parts: list

    @property
    def split(self) -> bool:
        from catalogue.loader import archive

        return self.parts != [archive.WHOLE]


def read_dumps(
    snapshot: Snapshot, known: KnownDocuments, stage, workers: int | None = None, limit: int | None = None
) -> Iterator[ReadResult]:
    """The archive dumps of the load, a batch of records at a time, each dump's outcome after its batches.

    A Parquet dump of ``archive.BY_RECORD`` records (papers, code links) is read in parts: when
    there are enough of them, by ``workers`` processes, this one among them (see below), while
    this one also writes what the others send back; everything else is streamed in this process.
    A dump that fails part way (invalid JSON at record 400,000) has had batches staged already:
    they are taken out of the staging tables again (by the dump's stamp), so that a skipped dump
    leaves nothing behind.
    """
    from catalogue.loader import archive, archive_rows

    if snapshot.dumps:
        archive.use_system_allocator()
    workers = default_workers() if workers is None else workers
    plans = _plan_dumps(snapshot, known)
    jobs = [(plan, part) for plan in plans if isinstance(plan, _Dump) and plan.split for part in plan.parts]
    if workers < 2 or len(jobs) * archive.PART_RECORDS < PARALLEL_FROM_RECORDS:
        yield from _read_dumps(
            plans, stage, lambda plan, part: archive_rows.read(plan.dump, plan.sha256, part, limit)
        )
        return
    # This process reads too, between writing what the others send back (and it reads the whole
    # dumps): one reading process fewer, and one process's memory less (each holds 130-180 MB), so
    # that on 2 cores the 576,000-paper dumps load in under 500 MB. As writing takes it about half
    # as long as reading, it reads one part in 2 × readers + 1 (on 2 cores: one in 3).
    readers = workers - 1
    share = 2 * readers + 1
    pooled = [job for k, job in enumerate(jobs) if k % share != share - 1]
    in_pool = set(pooled)
    with _reading_pool(readers, snapshot.root, array("Q"), None) as pool:
        ahead: deque = deque()  # (job, future), in the order they are wanted
        queue = iter(pooled)

        def read(plan, part):
            """A part from the pool (sending more ahead), or read here."""
            while True:
                while len(ahead) < readers * PARTS_IN_FLIGHT_PER_WORKER and (job := next(queue, None)):
                    sent = pool.submit(
                        loadworker.read_dump_part, job[0].dump, job[0].sha256, job[1], stage.vendor
                    )
                    ahead.append((job, sent))
                if (plan, part) not in in_pool:
                    return archive_rows.read(plan.dump, plan.sha256, part, limit)
                (sent_plan, sent_part), future = ahead.popleft()
                if sent_plan is plan and sent_part == part:
                    return future.result()
                future.cancel()  # a part of a dump that failed before it: not wanted

        try:
            yield from _read_dumps(plans, stage, read)
        finally:
            pool.shutdown(cancel_futures=True)


def _plan_dumps(snapshot: Snapshot, known: KnownDocuments) -> list[_Dump | ReadResult]:
    """Each dump of the load: how it is read (its parts), or its outcome where it is not read (its
    content is known already, or it cannot be opened)."""
    from catalogue.loader import archive

    plans: list[_Dump | ReadResult] = []  # a result: a dump known already, or one that cannot be read
    for name in snapshot.dumps:
        sha = ""
        try:
            dump = archive.open_dump(snapshot.root, name)
            sha = archive.checksum(dump)
            if sha in known:
                outcome = FileOutcome(
                    path=name, sha256=sha, url=dump.url, status=LoadFileStatus.ALREADY_LOADED
                )
                plans.append(ReadResult(outcome))
                continue
            known.add(sha)
            plans.append(_Dump(name, dump, sha, archive.parts(dump)))
        except SnapshotError as exc:
            outcome = FileOutcome(path=name, sha256=sha, status=LoadFileStatus.SKIPPED, error=str(exc))
            plans.append(ReadResult(outcome, error=exc))
    return plans


def _read_dumps(plans, stage, read) -> Iterator[ReadResult]:
    """Each dump's batches as results, then its outcome; a failure takes its staged rows out again.
    ``read(plan, part)`` gives a part's batches: ``Parsed`` ones, or (from a worker) results."""
    from catalogue.loader import staging
    from catalogue.loader.fields import make_stamp

    for plan in plans:
        if isinstance(plan, ReadResult):
            yield plan
            continue
        try:
            for part in plan.parts:
                for batch in read(plan, part):
                    if isinstance(batch, ReadResult):
                        if batch.error:
                            raise batch.error
                        yield batch
                    else:
                        tuples = staging.as_tuples(batch.rows, stage.vendor)
                        yield ReadResult(None, tuples, batch.warnings, name=plan.name, records=batch.records)
        except SnapshotError as exc:
            stage.discard(make_stamp(plan.dump.read_at, plan.sha256))
            outcome = FileOutcome(
                path=plan.name, sha256=plan.sha256, status=LoadFileStatus.SKIPPED, error=str(exc)
            )
            yield ReadResult(outcome, error=exc)
            continue
        yield ReadResult(
            FileOutcome(path=plan.name, sha256=plan.sha256, url=plan.dump.url, status=LoadFileStatus.LOADED)
        )
