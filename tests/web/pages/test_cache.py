"""The page cache as the pages see it: a copy until a curator corrects or a load runs, and pages kept
apart."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import models as m
from catalogue.figures import code_entry_figures
from tests.conftest import SEEDS
from tests.pages import html
from tests.web.pages.conftest import GPIPE

pytestmark = pytest.mark.django_db


# --- the page cache -----------------------------------------------------------------


def _ran_figure(page: str) -> int:
    return int(re.search(r"<dt>Samples ran</dt><dd>(\d+)</dd>", page)[1])


def test_page_cache_serves_a_copy_until_a_curator_corrects_or_a_load_runs(
    client, loaded_seeds, settings, tmp_path
):
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from catalogue import curation

    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    url = "/code/forward-step-func"
    assert _ran_figure(html(client, url)) == 2
    with CaptureQueriesContext(connection) as ctx:
        html(client, url)
    assert len(ctx.captured_queries) == 1  # the data version, nothing else

    sample = m.Sample.objects.filter(entry__name="forward_step_func", status="unverified").first()
    user = get_user_model().objects.create(username="curator")
    curation.correct_status(sample, "ran_honours", user=user, reason="ran it", expected_version=None)
    assert _ran_figure(html(client, url)) == 3

    doc = json.loads(next(s for s in SEEDS if s.name.startswith("000")).read_text())
    doc["read_at"] = "2027-01-01T00:00:00+00:00"
    for row in doc["samples"]:
        row["status"] = "unverified"
    doc.update(
        n_papers_ran=0, n_samples_ran=0, by_status=dict.fromkeys(doc["by_status"], 0) | {"unverified": 4}
    )
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc))
    from tests.conftest import load

    load(path)
    # Every place unverified upstream now; the curator's correction still stands.
    assert _ran_figure(html(client, url)) == code_entry_figures(sample.entry).n_samples_ran == 1


def test_page_cache_keeps_pages_apart(client, loaded_seeds, settings):
    from django.core.cache import cache

    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    assert "GPipe" in html(client, GPIPE)
    assert "forward_step_func" in html(client, "/code/forward-step-func")
    assert (
        "ran_draft_wrong"
        not in html(client, "/code/check-args-torchrun-main?status=unverified").split("<tbody>")[-1]
    )
    assert html(client, "/papers/?sort=title") != html(client, "/papers/?sort=samples")
