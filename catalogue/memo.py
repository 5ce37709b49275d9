"""Figures remembered for as long as the data they count is unchanged.

Counts and sample figures over large sets (the whole catalogue on the home page, the
34,000 places of ``forward`` at archive size, a list's total for the API's page mode)
cost time in proportion to what they count. They change only when a load or a
curator's correction changes the data, and ``caching.data_version()`` (one indexed
query) names that state. So a figure is stored in the shared cache under the version it
was computed at, and read back by every request until the next change: the first
request after a load pays for it, every later one reads one cache entry.

Changes that do not move the version (an admin edit of a task's name; nothing that
figures count) show within ``FIGURES_CACHE_SECONDS``, the entries' lifetime; 0 turns
remembering off. The page cache (``catalogue.caching``) sits above this and is keyed the
same way; the two have separate lifetimes so that pages can be built fresh (benchmarks,
``PAGE_CACHE_SECONDS=0``) with figures still remembered.
"""

import hashlib
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache

from catalogue import caching

_MISSING = object()


def _lifetime() -> int:
    return int(getattr(settings, "FIGURES_CACHE_SECONDS", 600))


def _key(name: str, part: object, version: str) -> str:
    digest = hashlib.blake2b(repr((name, part, version)).encode(), digest_size=16).hexdigest()
    return f"memo:{name}:{digest}"


def is_on() -> bool:
    """Whether figures are remembered (a lifetime above 0): what is worth computing whole once
    (a list's page boundaries) is not worth computing whole per request."""
    return bool(_lifetime())


def remember[T](name: str, part: object, compute: Callable[[], T]) -> T:
    """``compute()``, or what it gave at the current data version. ``part``: the subject's key."""
    lifetime = _lifetime()
    if not lifetime:
        return compute()
    key = _key(name, part, caching.data_version())
    value = cache.get(key, _MISSING)
    if value is _MISSING:
        value = compute()
        cache.set(key, value, lifetime)
    return value


# name: (data version, value). Per process, so never pickled: see remember_in_process.
_IN_PROCESS: dict[str, tuple[str, object]] = {}


def remember_in_process[T](name: str, compute: Callable[[], T]) -> T:
    """``compute()``, kept in this process's memory for the current data version: for the few
    whole structures a request reads only part of (the conferences derived from 576,000 papers'
    proceedings: 3,893 rows), which the shared cache would unpickle whole on every request.
    Computed once per process and version; off, like ``remember``, when the lifetime is 0.
    Bounded by the number of names, one value each."""
    if not _lifetime():
        return compute()
    version = caching.data_version()
    found = _IN_PROCESS.get(name)
    if found is not None and found[0] == version:
        return found[1]
    value = compute()
    _IN_PROCESS[name] = (version, value)
    return value


def forget_in_process() -> None:
    """Drop what ``remember_in_process`` kept (tests: a rolled-back test's data version may
    come back with other rows)."""
    _IN_PROCESS.clear()


def remember_many(name: str, parts: Iterable, compute: Callable[[list], dict]) -> dict:
    """``compute(parts)`` as a dict by part, computing only the parts not remembered."""
    parts = list(parts)
    lifetime = _lifetime()
    if not lifetime:
        return compute(parts)
    version = caching.data_version()
    keys = {part: _key(name, part, version) for part in parts}
    found = cache.get_many(list(keys.values()))
    values = {part: found[key] for part, key in keys.items() if key in found}
    missing = [part for part in parts if part not in values]
    if missing:
        computed = compute(missing)
        cache.set_many({keys[part]: computed[part] for part in missing}, lifetime)
        values.update(computed)
    return values
