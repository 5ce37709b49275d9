"""The search page's reads: ranked hits over papers, code entries and repositories with their
facets (each counted over the hits that pass every other filter), and the authors whose names
match.
"""

from collections import Counter
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db.models import Prefetch, prefetch_related_objects

from catalogue import figures, memo, search
from catalogue.figures import SampleFigures
from catalogue.models import Author, CodeEntry, Paper, Repo, Sample, SearchKind, Status
from catalogue.models.papers import has_official_code
from catalogue.reads.sql import id_list

# Search: facets are counted over the best SEARCH_FACET_LIMIT hits (the page says so).
SEARCH_FACET_LIMIT = 1000
SEARCH_PAGE_SIZE = 20


@dataclass(frozen=True)
class SearchFilters:
    kind: str = ""
    task: str = ""  # task slug
    year: int | None = None
    has_official_code: bool = False
    status: str = ""

    @property
    def papers_only(self) -> bool:
        """Task, year and official code are properties of papers: other kinds drop out."""
        return bool(self.task or self.year or self.has_official_code)


@dataclass
class SearchItem:
    kind: str
    object_id: int
    rank: float
    year: int | None = None
    tasks: dict[str, str] = dataclass_field(default_factory=dict)  # slug -> name
    has_official_code: bool = False
    statuses: set[str] = dataclass_field(default_factory=set)
    obj: object = None


@dataclass(frozen=True)
class SearchPage:
    items: list[SearchItem]  # this page's hits, with their objects
    total: int  # hits that pass the filters (among the best SEARCH_FACET_LIMIT)
    capped: bool  # more than SEARCH_FACET_LIMIT matched
    page: int
    pages: int
    facets: dict[str, list[tuple[str, str, int]]]  # facet -> [(value, label, count)]
    entry_figures: dict[int, SampleFigures]


def _passes(item: SearchItem, filters: SearchFilters, *, skip: str = "") -> bool:
    if skip != "kind" and filters.kind and item.kind != filters.kind:
        return False
    if filters.papers_only and skip not in ("task", "year", "official") and item.kind != SearchKind.PAPER:
        return False
    if skip != "task" and filters.task and filters.task not in item.tasks:
        return False
    if skip != "year" and filters.year and item.year != filters.year:
        return False
    if skip != "official" and filters.has_official_code and not item.has_official_code:
        return False
    return not (skip != "status" and filters.status and filters.status not in item.statuses)


def search_page(q: str, filters: SearchFilters, page: int = 1) -> SearchPage:
    """Ranked hits for ``q`` narrowed by ``filters``, one page of them, and facet counts.

    Each facet is counted over the hits that pass every *other* filter, so a reader sees
    what choosing a value would leave. A fixed number of queries, whatever the hits; and
    remembered per data version (catalogue.memo), as ranking reads every match.
    """
    return memo.remember(
        "search_page", (tuple(search.words(q)), filters, page), lambda: _search_page(q, filters, page)
    )


def _search_page(q: str, filters: SearchFilters, page: int) -> SearchPage:
    hits = search.ranked(q, limit=SEARCH_FACET_LIMIT + 1)
    items = [SearchItem(h.kind, h.object_id, h.rank) for h in hits[:SEARCH_FACET_LIMIT]]
    _describe(items)
    facets = _facets(items, filters)
    passing = [item for item in items if _passes(item, filters)]
    pages = max(1, -(-len(passing) // SEARCH_PAGE_SIZE))
    page = min(max(page, 1), pages)
    shown = passing[(page - 1) * SEARCH_PAGE_SIZE : page * SEARCH_PAGE_SIZE]
    entry_figures = _attach_objects(shown)
    return SearchPage(
        items=[i for i in shown if i.obj is not None],
        total=len(passing),
        capped=len(hits) > SEARCH_FACET_LIMIT,
        page=page,
        pages=pages,
        facets=facets,
        entry_figures=entry_figures,
    )


def _describe(items: list[SearchItem]) -> None:
    """Set what the filters and facets read on each hit: a paper's year, tasks and official
    code; every hit's statuses (of the places of the paper, entry or repository)."""
    by_kind: dict[str, dict[int, SearchItem]] = {k: {} for k in SearchKind.values}
    for item in items:
        by_kind[item.kind][item.object_id] = item
    papers, entries, repos = (by_kind[k] for k in (SearchKind.PAPER, SearchKind.ENTRY, SearchKind.REPO))
    if papers:
        for pk, month, has_official in (
            Paper.objects.filter(pk__in=id_list(papers))
            .annotate(o=has_official_code())
            .values_list("pk", "month", "o")
        ):
            papers[pk].year = int(month[:4]) if month[:4].isdigit() else None
            papers[pk].has_official_code = has_official
        for paper_id, slug, name in Paper.tasks.through.objects.filter(
            paper_id__in=id_list(papers)
        ).values_list("paper_id", "task__slug", "task__name"):
            papers[paper_id].tasks[slug] = name
    for field, found in (("paper_id", papers), ("entry_id", entries), ("repo_id", repos)):
        if found:
            pairs = (
                Sample.objects.filter(**{f"{field}__in": id_list(found)})
                .values_list(field, "status")
                .distinct()
            )
            for pk, status in pairs:
                found[pk].statuses.add(status)


def _facets(items: list[SearchItem], filters: SearchFilters) -> dict[str, list[tuple[str, str, int]]]:
    """Each facet's values with their counts, each counted over the hits that pass every other filter."""
    facets: dict[str, Counter] = {name: Counter() for name in ("kind", "task", "year", "official", "status")}
    task_names: dict[str, str] = {}
    for item in items:
        if _passes(item, filters, skip="kind"):
            facets["kind"][item.kind] += 1
        if _passes(item, filters, skip="task"):
            facets["task"].update(item.tasks.keys())
            task_names.update(item.tasks)
        if item.year and _passes(item, filters, skip="year"):
            facets["year"][str(item.year)] += 1
        if item.has_official_code and _passes(item, filters, skip="official"):
            facets["official"]["1"] += 1
        if _passes(item, filters, skip="status"):
            facets["status"].update(item.statuses)
    kind_labels = {"paper": "papers", "entry": "code entries", "repo": "repositories"}
    return {
        "kind": [(k, kind_labels[k], facets["kind"][k]) for k in SearchKind.values if facets["kind"][k]],
        "task": [
            (slug, task_names[slug], n)
            for slug, n in sorted(facets["task"].items(), key=lambda kv: (-kv[1], task_names[kv[0]]))[:20]
        ],
        "year": [(y, y, n) for y, n in sorted(facets["year"].items(), reverse=True)],
        "official": [("1", "has official code", facets["official"]["1"])] if facets["official"]["1"] else [],
        "status": [
            (s.value, s.value, facets["status"][s.value]) for s in Status if facets["status"][s.value]
        ],
    }


def _attach_objects(shown: list[SearchItem]) -> dict[int, SampleFigures]:
    """Set each shown hit's object (a paper with its authors, a code entry, a repository); return
    the shown code entries' figures."""
    objects: dict[str, dict[int, object]] = {}
    wanted = {k: [i.object_id for i in shown if i.kind == k] for k in SearchKind.values}
    if wanted[SearchKind.PAPER]:
        found_papers = list(Paper.objects.filter(pk__in=wanted[SearchKind.PAPER]))
        prefetch_related_objects(
            found_papers, Prefetch("authors", queryset=Author.objects.order_by("position"))
        )
        objects[SearchKind.PAPER] = {p.pk: p for p in found_papers}
    entry_figures: dict[int, SampleFigures] = {}
    if wanted[SearchKind.ENTRY]:
        found_entries = list(CodeEntry.objects.filter(pk__in=wanted[SearchKind.ENTRY]))
        objects[SearchKind.ENTRY] = {e.pk: e for e in found_entries}
        entry_figures = figures.code_entry_figures_for(found_entries)
    if wanted[SearchKind.REPO]:
        objects[SearchKind.REPO] = {r.pk: r for r in Repo.objects.filter(pk__in=wanted[SearchKind.REPO])}
    for item in shown:
        item.obj = objects.get(item.kind, {}).get(item.object_id)
    return entry_figures


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
