"""Where the catalogue's data comes from, as the data itself states it: the reads of ``/attribution``,
``/data/`` and the API's ``/data/`` and ``/loads/``.

The sources are what the loaded documents say of themselves (``SourceDocument.source`` and
``about``: the archive snapshot, its licence, Syntology's reading date), grouped, so that a
page shows the few sources a catalogue of 576,000 documents was built from. The load history
is ``LoadRun``, newest first; its files are rows of their own (``LoadRunFile``), never read here
(``files_summary`` says what a page needs).
"""

import datetime as dt
from dataclasses import dataclass, replace

from django.db.models import Count, Max

from catalogue import memo
from catalogue.models import DocumentKind, LoadRun, SourceDocument
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page

# The data's own words are shown as given, cut to this length (they are untrusted text).
STATED_CHARS = 300
LOAD_HISTORY_PAGE = 20
LOAD_HISTORY_ORDER = [Key("id", descending=True, kind=int)]  # ids grow with each run: newest first


@dataclass(frozen=True)
class SnapshotSource:
    """One source of the catalogue, as its documents state it, and how many documents it gave."""

    kind: str  # DocumentKind
    stated: str  # what the documents say they are: the archive snapshot, or Syntology's graph
    snapshot: str  # the snapshot date they state ("" if none)
    licence: str
    licence_url: str
    documents: int
    newest_read_at: dt.datetime | None  # when Syntology read it, or the date a dump's name gives

    @property
    def kind_label(self) -> str:
        try:
            return DocumentKind(self.kind).label
        except ValueError:
            return self.kind

    @property
    def from_archive(self) -> bool:
        """Papers-with-Code archive material (its dumps, and Syntology's paper documents carry it)."""
        return self.kind != DocumentKind.CODE_ENTRY


def _text(value) -> str:
    return "" if value is None else str(value)[:STATED_CHARS]


def _source(kind: str, source, about, documents: int, newest: dt.datetime | None) -> SnapshotSource:
    source_fields = source if isinstance(source, dict) else {}
    about = about if isinstance(about, dict) else {}
    return SnapshotSource(
        kind=kind,
        stated=_text(source_fields.get("archive") if isinstance(source, dict) else source),
        snapshot=_text(source_fields.get("snapshot")),
        licence=_text(about.get("licence")),
        licence_url=_text(about.get("licence_url") or source_fields.get("licence_url")),
        documents=documents,
        newest_read_at=newest,
    )


def snapshot_sources() -> list[SnapshotSource]:
    """Every source the loaded documents state, with its document count: one grouped query,
    remembered until the next load (it reads every document)."""

    def compute() -> list[SnapshotSource]:
        groups = (
            SourceDocument.objects.values("kind", "source", "about")
            .annotate(documents=Count("id"), newest=Max("read_at"))
            .order_by()
        )
        merged: dict[tuple, SnapshotSource] = {}
        for row in groups:
            one = _source(row["kind"], row["source"], row["about"], row["documents"], row["newest"])
            key = (one.kind, one.stated, one.snapshot, one.licence, one.licence_url)
            if seen := merged.get(key):  # one source whose documents differ only in other words
                one = replace(
                    seen,
                    documents=seen.documents + one.documents,
                    newest_read_at=max(filter(None, (seen.newest_read_at, one.newest_read_at)), default=None),
                )
            merged[key] = one
        return sorted(merged.values(), key=lambda s: (s.kind, s.stated, s.snapshot, s.licence))

    return memo.remember("snapshot_sources", None, compute)


def last_successful_load() -> LoadRun | None:
    """When the catalogue was last loaded (a failed run or a dry run changed nothing)."""
    return LoadRun.objects.last_successful()


def load_history(*, after: str = "", before: str = "") -> KeysetPage:
    """One page of every run, newest first (keyset: page 1,000 costs what page 1 does)."""
    return keyset_page(
        LoadRun.objects.all(),
        LOAD_HISTORY_ORDER,
        after=after,
        before=before,
        size=LOAD_HISTORY_PAGE,
    )
