"""catalogue.pagination.api and .paginators: PwC's page numbers and the cursor walk of the API's lists."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from catalogue import models as m
from tests.api_helpers import GPIPE, V1, get, walk

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
