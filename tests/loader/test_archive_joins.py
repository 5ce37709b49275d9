"""Real archive material joined the way the field joins it (issue 33): one paper, one board, one code link.

Records are the real ones: tables from the sota-extractor samples and methods from the real methods
dump (``tests/data/pwc-archive-samples/``, CC BY-SA 4.0), with the seeds' GPipe paper document;
each test takes the few it needs, as an operator's dump would hold them.
"""

import copy
import gzip
import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from catalogue import models as m
from tests import archive_dumps
from tests.api_helpers import api_state
from tests.conftest import PAPER_SEED, load
from tests.dump import wipe
from tests.samples import SAMPLES

pytestmark = pytest.mark.django_db
SOTA = SAMPLES / "sota-extractor"


@pytest.fixture(autouse=True)
def _no_throttle(settings):
    settings.API_THROTTLE_ANON = "off"


def real_tables(file: str, task: str, *datasets: str) -> list[dict]:
    """The real evaluation tables of ``task`` (a task or subtask of the sample file) on ``datasets``,
    as a dump of that one task."""
    stack = json.loads((SOTA / file).read_text())
    while stack:
        record = stack.pop()
        if record["task"] == task:
            out = copy.deepcopy(record)
            out["datasets"] = [d for d in out.get("datasets") or [] if d["dataset"] in datasets]
            out["subtasks"] = []
            assert len(out["datasets"]) == len(datasets), (task, datasets)
            return [out]
        stack += record.get("subtasks") or []
    raise AssertionError(f"no task {task!r} in {file}")


def real_methods(*names: str) -> list[dict]:
    methods = json.loads(gzip.decompress((SAMPLES / "methods" / "methods.json.gz").read_bytes()))
    found = [method for method in methods if method["name"] in names]
    assert len(found) == len(names), names
    return found


def write_dump(folder: Path, name: str, records: list) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(records))
    return path


def write_tables(folder: Path, name: str, file: str, task: str, *datasets: str) -> Path:
    """``real_tables(file, task, *datasets)`` written as the dump ``name``."""
    return write_dump(folder, name, real_tables(file, task, *datasets))


def test_a_rows_code_links_are_code_links_of_its_paper(tmp_path):
    """OGB's rows give each paper's code: a code link of that paper, its flags unknown, from the board."""
    tables = real_tables("ogb.json", "Node Property Prediction", "ogbn-arxiv")
    rows = tables[0]["datasets"][0]["sota"]["rows"]
    row = next(r for r in rows if "arxiv.org" in r["paper_url"] and r["code_links"])
    load(write_dump(tmp_path, "evaluation-tables.json", tables))

    arxiv_id = row["paper_url"].rsplit("/", 1)[1].split("v")[0]
    paper = m.Paper.objects.get(arxiv_id=arxiv_id)
    link = paper.code_links.get()
    assert link.repo_url == row["code_links"][0]["url"]
    assert (link.is_official, link.mentioned_in_paper, link.mentioned_in_github) == (None, None, None)
    (source,) = link.sources.select_related("document", "leaderboard")
    assert source.document.url == "archive:evaluation-tables"
    assert source.leaderboard.slug == "node-property-prediction-on-ogbn-arxiv"
    distinct = {(r["paper_url"], c["url"]) for r in rows for c in r["code_links"] if "github.com" in c["url"]}
    assert m.CodeLink.objects.count() == len(distinct)

    api = APIClient()
    (repository,) = api.get(f"/api/v1/papers/{paper.slug}/repositories/").json()["results"]
    assert link.repo_url.startswith(repository["url"] + "/")  # the repository, its sub-path aside
    assert repository["is_official"] is None
    assert repository["sources"] == [
        {"document": "archive:evaluation-tables", "leaderboard": "node-property-prediction-on-ogbn-arxiv"}
    ]
    page = api.get(f"/paper/{paper.slug}").content.decode()
    assert link.repo_url.split("github.com/")[1] in page
    assert 'from a row of <a href="/sota/node-property-prediction-on-ogbn-arxiv">' in page
    assert paper.url_abs == row["paper_url"]  # the paper's own link, from the row


def test_the_links_dumps_record_of_the_same_link_wins_and_both_are_its_sources(tmp_path):
    tables = real_tables("ogb.json", "Node Property Prediction", "ogbn-arxiv")
    row = next(r for r in tables[0]["datasets"][0]["sota"]["rows"] if "arxiv.org" in r["paper_url"])
    repo_url = row["code_links"][0]["url"]
    link_record = {
        "paper_url": "https://paperswithcode.com/paper/some-slug-of-it",
        "paper_arxiv_id": row["paper_url"].rsplit("/", 1)[1],
        "paper_title": "A title",
        "repo_url": repo_url,
        "is_official": True,
        "mentioned_in_paper": True,
        "mentioned_in_github": False,
        "framework": "pytorch",
    }
    write_dump(tmp_path, "evaluation-tables.json", tables)
    write_dump(tmp_path, "links-between-papers-and-code.json", [link_record])
    load(tmp_path)
    link = m.CodeLink.objects.get(repo_url=repo_url)
    assert (link.is_official, link.mentioned_in_paper, link.mentioned_in_github, link.framework) == (
        True,
        True,
        False,
        "pytorch",
    )
    assert sorted(s.document.url for s in link.sources.all()) == [
        "archive:evaluation-tables",
        "archive:links-between-papers-and-code",
    ]
    # A new copy of the links dump without it: the table still states the link, so it stays. (A copy
    # that gives none of the links the one it replaces gave is refused unless accepted: issue 34.)
    write_dump(tmp_path, "links-between-papers-and-code.json", [{**link_record, "repo_url": ""}])
    load(tmp_path / "links-between-papers-and-code.json", allow_shrink=True)
    assert [s.document.url for s in m.CodeLink.objects.get(repo_url=repo_url).sources.all()] == [
        "archive:evaluation-tables"
    ]


def test_a_paper_named_by_its_acl_anthology_page_gets_a_record_and_a_page(tmp_path):
    tables = real_tables("nlp-progress.json", "Semantic Role Labeling", "OntoNotes")
    rows = tables[0]["datasets"][0]["sota"]["rows"]
    row = next(r for r in rows if "aclweb.org" in r["paper_url"] or "aclanthology" in r["paper_url"])
    load(write_dump(tmp_path, "evaluation-tables.json", tables))
    result = m.Result.objects.get(model=row["model_name"].strip(), paper_url=row["paper_url"])
    paper = result.paper
    assert paper is not None
    assert paper.landing_key.startswith("acl:")
    assert paper.url_abs == row["paper_url"]
    assert paper.title == row["paper_title"].strip()
    response = APIClient().get(f"/paper/{paper.slug}")
    assert response.status_code == 200
    assert row["paper_url"] in response.content.decode()
    # The same load again finds the same paper by its landing page.
    load(write_dump(tmp_path, "evaluation-tables.json", tables), force=True)
    assert m.Paper.objects.filter(landing_key=paper.landing_key).count() == 1
    assert m.Paper.objects.count() == m.Paper.objects.values("landing_key", "arxiv_id").distinct().count()


def _transformer_material(tmp_path) -> tuple[Path, Path]:
    tables = real_tables("nlpprogress.json", "Machine translation", "WMT 2014 EN-DE", "WMT 2014 EN-FR")
    methods = real_methods("Transformer", "Multi-Head Attention", "Scaled Dot-Product Attention")
    return (
        write_dump(tmp_path / "t", "evaluation-tables.json", tables),
        write_dump(tmp_path / "m", "methods.json", methods),
    )


def _one_transformer_paper():
    (paper,) = m.Paper.objects.filter(title_key="attention is all you need")
    assert paper.arxiv_id == "1706.03762"
    assert paper.slug == "attention-is-all-you-need"  # the stated slug is its address
    assert {s.slug for s in paper.slugs.all()} == {"attention-is-all-you-need", "arxiv-1706-03762"}
    assert paper.results.exists()
    assert set(m.Method.objects.filter(introduced_in=paper).values_list("slug", flat=True)) == {
        "transformer",
        "multi-head-attention",
        "scaled",
    }
    return paper


def test_the_methods_dumps_paper_and_the_tables_paper_are_one_in_one_load(tmp_path):
    tables, methods = _transformer_material(tmp_path)
    _out, err = load(tables, methods)
    paper = _one_transformer_paper()
    assert APIClient().get("/api/v1/methods/transformer/").json()["paper"] == paper.slug
    assert "papers titled 'attention is all you need' are one paper" in err
    assert "merged by title" in err
    assert APIClient().get("/paper/arxiv-1706-03762").status_code == 301  # the alias leads to the paper


@pytest.mark.parametrize("first", ["tables", "methods"])
def test_the_methods_dumps_paper_and_the_tables_paper_are_one_in_two_loads(tmp_path, first):
    tables, methods = _transformer_material(tmp_path)
    load(*((tables,) if first == "tables" else (methods,)))
    load(*((methods,) if first == "tables" else (tables,)))
    _one_transformer_paper()


def test_two_papers_a_title_cannot_tell_apart_stay_two(tmp_path):
    """Two arXiv ids, or two slugs both stated, under one title: two papers (an arXiv and a conference
    version under two slugs), not one; nor is a title of a few letters ("[1]") a paper's identity."""
    tables = real_tables("nlpprogress.json", "Machine translation", "WMT 2014 EN-DE")
    row = tables[0]["datasets"][0]["sota"]["rows"][0]  # Understanding Back-Translation at Scale
    twin = {**row, "paper_url": "https://arxiv.org/abs/1999.00001", "model_name": "Twin"}
    short = {**row, "paper_url": "https://arxiv.org/abs/1999.00002", "paper_title": "[1]", "model_name": "A"}
    tables[0]["datasets"][0]["sota"]["rows"] = [row, twin, short]
    methods = real_methods("Transformer")  # paper /paper/attention-is-all-you-need
    methods.append({**methods[0], "url": "https://paperswithcode.com/method/other", "name": "Other"})
    methods[1]["paper"] = {**methods[0]["paper"], "url": methods[0]["paper"]["url"] + "-1"}
    methods.append({**methods[0], "url": "https://paperswithcode.com/method/x", "name": "X"})
    methods[2]["paper"] = {"title": "[1]", "url": "https://paperswithcode.com/paper/one"}
    _out, err = load(write_dump(tmp_path / "t", "evaluation-tables.json", tables))
    _out, err2 = load(write_dump(tmp_path / "m", "methods.json", methods))
    assert "merged by title" not in err + err2
    assert m.Paper.objects.filter(title_key="understanding back translation at scale").count() == 2
    assert sorted(
        m.Paper.objects.filter(title_key="attention is all you need").values_list("slug", flat=True)
    ) == [
        "attention-is-all-you-need",
        "attention-is-all-you-need-1",
    ]
    assert m.Paper.objects.filter(title_key="1").count() == 2


def test_a_document_and_a_dump_giving_one_result_are_one_result_with_both_sources(tmp_path):
    """The GPipe paper document states its ImageNet row; a table states the same row (no
    uses_additional_data, the value as a number, the model with a trailing space): one result."""
    table = [
        {
            "task": "Image Classification",
            "datasets": [
                {
                    "dataset": "ImageNet",
                    "sota": {
                        "metrics": ["Top 1 Accuracy"],
                        "rows": [
                            {
                                "model_name": "GPIPE ",
                                "paper_title": "GPipe: Efficient Training of Giant Neural Networks",
                                "paper_url": "https://arxiv.org/abs/1811.06965v5",
                                "paper_date": "2018-11-16",
                                "metrics": {"Top 1 Accuracy": "84.4 %"},
                                "code_links": [],
                                "model_links": [],
                            }
                        ],
                    },
                }
            ],
            "subtasks": [],
        }
    ]
    load(PAPER_SEED, write_dump(tmp_path, "evaluation-tables.json", table))
    board = m.Leaderboard.objects.get(slug="image-classification-on-imagenet")
    (result,) = board.results.all()
    assert result.paper.arxiv_id == "1811.06965"
    assert sorted(s.document.url for s in result.sources.all()) == [
        "/paper/gpipe-efficient-training-of-giant-neural",
        "archive:evaluation-tables",
    ]


def test_tables_merged_into_one_board_keep_every_column_in_table_order(tmp_path):
    """nlp-progress calls Gigaword's second column "ROUGE-2*", nlpprogress "ROUGE-2"; Quora Question
    Pairs has F1 in one and not the other: the board keeps every column, and every row its values."""
    write_tables(tmp_path, "evaluation-tables-a.json", "nlp-progress.json", "Summarization", "Gigaword")
    write_tables(tmp_path, "evaluation-tables-b.json", "nlpprogress.json", "Summarization", "Gigaword")
    quora = "Quora Question Pairs"
    write_tables(
        tmp_path, "evaluation-tables-c.json", "nlp-progress.json", "Paraphrase Identification", quora
    )
    write_tables(tmp_path, "evaluation-tables-d.json", "nlpprogress.json", "Paraphrase identification", quora)
    load(tmp_path)
    gigaword = m.Leaderboard.objects.get(slug="summarization-on-gigaword")
    assert set(gigaword.metrics) == {"ROUGE-1", "ROUGE-2*", "ROUGE-2", "ROUGE-L"}
    quora = m.Leaderboard.objects.get(slug="paraphrase-identification-on-quora-question-pairs")
    assert set(quora.metrics) == {"F1", "Accuracy"}
    for board in (gigaword, quora):
        stated = {name for r in board.results.all() for name in r.metrics}
        assert stated <= set(board.metrics)
    page = APIClient().get("/sota/summarization-on-gigaword").content.decode()
    assert "ROUGE-2*" in page


def test_names_with_odd_spaces_are_one_name_whatever_the_order(tmp_path):
    tables = real_tables("nlpprogress.json", "Machine translation", "WMT 2014 EN-DE")
    spaced = copy.deepcopy(tables)
    spaced[0]["task"] = "\u3000Machine  translation "
    spaced[0]["datasets"][0]["dataset"] = " WMT 2014 EN-DE\u00a0"
    spaced[0]["datasets"][0]["sota"]["metrics"] = [
        f" {n}\u3000" for n in spaced[0]["datasets"][0]["sota"]["metrics"]
    ]
    for row in spaced[0]["datasets"][0]["sota"]["rows"]:
        row["metrics"] = {f" {k} ": v for k, v in row["metrics"].items()}
    names = []
    for order in ((tables, spaced), (spaced, tables)):
        wipe()
        for i, records in enumerate(order):
            write_dump(tmp_path / str(len(names)), f"evaluation-tables-{i}.json", records)
        load(tmp_path / str(len(names)))
        board = m.Leaderboard.objects.select_related("task", "dataset").get()
        names.append((board.task.name, board.dataset.name, board.metrics, board.results.count()))
    assert names[0] == names[1]
    assert names[0][:3] == (
        "Machine translation",
        "WMT 2014 EN-DE",
        tables[0]["datasets"][0]["sota"]["metrics"],
    )


def _real_mix(tmp_path) -> list[Path]:
    """Three sample tables and three methods, with the GPipe paper document: a mix that merges."""
    return [
        write_tables(
            tmp_path, "evaluation-tables-mt.json", "nlpprogress.json", "Machine translation", "WMT 2014 EN-DE"
        ),
        write_tables(
            tmp_path, "evaluation-tables-sum.json", "nlp-progress.json", "Summarization", "Gigaword"
        ),
        write_tables(
            tmp_path, "evaluation-tables-sum2.json", "nlpprogress.json", "Summarization", "Gigaword"
        ),
        write_dump(tmp_path, "methods.json", real_methods("Transformer", "Adam", "Dropout")),
        PAPER_SEED,
    ]


def test_two_load_orders_give_byte_identical_api_responses(tmp_path):
    files = _real_mix(tmp_path)
    states = []
    for runs in ([files], [list(reversed(files))], [files[3:], files[:3]], [[f] for f in reversed(files)]):
        wipe()
        for run in runs:
            load(*run)
        states.append(json.dumps(api_state(APIClient()), sort_keys=True))
    assert states[1] == states[0]
    assert states[2] == states[0]
    assert states[3] == states[0]


def test_a_merge_warning_names_the_files_of_every_spelling(tmp_path):
    files = _real_mix(tmp_path)
    _out, err = load(*files)
    assert "(named so by )" not in err
    assert "are one task, /task/machine-translation" in err
    line = next(w for w in err.splitlines() if "are one task, /task/machine-translation" in w)
    assert "003_" in line
    assert "evaluation-tables-mt.json" in line


def test_the_load_summary_accounts_for_every_row_by_kind_of_source(tmp_path):
    files = _real_mix(tmp_path)
    out, _err = load(*files)
    run = m.LoadRun.objects.get()
    tables = run.by_source["archive_evaluations"]
    records = [json.loads(f.read_text()) for f in files[:3]]
    rows = sum(len(d["sota"]["rows"]) for r in records for t in r for d in t["datasets"])
    assert tables["files"] == 3
    assert tables["records"] == 3  # a record of the evaluation tables is a task
    # every row is a staged result or skipped; staged ones are one with another or a result of theirs
    assert tables["results_staged"] + tables["rows_skipped"] == rows
    assert tables["results_staged"] - tables["results_collapsed"] == tables["results_stated"]
    stated = m.Result.objects.filter(sources__document__kind="archive_evaluations").distinct().count()
    assert tables["results_stated"] == stated
    methods = run.by_source["archive_methods"]
    assert (methods["files"], methods["records"]) == (1, 3)
    assert methods["papers_merged_by_title"] == 1  # Attention Is All You Need, named by its arXiv URL too
    assert run.by_source["paper"]["results_stated"] == 5
    assert "evaluation-tables dump: 3 files, 3 records read, 0 rows skipped" in out
    assert "methods dump: 1 file, 3 records read" in out


@pytest.mark.parametrize(
    "order",
    [
        # each dump in a run of its own, the five in reverse: the methods dump's slug-only paper
        # comes first, and the papers dump's record of it once failed the load as a clash
        (4, 3, 2, 1, 0),
        # the papers dump first: its paper names "Pyramid Pooling Module", which the methods dump
        # (a later run) calls ``ppm``; one method either way
        (0, 1, 2, 3, 4),
        (3, 2, 0, 4, 1),
    ],
    ids=["reversed", "dump order", "mixed"],
)
def test_the_five_dumps_one_per_run_give_the_catalogue_one_run_gives(tmp_path, order):
    files = archive_dumps.write(tmp_path / "dumps")
    load(*files)
    expected = json.dumps(api_state(APIClient()), sort_keys=True)
    wipe()
    for i in order:
        load(files[i])
    assert json.dumps(api_state(APIClient()), sort_keys=True) == expected
    assert m.Method.objects.filter(name="Pyramid Pooling Module").get().slug == "ppm"
    assert m.Paper.objects.get(arxiv_id="1811.06965").slug == "gpipe-efficient-training-of-giant-neural"


def _two_imagenets() -> list[dict]:
    """The archive's datasets dump holds ``ImageNet`` and ``Imagenet`` as two datasets (their names
    give one slug, their records two addresses)."""
    return [
        {"url": f"{archive_dumps.PWC}/dataset/{slug}", "name": name, "full_name": name, "description": ""}
        for slug, name in (("imagenet", "ImageNet"), ("imagenet-1", "Imagenet"))
    ]


@pytest.mark.parametrize("paper_document_first", [True, False])
def test_a_dataset_the_catalogue_named_keeps_its_address_when_the_dump_states_two_spellings(
    tmp_path, paper_document_first
):
    # The paper document's board is on "ImageNet": named only, /dataset/imagenet. The datasets dump
    # stated later once moved it to /dataset/imagenet-1 (the other spelling's), and the tables'
    # "ImageNet" and "Imagenet" then claimed one board address as two pairs: the load was refused.
    dumps = archive_dumps.write(tmp_path, dumps={"datasets": _two_imagenets()})
    for files in [[PAPER_SEED], dumps] if paper_document_first else [dumps, [PAPER_SEED]]:
        load(*files)
    assert dict(m.Dataset.objects.filter(name__iexact="imagenet").values_list("name", "slug")) == {
        "ImageNet": "imagenet",
        "Imagenet": "imagenet-1",
    }
    board = m.Leaderboard.objects.get(slug="image-classification-on-imagenet")
    assert board.dataset.slug == "imagenet"
