"""The registry of public pages, read from the URLconf: every address whose view ``cached_page``
marks (``public_page = True``, ``catalogue.web.pageframe``), in URLconf order, by the pattern's name.

What walks the pages reads this, so a new page is covered by being routed: the tests that check
every page for XSS, the CSP, strict parameters, query counts and phone widths
(``tests/pages.py`` gives each kind an example address on the seed documents, and fails for a
kind without one) and ``scripts/response_dump.py``. Nothing here is served.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver


@dataclass(frozen=True)
class PageKind:
    name: str  # the URL pattern's name ("paper"), else its route (an alternative address of a page)
    route: str  # as the URLconf writes it, from the root ("paper/<segment:slug>")
    view: Callable


def public_page_kinds(urlconf: str | None = None) -> list[PageKind]:
    """Every URL pattern whose view is a public page (one per pattern, in URLconf order)."""
    return list(_walk(get_resolver(urlconf).url_patterns, ""))


def _walk(patterns, prefix: str) -> Iterator[PageKind]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and getattr(pattern.callback, "public_page", False):
            yield PageKind(pattern.name or route, route, pattern.callback)
