"""Reads for the browsing pages: the state-of-the-art index, areas, the task list, datasets,
authors and proceedings.

Like ``catalogue.queries``, each page's rows come in a fixed number of queries whatever their
number; counts over whole tables (papers per task, leaderboards per area) are remembered per
data version (``catalogue.memo``), so they cost once per load.
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, IntegerField, OuterRef, Value
from django.db.models.functions import Coalesce
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
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page
from catalogue.queries import PAPER_KEYS, SEARCH_FACET_LIMIT, PaperSort, with_list_figures

AREA_TASKS_SHOWN = 12  # tasks an area shows on /sota/ before "all N tasks"
NO_AREA = "tasks-in-no-area"  # the /sota/ group of the tasks the archive gives no category


@dataclass(frozen=True)
class TaskRow:
    slug: str
    name: str
    n_leaderboards: int
    n_papers: int


@dataclass(frozen=True)
class AreaRow:
    slug: str
    name: str
    tasks: list[TaskRow]  # the area's tasks, most leaderboards first
    n_leaderboards: int


def _count_of(queryset, key: str):
    """How many rows of ``queryset`` point at the outer row through ``key``, 0 for none."""
    counted = queryset.filter(**{key: OuterRef("pk")}).values(key).annotate(n=Count("*")).values("n")
    return Coalesce(counted, Value(0), output_field=IntegerField())


def tasks_with_counts():
    """Tasks with ``n_papers`` and ``n_leaderboards``: the one definition /sota/, areas and
    /tasks/ show and sort by."""
    return Task.objects.annotate(
        n_papers=_count_of(Paper.tasks.through.objects.all(), "task"),
        n_leaderboards=_count_of(Leaderboard.objects.all(), "task"),
    )


def _task_rows() -> dict[int, TaskRow]:
    """Every task with its numbers of leaderboards and papers, in one query."""
    rows = tasks_with_counts().values_list("id", "slug", "name", "n_leaderboards", "n_papers")
    return {pk: TaskRow(slug, name, n_boards, n_papers) for pk, slug, name, n_boards, n_papers in rows}


def _by_weight(rows) -> list[TaskRow]:
    return sorted(rows, key=lambda t: (-t.n_leaderboards, -t.n_papers, t.name.casefold(), t.slug))


def sota_index() -> list[AreaRow]:
    """Every area with its tasks (most leaderboards first), then the tasks in no area."""
    return memo.remember("sota_index", None, _sota_index)


def _sota_index() -> list[AreaRow]:
    rows = _task_rows()
    members: dict[int, list[int]] = {}
    for task_id, area_id in Task.areas.through.objects.values_list("task", "area"):
        members.setdefault(area_id, []).append(task_id)
    in_an_area = {task_id for ids in members.values() for task_id in ids}
    areas = [
        AreaRow(a.slug, a.name, _by_weight(rows[t] for t in members.get(a.pk, [])), 0)
        for a in Area.objects.order_by("name", "slug")
    ]
    elsewhere = _by_weight(row for pk, row in rows.items() if pk not in in_an_area)
    if elsewhere:
        areas.append(AreaRow(NO_AREA, "Other tasks", elsewhere, 0))
    return [
        AreaRow(a.slug, a.name, a.tasks, sum(t.n_leaderboards for t in a.tasks)) for a in areas if a.tasks
    ]


def area(slug: str) -> AreaRow:
    """One area of :func:`sota_index` (``other``: the tasks in no area), or 404."""
    found = next((a for a in sota_index() if a.slug == slug), None)
    if found is None:
        if slug != NO_AREA and Area.objects.filter(slug=slug).exists():
            name = Area.objects.get(slug=slug).name
            return AreaRow(slug, name, [], 0)
        raise Http404(f"No area at /area/{slug}")
    return found


# --- the task list ----------------------------------------------------------------------------


TASK_SORTS = {
    "papers": [Key("n_papers", True, int), Key("slug", False, str)],
    "leaderboards": [Key("n_leaderboards", True, int), Key("slug", False, str)],
    "name": [Key("name", False, str), Key("slug", False, str)],
}
TASK_SORT_LABELS = {"papers": "most papers", "leaderboards": "most leaderboards", "name": "name"}


def tasks_page(q: str, sort: str, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    """Tasks whose name holds ``q``, in ``sort`` order (TASK_SORTS), a keyset page."""
    tasks = tasks_with_counts().select_related("parent")
    if q:
        tasks = tasks.named_like(search.words(q))
    return keyset_page(tasks, TASK_SORTS[sort], after=after, before=before)


# --- a task's place in the tree ----------------------------------------------------------------


@dataclass(frozen=True)
class TaskTree:
    ancestors: list[Task]  # from the root down to the task's parent
    subtasks: list[Task]
    areas: list[Area]  # its own, else its nearest ancestor's
    datasets: list[Dataset]  # the datasets it is evaluated or listed on


def task_tree(task: Task) -> TaskTree:
    ancestors = task.ancestors()[::-1]  # root first
    datasets = Dataset.objects.of_task(task.pk)
    # a subtask is in its own areas, else in those of its nearest ancestor that has some
    areas = []
    for node in [task, *reversed(ancestors)]:
        if areas := list(node.areas.order_by("name")):
            break
    return TaskTree(
        ancestors=ancestors,
        subtasks=list(task.subtasks.order_by("name", "slug")),
        areas=areas,
        datasets=list(datasets.order_by("name", "slug")[:200]),
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
    leaderboards: list[Leaderboard]  # with n_results, most results first
    tasks: list[Task]
    subdatasets: list[Dataset]
    introduced_in: Paper | None  # Dataset.introducing_paper
    papers: KeysetPage  # papers with results on it, newest first


def dataset_page(dataset: Dataset, *, after=None, before=None) -> DatasetPage:
    boards = list(
        dataset.leaderboards.select_related("task", "dataset")
        .annotate(n_results=Count("results"))
        .order_by("-n_results", "slug")[:200]
    )
    with_results = Result.objects.filter(paper=OuterRef("pk"), leaderboard__dataset=dataset)
    papers = keyset_page(
        Paper.objects.filter(Exists(with_results)), PAPER_KEYS[PaperSort.DATE], after=after, before=before
    )
    with_list_figures(papers.items)
    return DatasetPage(
        leaderboards=boards,
        tasks=list(dataset.tasks.order_by("name", "slug")),
        subdatasets=list(dataset.subdatasets.order_by("name", "slug")),
        introduced_in=dataset.introducing_paper(),
        papers=papers,
    )


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
