"""The curators' admin, driven through its HTTP views as a curator in the Curators group: the role,
corrections through the change forms, no lost updates, history, bulk status. Its lists are in
test_admin_lists.py."""

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.urls import reverse

from catalogue import curation
from catalogue.admin import roles
from catalogue.figures import code_entry_figures
from catalogue.models import Correction, Paper, Sample
from tests.admin.curating import (
    GPIPE,
    GPIPE_TITLE,
    change_url,
    correct_status_via_admin,
    correct_title_via_admin,
    forward_ran_sample,
    write_a_renamed_snapshot,
)
from tests.admin_client import form_data, make_curator
from tests.conftest import SEEDS, load

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(curator_client):
    """Every request of this module is the curator's (tests/admin/conftest.py)."""
    return curator_client


# --- the role ---


def test_the_curators_group_holds_exactly_what_curation_needs():
    group = Group.objects.get(name=roles.CURATORS)
    granted = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    catalogue_models = [
        "loadrun", "sourcedocument", "paper", "paperslug", "author", "task", "method", "dataset",
        "leaderboard", "result", "repo", "codelink", "harvestedrepo", "codeentry", "codebody",
        "sample", "correction", "loadrunfile",
    ]  # fmt: skip
    assert granted == {f"catalogue.view_{m}" for m in catalogue_models} | {
        "catalogue.change_paper",
        "catalogue.change_sample",
        "catalogue.change_correction",
    }


def test_a_curator_is_staff_not_superuser_and_can_use_the_admin(curator, client):
    assert curator.is_staff
    assert not curator.is_superuser
    assert not curator.has_perm("catalogue.delete_paper")
    assert not curator.has_perm("auth.add_user")
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    assert b"Corrections to review" in response.content
    assert client.get(reverse("admin:catalogue_paper_changelist")).status_code == 200


def test_a_curator_cannot_delete_a_paper_or_add_a_user(loaded_seeds, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    delete_url = reverse("admin:catalogue_paper_delete", args=[paper.pk])
    assert client.get(delete_url).status_code == 403
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    assert Paper.objects.filter(pk=paper.pk).exists()

    changelist = client.get(reverse("admin:catalogue_paper_changelist"))
    assert b'value="delete_selected"' not in changelist.content
    response = client.post(
        reverse("admin:catalogue_paper_changelist"),
        {"action": "delete_selected", "_selected_action": [paper.pk], "post": "yes"},
    )
    assert Paper.objects.filter(pk=paper.pk).exists()
    assert response.status_code in {200, 302}

    users = User.objects.count()
    add_user = reverse("admin:auth_user_add")
    assert client.get(add_user).status_code == 403
    new_user = {
        "username": "mallory",
        "password1": "a-long-pass-phrase-1",
        "password2": "a-long-pass-phrase-1",
    }
    assert client.post(add_user, new_user).status_code == 403
    assert User.objects.count() == users
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403


def test_a_curator_cannot_add_papers_nor_edit_harvested_fields(loaded_seeds, client):
    assert client.get(reverse("admin:catalogue_paper_add")).status_code == 403
    paper = Paper.objects.get(arxiv_id=GPIPE)
    page = client.get(change_url(paper))
    response = client.post(change_url(paper), form_data(page, abstract="rewritten", arxiv_id="9999.99999"))
    assert response.status_code == 302
    paper.refresh_from_db()
    assert paper.arxiv_id == GPIPE
    assert paper.abstract != "rewritten"
    assert not Correction.objects.exists()


# --- corrections through the change forms ---


def test_a_curator_corrects_a_title(loaded_seeds, curator, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    response = correct_title_via_admin(client, paper, "  GPipe (curated)  ", reason="typo in the archive")
    assert response.status_code == 302
    paper.refresh_from_db()
    assert (paper.title, paper.title_upstream, paper.title_corrected) == (
        "GPipe (curated)",
        GPIPE_TITLE,
        True,
    )
    correction = Correction.objects.get(paper=paper)
    assert (correction.created_by, correction.previous_value, correction.value, correction.reason) == (
        curator,
        GPIPE_TITLE,
        "GPipe (curated)",
        "typo in the archive",
    )
    assert LogEntry.objects.filter(user=curator, object_id=str(paper.pk)).exists()
    listed = client.get(reverse("admin:catalogue_paper_changelist"), {"title_corrected__exact": "1"})
    assert list(listed.context["cl"].result_list) == [paper]


def test_an_empty_title_is_refused(loaded_seeds, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    response = correct_title_via_admin(client, paper, "   ")
    assert response.status_code == 200
    assert "A corrected title cannot be empty." in response.context["adminform"].form.errors["title"]
    paper.refresh_from_db()
    assert paper.title == GPIPE_TITLE


def test_a_status_correction_needs_a_reason(loaded_seeds, client):
    sample = forward_ran_sample()
    response = correct_status_via_admin(client, sample, "ran_honours", reason="  ")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["reason"] == ["A status correction needs a reason."]
    sample.refresh_from_db()
    assert (sample.status, sample.status_corrected) == ("ran", False)


def test_figures_move_after_a_status_correction(loaded_seeds, curator, client):
    sample = forward_ran_sample()
    entry = sample.entry
    entry_page = reverse("admin:catalogue_codeentry_change", args=[entry.pk])

    def figure(page, label):
        marker = f'data-figure="{label}">'
        text = page.content.decode()
        return int(text[text.index(marker) + len(marker) :].split("<", 1)[0])

    before_page = client.get(entry_page)
    before = code_entry_figures(entry)
    assert (before.by_status["ran"], before.by_status["ran_honours"]) == (1, 0)
    assert (figure(before_page, "by status: ran"), figure(before_page, "by status: ran_honours")) == (1, 0)

    assert correct_status_via_admin(client, sample, "ran_honours").status_code == 302

    after = code_entry_figures(entry)
    assert (after.by_status["ran"], after.by_status["ran_honours"]) == (0, 1)
    assert after.n_samples_ran == before.n_samples_ran
    assert after.n_places_corrected == 1
    after_page = client.get(entry_page)
    assert (figure(after_page, "by status: ran"), figure(after_page, "by status: ran_honours")) == (0, 1)
    assert figure(after_page, "samples ran") == before.n_samples_ran
    assert figure(after_page, "places whose status a curator corrected") == 1

    # To unverified: now it no longer ran, and every figure that counts runs drops.
    assert correct_status_via_admin(client, Sample.objects.get(pk=sample.pk), "unverified").status_code == 302
    assert code_entry_figures(entry).n_samples_ran == before.n_samples_ran - 1
    assert figure(client.get(entry_page), "samples ran") == before.n_samples_ran - 1


def test_corrections_survive_reloading_the_same_and_a_changed_snapshot(loaded_seeds, client, tmp_path):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    sample = forward_ran_sample()
    assert correct_title_via_admin(client, paper, "GPipe, corrected").status_code == 302
    assert correct_status_via_admin(client, sample, "ran_violates", reason="seen failing").status_code == 302

    load(*SEEDS, force=True)
    paper.refresh_from_db()
    sample.refresh_from_db()
    assert (paper.title, sample.status) == ("GPipe, corrected", "ran_violates")
    review = client.get(reverse("admin:catalogue_correction_changelist"), {"upstream_changed": "yes"})
    assert list(review.context["cl"].result_list) == []

    load(write_a_renamed_snapshot(tmp_path))
    paper.refresh_from_db()
    sample.refresh_from_db()
    assert (paper.title, sample.status) == ("GPipe, corrected", "ran_violates")

    # Listed for review, with the snapshot's value then and now side by side.
    review = client.get(reverse("admin:catalogue_correction_changelist"), {"upstream_changed": "yes"})
    rows = {(c.field, c.upstream_value, c.value) for c in review.context["cl"].result_list}
    assert rows == {
        ("title", GPIPE_TITLE, "GPipe, corrected"),
        ("status", "ran", "ran_violates"),
    }
    html = review.content.decode()
    for shown in ["GPipe: the archive renamed it", "ran_fixture", GPIPE_TITLE, "GPipe, corrected"]:
        assert shown in html
    papers = client.get(reverse("admin:catalogue_paper_changelist"), {"upstream_changed": "yes"})
    assert list(papers.context["cl"].result_list) == [paper]
    samples = client.get(reverse("admin:catalogue_sample_changelist"), {"upstream_changed": "yes"})
    assert list(samples.context["cl"].result_list) == [sample]


def test_removing_a_correction_restores_the_snapshot_value(loaded_seeds, curator, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    sample = forward_ran_sample()
    correct_title_via_admin(client, paper, "GPipe, corrected")
    correct_status_via_admin(client, sample, "ran_honours")

    page = client.get(change_url(paper))
    title_correction = Correction.objects.get(paper=paper)
    remove_url = reverse("admin:catalogue_correction_remove", args=[title_correction.pk])
    assert remove_url in page.content.decode()
    confirm = client.get(remove_url)
    assert confirm.status_code == 200
    response = client.post(remove_url, form_data(confirm, reason="the archive is right"))
    assert response.status_code == 302
    assert response.url == change_url(paper)
    paper.refresh_from_db()
    assert (paper.title, paper.title_corrected) == (GPIPE_TITLE, False)
    title_correction.refresh_from_db()
    assert (title_correction.removed_by, title_correction.removal_reason) == (curator, "the archive is right")
    assert remove_url not in client.get(change_url(paper)).content.decode()

    # The same from the list of corrections, as a bulk action with a confirmation page.
    status_correction = Correction.objects.get(sample=sample, removed_at__isnull=True)
    changelist = reverse("admin:catalogue_correction_changelist")
    action = {"action": "remove_selected", "_selected_action": [status_correction.pk]}
    confirm = client.post(changelist, action)
    assert confirm.status_code == 200
    assert b"Remove the selected corrections" in confirm.content
    response = client.post(changelist, {**action, "apply": "Remove", "reason": "rerun agrees"})
    assert response.status_code == 302
    sample.refresh_from_db()
    assert (sample.status, sample.status_corrected) == ("ran", False)


def test_only_curators_with_the_permission_may_remove(loaded_seeds, curator, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    correct_title_via_admin(client, paper, "GPipe, corrected")
    correction = Correction.objects.get(paper=paper)
    viewer = User.objects.create_user("vic", password="x" * 16, is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_correction"))
    other = Client()
    other.force_login(viewer)
    remove_url = reverse("admin:catalogue_correction_remove", args=[correction.pk])
    assert other.post(remove_url, {"reason": "no"}).status_code == 403
    paper.refresh_from_db()
    assert paper.title == "GPipe, corrected"


# --- no lost updates ---


def test_two_curators_saving_stale_title_forms(loaded_seeds, curator, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    second = Client()
    second.force_login(make_curator("olga"))
    first_page = client.get(change_url(paper))
    second_page = second.get(change_url(paper))

    assert (
        client.post(change_url(paper), form_data(first_page, title="First curator's title")).status_code
        == 302
    )
    response = second.post(change_url(paper), form_data(second_page, title="Second curator's title"))

    assert response.status_code == 200
    errors = response.context["adminform"].form.non_field_errors()
    assert any("changed by someone else" in e for e in errors)
    assert "changed by someone else" in response.content.decode()
    paper.refresh_from_db()
    assert paper.title == "First curator's title"
    assert list(Correction.objects.filter(paper=paper).values_list("value", flat=True)) == [
        "First curator's title"
    ]

    # Reloaded, the second curator sees the first one's title and can correct it again.
    reloaded = second.get(change_url(paper))
    assert (
        second.post(change_url(paper), form_data(reloaded, title="Second, after reload")).status_code == 302
    )
    paper.refresh_from_db()
    assert paper.title == "Second, after reload"


def test_two_curators_saving_stale_status_forms(loaded_seeds, curator, client):
    sample = forward_ran_sample()
    second = Client()
    second.force_login(make_curator("olga"))
    first_page = client.get(change_url(sample))
    second_page = second.get(change_url(sample))
    client.post(change_url(sample), form_data(first_page, status="ran_honours", reason="first"))
    response = second.post(change_url(sample), form_data(second_page, status="ran_violates", reason="second"))
    assert response.status_code == 200
    assert "changed by someone else" in response.content.decode()
    sample.refresh_from_db()
    assert sample.status == "ran_honours"
    assert Correction.objects.filter(sample=sample).count() == 1


def test_a_load_between_opening_and_saving_the_form_is_a_conflict_too(loaded_seeds, client, tmp_path):
    sample = forward_ran_sample()
    page = client.get(change_url(sample))
    doc = json.loads(SEEDS[0].read_text())
    doc["read_at"] = "2026-12-01T00:00:00+00:00"
    doc["samples"][1]["licence"] = "MIT"
    (tmp_path / "c.json").write_text(json.dumps(doc))
    load(tmp_path)
    response = client.post(change_url(sample), form_data(page, status="ran_honours", reason="x"))
    assert response.status_code == 200
    assert "changed by someone else" in response.content.decode()
    assert not Correction.objects.exists()


def test_a_write_racing_the_form_check_is_refused_by_the_row_lock(loaded_seeds, curator, client, monkeypatch):
    """The form's check passed, then someone wrote before the save: curation's lock refuses it."""
    from catalogue.admin.papers import PaperAdmin

    paper = Paper.objects.get(arxiv_id=GPIPE)
    original = PaperAdmin.correct

    def racing_correct(self, request, obj, form):
        curation.correct_title(paper, "Racing title", user=curator, expected_version=None)
        return original(self, request, obj, form)

    monkeypatch.setattr(PaperAdmin, "correct", racing_correct)
    page = client.get(change_url(paper))
    response = client.post(change_url(paper), form_data(page, title="Late title"), follow=True)
    assert response.redirect_chain == [(change_url(paper), 302)]
    messages = [str(m) for m in response.context["messages"]]
    assert any("changed by someone else" in m for m in messages)
    assert not any("successfully" in m for m in messages)
    paper.refresh_from_db()
    assert paper.title == "Racing title"
    assert not LogEntry.objects.filter(object_id=str(paper.pk)).exists()


# --- history ---


def test_history_records_every_change_and_shows_it_on_the_change_page(loaded_seeds, curator, client):
    sample = forward_ran_sample()
    correct_status_via_admin(client, sample, "ran_honours", reason="first look")
    sample.refresh_from_db()
    correct_status_via_admin(client, sample, "ran_violates", reason="second look")
    correction = Correction.objects.get(sample=sample, removed_at__isnull=True)
    remove_url = reverse("admin:catalogue_correction_remove", args=[correction.pk])
    client.post(remove_url, {"reason": "back to the snapshot"})

    history = list(Correction.objects.filter(sample=sample).order_by("id"))
    assert [(c.previous_value, c.value, c.reason, c.created_by, c.active) for c in history] == [
        ("ran", "ran_honours", "first look", curator, False),
        ("ran_honours", "ran_violates", "second look", curator, False),
    ]
    assert [c.removal_reason for c in history] == ["superseded by a later correction", "back to the snapshot"]

    page = client.get(change_url(sample))
    inline = next(f for f in page.context["inline_admin_formsets"] if f.opts.model is Correction)
    assert len(inline.formset.forms) == 2
    html = page.content.decode()
    for shown in [
        "first look",
        "second look",
        "back to the snapshot",
        "cora",
        "superseded by a later correction",
    ]:
        assert shown in html
    # Read-only: no form field of the history can be submitted.
    assert 'name="corrections-0-value"' not in html
    assert 'name="corrections-0-reason"' not in html


# --- bulk status ---


def test_bulk_action_sets_the_status_of_the_selected_samples_with_one_reason(loaded_seeds, curator, client):
    chosen = list(Sample.objects.filter(entry__name="check_args_torchrun_main").values_list("pk", flat=True))
    assert len(chosen) == 8
    changelist = reverse("admin:catalogue_sample_changelist")
    action = {"action": "set_status", "_selected_action": chosen}

    confirm = client.post(changelist, action)
    assert confirm.status_code == 200
    assert confirm.templates[0].name == "admin/catalogue/sample/set_status.html"
    assert "8 samples will be corrected" in confirm.content.decode()

    missing_reason = client.post(changelist, form_data(confirm, status="ran", reason=" ", apply="Set status"))
    assert missing_reason.status_code == 200
    assert missing_reason.context["form"].errors["reason"] == ["A status correction needs a reason."]
    assert not Correction.objects.exists()

    response = client.post(
        changelist, form_data(confirm, status="ran", reason="batch rerun", apply="Set status")
    )
    assert response.status_code == 302
    assert set(Sample.objects.filter(pk__in=chosen).values_list("status", flat=True)) == {"ran"}
    assert Correction.objects.filter(reason="batch rerun", created_by=curator).count() == 8
    others = Sample.objects.exclude(pk__in=chosen)
    assert not others.filter(status_corrected=True).exists()


def test_bulk_action_across_a_filtered_list(loaded_seeds, client):
    changelist = reverse("admin:catalogue_sample_changelist") + "?status__exact=ran"
    ran = set(Sample.objects.filter(status="ran").values_list("pk", flat=True))
    assert ran
    action = {"action": "set_status", "_selected_action": [min(ran)], "select_across": "1", "index": "0"}
    confirm = client.post(changelist, action)
    assert confirm.status_code == 200
    response = client.post(
        changelist, form_data(confirm, status="ran_fixture", reason="all of them", apply="x")
    )
    assert response.status_code == 302
    assert set(Sample.objects.filter(pk__in=ran).values_list("status", flat=True)) == {"ran_fixture"}
    assert Correction.objects.count() == len(ran)
