"""Reading leaderboard metrics, which the archive gives as strings with no direction.

Numbers as the field writes them
--------------------------------

:func:`parse` is the one reading of a value, for every ranking, chart and API: the **first
number** the value states. What follows it qualifies it and is not read: a unit or ``%``, a
spread, a range's other end, a note.

=============================== ========== =================================================
value                           number     rule
=============================== ========== =================================================
``84.4%``, ``57.01 %``          84.4       ``%`` and units follow the number
``1.82M``, ``25.6M params``     1,820,000  a magnitude letter (k K M B G T) after the number,
                                           as a word of its own, scales it; a glued ``m`` is a
                                           million, as the SNLI tables write parameters
                                           (``3.0m``)
``12 GFLOPs``, ``3.5 ms``,      12, 3.5,   a unit is not converted (a column states its
``32.1dB``                      32.1       values in one unit): the number as written; a unit
                                           written onto the number is one of
                                           :data:`GLUED_UNITS`, other letters there make it no
                                           number (``12abc``)
``76,2%``, ``37,7``             76.2       a decimal comma (below)
``1,234``, ``1,234.5``          1,234      thousands separators (below)
``84.4 ± 0.3``, ``84.4+-0.3``,  84.4       a spread is not the value
``84.4 (±0.3)``
``84.1-84.5``, ``84.1–84.5``    84.1       a range ranks by its **first** value, as written
                                           (not its middle, not its worse end)
``~257M``, ``≈84``, ``<0.1``,   257M, 84,  an approximation or bound reads as its number
``≥ 99``                        0.1, 99
``−0.5`` (U+2212)               -0.5       the unicode minus is a minus
``**70.3**``                    70.3       markdown emphasis (nlpprogress tables)
=============================== ========== =================================================

Commas: a comma between digits is a **thousands separator** when the digits before the
decimal point are grouped as thousands, ``[1-9]d{0,2}(,ddd)+`` (``1,234``, ``12,345,678``,
``1,234.5``): so one comma followed by exactly three digits and no decimal point is a
thousands separator. Otherwise **one** comma between digits is a **decimal comma** (``76,2``,
``37,7``, ``1,2345``, ``0,123``: a thousands group never follows a lone 0). Anything else
with commas states no number (``1,23,456``, ``1.234,5``, ``84.4, 85.1``). The one reading
this rule gets wrong is a decimal comma followed by exactly three decimals (``76,234``).

Values that state no number first (``"-"``, ``"N/A"``, ``"YES"``, ``""``, ``"12abc"``,
``"1.2.3"``, ``"(32.76 32.07)"``) parse to None and are listed last, shown as given.

Which way a metric is better
----------------------------

The data never says. :func:`direction` reads it from the metric's name with the rules below,
in this order, and answers ``"higher"``, ``"lower"`` or None (the name does not tell; the
page then says so and keeps the archive's order rather than guess). Words are matched whole,
case-insensitively, after splitting the name on anything not a letter or digit.

==== ==========================================================================================
step rule (examples indented under it)
==== ==========================================================================================
1    Normalise: lower case; ``/`` reads "per"; every spelling of an F-measure is ``f1``.
       ``F-1``, ``F0.5``, ``F-score`` → f1; ``img/s`` → img per s
2    Qualifiers are not the metric: a part in ``(…)`` or ``[…]`` is a qualifier, and what
     follows ``@`` or the word ``at`` is the operating point, ignored.
       ``TAR @ FAR=0.01`` → TAR; ``AUC (horizon error)`` → AUC; ``Recall@1 (FAR)`` → Recall;
       ``Accuracy (error bars)`` → Accuracy
3    What is left is the head. A head that is exactly one of :data:`WHOLE_NAMES` is that
     measure (``IS`` is the Inception Score; the word "is" anywhere else is English).
     Otherwise phrases are matched first (:data:`HIGHER_PHRASES`, :data:`LOWER_PHRASES`,
     :data:`COST_PHRASES`), then words (:data:`HIGHER_WORDS`, :data:`LOWER_WORDS`,
     :data:`COST_WORDS`; a word unknown as written is tried without its trailing digits, then
     without a dimension or a "mean" written onto it). ``rank`` followed by a number is a
     recognition rate at rank k, higher; ``mean rank``, ``median rank`` are lower (phrases);
     ``rank`` alone tells nothing. The **last** match decides: English names the measure last.
       ``Top-1 Error Rate`` → lower; ``1-of-100 Accuracy`` → higher; ``AP50`` → ap;
       ``Horizon error AUC`` → higher (an AUC is better high whatever it measures);
       ``3DPCK``, ``AP3D`` → pck, ap; ``meanIOU`` → iou; ``Rank-1``, ``Rank5`` → higher;
       ``Mean Rank`` → lower; ``J&F`` → the phrase "j f", higher
4    No match in the head but an operating point: ``P@k``, ``R@k``, ``AR@k``, ``pass@k``,
     ``Rank@k`` (:data:`AT_K_HEADS`) are precision, recall, average recall, pass rate,
     recognition rate at k: higher.
       ``P@5``, ``R_1@100``, ``AR@100``
5    Still nothing: a one-word qualifier is the metric's abbreviation; then a weak word
     (:data:`WEAK_HIGHER_WORDS`: score, rating) decides.
       ``Score (WER)`` → lower; ``Overall score`` → higher; but ``FID score`` → lower (step 3)
6    Otherwise None: the name does not tell.
       ``Dev``, ``Books``, ``VI``, ``Q->A``, ``Bias (F/M)``, ``1-1``, ``Rank``
==== ==========================================================================================

Lower: errors and error rates (WER, CER, EER, FAR, HTER, APCER…), losses and their other
units (perplexity, bits per character, NLL, model entropy), distances between a result and the
truth (FID, MAE, RMSE, Chamfer…), where the right answer ranks (mean rank, median rank, MedR).
Higher: accuracy, F1, BLEU, ROUGE, METEOR, mAP / AP, AUC, TAR, recall, precision, hits@k,
rank-k rates, MRR, NDCG, IoU, PCK and 3DPCK, J&F, EAO, PSNR, SSIM, EM, correlations, success
rates, scores, speech quality and separation (PESQ, STOI / ESTOI, MOS, SDR / SDRi / SI-SDRi,
SI-SNRi, SIR, SAR), the Inception Score (IS).

Costs
-----

A cost (:func:`is_cost`) is what a result spent rather than how good it is: parameters, FLOPs
or MACs, model size, memory, latency, inference / training / run time (lower is better), and
speed or throughput (FPS, images per second, samples/s: higher is better; a speed given in
time units, ``Speed (ms)``, is a duration, lower). A name is a cost when the word that decides
its direction is a cost word. A table is never ranked by a cost when a quality metric sits
beside it (:func:`ranking_metric`).
"""

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

HIGHER = "higher"
LOWER = "lower"

# Single words (after step 1). Each is the name of a measure that is better high.
HIGHER_WORDS = frozenset(
    {
        # getting it right
        "accuracy", "accuracies", "acc", "correct", "em", "f1", "precision", "recall",
        "specificity", "sensitivity", "tar", "tpr", "tnr", "success", "win", "hit", "hits", "hr",
        # areas under curves: better high whatever the curve plots
        "auc", "auroc", "auprc", "aupr", "roc",
        # detection, segmentation, retrieval and ranking
        "ap", "aps", "apm", "apl", "map", "iou", "miou", "dice", "jaccard",
        "pq", "sq", "rq", "mrr", "ndcg", "pck", "pckh", "mota", "motp", "idf1", "hota",
        # text generation and parsing
        "bleu", "sacrebleu", "gleu", "rouge", "meteor", "cider", "spice", "chrf", "bertscore",
        "smatch", "las", "uas",
        # image quality, agreement, clustering, correlation, games
        "psnr", "ssim", "kappa", "mcc", "nmi", "ari", "purity", "pearson", "spearman", "kendall",
        "correlation", "similarity", "elo", "reward", "rewards", "return", "returns",
        # visual object tracking (expected average overlap)
        "eao",
        # speech quality and intelligibility, source separation (signal-to-distortion, to
        # interference, to artefacts, and their improvements); mean opinion scores
        "pesq", "stoi", "estoi", "csig", "cbak", "covl", "mos", "sdr", "sdri", "sisdr", "sisdri",
        "snri", "sisnr", "sisnri", "sir", "sar",
    }
)  # fmt: skip
# Single words naming a measure that is better low.
LOWER_WORDS = frozenset(
    {
        # errors and rates of mistakes
        "error", "errors", "err", "incorrect", "mistakes", "miss", "misses",
        "wer", "cer", "ter", "eer", "fpr", "fnr", "fdr", "far", "frr", "mindcf",
        "mae", "mse", "rmse", "mape", "smape", "nme", "ece", "epe", "aepe", "mpjpe",
        # losses (perplexity and bits per character are cross-entropy in other units)
        "loss", "losses", "nll", "perplexity", "ppl", "bpc", "bpb", "bpd", "divergence", "kl", "regret",
        # distances between a result and the truth
        "distance", "distances", "fid", "fvd", "kid", "lpips", "chamfer", "hausdorff", "emd",
        "ade", "fde", "minade", "minfde",
        # face anti-spoofing error rates (half total, attack / bona fide presentation, average)
        "hter", "apcer", "bpcer", "acer",
        # where the right answer ranks, in retrieval (median rank, mean rank)
        "medr", "mnr", "meanr",
    }
)  # fmt: skip
# Names matched only as the whole head: as a word inside a longer name they mean something else.
WHOLE_NAMES: dict[tuple[str, ...], str] = {("is",): HIGHER}  # the Inception Score
# Weak words: they decide only when no other word or one-word qualifier does ("FID score").
WEAK_HIGHER_WORDS = frozenset({"score", "scores", "rating"})

# Phrases, as words after step 1; matched before single words, longest first.
HIGHER_PHRASES = (
    "true positive", "true positives", "true negative", "true accept", "true acceptance",
    "exact match", "inception score", "below curve",  # CheXpert: radiologists below the ROC curve
    "j f",  # J&F: DAVIS video segmentation's mean of region similarity J and contour accuracy F
)  # fmt: skip
LOWER_PHRASES = (
    "false positive", "false positives", "false negative", "false negatives", "false alarm",
    "false alarms", "false accept", "false acceptance", "false reject", "false rejection",
    "bit per character", "bits per character", "bits per char", "bits per byte", "bits per dim",
    "bits per dimension", "model entropy", "cross entropy",
    "mean rank", "median rank", "average rank",
)  # fmt: skip

# Costs, with the direction each is better in.
COST_WORDS = {
    **dict.fromkeys(
        (
            "params", "param", "parameters", "parameter", "flops", "flop", "gflops", "gflop",
            "mflops", "tflops", "macs", "mac", "gmacs", "madds", "size", "memory", "vram",
            "latency", "time", "runtime", "seconds", "second", "sec", "ms", "msec", "minutes",
            "hours", "hrs", "energy", "compute", "storage",
        ),
        LOWER,
    ),
    **dict.fromkeys(("speed", "speedup", "fps", "throughput"), HIGHER),
}  # fmt: skip
COST_PHRASES = {
    **dict.fromkeys(
        (
            "mult adds", "multiply adds", "multiply accumulates", "hardware burden", "wall clock",
            "operations per network pass",
        ),
        LOWER,
    ),
    **dict.fromkeys(("per second", "per sec", "per s"), HIGHER),
}  # fmt: skip
# A speed stated in one of these is a duration ("Speed (ms)"): lower is better.
DURATION_WORDS = frozenset({"ms", "msec", "sec", "second", "seconds", "s", "minutes", "hours", "hrs"})
# Before "@", these mean precision / recall / average recall / pass rate at k ("P@5",
# "R_1@100", "AR@100", "pass@1"); alone they are too short to tell ("Q->AR").
AT_K_HEADS = frozenset({"p", "r", "ar", "pass", "rank"})

_F_MEASURE = re.compile(r"\bf[-_ ]?(?:\d+(?:\.\d+)?|beta|score|measure)\b")
_QUALIFIER = re.compile(r"\(([^)]*)\)|\[([^\]]*)\]")
_OPERATING_POINT = re.compile(r"@|\bat\b")
_WORD = re.compile(r"[a-z0-9]+")
# Written onto a measure's word, not part of it: a dimension (3DPCK, AP3D), "mean" (meanIOU).
_WRITTEN_ON = re.compile(r"^(?:[23]d|mean)(?=[a-z])|(?<=[a-z])[23]d$")
# "rank" with a k: the share of queries answered right within the first k (Rank-1, Rank5).
_RANK_K = re.compile(r"rank\d+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _durations(words: list[str]) -> list[str]:
    """The time units among ``words`` that are not a "per" ("ms" yes, "img per s" no)."""
    return [w for i, w in enumerate(words) if w in DURATION_WORDS and (i == 0 or words[i - 1] != "per")]


def _phrase_table() -> list[tuple[tuple[str, ...], str, bool]]:
    table = [(tuple(p.split()), HIGHER, False) for p in HIGHER_PHRASES]
    table += [(tuple(p.split()), LOWER, False) for p in LOWER_PHRASES]
    table += [(tuple(p.split()), way, True) for p, way in COST_PHRASES.items()]
    return sorted(table, key=lambda entry: -len(entry[0]))


_PHRASES = _phrase_table()


def _word(word: str) -> tuple[str, bool] | None:
    """(direction, is a cost) of one word, or None."""
    for candidate in (word, word.rstrip("0123456789"), _WRITTEN_ON.sub("", word)):
        if candidate in HIGHER_WORDS:
            return HIGHER, False
        if candidate in LOWER_WORDS:
            return LOWER, False
        if candidate in COST_WORDS:
            return COST_WORDS[candidate], True
    return None


def _matches(words: list[str]) -> list[tuple[str, bool, str]]:
    """Every phrase or word of ``words`` that names a measure: (direction, is a cost, word)."""
    found, i = [], 0
    while i < len(words):
        for phrase, way, cost in _PHRASES:
            if tuple(words[i : i + len(phrase)]) == phrase:
                found.append((way, cost, phrase[-1]))
                i += len(phrase)
                break
        else:
            if words[i] == "rank" and words[i + 1 : i + 2] and words[i + 1].isdigit():
                found.append((HIGHER, False, "rank"))
                i += 1
            elif _RANK_K.fullmatch(words[i]):
                found.append((HIGHER, False, "rank"))
            elif hit := _word(words[i]):
                found.append((*hit, words[i]))
            i += 1
    return found


def _classify(name) -> tuple[str, bool] | None:
    """(direction, is a cost) of a metric's name, by the rules of the module docstring."""
    if not isinstance(name, str):
        return None
    text = _F_MEASURE.sub(" f1 ", name.lower().replace("/", " per "))
    qualifiers = [" ".join(_words(a or b)) for a, b in _QUALIFIER.findall(text)]
    head, *operating_point = _OPERATING_POINT.split(_QUALIFIER.sub(" ", text), maxsplit=1)
    head_words = _words(head)
    if tuple(head_words) in WHOLE_NAMES:
        return WHOLE_NAMES[tuple(head_words)], False
    strong = _matches(head_words)
    if strong:
        way, cost, word = strong[-1]
        if word == "speed" and any(_durations(_words(qualifier)) for qualifier in qualifiers):
            way = LOWER
        return way, cost
    letters = [word for word in head_words if not word.isdigit()]
    if operating_point and letters and letters[-1] in AT_K_HEADS:
        return HIGHER, False
    for qualifier in qualifiers:
        words = _words(qualifier)
        if len(words) == 1 and (hit := _matches(words)):
            return hit[-1][:2]
    if any(word in WEAK_HIGHER_WORDS for word in head_words):
        return HIGHER, False
    return None


def direction(name) -> str | None:
    """``"higher"`` or ``"lower"``: which way the metric ``name`` is better; None when the name
    does not tell (rules in the module docstring). Costs have a direction too."""
    found = _classify(name)
    return found[0] if found else None


def is_cost(name) -> bool:
    """True when ``name`` is what a result spent (parameters, FLOPs, size, memory, time, speed),
    not how good it is."""
    found = _classify(name)
    return bool(found and found[1])


def lower_is_better(name) -> bool:
    """True when :func:`direction` says lower; False for higher and for unknown."""
    return direction(name) == LOWER


def ranking_metric(names: Sequence[str]) -> str | None:
    """The column a table is ranked by, from its metric names in the table's column order.

    Papers with Code ranked a table by the first metric of its ``sota.metrics`` list; never by
    a cost when a quality metric is there. So: the first name that is not a cost; when every
    column is a cost, the first column; None for no columns.
    """
    names = list(names)
    return next((name for name in names if not is_cost(name)), names[0] if names else None)


def parse(value) -> float | None:
    """The number a metric value states, or None when it states none (module docstring)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    m = _NUMBER.match(str(value))
    if not m:
        return None
    # thousands separators go; a decimal comma is a decimal point
    mantissa = m["grouped"].replace(",", "") if m["grouped"] else m["plain"].replace(",", ".")
    sign = "-" if m["sign"] in ("-", _MINUS) else ""
    exponent = (m["exp"] or "0").replace(_MINUS, "-")
    suffix = (m["suffix"] or "").strip()
    number = float(f"{sign}{mantissa}e{exponent}") * _SUFFIX[suffix]  # 1e999 is inf, no error
    return number if math.isfinite(number) else None


_MINUS = "\u2212"
_SUFFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "m": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
# Units written onto the number (``3.5ms``, ``32.1dB``, ``120fps``): read, not converted. Any
# other letters on a number make it no number (``12abc``, ``1e3x4``).
GLUED_UNITS = (
    "ms", "msec", "sec", "s", "min", "h", "hr", "hrs", "fps", "hz", "db", "px", "x",
    "kb", "mb", "gb", "tb", "flops", "gflops", "mflops", "tflops", "macs", "gmacs", "params",
)  # fmt: skip
_NUMBER = re.compile(
    rf"""^[\s\ufeff]*
    (?:[~\u2248\u223c<>\u2264\u2265]\s*)?    # ~ ≈ ∼ < > ≤ ≥: an approximation or a bound
    (?:\*{{1,2}}|_{{1,2}})?                      # markdown emphasis
    (?P<sign>[-+\u2212]?)
    (?:
        (?P<grouped>[1-9]\d{{0,2}}(?:,\d{{3}})+(?:\.\d+)?)  # thousands separators
        |(?P<plain>\d+(?:[.,]\d+)?|\.\d+)                # a decimal point or a decimal comma
    )
    (?:[eE](?P<exp>[-+\u2212]?\d{{1,3}}))?
    (?:(?i:{"|".join(sorted(GLUED_UNITS, key=len, reverse=True))})|(?P<suffix>\s*[kKMBGT]|m))?
    (?![\d.,A-Za-z])
    """,
    re.VERBOSE,
)


def fractional_year(month: str) -> float | None:
    """``"2019-07"`` as 2019.5 (a position on a time axis); None unless it is such a month."""
    if len(month) == 7 and month[:4].isdigit() and month[5:].isdigit():
        return int(month[:4]) + (int(month[5:]) - 1) / 12
    return None


def primary_metric(metric_maps: Iterable[dict]) -> str | None:
    """The metric most results on a leaderboard state, leaving costs out when a quality metric
    is stated (ties: the first in alphabetical order).

    Not "the first seen": PostgreSQL's jsonb does not keep the order of a map's keys. Where
    the table's column order is known, :func:`ranking_metric` is the faithful choice.
    """
    counts: Counter[str] = Counter()
    for metrics in metric_maps:
        counts.update(name for name in (metrics or {}) if isinstance(name, str))
    quality = [name for name in counts if not is_cost(name)] or list(counts)
    return min(quality, key=lambda name: (-counts[name], name)) if quality else None


def ordered(rows: Sequence, metric: str | None, value_of) -> list:
    """``rows`` best first by ``metric``; rows whose value does not parse come last, in order.

    ``value_of(row)`` gives a row's metrics map. Python's sort is stable, so rows that tie
    (or do not parse) keep the order they came in. When the metric's :func:`direction` is
    unknown (None), or there is no metric, the rows are returned in the order given: we do
    not guess which end is best.
    """
    way = direction(metric) if metric is not None else None
    if way is None:
        return list(rows)
    sign = 1.0 if way == LOWER else -1.0

    def key(row):
        number = parse((value_of(row) or {}).get(metric))
        return (1, 0.0) if number is None else (0, sign * number)

    return sorted(rows, key=key)
