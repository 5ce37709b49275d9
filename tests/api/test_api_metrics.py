"""A leaderboard's metrics in the API (/api/v1/evaluations/<id>/metrics/): which way each is
better, as ``catalogue.metrics.direction`` reads its name; unknown stays unknown."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import metrics
from tests.api_helpers import V1, get
from tests.factories import make_leaderboard, make_result

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

# name: (is_loss, direction); "Dev" is SWAG accuracy on one board, a cross-entropy on another
EXPECTED = {
    "Accuracy": (False, "higher"),
    "Top-1 Error Rate": (True, "lower"),
    "Dev": (False, None),
    "Params": (True, "lower"),  # a cost: fewer is better
    "Rank-1": (False, "higher"),
    "Mean Rank": (True, "lower"),
    "SI-SDRi": (False, "higher"),
    "HTER": (True, "lower"),
}


def _board(n_rows=1):
    board = make_leaderboard(slug="board")
    for i in range(n_rows):
        make_result(leaderboard=board, model=f"m{i}", metrics=dict.fromkeys(EXPECTED, f"{i}.5"))
    return board


def test_each_metric_says_which_way_it_is_better_where_its_name_tells(api):
    _board()
    listed = get(api, f"{V1}/evaluations/board/metrics/", items_per_page=50)["results"]
    assert {m["name"]: (m["is_loss"], m["direction"]) for m in listed} == EXPECTED
    for metric in listed:
        assert get(api, f"{V1}/evaluations/board/metrics/{metric['id']}/") == metric
        # one rule for pages and API
        assert metric["direction"] == metrics.direction(metric["name"])
        # is_loss stays a bool for PwC's client; direction keeps unknown unknown
        assert metric["is_loss"] is (metric["direction"] == "lower")


def test_the_metric_list_reads_the_same_queries_however_many_rows(api):
    board = _board(1)
    url = f"{V1}/evaluations/board/metrics/"
    get(api, url)
    with CaptureQueriesContext(connection) as one:
        get(api, url)
    for i in range(1, 60):
        make_result(leaderboard=board, model=f"more-{i}", metrics=dict.fromkeys(EXPECTED, str(i)))
    with CaptureQueriesContext(connection) as sixty:
        get(api, url)
    assert len(one.captured_queries) == len(sixty.captured_queries)


def test_the_schema_describes_direction_and_keeps_is_loss_a_bool(api):
    schema = get(api, f"{V1}/schema/", format="json")
    fields = schema["components"]["schemas"]["Metric"]["properties"]
    assert fields["is_loss"]["type"] == "boolean"
    assert not fields["is_loss"].get("nullable")
    assert fields["direction"]["nullable"] is True
    (ref,) = (part["$ref"] for part in fields["direction"]["allOf"])
    enum = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert enum == {"type": "string", "enum": ["higher", "lower"]}
    assert "null where the name does not tell" in fields["direction"]["description"]
