"""Rows already in memory served to the API's lists as if they were a QuerySet."""

from collections.abc import Callable, Iterable
from operator import attrgetter

from catalogue.models import Paper


class Rows:
    """Rows already in memory, in the order of a unique text attribute (``key``), offering what the
    API's FilterSets and pagination call on a QuerySet: ``all``, ``order_by`` and ``filter`` on the
    key (``__gt``/``__lt``: the cursor's position), slices and ``len``. ``where`` keeps the rows a
    filter method accepts."""

    model = Paper  # what the rows are derived from (django-filter and the schema read it)

    def __init__(self, rows: Iterable, key: str = "id"):
        self.key = key
        self._rows = list(rows)

    def _with(self, rows) -> "Rows":
        return Rows(rows, self.key)

    def all(self) -> "Rows":
        return self

    def where(self, test: Callable[[object], bool]) -> "Rows":
        return self._with(row for row in self._rows if test(row))

    def order_by(self, *fields: str) -> "Rows":
        if tuple(f.lstrip("-") for f in fields) != (self.key,):
            raise ValueError(f"rows are ordered by {self.key} only, not {fields}")
        return self._with(sorted(self._rows, key=attrgetter(self.key), reverse=fields[0].startswith("-")))

    def filter(self, **lookups: str) -> "Rows":
        ((lookup, value),) = lookups.items()
        tests = {f"{self.key}__gt": str.__gt__, f"{self.key}__lt": str.__lt__}
        if lookup not in tests:
            raise ValueError(f"rows are filtered by {self.key}__gt or __lt only, not {lookup}")
        return self._with(row for row in self._rows if tests[lookup](getattr(row, self.key), value))

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self):
        return iter(self._rows)

    def __getitem__(self, index):
        return self._rows[index]
