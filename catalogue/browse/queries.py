"""Reads for the browsing pages: the state-of-the-art index, areas, the task list, datasets,
authors and proceedings.

Like ``catalogue.queries``, each page's rows come in a fixed number of queries whatever their
number; counts over whole tables (papers per task, leaderboards per area) are remembered per
data version (``catalogue.memo``), so they cost once per load.
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, QuerySet, Sum, Value, Window
from django.db.models.functions import Coalesce, RowNumber
from django.http import Http404

from catalogue import memo, search
from catalogue.browse import conferences
from catalogue.models import (
    Area,
    Author,
    Dataset,
    Leaderboard,
    Method,
    MethodCollection,
    Paper,
    Result,
    SearchKind,
    Task,
)
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page, keyset_page_of_keys
from catalogue.queries import PAPER_KEYS, SEARCH_FACET_LIMIT, PaperSort, with_list_figures

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


# --- a task's or a dataset's leaderboards -------------------------------------------------------

# A task's or a dataset's page shows its busiest boards; all of them are a page at a time on
# /task/<slug>/leaderboards and /dataset/<slug>/leaderboards. ImageNet has 557 at archive size.
BOARDS_SHOWN = 20
BOARD_KEYS = [Key("n_results", True, int), Key("slug", False, str)]  # most results first


@dataclass(frozen=True)
class BoardsShown:
    first: list[Leaderboard]  # the BOARDS_SHOWN with most results
    total: int


def boards_shown(boards: QuerySet[Leaderboard]) -> BoardsShown:
    """The first boards of a task's or dataset's ``leaderboards``, and how many it has."""
    first = boards.select_related("task", "dataset").order_by("-n_results", "slug")[:BOARDS_SHOWN]
    return BoardsShown(list(first), boards.count())  # the count: an index range, as many queries at any size


def boards_page(boards: QuerySet[Leaderboard], *, after=None, before=None) -> KeysetPage:
    return keyset_page(boards.select_related("task", "dataset"), BOARD_KEYS, after=after, before=before)


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


# --- authors and proceedings: papers grouped by an exact name -----------------------------------


@dataclass(frozen=True)
class NamedPapers:
    """The papers of one author name or one proceeding, newest first, and how many in all."""

    name: str
    papers: KeysetPage
    n_papers: int


def author_page(name: str, *, after=None, before=None) -> NamedPapers:
    """Papers whose author list holds exactly ``name`` (the data names people, it does not
    identify them), or 404."""
    named = Author.objects.filter(paper=OuterRef("pk"), name=name)
    papers = Paper.objects.filter(Exists(named))
    return _named_papers(name, papers, "author", after, before)


def proceeding_page(proceeding_id: str, *, after=None, before=None) -> NamedPapers:
    """Papers published in the proceeding with this id (every spelling it gathers), or 404."""
    found = conferences.proceeding_by_id(proceeding_id)
    papers = Paper.objects.filter(proceeding__in=found.spellings)
    return _named_papers(found.name, papers, "proceeding", after, before)


def _named_papers(name: str, papers, kind: str, after, before) -> NamedPapers:
    n_papers = memo.remember(f"{kind}_papers", name, papers.count)
    if not name or not n_papers:
        raise Http404(f"No papers for the {kind} {name!r}")
    page = keyset_page(papers, PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return NamedPapers(name, page, n_papers)


AUTHORS_FROM_HITS = 200  # best paper hits whose authors a search looks through
AUTHORS_SHOWN = 10


def authors_matching(q: str) -> list[tuple[str, int]]:
    """Author names in which every word of ``q`` occurs, among the authors of the best paper
    hits for ``q`` (search indexes a paper's authors), with their number of papers there."""
    return memo.remember("authors_matching", tuple(search.words(q)), lambda: _authors_matching(q))


def _authors_matching(q: str) -> list[tuple[str, int]]:
    words = [w.casefold() for w in search.words(q)]
    if not words:
        return []
    # the search page's own hits (remembered under the same key), so this costs one query more
    ranked = search.ranked(q, limit=SEARCH_FACET_LIMIT + 1)
    hits = [h.object_id for h in ranked if h.kind == SearchKind.PAPER]
    counts: dict[str, int] = {}
    for name in Author.objects.filter(paper_id__in=hits[:AUTHORS_FROM_HITS]).values_list("name", flat=True):
        folded = name.casefold()
        if all(w in folded for w in words):
            counts[name] = counts.get(name, 0) + 1
    return sorted(counts.items(), key=lambda nc: (-nc[1], nc[0]))[:AUTHORS_SHOWN]


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
