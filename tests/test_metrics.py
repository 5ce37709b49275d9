"""Leaderboard metrics: parsing the archive's strings, and which way is better."""

import pytest

from catalogue import metrics


@pytest.mark.parametrize(
    ("value", "number"),
    [
        ("84.4%", 84.4),
        ("57.01 %", 57.01),
        ("1.82M", 1_820_000),
        ("99", 99.0),
        ("91.3", 91.3),
        (" 3.5k ", 3500.0),
        ("2B", 2e9),
        ("1,234.5", 1234.5),
        ("-0.25", -0.25),
        ("\u22120.5", -0.5),
        ("1e-3", 0.001),
        ("84.4 ± 0.2", 84.4),
        ("84.4 (top-1)", 84.4),
        (".5", 0.5),
        (12, 12.0),
        (0.5, 0.5),
    ],
)
def test_parses_numbers_as_the_archive_writes_them(value, number):
    assert metrics.parse(value) == pytest.approx(number)


@pytest.mark.parametrize(
    "value", ["-", "N/A", "YES", "", "  ", None, True, "abc", "1.2.3", "12abc", "1e999", float("nan"), "v2"]
)
def test_values_that_are_not_numbers_parse_to_none(value):
    assert metrics.parse(value) is None


@pytest.mark.parametrize(
    "name",
    [
        "Error",
        "Top-1 Error Rate",
        "Test Loss",
        "WER",
        "Word Error Rate (WER)",
        "FID",
        "Perplexity",
        "Chamfer Distance",
        "MAE",
        "miss rate",
        "False Positive Rate",
        "EER",
    ],
)
def test_error_loss_rate_of_mistakes_and_distance_are_better_low(name):
    assert metrics.lower_is_better(name)


@pytest.mark.parametrize(
    "name",
    ["Accuracy", "Top 1 Accuracy", "Percentage correct", "mAP", "BLEU score", "F1", "Images per second", ""],
)
def test_other_metrics_are_better_high(name):
    assert not metrics.lower_is_better(name)


def test_primary_metric_is_the_one_most_results_state():
    maps = [{"Accuracy": "1"}, {"Accuracy": "2", "Params": "3M"}, {"Params": "1M"}, {"Accuracy": "3"}, {}]
    assert metrics.primary_metric(maps) == "Accuracy"
    assert metrics.primary_metric([{}, {}]) is None
    assert metrics.primary_metric([{"Params": "1"}, {"Accuracy": "2"}]) == "Accuracy"  # ties: by name


def test_orders_higher_first_with_unparseable_values_last_in_their_order():
    rows = [
        {"Accuracy": "N/A", "id": 1},
        {"Accuracy": "84.4%", "id": 2},
        {"Accuracy": "-", "id": 3},
        {"Accuracy": "91.3", "id": 4},
        {"id": 5},
        {"Accuracy": "1.82M", "id": 6},
    ]
    ordered = metrics.ordered(rows, "Accuracy", lambda r: r)
    assert [r["id"] for r in ordered] == [6, 4, 2, 1, 3, 5]


def test_orders_error_metrics_lower_first():
    rows = [{"Error": "5.1%"}, {"Error": "1.2%"}, {"Error": "YES"}, {"Error": "3"}]
    ordered = metrics.ordered(rows, "Error", lambda r: r)
    assert [r["Error"] for r in ordered] == ["1.2%", "3", "5.1%", "YES"]
