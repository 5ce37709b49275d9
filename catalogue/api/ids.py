"""Ids of API objects that have no column of their own, derived from their natural keys.

A result row is (leaderboard, paper or none, what the row says) and a metric is a name within a leaderboard;
their ids are built from those keys (never from database ids), so they are the same on
every database that holds the same catalogue, reload or not.
"""

import hashlib

from django.utils.text import slugify


def result_id(result) -> str:
    """Unique within its leaderboard: a hash of the paper's identity (none for a row that names no
    paper) and the row's own key (its model, metrics and additional data: ``Result.row_key``)."""
    paper = result.paper
    who = (paper.arxiv_id or "slug:" + paper.slug) if paper else "-"
    return hashlib.sha256(f"{who}\x1f{result.row_key}".encode()).hexdigest()[:16]


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
