"""Loading snapshot documents into the catalogue: ``load_paths`` is the one entry point.

Documents are read and checked one at a time (never the whole snapshot in memory) and
their rows streamed into this connection's temporary staging tables; then one transaction
merges them set-wise (``merge.py``). Any error leaves the catalogue exactly as before: the
staging tables are private, and the merge rolls back; only the failed run's ``LoadRun`` is
written, afterwards. Reading comes before the transaction
so that on SQLite, where a write transaction holds the whole file's write lock, the site's
writers (curators' saves) wait for the merge only. ``load_snapshot`` is a thin command
around this.
"""

import contextlib
import fcntl
import itertools
import logging
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from catalogue.loader import documents, merge, shrink, staging
from catalogue.loader.documents import SnapshotError
from catalogue.loader.merge import keys, resolve
from catalogue.loader.reading import FileOutcome, KnownDocuments, read_all, read_dumps
from catalogue.loader.warnings import LoadWarning, as_warning
from catalogue.models import LoadFileStatus, LoadRun, SourceDocument

__all__ = ["LoadLocked", "LoadResult", "SnapshotError", "load_paths"]


logger = logging.getLogger("catalogue.loader")


class LoadLocked(Exception):
    """Another load is running against this database."""


class _DryRunRollback(Exception):
    pass


# Warnings kept word for word, in memory and in the run's record; beyond these only counted,
# by kind (a broken archive could warn once per document: 575,000 of them). 10,000 keeps a
# record under about 2 MB, and the API lists a run's warnings whole.
WARNINGS_KEPT = 10_000
# A kind's first files named in the report and the record.
FILES_PER_KIND = 3


@dataclass
class WarningKind:
    """One kind of warning in a load: how many, and the first files that gave one."""

    count: int = 0
    files: list[str] = field(default_factory=list)

    def note(self, warning: LoadWarning) -> None:
        self.count += 1
        if warning.file and len(self.files) < FILES_PER_KIND and warning.file not in self.files:
            self.files.append(warning.file)


@dataclass
class LoadResult:
    # Files by outcome (loaded | already_loaded | skipped). Each file's own row is a
    # LoadRunFile, written by the database, so memory does not grow with the snapshot.
    file_counts: Counter = field(default_factory=Counter)
    skipped: list[FileOutcome] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    warnings: list[LoadWarning] = field(default_factory=list)  # the first WARNINGS_KEPT
    warnings_dropped: int = 0
    warning_kinds: dict[str, WarningKind] = field(default_factory=dict)  # every warning, by kind
    dry_run: bool = False
    load_run_id: int | None = None
    collapsed_results: int = 0
    skipped_units: list = field(default_factory=list)  # (document url, record) skipped for a clash
    # Per kind of source (a DocumentKind): files, records read, rows skipped, and what the merge
    # says it gave (``merge.summary``): papers named and merged, results and code links.
    # per kind: files, records… (ints), and "dumps": url -> what that copy gave (for the shrink check)
    by_source: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Per archive dump this load read (by file): what it added, kept and removed of each table it
    # feeds, against the copy it replaces (``shrink``).
    by_dump: dict[str, "shrink.DumpChange"] = field(default_factory=dict)
    by_dump_read: dict[str, dict] = field(default_factory=dict)  # by file: what reading it gave

    @property
    def n_files(self) -> int:
        return sum(self.file_counts.values())

    def note(self, outcome: FileOutcome) -> None:
        self.file_counts[outcome.status] += 1
        if outcome.status == LoadFileStatus.SKIPPED:
            self.skipped.append(outcome)

    def note_read(self, read) -> None:
        """What a file, or a batch of a dump, gave its kind of source: records read, rows skipped."""
        kind = source_kind(
            read.outcome.path if read.outcome else read.name, read.outcome.url if read.outcome else ""
        )
        if kind is None:
            return
        tally = self.by_source.setdefault(kind, {})
        if read.outcome is not None and read.outcome.status == LoadFileStatus.LOADED:
            tally["files"] = tally.get("files", 0) + 1
        tally["records"] = tally.get("records", 0) + read.records
        skipped = sum(1 for w in read.warnings if getattr(w, "kind", "") == "row_skipped")
        tally["rows_skipped"] = tally.get("rows_skipped", 0) + skipped
        if documents.dump_kind(read.outcome.path if read.outcome else read.name):
            # per dump (``shrink``): records read, rows staged by table (its own row and the file's aside)
            gives = self.by_dump_read.setdefault(read.outcome.path if read.outcome else read.name, {})
            gives["records"] = gives.get("records", 0) + read.records
            rows = gives.setdefault("rows", {})
            for table, tuples in read.tuples.items():
                if table not in ("document", "file") and tuples:
                    rows[table] = rows.get(table, 0) + len(tuples)

    def note_clashes(self, clashes) -> None:
        """Clashes --keep-going settled by skipping what they involve: a warning each, the units listed."""
        self.skipped_units += sorted({unit for clash in clashes for unit in clash.units}, key=str)
        self.note_warnings(
            [
                LoadWarning("clash_skipped", "", f"skipped, as two sources claim one thing: {clash.message}")
                for clash in clashes
            ]
        )

    def note_warnings(self, warnings: list[LoadWarning | str], file: str = "") -> None:
        """``file``: the file whose reading gave ``warnings`` (of a plain string: ``as_warning``)."""
        for warning in (as_warning(w, file) for w in warnings):
            self.warning_kinds.setdefault(warning.kind, WarningKind()).note(warning)
            if len(self.warnings) < WARNINGS_KEPT:
                self.warnings.append(warning)
            else:
                self.warnings_dropped += 1

    @property
    def changed(self) -> bool:
        return any(c.get("created") or c.get("updated") or c.get("deleted") for c in self.counts.values())


Progress = Callable[[int, int, str], None]


def load_paths(
    paths: list[str | Path],
    *,
    dry_run: bool = False,
    keep_going: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    workers: int | None = None,
    max_file_bytes: int | None = None,
    allow_shrink: bool = False,
) -> LoadResult:
    """Load every snapshot file under ``paths``; all or nothing (see module docstring).

    ``force`` re-reads files whose exact content is already loaded (normally skipped:
    loading them again could change nothing). ``keep_going`` skips bad documents
    instead of failing, listing them in the result. ``workers`` processes read the
    files (default: one per core, from ``LOAD_WORKERS``; 0 reads in this process).
    ``max_file_bytes``: the per-file cap (default ``documents.MAX_DOCUMENT_BYTES``).
    ``allow_shrink`` accepts an archive dump that gives fewer than half the rows of any table the
    copy it replaces gave (refused otherwise, ``shrink``).

    Every run leaves a ``LoadRun``: a successful one in its own transaction; a dry run, and a
    failed one (whose error, a ``SnapshotError``, then carries the record's id as
    ``load_run_id``), once their transaction has rolled back. A load refused by the lock is
    not a run, and leaves none.
    """
    result = LoadResult(dry_run=dry_run)
    record = _Record(timezone.now(), paths)
    try:
        return _load(
            paths, result, record, dry_run, keep_going, force, progress, workers, max_file_bytes, allow_shrink
        )
    except LoadLocked:
        raise
    except (Exception, KeyboardInterrupt) as exc:
        result.load_run_id = None  # a record the merge began went with its rollback
        run_id = record.write(result, LoadRun.Outcome.FAILED, error=record.error_text(exc))
        if isinstance(exc, SnapshotError):
            exc.load_run_id = run_id
        raise
    finally:
        if record.stage is not None:
            record.stage.drop_quietly()


def _load(
    paths,
    result: LoadResult,
    record: "_Record",
    dry_run,
    keep_going,
    force,
    progress,
    workers,
    max_file_bytes,
    allow_shrink=False,
):
    """``load_paths``'s work; ``record`` learns the snapshot and its staging tables, for the run's record."""
    snapshot = documents.discover(paths)
    record.know(snapshot)
    with exclusive_load_lock():
        # Outside the transaction: these write only the temporary staging tables.
        stage = record.stage = staging.Staging()
        stage.create()
        known = KnownDocuments(
            ()
            if force
            else (
                KnownDocuments.prefix(sha)
                for sha in SourceDocument.objects.values_list("sha256", flat=True).iterator()
            )
        )
        _stage_all(snapshot, known, stage, result, keep_going, progress, workers, max_file_bytes)
        stage.flush()
        _merge_until_clear(result, record, stage, dry_run, keep_going, allow_shrink)
        if dry_run:
            result.load_run_id = record.write(result, LoadRun.Outcome.DRY_RUN)
    return result


def _stage_all(
    snapshot, known, stage, result: LoadResult, keep_going, progress, workers, max_file_bytes
) -> None:
    """Every file's and dump's rows into the staging tables, each outcome noted in ``result``; a
    bad file stops the load (unless ``keep_going``)."""
    # Closed here, by this thread, also when a bad file stops the load: left to the garbage
    # collector, the reading pool's shutdown could run in the pool's own thread and fail to join it.
    with (
        contextlib.closing(read_all(snapshot, known, stage, workers, max_file_bytes)) as files,
        contextlib.closing(read_dumps(snapshot, known, stage, workers, max_file_bytes)) as dumps,
    ):
        done = 0
        for read in itertools.chain(files, dumps):
            if read.outcome and read.outcome.status == LoadFileStatus.LOADED:
                if read.tuples and read.outcome.sha256 in known.read:
                    # The same content as a file this load read already (two copies of one
                    # document): read once; its rows would be the same rows twice.
                    outcome = replace(read.outcome, status=LoadFileStatus.ALREADY_LOADED)
                    read = replace(read, outcome=outcome, tuples={}, warnings=[], records=0)
                known.add(read.outcome.sha256)
            if read.error and not keep_going:
                # The file that stopped the load ends the failed run's list of files.
                stage.add(_file_row(replace(read.outcome, status=LoadFileStatus.ERROR)))
                raise read.error
            stage.add(read.tuples)
            result.note_warnings(read.warnings, read.outcome.path if read.outcome else read.name)
            result.note_read(read)
            if read.outcome is None:  # a batch of a dump's records; its file is not done yet
                continue
            outcome = read.outcome
            stage.add(_file_row(outcome))
            result.note(outcome)
            done += 1
            if progress:
                progress(done, len(snapshot), outcome.path)


def _merge_until_clear(
    result: LoadResult, record: "_Record", stage, dry_run, keep_going, allow_shrink
) -> None:
    """The merge; with ``keep_going``, again without what two sources claim at once (at most
    MERGE_ATTEMPTS times)."""
    for attempt in range(MERGE_ATTEMPTS):
        try:
            _merge(result, record, dry_run, allow_shrink)
            break
        except merge.Clashes as clashes:
            # Rolled back; the staging tables are outside the transaction and still hold everything.
            if not keep_going or attempt == MERGE_ATTEMPTS - 1:
                # Named by the files involved, as every refusal is (the catalogue's own side has none).
                files = ", ".join(clashes.files()) or "(snapshot)"
                messages = "\n  ".join(c.message for c in clashes.clashes)
                raise SnapshotError(
                    files, "", f"what two sources claim cannot both be:\n  {messages}"
                ) from None
            resolve.skip(clashes.units)
            stage.mark_skipped(clashes.units, clashes.clashes)
            result.note_clashes(clashes.clashes)
        except _DryRunRollback:
            break
        except IntegrityError as exc:
            # Every rule is meant to be checked before the database sees the rows; this is the net.
            raise SnapshotError(
                "(merge)", "", f"the database refused the load ({exc}); nothing was written"
            ) from None


def _file_row(outcome: FileOutcome) -> dict[str, list[tuple]]:
    """What became of a file, as its staged row (``stg_file``; the run's ``LoadRunFile`` later)."""
    return {"file": [(outcome.path, outcome.sha256, outcome.url, outcome.status, outcome.error)]}


def source_kind(name: str, url: str = "") -> str | None:
    """The kind of source (a ``DocumentKind``) a file is: a dump by its name, a document by its url."""
    from catalogue.loader.archive import KINDS

    if dump := documents.dump_kind(name):
        return KINDS[dump]
    for prefix, kind in (("/paper/", "paper"), ("/code/", "code_entry"), ("/corrections", "corrections")):
        if url.startswith(prefix):
            return kind
    return None


# A merge that meets clashes under --keep-going skips what they involve and merges again.
MERGE_ATTEMPTS = 3


def _merge(result: "LoadResult", record: "_Record", dry_run: bool, allow_shrink: bool = False) -> None:
    with transaction.atomic(), keys.checked_once():
        run = None
        if not dry_run:
            run = LoadRun.objects.create(started_at=record.started, outcome=LoadRun.Outcome.RUNNING)
            result.load_run_id = run.id
        changes = shrink.before_merge()
        result.note_warnings(shrink.repeated_records())
        report = merge.merge_all(run.id if run else None)
        shrink.after_merge(changes)
        result.by_dump = {change.file: change for change in changes}
        for change in changes:  # kept in the run's record, for the next copy's check
            change.gives = result.by_dump_read.get(change.file, {}) or _read_by_url(result, change.url)
            kind = source_kind(change.file)
            if kind:
                dumps = result.by_source.setdefault(kind, {}).setdefault("dumps", {})
                dumps[change.url] = {"records": 0, "rows": {}, **change.gives}
        _refuse_shrunk(result, changes, allow_shrink)
        result.counts = {label: c.as_dict() for label, c in report.counts.items()}
        result.collapsed_results = report.collapsed_results
        for kind, figures in report.by_source.items():
            result.by_source.setdefault(kind, {}).update(figures)
        result.note_warnings(report.warnings)
        if report.collapsed_results:
            collapsed = report.collapsed_results
            result.note_warnings(
                [
                    LoadWarning(
                        "results_collapsed",
                        "",
                        f"{collapsed} result rows were identical to another of their board: one with it",
                    )
                ]
            )
        if dry_run:
            raise _DryRunRollback
        run.finished_at = timezone.now()
        run.outcome = LoadRun.Outcome.SUCCEEDED
        run.counts = result.counts
        run.warnings = record.warnings(result)
        run.warning_kinds = record.warning_kinds(result)
        run.by_source = result.by_source
        run.save()
        _record_files(run.id, record.hidden)


def _read_by_url(result: "LoadResult", url: str) -> dict:
    """What reading gave the dump of ``url`` (named by its file, which may be relative to the root)."""
    from catalogue.loader.archive import Dump

    for name, gives in result.by_dump_read.items():
        if Dump(name, ()).url == url:
            return gives
    return {}


def _refuse_shrunk(result: "LoadResult", changes: list, allow_shrink: bool) -> None:
    """A dump that gives fewer than half the rows of a table the copy it replaces gave (none, at
    worst) is refused, with the counts: the whole load rolls back."""
    refused = []
    for change in changes:
        shrunk = change.shrunk()
        if not shrunk:
            continue
        records = change.gives.get("records", 0)
        if allow_shrink:
            result.note_warnings(
                [LoadWarning("shrink_accepted", change.file, f"{'; '.join(shrunk)} (--allow-shrink)")]
            )
            continue
        refused.append((change.file, f"{records:,} records read; {'; '.join(shrunk)}"))
    if refused:
        said = refused[0][1] if len(refused) == 1 else " | ".join(f"{file}: {what}" for file, what in refused)
        raise SnapshotError(
            ", ".join(file for file, _ in refused),
            "",
            f"{said}: refused; load_snapshot --allow-shrink accepts it",
        )


class _Record:
    """What a run's ``LoadRun`` says, and the writing of a dry run's or a failed run's.

    A record names files as the load does, but never where they sit on this server: the
    folders holding what the load was given are taken out of its files, warnings and error
    (``hidden``), so a file is named within the folder it was given in, or by its own name.

    A dry run's or a failed run's record is written after its transaction has rolled back:
    in autocommit, on the load's own connection, whose staging tables (``stage``, None until
    the load made them) hold the files read; on SQLite it takes the write lock for these few
    statements only. The record of a failure must not hide the failure: if the database
    cannot take it (the connection is gone), that is logged, and the load's own error stands.
    """

    def __init__(self, started, paths: list[str | Path]):
        self.started = started
        self.stage: staging.Staging | None = None
        self.folders = {os.path.dirname(os.path.abspath(p)) for p in paths} - {os.sep}
        self.hidden = sorted((folder + os.sep for folder in self.folders), key=len, reverse=True)

    def know(self, snapshot) -> None:
        """Names relative to the snapshot's root hold the folders above what was given when it came
        from several places (``tmp/a.json`` for /tmp/a.json loaded with /srv/b/): those go too."""
        if not snapshot.root:
            return
        above = {os.path.relpath(folder, snapshot.root) for folder in self.folders}
        self.hidden += sorted(
            (name + os.sep for name in above if name != "." and not name.startswith("..")),
            key=len,
            reverse=True,
        )

    def public(self, text: str) -> str:
        for folder in self.hidden:
            text = text.replace(folder, "")
        return text

    def warnings(self, result: LoadResult) -> list[str]:
        dropped = result.warnings_dropped
        return [self.public(str(w)) for w in result.warnings] + (
            [f"… and {dropped} more warnings (counted by kind)"] if dropped else []
        )

    def warning_kinds(self, result: LoadResult) -> dict:
        return {
            kind: {"count": tally.count, "files": [self.public(f) for f in tally.files]}
            for kind, tally in result.warning_kinds.items()
        }

    def error_text(self, exc: BaseException) -> str:
        """What a failed run says went wrong: a snapshot error's own words, else the exception's."""
        text = str(exc) if isinstance(exc, SnapshotError) else f"{type(exc).__name__}: {exc}".rstrip(": ")
        return self.public(text)[:ERROR_KEPT_CHARS]

    def write(self, result: LoadResult, outcome: str, error: str = "") -> int | None:
        try:
            run = LoadRun.objects.create(
                started_at=self.started,
                finished_at=timezone.now(),
                outcome=outcome,
                counts=result.counts if outcome == LoadRun.Outcome.DRY_RUN else {},
                warnings=self.warnings(result),
                warning_kinds=self.warning_kinds(result),
                by_source=result.by_source,
                error=error,
            )
        except DatabaseError as exc:  # one line: the load's own error is what the operator must see
            logger.error("the record of this load (%s) could not be written: %s", outcome, exc)
            return None
        if self.stage is not None:
            try:
                self.stage.flush_files()
                _record_files(run.id, self.hidden)
            except DatabaseError as exc:
                logger.error("the files of load record %s could not be recorded: %s", run.id, exc)
        return run.id


# A failure's text is kept whole up to here (a clash list at archive size can be long).
ERROR_KEPT_CHARS = 20_000


def _record_files(load_run_id: int, hidden: list[str]) -> None:
    """The run's files (``LoadRunFile``) from the staged outcomes, numbered in file order, copied
    by the database; and ``files_summary``: their number, their number by status, and the first
    FILES_SHOWN, problems first.

    ``hidden``: the folders taken out of the files' names and errors first (``_Record``).
    """
    with connection.cursor() as cur:
        for folder in hidden:
            cur.execute(
                "UPDATE stg_file SET path = replace(path, %s, ''), error = replace(error, %s, '')",
                [folder, folder],
            )
        fields = ("path", "sha256", "url", "status", "error")
        values = ", ".join(f"COALESCE({f}, '')" for f in fields)
        cur.execute(
            f"INSERT INTO catalogue_loadrunfile (run_id, seq, {', '.join(fields)})"
            f" SELECT %s, row_number() OVER (ORDER BY seq), {values} FROM stg_file",
            [load_run_id],
        )
        pairs = ", ".join(f"'{f}', {f}" for f in fields)
        problem = (
            f"CASE WHEN status IN ('{LoadFileStatus.ERROR}', '{LoadFileStatus.SKIPPED}') THEN 0 ELSE 1 END"
        )
        shown = f"SELECT * FROM stg_file ORDER BY {problem}, seq LIMIT {LoadRun.FILES_SHOWN}"
        by_status = "SELECT COALESCE(status, '') AS status, count(*) AS n FROM stg_file GROUP BY 1 ORDER BY 1"
        if connection.vendor == "postgresql":
            summary = (
                "jsonb_build_object("
                "'n_files', (SELECT count(*) FROM stg_file),"
                f" 'by_status', COALESCE((SELECT jsonb_object_agg(status, n) FROM ({by_status}) AS s),"
                " '{}'::jsonb),"
                f" 'shown', COALESCE((SELECT jsonb_agg(jsonb_build_object({pairs}) ORDER BY {problem}, seq)"
                f" FROM ({shown}) AS s), '[]'::jsonb))"
            )
        else:
            summary = (
                "json_object("
                "'n_files', (SELECT count(*) FROM stg_file),"
                # json(): a JSON value read through a subquery is text again until re-marked as JSON
                f" 'by_status', json((SELECT json_group_object(status, n) FROM ({by_status}))),"
                f" 'shown', json((SELECT json_group_array(json_object({pairs})) FROM ({shown}))))"
            )
        cur.execute(f"UPDATE catalogue_loadrun SET files_summary = {summary} WHERE id = %s", [load_run_id])
        _prune_file_lists(cur)


def _prune_file_lists(cur) -> None:
    """Only the newest ``LOAD_FILE_LISTS_KEPT`` runs keep their files as rows, so that reloading
    the archive every day does not add 575,000 rows a day for ever; older runs keep their
    ``files_summary``. Runs are numbered in the order they were recorded."""
    kept = settings.LOAD_FILE_LISTS_KEPT
    if kept:  # below the oldest run kept: no rows when fewer runs than that exist (NULL)
        cur.execute(
            "DELETE FROM catalogue_loadrunfile WHERE run_id <"
            " (SELECT id FROM catalogue_loadrun ORDER BY id DESC LIMIT 1 OFFSET %s)",
            [kept - 1],
        )


@contextlib.contextmanager
def exclusive_load_lock():
    """Refuse a second concurrent load. The lock dies with its holder: no stale locks.

    PostgreSQL: a session advisory lock. SQLite: ``flock`` on a file beside the database.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_try_advisory_lock(hashtext('catalogue.load_snapshot'))")
            if not cur.fetchone()[0]:
                raise LoadLocked("another load_snapshot is running against this database")
        try:
            yield
        finally:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_advisory_unlock(hashtext('catalogue.load_snapshot'))")
        return
    name = str(connection.settings_dict["NAME"])
    # Keyed on the file itself, not the path as written: a symlink must not make a second key.
    # (A hard link would; SQLite names its own journal by path, so such a database is unsafe anyway.)
    lock_path = f"{os.path.realpath(name)}.load-lock" if not name.startswith(("file:", ":memory:")) else None
    if lock_path is None:  # in-memory test databases: one process only
        yield
        return
    with open(lock_path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LoadLocked("another load_snapshot is running against this database") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
