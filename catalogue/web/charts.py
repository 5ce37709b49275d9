"""Charts drawn on the server as inline SVG: no JavaScript, no network, no inline styles.

Colours come from classes in static/css/site.css (so the charts follow the light and
dark themes, and a strict CSP needs no ``style-src 'unsafe-inline'``). Every chart is a
``role="img"`` with a ``<title>`` and a ``<desc>`` that states its figures as text, and
every label in it is escaped: the data is untrusted.
"""

import math
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from catalogue.models import Status
from catalogue.reads.leaderboards import Point


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


def _month_of(x: float) -> str:
    year = int(x)
    month = min(12, max(1, round((x - year) * 12) + 1))
    return f"{year}-{month:02d}"


@dataclass(frozen=True)
class TableRow:
    """A chart point as its table alternative lists it."""

    when: str  # YYYY-MM
    label: str
    value: str
    best: bool  # it set a new best


def table_rows(points: list[Point], *, lower_is_better: bool) -> list[TableRow]:
    """The chart's points as rows of a table (its alternative for screen readers), in date order."""
    frontier = {id(p) for p in best_so_far(points, lower_is_better=lower_is_better)}
    return [
        TableRow(_month_of(p.x), p.label, _number(p.y), id(p) in frontier)
        for p in sorted(points, key=lambda p: (p.x, p.label))
    ]


def _nice_step(span: float, most: int) -> float:
    """A step of 1, 2 or 5 × 10^k that cuts ``span`` into at most ``most`` parts."""
    raw = span / max(most, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def _ticks(low: float, high: float, most: int) -> list[float]:
    step = _nice_step(high - low, most)
    first = math.ceil(low / step - 1e-9) * step
    ticks, value = [], first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _tick_text(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return f"{value:,.{decimals}f}"


# How many state-of-the-art points carry their model's name on the chart (the newest ones; the
# table alternative and the description name every one).
NAMED_POINTS = 5


@dataclass(frozen=True)
class _Frame:
    """The time chart's box and scales: drawn 420 units wide with 13-unit text, so a phone's
    360-pixel column still shows it at about 11 px (the page's CSS keeps it from growing past 36rem)."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: int = 420
    height: int = 300
    left: int = 58
    right: int = 14
    top: int = 14
    bottom: int = 52

    @classmethod
    def around(cls, points: list[Point]) -> "_Frame":
        xs, ys = [p.x for p in points], [p.y for p in points]
        x0, x1 = min(xs), max(xs)
        y0, y1 = min(ys), max(ys)
        if x0 == x1:
            x0, x1 = x0 - 0.5, x1 + 0.5
        if y0 == y1:
            pad = abs(y0) * 0.05 or 1.0
            y0, y1 = y0 - pad, y1 + pad
        return cls(x0, x1, y0, y1)

    @property
    def base(self) -> int:
        return self.height - self.bottom

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    def sx(self, x: float) -> float:
        return round(
            self.left + (x - self.x0) / (self.x1 - self.x0) * (self.width - self.left - self.right), 1
        )

    def sy(self, y: float) -> float:
        return round(
            self.height
            - self.bottom
            - (y - self.y0) / (self.y1 - self.y0) * (self.height - self.top - self.bottom),
            1,
        )


def metric_over_time(points: list[Point], *, chart_id: str, metric: str, lower_is_better: bool) -> SafeString:
    """Each result as a dot at (paper date, value), the best so far as a step line, its newest
    steps named by model, year ticks on the date axis and round-number ticks on the value axis,
    each axis titled (the box: ``_Frame``)."""
    if not points:
        return SafeString("")
    frame = _Frame.around(points)
    sx, sy = frame.sx, frame.sy
    frontier = best_so_far(points, lower_is_better=lower_is_better)
    first = frontier[0]
    steps = [f"M{sx(first.x)},{sy(first.y)}"]
    steps += [f"H{sx(p.x)} V{sy(p.y)}" for p in frontier[1:]]
    steps.append(f"H{sx(frame.x1)}")
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4" class="chart-dot"><title>{}: {}</title></circle>',
        ((sx(p.x), sy(p.y), p.label, _number(p.y)) for p in points),
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
        '{}<path d="{}" class="chart-frontier"></path>{}{}</svg>',
        frame.width,
        frame.height,
        chart_id,
        chart_id,
        chart_id,
        metric,
        chart_id,
        desc,
        _axes(frame, metric),
        " ".join(steps),
        dots,
        mark_safe("".join(_names(frame, frontier))),  # each built by format_html
    )


def _axes(frame: _Frame, metric: str) -> SafeString:
    """Both axes, titled: year ticks on the date axis, round-number ticks on the value axis."""
    sx, sy, left, base = frame.sx, frame.sy, frame.left, frame.base
    year_step = max(1, int(_nice_step(frame.x1 - frame.x0, 5)))
    years = [y for y in range(math.ceil(frame.x0), math.floor(frame.x1) + 1) if y % year_step == 0]
    y_step = _nice_step(frame.y1 - frame.y0, 5)
    ticks = [
        format_html(
            '<line x1="{x}" y1="{b}" x2="{x}" y2="{b5}" class="chart-axis"></line>'
            '<text x="{x}" y="{bl}" class="chart-label" text-anchor="middle">{year}</text>',
            x=sx(year),
            b=base,
            b5=base + 5,
            bl=base + 18,
            year=year,
        )
        for year in years
    ] + [
        format_html(
            '<line x1="{l5}" y1="{y}" x2="{l}" y2="{y}" class="chart-axis"></line>'
            '<text x="{lt}" y="{yt}" class="chart-label" text-anchor="end">{value}</text>',
            l5=left - 5,
            l=left,
            y=sy(value),
            lt=left - 8,
            yt=sy(value) + 4,
            value=_tick_text(value, y_step),
        )
        for value in _ticks(frame.y0, frame.y1, 5)
    ]
    return format_html(
        '<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="chart-axis"></line>'
        '<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="chart-axis"></line>{ticks}'
        '<text x="{mid}" y="{xt}" class="chart-axis-title" text-anchor="middle">Paper date</text>'
        '<text x="{yx}" y="{ymid}" class="chart-axis-title" text-anchor="middle" '
        'transform="rotate(-90 {yx} {ymid})">{metric}</text>',
        l=left,
        r=frame.plot_right,
        t=frame.top,
        b=base,
        ticks=mark_safe("".join(ticks)),  # each built by format_html
        mid=round((left + frame.plot_right) / 2, 1),
        xt=frame.height - 8,
        yx=14,
        ymid=round((frame.top + base) / 2, 1),
        metric=metric,
    )


def _names(frame: _Frame, frontier: list[Point]) -> list[SafeString]:
    """The newest ``NAMED_POINTS`` steps' model names, each beside its dot where it fits without
    overlapping a name already placed (newest first)."""
    names = []
    placed: list[tuple[float, float, float]] = []  # (y, x from, x to) of the names drawn
    for p in reversed(frontier[-NAMED_POINTS:]):
        name = p.name or p.label
        name = name if len(name) <= 24 else name[:23] + "…"
        x, y = frame.sx(p.x), frame.sy(p.y)
        span = len(name) * 7 + 8
        right_side = x + span <= frame.plot_right
        x_from, x_to = (x + 7, x + 7 + span) if right_side else (x - 7 - span, x - 7)
        ty = y - 6 if y - 6 > frame.top + 10 else y + 16
        overlaps = any(abs(ty - py) < 14 and x_from < pto and x_to > pfrom for py, pfrom, pto in placed)
        if x_from < frame.left or overlaps:
            continue
        placed.append((ty, x_from, x_to))
        names.append(
            format_html(
                '<text x="{}" y="{}" class="chart-name" text-anchor="{}">{}</text>',
                x + 7 if right_side else x - 7,
                ty,
                "start" if right_side else "end",
                name,
            )
        )
    return names
