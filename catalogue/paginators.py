"""Paginators whose count stays cheap on large tables (the admin's change lists)."""

import inspect

from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet
from django.utils.functional import cached_property


class EstimatedCountPaginator(Paginator):
    """Counts an unfiltered list of a large PostgreSQL table from the planner's statistics.

    ``SELECT COUNT(*)`` reads the whole table on PostgreSQL (MVCC: no stored row count),
    and the admin asks for a count on every list page. An unfiltered list of a table that
    ``pg_class.reltuples`` says holds more than ``estimate_above`` rows takes that figure
    instead (``count_is_estimate`` is then True, and the list says "about"); a filtered or
    searched list, a small table, a table never analysed, and SQLite (whose count of an
    unfiltered table walks its smallest index, a few milliseconds here) are counted exactly.
    The last page of an estimated list may come out short or empty: that is the price.
    """

    estimate_above = 10_000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.count_is_estimate = False

    @cached_property
    def count(self) -> int:
        estimate = self._estimate()
        if estimate is not None:
            self.count_is_estimate = True
            return estimate
        count = getattr(self.object_list, "count", None)
        if callable(count) and not inspect.isbuiltin(count):
            return count()
        return len(self.object_list)

    def _estimate(self) -> int | None:
        queryset = self.object_list
        if not isinstance(queryset, QuerySet):
            return None
        connection = connections[queryset.db]
        query = queryset.query
        if connection.vendor != "postgresql" or not _is_whole_table(query):
            return None
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(%s)",
                [queryset.model._meta.db_table],
            )
            row = cursor.fetchone()
        # reltuples is -1 for a table never analysed (PostgreSQL 14+), 0 before that.
        if row is None or row[0] is None or row[0] < self.estimate_above:
            return None
        return int(row[0])


def _is_whole_table(query) -> bool:
    return not (
        query.where
        or query.distinct
        or query.group_by
        or query.combinator
        or query.low_mark
        or query.high_mark is not None
    )
