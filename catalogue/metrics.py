"""Reading leaderboard metrics, which the archive gives as strings with no direction.

``parse("84.4%")`` is 84.4, ``parse("1.82M")`` is 1,820,000; values that are not a number
(``"-"``, ``"N/A"``, ``"YES"``, ``""``) parse to None and are listed last, shown as given.

Whether a metric is better high or low is not stated anywhere in the data. We read it from
the metric's name: a name that marks an error, a loss, a rate of mistakes or a distance is
better low (:data:`LOWER_IS_BETTER_WORDS` and :data:`LOWER_IS_BETTER_PHRASES`, matched as
whole words, case-insensitively); every other metric is better high.
"""

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

# Whole words (after splitting the name on anything not a letter or digit).
LOWER_IS_BETTER_WORDS = frozenset(
    {
        # errors
        "error", "errors", "err", "mae", "mse", "rmse", "mape", "epe", "ece", "nme",
        # losses (perplexity and bits per character are cross-entropy losses in other units)
        "loss", "nll", "perplexity", "ppl", "bpc", "bpb", "bpd",
        # rates of mistakes (not "per": phone error rate, but also "images per second")
        "wer", "cer", "ter", "eer", "fpr", "fnr", "far", "frr",
        # distances between a result and the truth
        "distance", "fid", "kid", "chamfer", "hausdorff", "emd", "ade", "fde",
    }
)  # fmt: skip
# Phrases whose words are each harmless alone.
LOWER_IS_BETTER_PHRASES = ("miss rate", "false positive rate", "false negative rate", "false alarm")

_WORD = re.compile(r"[a-z0-9]+")
_SUFFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
_NUMBER = re.compile(
    r"""^\s*
    (?P<num>[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+)
    (?:[eE](?P<exp>[-+]?\d{1,3}))?
    \s*(?P<suffix>[kKMBGT]?)
    (?![\d.,A-Za-z])
    """,
    re.VERBOSE,
)


def parse(value) -> float | None:
    """The number a metric value states, or None when it states none."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    m = _NUMBER.match(str(value))
    if not m:
        return None
    mantissa = m["num"].replace(",", "").replace("\u2212", "-")
    number = float(f"{mantissa}e{m['exp'] or 0}") * _SUFFIX[m["suffix"]]  # 1e999 is inf, no error
    return number if math.isfinite(number) else None


def fractional_year(month: str) -> float | None:
    """``"2019-07"`` as 2019.5 (a position on a time axis); None unless it is such a month."""
    if len(month) == 7 and month[:4].isdigit() and month[5:].isdigit():
        return int(month[:4]) + (int(month[5:]) - 1) / 12
    return None


def lower_is_better(name: str) -> bool:
    """True when the metric's name marks it as an error, loss, rate of mistakes or distance."""
    lowered = (name or "").lower()
    if any(word in LOWER_IS_BETTER_WORDS for word in _WORD.findall(lowered)):
        return True
    spaced = " ".join(_WORD.findall(lowered))
    return any(phrase in spaced for phrase in LOWER_IS_BETTER_PHRASES)


def primary_metric(metric_maps: Iterable[dict]) -> str | None:
    """The metric most results on a leaderboard state (ties: the first in alphabetical order).

    Not "the first seen": PostgreSQL's jsonb does not keep the order of a map's keys.
    """
    counts: Counter[str] = Counter()
    for metrics in metric_maps:
        counts.update(name for name in (metrics or {}) if isinstance(name, str))
    return min(counts, key=lambda name: (-counts[name], name)) if counts else None


def ordered(rows: Sequence, metric: str | None, value_of) -> list:
    """``rows`` best first by ``metric``; rows whose value does not parse come last, in order.

    ``value_of(row)`` gives a row's metrics map. Python's sort is stable, so rows that tie
    (or do not parse) keep the order they came in.
    """
    if metric is None:
        return list(rows)
    sign = 1.0 if lower_is_better(metric) else -1.0

    def key(row):
        number = parse((value_of(row) or {}).get(metric))
        return (1, 0.0) if number is None else (0, sign * number)

    return sorted(rows, key=key)
