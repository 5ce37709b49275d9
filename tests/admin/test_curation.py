"""Corrections: shown at once, kept across loads, traceable, and never lost to a stale form."""

import json

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from catalogue import curation, search
from catalogue.figures import code_entry_figures
from catalogue.models import Correction, Paper, Sample
from tests.admin.curating import GPIPE, forward_ran_sample, write_a_renamed_snapshot
from tests.conftest import SEEDS, load

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator(db):
    return User.objects.create_user("cora", password="x" * 12, is_staff=True)


def test_a_title_correction_is_shown_and_the_snapshot_value_kept(loaded_seeds, curator):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    curation.correct_title(paper, "GPipe (corrected)", user=curator, expected_version=paper.version)
    paper.refresh_from_db()
    assert paper.title == "GPipe (corrected)"
    assert paper.title_upstream.startswith("GPipe: Efficient Training")
    assert paper.title_corrected
    assert [h.object_id for h in search.ranked("corrected", kinds=["paper"])] == [paper.id]


def test_a_status_correction_moves_every_figure_at_once(loaded_seeds, curator):
    sample = forward_ran_sample()
    entry = sample.entry
    before = code_entry_figures(entry)
    assert (before.by_status["ran"], before.by_status["ran_honours"]) == (1, 0)
    curation.correct_status(
        sample, "ran_honours", user=curator, reason="checked by hand", expected_version=sample.version
    )
    after = code_entry_figures(entry)
    assert (after.by_status["ran"], after.by_status["ran_honours"]) == (0, 1)
    assert after.n_samples_ran == before.n_samples_ran == 2
    assert after.n_places_corrected == 1
    curation.correct_status(
        sample,
        "unverified",
        user=curator,
        reason="did not run",
        expected_version=None,
    )
    assert code_entry_figures(entry).n_samples_ran == 1
    assert code_entry_figures(entry).n_papers_ran == 1


def test_corrections_survive_reloading_the_same_and_a_changed_snapshot(loaded_seeds, curator, tmp_path):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    sample = forward_ran_sample()
    curation.correct_title(paper, "GPipe, corrected", user=curator, expected_version=paper.version)
    curation.correct_status(
        sample, "ran_violates", user=curator, reason="seen", expected_version=sample.version
    )

    load(*SEEDS, force=True)  # the same snapshot again, re-read
    paper.refresh_from_db()
    sample.refresh_from_db()
    assert (paper.title, sample.status) == ("GPipe, corrected", "ran_violates")
    assert curation.upstream_changed().count() == 0

    load(write_a_renamed_snapshot(tmp_path))
    paper.refresh_from_db()
    sample.refresh_from_db()
    assert (paper.title, paper.title_upstream) == ("GPipe, corrected", "GPipe: the archive renamed it")
    assert (sample.status, sample.status_upstream) == ("ran_violates", "ran_fixture")
    # Listed for review with both values: what the curator saw upstream, and what it is now.
    listed = {(c.field, c.upstream_value, c.title_now or c.status_now) for c in curation.upstream_changed()}
    original_title = "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism"
    assert listed == {
        ("title", original_title, "GPipe: the archive renamed it"),
        ("status", "ran", "ran_fixture"),
    }

    # Removing a correction goes back to the snapshot's (new) value.
    for correction in curation.active_corrections():
        curation.remove_correction(correction, user=curator, reason="upstream fixed it")
    paper.refresh_from_db()
    sample.refresh_from_db()
    assert (paper.title, paper.title_corrected) == ("GPipe: the archive renamed it", False)
    assert (sample.status, sample.status_corrected) == ("ran_fixture", False)
    assert curation.upstream_changed().count() == 0


def test_a_stale_form_is_refused_and_the_first_edit_kept(loaded_seeds, curator):
    other = User.objects.create_user("olga", password="x" * 12, is_staff=True)
    paper = Paper.objects.get(arxiv_id=GPIPE)
    seen_by_both = paper.version
    curation.correct_title(paper, "First curator's title", user=curator, expected_version=seen_by_both)
    with pytest.raises(curation.StaleEdit, match="changed by someone else"):
        curation.correct_title(paper, "Second curator's title", user=other, expected_version=seen_by_both)
    paper.refresh_from_db()
    assert paper.title == "First curator's title"
    assert Correction.objects.filter(paper=paper).count() == 1


def test_a_load_that_changes_a_row_makes_open_forms_stale(loaded_seeds, curator, tmp_path):
    sample = forward_ran_sample()
    version = sample.version
    doc = json.loads(SEEDS[0].read_text())
    doc["read_at"] = "2026-12-01T00:00:00+00:00"
    doc["samples"][1]["licence"] = "MIT"
    (tmp_path / "c.json").write_text(json.dumps(doc))
    load(tmp_path)
    with pytest.raises(curation.StaleEdit):
        curation.correct_status(sample, "ran_honours", user=curator, reason="x", expected_version=version)


def test_a_status_correction_needs_a_reason_and_a_known_status(loaded_seeds, curator):
    sample = forward_ran_sample()
    with pytest.raises(ValidationError, match="needs a reason"):
        curation.correct_status(sample, "ran_honours", user=curator, reason=" ", expected_version=None)
    with pytest.raises(ValidationError, match="'ran_ok' is not one of"):
        curation.correct_status(sample, "ran_ok", user=curator, reason="x", expected_version=None)
    assert not Correction.objects.exists()


def test_history_records_every_change(loaded_seeds, curator):
    sample = forward_ran_sample()
    curation.correct_status(sample, "ran_honours", user=curator, reason="first look", expected_version=None)
    curation.correct_status(sample, "ran_violates", user=curator, reason="second look", expected_version=None)
    history = list(Correction.objects.filter(sample=sample).order_by("id"))
    assert [(c.previous_value, c.value, c.reason, c.active) for c in history] == [
        ("ran", "ran_honours", "first look", False),
        ("ran_honours", "ran_violates", "second look", True),
    ]
    assert all(c.created_by == curator and c.created_at and c.upstream_value == "ran" for c in history)
    assert history[0].removal_reason == "superseded by a later correction"


def test_bulk_status_correction_uses_one_reason(loaded_seeds, curator):
    samples = Sample.objects.filter(entry__name="check_args_torchrun_main")
    count = curation.bulk_correct_status(samples, "ran", user=curator, reason="batch rerun")
    assert count == 8
    assert set(samples.values_list("status", flat=True)) == {"ran"}
    assert Correction.objects.filter(reason="batch rerun").count() == 8


def test_a_bulk_status_correction_recounts_once_and_the_counts_agree(loaded_seeds, curator):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.counts import assert_counts_agree

    samples = Sample.objects.filter(entry__name="check_args_torchrun_main")
    with CaptureQueriesContext(connection) as ctx:
        assert curation.bulk_correct_status(samples, "ran_honours", user=curator, reason="batch rerun") == 8
    recounts = [q for q in ctx.captured_queries if q["sql"].lstrip().startswith("UPDATE catalogue_codeentry")]
    assert len(recounts) == 1  # one recount for 8 rows, not 8
    assert_counts_agree()
