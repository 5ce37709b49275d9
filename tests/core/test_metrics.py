"""Leaderboard metrics: parsing the archive's strings, ordering by a direction, which column ranks.

Which way is better, read from a metric's name, is in test_metric_directions.py.
"""

import pytest

from catalogue import metrics
from tests.samples import real_table, real_tables


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
        # decimal commas; thousands separators only where the digits group as thousands
        ("76,2%", 76.2),
        ("37,7", 37.7),
        ("1,5M", 1_500_000),
        ("0,123", 0.123),  # a thousands group never follows a lone 0
        ("1,2345", 1.2345),
        ("1,234", 1234.0),
        ("12,345,678", 12_345_678),
        ("-1,234.5", -1234.5),
        # a spread, a range, an approximation or a bound: the first number
        ("84.4 ± 0.3", 84.4),
        ("84.4±0.3", 84.4),
        ("84.4+-0.3", 84.4),
        ("84.4 +/- 0.3", 84.4),
        ("84.4 (±0.3)", 84.4),
        ("84,4 ± 0,3", 84.4),
        ("84.1-84.5", 84.1),
        ("84.1\u201384.5", 84.1),  # an en dash
        ("84.1 - 84.5", 84.1),
        ("~84.4", 84.4),
        ("\u224884.4", 84.4),  # ≈
        ("< 0.1", 0.1),
        ("\u2265 99", 99.0),  # ≥
        ("\u2212.5", -0.5),
        ("1E\u22123", 0.001),
        # units: read as written, not converted; magnitude letters scale
        ("3.5 ms", 3.5),
        ("3.5ms", 3.5),
        ("32.1dB", 32.1),
        ("120fps", 120.0),
        ("12 GFLOPs", 12.0),
        ("25.6M params", 25_600_000),
        ("25.6 M", 25_600_000),
        # as the real samples write them (sota-extractor: snli, nlp-progress, nlpprogress)
        ("3.0m", 3_000_000),
        ("~257M", 257_000_000),
        ("**70.3**", 70.3),
        ("\ufeff93.3", 93.3),
        ("17.1(16.1 with basic dynamic evaluation)", 17.1),
    ],
)
def test_parses_numbers_as_the_archive_writes_them(value, number):
    assert metrics.parse(value) == pytest.approx(number)


@pytest.mark.parametrize(
    "value",
    [
        *("-", "N/A", "YES", "", "  ", None, True, "abc", "1.2.3", "12abc", "1e999", float("nan"), "v2"),
        *("1,234,5", "1.234,5", "1,23,456", "84.4, 85.1", "\u00b10.3", "<script>", "3.5msx", "1e3x4"),
        *("(32.76 32.07 26.26 22.74)", "**F1**", "Stanford conversion **v3.5.0**", "\u2212", "--*"),
    ],
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


def test_orders_a_decimal_comma_between_its_neighbours():
    # "76,2%" was no number and came last: 2 boards of the archive were misranked so.
    rows = [{"Accuracy": "75.9%"}, {"Accuracy": "76,2%"}, {"Accuracy": "N/A"}, {"Accuracy": "77.0%"}]
    ordered = [r["Accuracy"] for r in metrics.ordered(rows, "Accuracy", lambda r: r)]
    assert ordered == ["77.0%", "76,2%", "75.9%", "N/A"]
    rows = [{"Error": "38.1"}, {"Error": "37,7"}, {"Error": "37.5"}]
    assert [r["Error"] for r in metrics.ordered(rows, "Error", lambda r: r)] == ["37.5", "37,7", "38.1"]


def test_orders_spreads_and_ranges_by_their_first_value():
    rows = [{"Accuracy": v} for v in ("84.1-84.5", "84.4 ± 0.3", "84.2\u201384.3", "84.3 (±0.1)", "84.0+-1")]
    ordered = [r["Accuracy"] for r in metrics.ordered(rows, "Accuracy", lambda r: r)]
    assert ordered == ["84.4 ± 0.3", "84.3 (±0.1)", "84.2\u201384.3", "84.1-84.5", "84.0+-1"]


def test_orders_error_metrics_lower_first():
    rows = [{"Error": "5.1%"}, {"Error": "1.2%"}, {"Error": "YES"}, {"Error": "3"}]
    ordered = metrics.ordered(rows, "Error", lambda r: r)
    assert [r["Error"] for r in ordered] == ["1.2%", "3", "5.1%", "YES"]


# --- Which column a table is ranked by ------------------------------------------------------------


def test_a_language_model_table_ranks_by_perplexity_not_its_number_of_params():
    # The column order a jsonb map (or any sorted view) gives: the cost comes first.
    assert metrics.ranking_metric(["Number of params", "Test perplexity", "Validation perplexity"]) == (
        "Test perplexity"
    )
    sota = real_table("nlp-progress.json", "Word Level Models", "1B Words / Google Billion Word benchmark")
    assert sota["metrics"] == ["Test perplexity", "Number of params"]
    assert metrics.ranking_metric(sota["metrics"]) == "Test perplexity"
    keys = sorted({name for row in sota["rows"] for name in row["metrics"]})
    assert keys == ["Number of params", "Test perplexity"]
    assert metrics.ranking_metric(keys) == "Test perplexity"
    # primary_metric, which sees only the rows' maps: every row states both (was "Number of params").
    assert metrics.primary_metric(row["metrics"] for row in sota["rows"]) == "Test perplexity"
    # and the best (lowest) perplexity comes first, however the rows arrive
    best = metrics.ordered(list(reversed(sota["rows"])), "Test perplexity", lambda r: r["metrics"])
    assert best[0]["metrics"]["Test perplexity"] == "21.8"


@pytest.mark.parametrize(
    ("file", "task", "dataset", "expected", "most_stated"),
    [
        # every row states every column, so primary_metric (rows' maps only) breaks the tie by
        # name, and no longer by "Number of params" / "Parameters", which sort first
        (
            "nlp-progress.json",
            "Word Level Models",
            "WikiText-103",
            "Validation perplexity",
            "Test perplexity",
        ),
        ("nlp-progress.json", "Character Level Models", "Hutter Prize", "Bit per Character (BPC)", None),
        ("ogb.json", "Node Property Prediction", "ogbn-arxiv", "Test Accuracy", None),
        ("ogb.json", "Link Property Prediction", "ogbl-citation2", "Test MRR", None),
        ("snli.json", "Natural Language Inference", "SNLI", "% Test Accuracy", None),
        ("ogb.json", "Node Property Prediction", "ogbn-proteins", "Test ROC-AUC", None),
    ],
)
def test_real_tables_rank_by_their_first_quality_metric(file, task, dataset, expected, most_stated):
    sota = real_table(file, task, dataset)
    assert any(metrics.is_cost(name) for name in sota["metrics"])
    assert metrics.ranking_metric(sota["metrics"]) == expected
    assert metrics.primary_metric(row["metrics"] for row in sota["rows"]) == (most_stated or expected)


def test_no_real_table_is_ranked_by_a_cost():
    ranked = 0
    for _file, _task, _dataset, table in real_tables():
        sota = table.get("sota") or {}
        keys = sorted({name for row in sota.get("rows") or [] for name in row.get("metrics") or {}})
        for names in (sota.get("metrics") or [], keys):
            if names:
                ranked += 1
                assert not metrics.is_cost(metrics.ranking_metric(names)), names
    assert ranked > 600


def test_a_table_of_costs_only_ranks_by_its_first_column():
    assert metrics.ranking_metric(["Params", "FLOPs", "Inference time"]) == "Params"
    assert metrics.ranking_metric(["FPS", "Number of params"]) == "FPS"
    assert metrics.ranking_metric(["Number of params"]) == "Number of params"
    assert metrics.ranking_metric([]) is None


def test_ranking_metric_takes_the_first_quality_metric_even_of_unknown_direction():
    # Papers with Code ranked by the first column; one whose direction is unknown still ranks,
    # and ordered() then keeps the archive's order.
    assert metrics.ranking_metric(["Parameters", "VI", "1-1", "Precision"]) == "VI"
    assert metrics.ranking_metric(["Params", "Error", "Accuracy"]) == "Error"


def test_primary_metric_leaves_costs_out_when_a_quality_metric_is_stated():
    maps = [{"Params": "1M", "Accuracy": "1"}, {"Params": "2M"}, {"Params": "3M", "FLOPs": "1G"}]
    assert metrics.primary_metric(maps) == "Accuracy"
    assert metrics.primary_metric([{"Params": "1M"}, {"Params": "2M", "FLOPs": "1G"}]) == "Params"


# --- Ordering by a direction ----------------------------------------------------------------------


def test_orders_an_unknown_direction_in_the_order_given():
    values = ["4.44", "-", "86.6", None, "4.25"]
    rows = [{"id": i, **({"Dev": v} if v else {})} for i, v in enumerate(values, 1)]
    assert metrics.direction("Dev") is None
    assert [r["id"] for r in metrics.ordered(rows, "Dev", lambda r: r)] == [1, 2, 3, 4, 5]
    assert [r["id"] for r in metrics.ordered(rows, None, lambda r: r)] == [1, 2, 3, 4, 5]


def test_orders_a_qualified_higher_metric_higher_first():
    name = "TAR @ FAR=0.01"
    rows = [{name: "0.91"}, {name: "0.99"}, {name: "N/A"}, {name: "0.95"}]
    assert [r[name] for r in metrics.ordered(rows, name, lambda r: r)] == ["0.99", "0.95", "0.91", "N/A"]


def test_orders_costs_by_their_direction():
    rows = [{"Params": "25M"}, {"Params": "5.3M"}, {"Params": "1.2B"}]
    assert [r["Params"] for r in metrics.ordered(rows, "Params", lambda r: r)] == ["5.3M", "25M", "1.2B"]
    rows = [{"FPS": "30"}, {"FPS": "120"}, {"FPS": "60"}]
    assert [r["FPS"] for r in metrics.ordered(rows, "FPS", lambda r: r)] == ["120", "60", "30"]
