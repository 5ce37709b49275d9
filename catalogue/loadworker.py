"""Entry points of the loader's reading workers (see ``catalogue.loader.reading``).

A module of its own, outside ``catalogue.loader``: a worker process imports this before
Django is set up, and importing the loader package would import the models too early.
"""

import ctypes
import os
import signal
import sys

_snapshot = None
_known = None
_limit = None


def start(root: str, known_sorted, limit: int | None) -> None:
    """Set Django up, then the load's root and its known checksums (a sorted array: plain
    data, so that unpickling it needs none of the loader, which needs Django set up)."""
    global _snapshot, _known, _limit
    die_with_parent()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from catalogue.loader.documents import Snapshot
    from catalogue.loader.reading import KnownDocuments

    _snapshot, _known, _limit = Snapshot(root=root, names=[]), KnownDocuments(known_sorted), limit


def read_chunk(names, vendor):
    from catalogue.loader.reading import read_one

    return [read_one(_snapshot, name, _known, vendor, _limit) for name in names]


def read_dump_part(dump, sha, part, vendor):
    """A part of an archive dump (``archive.parts``), as results of a batch of records each; a
    failure ends them, as a result that carries the error."""
    from catalogue.loader import archive, archive_rows, staging
    from catalogue.loader.documents import SnapshotError
    from catalogue.loader.reading import ReadResult

    # Arrow's pool is set here, not in ``start``: importing pyarrow costs a worker 25 MB of RSS,
    # and a load of the seed format's files never reads Parquet.
    archive.use_system_allocator()
    out = []
    try:
        for parsed in archive_rows.read(dump, sha, part):
            tuples = staging.as_tuples(parsed.rows, vendor)
            out.append(ReadResult(None, tuples, parsed.warnings, name=dump.name, records=parsed.records))
    except SnapshotError as exc:
        out.append(ReadResult(None, error=exc, name=dump.name))
    return out


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent exits (Linux; elsewhere nothing).

    A worker's parent is the forkserver, whose parent is the load (``loadforkserver``): a load
    killed outright takes both with it, instead of leaving workers blocked on its pipes for ever.
    """
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent went before the signal was asked for
        os._exit(1)
