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
