"""Leaderboard pages: a board ranked by a metric (a page at a time, its chart and its Markdown rows),
its rows as ``table.csv`` / ``table.json``, and the badge a README embeds at paperswithcode.com's
address shape: ``/badge/<paper>/<board>`` answers shields.io's endpoint JSON (what
``img.shields.io/endpoint.svg?url=…`` reads), ``/badge/<paper>/<board>.svg`` is the badge itself.
The downloads and badges answer in their own format whatever the Accept (``negotiate=False``).
"""

import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.encoding import escape_uri_path
from django.views.decorators.http import require_safe

from catalogue import reads
from catalogue.addresses import api_url
from catalogue.models import Leaderboard
from catalogue.web import boards, charts, markdown_forms
from catalogue.web.pageframe import (
    Meta,
    NoJsonForm,
    cached_page,
    flag_param,
    param,
    render_page,
)

# Rows a page of a leaderboard's table shows: the biggest boards hold hundreds of results
# (346 at 500,000 papers), and rendering every one on one page grew the page with the board.
# The rest are on the board's next pages (?page=2…); the chart shows all of them.
LEADERBOARD_ROWS = 100


FORMATS = ("csv", "json")


BADGE_MAX_AGE = 3600  # a badge is fetched by every view of every README that embeds it


BADGE_GREY = "#9f9f9f"  # no rank to state: an unknown paper or board, or no row on the board


def _board_page_address(request, number: int) -> str:
    """This board page's address on page ``number``, its other parameters kept; page 1 has no ``page``."""
    query = request.GET.copy()
    query.pop("page", None)
    if number > 1:
        query["page"] = str(number)
    return escape_uri_path(request.path) + (f"?{query.urlencode()}" if query else "")


def _board_json(request, slug: str) -> str:
    if flag_param(request, "code"):
        raise NoJsonForm(f"No JSON form of a board with code only: its rows are at {request.path}/table.json")
    return api_url("evaluations", slug)


def _board_rows_markdown(request, slug: str) -> str:
    """The board's ranked rows in its Markdown form: this page's rows (``?metric=``, ``?page=``)
    as the HTML page ranks them (``reads.leaderboards.leaderboard_page``), the metric's direction stated."""
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    data = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    given = param(request, "page")
    rows = data.rows(int(given) if given.isascii() and given.isdigit() else 1, LEADERBOARD_ROWS)
    metric = data.metric or ""
    head = (
        f"## Results, best first by {metric} ({data.direction or 'unknown'} is better)"
        if metric
        else "## Results, in the archive's order (no metric states a direction)"
    )
    table = [
        f"{head}, page {rows.number} of {rows.pages}, {len(data.results):,} in all",
        "",
        f"| rank | model | paper | {markdown_forms.cell(metric) if metric else 'metrics'} |",
        "|---|---|---|---|",
    ]
    for rank, result in enumerate(rows.results, start=rows.first_rank):
        shown = (result.metrics or {}).get(metric) if metric else result.metrics
        cells = (rank, result.model, reads.leaderboards.result_source(result), shown)
        table.append("| " + " | ".join(markdown_forms.cell(c) for c in cells) + " |")
    return "\n".join(table)


@require_safe
@cached_page(reads=("metric", "page", "code"), json=_board_json, markdown=_board_rows_markdown)
def leaderboard_detail(request, slug: str):
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    whole = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    code = reads.leaderboards.code_of_papers_on(board)
    with_code = flag_param(request, "code")
    data = boards.with_board_ranks(whole, code, code_only=with_code)
    given = param(request, "page")
    rows = data.rows(int(given) if given.isascii() and given.isdigit() else 1, LEADERBOARD_ROWS)
    if given != (str(rows.number) if rows.number > 1 else ""):
        # One address per page: page 1 has no ?page=; a page past the last (the board shrank,
        # or a made-up number) is the last page; anything else that names no page, the first.
        return redirect(_board_page_address(request, rows.number))
    metric, lower = data.metric, data.lower_is_better
    chart = (
        charts.metric_over_time(data.over_time, chart_id="board-time", metric=metric, lower_is_better=lower)
        if metric
        else ""
    )
    page_links = [(n, _board_page_address(request, n)) for n in range(1, rows.pages + 1)]
    title = f"{board.task.name} on {board.dataset.name}"
    order = f"best first by {metric}" if data.direction else "in the archive’s order"
    on_page = f", page {rows.number} of {rows.pages}" if rows.pages > 1 else ""
    meta = Meta(
        title=f"{title} (leaderboard{on_page})",
        description=f"{len(whole.results):,} results for {title}, {order}{on_page}.",
        feed_url=reverse("leaderboard_feed", args=[board.slug]),
    )
    return render_page(
        request,
        "catalogue/leaderboard_detail.html",
        meta,
        board=board,
        title=title,
        rows=rows,
        results=rows.results,
        page_links=page_links,
        previous_page=page_links[rows.number - 2][1] if rows.number > 1 else "",
        next_page=page_links[rows.number][1] if rows.number < rows.pages else "",
        n_results=len(whole.results),
        results_api=api_url("evaluations", board.slug, "results"),
        metric=metric,
        metric_names=data.metric_names,
        lower_is_better=lower,
        direction=data.direction,
        chart=chart,
        code=code,
        with_code=with_code,
        n_shown=len(data.results),
        shown_last=rows.results[-1].board_rank if rows.results else 0,
        downloads=boards.download_links(request, board),
        chart_rows=charts.table_rows(data.over_time, lower_is_better=lower) if chart else [],
        badge=boards.badge_example(request, board, whole.results),
    )


@require_safe
@cached_page(reads=("metric", "code"), negotiate=False)
def leaderboard_table(request, slug: str, fmt: str):
    """Every row the board page shows with these parameters (all its pages), its columns, in its order."""
    if fmt not in FORMATS:
        raise Http404("A board's table is table.csv or table.json")
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    whole = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    code = reads.leaderboards.code_of_papers_on(board)
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


def _badge_face(paper_slug: str, board_slug: str) -> tuple[str, str, int]:
    """What both forms of a badge say: (message, colour, status)."""
    try:
        paper, _ = reads.papers.paper_by_address(paper_slug)
        board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=board_slug)
    except Http404:
        return "not known", BADGE_GREY, 404
    found = reads.leaderboards.best_rank_on(board, paper)
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
