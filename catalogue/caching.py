"""One response cache for the public pages and the JSON API, keyed on the data's version.

A cached response is stored under :func:`data_version` (one indexed query), the scheme,
the host, the path and the query parameters the resource reads, in one order (a parameter it
does not read never reaches here: the API answers 400, a page redirects without it). A
finished ``load_snapshot`` or a curator's correction changes that version, so every entry
built before it is never read again and the next request builds afresh: no list of keys to
delete, and the same in every process when ``CACHES`` points at a shared cache
(``CACHE_URL=redis://…``). A change made any other way (an admin edit of a task's name)
shows within ``PAGE_CACHE_SECONDS``, the entries' lifetime.

What goes to clients, on every cacheable 200: a strong ``ETag`` (a hash of the body),
``Last-Modified`` (when this copy was built: never earlier than the change it shows), and
``Cache-Control: public, max-age=HTTP_MAX_AGE, s-maxage=HTTP_S_MAXAGE`` (both clamped to an
hour in settings) so a browser or CDN may reuse it for that long and then revalidate with
``If-None-Match`` / ``If-Modified-Since``, which is answered 304 from the cache.

The version is read *before* the response is built: a load committing meanwhile can then
only put new content under the old, dead key, never old content under the new one.

While the database cannot be reached, the version cannot be read: a copy stored under the
last version this process read is served as it is (nothing can change the data while the
database is down, and the copy is at most ``PAGE_CACHE_SECONDS`` old); without one, the error
stands and the request is answered 503 (``config.errors``).
"""

import hashlib
import time
from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date

from config.errors import database_unreachable

# Headers a view sets that belong to the stored copy. Everything else (cookies, CSP, request
# ids, CORS, DRF's Allow/Vary) is added again around the copy on every request.
_KEPT_HEADERS = ("Content-Type", "Content-Language", "Content-Disposition", "Link")


@dataclass(frozen=True)
class Copy:
    content: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str
    last_modified: float  # seconds since the epoch


def data_version() -> str:
    """A token that changes whenever the loader or a curator may have changed what pages show.

    Every load adds a LoadRun (a failed one and a dry run too: ``/data/`` shows them at once);
    a correction adds a Correction row and removing one sets its ``removed_at``. One indexed
    query, so pages can be cached against it (and the figures of ``catalogue.memo``
    remembered under it).
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT MAX(id) FROM catalogue_loadrun),"
            " (SELECT MAX(id) FROM catalogue_correction),"
            " (SELECT MAX(removed_at) FROM catalogue_correction)"
        )
        return "|".join(str(value) for value in cursor.fetchone())


def lifetime() -> int:
    """How long entries live in our cache; 0 turns the cache (and its headers) off."""
    return settings.PAGE_CACHE_SECONDS


# The data version this process last read: the key of the newest copies while the database is down.
_last_version: str | None = None


def canonical_query(
    request: HttpRequest, known: Collection[str] | None = None, *, one_each: bool = False
) -> str:
    """The query string of ``known`` parameters (every one if None), by name, each name's values
    in the order given (``one_each``: only the last, the one ``request.GET[name]`` reads):
    ``?b=1&a=2`` and ``?a=2&b=1`` are one address."""
    return urlencode(
        [(name, value) for name in sorted(request.GET) if known is None or name in known
         for value in (request.GET.getlist(name)[-1:] if one_each else request.GET.getlist(name))]
    )  # fmt: skip


def key_for(request: HttpRequest, namespace: str, version: str, known: Collection[str] | None = None) -> str:
    """The key of this request's copy: its path and only the parameters the resource reads,
    in one order, so neither a parameter nobody reads nor the order of the rest makes a new copy."""
    address = request.path + "?" + canonical_query(request, known)
    identity = "\0".join((version, request.scheme, request.get_host(), address))
    return f"{namespace}:" + hashlib.sha256(identity.encode()).hexdigest()


def lookup(
    request: HttpRequest, namespace: str, known: Collection[str] | None = None
) -> tuple[str, Copy | None]:
    """The key for this request at the data's current version, and the copy stored there.

    ``known``: the query parameters the resource reads (the key holds only those). With the
    database unreachable, the copy at the last version this process read, if there is one;
    otherwise the database error is raised again.
    """
    global _last_version
    try:
        version = data_version()
    except DatabaseError as exc:
        if _last_version is None or not database_unreachable(exc):
            raise
        key = key_for(request, namespace, _last_version, known)
        copy = cache.get(key)
        if copy is None:
            raise
        return key, copy
    _last_version = version
    key = key_for(request, namespace, version, known)
    return key, cache.get(key)


def respond(request: HttpRequest, copy: Copy) -> HttpResponse:
    """The stored copy as a response: 304 when the client's own copy is this one."""
    response = HttpResponse(copy.content)
    for name, value in copy.headers:
        response[name] = value
    _add_validators(response, copy)
    return get_conditional_response(
        request, etag=copy.etag, last_modified=int(copy.last_modified), response=response
    )


def store(request: HttpRequest, key: str, response: HttpResponse) -> HttpResponse:
    """Keep a rendered 200 under ``key`` and give it its validators; may answer 304."""
    if response.status_code != 200 or response.streaming or response.has_header("Set-Cookie"):
        return response
    copy = Copy(
        content=response.content,
        headers=tuple((name, response[name]) for name in _KEPT_HEADERS if response.has_header(name)),
        etag='"' + hashlib.sha256(response.content).hexdigest()[:32] + '"',
        last_modified=float(int(time.time())),  # after the build: never before what it shows
    )
    cache.set(key, copy, lifetime())
    _add_validators(response, copy)
    return get_conditional_response(
        request, etag=copy.etag, last_modified=int(copy.last_modified), response=response
    )


def _add_validators(response: HttpResponse, copy: Copy) -> None:
    response["ETag"] = copy.etag
    response["Last-Modified"] = http_date(copy.last_modified)
    patch_cache_control(response, public=True, max_age=settings.HTTP_MAX_AGE, s_maxage=settings.HTTP_S_MAXAGE)
