"""load_snapshot on the Papers-with-Code archive's own dump files (catalogue.loader.archive): every
kind in every form, and what real data is like.

The dumps are written by ``tests/archive_dumps.py`` (every kind, every form) and, for the real
evaluation tables, copied from tests/data/pwc-archive-samples/sota-extractor/ under an
``evaluation-tables-…`` name, as an operator would. Reading a dump in parts is in
test_archive_parts.py; the real evaluation tables, and both databases, in test_archive_tables.py.
"""

import copy
import json
import shutil

import pytest
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from catalogue import models as m
from tests import archive_dumps
from tests.api_helpers import api_state
from tests.archive_dumps import PROVENANCE, PSPNET_BOARD, dumps
from tests.conftest import PAPER_SEED, SEEDS, load
from tests.dump import catalogue_state, wipe

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- every kind, every form ----------------------------------------------------------------


def test_every_form_of_the_dumps_loads_into_the_same_catalogue(tmp_path):
    states = []
    for form in ("json", "json.gz", "parquet"):
        wipe()
        _out, err = load(dumps(tmp_path, form))
        # Every answer, and every row but where it came from (the file's name, checksum, stamp).
        rows = {
            model: [row for row in state if "sha256" not in row]
            for model, state in catalogue_state(exclude=PROVENANCE).items()
        }
        states.append((api_state(APIClient()), rows, err.replace(".json.gz", "").replace(".json", "")))
    assert states[0] == states[1] == states[2]
    assert m.Paper.objects.count() == 5
    assert m.Result.objects.count() == 8


def test_parquet_typed_values_are_read_as_json_has_them_at_any_depth(tmp_path):
    """Real shards may type what the JSON dumps write as text: dates, decimals, bytes, maps.
    Each is read as JSON's value, at the top of a record and inside its lists and objects;
    JSON's own values (text, numbers, booleans, nulls) pass as they are, types kept."""
    import datetime as dt
    from decimal import Decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    from catalogue.loader.archive import Dump, records

    day, moment = dt.date(2019, 5, 28), dt.datetime(2019, 5, 28, 13, 45, 7, tzinfo=dt.UTC)
    table = pa.table(
        {
            "date": pa.array([day], pa.date32()),
            "at": pa.array([moment], pa.timestamp("s", tz="UTC")),
            "score": pa.array([Decimal("84.40")], pa.decimal128(5, 2)),
            "raw": pa.array([b"caf\xc3\xa9 \xff"], pa.binary()),
            "extra": pa.array([[("top1", Decimal("0.50"))]], pa.map_(pa.string(), pa.decimal128(3, 2))),
            "dates": pa.array([[day, None]], pa.list_(pa.date32())),
            "nested": pa.array(
                [{"when": day, "n": 3, "ok": True, "x": 0.25, "none": None, "words": ["a", "b"]}],
                pa.struct(
                    [
                        ("when", pa.date32()),
                        ("n", pa.int64()),
                        ("ok", pa.bool_()),
                        ("x", pa.float64()),
                        ("none", pa.string()),
                        ("words", pa.list_(pa.string())),
                    ]
                ),
            ),
        }
    )
    path = tmp_path / "shard.parquet"
    pq.write_table(table, path)
    (record,) = records(Dump("papers", (path,)))
    assert record == {
        "date": "2019-05-28",
        "at": "2019-05-28T13:45:07+00:00",
        "score": 84.4,
        "raw": "café \ufffd",
        "extra": {"top1": 0.5},
        "dates": ["2019-05-28", None],
        "nested": {"when": "2019-05-28", "n": 3, "ok": True, "x": 0.25, "none": None, "words": ["a", "b"]},
    }
    kinds = {k: type(v) for k, v in record["nested"].items()}
    assert kinds == {"when": str, "n": int, "ok": bool, "x": float, "none": type(None), "words": list}
    assert type(record["score"]) is float
    assert type(record["extra"]["top1"]) is float


def test_a_gzip_stream_under_a_json_name_is_read_as_gzip(tmp_path):
    folder = dumps(tmp_path, "json.gz")
    target = tmp_path / "renamed"
    target.mkdir()
    for path in folder.iterdir():
        shutil.copy(path, target / path.name.removesuffix(".gz"))
    load(target)
    assert m.Paper.objects.filter(slug="pspnet").exists()


def test_loading_the_dumps_again_changes_nothing(tmp_path):
    folder = dumps(tmp_path)
    load(folder)
    before = catalogue_state()
    out, _ = load(folder)
    assert "nothing changed" in out
    out, _ = load(folder, force=True)
    assert "nothing changed" in out
    assert catalogue_state() == before


def test_what_the_dumps_carry_is_kept(tmp_path):
    load(dumps(tmp_path))
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    assert [a.name for a in gpipe.authors.order_by("position")] == [
        "Yanping Huang",
        "Youlong Cheng",
        "Ankur Bapna",
    ]
    assert set(gpipe.tasks.values_list("slug", flat=True)) == {"image-classification", "machine-translation"}
    assert gpipe.conference == "gpipe-efficient-training-of-giant-neural-1"
    assert gpipe.source["file"] == "papers-with-abstracts.json.gz"
    assert gpipe.source["row_kind"] == "abstracts"
    links = {link.repo.key: link for link in gpipe.code_links.select_related("repo", "document")}
    assert links["github.com/paddlepaddle/fleetx"].sub_path == "tree/develop/examples/pipeline"
    assert links["github.com/paddlepaddle/fleetx"].is_official is True
    assert links["github.com/kakaobrain/torchgpipe"].framework == "pytorch"
    assert links["github.com/kakaobrain/torchgpipe"].document.url == "archive:links-between-papers-and-code"
    # the task tree, areas, a subdataset as a table of its own
    realtime = m.Task.objects.get(slug="real-time-semantic-segmentation")
    assert realtime.parent.slug == "semantic-segmentation"
    assert list(realtime.areas.values_list("name", flat=True)) == ["Computer Vision"]
    assert m.Task.objects.get(slug="semantic-segmentation").synonyms == ["scene parsing"]
    small = m.Dataset.objects.get(slug="wikitext-103-small")
    assert (small.name, small.parent.slug) == ("WikiText-103 (Small)", "wikitext-103")
    # datasets and methods with their details and introducing papers
    cityscapes = m.Dataset.objects.get(slug="cityscapes")
    assert cityscapes.modalities == ["Images"]
    assert cityscapes.introduced_in.slug == "the-cityscapes-dataset-for-semantic-urban"
    assert list(cityscapes.tasks.values_list("slug", flat=True)) == ["semantic-segmentation"]
    assert cityscapes.data_loaders[0]["frameworks"] == ["pytorch"]
    gpipe_method = m.Method.objects.get(slug="gpipe")
    assert gpipe_method.introduced_in == gpipe
    assert gpipe_method.num_papers == 12
    assert [(c.name, c.area.name) for c in gpipe_method.collections.select_related("area")] == [
        ("Distributed Methods", "General")
    ]
    # a paper's method by name is the methods dump's method of that name (another slug)
    assert list(m.Paper.objects.get(slug="pspnet").methods.values_list("slug", flat=True)) == ["ppm"]
    # each leaderboard's columns in the table's order
    assert m.Leaderboard.objects.get(slug="language-modelling-on-wikitext-103").metrics == [
        "Number of params",
        "Test perplexity",
    ]


def test_a_paper_under_a_second_slug_is_one_paper_and_both_addresses_work(tmp_path, client):
    load(dumps(tmp_path))
    paper = m.Paper.objects.get(arxiv_id="1612.01105")
    assert set(paper.slugs.values_list("slug", flat=True)) >= {"pspnet", "pspnet-1"}
    assert paper.title == "Pyramid Scene Parsing Network"  # padded in one record
    assert client.get("/paper/pspnet-1").status_code == 301


def test_dumps_and_snapshot_documents_meet_on_the_real_identities(tmp_path):
    """The seeds' GPipe (a paper document) and the dumps' GPipe (1811.06965v5) are one paper."""
    load(dumps(tmp_path), *SEEDS)
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    assert m.Paper.objects.filter(title__startswith="GPipe").count() == 1
    # both sides' code links, each kept by the source that gave it
    assert {link.repo.key for link in gpipe.code_links.select_related("repo")} >= {
        "github.com/kakaobrain/torchgpipe",
        "github.com/paddlepaddle/fleetx",
    }
    assert gpipe.samples.exists()  # Syntology's reading, from the paper document


# --- what real data is like ----------------------------------------------------------------


def test_bad_rows_are_skipped_naming_file_record_and_field_and_the_rest_loads(tmp_path):
    _out, err = load(dumps(tmp_path))
    assert "links-between-papers-and-code.json.gz: [2].repo_url: is empty: it names no repository" in err
    assert "links-between-papers-and-code.json.gz: [3].repo_url: expected a repository URL" in err
    assert "evaluation-tables.json.gz: [1].datasets[1].dataset: is required (the table's dataset)" in err
    assert "papers-with-abstracts.json.gz: [4].paper_url: names no paper" in err
    assert "took the URL out of 'see https://arxiv.org/abs/1612.01105 (abstract)'" in err
    pspnet = m.Paper.objects.get(arxiv_id="1612.01105")
    assert pspnet.url_abs == "https://arxiv.org/abs/1612.01105"
    assert [link.repo.key for link in pspnet.code_links.select_related("repo")] == [
        "github.com/hszhao/pspnet"
    ]
    assert m.Dataset.objects.get(slug="wikitext-103").homepage == ""  # "junk homepage" left out


def test_a_result_without_a_dataset_is_skipped_and_its_paper_loads(tmp_path):
    doc = json.loads(PAPER_SEED.read_text())
    doc["results"][0]["dataset"] = None
    path = tmp_path / "003.json"
    path.write_text(json.dumps(doc))
    _out, err = load(path)
    assert "003.json: results[0].dataset: is required (result skipped)" in err
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    assert paper.results.count() == len(doc["results"]) - 1
    assert paper.code_links.count() == len(doc["code_links"])


def test_an_empty_repo_url_in_a_paper_document_skips_that_link_only(tmp_path):
    doc = json.loads(PAPER_SEED.read_text())
    doc["code_links"][0]["repo_url"] = ""
    path = tmp_path / "003.json"
    path.write_text(json.dumps(doc))
    _out, err = load(path)
    assert "003.json: code_links[0].repo_url: is empty: it names no repository (code link skipped)" in err
    assert m.CodeLink.objects.count() == len(doc["code_links"]) - 1


def test_no_result_row_is_lost_only_identical_ones_are_one(tmp_path):
    _out, err = load(dumps(tmp_path))
    board = m.Leaderboard.objects.get(slug=PSPNET_BOARD)
    pspnet = board.results.filter(model="PSPNet")
    # two settings of one model: two rows; the row listed twice: one row, and said so
    assert sorted(r.metrics["Mean IoU (class)"] for r in pspnet) == ["78.4%", "81.2%"]
    assert "1 result rows were identical to another of their board: one with it" in err
    # a leaderboard row that points at no paper keeps its model name
    entry = board.results.get(model="Leaderboard entry")
    assert entry.paper is None
    # a dataset spelled with a space is the same table's dataset: one board
    assert board.results.filter(model="DeepLab").exists()


def test_result_ids_are_unique_within_a_paper_and_a_board(tmp_path):
    load(dumps(tmp_path))
    client = APIClient()
    for url in (f"/api/v1/evaluations/{PSPNET_BOARD}/results/", "/api/v1/papers/pspnet/results/"):
        rows = client.get(url).json()["results"]
        assert len({row["id"] for row in rows}) == len(rows) > 1, url
    rows = client.get(f"/api/v1/evaluations/{PSPNET_BOARD}/results/").json()["results"]
    without = next(r for r in rows if r["methodology"] == "Leaderboard entry")
    assert without["paper"] is None
    detail = client.get(f"/api/v1/evaluations/{PSPNET_BOARD}/results/{without['id']}/")
    assert detail.status_code == 200


def test_names_that_give_one_slug_are_one_thing_with_aliases(tmp_path):
    def spell(tables):
        datasets = tables[1]["datasets"]
        datasets.append(copy.deepcopy(datasets[0]))
        datasets[-1]["dataset"] = "WIKITEXT-103"
        datasets.append(
            {
                "dataset": " FB15k",
                "sota": {"metrics": ["MRR"], "rows": [archive_dumps._row("A", {"MRR": "0.3"})]},
            }
        )
        datasets.append(
            {
                "dataset": "FB15k",
                "sota": {"metrics": ["MRR"], "rows": [archive_dumps._row("B", {"MRR": "0.4"})]},
            }
        )
        datasets.append(
            {
                "dataset": "Supervised:",
                "sota": {"metrics": ["MRR"], "rows": [archive_dumps._row("C", {"MRR": "0.5"})]},
            }
        )

    def plain(tables):
        tables[0]["datasets"].append(
            {
                "dataset": "Supervised",
                "sota": {"metrics": ["MRR"], "rows": [archive_dumps._row("D", {"MRR": "0.6"})]},
            }
        )

    _out, err = load(dumps(tmp_path, evaluation_tables=lambda t: (spell(t), plain(t))))
    wikitext = m.Dataset.objects.get(slug="wikitext-103")
    assert wikitext.name == "WikiText-103"  # the dump's own record of it names it
    assert wikitext.aliases == ["WIKITEXT-103"]
    assert "'WIKITEXT-103' / 'WikiText-103' are one dataset, /dataset/wikitext-103" in err
    fb15k = m.Dataset.objects.get(slug="fb15k")
    assert fb15k.leaderboards.count() == 1
    assert fb15k.leaderboards.get().results.count() == 2
    supervised = m.Dataset.objects.get(slug="supervised")
    assert supervised.name == "Supervised"  # the spelling without stray punctuation is shown
    assert supervised.aliases == ["Supervised:"]


def test_a_later_load_that_meets_an_earlier_leaderboard_address_says_so_cleanly(tmp_path):
    first = tmp_path / "first.json"
    doc = json.loads(PAPER_SEED.read_text())
    first.write_text(json.dumps(doc))
    load(first)
    before = catalogue_state()
    # Another task × dataset pair stating the same /sota/ address: no traceback, files named.
    clash = copy.deepcopy(doc)
    clash.update(url="/paper/other-paper", arxiv_id="2001.00001", title="Other")
    clash["syntology"] = None
    clash["results"] = [{**doc["results"][0], "task": "Something Else", "dataset": "Another"}]
    second = tmp_path / "second.json"
    second.write_text(json.dumps(clash))
    with pytest.raises(CommandError) as error:
        load(second)
    message = str(error.value)
    assert f"/sota/{doc['results'][0]['leaderboard'].removeprefix('/sota/')} is claimed by two" in message
    assert "second.json" in message
    assert "IntegrityError" not in message
    assert "Traceback" not in message
    assert catalogue_state() == before
    # --keep-going skips the document involved, lists it, and loads the rest
    third = tmp_path / "third.json"
    third.write_text(json.dumps({**clash, "url": "/paper/third", "arxiv_id": "2001.00002", "results": []}))
    _out, err = load(second, third, keep_going=True)
    assert "skipped, as two sources claim one thing" in err
    assert m.Paper.objects.filter(arxiv_id="2001.00002").exists()
    assert not m.Paper.objects.filter(arxiv_id="2001.00001").exists()


def test_every_clash_of_a_load_is_reported_in_one_run_in_one_order(tmp_path):
    def doc(name, arxiv_id, slug, entry=None):
        body = {"url": f"/paper/{slug}", "arxiv_id": arxiv_id, "title": name}
        (tmp_path / f"{name}.json").write_text(json.dumps(body))

    doc("a", "2001.00001", "shared-slug")
    doc("b", "2001.00002", "shared-slug")
    doc("c", "2001.00003", "second-shared")
    doc("d", "2001.00004", "second-shared")
    messages = set()
    for order in (sorted(tmp_path.glob("*.json")), sorted(tmp_path.glob("*.json"), reverse=True)):
        with pytest.raises(CommandError) as error:
            load(*order)
        messages.add(str(error.value).split("\nNothing was written")[0])  # each run has its own record
    (message,) = messages
    assert "/paper/second-shared is given to 2 papers (2001.00003, 2001.00004) by c.json, d.json" in message
    assert "/paper/shared-slug is given to 2 papers (2001.00001, 2001.00002) by a.json, b.json" in message


def test_a_paper_s_identity_is_the_same_in_one_run_or_two(tmp_path):
    """A slug-only paper (a leaderboard row's PwC URL) and the arXiv paper of that slug are one."""
    folder = dumps(tmp_path)
    evaluations = folder / "evaluation-tables.json.gz"
    papers = folder / "papers-with-abstracts.json.gz"
    load(evaluations, papers)
    one_run = catalogue_state()
    wipe()
    load(evaluations)
    load(papers)
    two_runs = catalogue_state()
    wipe()
    load(papers)
    load(evaluations)
    assert one_run["Paper"] == two_runs["Paper"] == catalogue_state()["Paper"]
    assert m.Paper.objects.filter(slug="pspnet").get().arxiv_id == "1612.01105"


def test_a_dump_that_is_not_a_list_or_breaks_part_way_is_refused_and_skipped_whole(tmp_path):
    (tmp_path / "methods.json").write_text('{"url": "x"}')
    with pytest.raises(CommandError, match=r"methods.json: expected a list of records, got an object"):
        load(tmp_path / "methods.json")
    folder = dumps(tmp_path)
    broken = tmp_path / "datasets-broken.json"
    broken.write_text(json.dumps(archive_dumps.DATASETS)[:-40])
    before = catalogue_state()
    with pytest.raises(CommandError, match=r"datasets-broken.json: invalid JSON"):
        load(folder, broken)
    assert catalogue_state() == before
    _out, err = load(folder, broken, keep_going=True)
    assert "skipped: datasets-broken.json: invalid JSON" in err
    assert m.Dataset.objects.filter(slug="cityscapes").exists()  # from datasets.json.gz
    assert not m.SourceDocument.objects.filter(url="archive:datasets-broken").exists()


def test_a_clash_on_a_dump_s_first_record_skips_that_record_not_the_dump(tmp_path):
    """Units are numbered from 1 in a dump: 0 is a whole document, and --keep-going skips those whole."""

    def paper(arxiv_id, slug):
        return {"paper_url": f"{archive_dumps.PWC}/paper/{slug}", "arxiv_id": arxiv_id, "title": slug}

    papers = [
        paper("2001.00001", "shared-slug"),
        paper("2001.00002", "shared-slug"),
        paper("2001.00003", "own"),
    ]
    archive_dumps.write(tmp_path, "json", {"papers-with-abstracts": papers})
    _out, err = load(tmp_path / "papers-with-abstracts.json", keep_going=True)
    assert "/paper/shared-slug is given to 2 papers (2001.00001, 2001.00002)" in err
    assert list(m.Paper.objects.values_list("arxiv_id", flat=True)) == ["2001.00003"]
    assert m.SourceDocument.objects.filter(url="archive:papers-with-abstracts").exists()
