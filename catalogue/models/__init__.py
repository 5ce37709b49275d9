"""The catalogue's data model, shaped around the identities in the snapshot data.

Identities (each enforced by a unique constraint, never by hope):

* a paper is its arXiv id (version suffix dropped) where it has one, else its slug;
  every slug it was published under is a ``PaperSlug`` and keeps working;
* a code entry is its name; a code body is its ``code_sha256_prefix``;
* a repository is ``host/owner/name``, case-insensitive (``Repo.key``);
* a sample (a *place*) is (paper, code body, entry);
* a leaderboard is task × dataset; a result is (paper, leaderboard, model).

Harvested rows carry their provenance: the ``SourceDocument`` they were last written
from and a ``stamp`` (that document's ``read_at`` and content hash) which the loader
compares so that the newest document wins whatever order files are read in.
Aggregate figures are never stored here: ``catalogue.figures`` derives them from rows
(the few sort counts lists order by are kept by ``catalogue.counters``).

One module a part of the model: ``vocabulary`` (the closed vocabularies), ``provenance``
(load runs and documents), ``papers`` (papers, their addresses and authors), ``taxonomy`` (the
archive's areas, tasks, method collections, methods and datasets), ``leaderboards`` (boards and
their result rows), ``code`` (repositories, code links, entries, bodies and places),
``corrections`` and ``search``. Each model's query vocabulary (``Paper.objects.with_code()``,
``Sample.objects.ran()``) sits beside it. Everything is importable from here.
"""

from catalogue.models.code import CodeBody, CodeEntry, CodeLink, CodeLinkSource, HarvestedRepo, Repo, Sample
from catalogue.models.corrections import Correction, CuratorProfile
from catalogue.models.leaderboards import Leaderboard, Result, ResultSource
from catalogue.models.papers import Author, AuthorName, Paper, PaperSlug
from catalogue.models.provenance import Harvested, LoadRun, LoadRunFile, SourceDocument
from catalogue.models.search import SearchDocument
from catalogue.models.taxonomy import Area, Dataset, Method, MethodCollection, Task
from catalogue.models.vocabulary import (
    DocumentKind,
    LoadFileStatus,
    LoadRunOutcome,
    RepoKind,
    SearchKind,
    Status,
    TitleSource,
    in_choices,
    ran,
)

__all__ = [
    "Area",
    "Author",
    "AuthorName",
    "CodeBody",
    "CodeEntry",
    "CodeLink",
    "CodeLinkSource",
    "Correction",
    "CuratorProfile",
    "Dataset",
    "DocumentKind",
    "Harvested",
    "HarvestedRepo",
    "Leaderboard",
    "LoadFileStatus",
    "LoadRun",
    "LoadRunFile",
    "LoadRunOutcome",
    "Method",
    "MethodCollection",
    "Paper",
    "PaperSlug",
    "Repo",
    "RepoKind",
    "Result",
    "ResultSource",
    "Sample",
    "SearchDocument",
    "SearchKind",
    "SourceDocument",
    "Status",
    "Task",
    "TitleSource",
    "in_choices",
    "ran",
]
