"""FilterSets of every API list. An invalid value is a 400 that names the parameter.

django-filter's own booleans read anything that is not "true"/"false" as "no filter", and
its numbers accept decimals; the fields here refuse both. A value that names nothing (an
unknown task, repository, paper) is invalid too: an empty list would read as "none".
Full-text ``q`` is the pages' search (``catalogue.search``), ranked where no order is asked.
"""

import django_filters as df
from django import forms
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.http import Http404
from rest_framework.exceptions import ValidationError as DRFValidationError

from catalogue import identities, reads, search
from catalogue.api.filterset import FilterSet
from catalogue.api.serializers.base import ZeroStars
from catalogue.models import (
    CodeBody,
    CodeEntry,
    Dataset,
    LoadRun,
    LoadRunOutcome,
    Method,
    Paper,
    Repo,
    RepoKind,
    Sample,
    SearchKind,
    Status,
    Task,
    TitleSource,
)
from catalogue.models.papers import month_from, month_until
from catalogue.pagination.api import is_cursor_mode
from catalogue.reads.sql import id_list

# --- fields that refuse what they cannot read ----------------------------------------------


class StrictBooleanField(forms.Field):
    TRUE, FALSE = {"true", "1", "yes"}, {"false", "0", "no"}

    def to_python(self, value):
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise ValidationError("Expected true or false.")


class BooleanFilter(df.BooleanFilter):
    field_class = StrictBooleanField


class IntegerFilter(df.NumberFilter):
    field_class = forms.IntegerField


class YearFilter(IntegerFilter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1000)
        kwargs.setdefault("max_value", 9999)
        super().__init__(*args, **kwargs)


class SearchField(forms.CharField):
    def validate(self, value):
        super().validate(value)
        if value and not search.words(value):
            raise ValidationError("No searchable words: give at least one letter or digit.")


class LookupField(forms.CharField):
    """A value that must name an object; cleans to that object."""

    def __init__(self, *args, resolve, what, **kwargs):
        self.resolve, self.what = resolve, what
        super().__init__(*args, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return None
        found = self.resolve(value)
        if found is None:
            # Parameters, not an f-string: a value holding "%" must not be read as a format.
            raise ValidationError(
                "No %(what)s %(value)s.", params={"what": self.what, "value": repr(value[:80])}
            )
        return found


class LookupFilter(df.CharFilter):
    field_class = LookupField


def _or_none(lookup):
    def resolve(*args):
        try:
            return lookup(*args)
        except Http404:
            return None

    return resolve


def _repository(value: str) -> Repo | None:
    ref = identities.parse_repo(value)
    if ref is None:
        return None
    if ref.host != "github.com":
        return Repo.objects.filter(key=ref.key).first()
    return _or_none(reads.repositories.repository)(ref.owner, ref.name)


def _code_entry(value: str) -> CodeEntry | None:
    return CodeEntry.objects.filter(Q(slug=value) | Q(name=value)).order_by("id").first()


def _code_body(value: str) -> CodeBody | None:
    return CodeBody.objects.filter(sha256_prefix=value).first()


def _arxiv_id(value: str) -> str | None:
    return identities.normalize_arxiv_id(value)


def paper_filter(field_name="paper", **kwargs):
    return LookupFilter(
        field_name=field_name,
        resolve=_or_none(reads.papers.paper),
        what="paper",
        help_text="A paper id: its slug, an old slug, or its arXiv id.",
        **kwargs,
    )


def repository_filter(**kwargs):
    return LookupFilter(
        resolve=_repository,
        what="repository",
        help_text="A repository as owner/name (GitHub) or its URL.",
        **kwargs,
    )


def code_entry_filter(**kwargs):
    return LookupFilter(
        resolve=_code_entry,
        what="code entry",
        help_text="A code entry by id (slug) or routine name.",
        **kwargs,
    )


def _invalid(param: str, message: str) -> DRFValidationError:
    return DRFValidationError({param: [message]})


class StableOrderingFilter(df.OrderingFilter):
    """``ordering=`` plus the list's unique natural key last, so equal values never shuffle pages."""

    def __init__(self, *args, tiebreak: str, **kwargs):
        self.tiebreak = tiebreak
        super().__init__(*args, **kwargs)

    def filter(self, qs, value):
        fields = [self.get_ordering_value(p) for p in value or () if p]  # "a,,b" holds empty items
        if not fields:
            return qs
        # The tie-break runs the way the last field does, so that (date DESC, slug DESC) is one
        # backward walk of the (date, slug) index rather than a sort of the whole list.
        tiebreak = f"-{self.tiebreak}" if fields[-1].startswith("-") else self.tiebreak
        return qs.order_by(*fields, tiebreak)


def _dataset(value: str) -> Dataset | None:
    """A dataset by its id (slug), or by a name it has or the slug that name gives."""
    return (
        Dataset.objects.filter(slug=value).first()
        or Dataset.objects.filter(name=value).order_by("slug").first()
        or Dataset.objects.filter(slug=identities.name_slug(value)).first()
    )


class DatasetFilter(LookupFilter):
    """A dataset by its id (slug) or name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, resolve=_dataset, what="dataset", **kwargs)


def _slug_choice(model, field_name, help_text, to_field="slug", **kwargs):
    return df.ModelChoiceFilter(
        queryset=model.objects.all(),
        to_field_name=to_field,
        field_name=field_name,
        help_text=help_text,
        **kwargs,
    )


RANKED_LIMIT = 1000


def _position_in(queryset, ids: list[int]) -> RawSQL:
    """Order by place in ``ids``: one string parameter (a CASE of 1,000 arms took 0.2 s to compile)."""
    column = f"{connection.ops.quote_name(queryset.model._meta.db_table)}.{connection.ops.quote_name('id')}"
    find = (
        "strpos(%s, ',' || CAST({} AS TEXT) || ',')"
        if connection.vendor == "postgresql"
        else ("instr(%s, ',' || {} || ',')")
    )
    return RawSQL(find.format(column), ["," + ",".join(map(str, ids)) + ","])


class _FilterSet(FilterSet):
    """Adds ``q``: the pages' full-text search over ``search_kind``, best first unless ordered.

    Best first means the best ``RANKED_LIMIT`` matches, ranked by one search query (ranking
    every match row by row cost seconds at 20,000 papers). With ``ordering=`` or in cursor
    mode every match is listed, in that order.
    """

    search_kind: str | None = None
    rank_tiebreak = "pk"

    def search(self, queryset, name, value):
        if self.request is not None and (is_cursor_mode(self.request) or self.data.get("ordering")):
            return search.matching(queryset, value, self.search_kind)
        best = [hit.object_id for hit in search.ranked(value, [self.search_kind], limit=RANKED_LIMIT)]
        if not best:
            return queryset.none()
        # the ids as one bound value: a plain __in list of 1,000 was compiled value by value, twice
        # (the page's count and its rows), a fifth of the request (bench/README.md, issue 35)
        found = queryset.filter(pk__in=id_list(best))
        return found.order_by(_position_in(queryset, best), self.rank_tiebreak)


class SearchFilter(df.CharFilter):
    field_class = SearchField


def q_filter(what: str):
    return SearchFilter(
        method="search",
        help_text=(
            f"Full-text search (the site's search) over {what}; every word must match. Without "
            f"ordering, the best {RANKED_LIMIT} matches, best first; with ordering or in cursor mode, all."
        ),
    )


# --- date, year, official: shared by papers and samples ------------------------------------


def _date_filters(prefix: str):
    """published_after/before (the stated date) and year_min/max (the month, stated or inferred)."""
    return (
        df.DateFilter(
            field_name=f"{prefix}date", lookup_expr="gte", help_text="Published on or after (YYYY-MM-DD)."
        ),
        df.DateFilter(
            field_name=f"{prefix}date", lookup_expr="lte", help_text="Published on or before (YYYY-MM-DD)."
        ),
        YearFilter(
            method="filter_year_min",
            help_text="From this year on (the stated date, else the month an arXiv id encodes).",
        ),
        YearFilter(method="filter_year_max", help_text="Up to this year (as year_min)."),
    )


class _DatedFilterSet(_FilterSet):
    month_field = "month"

    def filter_year_min(self, queryset, name, value: int):
        return queryset.filter(month_from(value, self.month_field))

    def filter_year_max(self, queryset, name, value: int):
        return queryset.filter(month_until(value, self.month_field))


# --- papers ---------------------------------------------------------------------------------


class PaperFilter(_DatedFilterSet):
    search_kind = SearchKind.PAPER
    rank_tiebreak = "slug"

    q = q_filter("titles, authors and abstracts")
    arxiv_id = df.CharFilter(method="filter_arxiv_id", help_text="arXiv id; a version suffix is ignored.")
    title = df.CharFilter(field_name="title", lookup_expr="icontains", help_text="Part of the title.")
    abstract = df.CharFilter(
        field_name="abstract", lookup_expr="icontains", help_text="Part of the abstract."
    )
    task = _slug_choice(Task, "tasks", "Papers on this task (task id).", method="filter_task")
    method = _slug_choice(Method, "methods", "Papers using this method (method id).", method="filter_method")
    dataset = DatasetFilter(
        method="filter_dataset",
        help_text="Papers with a result on this dataset, or that introduced it (dataset name).",
    )
    framework = df.CharFilter(
        method="filter_framework", help_text="Papers with code in this framework (pytorch, tf, jax…)."
    )
    official = BooleanFilter(
        method="filter_official", help_text="Papers with (true) or without official code."
    )
    has_code = BooleanFilter(
        method="filter_has_code", help_text="Papers with (true) or without a code link or a sample."
    )
    ran = BooleanFilter(
        method="filter_ran",
        help_text="Papers with (true) or without a harvested sample whose status counts as ran.",
    )
    title_source = df.ChoiceFilter(choices=TitleSource.choices, help_text="Where the title came from.")
    corrected = BooleanFilter(
        field_name="title_corrected", help_text="Papers whose title a curator corrected (true) or not."
    )
    status = df.ChoiceFilter(
        choices=Status.choices, method="filter_status", help_text="Papers with a sample of this status."
    )
    code_entry = code_entry_filter(method="filter_code_entry")
    repository = repository_filter(method="filter_repository")
    published_after, published_before, year_min, year_max = _date_filters("")
    ordering = StableOrderingFilter(
        tiebreak="slug",
        fields=(("slug", "id"), ("date", "published"), ("month", "month"), ("title", "title")),
        help_text="Order by id, published, month or title (prefix - for descending).",
    )

    class Meta:
        model = Paper
        fields = []

    def filter_arxiv_id(self, queryset, name, value):
        arxiv_id = _arxiv_id(value)
        if arxiv_id is None:
            raise _invalid("arxiv_id", f"{value[:40]!r} is not an arXiv id (such as 1811.06965).")
        return queryset.filter(arxiv_id=arxiv_id)

    def filter_dataset(self, queryset, name, value):
        return queryset.on_dataset(value)

    def filter_framework(self, queryset, name, value):
        return queryset.with_framework(value)

    def filter_official(self, queryset, name, value):
        return queryset.with_official_code(value)

    def filter_has_code(self, queryset, name, value):
        return queryset.with_code(value)

    def filter_ran(self, queryset, name, value):
        return queryset.with_ran_samples(value)

    def filter_status(self, queryset, name, value):
        return queryset.with_status(value)

    def filter_task(self, queryset, name, value):
        return queryset.on_task(value.pk)

    def filter_method(self, queryset, name, value):
        return queryset.using_method(value.pk)

    def filter_code_entry(self, queryset, name, value):
        return queryset.with_code_entry(value)

    def filter_repository(self, queryset, name, value):
        return queryset.in_repository(value)


# --- repositories ---------------------------------------------------------------------------


class RepositoryFilter(_FilterSet):
    search_kind = SearchKind.REPO
    rank_tiebreak = "key"

    q = q_filter("owner and name")
    owner = df.CharFilter(field_name="owner", lookup_expr="iexact", help_text="Owner (case-insensitive).")
    name = df.CharFilter(field_name="name", lookup_expr="iexact", help_text="Name (case-insensitive).")
    host = df.CharFilter(field_name="host", lookup_expr="iexact", help_text="Host, such as github.com.")
    framework = df.CharFilter(
        method="filter_framework", help_text="Repositories a paper links with this framework."
    )
    licence = df.CharFilter(field_name="spdx", lookup_expr="iexact", help_text="SPDX licence id.")
    paper = paper_filter(method="filter_paper")
    official = BooleanFilter(
        method="filter_official", help_text="Repositories some paper links as its official code (true)."
    )
    # Papers-with-Code's client sends it (repository_list(stars=…)); read as the answers read.
    stars = IntegerFilter(
        min_value=0,
        method="filter_stars",
        help_text="At least this many stars. The archive has none: every repository reads 0 (1+ lists none).",
    )

    class Meta:
        model = Repo
        fields = []

    def filter_stars(self, queryset, name, value: int):
        return queryset if value <= ZeroStars.VALUE else queryset.none()

    def filter_framework(self, queryset, name, value):
        return queryset.with_framework(value)

    def filter_paper(self, queryset, name, value):
        return queryset.linked_by(value)

    def filter_official(self, queryset, name, value):
        return queryset.with_official_links(value)


# --- code entries and samples ---------------------------------------------------------------


class CodeEntryFilter(_FilterSet):
    search_kind = SearchKind.ENTRY
    rank_tiebreak = "name"

    q = q_filter("routine names")
    name = df.CharFilter(field_name="name", lookup_expr="icontains", help_text="Part of the routine name.")
    paper = paper_filter(method="filter_paper")
    repository = repository_filter(method="filter_repository")
    status = df.ChoiceFilter(
        choices=Status.choices, method="filter_status", help_text="Entries with a place of this status."
    )
    ran = BooleanFilter(method="filter_ran", help_text="Entries with (true) or without a place that ran.")
    ordering = StableOrderingFilter(tiebreak="name", fields=(("name", "name"),), help_text="Order by name.")

    class Meta:
        model = CodeEntry
        fields = []

    def filter_paper(self, queryset, name, value):
        return queryset.with_places(paper=value)

    def filter_repository(self, queryset, name, value):
        return queryset.with_places(repo=value)

    def filter_status(self, queryset, name, value):
        return queryset.with_places(status=value)

    def filter_ran(self, queryset, name, value):
        return queryset.with_ran_places(value)


class SampleFilter(_DatedFilterSet):
    month_field = "paper__month"

    q = SearchFilter(
        method="search",
        help_text="Full-text search (the site's search) over the place's paper, routine name and repository.",
    )
    status = df.MultipleChoiceFilter(
        # distinct=False: a column of the place itself, so no join can repeat a row; the
        # default DISTINCT made PostgreSQL sort every matching place before the first page.
        choices=Status.choices,
        distinct=False,
        help_text="Status of the place; repeat for any of several.",
    )
    ran = BooleanFilter(method="filter_ran", help_text="Places that ran (any status but unverified).")
    corrected = BooleanFilter(
        field_name="status_corrected", help_text="Places whose status a curator corrected (true) or not."
    )
    licence = df.CharFilter(
        field_name="licence", lookup_expr="iexact", help_text="Licence: SPDX id, NONE or NOASSERTION."
    )
    inline_ok = BooleanFilter(field_name="inline_ok", help_text="false: the code may only be pointed to.")
    repository = repository_filter(field_name="repo")
    code_entry = code_entry_filter(field_name="entry")
    paper = paper_filter()
    code_sha256_prefix = df.CharFilter(
        field_name="body__sha256_prefix", help_text="A code body (16 hex digits); one not held lists none."
    )
    body = LookupFilter(
        field_name="body",
        resolve=_code_body,
        what="code body",
        help_text="A code body as /body/<id> names it (16 hex digits): its places. One not held is a 400.",
    )
    repo_kind = df.ChoiceFilter(
        choices=RepoKind.choices, help_text="How the repository relates to the paper."
    )
    verification_level = IntegerFilter(min_value=0, max_value=32767, help_text="Exact verification level.")
    verification_level_min = IntegerFilter(
        field_name="verification_level", lookup_expr="gte", min_value=0, max_value=32767,
        help_text="At least this verification level.",
    )  # fmt: skip
    task = _slug_choice(Task, "paper__tasks", "Places in papers on this task (task id).")
    method = _slug_choice(Method, "paper__methods", "Places in papers using this method (method id).")
    dataset = DatasetFilter(
        method="filter_dataset",
        help_text="Places in papers with a result on this dataset (dataset name).",
    )
    framework = df.CharFilter(
        method="filter_framework", help_text="Places whose paper links their repository with this framework."
    )
    official = BooleanFilter(
        method="filter_official", help_text="Places in a repository the paper links as official (true)."
    )
    title_source = df.ChoiceFilter(
        field_name="paper__title_source",
        choices=TitleSource.choices,
        help_text="Where the paper's title came from.",
    )
    published_after, published_before, year_min, year_max = _date_filters("paper__")

    class Meta:
        model = Sample
        fields = []

    def search(self, queryset, name, value):
        return queryset.filter(
            Q(paper__in=search.matching(Paper.objects.all(), value, SearchKind.PAPER))
            | Q(entry__in=search.matching(CodeEntry.objects.all(), value, SearchKind.ENTRY))
            | Q(repo__in=search.matching(Repo.objects.all(), value, SearchKind.REPO))
        )

    def filter_ran(self, queryset, name, value):
        return queryset.ran(value)

    def filter_dataset(self, queryset, name, value):
        return queryset.on_dataset(value)

    def filter_framework(self, queryset, name, value):
        return queryset.with_framework(value)

    def filter_official(self, queryset, name, value):
        return queryset.in_official_repository(value)


# --- the load history -----------------------------------------------------------------------


class LoadRunFilter(FilterSet):
    outcome = df.ChoiceFilter(
        choices=[c for c in LoadRunOutcome.choices if c[0] != LoadRunOutcome.RUNNING],
        help_text="Runs that succeeded, failed or were dry runs.",
    )

    class Meta:
        model = LoadRun
        fields = []
