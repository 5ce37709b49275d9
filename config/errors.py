"""Error responses: JSON under /api/, the site's own pages elsewhere.

A client of the JSON API gets JSON for every error, including those raised outside DRF's views
(no such path, a server error), in DRF's ``{"detail": ...}`` shape. Nothing of the failure
itself (traceback, settings, SQL) is ever in the body: it goes to the log.
"""

from django.http import JsonResponse
from django.views import defaults


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": "Permission denied."}, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _is_api(request):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)
