"""Reads shared by pages, API and admin, and the one place the catalogue's figures are computed.

Every figure of SNAPSHOT-FORMAT.md is derived here from the sample rows, never copied
from a document, so a corrected status moves every figure that depends on it.
Units: ``n_samples``, ``n_samples_ran``, ``n_samples_fingerprinted`` and ``by_status``
count distinct code bodies; ``n_places`` and ``n_places_pointer_only`` count places
(sample rows); a body with places in several statuses counts under each status.
"""

import base64
import json
from collections import Counter
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db import connection, models
from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.http import Http404

from catalogue import identities, memo, search
from catalogue.models import (
    Author,
    CodeBody,
    CodeEntry,
    CodeLink,
    Dataset,
    Leaderboard,
    Method,
    Paper,
    PaperSlug,
    Repo,
    Result,
    Sample,
    SearchKind,
    Status,
    Task,
)

RAN = ~Q(status=Status.UNVERIFIED)


@dataclass(frozen=True)
class SampleFigures:
    n_places: int
    n_places_pointer_only: int
    n_samples: int
    n_samples_ran: int
    n_samples_fingerprinted: int
    n_papers: int
    n_papers_ran: int
    by_status: dict[str, int]  # every status, zeros included
    n_places_corrected: int = 0  # places whose status a curator corrected (figures include them)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _figure_aggregates(prefix: str = "") -> dict:
    body, paper, place = f"{prefix}body", f"{prefix}paper", f"{prefix}id"

    def q(**kwargs):
        return Q(**{f"{prefix}{k}": v for k, v in kwargs.items()})

    ran = ~q(status=Status.UNVERIFIED)
    aggregates = {
        "n_places": Count(place),
        "n_places_pointer_only": Count(place, filter=q(inline_ok=False)),
        "n_samples": Count(body, distinct=True),
        "n_samples_fingerprinted": Count(body, distinct=True, filter=q(behaviour_fingerprint=True)),
        "n_papers": Count(paper, distinct=True),
        "n_papers_ran": Count(paper, distinct=True, filter=ran),
        "n_places_corrected": Count(place, filter=q(status_corrected=True)),
    }
    for status in Status:
        aggregates[f"by_status_{status.value}"] = Count(body, distinct=True, filter=q(status=status))
    return aggregates


def _figures_from_row(row: dict) -> SampleFigures:
    by_status = {s.value: row[f"by_status_{s.value}"] or 0 for s in Status}
    return SampleFigures(
        n_places=row["n_places"] or 0,
        n_places_pointer_only=row["n_places_pointer_only"] or 0,
        n_samples=row["n_samples"] or 0,
        n_samples_ran=sum(v for k, v in by_status.items() if k != Status.UNVERIFIED),
        n_samples_fingerprinted=row["n_samples_fingerprinted"] or 0,
        n_papers=row["n_papers"] or 0,
        n_papers_ran=row["n_papers_ran"] or 0,
        by_status=by_status,
        n_places_corrected=row["n_places_corrected"] or 0,
    )


def sample_figures(samples: QuerySet[Sample]) -> SampleFigures:
    """The figures of any set of places, in one query."""
    return _figures_from_row(samples.aggregate(**_figure_aggregates()))


# The figures of an entry, a repository or the whole catalogue count thousands of places
# (``forward``: 34,000 at archive size); they are remembered per data version (catalogue.memo).


def code_entry_figures(entry: CodeEntry) -> SampleFigures:
    return code_entry_figures_for([entry])[entry.pk]


def code_entry_figures_for(entries) -> dict[int, SampleFigures]:
    """Figures for many entries in one grouped query (list pages, API lists)."""
    return memo.remember_many("entry_figures", [e.pk for e in entries], _entry_figures)


def _entry_figures(ids: list[int]) -> dict[int, SampleFigures]:
    rows = (
        Sample.objects.filter(entry_id__in=ids).values("entry_id").annotate(**_figure_aggregates()).order_by()
    )
    found = {row["entry_id"]: _figures_from_row(row) for row in rows}
    empty = _figures_from_row(dict.fromkeys(_figure_aggregates(), 0))
    return {pk: found.get(pk, empty) for pk in ids}


def repo_figures(repo: Repo) -> SampleFigures:
    return memo.remember("repo_figures", repo.pk, lambda: sample_figures(repo.samples.all()))


def catalogue_figures() -> SampleFigures:
    return memo.remember("catalogue_figures", None, lambda: sample_figures(Sample.objects.all()))


@dataclass(frozen=True)
class PaperFigures:
    """A paper's Syntology figures, as its document states them (units: distinct bodies)."""

    samples: SampleFigures
    summary: dict[str, int]  # status -> samples, zero statuses left out
    by_repo_kind: dict[str, dict[str, int]]  # kind -> {samples, ran, repositories}
    n_pointer_only_for_licence: int


def paper_figures(paper: Paper) -> PaperFigures:
    samples = Sample.objects.filter(paper=paper)
    figures = sample_figures(samples)
    kinds = (
        samples.values("repo_kind")
        .annotate(
            n_samples=Count("body", distinct=True),
            n_ran=Count("body", distinct=True, filter=RAN),
            n_repositories=Count("repo", distinct=True),
        )
        .order_by("repo_kind")
    )
    by_repo_kind = {
        (row["repo_kind"] or "unknown"): {
            "samples": row["n_samples"],
            "ran": row["n_ran"],
            "repositories": row["n_repositories"],
        }
        for row in kinds
    }
    pointer_only = samples.filter(inline_ok=False).values("body").distinct().count()
    return PaperFigures(
        samples=figures,
        summary={k: v for k, v in figures.by_status.items() if v},
        by_repo_kind=by_repo_kind,
        n_pointer_only_for_licence=pointer_only,
    )


def paper_by_address(slug: str) -> tuple[Paper, bool]:
    """The paper at ``/paper/<slug>`` and whether ``slug`` is its current address.

    Any slug the paper was ever published under finds it, and so does
    ``arxiv-<id with dots as dashes>``; callers redirect when the second value is False.
    """
    paper = Paper.objects.filter(slug=slug).first()
    if paper:
        return paper, True
    old = PaperSlug.objects.select_related("paper").filter(slug=slug).first()
    if old:
        return old.paper, False
    arxiv_id = identities.arxiv_id_from_slug(slug)
    if arxiv_id and (paper := Paper.objects.filter(arxiv_id=arxiv_id).first()):
        return paper, False
    raise Http404(f"No paper at /paper/{slug}")


# --- pages ---
# Reads for the public pages. Lists are keyset-paginated ("after this row"), never by
# OFFSET, so page 10,000 costs what page 1 does; every list is fetched with its related
# rows and figures in a fixed number of queries, whatever the number of rows shown.

PAGE_SIZE = 25


@dataclass(frozen=True)
class Key:
    """One column of a keyset order: a field or annotation of the rows, and its direction."""

    field: str
    descending: bool
    kind: type  # str or int: what a cursor must hold in this place


@dataclass(frozen=True)
class KeysetPage:
    items: list
    next_cursor: str | None  # rows after the last one shown
    prev_cursor: str | None  # rows before the first one shown


def encode_cursor(values: list) -> str:
    raw = json.dumps(values, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str | None, keys: list[Key]) -> list | None:
    """The values a cursor holds, or None for anything that is not a cursor of this order."""
    if not token or len(token) > 2000:
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except ValueError:
        return None
    if not isinstance(values, list) or len(values) != len(keys):
        return None
    for value, key in zip(values, keys, strict=True):
        if type(value) is not key.kind or (isinstance(value, str) and "\x00" in value):
            return None
        if isinstance(value, int) and not -(2**63) < value < 2**63:
            return None
    return values


def _beyond(keys: list[Key], values: list, *, forward: bool) -> Q:
    """Rows strictly after (forward) or before the row whose key values are ``values``.

    ``a < x OR (a = x AND b < y)`` alone is a filter PostgreSQL applies row by row (10,000
    rows read to reach the middle of 20,000 papers); the redundant ``a <= x`` in front is a
    range the (a, b) index starts the scan at, in either direction and with mixed orders.
    """
    condition = Q()
    for i, key in enumerate(keys):
        lookup = "lt" if key.descending == forward else "gt"
        step = Q(**{f"{key.field}__{lookup}": values[i]})
        for earlier, value in zip(keys[:i], values[:i], strict=True):
            step &= Q(**{earlier.field: value})
        condition |= step
    first = keys[0]
    return Q(**{f"{first.field}__{'lte' if first.descending == forward else 'gte'}": values[0]}) & condition


def keyset_page(
    queryset: QuerySet, keys: list[Key], *, after: str | None = None, before: str | None = None,
    size: int = PAGE_SIZE,
) -> KeysetPage:  # fmt: skip
    """One page of ``queryset`` in ``keys`` order, after or before a cursor (bad cursors: page 1)."""
    order = [f"-{k.field}" if k.descending else k.field for k in keys]
    after_values = decode_cursor(after, keys)
    before_values = None if after_values else decode_cursor(before, keys)
    if before_values:
        reverse = [o[1:] if o.startswith("-") else f"-{o}" for o in order]
        rows = list(
            queryset.filter(_beyond(keys, before_values, forward=False)).order_by(*reverse)[: size + 1]
        )
        has_prev, has_next = len(rows) > size, True
        rows = rows[:size][::-1]
    else:
        if after_values:
            queryset = queryset.filter(_beyond(keys, after_values, forward=True))
        rows = list(queryset.order_by(*order)[: size + 1])
        has_prev, has_next = bool(after_values), len(rows) > size
        rows = rows[:size]

    def cursor(row) -> str:
        return encode_cursor([getattr(row, k.field) for k in keys])

    return KeysetPage(
        items=rows,
        next_cursor=cursor(rows[-1]) if rows and has_next else None,
        prev_cursor=cursor(rows[0]) if rows and has_prev else None,
    )


def _figures_grouped_by(field: str, ids: list[int]) -> dict[int, SampleFigures]:
    rows = (
        Sample.objects.filter(**{f"{field}__in": ids})
        .values(field)
        .annotate(**_figure_aggregates())
        .order_by()
    )
    found = {row[field]: _figures_from_row(row) for row in rows}
    empty = _figures_from_row(dict.fromkeys(_figure_aggregates(), 0))
    return {pk: found.get(pk, empty) for pk in ids}


def paper_sample_figures_for(papers) -> dict[int, SampleFigures]:
    """Each paper's sample figures (as ``paper_figures(p).samples``), in one grouped query."""
    return _figures_grouped_by("paper_id", [p.pk for p in papers])


@dataclass(frozen=True)
class CatalogueCounts:
    papers: int
    code_entries: int
    code_bodies: int
    places: int
    repositories: int
    results: int
    leaderboards: int


def catalogue_counts() -> CatalogueCounts:
    return memo.remember(
        "catalogue_counts",
        None,
        lambda: CatalogueCounts(
            papers=Paper.objects.count(),
            code_entries=CodeEntry.objects.count(),
            code_bodies=CodeBody.objects.count(),
            places=Sample.objects.count(),
            repositories=Repo.objects.count(),
            results=Result.objects.count(),
            leaderboards=Leaderboard.objects.count(),
        ),
    )


def recent_papers(limit: int = 10) -> list[Paper]:
    """The papers most recently added to the catalogue, newest first."""
    # By id, which grows as papers are added: one load gives all its papers the same
    # created_at, so ordering by it sorted every paper of the catalogue.
    return list(Paper.objects.order_by("-id")[:limit])


def with_list_figures(papers: list[Paper]) -> list[Paper]:
    """Annotate a page of papers with what a list row shows, in a fixed number of queries.

    Sets ``figures`` (sample figures), ``n_code_links`` and ``has_official_code`` and
    prefetches the authors in order.
    """
    prefetch_related_objects(papers, Prefetch("authors", queryset=Author.objects.order_by("position")))
    figures = paper_sample_figures_for(papers)
    links = {
        row["paper_id"]: row
        for row in CodeLink.objects.filter(paper__in=papers)
        .values("paper_id")
        .annotate(n=Count("id"), official=Count("id", filter=Q(is_official=True)))
        .order_by()
    }
    for paper in papers:
        paper.figures = figures[paper.pk]
        paper.n_code_links = links.get(paper.pk, {}).get("n", 0)
        paper.has_official_code = bool(links.get(paper.pk, {}).get("official"))
    return papers


class PaperSort(models.TextChoices):
    DATE = "date", "newest first"
    TITLE = "title", "title"
    SAMPLES = "samples", "most samples"


@dataclass(frozen=True)
class PaperFilters:
    task: str = ""  # task slug
    method: str = ""  # method slug
    year: int | None = None
    has_code: bool = False  # a code link or a harvested sample
    has_official_code: bool = False
    has_ran_samples: bool = False


PAPER_KEYS = {
    PaperSort.DATE: [Key("month", True, str), Key("id", True, int)],
    PaperSort.TITLE: [Key("title", False, str), Key("slug", False, str)],  # the API's order too
    PaperSort.SAMPLES: [Key("n_samples", True, int), Key("id", True, int)],  # catalogue.counters
}


# A task or a method by its id, tested per paper with EXISTS: PostgreSQL then knows from the
# column's statistics whether it is common (72,556 papers for the busiest task at 500,000:
# walk the order's index and probe) or rare (fetch its papers, then sort). A join on the
# task's slug hid that and always fetched and sorted them all: 0.6 s at 500,000 papers.
def on_task(papers: QuerySet[Paper], task_id: int | None) -> QuerySet[Paper]:
    return _linked(papers, Paper.tasks, task_id=task_id)


def using_method(papers: QuerySet[Paper], method_id: int | None) -> QuerySet[Paper]:
    return _linked(papers, Paper.methods, method_id=method_id)


def _linked(papers: QuerySet[Paper], relation, **target) -> QuerySet[Paper]:
    return papers.filter(Exists(relation.through.objects.filter(paper_id=OuterRef("pk"), **target)))


def filtered_papers(filters: PaperFilters) -> QuerySet[Paper]:
    papers = Paper.objects.all()
    if filters.task:
        task_id = Task.objects.filter(slug=filters.task).values_list("id", flat=True).first()
        papers = on_task(papers, task_id)
    if filters.method:
        method_id = Method.objects.filter(slug=filters.method).values_list("id", flat=True).first()
        papers = using_method(papers, method_id)
    if filters.year:
        # A range on the stored month, so the (month, id) index serves it.
        papers = papers.filter(month__gte=f"{filters.year:04d}-01", month__lte=f"{filters.year:04d}-12")
    if filters.has_code:
        papers = papers.filter(
            Exists(CodeLink.objects.filter(paper=OuterRef("pk")))
            | Exists(Sample.objects.filter(paper=OuterRef("pk")))
        )
    if filters.has_official_code:
        papers = papers.filter(Exists(CodeLink.objects.filter(paper=OuterRef("pk"), is_official=True)))
    if filters.has_ran_samples:
        papers = papers.filter(Exists(Sample.objects.filter(RAN, paper=OuterRef("pk"))))
    return papers


def papers_page(
    filters: PaperFilters, sort: str = PaperSort.DATE, *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    """A page of papers for /papers/, with the figures each row shows."""
    sort = PaperSort(sort) if sort in PaperSort.values else PaperSort.DATE
    papers = filtered_papers(filters)
    page = keyset_page(papers, PAPER_KEYS[sort], after=after, before=before)
    with_list_figures(page.items)
    return page


@dataclass(frozen=True)
class PaperPage:
    paper: Paper
    figures: PaperFigures
    samples_by_repo: list[tuple[Repo | None, list[Sample]]]
    results: list[Result]


def paper_page(paper: Paper) -> PaperPage:
    """Everything the paper page shows, in a fixed number of queries."""
    prefetch_related_objects(
        [paper],
        Prefetch("authors", queryset=Author.objects.order_by("position")),
        Prefetch("tasks", queryset=Task.objects.order_by("name", "slug")),
        Prefetch("methods", queryset=Method.objects.order_by("name", "slug")),
        Prefetch("methods_introduced", queryset=Method.objects.order_by("name", "slug")),
        Prefetch("datasets_introduced", queryset=Dataset.objects.order_by("name")),
        Prefetch(
            "code_links",
            queryset=CodeLink.objects.select_related("repo").order_by(
                F("is_official").desc(nulls_last=True),
                F("mentioned_in_paper").desc(nulls_last=True),
                "repo__key",
            ),
        ),
    )
    results = list(
        paper.results.select_related("leaderboard__task", "leaderboard__dataset").order_by(
            "leaderboard__task__name", "leaderboard__dataset__name", "model"
        )
    )
    samples = list(
        paper.samples.select_related("repo", "entry", "body").order_by(
            F("repo__key").asc(nulls_last=True), "entry__name", "body__sha256_prefix"
        )
    )
    groups: dict[int | None, tuple[Repo | None, list[Sample]]] = {}
    for sample in samples:
        groups.setdefault(sample.repo_id, (sample.repo, []))[1].append(sample)
    return PaperPage(
        paper=paper, figures=paper_figures(paper), samples_by_repo=list(groups.values()), results=results
    )


class EntrySort(models.TextChoices):
    PLACES = "places", "most places"
    PAPERS = "papers", "most papers"
    RAN = "ran", "most samples ran"
    NAME = "name", "name"


# The counts are stored columns (catalogue.counters), each indexed with the id.
ENTRY_KEYS = {
    EntrySort.PLACES: [Key("n_places", True, int), Key("id", False, int)],
    EntrySort.PAPERS: [Key("n_papers", True, int), Key("id", False, int)],
    EntrySort.RAN: [Key("n_samples_ran", True, int), Key("id", False, int)],
    EntrySort.NAME: [Key("name", False, str), Key("id", False, int)],
}


def code_entries_page(
    q: str = "", sort: str = EntrySort.PLACES, *, after: str | None = None, before: str | None = None
) -> tuple[KeysetPage, dict[int, SampleFigures]]:
    """A page of code entries (named like ``q`` if given) and each one's figures."""
    sort = EntrySort(sort) if sort in EntrySort.values else EntrySort.PLACES
    entries = CodeEntry.objects.all()
    if search.words(q):
        entries = search.matching(entries, q, SearchKind.ENTRY)
    page = keyset_page(entries, ENTRY_KEYS[sort], after=after, before=before)
    return page, code_entry_figures_for(page.items)


# Newest rows first, by the sample's own id: the (entry, status), body and repo indexes
# then give a page without sorting every place (``forward`` has thousands), which an
# order by the paper's date would need.
PLACE_KEYS = [Key("id", True, int)]


def places_page(
    samples: QuerySet[Sample], *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    """A page of places (sample rows) with their paper, repository, entry and body."""
    samples = samples.select_related("paper", "repo", "entry", "body")
    return keyset_page(samples, PLACE_KEYS, after=after, before=before)


def entry_places(
    entry: CodeEntry, status: str = "", *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    samples = Sample.objects.filter(entry=entry)
    if status in Status.values:
        samples = samples.filter(status=status)
    return places_page(samples, after=after, before=before)


def repo_by_address(owner: str, name: str, host: str = "github.com") -> Repo:
    """The repository at /repo/<owner>/<name>[?host=…]; repository identity is case-insensitive."""
    repo = Repo.objects.filter(key=f"{host}/{owner}/{name}".lower()).first()
    if repo is None:
        raise Http404(f"No repository {host}/{owner}/{name}")
    return repo


LINK_KEYS = [Key("paper_month", True, str), Key("id", True, int)]


def repo_links_page(repo: Repo, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    """The papers that link ``repo`` (the archive's code links), newest paper first."""
    links = repo.code_links.select_related("paper").annotate(paper_month=F("paper__month"))
    return keyset_page(links, LINK_KEYS, after=after, before=before)


def leaderboard_results(leaderboard: Leaderboard) -> list[Result]:
    """Every result on a leaderboard with its paper, in archive order (the page sorts by metric)."""
    return list(
        leaderboard.results.select_related("paper").order_by(
            F("rank_in_archive_order").asc(nulls_last=True), "paper__month", "id"
        )
    )


def leaderboards_of(
    task: Task | None = None, method: Method | None = None, limit: int = 200
) -> list[Leaderboard]:
    """A task's leaderboards, or those where papers using a method have results; most results first."""
    return memo.remember(
        "leaderboards_of",
        (task and task.pk, method and method.pk, limit),
        lambda: _boards_of(task, method, limit),
    )


def _boards_of(task: Task | None, method: Method | None, limit: int) -> list[Leaderboard]:
    boards = Leaderboard.objects.select_related("task", "dataset")
    if task is not None:
        boards = boards.filter(task=task).annotate(n_results=Count("results"))
    else:
        boards = boards.filter(results__paper__methods=method).annotate(
            n_results=Count("results", distinct=True)
        )
    return list(boards.order_by("-n_results", "slug")[:limit])


def task_papers_page(task: Task, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    page = keyset_page(
        on_task(Paper.objects.all(), task.pk), PAPER_KEYS[PaperSort.DATE], after=after, before=before
    )
    with_list_figures(page.items)
    return page


def method_papers_page(method: Method, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    papers = using_method(Paper.objects.all(), method.pk)
    page = keyset_page(papers, PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return page


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


def _id_list(ids) -> RawSQL:
    """``ids`` as a subquery with one bound parameter, for ``pk__in=``.

    Django prepares the values of a plain ``__in`` list one by one, which for the
    thousand hits facets are counted over cost more than the query itself.
    """
    ids = [int(i) for i in ids]
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", [ids])
    return RawSQL("SELECT value FROM json_each(%s)", [json.dumps(ids)])


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
    capped = len(hits) > SEARCH_FACET_LIMIT
    items = [SearchItem(h.kind, h.object_id, h.rank) for h in hits[:SEARCH_FACET_LIMIT]]
    by_kind: dict[str, dict[int, SearchItem]] = {k: {} for k in SearchKind.values}
    for item in items:
        by_kind[item.kind][item.object_id] = item
    papers, entries, repos = (by_kind[k] for k in (SearchKind.PAPER, SearchKind.ENTRY, SearchKind.REPO))
    if papers:
        official = CodeLink.objects.filter(paper=OuterRef("pk"), is_official=True)
        for pk, month, has_official in (
            Paper.objects.filter(pk__in=_id_list(papers))
            .annotate(o=Exists(official))
            .values_list("pk", "month", "o")
        ):
            papers[pk].year = int(month[:4]) if month[:4].isdigit() else None
            papers[pk].has_official_code = has_official
        for paper_id, slug, name in Paper.tasks.through.objects.filter(
            paper_id__in=_id_list(papers)
        ).values_list("paper_id", "task__slug", "task__name"):
            papers[paper_id].tasks[slug] = name
    for field, found in (("paper_id", papers), ("entry_id", entries), ("repo_id", repos)):
        if found:
            pairs = (
                Sample.objects.filter(**{f"{field}__in": _id_list(found)})
                .values_list(field, "status")
                .distinct()
            )
            for pk, status in pairs:
                found[pk].statuses.add(status)

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
    facet_lists = {
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

    passing = [item for item in items if _passes(item, filters)]
    pages = max(1, -(-len(passing) // SEARCH_PAGE_SIZE))
    page = min(max(page, 1), pages)
    shown = passing[(page - 1) * SEARCH_PAGE_SIZE : page * SEARCH_PAGE_SIZE]
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
        entry_figures = code_entry_figures_for(found_entries)
    if wanted[SearchKind.REPO]:
        objects[SearchKind.REPO] = {r.pk: r for r in Repo.objects.filter(pk__in=wanted[SearchKind.REPO])}
    for item in shown:
        item.obj = objects.get(item.kind, {}).get(item.object_id)
    return SearchPage(
        items=[i for i in shown if i.obj is not None],
        total=len(passing),
        capped=capped,
        page=page,
        pages=pages,
        facets=facet_lists,
        entry_figures=entry_figures,
    )


def data_version() -> str:
    """A token that changes whenever the loader or a curator may have changed what pages show.

    A successful load adds a LoadRun; a correction adds a Correction row and removing one
    sets its ``removed_at``. One indexed query, so pages can be cached against it.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT MAX(id) FROM catalogue_loadrun WHERE outcome = %s),"
            " (SELECT MAX(id) FROM catalogue_correction),"
            " (SELECT MAX(removed_at) FROM catalogue_correction)",
            ["succeeded"],
        )
        return "|".join(str(value) for value in cursor.fetchone())


# --- api ---
# Reads for the JSON API (catalogue.api): each returns what one endpoint pages through,
# with everything its serializer reads joined or prefetched, so a page costs a fixed
# number of queries whatever its size. Orders end on a unique column: pages never overlap.


def _authors_in_order() -> Prefetch:
    return Prefetch("authors", queryset=Author.objects.order_by("position"))


def api_papers() -> QuerySet[Paper]:
    return Paper.objects.prefetch_related(_authors_in_order()).order_by("slug")


def api_paper(paper_id: str) -> Paper:
    """A paper by any id the API accepts: its slug (current or old), ``arxiv-…`` or its arXiv id.

    An arXiv id with a version suffix (``1811.06965v2``) names the same paper.
    """
    arxiv_id = identities.normalize_arxiv_id(paper_id)
    paper = Paper.objects.filter(arxiv_id=arxiv_id).first() if arxiv_id else None
    if paper is None:
        paper, _current = paper_by_address(paper_id)
    prefetch_related_objects(
        [paper], _authors_in_order(), Prefetch("slugs", PaperSlug.objects.order_by("slug"))
    )
    return paper


def api_search_papers() -> QuerySet[Paper]:
    """Papers with their code links, official first, for PwC's /search/ (a paper and its best repository)."""
    return api_papers().prefetch_related(
        Prefetch(
            "code_links",
            queryset=CodeLink.objects.select_related("repo").order_by(
                F("is_official").desc(nulls_last=True), "repo__key", "sub_path"
            ),
        )
    )


def api_paper_code_links(paper: Paper) -> QuerySet[CodeLink]:
    return paper.code_links.select_related("repo").order_by(
        F("is_official").desc(nulls_last=True), "repo__key", "sub_path"
    )


def api_paper_results(paper: Paper) -> QuerySet[Result]:
    return paper.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        "leaderboard__slug", "model"
    )


def _first_framework() -> Coalesce:
    """A repository's framework as its code links state it (the first, alphabetically; "" if none)."""
    stated = (
        CodeLink.objects.filter(repo=OuterRef("pk"))
        .exclude(framework="")
        .order_by("framework")
        .values("framework")
    )
    return Coalesce(Subquery(stated[:1]), models.Value(""))


def api_repositories() -> QuerySet[Repo]:
    return Repo.objects.annotate(framework=_first_framework()).order_by("key")


def api_repository(owner: str, name: str) -> Repo:
    """The repository ``owner/name``, case-insensitively; on GitHub first, as PwC's paths assume."""
    repos = api_repositories()
    repo = repos.filter(key=f"github.com/{owner}/{name}".lower()).first()
    repo = repo or repos.filter(owner__iexact=owner, name__iexact=name).first()
    if repo is None:
        raise Http404(f"No repository {owner}/{name}")
    return repo


def api_repository_papers(repo: Repo) -> QuerySet[Paper]:
    """Papers that link the repository (the archive's code links) or have samples in it."""
    linked = Q(pk__in=CodeLink.objects.filter(repo=repo).values("paper_id"))
    sampled = Q(pk__in=Sample.objects.filter(repo=repo).values("paper_id"))
    return api_papers().filter(linked | sampled)


def api_tasks() -> QuerySet[Task]:
    return Task.objects.order_by("slug")


def api_methods() -> QuerySet[Method]:
    """Methods with the papers that introduced them (PwC's ``paper`` is the first of those)."""
    return Method.objects.prefetch_related(
        Prefetch("introduced_by", queryset=Paper.objects.order_by("slug").only("id", "slug"))
    ).order_by("slug")


def api_leaderboards() -> QuerySet[Leaderboard]:
    return Leaderboard.objects.select_related("task", "dataset").order_by("slug")


def api_leaderboard_results(board: Leaderboard) -> QuerySet[Result]:
    return board.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        F("rank_in_archive_order").asc(nulls_last=True), "model", "paper__slug"
    )


def api_leaderboard_metrics(board: Leaderboard) -> list[str]:
    """The metric names a leaderboard's results state, in alphabetical order."""
    names: set[str] = set()
    for metrics in board.results.values_list("metrics", flat=True):
        names.update(metrics or {})
    return sorted(names)


def api_code_entries() -> QuerySet[CodeEntry]:
    return CodeEntry.objects.order_by("name")


def api_samples() -> QuerySet[Sample]:
    """Places with their paper, entry, body and repository, in id order (the one indexed total order)."""
    return Sample.objects.select_related("paper", "entry", "body", "repo").order_by("id")
