"""What a leaderboard's page writes beyond its results: the table as CSV and JSON, the rows'
ranks on the page, the download links and the badge a README embeds.

What they are written from is read by ``catalogue.reads.leaderboards``: each row's code
(``code_of_papers_on``, ``row_code``), a paper's rank on a board (``BoardRank``: its place as the
board page ranks it, "#N on this board, by <metric>"; the archive's own position is another
figure, always labelled "the archive's own order").
"""

import csv
import io
from dataclasses import replace
from urllib.parse import urlencode

from django.template.defaultfilters import yesno
from django.urls import reverse
from django.utils.html import escape

from catalogue import metrics
from catalogue.models import Leaderboard, Result
from catalogue.reads.leaderboards import BoardRank, CodeChoice, has_code, result_source, row_code

# --- the table as data: CSV and JSON ----------------------------------------------------


def table_columns(metric_names: list[str]) -> list[str]:
    """The board table's columns, as the page shows them (a link's address beside its text)."""
    return [
        "rank",
        "model",
        "paper",
        "paper_date",
        "paper_url",
        "code",
        "code_url",
        "code_framework",
        *metric_names,
        "extra_data",
        "archive_order",
    ]


def table_row(rank: int, result: Result, metric_names, code: dict[int, CodeChoice], absolute) -> list:
    """One row's cells in :func:`table_columns` order: the values the page shows, as given."""
    paper = result.paper
    if paper:
        paper_url = absolute(paper.get_absolute_url())
        date = paper.month or ""
    else:
        paper_url = result.paper_url or ""
        date = result.paper_date.isoformat()[:7] if result.paper_date else ""
    chosen = row_code(result, code)
    archive = ""
    if result.rank_in_archive_order:
        archive = f"{result.rank_in_archive_order}" + (f" of {result.of}" if result.of else "")
    values = [(result.metrics or {}).get(name) for name in metric_names]
    return [
        rank,
        result.model,
        result_source(result) if (paper or result.paper_title or result.paper_url) else "",
        date,
        paper_url,
        chosen.label if chosen else "",
        chosen.url if chosen else "",
        chosen.framework if chosen else "",
        *("" if value is None else value for value in values),
        yesno(result.uses_additional_data, "yes,no,not stated"),
        archive,
    ]


def _csv_cell(value) -> str:
    """A cell as text; one a spreadsheet would run as a formula (the data is untrusted) starts
    with an apostrophe. A signed number ("-0.5", "+3.1%") and a lone "-" stay as given."""
    text = "" if value is None else str(value)
    risky = text[:1] in ("=", "@", "\t", "\r") or (
        text[:1] in ("+", "-") and len(text) > 1 and metrics.parse(text) is None
    )
    return "'" + text if risky else text


def as_csv(columns: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([_csv_cell(value) for value in row] for row in rows)
    return out.getvalue()


# --- badges ---------------------------------------------------------------------------

BADGE_LABEL = "Code with Papers"
BADGE_COLOUR = "#1f6feb"  # one colour whatever the rank: a badge states a place, not a verdict


def badge_message(rank: BoardRank, board: Leaderboard) -> str:
    by = f", by {rank.metric}" if rank.metric and rank.direction else ""
    return f"#{rank.rank} on {board.task.name} on {board.dataset.name}{by}"


def _text_width(text: str) -> int:
    """About how wide ``text`` is at 11 px in a sans-serif font (no font is fetched to measure it)."""
    narrow, wide = set("fijlrt.,:;!|'() "), set("mwMW@%#")
    widths = (3.5 if c in narrow else 9.5 if c in wide else 7 if c.isupper() else 6.2 for c in text)
    return int(sum(widths)) + 10


def badge_svg(label: str, message: str, colour: str = BADGE_COLOUR) -> str:
    """A two-part flat badge, shields.io's shape: a system sans-serif font, no external resource."""
    lw, mw = _text_width(label), _text_width(message)
    width = lw + mw
    title = escape(f"{label}: {message}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{title}"><title>{title}</title>'
        f'<rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{mw}" height="20" fill="{escape(colour)}"/>'
        '<g fill="#fff" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" font-size="11">'
        f'<text x="{lw / 2}" y="14" text-anchor="middle">{escape(label)}</text>'
        f'<text x="{lw + mw / 2}" y="14" text-anchor="middle">{escape(message)}</text>'
        "</g></svg>"
    )


def badge_markdown(image_url: str, board_url: str, alt: str) -> str:
    return f"[![{alt}]({image_url})]({board_url})"


# --- the board page's rows ------------------------------------------------------------


def with_board_ranks(data, code: dict[int, CodeChoice], *, code_only: bool = False):
    """``data`` (``reads.leaderboards.LeaderboardPage``) with each row's ``board_rank`` set (its place on the
    whole board) and, ``code_only``, only the rows with code: a filtered row keeps its rank."""
    for rank, result in enumerate(data.results, 1):
        result.board_rank = rank
    if not code_only:
        return data
    return replace(data, results=[result for result in data.results if has_code(result, code)])


def download_links(request, board: Leaderboard) -> dict[str, str]:
    """The addresses of the table as CSV and JSON with the page's ranking and filter."""
    query = {name: request.GET[name] for name in ("code", "metric") if request.GET.get(name)}
    suffix = ("?" + urlencode(sorted(query.items()))) if query else ""
    return {fmt: reverse("leaderboard_table", args=[board.slug, fmt]) + suffix for fmt in ("csv", "json")}


def badge_example(request, board: Leaderboard, results: list[Result]) -> dict[str, str] | None:
    """The badge of the board's first row that names a paper: its image, its Markdown to copy."""
    paper = next((result.paper for result in results if result.paper is not None), None)
    if paper is None:
        return None
    image = reverse("badge_svg", args=[paper.slug, board.slug])
    alt = f"{paper.title or paper.slug} on {board.task.name} on {board.dataset.name}"
    absolute_image = request.build_absolute_uri(image)
    return {
        "image": image,
        "alt": alt,
        "markdown": badge_markdown(absolute_image, request.build_absolute_uri(board.get_absolute_url()), alt)
        + "\n\nor through shields.io:\n"
        + badge_markdown(
            "https://img.shields.io/endpoint.svg?url="
            + request.build_absolute_uri(reverse("badge", args=[paper.slug, board.slug])),
            request.build_absolute_uri(board.get_absolute_url()),
            alt,
        ),
    }
