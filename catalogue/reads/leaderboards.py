"""Reads of leaderboards: a board's rows in archive order, ranked by a metric (the board page,
the API's ``best_rank``, the MCP tools and the badges all rank with :func:`ranked`), its chart's
points, a task's or dataset's busiest boards, a method's boards, the API's boards and rows, and
each row's code (``code_of_papers_on``: the board's "with code only" rule, for the page, its
downloads and the MCP tools) and a paper's rank on its boards (``BoardRank``: the paper page's
"Ranked #N", the badges).
"""

from dataclasses import dataclass

from django.db.models import Count, F, QuerySet, Subquery
from django.db.models.functions import Coalesce

from catalogue import memo, metrics
from catalogue.models import CodeLink, Leaderboard, Method, Paper, Result
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page


def board_row_order() -> tuple:
    """The order a leaderboard's rows are read in before ranking (ties in the ranking keep it):
    archive order, ending on the row's own key, not the id: the same order on every database
    (NULLs placed: a row without a paper has no month, which PostgreSQL sorts last, SQLite first)."""
    return (
        F("rank_in_archive_order").asc(nulls_last=True),
        F("paper__month").asc(nulls_first=True),
        "model",
        "row_key",
    )


def leaderboard_results(leaderboard: Leaderboard) -> list[Result]:
    """Every result on a leaderboard with its paper (if it names one), in archive order."""
    return list(leaderboard.results.select_related("paper").order_by(*board_row_order()))


@dataclass(frozen=True)
class Point:
    """A dated result on a board's chart (``catalogue.web.charts.metric_over_time`` draws them)."""

    x: float  # a date as a fractional year (2018.87 ≈ mid-November 2018)
    y: float
    label: str  # what the point is, for its tooltip and the text alternative
    name: str = ""  # the model's name alone: the label a state-of-the-art point carries on the chart


@dataclass(frozen=True)
class BoardRows:
    """One page of a ranked board's rows, and where they sit on the whole board."""

    results: list[Result]  # this page's results, in the board's order
    number: int  # this page, from 1
    pages: int  # pages of the whole board (1 for a board without results)
    first_rank: int  # the whole board's rank of the first row: row 101 is #101 on page 2

    @property
    def last_rank(self) -> int:
        return self.first_rank + len(self.results) - 1


@dataclass(frozen=True)
class LeaderboardPage:
    results: list[Result]  # every result, best first by ``metric``
    metric: str | None  # the column the board is ranked by (None: no result states a metric)
    metric_names: list[str]  # the table's columns in its order (else every metric stated), ranking one first
    direction: str | None  # "higher", "lower", or None: not known from the metric's name
    over_time: list[Point]  # each result with a value and a date: (when, value, label)

    @property
    def lower_is_better(self) -> bool:
        return self.direction == "lower"

    def pages(self, size: int) -> int:
        return max(1, -(-len(self.results) // size))

    def rows(self, number: int, size: int) -> BoardRows:
        """Page ``number`` (from 1) of ``size`` rows of the ranked board: the last page past the
        last, the first before the first.

        A page of the ranked list, not a keyset: the board is ranked in Python by the parsed
        metric (``catalogue.metrics``), so every page reads the whole board (a few hundred rows
        at most) in the same queries and takes its slice.
        """
        pages = self.pages(size)
        number = min(max(number, 1), pages)
        start = (number - 1) * size
        return BoardRows(self.results[start : start + size], number, pages, first_rank=start + 1)


def leaderboard_page(board: Leaderboard, metric: str = "") -> LeaderboardPage:
    """A leaderboard ranked by ``metric`` when its results state it, else as the field ranks it.

    A table the archive gives ranks by its first quality column (``sota.metrics`` order, never a
    cost column beside a quality one); a board without one, by the metric most results state.
    """
    metric, names, ordered = ranked(board, leaderboard_results(board), metric)
    points = []
    for result in ordered:
        value = metrics.parse((result.metrics or {}).get(metric)) if metric else None
        when = metrics.fractional_year(result.paper.month if result.paper else _month(result.paper_date))
        if value is not None and when is not None:
            label = f"{result.model} ({result_source(result)})"
            points.append(Point(when, value, label, result.model))
    return LeaderboardPage(
        results=ordered,
        metric=metric,
        metric_names=names,
        direction=metrics.direction(metric) if metric else None,
        over_time=points,
    )


def ranked(board: Leaderboard, results: list[Result], metric: str = "") -> tuple[str | None, list[str], list]:
    """How :func:`leaderboard_page` ranks a board (the API's ``best_metric`` and ``best_rank`` too):
    the metric, the metric names (the table's columns in its order, then the others stated; the
    ranking one first) and ``results`` best first. ``results`` are the board's rows in
    :func:`board_row_order`; each needs only its ``metrics``."""
    stated = {name for r in results for name in (r.metrics or {}) if isinstance(name, str)}
    columns = [name for name in board.metrics or [] if name in stated]
    names = columns + sorted(stated - set(columns))
    if metric not in stated:
        metric = (
            metrics.ranking_metric(columns) if columns else metrics.primary_metric(r.metrics for r in results)
        )
    if metric:
        names = [metric] + [name for name in names if name != metric]  # the sorting column first
    return metric, names, metrics.ordered(results, metric, lambda r: r.metrics)


def _month(date) -> str:
    return date.isoformat()[:7] if date else ""


def result_date():
    """A result's date as an expression: its paper's date, else the date the row gives."""
    return Coalesce("paper__date", "paper_date")


def result_source(result: Result) -> str:
    """What a result row comes from, in words: its paper's title, or what the row names instead."""
    if result.paper:
        return result.paper.title or result.paper.slug
    return result.paper_title or result.paper_url or "no paper"


def leaderboards_of_method(method: Method, limit: int = 200) -> list[Leaderboard]:
    """Leaderboards where papers using a method have results, with ``n_method_results`` (theirs)
    beside the stored ``n_results`` (all); most of theirs first. A task's and a dataset's boards
    are read from the stored counts (``boards_shown``)."""
    return memo.remember("leaderboards_of_method", (method.pk, limit), lambda: _boards_of(method, limit))


def _boards_of(method: Method, limit: int) -> list[Leaderboard]:
    boards = (
        Leaderboard.objects.select_related("task", "dataset")
        .filter(results__paper__methods=method)
        .annotate(n_method_results=Count("results", distinct=True))
    )
    return list(boards.order_by("-n_method_results", "slug")[:limit])


# --- a task's or a dataset's leaderboards -------------------------------------------------------

# A task's or a dataset's page shows its busiest boards; all of them are a page at a time on
# /task/<slug>/leaderboards and /dataset/<slug>/leaderboards. ImageNet has 557 at archive size.
BOARDS_SHOWN = 20
BOARD_KEYS = [Key("n_results", True, int), Key("slug", False, str)]  # most results first


@dataclass(frozen=True)
class BoardsShown:
    first: list[Leaderboard]  # the BOARDS_SHOWN with most results
    total: int


def boards_shown(boards: QuerySet[Leaderboard]) -> BoardsShown:
    """The first boards of a task's or dataset's ``leaderboards``, and how many it has."""
    first = boards.select_related("task", "dataset").order_by("-n_results", "slug")[:BOARDS_SHOWN]
    return BoardsShown(list(first), boards.count())  # the count: an index range, as many queries at any size


def boards_page(boards: QuerySet[Leaderboard], *, after=None, before=None) -> KeysetPage:
    return keyset_page(boards.select_related("task", "dataset"), BOARD_KEYS, after=after, before=before)


def leaderboards() -> QuerySet[Leaderboard]:
    return Leaderboard.objects.select_related("task", "dataset").order_by("slug")


def results_on(board: Leaderboard) -> QuerySet[Result]:
    return board.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        # NULLs placed (a row without a paper): PostgreSQL sorts them last, SQLite first
        F("rank_in_archive_order").asc(nulls_last=True),
        "model",
        F("paper__slug").asc(nulls_first=True),
        "row_key",
    )


def best_ranks(results) -> dict[int, tuple[str, int]]:
    """PwC's ``best_metric`` and ``best_rank`` of each of ``results`` that states a number for
    its board's ranking metric: that metric and the row's place on the board ranked by it, as
    the leaderboard page ranks it (:func:`ranked`). One query for every board of
    the page (each row's metrics); ``results`` carry their ``leaderboard``."""
    boards = {result.leaderboard_id: result.leaderboard for result in results}
    rows = (
        Result.objects.filter(leaderboard_id__in=list(boards))
        .order_by("leaderboard_id", *board_row_order())
        .only("id", "leaderboard_id", "metrics")
    )
    of_board: dict[int, list[Result]] = {board_id: [] for board_id in boards}
    for row in rows:
        of_board[row.leaderboard_id].append(row)
    wanted = {result.pk for result in results}
    best: dict[int, tuple[str, int]] = {}
    for board_id, board_rows in of_board.items():
        metric, _, ordered = ranked(boards[board_id], board_rows)
        if not metric:
            continue
        for rank, row in enumerate(ordered, 1):
            if row.pk in wanted and metrics.parse((row.metrics or {}).get(metric)) is not None:
                best[row.pk] = (metric, rank)
    return best


def leaderboard_metrics(board: Leaderboard) -> list[str]:
    """The metric names a leaderboard's results state, in alphabetical order."""
    names: set[str] = set()
    for stated in board.results.values_list("metrics", flat=True):
        names.update(stated or {})
    return sorted(names)


# --- a board's rows: their code, a paper's ranks -------------------------------------------


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


def has_code(result: Result, code: dict[int, CodeChoice]) -> bool:
    return row_code(result, code) is not None
