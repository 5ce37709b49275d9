"""The public pages, one module per domain: thin views over ``catalogue.reads`` and
``catalogue.figures``.

``site`` (home, about, attribution, data, corrections), ``papers`` (search, the list, a paper),
``code`` (entries, bodies, repositories), ``leaderboards`` (a board, its downloads, badges),
``taxonomy`` (areas, tasks, datasets, methods), ``named`` (authors, proceedings, conferences).

What every page shares (its parameters, ``Meta``, its JSON and Markdown forms, its cached copy)
is the page framework, ``catalogue.web.pageframe``; the addresses they write are
``catalogue.addresses``'. A view names the query parameters it reads (``cached_page(reads=…)``)
and looks objects up so that an unknown address is a 404. Their URLs are ``catalogue/urls.py``.
"""
