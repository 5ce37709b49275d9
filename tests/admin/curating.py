"""What the curators' tests share: the seed paper and place they correct, the admin's change forms
driven as a browser would, and a later snapshot in which the archive renamed the paper and moved
the place's status."""

import json
from pathlib import Path

from django.urls import reverse

from catalogue.models import Sample
from tests.admin_client import form_data
from tests.conftest import SEEDS

GPIPE = "1811.06965"
GPIPE_TITLE = "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism"


def forward_ran_sample() -> Sample:
    return Sample.objects.get(entry__name="forward_step_func", status="ran")


def change_url(obj) -> str:
    return reverse(f"admin:catalogue_{obj._meta.model_name}_change", args=[obj.pk])


def correct_title_via_admin(client, paper, title, **extra):
    page = client.get(change_url(paper))
    assert page.status_code == 200
    return client.post(change_url(paper), form_data(page, title=title, **extra))


def correct_status_via_admin(client, sample, status, reason="checked by hand", **extra):
    page = client.get(change_url(sample))
    assert page.status_code == 200
    return client.post(change_url(sample), form_data(page, status=status, reason=reason, **extra))


def write_a_renamed_snapshot(tmp_path: Path) -> Path:
    """The seeds read again later: the paper retitled "GPipe: the archive renamed it", the
    forward_step_func place's status moved to ran_fixture. Returns the folder to load."""
    paper_doc = json.loads(SEEDS[2].read_text())
    paper_doc["title"] = "GPipe: the archive renamed it"
    paper_doc["syntology"]["read_at"] = "2026-12-01T00:00:00+00:00"
    code_doc = json.loads(SEEDS[0].read_text())
    code_doc["read_at"] = "2026-12-01T00:00:00+00:00"
    code_doc["samples"][1]["status"] = "ran_fixture"
    for name, doc in (("p.json", paper_doc), ("c.json", code_doc)):
        (tmp_path / name).write_text(json.dumps(doc))
    return tmp_path
