"""Everything that renders a page: above the reads (``catalogue.reads``) and the shared core.

- ``views/``: the public pages, one module per domain (``catalogue/urls.py`` routes them)
- ``pageframe``: the page framework (parameters, ``Meta``, JSON and Markdown forms, the cache)
- ``markdown_forms``: a page's Markdown form, written from the API's answer
- ``public_pages``: the registry of public pages, read from the URLconf
- ``feeds``, ``sitemaps``: Atom feeds and sitemaps
- ``boards``: a leaderboard's rows as the board page, ``table.csv`` and the badges show them
- ``charts``: SVG charts (samples by status, a metric over time)
- ``citations``, ``jsonld``: BibTeX and ``citation_*`` tags; schema.org JSON-LD
- ``code_text``: a code body's text, highlighted

The template tags stay in ``catalogue/templatetags/``, where Django finds them.
"""
