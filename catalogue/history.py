"""The public record of curators' corrections: ``/corrections/``, its Atom feed, and the marks on pages.

Every correction ever made is listed, newest first, removed ones included (as removed, with
when, by whom and why), so that no edit of the catalogue is invisible: a reader can see what a
curator changed, what the snapshot says, and why. ``?paper=<slug>`` narrows the list to one
paper's history (its title and the statuses of its places), ``?entry=<slug>`` to a code entry's.
Curators appear by the public name they chose, or as "a curator" (``models.corrections``).
"""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from catalogue.models import CodeEntry, Correction, Paper, Status
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page

# Newest first by the record's id: corrections are numbered as they are made (a reload from
# a dump inserts them in the order they were made, see loader.merge.corrections).
CORRECTION_KEYS = [Key("id", True, int)]


@dataclass
class CorrectionsPage:
    page: KeysetPage
    paper: Paper | None
    entry: CodeEntry | None


def corrections_page(
    *, paper_slug: str = "", entry_slug: str = "", after: str | None = None, before: str | None = None
) -> CorrectionsPage:
    corrections = Correction.objects.for_listing()
    paper = entry = None
    if paper_slug:
        paper = get_object_or_404(Paper, slug=paper_slug)
        corrections = corrections.of_paper(paper)
    if entry_slug:
        entry = get_object_or_404(CodeEntry, slug=entry_slug)
        corrections = corrections.of_entry(entry)
    page = keyset_page(corrections, CORRECTION_KEYS, after=after, before=before)
    return CorrectionsPage(page, paper, entry)


def value_label(correction: Correction, value: str) -> str:
    """A corrected or snapshot value as a reader reads it (a status by its label)."""
    if correction.field == Correction.Field.STATUS and value in Status.values:
        return Status(value).label
    return value


def describe(correction: Correction) -> str:
    """One plain sentence: what was corrected, from what to what, and why."""
    what = (
        f"title of {correction.paper.title_upstream or correction.paper.slug}"
        if correction.paper_id
        else f"status of {correction.sample.entry.name} ({correction.sample.body.sha256_prefix}) "
        f"in {correction.sample.paper.title or correction.sample.paper.slug}"
    )
    text = (
        f"{correction.by} corrected the {what}: {value_label(correction, correction.value)!r}; "
        f"the snapshot said {value_label(correction, correction.upstream_value)!r}."
    )
    if correction.reason:
        text += f" Reason: {correction.reason}"
    if not correction.active:
        removal = "superseded by a later correction" if correction.superseded else "removed"
        text += f" ({removal} by {correction.removed_by_public} on {correction.removed_at:%Y-%m-%d}"
        why = correction.removal_reason if not correction.superseded else ""
        text += f": {why})" if why else ")"
    return text


def status_note(correction: Correction, snapshot: str) -> str:
    """The feed's words for a corrected status (the page's are ``pages.correction_note``)."""
    reason = f": {correction.reason}" if correction.reason else ""
    return (
        f"Status corrected by {correction.by} on {correction.created_at:%Y-%m-%d}{reason}; "
        f"the snapshot says {snapshot}."
    )
