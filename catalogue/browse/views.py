"""The browsing pages: /sota/ (areas and their tasks), /area/<slug>, /tasks/, /datasets/,
/dataset/<slug>, a task's or a dataset's leaderboards, /author/<name>, /proceedings/ (the
conferences), /conference/<id> and /proceeding/<id>. Thin views over ``catalogue.browse.queries``,
with the site's own helpers."""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import authors, conferences, markup, reads
from catalogue.addresses import api_url
from catalogue.models import Author, Dataset, Task
from catalogue.pageframe import (
    KEYSET,
    Meta,
    MovedTo,
    cached_page,
    choice_param,
    describe,
    list_json,
    param,
    render_page,
    same,
)
from catalogue.pagination.keyset import keyset_page_of_rows


def _area_json(request, slug: str) -> str | None:
    return (
        api_url("areas", slug) if slug != reads.taxonomy.NO_AREA else None
    )  # "Other tasks" is the site's own


def _proceeding_json(request, slug: str) -> str:
    proceeding = conferences.proceeding_by_id(slug)
    return api_url("conferences", proceeding.conference, "proceedings", proceeding.id)


@require_safe
@cached_page(json=list_json("areas"))
def sota_index(request):
    areas = reads.taxonomy.sota_index()
    meta = Meta(
        title="Browse state-of-the-art",
        description=(
            f"{sum(a.n_leaderboards for a in areas):,} leaderboards in {len(areas)} research areas: "
            "tasks, their leaderboards and the papers with code that top them."
        ),
    )
    return render_page(
        request, "catalogue/sota_index.html", meta, areas=areas, shown=reads.taxonomy.AREA_TASKS_SHOWN
    )


@require_safe
@cached_page(reads=KEYSET, json=_area_json)
def area_detail(request, slug: str):
    data = reads.taxonomy.area_page(slug, after=param(request, "after"), before=param(request, "before"))
    area = data.area
    meta = Meta(
        title=f"{area.name} (area)",
        description=f"{area.n_tasks:,} tasks and {area.n_leaderboards:,} leaderboards in {area.name}.",
    )
    return render_page(request, "catalogue/area_detail.html", meta, area=area, page=data.tasks)


@require_safe
@cached_page(
    reads=("q", "parent", "sort", *KEYSET), json=list_json("tasks", q=same("q"), parent=same("parent"))
)
def task_list(request):
    q, parent_slug = param(request, "q"), param(request, "parent")
    parent = get_object_or_404(Task, slug=parent_slug) if parent_slug else None
    sort = choice_param(request, "sort", reads.taxonomy.TASK_SORTS) or "papers"
    page = reads.taxonomy.tasks_page(
        q, sort, parent=parent, after=param(request, "after"), before=param(request, "before")
    )
    if parent:
        meta = Meta(
            title=f"Subtasks of {parent.name}", description=f"The subtasks of the task {parent.name}."
        )
    else:
        meta = Meta(
            title="Tasks", description="Every task of the catalogue, with its papers and leaderboards."
        )
    return render_page(
        request,
        "catalogue/task_list.html",
        meta,
        page=page,
        q=q,
        parent=parent,
        sort=sort,
        sorts=reads.taxonomy.TASK_SORT_LABELS.items(),
    )


@require_safe
@cached_page(
    reads=("q", "modality", "language", "task", "sort", *KEYSET),
    json=list_json(
        "datasets", q=same("q"), modality=same("modality"), language=same("language"), task=same("task")
    ),
)
def dataset_list(request):
    filters = reads.taxonomy.DatasetFilters(
        q=param(request, "q"),
        modality=param(request, "modality"),
        language=param(request, "language"),
        task=param(request, "task"),
    )
    sort = choice_param(request, "sort", reads.taxonomy.DATASET_SORTS) or "name"
    page = reads.taxonomy.datasets_page(
        filters, sort, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title="Datasets",
        description="Datasets of machine-learning research: what they hold, their leaderboards and papers.",
    )
    return render_page(
        request,
        "catalogue/dataset_list.html",
        meta,
        page=page,
        filters=filters,
        facets=reads.taxonomy.dataset_facets(),
        sort=sort,
        sorts=reads.taxonomy.DATASET_SORT_LABELS.items(),
        q=filters.q,
    )


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("datasets", slug))
def dataset_detail(request, slug: str):
    dataset = get_object_or_404(Dataset.objects.select_related("introduced_in", "parent"), slug=slug)
    data = reads.taxonomy.dataset_page(
        dataset, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title=f"{dataset.name} (dataset)",
        description=describe(markup.plain_text(dataset.description))
        or f"{dataset.full_name or dataset.name}: its leaderboards and the papers evaluated on it.",
    )
    return render_page(request, "catalogue/dataset_detail.html", meta, dataset=dataset, data=data)


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("evaluations", dataset=slug))
def dataset_leaderboards(request, slug: str):
    dataset = get_object_or_404(Dataset, slug=slug)
    meta = Meta(
        title=f"Leaderboards on {dataset.name}",
        description=f"Every leaderboard on the dataset {dataset.name}, most results first.",
    )
    return _board_list(request, dataset, meta, dataset=dataset)


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("evaluations", task=slug))
def task_leaderboards(request, slug: str):
    task = get_object_or_404(Task, slug=slug)
    meta = Meta(
        title=f"Leaderboards of {task.name}",
        description=f"Every leaderboard of the task {task.name}, most results first.",
    )
    return _board_list(request, task, meta, task=task)


def _board_list(request, owner: Dataset | Task, meta: Meta, **context):
    """All of a task's or a dataset's leaderboards, most results first, a keyset page at a time."""
    page = reads.leaderboards.boards_page(
        owner.leaderboards, after=param(request, "after"), before=param(request, "before")
    )
    return render_page(request, "catalogue/board_list.html", meta, page=page, **context)


@require_safe
def _author_json(request, name: str) -> str:
    """The API's author; a name's slug is sent to the exact name's page form (as the page is)."""
    if not Author.objects.filter(name=name).exists():
        found = authors.by_slug(name)
        if found is not None and found != name and authors.has_page(found):
            raise MovedTo(reverse("author", args=[found]))
    return api_url("authors", name)


@cached_page(reads=KEYSET, json=_author_json)
def author_detail(request, name: str):
    try:
        data = reads.named.author_page(name, after=param(request, "after"), before=param(request, "before"))
    except Http404:
        # Not an exact name: a name's slug (/author/yanping-huang, Papers with Code's form) is
        # sent to that name's page, the one address of an author (catalogue.authors.by_slug).
        found = authors.by_slug(name)
        if found is None or found == name or not authors.has_page(found):
            raise
        query = request.META.get("QUERY_STRING", "")
        return redirect(reverse("author", args=[found]) + (f"?{query}" if query else ""), permanent=True)
    meta = Meta(
        title=f"{name} (author)",
        description=f"Papers with {name} among the authors: {data.n_papers:,}.",
    )
    return render_page(request, "catalogue/author_detail.html", meta, data=data)


CONFERENCES_PER_PAGE = 100


@require_safe
@cached_page(reads=KEYSET, json=list_json("conferences"))
def proceeding_list(request):
    page = keyset_page_of_rows(
        conferences.summaries(),
        "id",
        after=param(request, "after"),
        before=param(request, "before"),
        size=CONFERENCES_PER_PAGE,
    )
    meta = Meta(
        title="Proceedings",
        description="Conferences, their proceedings and the papers the archive places in them.",
    )
    return render_page(request, "catalogue/proceeding_list.html", meta, page=page)


@require_safe
@cached_page(json=lambda request, slug: api_url("conferences", slug))
def conference_detail(request, slug: str):
    conference = conferences.conference(slug)
    newest_first = sorted(conference.proceedings, key=lambda p: (-(p.year or 0), -(p.month or 0), p.id))
    n_papers = sum(p.n_papers for p in conference.proceedings)
    meta = Meta(
        title=f"{conference.name} (conference)",
        description=f"{len(newest_first):,} proceedings of {conference.name}, {n_papers:,} papers.",
    )
    return render_page(
        request,
        "catalogue/conference_detail.html",
        meta,
        conference=conference,
        proceedings=newest_first,
        n_papers=n_papers,
    )


@require_safe
@cached_page(reads=KEYSET, json=_proceeding_json)
def proceeding_detail(request, slug: str):
    data = reads.named.proceeding_page(slug, after=param(request, "after"), before=param(request, "before"))
    name = data.name
    conference = conferences.conference(conferences.proceeding_by_id(slug).conference)
    meta = Meta(title=f"{name} (proceedings)", description=f"{data.n_papers:,} papers published in {name}.")
    return render_page(request, "catalogue/proceeding_detail.html", meta, data=data, conference=conference)


@require_safe
@cached_page(reads=("q", "collection", "sort", *KEYSET), json=list_json("methods", q=same("q")))
def method_list(request):
    q, collection = param(request, "q"), param(request, "collection")
    sort = choice_param(request, "sort", reads.taxonomy.METHOD_SORTS) or "name"
    page = reads.taxonomy.methods_page(
        q, collection, sort, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title="Methods", description="Methods of machine learning by area and collection, with their papers."
    )
    return render_page(
        request,
        "catalogue/method_list.html",
        meta,
        page=page,
        areas=reads.taxonomy.method_areas(),
        q=q,
        collection=collection,
        sort=sort,
        sorts=reads.taxonomy.METHOD_SORT_LABELS.items(),
    )
