"""Charts drawn on the server as inline SVG: no JavaScript, no network, no inline styles.

Colours come from classes in static/css/site.css (so the charts follow the light and
dark themes, and a strict CSP needs no ``style-src 'unsafe-inline'``). Every chart is a
``role="img"`` with a ``<title>`` and a ``<desc>`` that states its figures as text, and
every label in it is escaped: the data is untrusted.
"""

from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from catalogue.models import Status


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:.4g}"


def status_bars(by_status: dict[str, int], *, chart_id: str, title: str) -> SafeString:
    """A horizontal bar per status (every status, zeros included), longest bar = largest count."""
    rows = [(status, by_status.get(status.value, 0)) for status in Status]
    top = max((count for _, count in rows), default=0) or 1
    label_w, bar_w, row_h, value_w = 130, 260, 26, 70
    width, height = label_w + bar_w + value_w, row_h * len(rows) + 8
    bars = []
    for i, (status, count) in enumerate(rows):
        y = 4 + i * row_h
        length = round(bar_w * count / top, 1) if count else 0
        bars.append(
            format_html(
                '<g class="chart-row"><title>{}: {} ({})</title>'
                '<text x="{}" y="{}" class="chart-label" text-anchor="end">{}</text>'
                '<rect x="{}" y="{}" width="{}" height="{}" rx="3" class="chart-bar status-{}"></rect>'
                '<text x="{}" y="{}" class="chart-value">{}</text></g>',
                status.value,
                _number(count),
                status.label,
                label_w - 8,
                y + row_h / 2 + 4,
                status.value,
                label_w,
                y + 3,
                length,
                row_h - 8,
                status.value,
                label_w + length + 6,
                y + row_h / 2 + 4,
                _number(count),
            )
        )
    desc = "; ".join(f"{status.value}: {_number(count)}" for status, count in rows)
    return format_html(
        '<svg class="chart chart-status" role="img" viewBox="0 0 {} {}" aria-labelledby="{}-t {}-d">'
        '<title id="{}-t">{}</title><desc id="{}-d">{}</desc>{}</svg>',
        width,
        height,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        desc,
        mark_safe("".join(bars)),  # each piece was built by format_html
    )


@dataclass(frozen=True)
class Point:
    x: float  # a date as a fractional year (2018.87 ≈ mid-November 2018)
    y: float
    label: str  # what the point is, for its tooltip and the text alternative


def best_so_far(points: list[Point], *, lower_is_better: bool) -> list[Point]:
    """The points that set a new best when taken in date order (the frontier the chart draws)."""
    frontier: list[Point] = []
    for point in sorted(points, key=lambda p: (p.x, p.label)):
        if not frontier:
            frontier.append(point)
            continue
        best = frontier[-1].y
        if (point.y < best) if lower_is_better else (point.y > best):
            frontier.append(point)
    return frontier


def metric_over_time(points: list[Point], *, chart_id: str, metric: str, lower_is_better: bool) -> SafeString:
    """Each result as a dot at (paper date, value), and the best so far as a step line."""
    if not points:
        return SafeString("")
    width, height, left, right, top, bottom = 560, 260, 64, 16, 16, 36
    xs, ys = [p.x for p in points], [p.y for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x0 == x1:
        x0, x1 = x0 - 0.5, x1 + 0.5
    if y0 == y1:
        pad = abs(y0) * 0.05 or 1.0
        y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return round(left + (x - x0) / (x1 - x0) * (width - left - right), 1)

    def sy(y: float) -> float:
        return round(height - bottom - (y - y0) / (y1 - y0) * (height - top - bottom), 1)

    frontier = best_so_far(points, lower_is_better=lower_is_better)
    first = frontier[0]
    steps = [f"M{sx(first.x)},{sy(first.y)}"]
    steps += [f"H{sx(p.x)} V{sy(p.y)}" for p in frontier[1:]]
    steps.append(f"H{sx(x1)}")
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4" class="chart-dot"><title>{}: {}</title></circle>',
        ((sx(p.x), sy(p.y), p.label, _number(p.y)) for p in points),
    )
    axes = format_html(
        '<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="chart-axis"></line>'
        '<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="chart-axis"></line>'
        '<text x="{l}" y="{bl}" class="chart-label">{xmin}</text>'
        '<text x="{r}" y="{bl}" class="chart-label" text-anchor="end">{xmax}</text>'
        '<text x="{yl}" y="{b}" class="chart-label" text-anchor="end">{ymin}</text>'
        '<text x="{yl}" y="{tl}" class="chart-label" text-anchor="end">{ymax}</text>',
        l=left,
        r=width - right,
        t=top,
        b=height - bottom,
        bl=height - bottom + 20,
        yl=left - 6,
        tl=top + 10,
        xmin=int(x0),
        xmax=int(x1),
        ymin=_number(y0),
        ymax=_number(y1),
    )
    best = frontier[-1]
    desc = (
        f"{len(points)} results with a date and a numeric {metric}, "
        f"{'lower' if lower_is_better else 'higher'} is better. Best so far, in date order: "
        + "; ".join(f"{p.label}: {_number(p.y)}" for p in frontier)
        + f". Best: {best.label} ({_number(best.y)})."
    )
    return format_html(
        '<svg class="chart chart-time" role="img" viewBox="0 0 {} {}" aria-labelledby="{}-t {}-d">'
        '<title id="{}-t">Best {} over paper date</title><desc id="{}-d">{}</desc>'
        '{}<path d="{}" class="chart-frontier"></path>{}</svg>',
        width,
        height,
        chart_id,
        chart_id,
        chart_id,
        metric,
        chart_id,
        desc,
        axes,
        " ".join(steps),
        dots,
    )
