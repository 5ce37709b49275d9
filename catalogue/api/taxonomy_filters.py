"""FilterSets of the API's vocabularies: tasks, methods, areas, datasets and evaluations; author
names; conferences and proceedings.

Each filter is the models' own vocabulary (``named_like``, ``Dataset.objects.with_modality``,
``.of_task``…), the one the taxonomy's pages (``catalogue.reads.taxonomy``) call too; an invalid value is
a 400 that names the parameter, as in ``catalogue.api.filters``. Conferences and proceedings are
rows in memory (``catalogue.api.rows.Rows``), filtered by the same words rule.
"""

import django_filters as df

from catalogue import search
from catalogue.api.filters import DatasetFilter, YearFilter, _slug_choice, paper_filter
from catalogue.api.filterset import FilterSet
from catalogue.models import Area, AuthorName, Dataset, Leaderboard, Method, Task
from catalogue.models.base import words_in


class _NamedFilterSet(FilterSet):
    """``q``: every word in the name (or full name) or id; ``name``: part of the name."""

    name = df.CharFilter(field_name="name", lookup_expr="icontains", help_text="Part of the name.")

    def filter_q(self, queryset, name, value):
        return queryset.named_like(search.words(value))


class _FullNamedFilterSet(_NamedFilterSet):
    full_name = df.CharFilter(
        field_name="full_name", lookup_expr="icontains", help_text="Part of the full name."
    )


class TaskFilter(_NamedFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the task's name or id.")
    paper = paper_filter(field_name="papers")
    # The catalogue's own: /tasks/?parent=<id> on the site lists a task's subtasks a page at a time.
    parent = df.CharFilter(field_name="parent__slug", help_text="Subtasks of this task (task id).")

    class Meta:
        model = Task
        fields = []


class MethodFilter(_FullNamedFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the method's name, full name or id.")
    paper = paper_filter(field_name="papers")
    introduced_by = paper_filter(field_name="introduced_by")

    class Meta:
        model = Method
        fields = []


class AreaFilter(_NamedFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the area's name or id.")

    class Meta:
        model = Area
        fields = []


class DatasetListFilter(_FullNamedFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the dataset's name, full name or id.")
    modality = df.CharFilter(method="filter_modality", help_text="A modality it has (Images, Texts…).")
    language = df.CharFilter(method="filter_language", help_text="A language it is in (English…).")
    task = _slug_choice(
        Task,
        "tasks",
        "Datasets of this task (task id): named so by the dataset, or with a leaderboard of it.",
        method="filter_task",
    )

    class Meta:
        model = Dataset
        fields = []

    def filter_modality(self, queryset, name, value):
        return queryset.with_modality(value)

    def filter_language(self, queryset, name, value):
        return queryset.in_language(value)

    def filter_task(self, queryset, name, task):
        return queryset.of_task(task.pk)


class EvaluationFilter(FilterSet):
    q = df.CharFilter(field_name="slug", lookup_expr="icontains", help_text="Part of the id.")
    task = _slug_choice(Task, "task", "Leaderboards of this task (task id).")
    dataset = DatasetFilter(field_name="dataset", help_text="Leaderboards on this dataset (its id or name).")
    paper = paper_filter(method="filter_paper")

    class Meta:
        model = Leaderboard
        fields = []

    def filter_paper(self, queryset, name, value):
        return queryset.with_results_of(value)


class AuthorFilter(FilterSet):
    """Over author names (``{"name": …}`` rows of ``AuthorName``: ``catalogue.reads.named.author_names``)."""

    q = df.CharFilter(method="filter_q", help_text="Words in the name: every one must occur, in any case.")
    full_name = df.CharFilter(
        field_name="name", lookup_expr="icontains", help_text="Part of the name, in any case."
    )

    class Meta:
        model = AuthorName
        fields = []

    def filter_q(self, queryset, name, value):
        return queryset.filter(words_in(search.words(value), "name"))


def _holds_words(value: str, *texts: str) -> bool:
    """Every word of ``value`` occurs in one of ``texts``, in any case (as ``words_in`` reads)."""
    folded = [t.casefold() for t in texts]
    return all(any(w.casefold() in t for t in folded) for w in search.words(value))


class _RowsFilterSet(FilterSet):
    """A FilterSet over rows in memory (``Rows``), not a QuerySet: each filter is a method that
    keeps the rows it accepts; parameters, validation and 400s are django-filter's."""

    def filter_queryset(self, rows):
        for name, value in self.form.cleaned_data.items():
            rows = self.filters[name].filter(rows, value)
        return rows

    def filter_q(self, rows, name, value):
        return rows.where(lambda row: _holds_words(value, row.name, row.id))


class ConferenceFilter(_RowsFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the conference's name or id.")
    name = df.CharFilter(method="filter_name", help_text="Part of the name, in any case.")

    def filter_name(self, rows, name, value):
        return rows.where(lambda row: value.casefold() in row.name.casefold())


class ProceedingFilter(_RowsFilterSet):
    q = df.CharFilter(method="filter_q", help_text="Words in the proceeding's name or id.")
    year = YearFilter(
        method="filter_year", help_text="Proceedings of this year (those whose name gives one)."
    )

    def filter_year(self, rows, name, value: int):
        return rows.where(lambda row: row.year == value)
