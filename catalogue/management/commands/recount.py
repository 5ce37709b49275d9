"""``manage.py recount``: recompute every stored count from the rows, and say what changed.

The counts lists sort by (``catalogue.counters``: places, papers and ran samples per code entry,
code bodies per paper, papers and leaderboards per task, results per leaderboard, the author
names) are kept true by ``load_snapshot`` and by curators' corrections. After a change to how a
figure is defined, nothing else recounts them: this does, in one transaction, one column at a
time, and reports each column's changed rows. Run twice, the second run changes nothing.

It holds the load lock, so it never counts under a running load (which recounts at its end
anyway). Lists cached before it show the new order within ``PAGE_CACHE_SECONDS``, as after an
admin edit.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from catalogue import counters
from catalogue.loader import LoadLocked, exclusive_load_lock


class Command(BaseCommand):
    help = "Recompute every stored count (entries, papers, tasks, leaderboards, author names) from the rows."

    def handle(self, *args, **options):
        try:
            with exclusive_load_lock(), transaction.atomic():
                changed = counters.recount()
        except LoadLocked as exc:
            raise CommandError(f"{exc}; it recounts at its end, run recount after it if needed") from exc
        for label, rows in changed.items():
            if rows:
                self.stdout.write(f"{label}: {rows} row{'' if rows == 1 else 's'} changed")
        if not any(changed.values()):
            self.stdout.write("recount: nothing to change")
        else:
            self.stdout.write(self.style.SUCCESS(f"recount: {sum(changed.values())} rows changed in all"))
