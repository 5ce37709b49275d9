"""The taxonomy's pages: /sota/ (areas and their tasks), /area/<slug>, /tasks/ and a task, its
leaderboards; /datasets/ and a dataset, its leaderboards; /methods/ and a method.
"""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import markup, reads
from catalogue.addresses import api_url
from catalogue.models import Dataset, Method, Paper, Task
from catalogue.web.pageframe import (
    KEYSET,
    Meta,
    cached_page,
    choice_param,
    describe,
    keyset_position,
    list_json,
    param,
    render_page,
    same,
)


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("tasks", slug))
def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("parent"), slug=slug)
    papers = reads.taxonomy.task_papers_page(task, **keyset_position(request))
    boards = reads.leaderboards.boards_shown(task.leaderboards)
    meta = Meta(
        title=f"{task.name} (task)",
        description=describe(markup.plain_text(task.description))
        or f"Papers and leaderboards for the task {task.name}.",
        feed_url=reverse("task_feed", args=[task.slug]),
    )
    tree = reads.taxonomy.task_tree(task)
    return render_page(
        request, "catalogue/task_detail.html", meta, task=task, papers=papers, boards=boards, tree=tree
    )


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("methods", slug))
def method_detail(request, slug: str):
    method = get_object_or_404(Method.objects.select_related("introduced_in"), slug=slug)
    collections = list(method.collections.select_related("area").order_by("name", "slug"))
    papers = reads.taxonomy.method_papers_page(method, **keyset_position(request))
    # num_papers is the archive's count, across the whole archive; the catalogue may hold none of
    # those papers. A page of them that is empty (after a cursor past the end, too) asks which.
    holds_papers = bool(papers.items) or Paper.objects.using_method(method.pk).exists()
    introduced_by = list(method.introduced_by.order_by("month", "id")[:50])
    boards = reads.leaderboards.leaderboards_of_method(method)
    meta = Meta(
        title=f"{method.name} (method)",
        description=describe(markup.plain_text(method.description))
        or (
            f"Papers that use or introduce the method {method.full_name or method.name}, "
            "and their leaderboards."
        ),
    )
    return render_page(
        request,
        "catalogue/method_detail.html",
        meta,
        method=method,
        collections=collections,
        papers=papers,
        holds_papers=holds_papers,
        introduced_by=introduced_by,
        boards=boards,
    )


def _area_json(request, slug: str) -> str | None:
    return (
        api_url("areas", slug) if slug != reads.taxonomy.NO_AREA else None
    )  # "Other tasks" is the site's own


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
    data = reads.taxonomy.area_page(slug, **keyset_position(request))
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
    page = reads.taxonomy.tasks_page(q, sort, parent=parent, **keyset_position(request))
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
    page = reads.taxonomy.datasets_page(filters, sort, **keyset_position(request))
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
    data = reads.taxonomy.dataset_page(dataset, **keyset_position(request))
    meta = Meta(
        title=f"{dataset.name} (dataset)",
        description=describe(markup.plain_text(dataset.description))
        or f"{dataset.full_name or dataset.name}: its leaderboards and the papers evaluated on it.",
    )
    return render_page(request, "catalogue/dataset_detail.html", meta, dataset=dataset, data=data)


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("evaluations", dataset=slug))
def dataset_leaderboards(request, slug: str):
    return _board_list(request, get_object_or_404(Dataset, slug=slug), "on")


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("evaluations", task=slug))
def task_leaderboards(request, slug: str):
    return _board_list(request, get_object_or_404(Task, slug=slug), "of")


def _board_list(request, owner: Dataset | Task, preposition: str):
    """All of a task's or a dataset's leaderboards, most results first, a keyset page at a time."""
    kind = owner._meta.model_name  # "dataset" or "task", also the template's name for the owner
    meta = Meta(
        title=f"Leaderboards {preposition} {owner.name}",
        description=f"Every leaderboard {preposition} the {kind} {owner.name}, most results first.",
    )
    page = reads.leaderboards.boards_page(owner.leaderboards, **keyset_position(request))
    return render_page(request, "catalogue/board_list.html", meta, page=page, **{kind: owner})


@require_safe
@cached_page(reads=("q", "collection", "sort", *KEYSET), json=list_json("methods", q=same("q")))
def method_list(request):
    q, collection = param(request, "q"), param(request, "collection")
    sort = choice_param(request, "sort", reads.taxonomy.METHOD_SORTS) or "name"
    page = reads.taxonomy.methods_page(q, collection, sort, **keyset_position(request))
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
