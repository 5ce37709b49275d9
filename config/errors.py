"""Error responses: JSON under /api/, the site's own pages elsewhere.

A client of the JSON API gets JSON for every error, including those raised outside DRF's views
(no such path, a server error), in DRF's ``{"detail": ...}`` shape. Nothing of the failure
itself (traceback, settings, SQL) is ever in the body: it goes to the log.

When the database cannot be reached (PostgreSQL restarting, the network to it down), a request
that needs it gets 503 with ``Retry-After`` instead of 500: the site's own page, or JSON under
/api/ (:class:`DatabaseUnavailableMiddleware`, and :func:`server_error` for a failure outside
a view). The broken connection is closed at the end of that request (Django's
``close_if_unusable_or_obsolete``) and a persistent one is health-checked before reuse
(``CONN_HEALTH_CHECKS``), so the first request once the database is back succeeds.
"""

import logging
import sys

from django.db import connections
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults

logger = logging.getLogger("config.errors")
# What a client should wait before trying again: a PostgreSQL restart takes seconds.
RETRY_AFTER_SECONDS = 5


def is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception):
    if is_api(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if is_api(request):
        return JsonResponse({"detail": "Permission denied."}, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    if is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    # Also the handler for exceptions raised outside a view (in a middleware), which the
    # middleware below never sees; Django calls it while that exception is being handled.
    if database_unreachable(sys.exc_info()[1]):
        return service_unavailable(request)
    if is_api(request):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)


def database_unreachable(exc: BaseException | None) -> bool:
    """True if ``exc`` is a database error and a connection that failed is gone or broken.

    Connection refused, a connection the server closed (restart, failover) or one that died
    mid-query. Other operational errors on a working connection (a statement timeout, SQLite's
    "no such table") are bugs or overload, not an outage, and stay 500s.
    """
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    return any(
        conn.errors_occurred and (conn.connection is None or not conn.is_usable())
        for conn in connections.all(initialized_only=True)
    )


def service_unavailable(request):
    if is_api(request):
        response = JsonResponse({"detail": "Service temporarily unavailable, try again later."}, status=503)
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"  # never kept by a CDN or browser in place of the page
    return response


class DatabaseUnavailableMiddleware:
    """A view (or its template) that fails because the database is unreachable answers 503.

    Its response still passes back through every middleware (security headers, CSP, CORS,
    request log). Logged as one warning line, without the traceback a 500 would log.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_unreachable(exception):
            return None
        logger.warning("database unreachable: %s: %s", exception.__class__.__name__, str(exception).strip())
        return service_unavailable(request)
