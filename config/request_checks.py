"""What any request may hold, checked before any view runs or any query is sent.

- **Size.** A request target (path and query string, as sent) longer than ``MAX_TARGET`` bytes
  is answered 414; a header field longer than ``MAX_HEADER_FIELD`` bytes (name, ": " and value),
  or more than ``MAX_HEADER_FIELDS`` of them, 431. gunicorn has bounds of its own, and its answers
  are HTML written before Django sees the request; config/gunicorn.conf.py sets them above these,
  so that a client meets these first (and gets JSON under /api/), up to a bound that still holds.
- **Text no database can hold.** A NUL or an unpaired surrogate (``bad_char``: what PostgreSQL
  cannot store, so what nothing stored holds) in the path names nothing: 404. In a query
  parameter's name or value, or in a header's value, the request is refused: 400. PostgreSQL
  would refuse the query with an error (a 500) where SQLite answered "not found", so neither is
  asked: both databases answer alike, and nothing is logged as an error.

Under /api/ every answer is JSON in DRF's shapes (``{"detail": …}``, or, for a parameter, its
name with the reason, as the API's own refusals are); elsewhere the site's pages.
"""

from django.http import Http404, HttpResponse, JsonResponse
from django.template import loader

from catalogue.loader.fields import bad_char
from config import errors

# What gunicorn allowed before it stood back (its defaults: 4094 bytes of request line, 8190 a
# header field, 100 fields): clients that worked then work now.
MAX_TARGET = 4094
MAX_HEADER_FIELD = 8190
MAX_HEADER_FIELDS = 100
_BODY_HEADERS = ("CONTENT_TYPE", "CONTENT_LENGTH")  # headers WSGI names without HTTP_


def _headers(request) -> list[tuple[str, str]]:
    """(name, value) of each header field as WSGI gives them (a repeated field joined into one)."""
    return [
        (key.removeprefix("HTTP_"), value)
        for key, value in request.META.items()
        if key.startswith("HTTP_") or key in _BODY_HEADERS
    ]


def _target_length(request) -> int:
    raw = request.META.get("RAW_URI")  # gunicorn's: the target exactly as sent
    return len(raw) if raw is not None else len(request.get_full_path())


def _refused(request, status: int, title: str, message: str) -> HttpResponse:
    if errors.is_api(request):
        return JsonResponse({"detail": message}, status=status)
    page = loader.get_template("refused.html").render({"title": title, "message": message})
    return HttpResponse(page, status=status)


def _bad_parameters(request) -> dict[str, list[str]]:
    refused = {}
    for name, values in request.GET.lists():
        if bad_char(name) or any(bad_char(value) for value in values):
            refused[name] = ["NUL characters and unpaired surrogates are not allowed."]
    return refused


class RequestChecksMiddleware:
    """Refuses, before anything else reads the request, what no view could answer (above)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.refusal(request) or self.get_response(request)

    def refusal(self, request) -> HttpResponse | None:
        if _target_length(request) > MAX_TARGET:
            return _refused(
                request, 414, "Address too long", f"The address is longer than {MAX_TARGET:,} bytes."
            )
        headers = _headers(request)
        if len(headers) > MAX_HEADER_FIELDS or any(
            len(name) + 2 + len(value) > MAX_HEADER_FIELD for name, value in headers
        ):
            return _refused(
                request,
                431,
                "Request headers too large",
                f"At most {MAX_HEADER_FIELDS} header fields of at most {MAX_HEADER_FIELD:,} bytes each.",
            )
        if bad_char(request.path_info):
            return errors.page_not_found(request, Http404("No such address"))
        refused = _bad_parameters(request)
        if refused:
            if errors.is_api(request):
                return JsonResponse(refused, status=400)
            names = ", ".join(sorted(refused))
            return _refused(
                request, 400, "Bad request", f"The parameter {names} holds a character no address may hold."
            )
        if any(bad_char(value) for _, value in headers):
            return _refused(
                request, 400, "Bad request", "A header holds a NUL character or an unpaired surrogate."
            )
        return None
