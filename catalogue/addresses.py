"""Addresses: where each thing of the catalogue is, on the site and in its API.

Every address a page, a template tag, a feed, a sitemap or the models write is built here, from
the URLconf's names (``catalogue/urls.py``, ``catalogue/api/urls.py``). This module imports
nothing of the catalogue, so any part of it can import it at its top without a cycle.
"""

import html
import re
from functools import lru_cache
from urllib.parse import quote, urlencode

from django.urls import get_script_prefix, reverse

API_ROOT = "/api/v1/"
DEFAULT_HOST = "github.com"

# A slug, an entry's slug, a body's hex prefix: nothing reverse() would quote.
_PLAIN_SEGMENT = re.compile(r"[A-Za-z0-9_.~-]+")
_MARK = "0segment0"


@lru_cache(maxsize=64)
def parts_around(name: str, script_prefix: str, segments: int, escaped: bool) -> tuple[str, ...]:
    parts = reverse(name, args=[_MARK] * segments).split(_MARK)
    return tuple(html.escape(part) for part in parts) if escaped else tuple(parts)


def address_with(
    name: str, segments: tuple[str, ...], escaped: bool, parts: tuple[str, ...] | None = None
) -> str:
    """``parts``: what ``parts_around`` gives for this name, prefix and escaping, if the caller kept it."""
    if all(map(_PLAIN_SEGMENT.fullmatch, segments)):
        parts = parts or parts_around(name, get_script_prefix(), len(segments), escaped)
        url = parts[0]
        for segment, part in zip(segments, parts[1:], strict=True):
            url += segment + part  # a plain segment needs no escaping either
        return url
    url = reverse(name, args=segments)
    return html.escape(url) if escaped else url


def url_to(name: str, *segments: str) -> str:
    """``reverse(name, args=segments)``: for plain segments, the address around them is reversed
    once (per script prefix) and the segments put in; a place list reversed three addresses per
    row, a paper's places one per repository."""
    return address_with(name, segments, False)


def href_to(name: str, *segments: str) -> str:
    """``conditional_escape(url_to(name, *segments))``, for an attribute: for plain segments, the
    address around them is escaped once too (a paper's list of places wrote three per row)."""
    return address_with(name, segments, True)


def repo_path(repo) -> str:
    """/repo/<owner>/<name>, plus ``?host=`` for repositories not on GitHub."""
    url = url_to("repo", repo.owner, repo.name)
    return url if repo.host == DEFAULT_HOST else f"{url}?{urlencode({'host': repo.host})}"


def api_url(kind: str, *parts: str, **query: str) -> str:
    """The API address of what a page shows. All API paths are written here, and only here.

    ``kind`` is the API's collection (``papers``, ``code-entries``, ``repositories``,
    ``tasks``, ``methods``, ``evaluations``, ``samples``); each part is one path segment.
    """
    path = "".join(quote(part, safe="") + "/" for part in parts)
    query_string = urlencode({k: v for k, v in query.items() if v})
    return f"{API_ROOT}{kind}/{path}" + (f"?{query_string}" if query_string else "")


def web_url(url) -> str:
    """``url`` when it is an http(s) address, else "": a link the data gives never runs script."""
    url = str(url or "").strip()
    return url if url.lower().startswith(("https://", "http://")) else ""
