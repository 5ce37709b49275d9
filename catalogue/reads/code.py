"""Reads of code: code entries (the /code/ list, an entry's places), code bodies (the place a
body's text is shown from), the places themselves, and code links as the API serves them.
"""

from dataclasses import dataclass

from django.db import models
from django.db.models import F, QuerySet

from catalogue import figures, search
from catalogue.figures import SampleFigures
from catalogue.models import CodeBody, CodeEntry, CodeLink, Sample, SearchKind, Status
from catalogue.models.corrections import attach_status_corrections
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page
from catalogue.pagination.paginators import counted_as


class EntrySort(models.TextChoices):
    PLACES = "places", "most places"
    PAPERS = "papers", "most papers"
    RAN = "ran", "most samples ran"
    NAME = "name", "name"


# The counts are stored columns (catalogue.counters), each indexed with the id.
ENTRY_KEYS = {
    EntrySort.PLACES: [Key("n_places", True, int), Key("id", False, int)],
    EntrySort.PAPERS: [Key("n_papers", True, int), Key("id", False, int)],
    EntrySort.RAN: [Key("n_samples_ran", True, int), Key("id", False, int)],
    EntrySort.NAME: [Key("name", False, str), Key("id", False, int)],
}


def code_entries_page(
    q: str = "", sort: str = EntrySort.PLACES, *, after: str | None = None, before: str | None = None
) -> tuple[KeysetPage, dict[int, SampleFigures]]:
    """A page of code entries (named like ``q`` if given) and each one's figures."""
    sort = EntrySort(sort) if sort in EntrySort.values else EntrySort.PLACES
    entries = CodeEntry.objects.all()
    if search.words(q):
        entries = search.matching(entries, q, SearchKind.ENTRY)
    page = keyset_page(entries, ENTRY_KEYS[sort], after=after, before=before)
    return page, figures.code_entry_figures_for(page.items)


# Newest rows first, by the sample's own id: the (entry, status), body and repo indexes
# then give a page without sorting every place (``forward`` has thousands), which an
# order by the paper's date would need.
PLACE_KEYS = [Key("id", True, int)]


def places_page(
    samples: QuerySet[Sample], *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    """A page of places (sample rows) with their paper, repository, entry and body."""
    samples = samples.with_code_links().select_related("paper", "repo", "entry")
    page = keyset_page(samples, PLACE_KEYS, after=after, before=before)
    attach_status_corrections(page.items)
    return page


# Of the places that may show a body's text, the one its page shows it from: one with a
# repository first (its attribution names one), then by natural keys, the same on every database.
SHOWN_FROM_ORDER = (F("repo__key").asc(nulls_last=True), "path", "paper__slug", "entry__name")
FILE_URLS_SHOWN = 5


@dataclass(frozen=True)
class BodyCode:
    """What a code body's page says of its text."""

    shown_from: Sample | None  # the place whose licence lets the text be shown, with the text
    held: bool  # the catalogue holds a text of the body (shown or not)
    file_urls: list[str]  # where a few of its places' files are: where to get the code


def body_code(body: CodeBody) -> BodyCode:
    """The place a body's text is shown from (``SHOWS_CODE``), or where to get the text instead."""
    shown_from = (
        body.samples.showing_code()
        .select_related("paper", "repo", "entry", "body")
        .order_by(*SHOWN_FROM_ORDER)
        .first()
    )
    held = shown_from is not None or CodeBody.objects.with_code().filter(pk=body.pk).exists()
    file_urls = list(
        body.samples.exclude(file_url=None)
        .exclude(file_url="")
        .order_by("file_url")
        .values_list("file_url", flat=True)
        .distinct()[:FILE_URLS_SHOWN]
    )
    return BodyCode(shown_from=shown_from, held=held, file_urls=file_urls)


def entry_places(
    entry: CodeEntry, status: str = "", *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    samples = Sample.objects.filter(entry=entry)
    if status in Status.values:
        samples = samples.filter(status=status)
    return places_page(samples, after=after, before=before)


def code_links() -> QuerySet[CodeLink]:
    """Code links as the API serves them: official first, with their repository."""
    return CodeLink.objects.select_related("repo").order_by(
        F("is_official").desc(nulls_last=True), "repo__key", "sub_path"
    )


def code_entries() -> QuerySet[CodeEntry]:
    return CodeEntry.objects.order_by("name")


def samples() -> QuerySet[Sample]:
    """Places in id order (the one indexed total order), to be filtered, counted, then read as
    ``place_rows``."""
    return Sample.objects.order_by("id")


# What a place's API row shows, as plain columns of one joined read (serializers.SampleSerializer
# shapes them): a page of 50 places was about 250 model instances (place, paper, entry, body,
# repository), most of the request (bench/README.md, "Issue 35: uncached reads").
PLACE_COLUMNS = (
    "id",
    "paper__slug",
    "paper__arxiv_id",
    "paper__title",
    "entry__slug",
    "entry__name",
    "body__sha256_prefix",
    "body__code_language",
    "shown_code",
    "repo_id",
    "repo__owner",
    "repo__name",
    "repo__host",
    "path",
    "file_url",
    "status",
    "status_upstream",
    "status_corrected",
    "verification_level",
    "contract_check",
    "metamorphic_tier",
    "behaviour_fingerprint",
    "licence",
    "inline_ok",
    "repo_kind",
    "link_basis",
    "language",
)


def place_rows(places: QuerySet[Sample]) -> QuerySet:
    """``places`` (``samples()``, filtered) as named tuples of ``PLACE_COLUMNS`` with their paper,
    entry, body and repository, and the body's text only where the place shows it (``shown_code``),
    no model instance; paged and walked by cursor (``id``) as the model's were, and counted as
    ``places``, without the joins."""
    rows = places.with_shown_code().values_list(*PLACE_COLUMNS, named=True)
    return counted_as(rows, places)
