"""The whole catalogue as plain data keyed by natural keys (no database ids), for comparing two loads."""

import json

from catalogue import models as m


def _paper(paper_id, papers):
    return papers[paper_id]


def catalogue_state(exclude=("id", "created_at", "last_load", "version")) -> dict:
    papers = {p.id: p.arxiv_id or p.slug for p in m.Paper.objects.all()}
    repos = dict(m.Repo.objects.values_list("id", "key"))
    docs = dict(m.SourceDocument.objects.values_list("id", "url"))
    bodies = dict(m.CodeBody.objects.values_list("id", "sha256_prefix"))
    entries = dict(m.CodeEntry.objects.values_list("id", "name"))
    boards = dict(m.Leaderboard.objects.values_list("id", "slug"))
    tasks = dict(m.Task.objects.values_list("id", "slug"))
    methods = dict(m.Method.objects.values_list("id", "slug"))
    datasets = dict(m.Dataset.objects.values_list("id", "slug"))
    areas = dict(m.Area.objects.values_list("id", "slug"))
    collections = dict(m.MethodCollection.objects.values_list("id", "slug"))
    maps = {
        "paper": papers,
        "repo": repos,
        "document": docs,
        "paper_document": docs,
        "code_document": docs,
        "body": bodies,
        "entry": entries,
        "leaderboard": boards,
        "task": tasks,
        "dataset": datasets,
        "area": areas,
        "introduced_in": papers,
    }
    parents = {m.Task: tasks, m.Dataset: datasets}

    # version counts writes (for optimistic locking); it is not content.
    def rows(model):
        out = []
        for obj in model.objects.all():
            row = {}
            for field in model._meta.concrete_fields:
                if field.name in exclude:
                    continue
                value = getattr(obj, field.attname)
                if field.is_relation:
                    targets = parents[model] if field.name == "parent" else maps[field.name]
                    value = targets.get(value) if value is not None else None
                if isinstance(value, dict | list):  # PostgreSQL's jsonb orders keys its own way
                    value = json.dumps(value, sort_keys=True)
                row[field.name] = value
            out.append(repr(sorted(row.items())))
        return sorted(out)

    state = {
        model.__name__: rows(model)
        for model in (
            m.SourceDocument,
            m.Paper,
            m.PaperSlug,
            m.Author,
            m.Area,
            m.Task,
            m.MethodCollection,
            m.Method,
            m.Dataset,
            m.Leaderboard,
            m.Result,
            m.Repo,
            m.CodeLink,
            m.HarvestedRepo,
            m.CodeEntry,
            m.CodeBody,
            m.Sample,
        )
    }
    state["paper_tasks"] = sorted(
        (papers[p], tasks[t]) for p, t in m.Paper.tasks.through.objects.values_list("paper_id", "task_id")
    )
    state["paper_methods"] = sorted(
        (papers[p], methods[x])
        for p, x in m.Paper.methods.through.objects.values_list("paper_id", "method_id")
    )
    for name, through, left, right in (
        ("task_areas", m.Task.areas.through, tasks, areas),
        ("method_collections", m.Method.collections.through, methods, collections),
        ("dataset_tasks", m.Dataset.tasks.through, datasets, tasks),
        ("datasets_introduced", m.Paper.datasets_introduced.through, papers, datasets),
    ):
        fields = [f.attname for f in through._meta.concrete_fields if f.is_relation]
        state[name] = sorted((left[a], right[b]) for a, b in through.objects.values_list(*fields))
    state["methods_introduced"] = sorted(
        (papers[p], methods[x])
        for p, x in m.Paper.methods_introduced.through.objects.values_list("paper_id", "method_id")
    )
    # Who states each code link and result (by natural keys).
    state["code_link_sources"] = sorted(
        (papers[p], repos[r], sub_path, docs[d], boards.get(b) or "")
        for p, r, sub_path, d, b in m.CodeLinkSource.objects.values_list(
            "link__paper_id", "link__repo_id", "link__sub_path", "document_id", "leaderboard_id"
        )
    )
    state["result_sources"] = sorted(
        (boards[b], papers.get(p) or "", row_key, docs[d])
        for b, p, row_key, d in m.ResultSource.objects.values_list(
            "result__leaderboard_id", "result__paper_id", "result__row_key", "document_id"
        )
    )
    return state


def wipe() -> None:
    """Empty the catalogue (children first), as a fresh database would be."""
    for model in (
        m.Correction,
        m.Sample,
        m.Result,
        m.CodeLink,
        m.HarvestedRepo,
        m.Author,
        m.PaperSlug,
        m.Paper,
        m.Leaderboard,
        m.Dataset,
        m.Task,
        m.Method,
        m.MethodCollection,
        m.Area,
        m.CodeEntry,
        m.CodeBody,
        m.Repo,
        m.SourceDocument,
        m.LoadRun,
        m.SearchDocument,
    ):
        model.objects.all().delete()
