"""Entry points of the loader's reading workers (see ``catalogue.loader.reading``).

A module of its own, outside ``catalogue.loader``: a worker process imports this before
Django is set up, and importing the loader package would import the models too early.
"""

import os

_known: set[int] = set()


def start(known: set[int]) -> None:
    global _known
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    _known = known


def read_chunk(paths, root, vendor):
    from catalogue.loader.reading import read_one

    return [read_one(path, root, _known, vendor) for path in paths]
