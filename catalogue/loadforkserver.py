"""Imported by the loader's forkserver as it starts (its preload, ``catalogue.loader.reading``):
the forkserver dies with the load that started it, and so do the workers it forks."""

from catalogue.loadworker import die_with_parent

die_with_parent()
