"""Corrections in public: marked where shown (pages, API, feeds), listed on /corrections/ with a feed."""

import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import curation
from catalogue import models as m
from tests.factories import make_entry, make_paper, make_sample

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def cora():
    user = User.objects.create_user("cora-login", email="cora@example.org", password="x" * 12, is_staff=True)
    m.CuratorProfile.objects.create(user=user, public_name="Cora P.")
    return user


@pytest.fixture
def nameless():
    return User.objects.create_user(
        "quiet-login", email="quiet@example.org", password="x" * 12, is_staff=True
    )


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_status_correction_changes_the_figures_and_the_page_says_what_the_snapshot_says(client, cora):
    entry = make_entry(name="forward")
    sample = make_sample(entry=entry, status=m.Status.UNVERIFIED, paper=make_paper(title="Fast nets"))
    before = page(client, sample.paper.get_absolute_url())
    assert "corrected" not in before
    fix = curation.correct_status(
        sample, m.Status.RAN_HONOURS, user=cora, reason="ran it by hand", expected_version=None
    )

    html = page(client, sample.paper.get_absolute_url())
    assert "1 ran" in page(client, "/papers/")  # the public figures follow the correction
    assert f'href="/corrections/?paper={sample.paper.slug}#correction-{fix.pk}">corrected</a>' in html
    assert "by Cora P. on" in html
    assert "ran it by hand" in html
    assert "The snapshot says: <q>unverified</q>" in html
    assert 'href="/corrections/?paper=' in html  # the record's history is linked
    for url in (entry.get_absolute_url(), f"/body/{sample.body.sha256_prefix}"):
        assert "The snapshot says: <q>unverified</q>" in page(client, url), url
    assert f'href="/corrections/?entry={entry.slug}"' in page(client, entry.get_absolute_url())
    for text in (html, page(client, "/corrections/")):
        assert "cora-login" not in text
        assert "cora@example.org" not in text


def test_a_title_correction_is_marked_on_the_paper_and_in_lists(client, nameless):
    paper = make_paper(title="Atention is all", title_upstream="Atention is all")
    curation.correct_title(paper, "Attention is all", user=nameless, reason="typo", expected_version=None)
    html = page(client, paper.get_absolute_url())
    assert "<h1>Attention is all</h1>" in html
    assert "by a curator on" in html  # no public name chosen: never the login
    assert "The snapshot says: <q>Atention is all</q>" in html
    assert "quiet-login" not in html
    assert "corrected title" in page(client, "/papers/")


def test_the_history_lists_every_correction_newest_first_removed_ones_as_removed(client, cora, nameless):
    paper = make_paper(title="Old")
    first = curation.correct_title(paper, "First fix", user=cora, reason="one", expected_version=None)
    second = curation.correct_title(paper, "Second fix", user=nameless, reason="two", expected_version=None)
    other = make_sample(status=m.Status.RAN)
    third = curation.correct_status(
        other, m.Status.RAN_VIOLATES, user=cora, reason="three", expected_version=None
    )
    curation.remove_correction(third, user=nameless, reason="the snapshot was right")

    html = page(client, "/corrections/")
    positions = [html.index(f'id="correction-{c.pk}"') for c in (third, second, first)]
    assert positions == sorted(positions)
    assert html.count("superseded</span>") == 1  # the first, replaced by the second
    assert "removed</span>" in html
    assert "the snapshot was right" in html
    assert "in force</span>" in html

    mine = page(client, f"/corrections/?paper={paper.slug}")
    assert f'id="correction-{first.pk}"' in mine
    assert f'id="correction-{second.pk}"' in mine
    assert f'id="correction-{third.pk}"' not in mine
    assert client.get("/corrections/?paper=no-such-paper").status_code == 404


def test_the_corrections_feed_parses_and_says_what_changed(client, cora):
    sample = make_sample(status=m.Status.RAN)
    fix = curation.correct_status(
        sample, m.Status.RAN_FIXTURE, user=cora, reason="fixture", expected_version=None
    )
    response = client.get("/corrections/feed")
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    feed = ET.fromstring(response.content)
    (entry,) = feed.findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}id") == f"tag:codewithpapers,2026:/corrections/{fix.pk}"
    assert entry.findtext(f"{ATOM}author/{ATOM}name") == "Cora P."
    summary = entry.findtext(f"{ATOM}summary")
    assert "the snapshot said 'ran on a synthesized input'" in summary
    assert "Reason: fixture" in summary
    curation.remove_correction(fix, user=cora, reason="")
    assert "(removed)" in ET.fromstring(client.get("/corrections/feed").content).findtext(
        f"{ATOM}entry/{ATOM}title"
    )
    assert '<link rel="alternate" type="application/atom+xml"' in page(client, "/corrections/")


def test_the_code_entry_feed_marks_a_corrected_status(client, cora):
    sample = make_sample(status=m.Status.UNVERIFIED)
    curation.correct_status(sample, m.Status.RAN, user=cora, reason="seen it run", expected_version=None)
    feed = ET.fromstring(client.get(f"{sample.entry.get_absolute_url()}/feed").content)
    summary = feed.findtext(f"{ATOM}entry/{ATOM}summary")
    assert "Status corrected by Cora P." in summary
    assert "seen it run; the snapshot says unverified." in summary


def test_query_counts_do_not_grow_with_corrections(client, cora):
    entry = make_entry(name="step")
    urls = (
        "/corrections/",
        entry.get_absolute_url(),
        f"/corrections/?entry={entry.slug}",
        "/corrections/feed",
    )

    def add(n):
        for _ in range(n):
            s = make_sample(entry=entry, status=m.Status.UNVERIFIED)
            curation.correct_status(s, m.Status.RAN, user=cora, reason="r", expected_version=None)

    def counts():
        found = {}
        for url in urls:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            found[url] = len(ctx)
        return found

    add(1)
    one = counts()
    add(49)
    assert counts() == one


def test_what_a_curator_writes_is_inert_on_every_page(client, cora):
    probe = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    sample = make_sample(status=m.Status.UNVERIFIED)
    curation.correct_status(sample, m.Status.RAN, user=cora, reason=probe, expected_version=None)
    curation.correct_title(sample.paper, probe, user=cora, reason=probe, expected_version=None)
    for url in (sample.paper.get_absolute_url(), "/corrections/", sample.entry.get_absolute_url()):
        html = page(client, url)
        assert "<script>alert(1)" not in html, url
        assert "<img src=x" not in html, url
    assert b"<script>alert(1)" not in client.get("/corrections/feed").content
