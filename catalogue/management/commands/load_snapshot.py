"""``manage.py load_snapshot PATH [PATH…]``: load or refresh the catalogue from snapshot files."""

import sys

from django.core.management.base import BaseCommand, CommandError

from catalogue.loader import LoadLocked, SnapshotError, load_paths

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

    def handle(self, *args, paths, dry_run, keep_going, force, verbosity, **options):
        progress = _Progress(self.stdout, verbosity)
        try:
            result = load_paths(
                list(paths), dry_run=dry_run, keep_going=keep_going, force=force, progress=progress
            )
        except LoadLocked as exc:
            self.stderr.write(self.style.ERROR(f"refused: {exc}"))
            sys.exit(EXIT_LOCKED)
        except SnapshotError as exc:
            recorded = f" (the failure is load record {exc.load_run_id})" if exc.load_run_id else ""
            raise CommandError(f"{exc}\nNothing was written to the catalogue{recorded}.") from None
        finally:
            progress.done()
        self._report(result, verbosity)

    def _report(self, result, verbosity):
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        if result.warnings_dropped:
            self.stderr.write(self.style.WARNING(f"warning: … and {result.warnings_dropped} more"))
        for bad in result.skipped:
            self.stderr.write(self.style.ERROR(f"skipped: {bad.error}"))
        files = result.file_counts
        self.stdout.write(
            f"{result.n_files} files: {files['loaded']} read, "
            f"{files['already_loaded']} already loaded, {files['skipped']} skipped"
        )
        if verbosity >= 1:
            for label, counts in result.counts.items():
                line = ", ".join(f"{n} {what}" for what, n in counts.items())
                self.stdout.write(f"  {label:<15} {line}")
        if result.dry_run:
            recorded = f" (load record {result.load_run_id})" if result.load_run_id else ""
            self.stdout.write(self.style.WARNING(f"dry run: nothing was written to the catalogue{recorded}"))
        elif not result.changed:
            self.stdout.write(
                self.style.SUCCESS("nothing changed: the catalogue already holds this snapshot")
            )
        else:
            self.stdout.write(self.style.SUCCESS(f"loaded (load record {result.load_run_id})"))


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
