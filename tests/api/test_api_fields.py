"""No API field is a constant where the catalogue holds the data (issue 33).

Papers-with-Code fields the catalogue does not hold are served as constants (``_Constant`` in
catalogue/api/serializers/base.py, help text "Not known"). A constant on a field whose model holds
the data hid it: task and method descriptions, a method's paper, a paper's conference, a
result's best metric. The first test walks every serializer for such a field; the others load
real rows (the archive's methods dump, sota-extractor tables, the recorded PwC responses in
tests/data/pwc-archive-samples/, all CC BY-SA 4.0) and read them back as PwC served them.
"""

import gzip
import importlib
import inspect
import json
import pkgutil
import shutil
from pathlib import Path

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers as drf

from catalogue import identities, reads
from catalogue import metrics as metric_values
from catalogue import models as m
from catalogue.api import ids, serializers
from catalogue.api.serializers import base
from tests import archive_dumps
from tests.api_helpers import V1, get, walk
from tests.conftest import load
from tests.factories import make_leaderboard, make_method, make_paper, make_result
from tests.samples import METHODS_DUMP, SAMPLES  # the repository's copy of the real samples

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

RECORDED = SAMPLES / "paperswithcode-go"
SOTA = SAMPLES / "sota-extractor"
PWC = "https://paperswithcode.com"


def _needs(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    return path


# --- no constant where the model holds the data ----------------------------------------------

# The model(s) each serializer's rows are: a constant field named as a field of one of them hides
# data the catalogue holds. A serializer with a constant must be listed (an empty list: its rows
# are no model's, e.g. a metric is a name its board's rows state).
MODELS_OF = {
    "PaperSerializer": [m.Paper],
    "PaperDetailSerializer": [m.Paper],
    "RepositorySerializer": [m.Repo],
    "PaperRepositorySerializer": [m.CodeLink, m.Repo],
    "PaperCodeLinkSerializer": [m.CodeLink, m.Repo],
    "TaskSerializer": [m.Task],
    "MethodSerializer": [m.Method],
    "DatasetSerializer": [m.Dataset],
    "PaperDatasetSerializer": [m.Dataset],
    "EvaluationSerializer": [m.Leaderboard],
    "MetricSerializer": [],
    "ResultSerializer": [m.Result],
}
# Fields whose data the model holds under another name.
HELD_AS = {
    # the metric a row's board is ranked by: the board's columns and its rows' metrics
    ("ResultSerializer", "best_metric"): "metrics",
}


def _serializer_classes():
    for module_info in pkgutil.iter_modules(serializers.__path__):
        module = importlib.import_module(f"{serializers.__name__}.{module_info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, drf.Serializer) and cls.__module__ == module.__name__:
                yield name, cls


def _held(model, name: str) -> bool:
    try:
        model._meta.get_field(name)
    except FieldDoesNotExist:
        return False
    return True


def constants_hiding_data() -> list[str]:
    found = []
    for name, cls in _serializer_classes():
        constants = {f: field for f, field in cls().fields.items() if isinstance(field, base._Constant)}
        if not constants:
            continue
        if name not in MODELS_OF:
            found.append(f"{name}: serves constants; name its model in MODELS_OF")
            continue
        for field_name, field in constants.items():
            held_as = HELD_AS.get((name, field_name), field_name)
            for model in MODELS_OF[name]:
                if _held(model, held_as):
                    found.append(f"{name}.{field_name}: a constant, but {model.__name__}.{held_as} holds it")
            if "not known" not in str(field.help_text).lower():
                found.append(f"{name}.{field_name}: a constant whose help text does not say 'Not known'")
    return found


def test_no_api_field_is_a_constant_where_the_model_holds_the_data():
    assert constants_hiding_data() == []


def test_the_walk_sees_every_serializer_with_a_constant():
    # the walk finds the constants left (those no model holds), so it would find a new one
    seen = {
        (name, f)
        for name, cls in _serializer_classes()
        for f, field in cls().fields.items()
        if isinstance(field, base._Constant)
    }
    assert {("RepositorySerializer", "stars"), ("EvaluationSerializer", "mirror_url")} <= seen


# --- methods: the real dump -------------------------------------------------------------------


def _slug(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def test_every_method_of_the_real_dump_gives_its_paper_and_markdown_description(api, settings):
    records = json.loads(gzip.decompress(_needs(METHODS_DUMP).read_bytes()))
    load(METHODS_DUMP)
    settings.API_MAX_PAGE_SIZE = 500
    served = {row["id"]: row for row in walk(api, f"{V1}/methods/", items_per_page=500)}
    assert len(served) == len(records) == 1924
    named = 0
    for record in records:
        row = served[_slug(record["url"])]
        paper = record.get("paper")
        if isinstance(paper, dict) and paper.get("url"):
            named += 1
            assert row["paper"] == identities.paper_from_url(paper["url"])[0], record["url"]
        else:
            assert row["paper"] is None, record["url"]
        assert row["description"] == (record.get("description") or ""), record["url"]  # raw, \r\n kept
    assert named == 1746
    described = sum(1 for row in served.values() if row["description"])
    assert described == sum(1 for record in records if record.get("description")) == 1798
    autoencoder = get(api, f"{V1}/methods/autoencoder/")
    assert autoencoder["paper"] == "reducing-the-dimensionality-of-data-with"
    assert autoencoder["description"].startswith("An **Autoencoder** is a bottleneck architecture")
    assert "\r\n\r\nImage: [Michael Massi]" in autoencoder["description"]


def test_the_dump_s_paper_comes_before_those_paper_documents_name(api):
    dumped, named_first, named_second = make_paper(slug="z-dump"), make_paper(slug="a"), make_paper(slug="b")
    both = make_method(slug="both", introduced_in=dumped)
    named_second.methods_introduced.add(both)
    documents_only = make_method(slug="documents-only")
    named_second.methods_introduced.add(documents_only)
    named_first.methods_introduced.add(documents_only)
    assert get(api, f"{V1}/methods/both/")["paper"] == "z-dump"
    assert get(api, f"{V1}/methods/documents-only/")["paper"] == "a"  # the first by id
    assert {r["id"]: r["paper"] for r in walk(api, f"{V1}/methods/")} == {
        "both": "z-dump",
        "documents-only": "a",
    }


def _gan_paper_record() -> dict:
    """The recorded PwC paper (paper_get_response.json) as the papers dump gives a paper, with
    the two methods PwC listed for it (paper_method_list_response.json)."""
    paper = json.loads(_needs(RECORDED / "paper_get_response.json").read_text())
    methods = json.loads((RECORDED / "paper_method_list_response.json").read_text())["results"]
    return {
        "paper_url": f"{PWC}/paper/{paper['id']}",
        "date": paper["published"],
        **{k: paper[k] for k in paper if k not in ("id", "published")},
        "tasks": [],
        "methods": [{k: method[k] for k in ("name", "full_name", "description")} for method in methods],
    }


def test_the_recorded_pwc_paper_and_its_methods_are_served_as_pwc_served_them(api, tmp_path):
    recorded_paper = json.loads(_needs(RECORDED / "paper_get_response.json").read_text())
    recorded_methods = json.loads((RECORDED / "paper_method_list_response.json").read_text())
    archive_dumps.write(tmp_path, "json.gz", {"papers-with-abstracts": [_gan_paper_record()]})
    load(tmp_path, _needs(METHODS_DUMP))
    paper = get(api, f"{V1}/papers/{recorded_paper['id']}/")
    assert {k: paper[k] for k in recorded_paper} == recorded_paper
    assert paper["conference"] == "generative-adversarial-networks-1"
    listed = next(p for p in walk(api, f"{V1}/papers/", q="Generative") if p["id"] == recorded_paper["id"])
    assert {k: listed[k] for k in recorded_paper} == recorded_paper
    methods = get(api, f"{V1}/papers/{recorded_paper['id']}/methods/")
    assert methods["count"] == recorded_methods["count"]
    by_id = sorted(recorded_methods["results"], key=lambda row: row["id"])
    assert methods["results"] == by_id  # GAN's paper is the GAN paper; Convolution's none


def test_a_paper_s_conference_fields_are_served_and_null_where_blank(api):
    stated = make_paper(
        conference="gpipe-efficient-training-of-giant-neural-1",
        conference_url_abs="https://papers.nips.cc/paper/8305-gpipe",
        conference_url_pdf="https://papers.nips.cc/paper/8305-gpipe.pdf",
        nips_id="8305",
    )
    blank = make_paper()
    for row in (get(api, f"{V1}/papers/{stated.slug}/"), *walk(api, f"{V1}/papers/", q=stated.title)):
        assert (row["conference"], row["conference_url_abs"], row["conference_url_pdf"], row["nips_id"]) == (
            stated.conference, stated.conference_url_abs, stated.conference_url_pdf, "8305",
        )  # fmt: skip
    row = get(api, f"{V1}/papers/{blank.slug}/")
    assert [row[k] for k in ("conference", "conference_url_abs", "conference_url_pdf", "nips_id")] == [
        None
    ] * 4


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


def _tasks_and_tables(path: Path):
    def walk_task(task):
        yield "task", task
        for table in task.get("datasets") or []:
            yield from walk_table(task, table, "")
        for sub in task.get("subtasks") or []:
            yield from walk_task(sub)

    def walk_table(task, table, parent):
        own = (table.get("dataset") or table.get("subdataset")).strip()  # as the loader reads a table
        name = f"{parent} ({own})" if parent else own
        yield "table", (task, name, table)
        for sub in table.get("subdatasets") or []:
            yield from walk_table(task, sub, name)

    for task in json.loads(path.read_text()):
        yield from walk_task(task)


def test_task_and_evaluation_descriptions_are_the_tables_own(api, tables):
    described_tasks = described_boards = 0
    for kind, item in _tasks_and_tables(SOTA / "nlp-progress.json"):
        if kind == "task" and item.get("description"):
            slug = identities.name_slug(item["task"].strip())
            assert get(api, f"{V1}/tasks/{slug}/")["description"] == item["description"], slug
            described_tasks += 1
        if kind == "table":
            task, dataset, table = item
            if not (table.get("sota") or {}).get("rows") or not table.get("description"):
                continue
            slug = identities.leaderboard_slug(identities.name_slug(task["task"].strip()), dataset)
            assert get(api, f"{V1}/evaluations/{slug}/")["description"] == table["description"], slug
            described_boards += 1
    assert (described_tasks, described_boards) > (10, 10)
    tasks = {t["id"]: t for t in walk(api, f"{V1}/tasks/", items_per_page=50)}
    assert tasks["summarization"]["description"].startswith("Summarization is the task of producing")


def test_every_result_s_best_metric_and_rank_are_its_board_s_as_the_page_ranks_it(api, tables):
    n_ranked = n_unranked = 0
    for board in m.Leaderboard.objects.all():
        page = reads.leaderboards.leaderboard_page(board)
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
    keeps that order. Tied rows come in one order on both databases (rows without a paper, no
    month, first: here every row names a paper, "Iyer et al." by its ACL Anthology page)."""
    _load_tables(tmp_path, "nlpprogress.json")
    rows = walk(api, f"{V1}/evaluations/sql-parsing-on-smaller-datasets-example/results/")
    ranked = sorted(rows, key=lambda r: r["best_rank"])
    assert {r["best_metric"] for r in rows} == {"Question Split"}
    assert [r["best_rank"] for r in ranked] == list(range(1, 12))
    iyer, seq2seq, template = "Iyer et al.,", "Seq2Seq with copying", "Template Baseline"
    assert [(r["rank_in_archive_order"], r["methodology"]) for r in ranked] == [
        (1, iyer), (1, seq2seq), (1, seq2seq), (1, seq2seq),
        (2, iyer), (2, iyer), (2, iyer), (2, seq2seq),
        (3, template), (3, template), (3, template),
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


def _methods(n: int, paper) -> None:
    for i in range(n):
        method = make_method(slug=f"method-{n}-{i:03d}", introduced_in=paper if i % 2 else None)
        paper.methods.add(method)
        if not i % 2:
            make_paper(slug=f"introducer-{n}-{i:03d}").methods_introduced.add(method)


def test_methods_their_detail_and_a_paper_s_methods_read_their_papers_in_fixed_queries(api):
    few, many = make_paper(slug="few"), make_paper(slug="many")
    _methods(2, few)
    _methods(30, many)
    # page mode: count, rows (with the dump's paper joined), the papers documents name
    assert _count(api, f"{V1}/methods/?items_per_page=1") == 3
    assert _count(api, f"{V1}/methods/?items_per_page=50") == 3
    assert _count(api, f"{V1}/methods/?pagination=cursor&items_per_page=50") == 2
    assert _count(api, f"{V1}/methods/method-30-001/") == 2
    assert _count(api, f"{V1}/methods/method-30-002/") == 2
    # + the paper
    assert _count(api, f"{V1}/papers/few/methods/?items_per_page=50") == 4
    assert _count(api, f"{V1}/papers/many/methods/?items_per_page=50") == 4
    papers = {r["id"]: r["paper"] for r in walk(api, f"{V1}/papers/many/methods/", items_per_page=50)}
    assert (papers["method-30-001"], papers["method-30-002"]) == ("many", "introducer-30-002")


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
