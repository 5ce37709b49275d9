"""A leaderboard's page (/sota/<slug>): every row of the board on its HTML pages, ranked by
``catalogue.metrics`` (numbers as the field writes them), in a fixed number of queries."""

import html
import re
import shutil

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import metrics, reads
from catalogue import models as m
from catalogue.web.views.leaderboards import LEADERBOARD_ROWS
from tests.conftest import load
from tests.factories import make_leaderboard, make_paper, make_result
from tests.samples import SAMPLES

pytestmark = pytest.mark.django_db
SOTA = SAMPLES / "sota-extractor"
# A row as the board_rows tag writes it: its rank on the whole board, then its model.
ROW = re.compile(r"<tr>\s*<td>([\d,]+)</td>\s*<td>(.*?)</td>", re.S)
NEXT = re.compile(r'<a rel="next" href="([^"]+)">')


def _pages(client, url) -> list[str]:
    """Every HTML page of a board from ``url``, following its "Next" links."""
    pages = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        pages.append(response.content.decode())
        found = NEXT.search(pages[-1])
        url = html.unescape(found[1]) if found else None
        assert len(pages) <= 50, "the pages do not end"
    return pages


def _rows(pages) -> list[tuple[int, str]]:
    """(rank shown, model) of every row on ``pages``, in page order."""
    return [
        (int(rank.replace(",", "")), html.unescape(model))
        for page in pages
        for rank, model in ROW.findall(page)
    ]


def _board(n_rows: int, metric: str = "Accuracy", value=lambda i: f"{i % 97}.{i % 10}%", **fields):
    board = make_leaderboard(**fields)
    paper = make_paper()
    for i in range(n_rows):
        make_result(
            leaderboard=board,
            paper=paper,
            model=f"model-{i:03d}",
            metrics={metric: value(i)},
            rank_in_archive_order=i + 1,
        )
    return board


# Values as the archive's tables write them: percentages, decimal commas, spreads, ranges,
# approximations, and values that state no number (listed last, in the archive's order).
REAL_SHAPES = ["84.4%", "76,2%", "84.4 ± 0.3", "84.1-84.5", "~83.9", "37,7", "-", "N/A", "91.3", "**70.3**"]


def test_every_row_of_a_200_row_board_is_reachable_in_html(client):
    board = _board(200, value=lambda i: REAL_SHAPES[i % len(REAL_SHAPES)].replace("84", str(60 + i % 37)))
    pages = _pages(client, board.get_absolute_url())
    assert len(pages) == -(-200 // LEADERBOARD_ROWS) == 2
    shown = _rows(pages)
    ranked = reads.leaderboards.leaderboard_page(board).results
    assert [model for _, model in shown] == [r.model for r in ranked]
    assert sorted(model for _, model in shown) == sorted(board.results.values_list("model", flat=True))
    # the rank on a row is its rank on the whole board: row 101 is #101 on page 2
    assert [rank for rank, _ in shown] == list(range(1, 201))
    assert _rows([pages[1]])[0][0] == LEADERBOARD_ROWS + 1
    assert f"Results {LEADERBOARD_ROWS + 1}–200 of 200, best first by Accuracy (page 2 of 2)" in pages[1]
    # ranked by the parsed values, the ones that state no number last
    numbers = [metrics.parse(r.metrics["Accuracy"]) for r in ranked]
    stated = [n for n in numbers if n is not None]
    assert stated == sorted(stated, reverse=True)
    assert numbers[len(stated) :] == [None] * 40


@pytest.fixture
def squad(tmp_path):
    if not SOTA.is_dir():
        pytest.skip(f"{SOTA} is not on this machine")
    shutil.copy(SOTA / "squad.json", tmp_path / "evaluation-tables-squad.json")
    load(tmp_path / "evaluation-tables-squad.json")
    return m.Leaderboard.objects.get(dataset__name="SQuAD2.0")


def test_every_row_of_a_real_board_is_reachable_in_html(client, squad):
    # SQuAD2.0 from the sota-extractor samples: more than two pages of real rows.
    n_results = squad.results.count()
    assert n_results > 2 * LEADERBOARD_ROWS
    pages = _pages(client, squad.get_absolute_url())
    assert len(pages) == -(-n_results // LEADERBOARD_ROWS)
    shown = _rows(pages)
    assert [rank for rank, _ in shown] == list(range(1, n_results + 1))
    assert [model for _, model in shown] == [
        r.model for r in reads.leaderboards.leaderboard_page(squad).results
    ]
    assert sorted(model for _, model in shown) == sorted(squad.results.values_list("model", flat=True))
    # EM, the table's first column, higher first
    ems = [metrics.parse(r.metrics.get("EM")) for r in reads.leaderboards.leaderboard_page(squad).results]
    assert [e for e in ems if e is not None] == sorted((e for e in ems if e is not None), reverse=True)


def _queries(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


def test_a_board_page_reads_the_same_queries_however_many_rows_and_whichever_page(client):
    board = _board(1)
    url = board.get_absolute_url()
    # the board with its task and dataset; its results with their papers; the code of those
    # papers (the code column, issue 37)
    assert _queries(client, url) == 3
    paper = make_paper()
    for i in range(1, 250):
        make_result(leaderboard=board, paper=paper if i % 2 else None, metrics={"Accuracy": f"{i}%"})
    pages = ("", "?page=2", "?page=3", "?code=1")
    assert [_queries(client, url + page) for page in pages] == [3, 3, 3, 3]


@pytest.mark.parametrize(
    ("query", "location"),
    [
        ("?page=4", "?page=3"),  # past the last page: the last
        ("?page=999999999999999999999999", "?page=3"),
        ("?page=1", ""),  # page 1 has no ?page=
        ("?page=0", ""),
        ("?page=-2", ""),
        ("?page=abc", ""),
        ("?page=2.5", ""),
        ("?page=%EF%BC%92", ""),  # a fullwidth 2: not a page number
        ("?page=02", "?page=2"),
        ("?metric=Accuracy&page=7", "?metric=Accuracy&page=3"),
    ],
)
def test_a_page_number_that_names_no_page_redirects_to_one(client, query, location):
    board = _board(2 * LEADERBOARD_ROWS + 1)
    response = client.get(board.get_absolute_url() + query)
    assert response.status_code == 302
    assert response["Location"] == board.get_absolute_url() + location
    assert client.get(response["Location"]).status_code == 200


def test_a_board_without_results_has_one_page(client):
    board = make_leaderboard()
    assert client.get(board.get_absolute_url()).status_code == 200
    response = client.get(board.get_absolute_url() + "?page=2")
    assert (response.status_code, response["Location"]) == (302, board.get_absolute_url())


def test_the_page_parameter_is_the_pages_own(client):
    board = _board(LEADERBOARD_ROWS + 1)
    response = client.get(board.get_absolute_url() + "?page=2&utm_source=x")
    assert (response.status_code, response["Location"]) == (301, board.get_absolute_url() + "?page=2")
    page = client.get(board.get_absolute_url() + "?page=2").content.decode()
    assert 'href="/sota/' + board.slug + '">1</a>' in page  # page 1's link carries no ?page=
    assert 'rel="prev"' in page
    assert 'rel="next"' not in page


def test_sorting_by_another_metric_pages_that_ranking(client):
    board = make_leaderboard()
    for i in range(LEADERBOARD_ROWS + 20):
        make_result(leaderboard=board, model=f"m{i:03d}", metrics={"Accuracy": f"{i}", "Params": f"{i}M"})
    pages = _pages(client, board.get_absolute_url() + "?metric=Params")
    assert f'href="/sota/{board.slug}?metric=Params&amp;page=2"' in pages[0]
    assert [model for _, model in _rows(pages)] == [f"m{i:03d}" for i in range(LEADERBOARD_ROWS + 20)]


def test_an_unknown_direction_keeps_the_archive_order_on_every_page_and_says_so(client):
    # "Dev" is SWAG accuracy (~86) on one board and Event2Mind cross-entropy (~4.3) on another
    values = ["4.44", "-", "86.6", "4.25", "85,1"]
    board = _board(LEADERBOARD_ROWS + 30, metric="Dev", value=lambda i: values[i % len(values)])
    pages = _pages(client, board.get_absolute_url())
    assert len(pages) == 2
    assert [model for _, model in _rows(pages)] == [f"model-{i:03d}" for i in range(LEADERBOARD_ROWS + 30)]
    for page in pages:
        assert "whether higher or lower is better is not known from the metric" in page
        assert "best first" not in page
    assert "in the table’s own order (page 2 of 2)" in pages[1]
    assert "in the archive’s order" in pages[0]  # its description


def test_a_decimal_comma_ranks_between_its_neighbours_on_the_page(client):
    # two boards of the archive listed "76,2%" last, as no number
    board = make_leaderboard()
    for model, value in [("a", "75.9%"), ("b", "76,2%"), ("c", "-"), ("d", "77.0%")]:
        make_result(leaderboard=board, model=model, metrics={"Accuracy": value})
    shown = _rows(_pages(client, board.get_absolute_url()))
    assert shown == [(1, "d"), (2, "b"), (3, "a"), (4, "c")]
