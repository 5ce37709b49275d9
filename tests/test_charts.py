"""Server-drawn SVG charts: every status shown, labels escaped, no inline styles, a text alternative."""

import re

from catalogue import charts
from catalogue.models import Status


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
