"""catalogue.pagination.api and .paginators: PwC's page numbers and the cursor walk of the API's lists."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalogue import models as m
from tests.api_helpers import GPIPE, V1, get, walk
from tests.factories import make_paper

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- page mode ----------------------------------------------------------------------------


def test_paper_pages_cover_the_list_exactly_once(api, loaded_seeds):
    rows = walk(api, f"{V1}/papers/", items_per_page=3)
    assert len(rows) == 13
    assert len({r["id"] for r in rows}) == 13
    page2 = get(api, f"{V1}/papers/", items_per_page=3, page=2)
    assert parse_qs(urlsplit(page2["previous"]).query) == {"items_per_page": ["3"]}


def test_cursor_mode_refuses_page_and_ordering(api, loaded_seeds):
    assert "ordering" in get(api, f"{V1}/papers/", 400, pagination="cursor", ordering="-published")
    assert "page" in get(api, f"{V1}/papers/", 400, pagination="cursor", page=2)


def test_a_page_past_the_end_is_404(api, loaded_seeds):
    assert "detail" in get(api, f"{V1}/papers/", 404, page=99)
    assert get(api, f"{V1}/samples/", page=1)["count"] == 38


def test_an_empty_list_has_a_first_page(api, db):
    assert get(api, f"{V1}/samples/") == {"count": 0, "next": None, "previous": None, "results": []}


def test_deep_pages_fetch_keys_first_and_keep_the_order(api, loaded_seeds, monkeypatch):
    from catalogue.pagination import paginators as pagination

    shallow = walk(api, f"{V1}/samples/", items_per_page=4)
    monkeypatch.setattr(pagination, "DEFERRED_FROM", 4)
    assert walk(api, f"{V1}/samples/", items_per_page=4) == shallow
    ranked = walk(api, f"{V1}/papers/", q="training", items_per_page=2)
    monkeypatch.setattr(pagination, "DEFERRED_FROM", 10**6)
    assert walk(api, f"{V1}/papers/", q="training", items_per_page=2) == ranked


# --- cursor pagination --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "papers/",
        "samples/",
        "code-entries/",
        "repositories/",
        "methods/",
        "search/",
        f"papers/{GPIPE}/samples/",
    ],
)
def test_cursor_mode_walks_the_whole_list_once(api, loaded_seeds, path):
    by_page = walk(api, f"{V1}/{path}", items_per_page=50)
    first = get(api, f"{V1}/{path}", pagination="cursor", items_per_page=4)
    assert set(first) == {"next", "previous", "results"}
    by_cursor = walk(api, f"{V1}/{path}", pagination="cursor", items_per_page=4)
    assert len(by_cursor) == len(by_page) > 4
    assert sorted(json.dumps(r, sort_keys=True) for r in by_cursor) == sorted(
        json.dumps(r, sort_keys=True) for r in by_page
    )


def test_cursor_previous_link_goes_back(api, loaded_seeds):
    first = get(api, f"{V1}/samples/", pagination="cursor", items_per_page=5)
    second = api.get(first["next"]).json()
    back = api.get(second["previous"]).json()
    assert back["results"] == first["results"]


def test_cursor_pages_combine_with_filters(api, loaded_seeds):
    rows = walk(api, f"{V1}/samples/", pagination="cursor", items_per_page=3, status="unverified")
    assert {r["status"] for r in rows} == {"unverified"}
    assert len(rows) == m.Sample.objects.filter(status="unverified").count()


# --- deep pages: a remembered key, never an OFFSET over the table ---------------------------


def _offsets(queries) -> list[int]:
    return [int(n) for q in queries for n in re.findall(r"\bOFFSET (\d+)", q["sql"])]


@pytest.fixture
def deep_pages(settings, monkeypatch):
    """Page boundaries every 3 rows (remembered, as deployed): pages from the 4th row on are deep."""
    from catalogue.pagination import paginators

    settings.FIGURES_CACHE_SECONDS = 600
    monkeypatch.setattr(paginators, "DEFERRED_FROM", 3)
    return paginators


def _by_offset(api, deep_pages, monkeypatch, url, **params):
    """The same walk with every page an OFFSET (the answer deep pages must give)."""
    monkeypatch.setattr(deep_pages, "DEFERRED_FROM", 10**6)
    try:
        return walk(api, url, **params)
    finally:
        monkeypatch.setattr(deep_pages, "DEFERRED_FROM", 3)


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("papers/", {}),
        ("papers/", {"ordering": "title"}),  # ties, broken by slug
        ("papers/", {"ordering": "-title"}),
        ("papers/", {"ordering": "-month"}),
        ("papers/", {"has_code": "false", "ordering": "month"}),
        ("papers/", {"ordering": "published"}),  # a nullable date: keeps the OFFSET, same rows
        ("samples/", {}),
        ("samples/", {"status": "unverified"}),
        ("code-entries/", {}),
        ("repositories/", {}),
        ("authors/", {}),
    ],
)
@pytest.mark.parametrize("size", [2, 5])
def test_deep_pages_give_the_rows_offset_gives(
    api, loaded_seeds, deep_pages, monkeypatch, path, params, size
):
    for n in range(12):  # titles that tie, between the seeds' papers in slug order
        make_paper(slug=f"g-tie-{n}", title="Same title", month="2019-02")
    expected = _by_offset(api, deep_pages, monkeypatch, f"{V1}/{path}", items_per_page=size, **params)
    assert len(expected) > 3 + size  # a page wholly past the first boundary
    assert walk(api, f"{V1}/{path}", items_per_page=size, **params) == expected
    # Again, from the remembered boundaries, and out of order.
    last = -(-len(expected) // size)
    for page in (last, 2, last - 1):
        got = get(api, f"{V1}/{path}", items_per_page=size, page=page, **params)["results"]
        assert got == expected[(page - 1) * size : page * size]


def test_a_deep_page_walks_no_offset_past_the_bound(api, loaded_seeds, deep_pages):
    get(api, f"{V1}/samples/", items_per_page=2, page=15)  # boundaries remembered
    for path, page in (("samples/", 15), ("samples/", 19), ("papers/", 6), ("authors/", 5)):
        with CaptureQueriesContext(connection) as queries:
            page_rows = get(api, f"{V1}/{path}", items_per_page=2, page=page)
        assert len(page_rows["results"]) == 2
        assert all(n < 3 for n in _offsets(queries.captured_queries)), _offsets(queries.captured_queries)


def test_deep_pages_follow_a_load_that_changes_the_rows(api, loaded_seeds, deep_pages, monkeypatch):
    before = walk(api, f"{V1}/papers/", items_per_page=2)
    for n in range(5):
        make_paper(slug=f"a-new-{n}")  # before every seed paper in slug order
    m.LoadRun.objects.create(
        started_at=timezone.now(), outcome=m.LoadRunOutcome.SUCCEEDED
    )  # a new data version
    after = walk(api, f"{V1}/papers/", items_per_page=2)
    assert after == _by_offset(api, deep_pages, monkeypatch, f"{V1}/papers/", items_per_page=2)
    assert [r["id"] for r in after[5:]] == [r["id"] for r in before]


def test_a_deep_page_past_the_end_is_404(api, loaded_seeds, deep_pages):
    assert get(api, f"{V1}/samples/", items_per_page=5)["count"] == 38
    assert len(get(api, f"{V1}/samples/", items_per_page=5, page=8)["results"]) == 3
    assert "detail" in get(api, f"{V1}/samples/", 404, items_per_page=5, page=9)
