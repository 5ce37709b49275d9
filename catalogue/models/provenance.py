"""Where harvested rows come from: load runs, snapshot documents, and the fields every harvested row has."""

from django.db import models

from catalogue.models.vocabulary import DocumentKind, LoadFileStatus, LoadRunOutcome, in_choices


class LoadRunQuerySet(models.QuerySet):
    def succeeded(self):
        """Runs that changed (or confirmed) the catalogue: not failures, not dry runs."""
        return self.filter(outcome=LoadRunOutcome.SUCCEEDED)

    def last_successful(self):
        """When the catalogue was last loaded: the newest successful run, or None."""
        return self.succeeded().order_by("-finished_at", "-id").first()


class LoadRun(models.Model):
    """One run of ``load_snapshot``, whatever its outcome: what it read and what it changed.

    A successful run is written in the load's own transaction, with everything it loaded. A
    dry run and a failed run are written after their transaction has rolled back, so the
    catalogue is exactly as it was and only this record says that they happened (with a
    failure's error). A load refused because another is running, and one killed outright,
    leave none. Its ``files`` (``LoadRunFile``) and ``error`` name files as the load did
    (relative to the folder it was given), never by a path on the server.
    """

    Outcome = LoadRunOutcome

    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    # {"n_files": n, "by_status": {status: n}, "shown": the first FILES_SHOWN files, problems first}
    files_summary = models.JSONField(default=dict)
    # {"Paper": {"created": n, "updated": n, "unchanged": n}, …}
    counts = models.JSONField(default=dict)
    # Word for word, the first loader.WARNINGS_KEPT (then a line counting the rest)
    warnings = models.JSONField(default=list)
    # Every warning by kind: {kind: {"count": n, "files": the first loader.FILES_PER_KIND files}}
    warning_kinds = models.JSONField(default=dict)
    # What each kind of source gave (documents, and each dump kind): records read, rows staged and
    # written, rows collapsed, papers merged by which rule… (``loader.summary``)
    by_source = models.JSONField(default=dict)
    error = models.TextField(blank=True)

    objects = LoadRunQuerySet.as_manager()

    # How many files a run's summary names one by one (the public history shows them).
    FILES_SHOWN = 20

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("outcome", LoadRunOutcome), name="loadrun_outcome_valid"
            )
        ]

    def __str__(self):
        return f"load {self.started_at:%Y-%m-%d %H:%M} ({self.outcome})"

    def changes(self) -> list[tuple[str, dict[str, int]]]:
        """The models the run changed (or, a dry run, would have), with their non-zero changes."""
        kinds = ("created", "updated", "deleted")
        changed = [
            (label, {kind: n for kind in kinds if (n := (counts or {}).get(kind))})
            for label, counts in sorted((self.counts or {}).items())
        ]
        return [(label, counts) for label, counts in changed if counts]


class LoadRunFile(models.Model):
    """One file a run read, and what became of it, in the order read.

    Rows, not one JSON value on the run: the whole archive is 575,000 files (~110 MB as JSON),
    which the database would have to assemble in memory at the end of the load and a reader
    would have to read whole to see one of them.
    Only the newest ``settings.LOAD_FILE_LISTS_KEPT`` runs keep theirs (the loader prunes the
    rest); an older run's ``files_summary`` still counts them and names its first few.
    """

    # No index of its own: the (run, seq) constraint's index leads with it.
    run = models.ForeignKey(LoadRun, on_delete=models.CASCADE, related_name="files", db_index=False)
    seq = models.PositiveIntegerField()  # 1, 2, … in the order the load read them
    path = models.TextField()  # within the folder the load was given; never a server path
    sha256 = models.CharField(max_length=64, blank=True)  # '' if it was not read
    url = models.TextField(blank=True)  # the document it holds (/paper/…, archive:…)
    status = models.CharField(max_length=16, choices=LoadFileStatus.choices, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        # By the column, not "run": that would sort by LoadRun's own ordering (a join and a sort
        # of every file) instead of walking the (run, seq) index.
        ordering = ["run_id", "seq"]
        # The admin's "skipped" or "error" files of every run kept (millions of rows), or of one,
        # found and paged in this order without reading the rest.
        indexes = [models.Index(fields=["status", "run", "seq"], name="loadrunfile_by_status")]
        constraints = [
            models.UniqueConstraint(fields=["run", "seq"], name="loadrunfile_seq_unique"),
            models.CheckConstraint(
                condition=in_choices("status", LoadFileStatus) | models.Q(status=""),
                name="loadrunfile_status_valid",
            ),
        ]

    def __str__(self):
        return f"{self.path} ({self.status})"


class SourceDocument(models.Model):
    """A snapshot document, by its ``url``; the newest version loaded is kept."""

    url = models.CharField(max_length=500, unique=True)
    kind = models.CharField(max_length=24, choices=DocumentKind.choices)
    sha256 = models.CharField(max_length=64)
    file_name = models.CharField(max_length=500)
    read_at = models.DateTimeField(null=True, blank=True)
    source = models.JSONField(null=True, blank=True)  # a string or {archive, snapshot, …}
    about = models.JSONField(null=True, blank=True)  # licence, attribution, non-affiliation
    # What the document says of itself that no model holds, kept as given so that dump_snapshot
    # writes it back: a code-entry document's ``status_vocabulary``, ``units`` and ``syntology``
    # notes, a paper document's ``syntology.repo_kind_vocabulary`` and ``read_at_is``.
    extra = models.JSONField(null=True, blank=True)
    stamp = models.CharField(max_length=100)
    last_load = models.ForeignKey(LoadRun, null=True, on_delete=models.SET_NULL)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=in_choices("kind", DocumentKind), name="doc_kind_valid")
        ]

    def __str__(self):
        return self.url


class Harvested(models.Model):
    """Fields every harvested row has: where it came from, and which version won.

    ``stamp`` orders competing versions of a row: the winning document's ``read_at``
    and content hash, sometimes preceded by a rank (a stated slug beats a derived
    one). The loader writes a row only from a version whose stamp is not older.
    """

    document = models.ForeignKey(SourceDocument, null=True, on_delete=models.SET_NULL, related_name="+")
    stamp = models.CharField(max_length=100, editable=False)

    class Meta:
        abstract = True
