"""``manage.py dump_snapshot DIR``: write the catalogue out as snapshot documents."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalogue.export import ExportError, dump_snapshot


class Command(BaseCommand):
    help = (
        "Write the whole catalogue into DIR as snapshot documents in the seed format "
        "(what load_snapshot reads): paper/, code/ and alias/ (old addresses)."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", help="a new or empty directory")
        parser.add_argument("--gzip", action="store_true", help="write .json.gz files")

    def handle(self, *args, directory, gzip, verbosity, **options):
        try:
            result = dump_snapshot(Path(directory), compress=gzip)
        except ExportError as exc:
            raise CommandError(str(exc)) from None
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        self.stdout.write(
            self.style.SUCCESS(
                f"wrote {len(result.files)} files to {directory}: {result.papers} paper documents, "
                f"{result.code_entries} code-entry documents, {result.aliases} old addresses, "
                f"{result.corrections} corrections"
            )
        )
