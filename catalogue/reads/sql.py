"""The SQL the reads share: statements compiled once from the ORM (``CompiledQuery``), JSON lists
and author names as SQL expressions per database, and a list of ids as a parameter.
"""

import json

from django.db import connection
from django.db.models.expressions import RawSQL


class CompiledQuery:
    """A queryset of fixed shape, compiled to SQL once per database and run with its one
    parameter put in. The ORM states the query, with the model's own rules (``SHOWS_CODE``,
    ``Correction.objects.of_paper``); a hot page does not build it again on every request.
    The paper page's two: 0.73 + 1.07 ms built per request, 0.18 + 0.06 ms compiled once, on a
    page of about 3 ms (20,000 papers, in process; bench/README.md, issue 16).

    ``build(value, alias)`` returns the queryset for ``value``; ``marker`` is a value no real
    call passes, found among the compiled parameters to know where ``value`` goes.
    """

    def __init__(self, build, marker):
        self.build, self.marker = build, marker
        self._compiled: dict[str, tuple[str, tuple, int]] = {}

    def sql(self, alias: str, value) -> tuple[str, list]:
        if alias not in self._compiled:
            sql, params = self.build(self.marker, alias).using(alias).query.sql_with_params()
            if params.count(self.marker) != 1:  # the marker must name the one place value goes
                raise ValueError(
                    f"{self.marker!r} is in the compiled parameters {params.count(self.marker)} times"
                )
            self._compiled[alias] = (sql, params, params.index(self.marker))
        sql, params, at = self._compiled[alias]
        return sql, [*params[:at], value, *params[at + 1 :]]


def json_list_sql(vendor: str, value: str, source: str, order: str) -> str:
    """A subquery: ``value`` of each row of ``source`` (``FROM … WHERE …``, correlated as it
    likes) in ``order``, as a JSON array ('[]' for none), written as each database writes it.
    Read the result with :func:`from_json`."""
    if vendor == "postgresql":
        return f"(SELECT COALESCE(json_agg({value} ORDER BY {order}), '[]') {source})"
    # SQLite's json_group_array keeps its subquery's order
    return f"(SELECT json_group_array(v) FROM (SELECT {value} AS v {source} ORDER BY {order}))"


def from_json(value):
    return json.loads(value) if isinstance(value, str) else value  # SQLite: text; psycopg: decoded


def author_names_sql(vendor: str, paper_id: str) -> str:
    """The names of the authors of the paper whose id is ``paper_id`` (a column), in order."""
    authors = f"FROM catalogue_author a WHERE a.paper_id = {paper_id}"
    return json_list_sql(vendor, "a.name", authors, "a.position")


def id_list(ids) -> RawSQL:
    """``ids`` as a subquery with one bound parameter, for ``pk__in=``.

    Django prepares the values of a plain ``__in`` list one by one, which for the
    thousand hits facets are counted over cost more than the query itself.
    """
    ids = [int(i) for i in ids]
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", [ids])
    return RawSQL("SELECT value FROM json_each(%s)", [json.dumps(ids)])
