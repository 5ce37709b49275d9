"""Pagination: Papers-with-Code's page/items_per_page, or a cursor for walking a whole list.

Page mode answers ``{count, next, previous, results}`` exactly as the PwC API v1 did, so its
clients work unchanged. Cursor mode (``?pagination=cursor``, then follow ``next``) answers
``{next, previous, results}``: each page is a range scan on a unique indexed column from
where the last one stopped, so the millionth row costs what the first does; it has no
``count`` because counting would cost the whole list. Bad values are 400s naming the
parameter, never a silent default.
"""

from django.conf import settings
from django.core.paginator import InvalidPage
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.response import Response

from catalogue.pagination.paginators import KeysFirstPaginator

PAGE_SIZE = 50  # PwC's default
MAX_PAGE = 10**7
MODE_PARAM = "pagination"
CURSOR_PARAM = "cursor"


def max_page_size() -> int:
    return settings.API_MAX_PAGE_SIZE


def is_cursor_mode(request) -> bool:
    return request.query_params.get(MODE_PARAM) == "cursor" or CURSOR_PARAM in request.query_params


def _positive_int(request, name: str, default: int, maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: [f"Expected a whole number, got {raw[:40]!r}."]}) from None
    if not 1 <= value <= maximum:
        raise ValidationError({name: [f"Expected a whole number from 1 to {maximum}."]})
    return value


class _Cursor(CursorPagination):
    cursor_query_param = CURSOR_PARAM
    page_size_query_param = "items_per_page"
    template = None

    def __init__(self, ordering: str, page_size: int):
        self.ordering = ordering
        self.page_size = page_size

    def get_page_size(self, request):
        return self.page_size

    def get_ordering(self, request, queryset, view):
        return (self.ordering,)

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError({CURSOR_PARAM: ["Not a cursor this list gave out."]}) from None


class CatalogPagination(PageNumberPagination):
    """Page numbers by default; a cursor where the view names a unique indexed ``cursor_ordering``."""

    page_size = PAGE_SIZE
    page_query_param = "page"
    page_size_query_param = "items_per_page"
    django_paginator_class = KeysFirstPaginator
    cursor = None

    @property
    def max_page_size(self):
        return max_page_size()

    def query_params(self, view) -> list[str]:
        """The parameters this pagination reads on ``view``: the ones its schema documents."""
        return [param["name"] for param in self.get_schema_operation_parameters(view)]

    def paginate_queryset(self, queryset, request, view=None):
        size = _positive_int(request, self.page_size_query_param, self.page_size, self.max_page_size)
        mode = request.query_params.get(MODE_PARAM)
        if mode not in (None, "page", "cursor"):
            raise ValidationError({MODE_PARAM: ["Expected 'page' or 'cursor'."]})
        if is_cursor_mode(request):
            ordering = getattr(view, "cursor_ordering", None)
            if ordering is None:
                raise ValidationError({MODE_PARAM: ["This list has no cursor mode; use page numbers."]})
            if request.query_params.get("ordering"):
                raise ValidationError({"ordering": ["Cursor mode has a fixed order; drop ordering."]})
            if self.page_query_param in request.query_params:
                raise ValidationError({self.page_query_param: ["Cursor mode has no page numbers."]})
            self.cursor = _Cursor(ordering, size)
            return self.cursor.paginate_queryset(queryset, request, view)
        page_number = _positive_int(request, self.page_query_param, 1, MAX_PAGE)
        self.request = request
        paginator = self.django_paginator_class(queryset, size)
        try:
            self.page = paginator.page(page_number)
        except InvalidPage:
            raise NotFound(f"Page {page_number} is past the last page ({paginator.num_pages}).") from None
        return list(self.page)

    def get_paginated_response(self, data):
        if self.cursor is not None:
            return Response(
                {
                    "next": self.cursor.get_next_link(),
                    "previous": self.cursor.get_previous_link(),
                    "results": data,
                }
            )
        return super().get_paginated_response(data)

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {
                "count": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Rows in the whole list (page mode only; cursor mode leaves it out).",
                },
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view):
        integer = {"type": "integer", "minimum": 1}
        params = [
            {
                "name": self.page_query_param,
                "in": "query",
                "required": False,
                "description": "Page number (page mode), from 1.",
                "schema": {**integer, "maximum": MAX_PAGE},
            },
            {
                "name": self.page_size_query_param,
                "in": "query",
                "required": False,
                "description": f"Rows per page (default {PAGE_SIZE}, at most {self.max_page_size}).",
                "schema": {**integer, "maximum": self.max_page_size},
            },
        ]
        if getattr(view, "cursor_ordering", None):
            params += [
                {
                    "name": MODE_PARAM,
                    "in": "query",
                    "required": False,
                    "description": (
                        "'cursor' walks the whole list in a fixed order at a constant cost per page "
                        "(follow `next`; no `count`). Default 'page'."
                    ),
                    "schema": {"type": "string", "enum": ["page", "cursor"]},
                },
                {
                    "name": CURSOR_PARAM,
                    "in": "query",
                    "required": False,
                    "description": "Opaque position given out in `next`/`previous` (cursor mode).",
                    "schema": {"type": "string"},
                },
            ]
        return params
