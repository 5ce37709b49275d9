"""load_snapshot: figures, identities, idempotency, order independence, dry runs and load records.

Bad input, and the rules the database keeps too, are in test_loader_bad_input.py.
"""

import copy
import gzip
import itertools
import json

import pytest

from catalogue import models as m
from catalogue import reads
from catalogue.figures import code_entry_figures, paper_figures
from tests.conftest import CODE_SEEDS, FIGURES, PAPER_SEED, SEEDS, load
from tests.dump import catalogue_state, wipe
from tests.loader.documents import write

pytestmark = pytest.mark.django_db


# --- figures ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", CODE_SEEDS, ids=lambda p: p.name)
def test_code_entry_seed_figures_are_reproduced_from_rows(seed, loaded_seeds):
    doc = json.loads(seed.read_text())
    entry = m.CodeEntry.objects.get(name=doc["entry"])
    figures = code_entry_figures(entry).as_dict()
    assert {k: figures[k] for k in FIGURES} == {k: doc[k] for k in FIGURES}


def test_paper_seed_figures_are_reproduced_from_rows(loaded_seeds):
    doc = json.loads(PAPER_SEED.read_text())
    paper = m.Paper.objects.get(arxiv_id=doc["arxiv_id"])
    figures = paper_figures(paper)
    assert figures.summary == doc["syntology"]["summary"]
    assert figures.by_repo_kind == doc["syntology"]["by_repo_kind"]
    assert figures.n_pointer_only_for_licence == doc["syntology"]["n_pointer_only_for_licence"]


def test_figures_follow_the_rows_not_the_document(loaded_seeds):
    entry = m.CodeEntry.objects.get(name="forward_step_func")
    m.Sample.objects.filter(entry=entry, status="ran").update(status="ran_honours")
    figures = code_entry_figures(entry)
    assert figures.by_status["ran"] == 0
    assert figures.by_status["ran_honours"] == 1
    assert figures.n_samples_ran == 2


# --- what a load writes -------------------------------------------------------------------


def test_seeds_load_into_the_expected_rows(loaded_seeds):
    assert m.Paper.objects.count() == 13
    assert m.Sample.objects.count() == 5 + 8 + 25
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    assert gpipe.slug == "gpipe-efficient-training-of-giant-neural"
    assert gpipe.title.startswith("GPipe")
    assert [a.name for a in gpipe.authors.all()][:2] == ["Yanping Huang", "Youlong Cheng"]
    assert gpipe.tasks.count() == 4  # image-classification appears twice under two names
    assert m.Task.objects.get(slug="image-classification").name == "Image Classification"
    assert gpipe.methods.count() == 21
    assert list(gpipe.methods_introduced.values_list("slug", flat=True)) == ["gpipe"]
    assert gpipe.results.count() == 5
    assert gpipe.code_links.count() == 13
    assert gpipe.syntology_read_at.isoformat() == "2026-09-25T09:33:49+00:00"
    assert gpipe.paper_document.about["licence"] == "CC BY-SA 4.0"
    body = m.CodeBody.objects.get(sha256_prefix="c233d4777fc58003")
    assert body.samples.values("paper").distinct().count() == 4
    assert body.samples.values("repo").distinct().count() == 4


def test_provenance_is_kept_on_every_harvested_row(loaded_seeds):
    sample = m.Sample.objects.get(body__sha256_prefix="401ab1df19f0bb57")
    assert sample.document.url == "/code/forward-step-func"
    assert sample.document.read_at.isoformat() == "2026-09-24T18:15:14+00:00"
    assert sample.document.source == "Syntology graph, per-sample; not an archive number"
    assert "non_affiliation" in sample.document.about
    result = m.Result.objects.filter(paper__arxiv_id="1811.06965").first()
    assert result.document.url == "/paper/gpipe-efficient-training-of-giant-neural"


def test_repository_identity_is_case_insensitive_and_keeps_sub_paths(loaded_seeds, tmp_path):
    fleetx = m.CodeLink.objects.get(repo__key="github.com/paddlepaddle/fleetx")
    assert fleetx.sub_path == "tree/develop/examples/pipeline"
    doc = json.loads(CODE_SEEDS[0].read_text())
    doc["samples"][2]["repo"] = "relaxed-system-lab/HEXGEN"
    doc["read_at"] = "2026-10-01T00:00:00+00:00"
    load(write(tmp_path / "x.json", doc))
    assert m.Repo.objects.filter(key="github.com/relaxed-system-lab/hexgen").count() == 1
    assert m.Repo.objects.get(key="github.com/relaxed-system-lab/hexgen").owner == "relaxed-system-lab"


def test_an_arxiv_version_suffix_names_the_same_paper(loaded_seeds, tmp_path):
    doc = json.loads(CODE_SEEDS[0].read_text())
    doc["samples"][0]["arxiv_id"] = "2510.16415v3"
    load(write(tmp_path / "x.json", doc))
    assert m.Paper.objects.filter(arxiv_id__startswith="2510.16415").count() == 1


def test_every_slug_a_paper_had_keeps_working(loaded_seeds, tmp_path):
    doc = json.loads(CODE_SEEDS[0].read_text())
    doc["samples"][0]["paper"] = "/paper/mecefo-enhancing-llm-training-robustness"
    load(write(tmp_path / "x.json", doc))
    paper = m.Paper.objects.get(arxiv_id="2510.16415")
    assert paper.slug == "mecefo-enhancing-llm-training-robustness"  # a title slug beats arxiv-…
    assert reads.papers.paper_by_address("mecefo-enhancing-llm-training-robustness") == (paper, True)
    assert reads.papers.paper_by_address("arxiv-2510-16415") == (paper, False)
    assert sorted(paper.slugs.values_list("slug", flat=True)) == [
        "arxiv-2510-16415",
        "mecefo-enhancing-llm-training-robustness",
    ]


def test_a_paper_without_arxiv_id_is_its_slug(db, tmp_path):
    doc = json.loads(PAPER_SEED.read_text())
    doc["arxiv_id"] = None
    doc["url_abs"] = "https://proceedings.neurips.cc/paper/2019/hash/093f65e080a295f8076b1c5722a46aa2"
    doc["url_pdf"] = None
    load(write(tmp_path / "a.json", doc))
    doc["abstract"] = "changed"
    doc["syntology"]["read_at"] = "2026-10-01T00:00:00+00:00"
    load(write(tmp_path / "b.json", doc))
    paper = m.Paper.objects.get()
    assert paper.arxiv_id is None
    assert paper.abstract == "changed"


def test_a_paper_document_without_arxiv_id_is_the_arxiv_paper_its_url_abs_names(db, tmp_path):
    """4,189 real paper documents state no arxiv_id but an arXiv url_abs: the arXiv paper a table row
    naming that address is, not a second record."""
    doc = json.loads(PAPER_SEED.read_text())
    doc["arxiv_id"] = ""
    doc["url_abs"] = "https://arxiv.org/abs/1811.06965v5"
    load(write(tmp_path / "a.json", doc))
    paper = m.Paper.objects.get()
    assert paper.arxiv_id == "1811.06965"
    assert paper.slug == "gpipe-efficient-training-of-giant-neural"  # its own slug stays its address


def test_both_views_of_a_place_become_one_row_in_either_order(db, tmp_path):
    paper_doc = json.loads(PAPER_SEED.read_text())
    first = paper_doc["syntology"]["samples"][0]
    code_doc = json.loads(CODE_SEEDS[0].read_text())
    code_doc.update(url="/code/alexnet", entry="alexnet")
    code_doc["samples"] = [
        {
            **{
                k: first[k]
                for k in (
                    "repo",
                    "path",
                    "file_url",
                    "status",
                    "verification_level",
                    "contract_check",
                    "metamorphic_tier",
                    "behaviour_fingerprint",
                    "licence",
                    "inline_ok",
                    "code_sha256_prefix",
                )
            },
            "arxiv_id": "1811.06965v5",
            "paper": "/paper/gpipe-efficient-training-of-giant-neural",
            "title": paper_doc["title"],
            "title_source": "archive",
            "date": paper_doc["date"],
        }
    ]
    a, b = write(tmp_path / "a.json", paper_doc), write(tmp_path / "b.json", code_doc)
    states = []
    for order in ((a, b), (b, a)):
        wipe()
        for path in order:
            load(path)
        assert m.Sample.objects.filter(paper__arxiv_id="1811.06965").count() == 25
        place = m.Sample.objects.get(entry__name="alexnet")
        assert place.repo_kind == "listed"  # stated only by the paper's view
        assert m.CodeEntry.objects.get(name="alexnet").slug == "alexnet"
        states.append(catalogue_state())
    assert states[0] == states[1]


def test_every_order_of_the_seeds_gives_the_same_database(db):
    states = []
    for order in itertools.permutations(SEEDS):
        wipe()
        for path in order:
            load(path)
        states.append(catalogue_state())
    wipe()
    load(*SEEDS)
    states.append(catalogue_state())
    assert all(state == states[0] for state in states[1:])


def test_the_newest_document_wins_whatever_order(db, tmp_path):
    old = json.loads(CODE_SEEDS[0].read_text())
    new = copy.deepcopy(old)
    new["read_at"] = "2026-10-24T00:00:00+00:00"
    new["samples"][1]["status"] = "ran_honours"
    new["samples"][1]["title"] = "HexiScale (renamed)"
    old_path, new_path = write(tmp_path / "old.json", old), write(tmp_path / "new.json", new)
    for order in ((old_path, new_path), (new_path, old_path)):
        wipe()
        for path in order:
            load(path)
        place = m.Sample.objects.get(body__sha256_prefix="401ab1df19f0bb57")
        assert place.status == "ran_honours"
        assert place.paper.title == "HexiScale (renamed)"


# --- idempotency, dry run, records ----------------------------------------------------------


def test_loading_the_same_snapshot_twice_changes_nothing_and_says_so(db):
    load(*SEEDS)
    before = catalogue_state()
    out, _ = load(*SEEDS)
    assert "3 already loaded" in out
    assert "nothing changed" in out
    out, _ = load(*SEEDS, force=True)
    assert "nothing changed" in out
    assert " 0 created, 0 updated, 38 unchanged" in out  # samples, re-read and compared
    assert catalogue_state() == before


def test_dry_run_reports_what_would_change_and_writes_nothing_but_its_record(db):
    out, _ = load(*SEEDS, dry_run=True)
    assert "13 created" in out
    assert "dry run: nothing was written" in out
    assert m.Paper.objects.count() == 0
    (run,) = m.LoadRun.objects.all()  # what would have changed, for the public load history
    assert (run.outcome, run.counts["Paper"]["created"]) == ("dry_run", 13)
    assert f"(load record {run.pk})" in out
    assert run.files_summary["by_status"] == {"loaded": 3}


def test_a_load_record_keeps_files_checksums_counts_and_outcome(db):
    load(*SEEDS)
    run = m.LoadRun.objects.get()
    assert run.outcome == "succeeded"
    assert run.finished_at
    files = list(run.files.values())
    assert [f["seq"] for f in files] == [1, 2, 3]
    assert sorted(f["path"] for f in files) == sorted(s.name for s in SEEDS)
    assert all(len(f["sha256"]) == 64 for f in files)
    assert {f["status"] for f in files} == {"loaded"}
    assert all(f["url"] for f in files)
    assert run.counts["Sample"]["created"] == 38


def test_only_the_newest_runs_keep_their_files_as_rows(db, settings):
    settings.LOAD_FILE_LISTS_KEPT = 2
    for _ in range(3):
        load(*SEEDS)
    load(*SEEDS, dry_run=True)
    runs = list(m.LoadRun.objects.order_by("id"))
    assert runs[-1].outcome == "dry_run"  # a dry run's record counts as a run too
    assert [run.files.count() for run in runs] == [0, 0, 3, 3]
    # what the pruned runs say of their files stays
    assert [run.files_summary["n_files"] for run in runs] == [3, 3, 3, 3]
    assert runs[0].files_summary["by_status"] == {"loaded": 3}
    assert runs[1].files_summary["by_status"] == {"already_loaded": 3}
    assert len(runs[0].files_summary["shown"]) == 3


def test_every_run_keeps_its_files_as_rows_when_told_to(db, settings):
    settings.LOAD_FILE_LISTS_KEPT = 0
    for _ in range(3):
        load(*SEEDS)
    assert [run.files.count() for run in m.LoadRun.objects.order_by("id")] == [3, 3, 3]


def test_gzip_documents_and_directories_are_read_recursively(db, tmp_path):
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    for seed in SEEDS:
        (nested / (seed.name + ".gz")).write_bytes(gzip.compress(seed.read_bytes()))
    load(tmp_path)
    assert m.Sample.objects.count() == 38


def test_disagreeing_stated_figures_are_reported_and_loaded(db, tmp_path):
    doc = json.loads(CODE_SEEDS[0].read_text())
    doc["n_places"] = 99
    doc["by_status"]["ran"] = 7
    _, err = load(write(tmp_path / "x.json", doc))
    assert "x.json: n_places: document states 99, its rows give 5" in err
    assert "x.json: by_status.ran: document states 7, its rows give 1" in err
    assert m.Sample.objects.count() == 5


def test_progress_is_plain_lines_when_not_on_a_terminal(db):
    out, _ = load(*SEEDS)
    assert "read 3/3 files (100%)" in out
