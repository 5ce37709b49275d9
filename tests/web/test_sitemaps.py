"""catalogue.web.sitemaps: each section's page N is a range from a remembered key, not an OFFSET."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.pagination import paginators
from catalogue.web import sitemaps
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def _locs(client, url) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return re.findall(r"<loc>([^<]+)</loc>", response.content.decode())


def test_a_deep_sitemap_page_is_a_range_from_a_remembered_key(client, settings, monkeypatch):
    for n in range(23):
        make_paper(slug=f"p-{n:02d}")
    monkeypatch.setattr(sitemaps.PaperSitemap, "limit", 5)
    monkeypatch.setattr(paginators, "DEFERRED_FROM", 10**6)
    by_offset = [_locs(client, f"/sitemap-papers.xml?p={p}") for p in range(1, 6)]
    assert [len(page) for page in by_offset] == [5, 5, 5, 5, 3]

    settings.FIGURES_CACHE_SECONDS = 600  # boundaries remembered, as deployed
    monkeypatch.setattr(paginators, "DEFERRED_FROM", 5)
    assert [_locs(client, f"/sitemap-papers.xml?p={p}") for p in (5, 1, 4, 2, 3)] == [
        by_offset[4], by_offset[0], by_offset[3], by_offset[1], by_offset[2]
    ]  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        assert _locs(client, "/sitemap-papers.xml?p=5") == by_offset[4]
    assert not any("OFFSET" in q["sql"] for q in queries.captured_queries)
    assert client.get("/sitemap-papers.xml?p=6").status_code == 404
