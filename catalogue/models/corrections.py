"""Curators' corrections, kept with their history (``catalogue.curation`` writes them)."""

from django.db import models
from django.db.models import Q

from catalogue.models.code import Sample
from catalogue.models.papers import Paper
from catalogue.models.vocabulary import Status


class Correction(models.Model):
    """A curator's correction of one field, kept with its history.

    The corrected row holds the value shown (``Paper.title``, ``Sample.status``) and the
    snapshot's value beside it (``title_upstream``, ``status_upstream``); the loader only
    ever writes the latter while a correction is active. Removing a correction keeps the
    record (``removed_*``) and puts the snapshot's value back. ``catalogue.curation`` is
    the one place that writes these.
    """

    class Field(models.TextChoices):
        TITLE = "title", "paper title"
        STATUS = "status", "sample status"

    field = models.CharField(max_length=10, choices=Field.choices)
    paper = models.ForeignKey(
        Paper, null=True, blank=True, on_delete=models.CASCADE, related_name="corrections"
    )
    sample = models.ForeignKey(
        Sample, null=True, blank=True, on_delete=models.CASCADE, related_name="corrections"
    )
    value = models.TextField()  # the curator's value
    previous_value = models.TextField()  # what was shown before this correction
    upstream_value = models.TextField()  # the snapshot's value when the correction was made
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="corrections_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    removed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections_removed"
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(field="title", paper__isnull=False, sample__isnull=True)
                    | Q(field="status", sample__isnull=False, paper__isnull=True, value__in=Status.values)
                ),
                name="correction_target_matches_field",
            ),
            models.UniqueConstraint(
                fields=["field", "paper"],
                condition=Q(removed_at__isnull=True, paper__isnull=False),
                name="correction_one_active_per_paper_field",
            ),
            models.UniqueConstraint(
                fields=["field", "sample"],
                condition=Q(removed_at__isnull=True, sample__isnull=False),
                name="correction_one_active_per_sample_field",
            ),
        ]
        indexes = [models.Index(fields=["removed_at", "field"])]

    def __str__(self):
        target = f"paper {self.paper_id}" if self.paper_id else f"sample {self.sample_id}"
        return f"{self.get_field_display()} of {target}: {self.value[:60]}"

    @property
    def active(self) -> bool:
        return self.removed_at is None
