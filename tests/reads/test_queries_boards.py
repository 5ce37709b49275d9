"""catalogue.queries, a leaderboard's reads: which metric ranks, errors lower first, ties, points over
time, the archive's order without metrics, and a task's or method's boards."""

import pytest

from catalogue import counters, reads
from tests.factories import make_leaderboard, make_method, make_paper, make_result, make_task
from tests.reads.walk import pks

pytestmark = pytest.mark.django_db


# --- /sota/: a leaderboard ------------------------------------------------------------------


def test_leaderboard_page_ranks_by_the_metric_most_results_state():
    board = make_leaderboard()
    a = make_result(leaderboard=board, model="a", metrics={"Accuracy": "80.5", "Params": "10M"})
    b = make_result(leaderboard=board, model="b", metrics={"Accuracy": "90%", "Params": "20M"})
    c = make_result(leaderboard=board, model="c", metrics={"Accuracy": "N/A"})
    page = reads.leaderboards.leaderboard_page(board)
    assert page.metric == "Accuracy"
    assert page.metric_names == ["Accuracy", "Params"]
    assert pks(page.results) == pks([b, a, c])  # best first, what does not parse last
    assert page.lower_is_better is False


def test_leaderboard_page_ranks_by_an_asked_metric_only_if_a_result_states_it():
    board = make_leaderboard()
    # Params is a cost, fewer first: b's 10M ranks it first when the board is ranked by Params.
    a = make_result(leaderboard=board, model="a", metrics={"Accuracy": "90", "Params": "20M"})
    b = make_result(leaderboard=board, model="b", metrics={"Accuracy": "80", "Params": "10M"})
    by_params = reads.leaderboards.leaderboard_page(board, "Params")
    assert (by_params.metric, by_params.metric_names) == ("Params", ["Params", "Accuracy"])
    assert pks(by_params.results) == pks([b, a])
    unknown = reads.leaderboards.leaderboard_page(board, "Stars")
    assert (unknown.metric, pks(unknown.results)) == ("Accuracy", pks([a, b]))


def test_leaderboard_page_ranks_errors_lower_first():
    board = make_leaderboard()
    rows = [
        make_result(leaderboard=board, model=f"m{i}", metrics={"Top-1 Error Rate": v})
        for i, v in enumerate(["5.0", "1.5", "3"])
    ]
    page = reads.leaderboards.leaderboard_page(board)
    assert page.lower_is_better is True
    assert pks(page.results) == pks([rows[1], rows[2], rows[0]])


def test_leaderboard_page_ties_in_the_primary_metric_go_to_the_first_name():
    board = make_leaderboard()
    make_result(leaderboard=board, metrics={"Recall": "1"})
    make_result(leaderboard=board, metrics={"Precision": "1"})
    assert reads.leaderboards.leaderboard_page(board).metric == "Precision"


def test_leaderboard_page_over_time_points_are_the_results_with_a_value_and_a_month():
    board = make_leaderboard()
    dated = make_paper(arxiv_id=None, month="2019-07", title="Dated")
    untitled = make_paper(arxiv_id=None, month="2020-01", title="", slug="untitled-paper")
    undated = make_paper(arxiv_id=None, month="")
    make_result(leaderboard=board, paper=dated, model="a", metrics={"Accuracy": "70%"})
    make_result(leaderboard=board, paper=untitled, model="b", metrics={"Accuracy": "75"})
    make_result(leaderboard=board, paper=undated, model="c", metrics={"Accuracy": "99"})  # no month
    make_result(leaderboard=board, paper=dated, model="d", metrics={"Accuracy": "-"})  # no value
    points = reads.leaderboards.leaderboard_page(board).over_time
    assert [(p.x, p.y, p.label) for p in points] == [
        (2020.0, 75.0, "b (untitled-paper)"),
        (2019.5, 70.0, "a (Dated)"),
    ]


def test_leaderboard_page_without_metrics_keeps_the_archive_order():
    board = make_leaderboard()
    second = make_result(leaderboard=board, metrics={}, rank_in_archive_order=2)
    unranked = make_result(leaderboard=board, metrics={}, rank_in_archive_order=None)
    first = make_result(leaderboard=board, metrics={}, rank_in_archive_order=1)
    page = reads.leaderboards.leaderboard_page(board, "Accuracy")
    assert (page.metric, page.metric_names, page.lower_is_better, page.over_time) == (None, [], False, [])
    assert pks(page.results) == pks([first, second, unranked])


def test_leaderboards_of_a_task_or_of_a_method_s_papers_most_results_first():
    task, method = make_task(), make_method()
    busy, quiet = make_leaderboard(task=task), make_leaderboard(task=task)
    elsewhere = make_leaderboard()
    using = make_paper()
    using.methods.add(method)
    for model in ("a", "b"):
        make_result(leaderboard=busy, model=model)
        make_result(leaderboard=elsewhere, paper=using, model=model)
    make_result(leaderboard=elsewhere, model="c")  # a paper not using the method
    make_result(leaderboard=quiet, paper=using)
    make_result(leaderboard=make_leaderboard())  # neither the task's nor the method's
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)  # as a load ends
    shown = reads.leaderboards.boards_shown(task.leaderboards)
    assert ([(b.pk, b.n_results) for b in shown.first], shown.total) == ([(busy.pk, 2), (quiet.pk, 1)], 2)
    # a method's: most results of its papers first, beside all the board's results
    assert [
        (b.pk, b.n_method_results, b.n_results) for b in reads.leaderboards.leaderboards_of_method(method)
    ] == [
        (elsewhere.pk, 2, 3),
        (quiet.pk, 1, 1),
    ]
