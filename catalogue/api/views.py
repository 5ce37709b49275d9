"""API views: thin. Each names its read (``catalogue.reads``), its FilterSet and its shape.

``cursor_ordering`` names the unique indexed column a list can be walked by in cursor mode
(``catalogue.pagination.api``); lists without one are bounded by their parent.
"""

from functools import cached_property

from django import forms
from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.settings import api_settings

from catalogue import figures, reads
from catalogue.api import filters, ids, taxonomy_filters
from catalogue.api.conditional import CachedResponseMixin, ConditionalGetMixin
from catalogue.api.serializers.boards import EvaluationSerializer, MetricSerializer, ResultSerializer
from catalogue.api.serializers.code import CodeEntrySerializer, SampleSerializer
from catalogue.api.serializers.papers import (
    PaperCodeLinkSerializer,
    PaperDetailSerializer,
    PaperRepoSerializer,
    PaperSerializer,
    RepositorySerializer,
)
from catalogue.api.serializers.taxonomy import (
    AreaSerializer,
    DatasetSerializer,
    MethodSerializer,
    PaperDatasetSerializer,
    TaskSerializer,
)
from catalogue.models import CodeLink, Dataset, Leaderboard, Method, Paper, Repo, Result, Sample, Task


class _Api:
    """Shared by every view: a query parameter the view does not read is refused (400 naming it,
    before any query runs or the response cache is asked), and so is one given more than once,
    unless it takes several values by design (``?status=a&status=b``). Ids and parameters holding
    NUL (which no database takes) never reach a view (config.request_checks)."""

    # Parameters the view reads itself, beside its FilterSet's, its pagination's and ``format``:
    # name -> what it means (the OpenAPI schema documents them from here).
    query_params: dict[str, str] = {}

    def known_query_params(self) -> frozenset[str]:
        filterset = getattr(self, "filterset_class", None)
        filters = filterset.base_filters if filterset is not None else ()
        return frozenset((api_settings.URL_FORMAT_OVERRIDE, *self.query_params, *filters))

    def several_valued_query_params(self) -> frozenset[str]:
        """The filters that take several values, each given as its own parameter."""
        filterset = getattr(self, "filterset_class", None)
        filters = filterset.base_filters.items() if filterset is not None else ()
        return frozenset(name for name, f in filters if issubclass(f.field_class, forms.MultipleChoiceField))

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        known = self.known_query_params()
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            # Ignoring them would answer the whole list as if it were filtered, and cost a fresh query.
            message = f"Unknown parameter; this resource reads: {', '.join(sorted(known))}."
            raise ValidationError({name: [message] for name in unknown})
        several = self.several_valued_query_params()
        repeated = [
            name
            for name, values in sorted(request.query_params.lists())
            if len(values) > 1 and name not in several
        ]
        if repeated:
            # Reading one of the values (Django's QueryDict gives the last) would answer a question
            # the client may not have asked, as an unknown parameter would.
            message = "Given more than once; this parameter takes one value."
            raise ValidationError({name: [message] for name in repeated})


class ListView(_Api, CachedResponseMixin, generics.ListAPIView):
    cursor_ordering: str | None = None

    def known_query_params(self) -> frozenset[str]:
        return super().known_query_params() | set(self.paginator.query_params(self))

    def extra_context(self, rows) -> dict:
        """Context computed once for a page of rows (figures), never per row."""
        return {}

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        context = {**self.get_serializer_context(), **self.extra_context(page)}
        serializer = self.get_serializer_class()(page, many=True, context=context)
        return self.get_paginated_response(serializer.data)


class DetailView(_Api, CachedResponseMixin, ConditionalGetMixin, generics.RetrieveAPIView):
    def detail_context(self, obj) -> dict:
        """Context computed for the one object (its figures, its names), beside the request."""
        return {}

    def retrieve(self, request, *args, **kwargs):
        obj = self.get_object()
        context = {**self.get_serializer_context(), **self.detail_context(obj)}
        return Response(self.get_serializer(obj, context=context).data)


class _RowList(ListView):
    # A list read as Python rows (``rows``), not a queryset: paged as it is, with no FilterSet.
    # (A comment, not a docstring: the OpenAPI schema would take it as its subclasses' description.)

    filterset_class = None

    def rows(self) -> list:
        raise NotImplementedError

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.rows())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


# --- what a list holds -----------------------------------------------------------------------
# One base per kind of row a list serves, wherever it stands (/tasks/, /papers/{id}/tasks/,
# /areas/{id}/tasks/…): its shape (serializer), its model (for the schema), its FilterSet and
# the column cursor mode walks it by. A list then says only which rows it reads (get_queryset).
# (Comments, not docstrings: the OpenAPI schema would take one as its subclasses' description.)


class ListOfPapers(ListView):
    serializer_class: type[BaseSerializer] = PaperSerializer  # search's rows add the best repository
    queryset = Paper.objects.none()  # the model, for the schema
    filterset_class = filters.PaperFilter
    cursor_ordering = "slug"


class ListOfTasks(ListView):
    serializer_class = TaskSerializer
    queryset = Task.objects.none()  # the model, for the schema
    filterset_class = taxonomy_filters.TaskFilter
    cursor_ordering = "slug"


class ListOfMethods(ListView):
    serializer_class = MethodSerializer
    queryset = Method.objects.none()  # the model, for the schema
    filterset_class = taxonomy_filters.MethodFilter
    cursor_ordering = "slug"


class ListOfDatasets(ListView):
    serializer_class = DatasetSerializer
    queryset = Dataset.objects.none()  # the model, for the schema
    filterset_class = taxonomy_filters.DatasetListFilter
    cursor_ordering = "slug"

    def extra_context(self, rows) -> dict:
        reads.taxonomy.with_task_ids(rows)
        return {}


class ListOfEvaluations(ListView):
    serializer_class = EvaluationSerializer
    queryset = Leaderboard.objects.none()  # the model, for the schema
    filterset_class = taxonomy_filters.EvaluationFilter
    cursor_ordering = "slug"


class ListOfPlaces(ListView):
    # Filtered as the model (its FilterSet), then read as plain rows for its page
    # (``reads.code.place_rows``), which ``SampleSerializer`` shapes: no model instance per place.

    serializer_class = SampleSerializer
    queryset = Sample.objects.none()  # the model, for the schema
    filterset_class = filters.SampleFilter
    cursor_ordering = "id"

    def filter_queryset(self, queryset):
        return reads.code.place_rows(super().filter_queryset(queryset))


# --- parents --------------------------------------------------------------------------------


class _PaperChild:
    @cached_property
    def paper(self):
        return reads.papers.paper(self.kwargs["paper_id"])


class _RepositoryChild:
    query_params = {
        "host": "The repository's host (gitlab.com…), as /repo/ pages take it; without it, GitHub first."
    }

    @cached_property
    def repo(self):
        host = self.request.query_params.get("host", "").strip().lower() or None
        return reads.repositories.repository(self.kwargs["owner"], self.kwargs["name"], host)


def _get(queryset, **lookup):
    obj = queryset.filter(**lookup).first()
    if obj is None:
        raise Http404(f"No {queryset.model._meta.verbose_name} {next(iter(lookup.values()))!r}")
    return obj


class _TaskChild:
    @cached_property
    def task(self):
        return _get(Task.objects.all(), slug=self.kwargs["task_id"])


class _AreaChild:
    @cached_property
    def area(self):
        return _get(reads.taxonomy.areas(), slug=self.kwargs["area_id"])


class _EvaluationChild:
    @cached_property
    def board(self):
        return _get(reads.leaderboards.leaderboards(), slug=self.kwargs["evaluation_id"])


# --- Papers-with-Code compatible ------------------------------------------------------------


class _AuthorNamesOfThePage:
    """A list of papers whose authors are read for the page in one query (``author_names``), not
    prefetched: a prefetch made an Author per name and a queryset per paper (50 papers, 230 names)."""

    def extra_context(self, rows):
        return {**super().extra_context(rows), "author_names": reads.papers.author_names_of(rows)}


class SearchView(_AuthorNamesOfThePage, ListOfPapers):
    """Full-text search over papers (the site's search), each with its best repository."""

    serializer_class = PaperRepoSerializer

    def get_queryset(self):
        return reads.papers.search_papers(authors=False)


class PaperList(_AuthorNamesOfThePage, ListOfPapers):
    def get_queryset(self):
        return reads.papers.papers(authors=False)


class PaperDetail(DetailView):
    """A paper by its id (slug), any old slug, or its arXiv id; with the figures of its places."""

    serializer_class = PaperDetailSerializer

    def get_object(self):
        # One query for the paper, its names, its old slugs and its places: a row, no model
        # instance (four queries built by the ORM were most of the request).
        return reads.papers.paper_detail(self.kwargs["paper_id"])

    def detail_context(self, paper) -> dict:
        return {
            "paper_figures": figures.paper_figures_of(paper.places),
            "author_names": {paper.pk: paper.authors},
            "aliases": paper.aliases,
        }


class PaperRepositoryList(_PaperChild, ListView):
    """The paper's code links (the archive's), official first."""

    serializer_class = PaperCodeLinkSerializer
    queryset = CodeLink.objects.none()  # the model, for the schema
    filterset_class = None

    def get_queryset(self):
        return reads.papers.code_links_of(self.paper)


class PaperTaskList(_PaperChild, ListOfTasks):
    def get_queryset(self):
        return self.paper.tasks.order_by("slug")


class PaperMethodList(_PaperChild, ListOfMethods):
    def get_queryset(self):
        return reads.taxonomy.methods().filter(papers=self.paper)


# The read is reads.leaderboards.best_ranks. The docstring below is published in the OpenAPI
# schema (drf-spectacular describes the views that inherit it) and kept as it was served.
class _BestRanksOfThePage:
    """A list of leaderboard rows whose ``best_metric`` and ``best_rank`` are read for the page:
    one query over every board on it (``queries.best_ranks``), not one per row or board."""

    def extra_context(self, rows):
        return {**super().extra_context(rows), "best": reads.leaderboards.best_ranks(rows)}


# Leaderboard rows, a kind of its own as above, defined here after _BestRanksOfThePage: that comes
# first in its bases so a result list with no docstring of its own publishes that one.
class ListOfResults(_BestRanksOfThePage, ListView):
    serializer_class = ResultSerializer
    queryset = Result.objects.none()  # the model, for the schema
    filterset_class = None


class PaperResultList(_PaperChild, ListOfResults):
    """The paper's leaderboard rows."""

    def get_queryset(self):
        return reads.papers.results_of(self.paper)


class PaperDatasetList(_PaperChild, ListOfDatasets):
    """The datasets the paper introduced (as the dataset's own record or the paper's document says)
    and the datasets of the leaderboards it has results on; ``introduced`` and ``evaluated`` say which."""

    serializer_class = PaperDatasetSerializer

    def get_queryset(self):
        return reads.taxonomy.paper_datasets(self.paper)


class PaperSampleList(_PaperChild, ListOfPlaces):
    """The paper's places (code bodies under routine names), filterable as /samples/."""

    def get_queryset(self):
        return reads.code.samples().filter(paper=self.paper)


class RepositoryList(ListView):
    serializer_class = RepositorySerializer
    filterset_class = filters.RepositoryFilter
    cursor_ordering = "key"

    def get_queryset(self):
        return reads.repositories.repositories()


@extend_schema_view(get=extend_schema(operation_id="repositories_of_owner_list"))
class RepositoryOwnerList(RepositoryList):
    """Every repository of one owner (case-insensitive)."""

    queryset = Repo.objects.none()  # the model, for the schema

    def get_queryset(self):
        return reads.repositories.repositories().filter(owner__iexact=self.kwargs["owner"])


class RepositoryDetail(_RepositoryChild, DetailView):
    serializer_class = RepositorySerializer

    def get_object(self):
        return self.repo


class RepositoryPaperList(_RepositoryChild, ListOfPapers):
    """Papers that link the repository, or have places in it."""

    def get_queryset(self):
        return reads.repositories.repository_papers(self.repo)


class RepositorySampleList(_RepositoryChild, ListOfPlaces):
    def get_queryset(self):
        return reads.code.samples().filter(repo=self.repo)


class TaskList(ListOfTasks):
    def get_queryset(self):
        return reads.taxonomy.tasks()


class TaskDetail(_TaskChild, DetailView):
    serializer_class = TaskSerializer

    def get_object(self):
        return self.task


class TaskPaperList(_TaskChild, ListOfPapers):
    def get_queryset(self):
        return reads.papers.papers().on_task(self.task.pk)


class TaskEvaluationList(_TaskChild, ListOfEvaluations):
    def get_queryset(self):
        return reads.leaderboards.leaderboards().filter(task=self.task)


class TaskParentList(_TaskChild, _RowList):
    """The task's parent, that one's parent… up to the root: nearest first (a cycle in the data
    lists each of its tasks once)."""

    serializer_class = TaskSerializer
    queryset = Task.objects.none()  # the model, for the schema

    def rows(self):
        return reads.taxonomy.task_parents(self.task)


class TaskChildList(_TaskChild, ListOfTasks):
    """The task's direct subtasks."""

    def get_queryset(self):
        return reads.taxonomy.tasks().filter(parent=self.task)


class AreaList(ListView):
    """Research areas (Computer Vision, Natural Language Processing…)."""

    serializer_class = AreaSerializer
    filterset_class = taxonomy_filters.AreaFilter
    cursor_ordering = "slug"

    def get_queryset(self):
        return reads.taxonomy.areas()


class AreaDetail(_AreaChild, DetailView):
    serializer_class = AreaSerializer

    def get_object(self):
        return self.area


class AreaTaskList(_AreaChild, ListOfTasks):
    """The tasks the data places in the area (a subtask placed in none is not listed)."""

    def get_queryset(self):
        return reads.taxonomy.tasks().filter(areas=self.area)


class DatasetList(ListOfDatasets):
    def get_queryset(self):
        return reads.taxonomy.datasets()


class DatasetDetail(DetailView):
    serializer_class = DatasetSerializer

    def get_object(self):
        dataset = _get(reads.taxonomy.datasets(), slug=self.kwargs["dataset_id"])
        return reads.taxonomy.with_task_ids([dataset])[0]


class DatasetEvaluationList(ListOfEvaluations):
    """The leaderboards on the dataset (one per task it is evaluated on), as
    ``/tasks/<id>/evaluations/`` lists a task's: Papers-with-Code's ``datasets/<id>/evaluations/``."""

    @cached_property
    def dataset(self):
        return _get(Dataset.objects.only("pk", "slug"), slug=self.kwargs["dataset_id"])

    def get_queryset(self):
        return reads.leaderboards.leaderboards().filter(dataset=self.dataset)


class MethodList(ListOfMethods):
    def get_queryset(self):
        return reads.taxonomy.methods()


class MethodDetail(DetailView):
    serializer_class = MethodSerializer

    def get_object(self):
        return _get(reads.taxonomy.methods(), slug=self.kwargs["method_id"])


class EvaluationList(ListOfEvaluations):
    """Leaderboards: one per task × dataset."""

    def get_queryset(self):
        return reads.leaderboards.leaderboards()


class EvaluationDetail(_EvaluationChild, DetailView):
    serializer_class = EvaluationSerializer

    def get_object(self):
        return self.board


class EvaluationMetricList(_EvaluationChild, _RowList):
    """The metrics a leaderboard's rows state, each with the way it is better where its name tells."""

    serializer_class = MetricSerializer
    queryset = Leaderboard.objects.none()  # the model, for the schema

    def rows(self):
        metrics = reads.leaderboards.leaderboard_metrics(self.board)
        return [{"id": i, "name": n} for i, n in ids.metric_ids(metrics)]


class EvaluationMetricDetail(_EvaluationChild, DetailView):
    serializer_class = MetricSerializer

    def get_object(self):
        for mid, name in ids.metric_ids(reads.leaderboards.leaderboard_metrics(self.board)):
            if mid == self.kwargs["metric_id"]:
                return {"id": mid, "name": name}
        raise Http404(f"No metric {self.kwargs['metric_id']!r} on {self.board.slug}")


class EvaluationResultList(_EvaluationChild, ListOfResults):
    def get_queryset(self):
        return reads.leaderboards.results_on(self.board)


class EvaluationResultDetail(_EvaluationChild, DetailView):
    serializer_class = ResultSerializer

    def get_object(self):
        # A leaderboard holds at most a few hundred rows: find the id among them.
        for result in reads.leaderboards.results_on(self.board):
            if ids.result_id(result) == self.kwargs["result_id"]:
                return result
        raise Http404(f"No result {self.kwargs['result_id']!r} on {self.board.slug}")

    def detail_context(self, result) -> dict:
        return {"best": reads.leaderboards.best_ranks([result])}


# --- the catalogue's own --------------------------------------------------------------------


class CodeEntryList(ListView):
    """Routine names grouped across papers, with the figures of docs/SNAPSHOT-FORMAT.md."""

    serializer_class = CodeEntrySerializer
    filterset_class = filters.CodeEntryFilter
    cursor_ordering = "name"

    def get_queryset(self):
        return reads.code.code_entries()

    def extra_context(self, rows):
        return {"figures": figures.code_entry_figures_for(rows)}


class CodeEntryDetail(DetailView):
    serializer_class = CodeEntrySerializer

    def get_object(self):
        return _get(reads.code.code_entries(), slug=self.kwargs["entry_id"])

    def detail_context(self, entry) -> dict:
        return {"figures": {entry.pk: figures.code_entry_figures(entry)}}


class CodeEntrySampleList(ListOfPlaces):
    @cached_property
    def entry(self):
        return _get(reads.code.code_entries(), slug=self.kwargs["entry_id"])

    def get_queryset(self):
        return reads.code.samples().filter(entry=self.entry)


class SampleList(ListOfPlaces):
    """Places: one code body under one routine name in one paper, maybe in a repository."""

    def get_queryset(self):
        return reads.code.samples()
