"""Curators' corrections, kept with their history (``catalogue.curation`` writes them).

Corrections are public: pages, API and feeds mark a corrected value with the snapshot's value,
the date and the reason, and ``/corrections/`` lists every one, removed ones included. A
curator appears there by the public name they chose (``CuratorProfile``), else as "a curator";
never by login or e-mail. The name is copied onto the correction when it is made (and removed),
so that it travels with the record through ``dump_snapshot`` into another database.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from catalogue.models.code import Sample
from catalogue.models.papers import Paper
from catalogue.models.vocabulary import Status

ANONYMOUS_CURATOR = "a curator"


def public_name(user) -> str:
    """The name a curator chose to be shown by; "" when none (pages then say "a curator")."""
    if user is None:
        return ""
    profile = CuratorProfile.objects.filter(user=user).first()
    return profile.public_name if profile else ""


class CuratorProfile(models.Model):
    """What the public sees of a curator: a display name of their choosing, or nothing."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="curator_profile"
    )
    public_name = models.CharField(
        max_length=80,
        blank=True,
        help_text="Shown beside your corrections on public pages. Leave empty to appear as "
        f'"{ANONYMOUS_CURATOR}". Never your login or e-mail.',
    )

    def __str__(self):
        return self.public_name or ANONYMOUS_CURATOR


class CorrectionQuerySet(models.QuerySet):
    def active(self):
        return self.filter(removed_at__isnull=True)

    def of_paper(self, paper):
        """A paper's history: its title's corrections and those of its places' statuses."""
        return self.filter(Q(paper=paper) | Q(sample__paper=paper))

    def of_entry(self, entry):
        return self.filter(sample__entry=entry)

    def for_listing(self):
        """With what a public line about each one shows, newest first."""
        return self.select_related("paper", "sample__paper", "sample__entry", "sample__body").order_by(
            "-created_at", "-id"
        )


def attach_status_corrections(samples) -> None:
    """Give each place its active status correction (``sample.status_correction``, or None).

    One query, and none at all when no place on the page is corrected: a page's query count
    does not grow with its rows.
    """
    _attach(samples, "status")


def attach_title_corrections(papers) -> None:
    """Give each paper its active title correction (``paper.title_correction``), as above."""
    _attach(papers, "title")


def _attach(rows, field: str) -> None:
    found = _active(field, [row.pk for row in rows if getattr(row, f"{field}_corrected")])
    for row in rows:
        setattr(row, f"{field}_correction", found.get(row.pk))


def active_status_corrections(sample_ids) -> dict:
    """Place id -> its active status correction, for the given (corrected) places' ids: one
    query, none when there are none (plain rows, which take no attribute: the API's places)."""
    return _active("status", sample_ids)


def _active(field: str, ids) -> dict:
    if not ids:
        return {}
    target = "sample" if field == "status" else "paper"
    active = Correction.objects.active().filter(field=field, **{f"{target}_id__in": ids})
    return {getattr(c, f"{target}_id"): c for c in active}


def title_correction(paper):
    """A paper's active title correction, or None (no query when its title is not corrected)."""
    if not hasattr(paper, "title_correction"):
        _attach([paper], "title")
    return paper.title_correction


def status_correction(sample):
    """A place's active status correction, or None (no query when its status is not corrected)."""
    if not hasattr(sample, "status_correction"):
        _attach([sample], "status")
    return sample.status_correction


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
    # The public names of who made and who removed it, as they were then ("" = "a curator").
    curator_name = models.CharField(max_length=80, blank=True)
    removed_by_name = models.CharField(max_length=80, blank=True)

    objects = CorrectionQuerySet.as_manager()

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

    @property
    def by(self) -> str:
        return self.curator_name or ANONYMOUS_CURATOR

    @property
    def removed_by_public(self) -> str:
        return self.removed_by_name or ANONYMOUS_CURATOR

    @property
    def superseded(self) -> bool:
        return self.removal_reason == SUPERSEDED

    @property
    def target_paper(self):
        return self.paper if self.paper_id else self.sample.paper


SUPERSEDED = "superseded by a later correction"
