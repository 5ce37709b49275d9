"""Full-text search over papers (title, authors, abstract), code entries and repositories.

One interface, two engines: PostgreSQL's text search (``websearch_to_tsquery`` against a
weighted ``tsvector`` with a GIN index) and SQLite's FTS5 (BM25 with the same weights).
Both use English stemming, so "training" finds "trained". The rows searched are
``SearchDocument``s, which the loader rewrites for whatever it changed.

A query is the reader's words; every word must match (in any field). Punctuation and
FTS syntax are dropped, so no input can make a query fail.
"""

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL

from catalogue import memo
from catalogue.models import SearchKind

MAX_WORDS = 12
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Hit:
    kind: str
    object_id: int
    rank: float


def words(q: str | None) -> list[str]:
    """The searchable words of a query (at most MAX_WORDS, each at most 64 characters)."""
    return [w[:64] for w in _WORD.findall(q or "")][:MAX_WORDS]


def _hits_sql(q: str, kinds: list[str]) -> tuple[str, list] | None:
    terms = words(q)
    if not terms:
        return None
    kind_marks = ", ".join(["%s"] * len(kinds))
    if connection.vendor == "postgresql":
        sql = (
            "SELECT d.kind, d.object_id, ts_rank_cd(d.search, query) AS rank "
            "FROM catalogue_searchdocument d, to_tsquery('english', %s) query "
            f"WHERE d.search @@ query AND d.kind IN ({kind_marks})"
        )
        # Each word as a prefix-free lexeme, all required; quoting keeps tsquery syntax out.
        tsquery = " & ".join("'" + t.replace("'", "") + "'" for t in terms)
        return sql, [tsquery, *kinds]
    sql = (
        "SELECT d.kind, d.object_id, -bm25(catalogue_searchdocument_fts, 10.0, 5.0, 1.0) AS rank "
        "FROM catalogue_searchdocument_fts JOIN catalogue_searchdocument d "
        "ON d.id = catalogue_searchdocument_fts.rowid "
        f"WHERE catalogue_searchdocument_fts MATCH %s AND d.kind IN ({kind_marks})"
    )
    return sql, [" ".join('"' + t.replace('"', "") + '"' for t in terms), *kinds]


def ranked(q: str, kinds: list[str] | None = None, limit: int = 1000) -> list[Hit]:
    """The best ``limit`` matches, best first, across the given kinds (default: all).

    Ranking reads every match (17,529 for "language pretraining" at 500,000 papers: ~0.7 s on
    PostgreSQL, against ~30 ms at 20,000), so a query's hits are remembered per data version
    (catalogue.memo): the first reader of a query after a load pays, the others read them back.
    """
    kinds = kinds or list(SearchKind.values)
    key = (tuple(words(q)), tuple(kinds), limit)
    in_block = _RANKED_IN_BLOCK.get()
    if in_block is not None and key in in_block:
        return in_block[key]
    hits = memo.remember("search", key, lambda: _ranked(q, kinds, limit))
    if in_block is not None:
        in_block[key] = hits
    return hits


# Hits ranked inside ``ranking_once()``: the search page and its list of matching authors rank
# the same words, and with the figures memo off (FIGURES_CACHE_SECONDS=0) that was the page's
# most expensive query twice. Kept only for the block; outside one, nothing is kept.
_RANKED_IN_BLOCK: ContextVar[dict | None] = ContextVar("ranked_in_block", default=None)


@contextmanager
def ranking_once():
    """Within the block, the same words are ranked once (one request's reads: its hits, facets
    and matching authors see one ranking)."""
    token = _RANKED_IN_BLOCK.set({})
    try:
        yield
    finally:
        _RANKED_IN_BLOCK.reset(token)


def _ranked(q: str, kinds: list[str], limit: int) -> list[Hit]:
    built = _hits_sql(q, kinds)
    if built is None:
        return []
    sql, params = built
    with connection.cursor() as cur:
        cur.execute(f"{sql} ORDER BY rank DESC, d.kind, d.object_id LIMIT %s", [*params, limit])
        return [Hit(kind, object_id, float(rank)) for kind, object_id, rank in cur.fetchall()]


def matching(queryset: QuerySet, q: str, kind: str) -> QuerySet:
    """``queryset`` narrowed to the objects of ``kind`` that match ``q`` (none if q has no words)."""
    built = _hits_sql(q, [kind])
    if built is None:
        return queryset.none()
    sql, params = built
    return queryset.filter(pk__in=RawSQL(f"SELECT h.object_id FROM ({sql}) h", params))


def with_rank(queryset: QuerySet, q: str, kind: str) -> QuerySet:
    """``matching`` plus a ``search_rank`` annotation to order by (higher is better)."""
    built = _hits_sql(q, [kind])
    if built is None:
        return queryset.none()
    sql, params = built
    table = queryset.model._meta.db_table
    rank = RawSQL(f"SELECT h.rank FROM ({sql}) h WHERE h.object_id = {table}.id", params)
    return matching(queryset, q, kind).annotate(search_rank=rank)


# What of an abstract the index reads. Abstracts run to a few thousand characters; indexing a
# hostile 10 MB one whole keeps PostgreSQL's to_tsvector busy for minutes (and tsvectors stop
# at 1 MB), while its first 20,000 characters still make it findable.
INDEXED_BODY_CHARS = 20_000


def _source_sql(kind: str) -> str:
    """SELECT (kind, object_id, title, authors, body) for one kind of object, aliased ``o``."""
    if kind == SearchKind.PAPER:
        if connection.vendor == "postgresql":
            authors = "SELECT string_agg(a.name, ', ' ORDER BY a.position) FROM catalogue_author a"
        else:
            authors = "SELECT group_concat(a.name, ', ') FROM catalogue_author a"
        return (
            f"SELECT 'paper', o.id, o.title, COALESCE(({authors} WHERE a.paper_id = o.id), ''), "
            f"substr(o.abstract, 1, {INDEXED_BODY_CHARS}) FROM catalogue_paper o"
        )
    if kind == SearchKind.ENTRY:
        return "SELECT 'entry', o.id, o.name, '', '' FROM catalogue_codeentry o"
    return (
        "SELECT 'repo', o.id, o.owner || '/' || o.name, o.owner, o.name || ' ' || o.host "
        "FROM catalogue_repo o"
    )


def reindex(kind: str, ids_sql: str | None = None, ids: list[int] | None = None) -> None:
    """Rewrite the search rows of objects of ``kind``: those ``ids_sql`` selects, or ``ids``, or all."""
    params: list = []
    if ids is not None:
        ids_sql, params = ", ".join(["%s"] * len(ids)) or "NULL", list(ids)
    where = f"IN ({ids_sql})" if ids_sql else "IS NOT NULL"
    with connection.cursor() as cur:
        cur.execute(
            f"DELETE FROM catalogue_searchdocument WHERE kind = %s AND object_id {where}", [kind, *params]
        )
        cur.execute(
            "INSERT INTO catalogue_searchdocument (kind, object_id, title, authors, body) "
            f"{_source_sql(kind)} WHERE o.id {where}",
            params,
        )
