"""Reads: every query a page, the API, a feed, the admin or an agent makes, grouped by domain.

Callers write ``from catalogue import reads`` and call ``reads.<domain>.<read>(…)``
(``reads.papers.paper_by_address``, ``reads.taxonomy.tasks``): the call names where the read is.
Each read returns what its caller shows, in a fixed number of queries whatever the number of
rows; lists are keyset-paginated ("after this row", ``catalogue.pagination.keyset``), never by
OFFSET. Filters are the models' query vocabulary (``Paper.objects.with_code()``…); figures come
from ``catalogue.figures``. Reads sit below the pages (``catalogue.web``), the API, the feeds,
the admin and the agents, and above the shared core (models, figures, search, memo).

- ``papers``: a paper by address or arXiv id, the papers list, the home page's counts, the API's papers
- ``paper_page``: the paper page (topics, results, code links, places)
- ``code``: code entries, bodies and places; code links
- ``repositories``: a repository and the papers linking it
- ``leaderboards``: boards, their ranking (``ranked``), chart points and rows
- ``taxonomy``: areas, tasks, datasets, methods
- ``named``: an author's or a proceeding's papers
- ``site_search``: the search page's hits, facets and matching authors
- ``pasted``: an identifier pasted in the search box, to its paper
- ``related``: related papers (shared code, repository, leaderboard)
- ``sql``: the SQL they share
"""

from catalogue.reads import (
    code,
    leaderboards,
    named,
    paper_page,
    papers,
    pasted,
    related,
    repositories,
    site_search,
    sql,
    taxonomy,
)

__all__ = [
    "code",
    "leaderboards",
    "named",
    "paper_page",
    "papers",
    "pasted",
    "related",
    "repositories",
    "site_search",
    "sql",
    "taxonomy",
]
