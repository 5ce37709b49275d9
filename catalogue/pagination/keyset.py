"""Keyset pages for the public pages: "the rows after this one", never an OFFSET.

A page is the ``size`` rows after (or before) a cursor in a fixed order of ``Key`` columns
that ends on a unique one, so page 10,000 costs what page 1 does. A cursor is the key
values of a page's last (or first) row, base64 JSON; one that is not a cursor of this
order (forged, truncated, of another list) gives page 1, never an error.
"""

import base64
import bisect
import json
from dataclasses import dataclass

from django.db.models import Q, QuerySet

PAGE_SIZE = 25


@dataclass(frozen=True)
class Key:
    """One column of a keyset order: a field or annotation of the rows, and its direction."""

    field: str
    descending: bool
    kind: type  # str or int: what a cursor must hold in this place


@dataclass(frozen=True)
class KeysetPage:
    items: list
    next_cursor: str | None  # rows after the last one shown
    prev_cursor: str | None  # rows before the first one shown


def encode_cursor(values: list) -> str:
    raw = json.dumps(values, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str | None, keys: list[Key]) -> list | None:
    """The values a cursor holds, or None for anything that is not a cursor of this order."""
    if not token or len(token) > 2000:
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except ValueError:
        return None
    if not isinstance(values, list) or len(values) != len(keys):
        return None
    for value, key in zip(values, keys, strict=True):
        if type(value) is not key.kind or (isinstance(value, str) and "\x00" in value):
            return None
        if isinstance(value, int) and not -(2**63) < value < 2**63:
            return None
    return values


def beyond(keys: list[Key], values: list, *, forward: bool) -> Q:
    """Rows strictly after (forward) or before the row whose key values are ``values``.

    ``a < x OR (a = x AND b < y)`` alone is a filter PostgreSQL applies row by row (10,000
    rows read to reach the middle of 20,000 papers); the redundant ``a <= x`` in front is a
    range the (a, b) index starts the scan at, in either direction and with mixed orders.
    """
    condition = Q()
    for i, key in enumerate(keys):
        lookup = "lt" if key.descending == forward else "gt"
        step = Q(**{f"{key.field}__{lookup}": values[i]})
        for earlier, value in zip(keys[:i], values[:i], strict=True):
            step &= Q(**{earlier.field: value})
        condition |= step
    first = keys[0]
    return Q(**{f"{first.field}__{'lte' if first.descending == forward else 'gte'}": values[0]}) & condition


def keyset_page(
    queryset: QuerySet, keys: list[Key], *, after: str | None = None, before: str | None = None,
    size: int = PAGE_SIZE,
) -> KeysetPage:  # fmt: skip
    """One page of ``queryset`` in ``keys`` order, after or before a cursor (bad cursors: page 1)."""
    order = [f"-{k.field}" if k.descending else k.field for k in keys]
    after_values = decode_cursor(after, keys)
    before_values = None if after_values else decode_cursor(before, keys)
    if before_values:
        reverse = [o[1:] if o.startswith("-") else f"-{o}" for o in order]
        rows = list(
            queryset.filter(beyond(keys, before_values, forward=False)).order_by(*reverse)[: size + 1]
        )
        has_prev, has_next = len(rows) > size, True
        rows = rows[:size][::-1]
    else:
        if after_values:
            queryset = queryset.filter(beyond(keys, after_values, forward=True))
        rows = list(queryset.order_by(*order)[: size + 1])
        has_prev, has_next = bool(after_values), len(rows) > size
        rows = rows[:size]

    def cursor(row) -> str:
        return encode_cursor([getattr(row, k.field) for k in keys])

    return KeysetPage(
        items=rows,
        next_cursor=cursor(rows[-1]) if rows and has_next else None,
        prev_cursor=cursor(rows[0]) if rows and has_prev else None,
    )


def keyset_page_of_rows(
    rows: list, field: str, *, after: str | None = None, before: str | None = None, size: int = PAGE_SIZE
) -> KeysetPage:
    """The same pages over rows already in memory, sorted by ``field``: a unique text (the
    conferences, derived from papers, have no table to put an index on)."""
    keys = [Key(field, False, str)]
    values = [getattr(row, field) for row in rows]
    after_values = decode_cursor(after, keys)
    before_values = None if after_values else decode_cursor(before, keys)
    if before_values:
        end = bisect.bisect_left(values, before_values[0])
        start = max(0, end - size)
        page, has_prev, has_next = rows[start:end], start > 0, True
    else:
        start = bisect.bisect_right(values, after_values[0]) if after_values else 0
        page = rows[start : start + size]
        has_prev, has_next = bool(after_values), start + size < len(rows)
    return KeysetPage(
        items=page,
        next_cursor=encode_cursor([getattr(page[-1], field)]) if page and has_next else None,
        prev_cursor=encode_cursor([getattr(page[0], field)]) if page and has_prev else None,
    )


def keyset_page_of_keys(
    keys: list[tuple], order: list[Key], *, after: str | None = None, before: str | None = None,
    size: int = PAGE_SIZE,
) -> tuple[list[tuple], str | None, str | None]:  # fmt: skip
    """One page of key tuples held in memory, sorted ascending, read in ``order`` when all its keys
    are descending (newest first): the page's tuples and its next and previous cursors, the same
    cursors ``keyset_page`` gives over a table in that order."""
    if not all(key.descending for key in order):
        raise ValueError("keyset_page_of_keys reads descending orders only")
    after_values = decode_cursor(after, order)
    before_values = None if after_values else decode_cursor(before, order)
    if before_values:  # the rows before it, newest first: greater keys
        start = bisect.bisect_right(keys, tuple(before_values))
        page, has_prev, has_next = keys[start : start + size][::-1], start + size < len(keys), True
    else:
        end = bisect.bisect_left(keys, tuple(after_values)) if after_values else len(keys)
        page, has_prev, has_next = keys[max(0, end - size) : end][::-1], bool(after_values), end > size
    return (
        page,
        encode_cursor(list(page[-1])) if page and has_next else None,
        encode_cursor(list(page[0])) if page and has_prev else None,
    )
