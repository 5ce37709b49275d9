"""Django paginators whose cost does not grow with the table: the API's page mode, sitemaps, the admin.

``KeysFirstPaginator`` (the API's page mode and the sitemaps) remembers its count per data
version and skips deep rows on the primary key alone; ``EstimatedCountPaginator`` (the
admin's change lists) takes a large unfiltered table's count from PostgreSQL's statistics.
"""

import inspect

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet
from django.utils.functional import cached_property

from catalogue import memo

DEFERRED_FROM = 500  # rows skipped before a page's keys are looked up first


class KeysFirstPaginator(Paginator):
    """Deep pages skip rows on the primary key alone, then fetch the page's rows with their joins.

    ``OFFSET 10000`` over a joined query builds 10,000 joined rows to throw away; over the
    keys alone it walks an index. Shallow pages keep the one query.

    ``count`` (page mode's total) costs the whole filtered list: 500,000 papers on every
    request at archive size. It is remembered per data version and query (catalogue.memo),
    so it is counted once after each load or correction.
    """

    @cached_property
    def count(self):
        rows = self.object_list
        if not isinstance(rows, QuerySet):
            return super().count
        try:
            sql, params = rows.query.get_compiler(rows.db).as_sql()
        except EmptyResultSet:  # a filter Django knows selects nothing (no SQL to key on)
            return 0
        return memo.remember("api_count", (sql, tuple(map(repr, params))), lambda: rows.count())

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        rows = self.object_list
        if bottom < DEFERRED_FROM or not isinstance(rows, QuerySet):
            return super().page(number)
        keys = list(rows.values_list("pk", flat=True)[bottom : bottom + self.per_page])
        found = {row.pk: row for row in rows.filter(pk__in=keys).order_by()}
        return self._get_page([found[k] for k in keys if k in found], number, self)


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
