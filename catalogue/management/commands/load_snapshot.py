"""``manage.py load_snapshot PATH [PATH…]``: load or refresh the catalogue from snapshot files."""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from catalogue.loader import LoadLocked, SnapshotError, load_paths
from catalogue.loader.documents import MAX_DOCUMENT_BYTES
from catalogue.models import DocumentKind, LoadFileStatus

EXIT_LOCKED = 75  # EX_TEMPFAIL: another load holds the lock; try again later


class Command(BaseCommand):
    help = (
        "Load snapshot documents (.json / .json.gz files, or directories searched recursively) "
        "into the catalogue, all or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="files or directories")
        parser.add_argument("--dry-run", action="store_true", help="check and report; write nothing")
        parser.add_argument(
            "--keep-going", action="store_true", help="skip bad documents (listed) instead of failing"
        )
        parser.add_argument(
            "--force", action="store_true", help="re-read files whose exact content is already loaded"
        )
        parser.add_argument(
            "--allow-shrink",
            action="store_true",
            help="accept an archive dump that gives fewer than half the rows of the copy it replaces",
        )
        parser.add_argument(
            "--max-file-mb",
            type=int,
            default=None,
            metavar="MB",
            help=f"refuse a document larger than this as JSON text (default {MAX_DOCUMENT_BYTES // 2**20})",
        )

    def execute(self, *args, **options):
        try:
            return super().execute(*args, **options)
        except DatabaseError as exc:  # before the load: the checks found no database
            raise _database_failed(exc) from None

    def handle(
        self, *args, paths, dry_run, keep_going, force, max_file_mb, verbosity, allow_shrink=False, **options
    ):
        if max_file_mb is not None and max_file_mb < 1:
            raise CommandError("--max-file-mb must be at least 1")
        progress = _Progress(self.stdout, verbosity)
        try:
            result = load_paths(
                list(paths),
                dry_run=dry_run,
                keep_going=keep_going,
                force=force,
                progress=progress,
                max_file_bytes=max_file_mb * 2**20 if max_file_mb else None,
                allow_shrink=allow_shrink,
            )
        except LoadLocked as exc:
            self.stderr.write(self.style.ERROR(f"refused: {exc}"))
            sys.exit(EXIT_LOCKED)
        except SnapshotError as exc:
            recorded = f" (the failure is load record {exc.load_run_id})" if exc.load_run_id else ""
            raise CommandError(f"{exc}\nNothing was written to the catalogue{recorded}.") from None
        except (DatabaseError, OSError) as exc:
            raise _database_failed(exc) from None
        finally:
            progress.done()
        self._report(result, verbosity)

    def _report(self, result, verbosity):
        self._report_warnings(result, verbosity)
        for bad in result.skipped:
            self.stderr.write(self.style.ERROR(f"skipped: {bad.error}"))
        files, status = result.file_counts, LoadFileStatus
        self.stdout.write(
            f"{result.n_files} files: {files[status.LOADED]} read, "
            f"{files[status.ALREADY_LOADED]} already loaded, {files[status.SKIPPED]} skipped"
        )
        if verbosity >= 1:
            for label, counts in result.counts.items():
                line = ", ".join(f"{n} {what}" for what, n in counts.items())
                self.stdout.write(f"  {label:<15} {line}")
            if result.by_source:
                self.stdout.write("by source:")
                for kind, figures in sorted(result.by_source.items()):
                    self.stdout.write(f"  {DocumentKind(kind).label}: {source_line(figures)}")
            if result.by_dump:
                self.stdout.write("by dump (added, kept, removed, against the copy it replaces):")
                for file, change in sorted(result.by_dump.items()):
                    first = "" if change.replaces else " (first copy)"
                    self.stdout.write(f"  {file}{first}: {change.line()}")
        if result.dry_run:
            recorded = f" (load record {result.load_run_id})" if result.load_run_id else ""
            self.stdout.write(self.style.WARNING(f"dry run: nothing was written to the catalogue{recorded}"))
        elif not result.changed:
            self.stdout.write(
                self.style.SUCCESS("nothing changed: the catalogue already holds this snapshot")
            )
        else:
            self.stdout.write(self.style.SUCCESS(f"loaded (load record {result.load_run_id})"))

    def _report_warnings(self, result, verbosity):
        """One line per kind of warning: how many, and the first files. Under it its first few
        warnings word for word (every one kept, with -v 2); all of them are in the run's record."""
        shown = None if verbosity >= 2 else (WARNINGS_SHOWN_PER_KIND if verbosity >= 1 else 0)
        examples: dict[str, list] = {}
        for warning in result.warnings:
            kept = examples.setdefault(warning.kind, [])
            if shown is None or len(kept) < shown:
                kept.append(warning)
        for kind, tally in sorted(result.warning_kinds.items(), key=lambda item: (-item[1].count, item[0])):
            first = f" (first: {', '.join(tally.files)})" if tally.files else ""
            self.stderr.write(self.style.WARNING(f"{kind}: {tally.count}{first}"))
            for warning in examples.get(kind, []):
                self.stderr.write(self.style.WARNING(f"  warning: {warning}"))


def _database_failed(exc: BaseException) -> CommandError:
    """The disk filled, the database went away, its folder cannot be written: the operator's to
    mend, in one line, not a bug to trace. The load's transaction rolled back: nothing was written."""
    said = " ".join(str(exc).split())[:300] or type(exc).__name__
    return CommandError(f"the database failed ({said}); nothing was written to the catalogue")


def source_line(f: dict[str, int]) -> str:
    """What one kind of source gave, in words: every figure ``LoadResult.by_source`` holds for it."""
    n = f.get
    files = n("files", 0)
    parts = [
        f"{files:,} file{'' if files == 1 else 's'}, {n('records', 0):,} records read, "
        f"{n('rows_skipped', 0):,} rows skipped"
    ]
    if n("papers_named"):
        parts.append(
            f"papers: {n('papers_named'):,} named, {n('papers_merged_by_title', 0):,} merged by title"
        )
    if n("results_staged"):
        parts.append(
            f"results: {n('results_staged'):,} rows, {n('results_collapsed', 0):,} one with an identical "
            f"row, {n('results_stated', 0):,} stated"
        )
    if n("code_links_staged"):
        parts.append(
            f"code links: {n('code_links_staged'):,} rows, {n('code_links_stated', 0):,} stated, "
            f"{n('code_links_added', 0):,} added"
        )
    return "; ".join(parts)


# Under each kind's line, so many of its warnings word for word (-v 2: every one kept).
WARNINGS_SHOWN_PER_KIND = 10


class _Progress:
    """A bar on a terminal; otherwise a plain line every 10 % (logs stay readable)."""

    def __init__(self, stream, verbosity):
        self.stream, self.verbosity = stream, verbosity
        self.tty = stream.isatty()
        self.last_decile = -1
        self.drawn = False

    def __call__(self, done, total, name):
        if self.verbosity < 1:
            return
        if self.tty:
            width = 30
            filled = width * done // total
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files", ending="")
            self.stream.flush()
            self.drawn = True
        elif (decile := 10 * done // total) != self.last_decile or done == total:
            self.last_decile = decile
            self.stream.write(f"read {done}/{total} files ({100 * done // total}%)")

    def done(self):
        if self.drawn:
            self.stream.write("")
            self.drawn = False
