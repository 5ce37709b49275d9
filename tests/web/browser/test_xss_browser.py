"""Stored XSS in a real Chromium: the hostile corpus (tests/xss_corpus.py) opens no dialog.

Every public page, each code entry and leaderboard, the API docs and the admin's lists and
change forms are opened with the corpus loaded; any alert/confirm/prompt fails the test.
"""

from pathlib import Path

import pytest
from django.db import connections
from django.urls import reverse

from catalogue.models import CodeEntry, Leaderboard, Paper, Sample
from tests.admin_client import make_curator
from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import load
from tests.pages import shown_by_browsers
from tests.xss_corpus import EVIL, PAGES, hostile_seeds

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.usefixtures("static_from_finders"),
]


def test_no_dialog_opens_anywhere(live_server, tmp_path, monkeypatch):
    load(*hostile_seeds(tmp_path / "hostile"))  # before Playwright starts
    make_curator("cora")
    urls = [*shown_by_browsers(PAGES), "/api/docs/"]
    urls += [f"/code/{slug}" for slug in CodeEntry.objects.values_list("slug", flat=True)[:5]]
    urls += [f"/sota/{slug}" for slug in Leaderboard.objects.values_list("slug", flat=True)]
    paper = Paper.objects.get(arxiv_id="1811.06965")
    sample = Sample.objects.filter(path=f"{EVIL} path").first()
    admin = [
        reverse("admin:catalogue_paper_changelist") + "?q=alert",
        reverse("admin:catalogue_paper_change", args=[paper.pk]),
        reverse("admin:catalogue_sample_changelist"),
        reverse("admin:catalogue_sample_change", args=[sample.pk]),
        reverse("admin:catalogue_codeentry_changelist"),
    ]
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/system-deps.sh")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    dialogs = []
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page()
        page.on("dialog", lambda dialog: (dialogs.append((page.url, dialog.message)), dialog.dismiss()))
        for url in urls:
            assert page.goto(live_server.url + url).status == 200, url
            page.wait_for_load_state("load")
        page.goto(live_server.url + reverse("admin:login"))
        page.fill("#id_username", "cora")
        page.fill("#id_password", "cora-curates-papers-2026")
        with page.expect_navigation():
            page.click("input[type=submit]")
        for url in admin:
            assert page.goto(live_server.url + url).status == 200, url
            page.wait_for_load_state("load")
        # The detector works: a dialog the page itself opens is seen.
        page.evaluate("alert('probe')")  # returns once the handler has dismissed it
        chromium.close()
        connections.close_all()  # inside Playwright's context, where the connection was opened
    assert dialogs == [(live_server.url + admin[-1], "probe")]
