"""The curators' admin. Each module registers its models; importing this package registers all.

Curators correct paper titles and sample statuses; everything else here is the snapshot's
and read-only. Every write goes through ``catalogue.curation``.
"""

from catalogue.admin import corrections, papers, reference, samples

__all__ = ["corrections", "papers", "reference", "samples"]
