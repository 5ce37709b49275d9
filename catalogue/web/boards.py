"""What a leaderboard shows beyond its results: each row's code, its rank in words, the table as
CSV and JSON, the paper page's "Ranked #N on <board>" and the badge a README embeds.

A row's rank is its place on the board as the board page ranks it (``catalogue.reads.leaderboards.ranked``:
by its metric where the metric's direction is known, else the table's own order): "#N on this
board, by <metric>". The archive's own position (``rank_in_archive_order``) is another figure,
always labelled "the archive's own order". Every read here is a fixed number of queries however
many rows the board has.
"""

import csv
import io
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.db.models import Subquery
from django.template.defaultfilters import yesno
from django.urls import reverse
from django.utils.html import escape

from catalogue import metrics
from catalogue.models import CodeLink, Leaderboard, Paper, Result
from catalogue.reads.leaderboards import board_row_order, leaderboard_results, ranked, result_source


@dataclass(frozen=True)
class CodeChoice:
    """The code a board row links: the paper's official implementation, else its most-mentioned
    link (mentioned in the paper and on GitHub count one each), else what the table's row gives."""

    url: str
    label: str  # owner/name, or the row's own title for its link
    framework: str
    why: str  # "official", "most mentioned", "the table's row"


def _choice_key(row) -> tuple:
    official, in_paper, in_github, key, sub_path = row[5:]
    mentions = bool(in_paper) + bool(in_github)
    return (not official, -mentions, key, sub_path)


def code_of_papers_on(board: Leaderboard) -> dict[int, CodeChoice]:
    """The code each paper with a row on ``board`` links (:class:`CodeChoice`), by paper id: one query."""
    on_board = Result.objects.filter(leaderboard_id=board.pk, paper_id__isnull=False).values("paper_id")
    rows = CodeLink.objects.filter(paper_id__in=Subquery(on_board)).values_list(
        "paper_id",
        "repo_url",
        "repo__owner",
        "repo__name",
        "framework",
        "is_official",
        "mentioned_in_paper",
        "mentioned_in_github",
        "repo__key",
        "sub_path",
    )
    best: dict[int, tuple] = {}
    for row in rows:
        if row[0] not in best or _choice_key(row) < _choice_key(best[row[0]]):
            best[row[0]] = row
    choices = {}
    for paper_id, row in best.items():
        _, url, owner, name, framework, official, in_paper, in_github, _, sub_path = row
        why = "official" if official else "most mentioned" if (in_paper or in_github) else "linked"
        label = f"{owner}/{name}" + (f"/{sub_path}" if sub_path else "")
        choices[paper_id] = CodeChoice(url=url, label=label, framework=framework, why=why)
    return choices


def row_code(result: Result, code: dict[int, CodeChoice]) -> CodeChoice | None:
    """The code of a row: its paper's (:func:`code_of_papers_on`), else the first link its table gives."""
    if result.paper_id and result.paper_id in code:
        return code[result.paper_id]
    for link in result.code_links or []:
        if isinstance(link, dict) and isinstance(link.get("url"), str) and link["url"].startswith("http"):
            title = link.get("title")
            return CodeChoice(
                url=link["url"],
                label=title if isinstance(title, str) and title else link["url"],
                framework="",
                why="the table's row",
            )
    return None


def rank_words(rank: int, metric: str | None, direction: str | None) -> str:
    """'#3 on this board, by Accuracy' (or 'in the table's own order' where the direction is not known)."""
    if metric and direction:
        return f"#{rank:,} on this board, by {metric}"
    return f"#{rank:,} on this board, in the table’s own order"


@dataclass(frozen=True)
class BoardRank:
    rank: int  # the row's place on its board, as the board page ranks it
    of: int  # rows on the board
    metric: str | None
    direction: str | None

    @property
    def words(self) -> str:
        return rank_words(self.rank, self.metric, self.direction)


def ranks_of_paper(paper: Paper) -> dict[int, BoardRank]:
    """Each of the paper's result rows' :class:`BoardRank`, by result id: one query reads every row
    of every board the paper is on (their metrics), ranked as each board's page ranks it."""
    boards = Result.objects.filter(paper_id=paper.pk).values("leaderboard_id")
    rows = (
        Result.objects.filter(leaderboard_id__in=Subquery(boards))
        .select_related("leaderboard")
        .order_by("leaderboard_id", *board_row_order())
        .only("id", "paper_id", "leaderboard_id", "metrics", "leaderboard__metrics")
    )
    of_board: dict[int, list[Result]] = {}
    for row in rows:
        of_board.setdefault(row.leaderboard_id, []).append(row)
    found: dict[int, BoardRank] = {}
    for board_rows in of_board.values():
        metric, _, ordered = ranked(board_rows[0].leaderboard, board_rows)
        direction = metrics.direction(metric) if metric else None
        for rank, row in enumerate(ordered, 1):
            if row.paper_id == paper.pk:
                found[row.pk] = BoardRank(rank, len(ordered), metric, direction)
    return found


def best_rank_on(board: Leaderboard, paper: Paper) -> tuple[BoardRank, Result] | None:
    """The paper's best-placed row on ``board`` and its :class:`BoardRank`; None if it has no row
    there. One query (the board's rows)."""
    metric, _, ordered = ranked(board, leaderboard_results(board))
    direction = metrics.direction(metric) if metric else None
    for rank, row in enumerate(ordered, 1):
        if row.paper_id == paper.pk:
            return BoardRank(rank, len(ordered), metric, direction), row
    return None


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


def has_code(result: Result, code: dict[int, CodeChoice]) -> bool:
    return row_code(result, code) is not None


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
