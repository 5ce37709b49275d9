"""Ids of API objects that have no column of their own, derived from their natural keys.

A result row is (paper, leaderboard, model) and a metric is a name within a leaderboard;
their ids are built from those keys (never from database ids), so they are the same on
every database that holds the same catalogue, reload or not.
"""

import hashlib

from django.utils.text import slugify


def result_id(result) -> str:
    """Stable within its leaderboard: a hash of the paper's identity and the model name."""
    paper = result.paper
    key = f"{paper.arxiv_id or 'slug:' + paper.slug}\x1f{result.model}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def metric_ids(names: list[str]) -> list[tuple[str, str]]:
    """(id, name) for a leaderboard's metric names: their slug, numbered where two slugs collide."""
    out, seen = [], set()
    for name in sorted(names):
        base = slugify(name) or "metric"
        mid, n = base, 2
        while mid in seen:
            mid, n = f"{base}-{n}", n + 1
        seen.add(mid)
        out.append((mid, name))
    return out
