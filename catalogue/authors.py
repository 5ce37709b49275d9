"""Author names as the pages show them: which name has a page (``/author/<name>``), and which
names there are to show at all. Templates, feeds, JSON-LD, citations, the author page's URL
converter and, through ``reverse``, the API's author ``url`` all ask these two functions.

The data names authors in free text, and some names make no address that reaches their page
through every browser, proxy and cache: a blank name; a name holding "/" (a second path
segment; "a/../b" is resolved to "/author/b" by browsers), "%", "?" or "#" (read as an escape,
a query or a fragment by whatever decodes the address once too often); a control character
(NUL, a line break) or an unpaired surrogate (neither database stores them); a name of
punctuation only ("." and ".." are path steps). Such a name is shown as text, without a link;
the API still serves it at ``/api/v1/authors/<name>/`` (its ``url`` null).
"""

import re
from collections.abc import Iterable

_NO_ADDRESS = re.compile("[/%?#\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def has_page(name: str) -> bool:
    """Whether ``name`` has a page on the site (and so a link wherever it is shown)."""
    return not _NO_ADDRESS.search(name) and any(character.isalnum() for character in name)


def shown(names: Iterable[str]) -> list[str]:
    """The names of an author list that say something, in order: a blank name (nothing but
    spaces and control characters) is left out, as there is nothing to show, cite or describe."""
    return [name for name in names if any(c.isprintable() and not c.isspace() for c in name)]


def slug(name: str) -> str:
    """The slug form of a name, as Papers with Code wrote author addresses (``Yanping Huang`` is
    ``yanping-huang``): Django's slugify (accents dropped, ASCII only), underscores as spaces, at
    most 280 characters; "" for a name with no letter or digit it keeps (a name in CJK script)."""
    from django.utils.text import slugify

    return slugify(name.replace("_", " "))[:280].strip("-")


def by_slug(address: str) -> str | None:
    """The author name an address in slug form stands for, or None.

    Several names may slug alike (``Yanping Huang``, ``yanping huang``, ``Yanping  Huang.``): the
    one on the most papers is chosen, and among those, the first in code-point order of the name.
    Only an address that is a slug as written (lower case, hyphens: ``slug(address) == address``)
    is read as one; any other that is no exact name stays unknown (``Alan  Turing``, ``ALAN
    TURING``: the API's ids are exact names). Read from ``AuthorName.slug``
    (``counters.slug_author_names`` keeps it after each load)."""
    from django.db.models import Count

    from catalogue.models import Author, AuthorName

    key = slug(address)
    if not key or key != address:
        return None
    names = list(AuthorName.objects.filter(slug=key).values_list("name", flat=True)[:1000])
    if len(names) <= 1:
        return names[0] if names else None
    counts = dict(
        Author.objects.filter(name__in=names)
        .values("name")
        .annotate(n=Count("paper_id", distinct=True))
        .values_list("name", "n")
    )
    return min(names, key=lambda name: (-counts.get(name, 0), name))
