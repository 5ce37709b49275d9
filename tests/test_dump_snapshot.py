"""dump_snapshot: documents the loader accepts, and a round trip that changes no API response."""

import gzip
import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from catalogue import export
from catalogue import models as m
from tests.api_helpers import api_state
from tests.conftest import ROOT, SEEDS, load
from tests.dump import wipe

pytestmark = pytest.mark.django_db
V1 = "/api/v1"


@pytest.fixture(autouse=True)
def _no_throttle(settings):
    settings.API_THROTTLE_ANON = "off"


def round_trip(tmp_path) -> tuple[dict, dict, export.ExportResult]:
    client = APIClient()
    before = api_state(client)
    result = export.dump_snapshot(tmp_path / "dump")
    wipe()
    _out, err = load(tmp_path / "dump")
    assert "warning" not in err, err
    return before, api_state(client), result


def assert_same(before: dict, after: dict):
    assert set(after) - set(before) == set()
    assert set(before) - set(after) == set()
    for url in before:
        assert after[url] == before[url], url


def test_round_trip_of_the_seeds_changes_no_api_response(loaded_seeds, tmp_path):
    before, after, result = round_trip(tmp_path)
    assert result.warnings == []
    assert (result.papers, result.code_entries) == (1, 2)
    assert len(before) > 200
    assert_same(before, after)


def test_old_addresses_survive_the_round_trip(loaded_seeds, tmp_path):
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    m.PaperSlug.objects.create(slug="gpipe-old-title", paper=paper, last_stamp="0")
    # Only ever in code-entry documents, as arxiv-2510-16415; then the archive gave it a title slug.
    mecefo = m.Paper.objects.get(arxiv_id="2510.16415")
    m.PaperSlug.objects.create(slug="mecefo-title", paper=mecefo, last_stamp="0")
    m.Paper.objects.filter(pk=mecefo.pk).update(slug="mecefo-title")
    before, after, result = round_trip(tmp_path)
    assert result.aliases == 2
    assert_same(before, after)
    assert m.Paper.objects.get(arxiv_id="1811.06965").slug == "gpipe-efficient-training-of-giant-neural"
    assert m.Paper.objects.get(arxiv_id="2510.16415").slug == "mecefo-title"
    slugs = set(m.PaperSlug.objects.values_list("slug", flat=True))
    assert slugs >= {"gpipe-old-title", "arxiv-2510-16415", "mecefo-title"}


def test_a_title_from_syntology_beats_the_paper_document_after_reload(loaded_seeds, tmp_path):
    # A newer code-entry document names GPipe with Syntology's title: that title is shown.
    doc = json.loads(SEEDS[0].read_text())
    doc["read_at"] = "2026-10-01T00:00:00+00:00"
    doc["samples"].append(
        {
            **doc["samples"][0],
            "arxiv_id": "1811.06965",
            "paper": "/paper/gpipe-efficient-training-of-giant-neural",
            "title": "GPipe as Syntology read it",
            "title_source": "syntology",
            "date": "2018-11-16",
            "code_sha256_prefix": "0123456789abcdef",
            "mcp_get_code": {"code_sha256": "0123456789abcdef"},
        }
    )
    for key in ("n_places", "n_samples", "n_papers"):
        doc[key] += 1
    doc["by_status"][doc["samples"][0]["status"]] += 1
    (tmp_path / "newer.json").write_text(json.dumps(doc))
    load(tmp_path / "newer.json")
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    assert (gpipe.title, gpipe.title_source) == ("GPipe as Syntology read it", "syntology")
    before, after, _ = round_trip(tmp_path)
    assert after[f"{V1}/papers/1811.06965/"]["title_source"] == "syntology"
    assert_same(before, after)


def test_corrections_are_written_applied_and_marked(loaded_seeds, tmp_path):
    from django.contrib.auth.models import User

    from catalogue import curation

    curator = User.objects.create_user("cora", password="x" * 12, is_staff=True)
    sample = m.Sample.objects.get(entry__name="forward_step_func", status="ran")
    curation.correct_status(sample, "ran_honours", user=curator, reason="checked", expected_version=None)
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    curation.correct_title(gpipe, "GPipe (corrected)", user=curator, expected_version=None)
    result = export.dump_snapshot(tmp_path / "dump")
    docs = [json.loads(p.read_text()) for p in result.files]
    entry_doc = next(d for d in docs if d["url"] == "/code/forward-step-func")
    place = next(s for s in entry_doc["samples"] if s["code_sha256_prefix"] == sample.body.sha256_prefix)
    assert place["status"] == "ran_honours"
    assert place["corrected"] == {"status": {"snapshot": "ran"}}
    assert entry_doc["by_status"]["ran_honours"] == 1
    mark = {
        "url": f"/paper/{sample.paper.slug}",
        "code_sha256_prefix": sample.body.sha256_prefix,
        "entry": "forward_step_func",
        "field": "status",
        "value": "ran_honours",
        "snapshot": "ran",
    }
    assert mark in entry_doc["exported"]["corrected"]
    paper_doc = next(d for d in docs if d["url"] == f"/paper/{gpipe.slug}")
    assert paper_doc["title"] == "GPipe (corrected)"
    assert paper_doc["exported"]["corrected"] == [
        {
            "url": f"/paper/{gpipe.slug}",
            "field": "title",
            "value": "GPipe (corrected)",
            "snapshot": gpipe.title_upstream,
        }
    ]
    wipe()
    load(tmp_path / "dump")
    reloaded = m.Sample.objects.get(
        body__sha256_prefix=sample.body.sha256_prefix, entry__name="forward_step_func"
    )
    assert reloaded.status == "ran_honours"
    assert m.Paper.objects.get(arxiv_id="1811.06965").title == "GPipe (corrected)"


def test_the_dump_is_what_the_loader_accepts_and_states_true_figures(loaded_seeds, tmp_path):
    export.dump_snapshot(tmp_path / "dump")
    wipe()
    out, err = load(tmp_path / "dump")
    assert err == ""
    assert "3 read" in out


def test_documents_keep_the_attribution(loaded_seeds, tmp_path, seed_docs):
    result = export.dump_snapshot(tmp_path / "dump")
    for path in result.files:
        about = json.loads(path.read_text())["about"]
        assert about["licence"] == "CC BY-SA 4.0"
        assert "non_affiliation" in about
        assert "modified by Syntology" in about["modified"]


def test_command_writes_gzip_and_refuses_a_non_empty_directory(loaded_seeds, tmp_path):
    out = StringIO()
    call_command("dump_snapshot", str(tmp_path / "d"), "--gzip", stdout=out)
    assert "1 paper documents, 2 code-entry documents" in out.getvalue()
    files = sorted((tmp_path / "d").rglob("*.json.gz"))
    assert len(files) == 3
    assert json.loads(gzip.decompress(files[0].read_bytes()))["url"].startswith("/code/")
    with pytest.raises(CommandError, match="not empty"):
        call_command("dump_snapshot", str(tmp_path / "d"), stdout=StringIO())


def test_an_empty_catalogue_dumps_to_nothing(db, tmp_path):
    result = export.dump_snapshot(tmp_path / "d")
    assert result.files == []


@pytest.mark.slow
def test_round_trip_of_generated_archive_like_data(db, tmp_path):
    """bench/generate.py's messy data (no arXiv ids, arxiv-… slugs, sub-paths, no repository…)."""
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "generate.py"),
            "--papers",
            "150",
            "--out",
            str(tmp_path / "gen"),
        ],
        check=True,
        capture_output=True,
    )
    load(tmp_path / "gen")
    before, after, result = round_trip(tmp_path)
    assert result.papers > 100
    assert_same(before, after)
