"""Reads of the archive's taxonomy: areas (/sota/, /area/…), tasks (the list, a task's place in
the tree, its papers), datasets (the list, its facets, a dataset's page) and methods (the list
by collection, a method's papers), and the API's tasks, areas, datasets and methods.
"""

from dataclasses import dataclass
from itertools import chain

from django.db.models import Case, Count, Exists, F, OuterRef, Prefetch, QuerySet, Sum, Value, When, Window
from django.db.models.functions import Coalesce, RowNumber
from django.http import Http404

from catalogue import memo, search
from catalogue.models import Area, Dataset, Leaderboard, Method, MethodCollection, Paper, Result, Task
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page, keyset_page_of_keys
from catalogue.reads.leaderboards import BoardsShown, boards_shown
from catalogue.reads.papers import PAPER_KEYS, PaperSort, with_list_figures


def task_papers_page(task: Task, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    page = keyset_page(Paper.objects.on_task(task.pk), PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return page


def method_papers_page(method: Method, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    papers = Paper.objects.using_method(method.pk)
    page = keyset_page(papers, PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return page


AREA_TASKS_SHOWN = 12  # tasks an area shows on /sota/ before "all N tasks"
NO_AREA = "tasks-in-no-area"  # the /sota/ group of the tasks the archive gives no category


@dataclass(frozen=True)
class AreaRow:
    slug: str
    name: str
    tasks: list[Task]  # its first tasks in AREA_TASK_KEYS order (on /sota/ AREA_TASKS_SHOWN of them)
    n_tasks: int
    n_leaderboards: int


# An area's tasks: most leaderboards, then most papers first. The counts are stored columns
# (catalogue.counters), so neither /sota/ nor an area page counts papers per request.
AREA_TASK_KEYS = [Key("n_leaderboards", True, int), Key("n_papers", True, int), Key("slug", False, str)]


def _area_members():
    return Task.areas.through.objects


def _tasks_in_no_area():
    return Task.objects.exclude(Exists(_area_members().filter(task=OuterRef("pk"))))


def sota_index() -> list[AreaRow]:
    """Every area that has tasks, with its first AREA_TASKS_SHOWN tasks and its totals, then the
    tasks in no area: a fixed number of queries, whatever the number of tasks."""
    totals = {
        row["area"]: row
        for row in _area_members()
        .values("area")
        .annotate(n_tasks=Count("task"), n_leaderboards=Coalesce(Sum("task__n_leaderboards"), 0))
    }
    ranked = (
        _area_members()
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("area")],
                order_by=[
                    F(f"task__{k.field}").desc() if k.descending else F(f"task__{k.field}").asc()
                    for k in AREA_TASK_KEYS
                ],
            )
        )
        .filter(rank__lte=AREA_TASKS_SHOWN)
        .select_related("task")
        .order_by("area", "rank")
    )
    shown: dict[int, list[Task]] = {}
    for member in ranked:
        shown.setdefault(member.area_id, []).append(member.task)
    areas = [
        AreaRow(a.slug, a.name, shown.get(a.pk, []), totals[a.pk]["n_tasks"], totals[a.pk]["n_leaderboards"])
        for a in Area.objects.filter(pk__in=totals).order_by("name", "slug")
    ]
    elsewhere = _tasks_in_no_area().aggregate(n=Count("pk"), boards=Coalesce(Sum("n_leaderboards"), 0))
    if elsewhere["n"]:
        first = list(
            _tasks_in_no_area().order_by(
                *(f"-{k.field}" if k.descending else k.field for k in AREA_TASK_KEYS)
            )[:AREA_TASKS_SHOWN]
        )
        areas.append(AreaRow(NO_AREA, "Other tasks", first, elsewhere["n"], elsewhere["boards"]))
    return areas


@dataclass(frozen=True)
class AreaPage:
    area: AreaRow  # its totals; its tasks are the page's
    tasks: KeysetPage


def area_page(slug: str, *, after: str | None = None, before: str | None = None) -> AreaPage:
    """One area's tasks (``tasks-in-no-area``: the tasks in none), a keyset page, or 404."""
    if slug == NO_AREA:
        name, tasks = "Other tasks", _tasks_in_no_area()
    else:
        found = Area.objects.filter(slug=slug).values_list("pk", "name").first()
        if found is None:
            raise Http404(f"No area at /area/{slug}")
        members = _area_members().filter(task=OuterRef("pk"), area=found[0])
        name, tasks = found[1], Task.objects.filter(Exists(members))
    totals = tasks.aggregate(n=Count("pk"), boards=Coalesce(Sum("n_leaderboards"), 0))
    if slug == NO_AREA and not totals["n"]:
        raise Http404(f"No area at /area/{slug}")
    page = keyset_page(tasks, AREA_TASK_KEYS, after=after, before=before)
    return AreaPage(AreaRow(slug, name, page.items, totals["n"], totals["boards"]), page)


# --- the task list ----------------------------------------------------------------------------


TASK_SORTS = {
    "papers": [Key("n_papers", True, int), Key("slug", False, str)],
    "leaderboards": [Key("n_leaderboards", True, int), Key("slug", False, str)],
    "name": [Key("name", False, str), Key("slug", False, str)],
}


TASK_SORT_LABELS = {"papers": "most papers", "leaderboards": "most leaderboards", "name": "name"}


def tasks_page(
    q: str, sort: str, *, parent: Task | None = None, after: str | None = None, before: str | None = None
) -> KeysetPage:
    """Tasks whose name holds ``q`` (of them, the subtasks of ``parent``), in ``sort`` order
    (TASK_SORTS), a keyset page."""
    tasks = Task.objects.select_related("parent")
    if parent is not None:
        tasks = tasks.filter(parent=parent)
    if q:
        tasks = tasks.named_like(search.words(q))
    return keyset_page(tasks, TASK_SORTS[sort], after=after, before=before)


# --- a task's place in the tree ----------------------------------------------------------------


SUBTASKS_SHOWN = 60  # on a task's page; the rest are on /tasks/?parent=<slug>
DATASETS_SHOWN = 30  # on a task's page; the rest are on /datasets/?task=<slug>


@dataclass(frozen=True)
class TaskTree:
    ancestors: list[Task]  # from the root down to the task's parent
    subtasks: list[Task]  # the first SUBTASKS_SHOWN by name
    more_subtasks: bool
    areas: list[Area]  # its own, else its nearest ancestor's
    datasets: list[Dataset]  # the first DATASETS_SHOWN it is evaluated or listed on, by name
    more_datasets: bool


def task_tree(task: Task) -> TaskTree:
    ancestors = task.ancestors()[::-1]  # root first
    # a subtask is in its own areas, else in those of its nearest ancestor that has some
    areas = []
    for node in [task, *reversed(ancestors)]:
        if areas := list(node.areas.order_by("name")):
            break
    # one row past what is shown says whether there are more, without counting them all
    subtasks = list(task.subtasks.order_by("name", "slug")[: SUBTASKS_SHOWN + 1])
    datasets = list(Dataset.objects.of_task(task.pk).order_by("name", "slug")[: DATASETS_SHOWN + 1])
    return TaskTree(
        ancestors=ancestors,
        subtasks=subtasks[:SUBTASKS_SHOWN],
        more_subtasks=len(subtasks) > SUBTASKS_SHOWN,
        areas=areas,
        datasets=datasets[:DATASETS_SHOWN],
        more_datasets=len(datasets) > DATASETS_SHOWN,
    )


# --- datasets ---------------------------------------------------------------------------------


DATASET_SORTS = {
    "name": [Key("name", False, str), Key("slug", False, str)],
    "papers": [Key("papers_count", True, int), Key("slug", False, str)],
}


DATASET_SORT_LABELS = {"name": "name", "papers": "most papers"}


@dataclass(frozen=True)
class DatasetFilters:
    q: str = ""
    modality: str = ""
    language: str = ""
    task: str = ""  # a task's slug


def datasets_page(filters: DatasetFilters, sort: str, *, after=None, before=None) -> KeysetPage:
    datasets = Dataset.objects.annotate(papers_count=Coalesce("num_papers", Value(0)))
    if filters.q:
        datasets = datasets.named_like(search.words(filters.q))
    if filters.modality:
        datasets = datasets.with_modality(filters.modality)
    if filters.language:
        datasets = datasets.in_language(filters.language)
    if filters.task:
        datasets = datasets.of_task(
            Task.objects.filter(slug=filters.task).values_list("pk", flat=True).first()
        )
    return keyset_page(datasets, DATASET_SORTS[sort], after=after, before=before)


def dataset_facets() -> dict[str, list[tuple[str, int]]]:
    """The modalities and languages datasets state, each with how many state it, most first."""
    return memo.remember("dataset_facets", None, _dataset_facets)


def _dataset_facets() -> dict[str, list[tuple[str, int]]]:
    counts: dict[str, dict[str, int]] = {"modalities": {}, "languages": {}}
    for modalities, languages in Dataset.objects.values_list("modalities", "languages").iterator():
        for name, values in (("modalities", modalities), ("languages", languages)):
            for value in {v for v in values or [] if isinstance(v, str) and v.strip()}:
                counts[name][value] = counts[name].get(value, 0) + 1
    return {name: sorted(c.items(), key=lambda kv: (-kv[1], kv[0].casefold())) for name, c in counts.items()}


@dataclass(frozen=True)
class DatasetPage:
    leaderboards: BoardsShown
    tasks: list[Task]
    subdatasets: list[Dataset]
    introduced_in: Paper | None  # Dataset.introducing_paper
    papers: KeysetPage  # papers with results on it, newest first


def dataset_page(dataset: Dataset, *, after=None, before=None) -> DatasetPage:
    papers = _papers_with_results_on(dataset, after, before)
    with_list_figures(papers.items)
    return DatasetPage(
        leaderboards=boards_shown(dataset.leaderboards),
        tasks=list(dataset.tasks.order_by("name", "slug")),
        subdatasets=list(dataset.subdatasets.order_by("name", "slug")),
        introduced_in=dataset.introducing_paper(),
        papers=papers,
    )


def _papers_with_results_on(dataset: Dataset, after, before) -> KeysetPage:
    """Papers with a result on the dataset, newest first, a keyset page with ``PAPER_KEYS``' cursors.

    The papers' sort keys are read once per data version from the results' side and paged in
    memory. Asked of the table, "papers with a result on it" walked the date index testing each
    paper (180 ms for imagenet at archive size), and the paper ids as a list cost a filter over
    3,000 ids per page (50 ms)."""
    order = PAPER_KEYS[PaperSort.DATE]  # month, id: both descending
    keys = memo.remember("dataset_paper_keys", dataset.pk, lambda: _paper_keys_of(dataset))
    page, next_cursor, prev_cursor = keyset_page_of_keys(keys, order, after=after, before=before)
    found = Paper.objects.in_bulk([paper_id for _, paper_id in page])
    return KeysetPage([found[i] for _, i in page if i in found], next_cursor, prev_cursor)


def _paper_keys_of(dataset: Dataset) -> list[tuple[str, int]]:
    rows = Result.objects.filter(leaderboard__dataset=dataset, paper__isnull=False)
    return sorted(set(rows.values_list("paper__month", "paper_id")))


# --- methods ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CollectionRow:
    slug: str
    name: str
    n_methods: int


@dataclass(frozen=True)
class MethodArea:
    name: str
    collections: list[CollectionRow]


def method_areas() -> list[MethodArea]:
    """Every method collection with its number of methods, grouped by its area (then the
    collections in no area)."""
    return memo.remember("method_areas", None, _method_areas)


def _method_areas() -> list[MethodArea]:
    grouped: dict[str, list[CollectionRow]] = {}
    collections = MethodCollection.objects.select_related("area").annotate(n=Count("methods"))
    for c in collections.order_by("name", "slug"):
        grouped.setdefault(c.area.name if c.area else "", []).append(CollectionRow(c.slug, c.name, c.n))
    named = sorted((name, rows) for name, rows in grouped.items() if name)
    return [MethodArea(name, rows) for name, rows in named] + (
        [MethodArea("Other collections", grouped[""])] if "" in grouped else []
    )


METHOD_SORTS = {
    "name": [Key("name", False, str), Key("slug", False, str)],
    "papers": [Key("papers_count", True, int), Key("slug", False, str)],
}


METHOD_SORT_LABELS = {"name": "name", "papers": "most papers"}


def methods_page(q: str, collection: str, sort: str, *, after=None, before=None) -> KeysetPage:
    """Methods whose name holds ``q``, of the collection with the slug ``collection``."""
    methods = Method.objects.annotate(papers_count=Coalesce("num_papers", Value(0)))
    if q:
        methods = methods.named_like(search.words(q))
    if collection:
        methods = methods.filter(pk__in=Method.collections.through.objects.filter(
            methodcollection__slug=collection).values("method"))  # fmt: skip
    return keyset_page(methods, METHOD_SORTS[sort], after=after, before=before)


def tasks() -> QuerySet[Task]:
    return Task.objects.order_by("slug")


# A chain longer than this is taken to be a cycle in the data (the archive's deepest is far shorter).


def task_parents(task: Task) -> list[Task]:
    """The task's parent, its parent's parent… up to the root, nearest first (``Task.ancestors``)."""
    return task.ancestors()


def areas() -> QuerySet[Area]:
    return Area.objects.order_by("slug")


def datasets() -> QuerySet[Dataset]:
    """Datasets with what their serializer reads but their tasks (``with_task_ids``, once a page
    is chosen): the introducing paper (the dataset's own record's, else the first a paper
    document names) and the parent dataset."""
    return (
        Dataset.objects.select_related("introduced_in", "parent")
        .only(
            *("slug", "name", "full_name", "description", "homepage", "introduced_date", "num_papers"),
            *("modalities", "languages", "variants", "data_loaders"),
            *("introduced_in__slug", "introduced_in__title", "parent__slug"),
        )
        .prefetch_related(
            Prefetch("introduced_by", queryset=Paper.objects.order_by("slug").only("id", "slug", "title")),
        )
        .order_by("slug")
    )


def with_task_ids(datasets: list[Dataset]) -> list[Dataset]:
    """Sets ``task_ids`` on each dataset: the ids of the tasks its record names and of those its
    leaderboards are of, sorted. Two queries of (dataset, task id) pairs for a page of datasets:
    prefetching the boards built one model instance per board (ImageNet has 557 at archive size)."""
    found: dict[int, set[str]] = {dataset.pk: set() for dataset in datasets}
    named = Dataset.tasks.through.objects.filter(dataset__in=found).values_list("dataset_id", "task__slug")
    evaluated = (
        Leaderboard.objects.filter(dataset__in=found).values_list("dataset_id", "task__slug").distinct()
    )
    for dataset_id, slug in chain(named, evaluated):
        found[dataset_id].add(slug)
    for dataset in datasets:
        dataset.task_ids = sorted(found[dataset.pk])
    return datasets


def introduced_by(paper: Paper) -> set[int]:
    """Ids of the datasets the paper introduced, as the dataset's own record or a paper document says."""
    listed = Paper.datasets_introduced.through.objects.filter(paper=paper).values_list("dataset", flat=True)
    return {*Dataset.objects.filter(introduced_in=paper).values_list("pk", flat=True), *listed}


def evaluated_in(paper: Paper) -> set[int]:
    """Ids of the datasets of the leaderboards the paper has results on."""
    return set(Result.objects.filter(paper=paper).values_list("leaderboard__dataset", flat=True).distinct())


def paper_datasets(paper: Paper) -> QuerySet[Dataset]:
    """The datasets the paper introduced and those it has leaderboard results on, marked which.

    The paper's own few dataset ids first (indexed reads from the paper's side), then those rows:
    asked as conditions on every dataset, PostgreSQL tested all 15,000 of them (50 ms)."""
    introduced, evaluated = introduced_by(paper), evaluated_in(paper)
    return (
        datasets()
        .filter(pk__in=introduced | evaluated)
        .annotate(
            introduced=Case(When(pk__in=introduced, then=True), default=False),
            evaluated=Case(When(pk__in=evaluated, then=True), default=False),
        )
    )


def methods() -> QuerySet[Method]:
    """Methods with the papers that introduced them, for PwC's ``paper``: the methods dump's
    (``introduced_in``, joined) and those paper documents name (``introduced_by``, prefetched)."""
    return (
        Method.objects.select_related("introduced_in")
        .only("slug", "name", "full_name", "description", "introduced_in__slug")
        .prefetch_related(
            Prefetch("introduced_by", queryset=Paper.objects.order_by("slug").only("id", "slug"))
        )
        .order_by("slug")
    )
