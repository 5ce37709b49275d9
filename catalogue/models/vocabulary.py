"""The closed vocabularies of the data, each kept by the database as a ``CHECK`` constraint.

``Status.ran_values()`` is *the* definition of a sample that ran: the query vocabulary
(``Sample.objects.ran()``), the figures (``catalogue.figures``), the stored sort counts and
the loader's check of a document's figures all read it from here.
"""

from django.db import models
from django.db.models import Q


class Status(models.TextChoices):
    RAN_HONOURS = "ran_honours", "ran, honoured the drafted contract"
    RAN_VIOLATES = "ran_violates", "ran, violated the drafted contract"
    RAN_DRAFT_WRONG = "ran_draft_wrong", "ran; the drafted contract was wrong, not the code"
    RAN_FIXTURE = "ran_fixture", "ran; the fixture could not drive it"
    RAN = "ran", "ran on a synthesized input"
    UNVERIFIED = "unverified", "unverified (harvested, no recorded run)"

    @classmethod
    def ran_values(cls) -> list[str]:
        """Every status that counts as 'ran' (all but unverified; not 'correct')."""
        return [s.value for s in cls if s != cls.UNVERIFIED]

    @classmethod
    def instrument_failures(cls) -> list[str]:
        """Statuses that are failures of Syntology's instrument, not of the code."""
        return [cls.RAN_DRAFT_WRONG.value, cls.RAN_FIXTURE.value]


class TitleSource(models.TextChoices):
    ARCHIVE = "archive", "Papers-with-Code archive"
    SYNTOLOGY = "syntology", "Syntology"


class RepoKind(models.TextChoices):
    OFFICIAL = "official", "official"
    NAMED_IN_PAPER = "named_in_paper", "named in paper"
    LISTED = "listed", "listed"
    FOUND_IN_TEXT = "found_in_text", "found in text"
    COMMUNITY = "community", "community"


class DocumentKind(models.TextChoices):
    PAPER = "paper", "paper document"
    CODE_ENTRY = "code_entry", "code-entry document"
    # The Papers-with-Code archive's five dump files (one document per dump, shards and all).
    ARCHIVE_PAPERS = "archive_papers", "papers-with-abstracts dump"
    ARCHIVE_LINKS = "archive_links", "links-between-papers-and-code dump"
    ARCHIVE_EVALUATIONS = "archive_evaluations", "evaluation-tables dump"
    ARCHIVE_METHODS = "archive_methods", "methods dump"
    ARCHIVE_DATASETS = "archive_datasets", "datasets dump"
    # Curators' corrections with their history, as dump_snapshot writes them (url /corrections/).
    CORRECTIONS = "corrections", "corrections document"


class LoadRunOutcome(models.TextChoices):
    # Only ever seen inside the load's own transaction: a run is recorded with how it ended.
    RUNNING = "running", "running"
    SUCCEEDED = "succeeded", "succeeded"
    FAILED = "failed", "failed"  # refused or broken: the catalogue is as it was before
    DRY_RUN = "dry_run", "dry run"  # checked everything, wrote nothing but this record


class LoadFileStatus(models.TextChoices):
    """What became of one file a load read (``LoadRunFile.status``)."""

    LOADED = "loaded", "loaded"
    ALREADY_LOADED = "already_loaded", "already loaded"  # the same bytes as last time: not read again
    SKIPPED = "skipped", "skipped"  # bad, and the load was told to keep going
    ERROR = "error", "error"  # it stopped the load


class SearchKind(models.TextChoices):
    PAPER = "paper"
    ENTRY = "entry"
    REPO = "repo"


def ran(prefix: str = "") -> Q:
    """A place whose status counts as ran: any of ``Status.ran_values()`` ("ran" is not "correct").

    ``prefix`` reaches the place through a relation (``"samples__"``).
    """
    return Q(**{f"{prefix}status__in": Status.ran_values()})


def in_choices(field: str, choices: type[models.TextChoices], *, nullable: bool = False) -> Q:
    """The ``CHECK`` condition that ``field`` holds one of ``choices`` (or NULL, if nullable)."""
    check = Q(**{f"{field}__in": choices.values})
    return check | Q(**{f"{field}__isnull": True}) if nullable else check
