"""Curators' corrections: the one place that writes them (admin, commands and tests call this).

A correction sets the value shown (``Paper.title``, ``Sample.status``), marks the row
corrected so ``load_snapshot`` leaves that value alone, and records who, when, the
value before, the snapshot's value and why. Every write checks the row's ``version``
against the one the curator's form was built from: a stale form is refused, so a
second curator never silently overwrites the first.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from catalogue import counters, search
from catalogue.models import Correction, Paper, Sample, Status
from catalogue.models.corrections import SUPERSEDED, public_name


class StaleEdit(Exception):
    """The row changed since the form was loaded; nothing was written."""

    def __init__(self, obj, expected: int, current: int):
        self.obj, self.expected, self.current = obj, expected, current
        super().__init__(
            f"{obj._meta.verbose_name} {obj.pk} was changed by someone else while you edited it "
            f"(your form shows version {expected}, it is now at version {current}). "
            "Nothing was saved: reload it to see their change, then correct it again if needed."
        )


def _lock(model, pk, expected_version):
    row = model.objects.select_for_update().get(pk=pk)
    if expected_version is not None and row.version != expected_version:
        raise StaleEdit(row, expected_version, row.version)
    return row


def _supersede(row_filter: Q, user, now):
    Correction.objects.filter(row_filter, removed_at__isnull=True).update(
        removed_at=now, removed_by=user, removed_by_name=public_name(user), removal_reason=SUPERSEDED
    )


@transaction.atomic
def correct_title(
    paper: Paper, value: str, *, user: AbstractBaseUser, reason: str = "", expected_version: int | None
) -> Correction:
    value = value.strip()
    if not value:
        raise ValidationError("A corrected title cannot be empty.")
    row = _lock(Paper, paper.pk, expected_version)
    now = timezone.now()
    correction = _record(
        row, Correction.Field.TITLE, value, user=user, name=public_name(user), reason=reason, now=now
    )
    search.reindex("paper", ids=[row.pk])
    return correction


@transaction.atomic
def correct_status(
    sample: Sample, value: str, *, user: AbstractBaseUser, reason: str, expected_version: int | None
) -> Correction:
    _check_status(value, reason)
    row = _lock(Sample, sample.pk, expected_version)
    correction = _correct_status_locked(
        row, value, user=user, name=public_name(user), reason=reason, now=timezone.now()
    )
    counters.refresh(entry_ids=[row.entry_id], paper_ids=[])
    return correction


def _check_status(value, reason):
    if value not in Status.values:
        raise ValidationError(f"{value!r} is not one of {', '.join(Status.values)}")
    if not reason or not reason.strip():
        raise ValidationError("A status correction needs a reason.")


def _correct_status_locked(row: Sample, value: str, *, user, name: str, reason: str, now) -> Correction:
    # The caller recounts the entries once, however many rows it corrected.
    return _record(row, Correction.Field.STATUS, value, user=user, name=name, reason=reason.strip(), now=now)


def _record(row: Paper | Sample, field: str, value: str, *, user, name: str, reason: str, now) -> Correction:
    """The correction of the row's ``field`` (``title`` of a paper, ``status`` of a sample) to
    ``value``: the row's active one superseded, this one recorded with the value before and the
    snapshot's, and the row showing ``value``, marked corrected, one version on."""
    column = str(field)  # the column's name, not the enum member (which hashes otherwise)
    on_row = {str(row._meta.model_name): row}  # the correction's key to it: paper, sample
    _supersede(Q(field=field, **on_row), user, now)
    correction = Correction.objects.create(
        field=field,
        **on_row,
        value=value,
        previous_value=getattr(row, column),
        upstream_value=getattr(row, f"{column}_upstream"),
        reason=reason,
        created_by=user,
        curator_name=name,
    )
    type(row).objects.filter(pk=row.pk).update(
        **{column: value, f"{column}_corrected": True}, version=F("version") + 1
    )
    return correction


@transaction.atomic
def bulk_correct_status(samples: QuerySet[Sample], value: str, *, user, reason: str) -> int:
    """Set the status of many samples with one reason (the admin's bulk action)."""
    _check_status(value, reason)
    now = timezone.now()
    rows = list(samples.select_for_update().order_by("pk"))
    name = public_name(user)
    for row in rows:
        _correct_status_locked(row, value, user=user, name=name, reason=reason, now=now)
    # One set-wise recount of the entries touched, not one per row (issue 16).
    counters.refresh(entry_ids=sorted({row.entry_id for row in rows}), paper_ids=[])
    return len(rows)


@transaction.atomic
def remove_correction(correction: Correction, *, user, reason: str = "") -> None:
    """Withdraw a correction: the snapshot's current value is shown again."""
    if correction.removed_at is not None:
        return
    now = timezone.now()
    Correction.objects.filter(pk=correction.pk).update(
        removed_at=now, removed_by=user, removed_by_name=public_name(user), removal_reason=reason
    )
    if correction.field == Correction.Field.TITLE:
        Paper.objects.filter(pk=correction.paper_id).update(
            title=F("title_upstream"), title_corrected=False, version=F("version") + 1
        )
        search.reindex("paper", ids=[correction.paper_id])
    else:
        Sample.objects.filter(pk=correction.sample_id).update(
            status=F("status_upstream"), status_corrected=False, version=F("version") + 1
        )
        entry_id = Sample.objects.filter(pk=correction.sample_id).values_list("entry_id", flat=True).first()
        counters.refresh(entry_ids=[entry_id], paper_ids=[])


def active_corrections() -> QuerySet[Correction]:
    return Correction.objects.filter(removed_at__isnull=True)


def upstream_changed() -> QuerySet[Correction]:
    """Active corrections whose snapshot value changed after the correction was made (to review)."""
    current = {
        "title": Subquery(Paper.objects.filter(pk=OuterRef("paper_id")).values("title_upstream")[:1]),
        "status": Subquery(Sample.objects.filter(pk=OuterRef("sample_id")).values("status_upstream")[:1]),
    }
    return (
        active_corrections()
        .annotate(title_now=current["title"], status_now=current["status"])
        .filter(
            Q(field=Correction.Field.TITLE) & ~Q(title_now=F("upstream_value"))
            | Q(field=Correction.Field.STATUS) & ~Q(status_now=F("upstream_value"))
        )
    )
