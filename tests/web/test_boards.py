"""Issue 37's boards: the code column, "with code only", the table as CSV and JSON, ranks in words
(the board's # and the paper page's "Ranked #N" agree), the badges, and the queries each reads."""

import csv
import html
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_code_link, make_leaderboard, make_paper, make_repo, make_result

pytestmark = pytest.mark.django_db
ROW = re.compile(r"<tr>\s*<td>([\d,]+)</td>\s*<td>(.*?)</td>\s*<td>.*?</td>\s*<td>(.*?)</td>", re.S)


def _rows(page: str) -> list[tuple[int, str, str]]:
    """(rank, model, code cell text) of every board row on ``page``."""
    return [
        (
            int(rank.replace(",", "")),
            html.unescape(model),
            html.unescape(re.sub(r"<[^>]+>", "", code)).strip(),
        )
        for rank, model, code in ROW.findall(page)
    ]


@pytest.fixture
def board():
    """Five rows, best first by Accuracy: code from an official link, from the most-mentioned
    link, from the table's row, none, and a paper whose only link is mentioned nowhere."""
    board = make_leaderboard()
    official = make_paper(title="Official paper")
    make_code_link(paper=official, repo=make_repo(owner="someone", name="fork"), mentioned_in_github=True)
    make_code_link(
        paper=official, repo=make_repo(owner="authors", name="impl"), is_official=True, framework="pytorch"
    )
    mentioned = make_paper(title="Mentioned paper")
    make_code_link(paper=mentioned, repo=make_repo(owner="aaa", name="quiet"), framework="tf")
    make_code_link(
        paper=mentioned,
        repo=make_repo(owner="zzz", name="loud"),
        mentioned_in_paper=True,
        mentioned_in_github=True,
        framework="jax",
    )
    plain = make_paper(title="Plain paper")
    make_code_link(paper=plain, repo=make_repo(owner="bbb", name="only"))
    make_result(
        leaderboard=board, paper=official, model="A", metrics={"Accuracy": "95%"}, rank_in_archive_order=9
    )
    make_result(leaderboard=board, paper=mentioned, model="B", metrics={"Accuracy": "94%"})
    make_result(
        leaderboard=board,
        paper=None,
        paper_title="A competition entry",
        model="C",
        metrics={"Accuracy": "93%"},
        code_links=[{"title": "team/code", "url": "https://github.com/team/code"}],
    )
    make_result(leaderboard=board, paper=make_paper(), model="D", metrics={"Accuracy": "92%"})
    make_result(leaderboard=board, paper=plain, model="E", metrics={"Accuracy": "91%"})
    return board


def test_the_code_column_shows_official_then_most_mentioned_then_the_rows_own(client, board):
    page = client.get(board.get_absolute_url()).content.decode()
    assert _rows(page) == [
        (1, "A", "authors/impl official pytorch"),
        (2, "B", "zzz/loud jax"),
        (3, "C", "team/code"),
        (4, "D", "none known"),
        (5, "E", "bbb/only"),
    ]
    assert "#1 on this board, by Accuracy" in page
    assert "Archive’s own order" in page
    assert "Archive rank" not in page


def test_with_code_only_keeps_each_rows_rank_and_says_how_many(client, board):
    page = client.get(board.get_absolute_url() + "?code=1").content.decode()
    assert [(rank, model) for rank, model, _ in _rows(page)] == [(1, "A"), (2, "B"), (3, "C"), (5, "E")]
    assert "4 of 5 rows have code" in page
    assert 'id="b-code" type="checkbox" name="code" value="1" checked' in page


def test_the_code_filter_is_a_parameter_of_the_page_and_nothing_else_is(client, board):
    response = client.get(board.get_absolute_url() + "?code=1&with_code=1")
    assert (response.status_code, response["Location"]) == (301, board.get_absolute_url() + "?code=1")
    # the page with the filter has no JSON form of the API's: the 406 names where its rows are
    response = client.get(board.get_absolute_url() + "?code=1", HTTP_ACCEPT="application/json")
    assert response.status_code == 406
    assert "table.json" in response.json()["detail"]


def _csv(client, url) -> list[dict]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("query", ["", "?code=1", "?metric=Accuracy&code=1"])
def test_csv_and_json_hold_exactly_the_rows_and_columns_the_page_shows(client, board, query):
    page = client.get(board.get_absolute_url() + query).content.decode()
    shown = _rows(page)
    table = board.get_absolute_url() + "/table"
    rows = _csv(client, f"{table}.csv{query}")
    assert [(int(r["rank"]), r["model"]) for r in rows] == [(rank, model) for rank, model, _ in shown]
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", page.split('class="table-scroll"')[-1], re.S)[1]
    shown_columns = [
        html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<th[^>]*>(.*?)</th>", header)
    ]
    assert shown_columns == ["#", "Model", "Paper", "Code", "Accuracy", "Extra data", "Archive’s own order"]
    assert list(rows[0]) == [
        *("rank", "model", "paper", "paper_date", "paper_url", "code", "code_url", "code_framework"),
        *("Accuracy", "extra_data", "archive_order"),
    ]
    assert rows[0]["code_url"] == "https://github.com/authors/impl"
    assert rows[0]["code_framework"] == "pytorch"
    assert rows[0]["archive_order"] == "9"
    assert rows[0]["paper"] == "Official paper"
    assert rows[0]["paper_url"].endswith("/paper/" + board.results.get(model="A").paper.slug)
    data = client.get(f"{table}.json{query}", HTTP_ACCEPT="application/json").json()
    assert data["columns"] == list(rows[0])
    assert [{k: str(v) for k, v in row.items()} for row in data["rows"]] == rows
    assert data["ranked_by"] == "Accuracy"
    # the page links both, with its own parameters
    assert (
        f'href="{table}.csv{html.escape(query)}"'.replace(
            "?metric=Accuracy&amp;code=1", "?code=1&amp;metric=Accuracy"
        )
        in page
    )


def test_the_table_is_only_csv_or_json_and_refuses_unknown_parameters(client, board):
    table = board.get_absolute_url() + "/table"
    assert client.get(f"{table}.xml").status_code == 404
    assert client.get(f"{table}.csv?page=2").status_code == 301
    assert client.get("/sota/no-such-board/table.csv").status_code == 404


def test_a_csv_cell_that_would_be_a_formula_is_not_one(client):
    board = make_leaderboard()
    make_result(leaderboard=board, model="=HYPERLINK(1)", metrics={"Accuracy": "-0.5"})
    make_result(leaderboard=board, model="-", metrics={"Accuracy": "-"})
    rows = _csv(client, board.get_absolute_url() + "/table.csv")
    assert {r["model"] for r in rows} == {"'=HYPERLINK(1)", "-"}
    assert {r["Accuracy"] for r in rows} == {"-0.5", "-"}


def test_the_paper_page_says_ranked_n_with_the_boards_n(client, board):
    paper = board.results.get(model="E").paper
    page = client.get(paper.get_absolute_url()).content.decode()
    assert f"Ranked #5 on {board.task.name} on {board.dataset.name}</span>" in page
    assert "by Accuracy" in page
    board_page = client.get(board.get_absolute_url()).content.decode()
    assert (5, "E", "bbb/only") in _rows(board_page)


def test_badges_state_the_rank_and_metric_and_are_cacheable(client, board):
    paper = board.results.get(model="B").paper
    svg = client.get(f"/badge/{paper.slug}/{board.slug}.svg")
    assert svg.status_code == 200
    assert svg["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert "public" in svg["Cache-Control"]
    assert "max-age=" in svg["Cache-Control"]
    body = svg.content.decode()
    assert body.startswith("<svg")
    assert len(body) < 2000
    assert f"#2 on {board.task.name} on {board.dataset.name}, by Accuracy" in body
    assert "http" not in body.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched
    endpoint = client.get(f"/badge/{paper.slug}/{board.slug}", HTTP_ACCEPT="application/json")
    assert endpoint.status_code == 200
    assert "public" in endpoint["Cache-Control"]
    data = endpoint.json()
    assert data == {
        "schemaVersion": 1,
        "label": "Code with Papers",
        "message": f"#2 on {board.task.name} on {board.dataset.name}, by Accuracy",
        "color": data["color"],
    }
    # shields.io asks with Accept: */*; a browser with text/html: the same JSON
    assert client.get(f"/badge/{paper.slug}/{board.slug}", HTTP_ACCEPT="text/html").json() == data


def test_a_badge_for_nothing_known_says_so(client, board):
    assert client.get(f"/badge/no-such-paper/{board.slug}.svg").status_code == 404
    missing = client.get(f"/badge/no-such-paper/{board.slug}")
    assert (missing.status_code, missing.json()["message"]) == (404, "not known")
    elsewhere = make_paper()
    response = client.get(f"/badge/{elsewhere.slug}/{board.slug}")
    assert response.json()["message"] == "no result on this board"
    # both forms say the same, in the same grey
    svg = client.get(f"/badge/{elsewhere.slug}/{board.slug}.svg").content.decode()
    assert "no result on this board" in svg
    assert f'fill="#{response.json()["color"]}"' in svg
    assert missing.json()["color"] == response.json()["color"] == "9f9f9f"
    assert client.get(f"/badge/{elsewhere.slug}/{board.slug}?x=1").status_code == 301


def test_the_board_page_offers_the_badges_markdown(client, board):
    page = client.get(board.get_absolute_url()).content.decode()
    paper = board.results.get(model="A").paper
    assert (
        f"[![Official paper on {board.task.name} on {board.dataset.name}](http://testserver/badge/{paper.slug}/{board.slug}.svg)](http://testserver/sota/{board.slug})"
        in html.unescape(page)
    )
    assert (
        f"https://img.shields.io/endpoint.svg?url=http://testserver/badge/{paper.slug}/{board.slug}"
        in html.unescape(page)
    )


# --- queries do not grow with rows ------------------------------------------------------


def _count(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    return len(ctx.captured_queries)


def _grow(board, paper, n):
    for i in range(n):
        row_paper = make_paper()
        make_code_link(paper=row_paper, framework="pytorch", is_official=bool(i % 2))
        make_code_link(paper=row_paper)
        make_result(leaderboard=board, paper=row_paper if i % 3 else None, metrics={"Accuracy": f"{i}%"})
        make_result(paper=paper, metrics={"Accuracy": f"{i}%"})  # the paper on another board


def test_board_csv_badge_and_paper_ranks_read_the_same_queries_for_1_row_and_50(client):
    board = make_leaderboard()
    paper = make_paper()
    make_code_link(paper=paper, is_official=True)
    make_result(leaderboard=board, paper=paper, metrics={"Accuracy": "50%"})
    urls = [
        board.get_absolute_url(),
        board.get_absolute_url() + "?code=1",
        board.get_absolute_url() + "/table.csv",
        board.get_absolute_url() + "/table.json?code=1",
        f"/badge/{paper.slug}/{board.slug}.svg",
        f"/badge/{paper.slug}/{board.slug}",
        paper.get_absolute_url(),
    ]
    one = [_count(client, url) for url in urls]
    _grow(board, paper, 49)
    assert board.results.count() == 50
    fifty = [_count(client, url) for url in urls]
    assert one == fifty
    assert one[2] == 3  # the board; its rows with their papers; the code of the papers on it
    assert one[4] <= 5  # the paper (by its address), the board, its rows
