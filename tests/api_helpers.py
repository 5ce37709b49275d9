"""What the JSON API's tests share: its root, the seeds' GPipe paper, and reading answers as a client would.

The ``api`` client and ``api_throttle_off`` fixtures are in ``tests/conftest.py``.
"""

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
