"""A leaderboard's table as CSV and JSON, and the badge a README embeds (``catalogue.boards``).

Pages of the site (``catalogue.pageframe.cached_page``: strict parameters, the shared cache), each
answering in its own format whatever the client's Accept (``negotiate=False``).

The badge keeps the address shape paperswithcode.com's badges used, so a README that swaps the
host keeps a working badge: ``/badge/<paper>/<board>`` answers shields.io's endpoint JSON (what
``img.shields.io/endpoint.svg?url=…`` reads) and ``/badge/<paper>/<board>.svg`` is the badge itself.
"""

import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from catalogue import boards, reads
from catalogue.models import Leaderboard
from catalogue.pageframe import cached_page, flag_param, param

FORMATS = ("csv", "json")
BADGE_MAX_AGE = 3600  # a badge is fetched by every view of every README that embeds it


@require_safe
@cached_page(reads=("metric", "code"), negotiate=False)
def leaderboard_table(request, slug: str, fmt: str):
    """Every row the board page shows with these parameters (all its pages), its columns, in its order."""
    if fmt not in FORMATS:
        raise Http404("A board's table is table.csv or table.json")
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    whole = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    code = boards.code_of_papers_on(board)
    data = boards.with_board_ranks(whole, code, code_only=flag_param(request, "code"))
    columns = boards.table_columns(data.metric_names)
    rows = [
        boards.table_row(r.board_rank, r, data.metric_names, code, request.build_absolute_uri)
        for r in data.results
    ]
    if fmt == "csv":
        response = HttpResponse(boards.as_csv(columns, rows), content_type="text/csv; charset=utf-8")
    else:
        body = {
            "leaderboard": board.slug,
            "url": request.build_absolute_uri(board.get_absolute_url()),
            "ranked_by": data.metric,
            "direction": data.direction,
            "code_only": flag_param(request, "code"),
            "rank": "the row's place on this board ranked by ranked_by (the table's own order where "
            "direction is null); archive_order is the archive's own position, as given",
            "columns": columns,
            "rows": [dict(zip(columns, row, strict=True)) for row in rows],
        }
        response = HttpResponse(
            json.dumps(body, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{board.slug}.{fmt}"'
    return response


BADGE_GREY = "#9f9f9f"  # no rank to state: an unknown paper or board, or no row on the board


def _badge_face(paper_slug: str, board_slug: str) -> tuple[str, str, int]:
    """What both forms of a badge say: (message, colour, status)."""
    try:
        paper, _ = reads.papers.paper_by_address(paper_slug)
        board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=board_slug)
    except Http404:
        return "not known", BADGE_GREY, 404
    found = boards.best_rank_on(board, paper)
    if not found:
        return "no result on this board", BADGE_GREY, 200
    return boards.badge_message(found[0], board), boards.BADGE_COLOUR, 200


def _cacheable(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, public=True, max_age=BADGE_MAX_AGE)
    return response


@require_safe
@cached_page(negotiate=False)
def badge_endpoint(request, paper: str, board: str):
    """shields.io's endpoint JSON: {"schemaVersion": 1, "label", "message", "color"}."""
    message, colour, status = _badge_face(paper, board)
    body = {"schemaVersion": 1, "label": boards.BADGE_LABEL, "message": message, "color": colour.lstrip("#")}
    return _cacheable(JsonResponse(body, status=status))


@require_safe
@cached_page(negotiate=False)
def badge_svg(request, paper: str, board: str):
    """The badge as a small SVG: rank and metric, a system font, nothing fetched."""
    message, colour, status = _badge_face(paper, board)
    svg = boards.badge_svg(boards.BADGE_LABEL, message, colour)
    return _cacheable(HttpResponse(svg, content_type="image/svg+xml; charset=utf-8", status=status))
