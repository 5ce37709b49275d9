"""load_snapshot: figures, identities, idempotency, order independence and every kind of bad input."""

import copy
import gzip
import itertools
import json
import shutil

import pytest
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from catalogue import models as m
from catalogue import queries
from catalogue.figures import code_entry_figures, paper_figures
from catalogue.loader import SnapshotError
from tests.conftest import CODE_SEEDS, FIGURES, PAPER_SEED, SEEDS, load
from tests.dump import catalogue_state, wipe

pytestmark = pytest.mark.django_db


def write(path, doc):
    path.write_text(json.dumps(doc))
    return path


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
    assert queries.paper_by_address("mecefo-enhancing-llm-training-robustness") == (paper, True)
    assert queries.paper_by_address("arxiv-2510-16415") == (paper, False)
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


# --- bad input ----------------------------------------------------------------------------


def _bad(doc_change=None, text=None):
    def make(tmp_path):
        path = tmp_path / "001_x.json"
        if text is not None:
            path.write_text(text)
        else:
            doc = json.loads(CODE_SEEDS[1].read_text())
            doc_change(doc)
            write(path, doc)
        return path

    return make


def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


# What leaves a document without an identity, or its JSON unreadable, refuses the document.
BAD_INPUTS = {
    "truncated JSON": (_bad(text=CODE_SEEDS[1].read_text()[:300]), "001_x.json: invalid JSON at line 1"),
    "unknown document kind": (
        _bad(_set(["url"], "/dataset/imagenet")),
        "001_x.json: url: '/dataset/imagenet' is neither /paper/<slug>, /code/<slug> nor /corrections/",
    ),
    "missing url": (_bad(_set(["url"], KeyError)), "001_x.json: url: is required"),
    "missing entry": (_bad(_set(["entry"], KeyError)), "001_x.json: entry: is required"),
    "samples not a list": (
        _bad(_set(["samples"], {"a": 1})),
        "001_x.json: samples: expected a list, got an object",
    ),
    "NaN": (
        _bad(text='{"url": "/code/x", "entry": "x", "n_places": NaN}'),
        "001_x.json: invalid JSON: NaN is not a JSON number",
    ),
    "duplicate keys": (
        _bad(text='{"url": "/code/x", "url": "/code/y"}'),
        "001_x.json: invalid JSON: duplicate key 'url'",
    ),
    "not an object": (_bad(text="[1, 2]"), "001_x.json: expected an object, got a list"),
    "empty file": (_bad(text=""), "001_x.json: empty file"),
}

# A bad row is skipped and a bad field left out, each with a warning naming file and field; the
# rest of the document loads. (Until issue 12 each of these refused the whole document: 64 real
# papers were lost that way in one set of 6,200.) Each case: the change, the warning, what gave
# way, and what the place left out holds instead (None: the place is skipped).
BAD_ROWS = {
    "unknown status": (
        _set(["samples", 3, "status"], "ran_ok"),
        "001_x.json: samples[3].status: 'ran_ok' is not one of ran_honours, ran_violates",
        3,
        None,
    ),
    "bad sha": (
        _set(["samples", 1, "code_sha256_prefix"], "XYZ"),
        "001_x.json: samples[1].code_sha256_prefix: expected 16 lower-case hex digits",
        1,
        None,
    ),
    "wrong type": (
        _set(["samples", 2, "verification_level"], "1"),
        "001_x.json: samples[2].verification_level: expected a whole number, got a string",
        2,
        ("verification_level", 0),
    ),
    "javascript URL": (
        _set(["samples", 0, "file_url"], "javascript:alert(1)"),
        "001_x.json: samples[0].file_url: expected an http(s) URL, got 'javascript:alert(1)'",
        0,
        ("file_url", None),
    ),
    "flag out of range": (  # an unreadable inline_ok is no permission to show the code
        _set(["samples", 1, "inline_ok"], 2),
        "001_x.json: samples[1].inline_ok: expected true, false",
        1,
        ("inline_ok", False),
    ),
    "integer beyond 32 bits": (
        _set(["samples", 1, "verification_level"], 2**63),
        "001_x.json: samples[1].verification_level: expected a whole number from 0",
        1,
        ("verification_level", 0),
    ),
}


@pytest.mark.parametrize("case", BAD_ROWS, ids=str)
def test_a_bad_row_or_field_is_skipped_or_left_out_and_the_rest_loads(case, db, tmp_path):
    change, message, index, kept = BAD_ROWS[case]
    doc = json.loads(CODE_SEEDS[1].read_text())
    place_of = [(s["arxiv_id"], s["code_sha256_prefix"]) for s in doc["samples"]]
    change(doc)
    _out, err = load(write(tmp_path / "001_x.json", doc))
    (line,) = [line for line in err.splitlines() if message in line]
    assert line.endswith("(sample skipped)" if kept is None else "(left out)"), line
    places = {
        (s.paper.arxiv_id, s.body.sha256_prefix): s for s in m.Sample.objects.select_related("paper", "body")
    }
    assert set(place_of) - {place_of[index]} <= set(places)  # the rest of the document loaded
    if kept is None:
        assert place_of[index] not in places
    else:
        field, value = kept
        assert getattr(places[place_of[index]], field) == value
    assert all("\x00" not in title for title in m.Paper.objects.values_list("title", flat=True))
    assert not m.Sample.objects.filter(file_url__startswith="javascript:").exists()


@pytest.mark.parametrize("case", BAD_INPUTS, ids=str)
def test_bad_input_is_rejected_naming_file_and_field_and_nothing_changes(case, loaded_seeds, tmp_path):
    make, message = BAD_INPUTS[case]
    bad = make(tmp_path)
    good = write(
        tmp_path / "002_good.json",
        {**json.loads(CODE_SEEDS[0].read_text()), "read_at": "2027-01-01T00:00:00+00:00"},
    )
    before, runs = catalogue_state(), m.LoadRun.objects.count()
    with pytest.raises(CommandError) as error:
        load(good, bad)
    assert message in str(error.value)
    assert "Nothing was written" in str(error.value)
    assert catalogue_state() == before
    # Only the failure's own record is new (tests/web/test_data_page.py shows it in public).
    assert m.LoadRun.objects.count() == runs + 1
    assert message in m.LoadRun.objects.get(outcome="failed").error


def test_a_gz_file_that_is_not_gzip_is_rejected(loaded_seeds, tmp_path):
    path = tmp_path / "004_y.json.gz"
    shutil.copy(SEEDS[0], path)
    before = catalogue_state()
    with pytest.raises(CommandError, match=r"004_y.json.gz: not a valid gzip file"):
        load(path)
    assert catalogue_state() == before


def test_invalid_utf8_is_rejected(db, tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b'{"url": "/code/\xff"}')
    with pytest.raises(CommandError, match=r"x.json: not UTF-8 text \(byte 15\)"):
        load(path)


def test_a_directory_with_no_json_is_rejected(db, tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(CommandError, match=r"directory holds no \.json, \.json\.gz or dump file"):
        load(tmp_path)


def test_keep_going_skips_and_lists_bad_documents(db, tmp_path):
    good = shutil.copy(SEEDS[0], tmp_path / "000.json")
    bad = write(tmp_path / "001_x.json", {"url": "/code/x", "samples": [{"arxiv_id": "1811.06965"}]})
    out, err = load(good, bad, keep_going=True)
    assert "skipped: 001_x.json: entry: is required" in err
    assert "1 skipped" in out
    assert m.Sample.objects.count() == 5


# --- the database keeps the rules too ------------------------------------------------------


def test_the_database_rejects_an_unknown_status_and_a_duplicate_place(loaded_seeds):
    sample = m.Sample.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        m.Sample.objects.filter(pk=sample.pk).update(status="ran_ok")
    with pytest.raises(IntegrityError), transaction.atomic():
        m.Sample.objects.create(
            paper=sample.paper, body=sample.body, entry=sample.entry, status="ran", stamp="x"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        m.Paper.objects.create(arxiv_id=sample.paper.arxiv_id, slug="another-slug", stamp="x")


@pytest.mark.slow
def test_reading_in_worker_processes_gives_the_same_database(db, monkeypatch, tmp_path):
    from catalogue.loader import load_paths, reading

    bad = write(tmp_path / "bad.json", {"url": "/code/x", "samples": [{"arxiv_id": "1"}]})
    monkeypatch.setattr(reading, "PARALLEL_FROM_FILES", 1)
    monkeypatch.setattr(reading, "CHUNK_FILES", 1)
    load_paths(SEEDS, workers=0)
    in_process = catalogue_state()
    wipe()
    result = load_paths(SEEDS, workers=2)
    assert result.file_counts == {"loaded": 3}
    assert catalogue_state() == in_process
    with pytest.raises(SnapshotError, match=r"bad.json: entry: is required"):
        load_paths([*SEEDS, bad], workers=2, force=True)
    assert catalogue_state() == in_process


def test_a_method_named_twice_keeps_its_full_name(loaded_seeds):
    gpipe = m.Method.objects.get(slug="gpipe")
    assert (gpipe.name, gpipe.full_name) == ("GPipe", "GPipe")


def test_discovery_keeps_names_relative_to_the_common_directory_sorted(tmp_path):
    from catalogue.loader.documents import discover

    for name in ["b/2.json", "b/1.json.gz", "a/z.json", "a/deeper/y.json", "a/notes.txt"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    found = discover([tmp_path / "b", tmp_path / "a", tmp_path / "a" / "z.json"])
    assert found.root == str(tmp_path)
    assert found.names == ["a/deeper/y.json", "a/z.json", "b/1.json.gz", "b/2.json"]
    only = discover([tmp_path / "a" / "deeper"])
    assert (only.root, only.names) == (str(tmp_path / "a" / "deeper"), ["y.json"])


def test_file_names_read_back_as_given_whole_and_in_slices():
    from catalogue.loader.documents import FileNames

    given = [
        "a/1.json",
        "b/é.json",
        "c/\udcff.json",
        "d/日本.json.gz",
        "e/x.json",
    ]  # \udcff: undecodable byte
    names = FileNames(given)
    assert len(names) == 5
    assert list(names) == given
    assert names == given
    assert [names[i] for i in range(-5, 5)] == given + given
    assert (names[1:4], names[3:], names[::2], names[5:9]) == (given[1:4], given[3:], given[::2], [])
    assert FileNames() == []
    assert len(FileNames()) == 0
    with pytest.raises(IndexError):
        names[5]
    with pytest.raises(IndexError):
        names[-6]


def test_known_documents_match_by_checksum_prefix():
    from catalogue.loader.reading import KnownDocuments

    shas = [f"{i:016x}" + "0" * 48 for i in (5, 1, 2**64 - 1)]
    known = KnownDocuments(KnownDocuments.prefix(s) for s in shas)
    assert all(s in known for s in shas)
    assert f"{3:016x}" + "0" * 48 not in known
    assert "f" * 64 in known
    assert "0" * 64 not in known
    assert len(known) == 3


@pytest.mark.django_db
def test_a_json_field_holding_a_nul_anywhere_is_left_out_alike_on_both_databases(tmp_path):
    """PostgreSQL's JSON cannot hold U+0000 (a key of ``about`` here, found by the property test
    on PostgreSQL only); the field is left out with a warning on both backends, the rest loads."""
    doc = json.loads(PAPER_SEED.read_text())
    doc["about"] = {"\u0000": None, "licence": "CC BY-SA 4.0"}
    doc["arxiv_metadata"] = {"title": "a\u0000b"}
    path = tmp_path / PAPER_SEED.name
    path.write_text(json.dumps(doc))
    _out, err = load(path)
    assert f"{PAPER_SEED.name}: about: holds a NUL character or an unpaired surrogate (left out)" in err
    assert "arxiv_metadata: holds a NUL character" in err
    source = m.SourceDocument.objects.get(url=doc["url"])
    assert source.about is None
    assert m.Paper.objects.get(arxiv_id=doc["arxiv_id"]).arxiv_metadata is None


def test_scratch_tables_are_analysed_coarsely_and_the_session_keeps_its_target(db):
    """A scratch table's statistics come from a small sample on PostgreSQL (its size is what the
    merge's plans need); the catalogue tables analysed after it still get the session's target."""
    from django.db import connection

    from catalogue.loader.merge import sql

    sql.execute(
        "CREATE TEMPORARY TABLE scratch_probe AS WITH RECURSIVE c(n) AS "
        "(SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000) SELECT n FROM c"
    )
    if connection.vendor == "postgresql":
        target = sql.scalar("SHOW default_statistics_target")
        sql.analyze_scratch("scratch_probe")
        bounds = sql.scalar("SELECT histogram_bounds::text FROM pg_stats WHERE tablename = 'scratch_probe'")
        assert bounds.count(",") + 1 == sql.SCRATCH_STATISTICS_TARGET + 1  # at the default: 101
        assert sql.scalar("SHOW default_statistics_target") == target
    else:
        sql.analyze_scratch("scratch_probe")
        assert sql.scalar("SELECT stat FROM temp.sqlite_stat1 WHERE tbl = 'scratch_probe'") == "5000"
