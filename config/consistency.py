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
            with transaction.atomic(using=alias):
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                response = self.get_response(request)  # never raises: errors are responses by now
        except DatabaseError:
            if response is not None:
                return response  # only the COMMIT of a read-only transaction failed: nothing lost
            # No transaction could begin (the database is down or the connection broke): the
            # view answers as it would without one, from its cached copy or with the clean 503.
            return self.get_response(request)
        return response
