"""Server-drawn SVG charts: every status shown, labels escaped, no inline styles, a text alternative."""

import re

from catalogue.models import Status
from catalogue.web import charts


def test_status_bars_show_every_status_with_its_count_in_the_text_alternative():
    by_status = {s.value: 0 for s in Status} | {"ran": 3, "unverified": 40}
    svg = str(charts.status_bars(by_status, chart_id="c", title="Samples"))
    assert svg.startswith("<svg")
    assert 'role="img"' in svg
    assert 'aria-labelledby="c-t c-d"' in svg
    desc = re.search(r'<desc id="c-d">(.*?)</desc>', svg)[1]
    for status in Status:
        assert f"{status.value}: {by_status[status.value]}" in desc
    assert svg.count("<rect") == len(Status)
    assert " style=" not in svg


def test_the_longest_bar_is_the_largest_count():
    svg = str(charts.status_bars({"ran": 1, "unverified": 4}, chart_id="c", title="t"))
    widths = {
        status: float(width) for width, status in re.findall(r'width="([\d.]+)"[^>]*status-(\w+)"', svg)
    }
    assert widths["unverified"] == 4 * widths["ran"] > 0
    assert widths["ran_honours"] == 0


def test_chart_labels_are_escaped():
    svg = str(charts.status_bars({}, chart_id="c", title="<script>alert(1)</script>"))
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    points = [charts.Point(2020.0, 1.0, '<img src=x onerror="alert(1)">')]
    svg = str(charts.metric_over_time(points, chart_id="m", metric="</title><b>", lower_is_better=False))
    assert "<img" not in svg
    assert "<b>" not in svg
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in svg


def test_best_so_far_follows_the_direction_of_the_metric():
    points = [
        charts.Point(2019.0, 80.0, "a"),
        charts.Point(2018.0, 70.0, "b"),
        charts.Point(2020.0, 75.0, "c"),
        charts.Point(2021.0, 90.0, "d"),
    ]
    assert [p.label for p in charts.best_so_far(points, lower_is_better=False)] == ["b", "a", "d"]
    assert [p.label for p in charts.best_so_far(points, lower_is_better=True)] == ["b"]


def test_metric_over_time_draws_a_dot_per_result_and_says_which_is_best():
    points = [charts.Point(2018.5, 84.4, "GPipe"), charts.Point(2020.0, 88.5, "Later")]
    svg = str(charts.metric_over_time(points, chart_id="m", metric="Top 1 Accuracy", lower_is_better=False))
    assert svg.count("<circle") == 2
    assert "Best: Later (88.5)" in svg
    assert 'class="chart-frontier"' in svg
    assert " style=" not in svg


def test_no_points_draw_no_chart():
    assert charts.metric_over_time([], chart_id="m", metric="x", lower_is_better=False) == ""


def _board_points():
    return [
        charts.Point(2016.0, 70.0, "ResNet (Deep residual learning)", "ResNet"),
        charts.Point(2017.5, 65.5, "Worse (a paper)", "Worse"),
        charts.Point(2018.87, 84.4, "GPipe (GPipe: efficient training)", "GPipe"),
        charts.Point(2021.2, 90.1, "ViT-H (An image is worth)", "ViT-H"),
    ]


def test_the_time_chart_titles_its_axes_ticks_its_years_and_values_and_names_its_best_models():
    svg = str(
        charts.metric_over_time(_board_points(), chart_id="m", metric="Top 1 Accuracy", lower_is_better=False)
    )
    assert '<text x="232.0" y="292" class="chart-axis-title" text-anchor="middle">Paper date</text>' in svg
    assert re.search(r'class="chart-axis-title"[^>]*rotate\(-90[^>]*>Top 1 Accuracy</text>', svg)
    years = re.findall(r'text-anchor="middle">(\d{4})</text>', svg)
    assert years == ["2016", "2018", "2020"]  # every other year over five years
    values = re.findall(r'class="chart-label" text-anchor="end">([\d.,]+)</text>', svg)
    assert values == ["70", "75", "80", "85", "90"]  # round numbers, not the data's ends
    names = re.findall(r'class="chart-name"[^>]*>([^<]+)</text>', svg)
    assert sorted(names) == ["GPipe", "ResNet", "ViT-H"]  # the state-of-the-art points, by model
    assert "Worse" not in names
    assert 'viewBox="0 0 420 300"' in svg  # 13-unit text is ~11 px in a phone's 360 px column


def test_only_the_newest_best_points_are_named_and_names_are_escaped():
    points = [charts.Point(2000 + i, float(i), f"m{i}", f"<m{i}>") for i in range(12)]
    svg = str(charts.metric_over_time(points, chart_id="m", metric="x", lower_is_better=False))
    names = re.findall(r'class="chart-name"[^>]*>([^<]+)</text>', svg)
    assert 0 < len(names) <= charts.NAMED_POINTS
    assert "&lt;m11&gt;" in names
    assert "<m11>" not in svg


def test_the_charts_table_lists_every_point_by_date_and_marks_each_new_best():
    rows = charts.table_rows(_board_points(), lower_is_better=False)
    assert [(r.when, r.value, r.best) for r in rows] == [
        ("2016-01", "70", True),
        ("2017-07", "65.5", False),
        ("2018-11", "84.4", True),
        ("2021-03", "90.1", True),
    ]
