"""Every kind of pagination the catalogue has, one module each.

* ``keyset``: the public pages' "after this row" pages (``/papers/``, an entry's places…);
* ``paginators``: Django paginators that stay cheap on large tables (the API's page mode and
  the sitemaps; the admin's change lists);
* ``api``: the JSON API's two modes, Papers-with-Code's page numbers and a cursor.
"""
