"""Health checks and one-line structured request logs.

``/healthz``: the process is up (touches nothing). ``/readyz``: the database answers and
every migration is applied — what a load balancer or orchestrator should wait for.
Every request is logged as one JSON line with its request id (taken from a sane
``X-Request-ID`` header, else made up, and sent back), its client's address
(``config.client_address``) and its duration.
"""

import json
import logging
import re
import time
import uuid

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse, JsonResponse

from config.client_address import client_address

logger = logging.getLogger("catalogue.requests")
_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def healthz(request):
    """The process is up. Touches no database: also the 'trivial view' of the benchmarks."""
    return HttpResponse("ok\n", content_type="text/plain")


def readyz(request):
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:  # any failure to reach the database means "not ready"
        logger.warning("readyz: database unreachable: %s", exc.__class__.__name__)
        return JsonResponse({"ready": False, "reason": "database unreachable"}, status=503)
    if pending:
        return JsonResponse({"ready": False, "reason": f"{len(pending)} migrations not applied"}, status=503)
    return JsonResponse({"ready": True})


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        request.request_id = given if _SANE_ID.match(given) else uuid.uuid4().hex
        started = time.perf_counter()
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        logger.info(
            "request",
            extra={
                "request_id": request.request_id,
                "client": client_address(request),
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            },
        )
        return response


class JsonLineFormatter(logging.Formatter):
    """One JSON object per line: easy to grep, easy to ship."""

    FIELDS = ("request_id", "client", "method", "path", "status", "duration_ms")

    def format(self, record):
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({f: getattr(record, f) for f in self.FIELDS if hasattr(record, f)})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class ClientErrorFilter(logging.Filter):
    """A request refused for what the client sent (a Host not in ALLOWED_HOSTS, a malformed
    body) is logged by Django at ERROR with the exception's traceback, although nothing in the
    site failed: anyone could fill the error log (and page whoever watches it) at will. Such a
    record becomes one WARNING line without the traceback; the message still says what was
    refused. Only records of answers below 500 are touched."""

    def filter(self, record):
        if getattr(record, "status_code", 500) < 500:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True
