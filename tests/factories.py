"""Small builders of a valid object graph; each test overrides only what it asserts on."""

import itertools

from django.db.models import Model

from catalogue import counters, identities
from catalogue import models as m

_n = itertools.count(1)


def _create[Row: Model](model: type[Row], fields: dict, **defaults) -> Row:
    """``model``'s row of ``fields``; a field not given takes its value in ``defaults``."""
    return model._default_manager.create(**{**defaults, **fields})


def make_document(**fields) -> m.SourceDocument:
    n = next(_n)
    return _create(
        m.SourceDocument,
        fields,
        url=f"/code/document-{n}",
        kind=m.DocumentKind.CODE_ENTRY,
        sha256=f"{n:064x}",
        file_name=f"{n:03d}_document.json",
        stamp="s",
    )


def make_paper(**fields) -> m.Paper:
    n = next(_n)
    fields.setdefault("arxiv_id", f"2401.{n:05d}")
    fields.setdefault("slug", f"paper-{n}")
    fields.setdefault("title", f"Paper number {n}")
    fields.setdefault("title_upstream", fields["title"])
    fields.setdefault("stamp", "s")
    fields.setdefault("month", identities.month_from_arxiv_id(fields["arxiv_id"]) or "")
    paper = m.Paper.objects.create(**fields)
    m.PaperSlug.objects.create(slug=paper.slug, paper=paper, last_stamp="s")
    return paper


def make_repo(**fields) -> m.Repo:
    n = next(_n)
    fields.setdefault("owner", f"owner{n}")
    fields.setdefault("name", f"repo{n}")
    fields.setdefault("key", f"github.com/{fields['owner']}/{fields['name']}".lower())
    fields.setdefault("stamp", "s")
    return m.Repo.objects.create(**fields)


def make_code_link(**fields) -> m.CodeLink:
    """The archive's link from a paper to a repository (``is_official`` NULL unless given)."""
    fields.setdefault("paper", make_paper() if "paper" not in fields else fields["paper"])
    fields.setdefault("repo", make_repo() if "repo" not in fields else fields["repo"])
    fields.setdefault("repo_url", fields["repo"].url)
    fields.setdefault("stamp", "s")
    return m.CodeLink.objects.create(**fields)


def make_entry(**fields) -> m.CodeEntry:
    n = next(_n)
    fields.setdefault("name", f"routine_{n}")
    fields.setdefault("slug", identities.entry_slug(fields["name"]))
    fields.setdefault("stamp", "s")
    return m.CodeEntry.objects.create(**fields)


def make_body(**fields) -> m.CodeBody:
    fields.setdefault("sha256_prefix", f"{next(_n):016x}")
    return m.CodeBody.objects.create(**fields)


def make_sample(**fields) -> m.Sample:
    fields.setdefault("paper", make_paper() if "paper" not in fields else fields["paper"])
    fields.setdefault("body", make_body() if "body" not in fields else fields["body"])
    fields.setdefault("entry", make_entry() if "entry" not in fields else fields["entry"])
    fields.setdefault("status", m.Status.UNVERIFIED)
    fields.setdefault("status_upstream", fields["status"])
    fields.setdefault("licence", "MIT")
    fields.setdefault("inline_ok", True)
    fields.setdefault("stamp", "s")
    sample = m.Sample.objects.create(**fields)
    # as a load would: the stored counts lists sort by follow the places
    counters.refresh(entry_ids=[sample.entry_id], paper_ids=[sample.paper_id])
    return sample


def make_task(**fields) -> m.Task:
    n = next(_n)
    return _create(m.Task, fields, slug=f"task-{n}", name=f"Task {n}", stamp="s")


def make_method(**fields) -> m.Method:
    n = next(_n)
    return _create(m.Method, fields, slug=f"method-{n}", name=f"Method {n}", stamp="s")


def make_dataset(**fields) -> m.Dataset:
    fields.setdefault("name", f"Dataset {next(_n)}")
    fields.setdefault("slug", identities.name_slug(fields["name"]))
    fields.setdefault("stamp", "s")
    return m.Dataset.objects.create(**fields)


def make_leaderboard(**fields) -> m.Leaderboard:
    n = next(_n)
    task = fields.pop("task", None) or m.Task.objects.create(slug=f"task-{n}", name=f"Task {n}", stamp="s")
    dataset = fields.pop("dataset", None) or make_dataset(name=f"Dataset {n}")
    fields.setdefault("slug", identities.leaderboard_slug(task.slug, dataset.name))
    return m.Leaderboard.objects.create(task=task, dataset=dataset, stamp="s", **fields)


def make_result(**fields) -> m.Result:
    fields.setdefault("paper", make_paper() if "paper" not in fields else fields["paper"])
    fields.setdefault(
        "leaderboard", make_leaderboard() if "leaderboard" not in fields else fields["leaderboard"]
    )
    fields.setdefault("model", f"Model {next(_n)}")
    fields.setdefault("metrics", {"Accuracy": "90.0%"})
    fields.setdefault("stamp", "s")
    fields.setdefault(
        "row_key",
        identities.result_row_key(fields["model"], fields["metrics"], fields.get("uses_additional_data")),
    )
    return m.Result.objects.create(**fields)


def reindex_search() -> None:
    """Builders write rows directly; the loader would have indexed them for search."""
    from catalogue import search

    for kind in m.SearchKind.values:
        search.reindex(kind)
