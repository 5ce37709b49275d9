"""FilterSets of the API's vocabularies: tasks, methods, areas, datasets and evaluations.

Each filter is the models' own vocabulary (``named_like``, ``Dataset.objects.with_modality``,
``.of_task``…), the one the browsing pages (``catalogue.browse``) call too; an invalid value is
a 400 that names the parameter, as in ``catalogue.api.filters``.
"""

import django_filters as df

from catalogue import search
from catalogue.api.filters import DatasetFilter, _slug_choice, paper_filter
from catalogue.models import Area, Dataset, Leaderboard, Method, Task


class _NamedFilterSet(df.FilterSet):
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


class EvaluationFilter(df.FilterSet):
    q = df.CharFilter(field_name="slug", lookup_expr="icontains", help_text="Part of the id.")
    task = _slug_choice(Task, "task", "Leaderboards of this task (task id).")
    dataset = DatasetFilter(field_name="dataset", help_text="Leaderboards on this dataset (its id or name).")
    paper = paper_filter(method="filter_paper")

    class Meta:
        model = Leaderboard
        fields = []

    def filter_paper(self, queryset, name, value):
        return queryset.with_results_of(value)
