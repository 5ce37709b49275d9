"""A curator corrects a title and a status in a real Chromium; a snapshot reload keeps both, and the
public sees them: marked on the paper page, listed on /corrections/, in its Atom feed."""

import xml.etree.ElementTree as ET

import pytest
from django.core.management import call_command
from django.db import connections
from django.urls import NoReverseMatch, reverse

from catalogue.models import Correction, Paper
from tests.admin_client import make_curator
from tests.chromium import launched
from tests.conftest import ROOT

GPIPE = "1811.06965"
NEW_TITLE = "GPipe: pipeline parallelism for giant networks (curated title)"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # Transactional: the live server's thread must see the rows. serialized_rollback puts back
    # what migrations wrote (the Curators group), which an earlier transactional test's flush
    # would have removed.
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def browser_page(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here stay sync.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launched() as browser:
        try:
            yield browser.new_page()
        finally:
            # The ORM calls made while Playwright's loop ran got a connection of their own
            # (PostgreSQL), which would outlive the test and block the test database's removal.
            connections.close_all()


def submit(page, selector: str) -> None:
    """Click a form's submit button and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def public_url(name: str, slug: str) -> str | None:
    try:
        return reverse(name, args=[slug])
    except NoReverseMatch:
        return None


def test_corrections_made_in_the_admin_survive_reloading_the_snapshot(live_server, browser_page):
    page = browser_page
    call_command("load_snapshot", str(ROOT / "fixtures"), verbosity=0)
    make_curator("qcurator")
    paper = Paper.objects.get(arxiv_id=GPIPE)
    sample = (
        paper.samples.select_related("entry", "body").exclude(status="ran_honours").order_by("pk").first()
    )
    assert sample is not None
    paper_admin = live_server.url + reverse("admin:catalogue_paper_change", args=[paper.pk])
    sample_admin = live_server.url + reverse("admin:catalogue_sample_change", args=[sample.pk])

    page.goto(live_server.url + reverse("admin:index"))
    page.fill("#id_username", "qcurator")
    page.fill("#id_password", "qcurator-curates-papers-2026")
    submit(page, "input[type=submit]")
    assert page.locator("#curation-module").is_visible()  # logged in, on the admin's home

    page.click("text=Your public name on corrections")
    page.fill("#id_public_name", "Q. Curator")
    submit(page, "input[type=submit]")
    assert "show you as 'Q. Curator'" in page.locator("ul.messagelist").inner_text()

    page.goto(paper_admin)
    page.fill("#id_title", NEW_TITLE)
    page.fill("#id_reason", "the archive's title lost its subtitle")
    submit(page, "input[name=_continue]")
    assert "was changed successfully" in page.locator("ul.messagelist").inner_text()
    assert page.locator("a.remove-correction").is_visible()

    page.goto(sample_admin)
    page.select_option("#id_status", "ran_honours")
    page.fill("#id_reason", "reran it by hand: the contract holds")
    submit(page, "input[name=_continue]")
    assert "was changed successfully" in page.locator("ul.messagelist").inner_text()
    assert Correction.objects.filter(created_by__username="qcurator").count() == 2

    call_command("load_snapshot", str(ROOT / "fixtures"), force=True, verbosity=0)

    page.goto(paper_admin)
    assert page.locator("#id_title").input_value() == NEW_TITLE
    assert "Corrected on" in page.locator(".curation-note").inner_text()
    page.goto(sample_admin)
    assert page.locator("#id_status").input_value() == "ran_honours"
    history = page.locator("#corrections-group").inner_text()
    assert "reran it by hand: the contract holds" in history
    assert "qcurator" in history

    # The public pages, where they exist: the curator's values, never the curator's name.
    paper_page = public_url("paper", paper.slug)
    if paper_page is None:
        pytest.skip("no public /paper/<slug> route yet: checked in the admin only")
    response = page.goto(live_server.url + paper_page)
    assert response.status == 200
    assert page.locator("h1").first.inner_text().strip() == NEW_TITLE
    row = page.locator("table.places tbody tr").filter(has_text=sample.body.sha256_prefix)
    row = row.filter(has_text=sample.entry.name)
    assert row.count() == 1
    assert row.locator(".status").first.inner_text().strip().startswith("ran_honours")
    assert "qcurator" not in page.content()

    # The marker says it is corrected, by whom (the public name), why and what the snapshot says.
    note = row.locator(".correction-note")
    assert "by Q. Curator on" in note.inner_text()
    assert "reran it by hand: the contract holds" in note.inner_text()
    assert f"The snapshot says: {sample.status}" in note.inner_text()
    with page.expect_navigation():
        note.locator("a.badge-corrected").click()
    assert "/corrections/?paper=" in page.url
    listed = page.locator(".correction-list").inner_text()
    assert "reran it by hand: the contract holds" in listed
    assert "Q. Curator" in listed
    assert "qcurator" not in page.content()
    feed = page.request.get(live_server.url + reverse("corrections_feed"))
    assert feed.status == 200
    entries = ET.fromstring(feed.body()).findall("{http://www.w3.org/2005/Atom}entry")
    assert any(
        "reran it by hand" in (e.findtext("{http://www.w3.org/2005/Atom}summary") or "") for e in entries
    )
