"""Each public read sees one state of the catalogue: before a load, or after it, never both.

A page or an API answer runs 3–12 queries. In autocommit each sees whatever was committed
when it started, so a load committing between two of them gave pages with the old paper
count beside the new number of places (measured: bench/README.md, "Load held while
loading"). On PostgreSQL a safe request outside the admin therefore runs in one
``REPEATABLE READ, READ ONLY`` transaction: every query, the data-version read that keys the
caches included, sees the snapshot taken at its first query. Read-only costs nothing
extra and turns an accidental write on a public GET into an error rather than a surprise.

SQLite is left in autocommit: a transaction there takes the database lock mode the
settings give (``IMMEDIATE``), which would queue every reader behind a running load.

The transaction is opened by the request's first query, not before: a request refused before
any (an unknown API parameter, a client over its rate) must cost the database nothing, or a
made-up parameter per request would be a round trip each at will. Leaving autocommit sends
nothing (psycopg begins at the first statement) and committing an unused transaction neither.
"""

from django.db import DatabaseError, connections, router, transaction

from catalogue.models import Paper
from config.routers import is_public_read

# Probes answer about the process and the database themselves: no transaction around them.
PROBES = {"/healthz", "/readyz"}


class ConsistentReadMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_public_read(request) or request.path in PROBES:
            return self.get_response(request)
        alias = router.db_for_read(Paper)
        connection = connections[alias]
        if connection.vendor != "postgresql" or connection.in_atomic_block:
            return self.get_response(request)
        response = None
        try:
            with transaction.atomic(using=alias), connection.execute_wrapper(_SnapshotOnFirstQuery()):
                response = self.get_response(request)  # never raises: errors are responses by now
        except DatabaseError:
            if response is not None:
                return response  # only the COMMIT of a read-only transaction failed: nothing lost
            # No transaction could begin (the database is down or the connection broke): the
            # view answers as it would without one, from its cached copy or with the clean 503.
            return self.get_response(request)
        return response


class _SnapshotOnFirstQuery:
    """Makes the request's transaction a read-only snapshot just before its first statement
    (``SET TRANSACTION`` must come first in it). A failure there is that query's failure, which
    the view answers as any database error (its cached copy, or the 503)."""

    def __init__(self):
        self.set = False

    def __call__(self, execute, sql, params, many, context):
        if not self.set:
            self.set = True
            execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", None, False, context)
        return execute(sql, params, many, context)
