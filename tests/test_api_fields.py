"""API fields served as PwC served them where the catalogue holds the data (issue 33): a
result's best metric and rank, read from real sota-extractor tables and the recorded PwC
responses in ../shared/pwc-archive-samples/ (CC BY-SA 4.0)."""

import json
import shutil
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import metrics as metric_values
from catalogue import models as m
from catalogue import queries as page_queries
from catalogue.api import ids
from tests.api_helpers import V1, get, walk
from tests.conftest import load
from tests.factories import make_leaderboard, make_paper, make_result

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

SAMPLES = Path("/work/shared/pwc-archive-samples")
RECORDED = SAMPLES / "paperswithcode-go"
SOTA = SAMPLES / "sota-extractor"


def _needs(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    return path


# --- tasks, evaluations and results: real evaluation tables -----------------------------------


def _load_tables(tmp_path, *names: str) -> None:
    """Real sota-extractor files, loaded as an operator names them."""
    folder = tmp_path / "sota"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(_needs(SOTA / name), folder / f"evaluation-tables-{name}")
    load(folder)


@pytest.fixture
def tables(tmp_path):
    """nlp-progress: task and table descriptions, rows stating uses_additional_data, boards whose
    rows miss the ranking metric, metrics whose direction is not known."""
    _load_tables(tmp_path, "nlp-progress.json")


def test_every_result_s_best_metric_and_rank_are_its_board_s_as_the_page_ranks_it(api, tables):
    n_ranked = n_unranked = 0
    for board in m.Leaderboard.objects.all():
        page = page_queries.leaderboard_page(board)
        expected = {}
        for rank, result in enumerate(page.results, 1):
            states = page.metric and metric_values.parse((result.metrics or {}).get(page.metric)) is not None
            expected[ids.result_id(result)] = (page.metric, rank) if states else (None, None)
            n_ranked += bool(states)
            n_unranked += not states
        served = walk(api, f"{V1}/evaluations/{board.slug}/results/", items_per_page=7)
        got = {r["id"]: (r["best_metric"], r["best_rank"]) for r in served}
        assert got == expected, board.slug
        one = served[-1]
        assert get(api, f"{V1}/evaluations/{board.slug}/results/{one['id']}/") == one
    assert n_ranked > 500
    assert n_unranked > 10  # boards whose rows miss their ranking metric too
    # Penn Treebank's word-level models rank by validation perplexity, lower first
    ptb = {
        r["methodology"]: r
        for r in walk(api, f"{V1}/evaluations/word-level-models-on-penn-treebank/results/")
    }
    ranked = sorted((r for r in ptb.values() if r["best_rank"]), key=lambda r: r["best_rank"])
    assert {r["best_metric"] for r in ranked} == {"Validation perplexity"}
    values = [metric_values.parse(r["metrics"]["Validation perplexity"]) for r in ranked]
    assert values == sorted(values)


def test_ranks_of_tied_rows_with_and_without_a_paper_are_the_same_on_every_database(api, tmp_path):
    """nlpprogress' "Smaller Datasets (Example)": three tables merged on one board, so three rows
    share each archive position; "Question Split" does not say which way is better, so the board
    keeps that order. Rows without a paper (no month) come first among ties on both databases."""
    _load_tables(tmp_path, "nlpprogress.json")
    rows = walk(api, f"{V1}/evaluations/sql-parsing-on-smaller-datasets-example/results/")
    ranked = sorted(rows, key=lambda r: r["best_rank"])
    assert {r["best_metric"] for r in rows} == {"Question Split"}
    assert [r["best_rank"] for r in ranked] == list(range(1, 12))
    assert [(r["rank_in_archive_order"], r["paper"] is None) for r in ranked] == [
        (1, True), (1, False), (1, False), (1, False),
        (2, True), (2, True), (2, True), (2, False),
        (3, False), (3, False), (3, False),
    ]  # fmt: skip


def test_uses_additional_data_is_pwc_s_bool_and_stated_says_what_the_table_says(api, tmp_path):
    _load_tables(tmp_path, "nlp-progress.json", "snli.json")  # snli's vintage does not state it
    nli = walk(api, f"{V1}/evaluations/natural-language-inference-on-snli/results/", items_per_page=50)
    assert nli, "snli's table"
    assert {(r["uses_additional_data"], r["uses_additional_data_stated"]) for r in nli} == {(False, None)}
    summaries = walk(api, f"{V1}/evaluations/summarization-on-gigaword/results/")
    assert {(r["uses_additional_data"], r["uses_additional_data_stated"]) for r in summaries} == {
        (False, False)
    }
    stated = make_result(uses_additional_data=True)
    row = get(api, f"{V1}/papers/{stated.paper.slug}/results/")["results"][0]
    assert (row["uses_additional_data"], row["uses_additional_data_stated"]) == (True, True)


def test_the_recorded_pwc_result_shape_best_metric_where_the_row_is_ranked(api):
    """paper_result_list.json: a row ranked first on its board by "mean iou (class)" has that
    metric and rank 1; a row on a board ranked by a metric it does not state has null, null."""
    recorded = json.loads(_needs(RECORDED / "paper_result_list.json").read_text())["results"]
    paper = make_paper(slug=recorded[0]["paper"])
    cityscapes = make_leaderboard(metrics=["mean iou (class)"])
    make_result(leaderboard=cityscapes, paper=None, model="deeplabv3+", metrics={"mean iou (class)": "82.1%"})
    make_result(
        leaderboard=cityscapes, paper=paper, model=recorded[0]["methodology"], metrics=recorded[0]["metrics"]
    )
    panoptic = make_leaderboard(metrics=["miou", "pq"])
    make_result(leaderboard=panoptic, paper=None, model="upsnet", metrics={"miou": "75.2", "pq": "61.8"})
    make_result(
        leaderboard=panoptic, paper=paper, model=recorded[1]["methodology"], metrics=recorded[1]["metrics"]
    )
    served = get(api, f"{V1}/papers/{paper.slug}/results/")["results"]
    got = {r["evaluation"]: {k: r[k] for k in ("best_rank", "best_metric", "metrics")} for r in served}
    assert got == {
        cityscapes.slug: {k: recorded[0][k] for k in ("best_rank", "best_metric", "metrics")},
        panoptic.slug: {k: recorded[1][k] for k in ("best_rank", "best_metric", "metrics")},
    }


# --- what the new fields cost: a fixed number of queries -----------------------------------------


def _count(api, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(queries)


def _results_on_boards(paper, n_boards: int) -> None:
    for i in range(n_boards):
        board = make_leaderboard(metrics=["Accuracy", "Params"])
        for j in range(3):
            make_result(leaderboard=board, paper=None, model=f"other {j}", metrics={"Accuracy": f"{80 + j}%"})
        make_result(leaderboard=board, paper=paper, model=f"ours {i}", metrics={"Accuracy": "81.5%"})


def test_a_paper_s_results_read_every_board_s_ranking_in_one_query(api):
    one_board, six_boards = make_paper(slug="one-board"), make_paper(slug="six-boards")
    _results_on_boards(one_board, 1)
    _results_on_boards(six_boards, 6)
    # the paper, count, rows (with their boards), every board's rows' metrics
    assert _count(api, f"{V1}/papers/one-board/results/") == 4
    assert _count(api, f"{V1}/papers/six-boards/results/") == 4
    rows = get(api, f"{V1}/papers/six-boards/results/")["results"]
    assert {(r["best_metric"], r["best_rank"]) for r in rows} == {("Accuracy", 2)}  # 82%, then 81.5%
    board = rows[0]["evaluation"]
    # the board, count, rows, their ranking; a row: the board, its rows, their ranking
    assert _count(api, f"{V1}/evaluations/{board}/results/?items_per_page=1") == 4
    assert _count(api, f"{V1}/evaluations/{board}/results/?items_per_page=50") == 4
    assert _count(api, f"{V1}/evaluations/{board}/results/{rows[0]['id']}/") == 3
