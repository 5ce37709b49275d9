"""What the JSON API's tests share: its root, the seeds' GPipe paper, and reading answers as a client would.

The ``api`` client and ``api_throttle_off`` fixtures are in ``tests/conftest.py``.
"""

import json

from django.db import connection
from django.test.utils import CaptureQueriesContext

V1 = "/api/v1"
GPIPE = "gpipe-efficient-training-of-giant-neural"


def get(api, url, expect=200, **params):
    response = api.get(url, params)
    assert response.status_code == expect, (url, params, response.content[:500])
    return response.json() if response.content else None


def ids(page, key="id"):
    return [row[key] for row in page["results"]]


def walk(api, url, **params):
    """Every row of a list, page after page (following ``next`` as a client would)."""
    rows, page = [], get(api, url, **params)
    while True:
        rows += page["results"]
        if not page["next"]:
            return rows
        page = api.get(page["next"]).json()


def api_state(client) -> dict:
    """Every API response about the catalogue, by URL (lists walked whole): to compare two loads."""
    state: dict[str, object] = {}

    def lst(url):
        rows = walk(client, url, items_per_page=50)
        if url.endswith("samples/"):
            # Places come in id order (the one indexed total order); ids are the database's own.
            rows = sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
        state[url] = rows
        return rows

    def one(url):
        response = client.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        state[url] = response.json()
        return state[url]

    for paper in lst(f"{V1}/papers/"):
        detail = one(f"{V1}/papers/{paper['id']}/")
        for alias in detail["aliases"]:
            one(f"{V1}/papers/{alias}/")
        if paper["arxiv_id"]:
            one(f"{V1}/papers/{paper['arxiv_id']}/")
        for child in ("repositories", "tasks", "methods", "results", "samples"):
            lst(f"{V1}/papers/{paper['id']}/{child}/")
    for repo in lst(f"{V1}/repositories/"):
        base = f"{V1}/repositories/{repo['owner']}/{repo['name']}/"
        one(base)
        lst(base + "papers/")
        lst(base + "samples/")
    for task in lst(f"{V1}/tasks/"):
        one(f"{V1}/tasks/{task['id']}/")
        lst(f"{V1}/tasks/{task['id']}/papers/")
        lst(f"{V1}/tasks/{task['id']}/evaluations/")
    for method in lst(f"{V1}/methods/"):
        one(f"{V1}/methods/{method['id']}/")
    for board in lst(f"{V1}/evaluations/"):
        base = f"{V1}/evaluations/{board['id']}/"
        one(base)
        for metric in lst(base + "metrics/"):
            one(f"{base}metrics/{metric['id']}/")
        for result in lst(base + "results/"):
            one(f"{base}results/{result['id']}/")
    for entry in lst(f"{V1}/code-entries/"):
        one(f"{V1}/code-entries/{entry['id']}/")
        lst(f"{V1}/code-entries/{entry['id']}/samples/")
    lst(f"{V1}/samples/")
    lst(f"{V1}/search/")
    return state


def queries_and_rows(api, url) -> tuple[int, int]:
    """(queries run, rows returned) for one list request that must answer 200."""
    with CaptureQueriesContext(connection) as captured:
        response = api.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(captured), len(response.json()["results"])


def assert_queries_do_not_grow_with_page_size(api, url: str, mode: str) -> None:
    """A list's page of 50 rows runs the queries its page of 1 row runs (``mode``: page or cursor)."""
    sep = ("&" if "?" in url else "?") + ("pagination=cursor&" if mode == "cursor" else "")
    one, rows_one = queries_and_rows(api, f"{V1}/{url}{sep}items_per_page=1")
    fifty, rows_fifty = queries_and_rows(api, f"{V1}/{url}{sep}items_per_page=50")
    assert rows_one == 1
    assert rows_fifty > 1
    assert fifty == one


def assert_both_pagination_modes_walk(api, url: str, rows: list, filtered: list, **filters) -> None:
    """A list of four ``rows`` (their ids, in order): by pages of three, page 2 holds the last and
    page 3 is a 404; walked a row a page, by page number or by cursor, it gives each row once in
    order; cursor mode states no count; ``filters`` walked by cursor give ``filtered``."""
    second = get(api, url, items_per_page=3, page=2)
    assert (second["count"], ids(second), second["next"]) == (4, rows[3:], None)
    get(api, url, expect=404, items_per_page=3, page=3)
    assert [row["id"] for row in walk(api, url, items_per_page=1)] == rows
    cursor = walk(api, url, pagination="cursor", items_per_page=1)
    assert [row["id"] for row in cursor] == rows
    assert "count" not in get(api, url, pagination="cursor")
    walked = walk(api, url, pagination="cursor", items_per_page=1, **filters)
    assert [row["id"] for row in walked] == filtered
