"""Where harvested rows come from: load runs, snapshot documents, and the fields every harvested row has."""

from django.db import models

from catalogue.models.vocabulary import DocumentKind, LoadRunOutcome, in_choices


class LoadRun(models.Model):
    """One successful run of ``load_snapshot``: what it read and what it changed.

    A failed load writes nothing, not even this record: the database stays exactly
    as it was, and the command's error output is the record of the failure.
    """

    Outcome = LoadRunOutcome

    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    # [{"path", "sha256", "url", "status": loaded|unchanged|skipped|error, "error"}]
    files = models.JSONField(default=list)
    # {"Paper": {"created": n, "updated": n, "unchanged": n}, …}
    counts = models.JSONField(default=dict)
    warnings = models.JSONField(default=list)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("outcome", LoadRunOutcome), name="loadrun_outcome_valid"
            )
        ]

    def __str__(self):
        return f"load {self.started_at:%Y-%m-%d %H:%M} ({self.outcome})"


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
