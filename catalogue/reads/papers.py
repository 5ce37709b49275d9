"""Reads of papers: a paper by its address or its arXiv id, the papers list (sorts, filters,
keyset pages) and a list row's figures, the home page's counts, and the API's papers (by any id
it accepts, a paper's detail as one row, its code links and results).
"""

from dataclasses import dataclass, field
from datetime import date
from functools import cache

from django.db import connections, models, router
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects
from django.db.models.expressions import RawSQL
from django.http import Http404

from catalogue import figures, identities, memo
from catalogue.models import (
    Author,
    CodeBody,
    CodeEntry,
    CodeLink,
    CodeLinkSource,
    Correction,
    Leaderboard,
    Method,
    Paper,
    PaperSlug,
    Repo,
    Result,
    Sample,
    Task,
)
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page
from catalogue.reads.code import code_links
from catalogue.reads.sql import CompiledQuery, author_names_sql, from_json, json_list_sql

_PAPER_AT = CompiledQuery(
    lambda slug, alias: (
        Paper.objects.filter(slug=slug)
        .annotate(
            author_names=RawSQL(author_names_sql(connections[alias].vendor, "catalogue_paper.id"), []),
            has_corrections=Exists(Correction.objects.of_paper(OuterRef("pk"))),  # the history's rule
        )
        .order_by()[:1]
    ),
    marker="\x00slug",  # a slug never holds U+0000
)


def paper_by_address(slug: str) -> tuple[Paper, bool]:
    """The paper at ``/paper/<slug>`` and whether ``slug`` is its current address.

    Any slug the paper was ever published under finds it, and so do
    ``arxiv-<id with dots as dashes>`` and the bare arXiv id (``1811.06965v2``): a slug never
    holds a dot. Callers redirect when the second value is False.

    The paper at its current address comes with what its page and BibTeX read of it beyond its
    columns, in the same query: ``author_names`` (in order) and ``has_corrections``.
    """
    alias = router.db_for_read(Paper)
    for paper in Paper.objects.using(alias).raw(*_PAPER_AT.sql(alias, slug)):
        paper.author_names = from_json(paper.author_names)
        paper.has_corrections = bool(paper.has_corrections)  # SQLite gives 0 / 1
        return paper, True
    old = PaperSlug.objects.select_related("paper").filter(slug=slug).first()
    if old:
        return old.paper, False
    arxiv_id = identities.arxiv_id_from_slug(slug) or identities.normalize_arxiv_id(slug)
    if arxiv_id and (paper := Paper.objects.filter(arxiv_id=arxiv_id).first()):
        return paper, False
    raise Http404(f"No paper at /paper/{slug}")


def paper_by_arxiv_id(value: str) -> Paper:
    """The paper with the arXiv id ``value`` (new or old style, with or without a version)."""
    arxiv_id = identities.normalize_arxiv_id(value)
    paper = Paper.objects.filter(arxiv_id=arxiv_id).first() if arxiv_id else None
    if paper is None:
        raise Http404(f"No paper with the arXiv id {value}")
    return paper


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
    sample_figures = figures.paper_sample_figures_for(papers)
    links = {
        row["paper_id"]: row
        for row in CodeLink.objects.filter(paper__in=papers)
        .values("paper_id")
        .annotate(n=Count("id"), official=Count("id", filter=Q(is_official=True)))
        .order_by()
    }
    for paper in papers:
        paper.figures = sample_figures[paper.pk]
        paper.n_code_links = links.get(paper.pk, {}).get("n", 0)
        paper.has_official_code = bool(links.get(paper.pk, {}).get("official"))
    return papers


class PaperSort(models.TextChoices):
    DATE = "date", "newest first"
    TITLE = "title", "title"
    SAMPLES = "samples", "most samples"
    ADDED = "added", "recently added"
    CODE = "code", "most code"


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
    # ids grow with each load's new papers: the catalogue took the highest last (the primary key)
    PaperSort.ADDED: [Key("id", True, int)],
    PaperSort.CODE: [Key("n_code_links", True, int), Key("id", True, int)],  # catalogue.counters
}


def filtered_papers(filters: PaperFilters) -> QuerySet[Paper]:
    papers = Paper.objects.all()
    if filters.task:
        papers = papers.on_task(Task.objects.filter(slug=filters.task).values_list("id", flat=True).first())
    if filters.method:
        papers = papers.using_method(
            Method.objects.filter(slug=filters.method).values_list("id", flat=True).first()
        )
    if filters.year:
        papers = papers.in_year(filters.year)
    if filters.has_code:
        papers = papers.with_code()
    if filters.has_official_code:
        papers = papers.with_official_code()
    if filters.has_ran_samples:
        papers = papers.with_ran_samples()
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


def _authors_in_order() -> Prefetch:
    return Prefetch("authors", queryset=Author.objects.order_by("position"))


def papers(*, authors: bool = True) -> QuerySet[Paper]:
    """Papers by slug, their authors prefetched; ``authors=False`` for a list that reads a page's
    names with :func:`author_names_of` instead (one query, no instance per author)."""
    papers = Paper.objects.order_by("slug")
    return papers.prefetch_related(_authors_in_order()) if authors else papers


def author_names_of(papers) -> dict[int, list[str]]:
    """Each paper's author names, in order, in one query: what a page of papers shows of them."""
    names: dict[int, list[str]] = {paper.pk: [] for paper in papers}
    rows = Author.objects.filter(paper_id__in=list(names)).order_by("paper_id", "position")
    for paper_id, name in rows.values_list("paper_id", "name"):
        names[paper_id].append(name)
    return names


# The id of the paper any id the API accepts names, in this order: its arXiv id (a version suffix,
# ``1811.06965v2``, names the same paper), its slug, an old slug, the arXiv id an ``arxiv-…`` slug
# spells. Parameters: _lookup_params. The one statement of the rule, for a paper and its detail.
_PAPER_ID = (
    "SELECT f.id FROM ("
    "SELECT id, 0 AS k FROM catalogue_paper WHERE arxiv_id = %s "
    "UNION ALL SELECT id, 1 FROM catalogue_paper WHERE slug = %s "
    "UNION ALL SELECT paper_id, 2 FROM catalogue_paperslug WHERE slug = %s "
    "UNION ALL SELECT id, 3 FROM catalogue_paper WHERE arxiv_id = %s"
    ") f ORDER BY f.k LIMIT 1"
)


def _lookup_params(paper_id: str) -> list:
    arxiv_id = identities.normalize_arxiv_id(paper_id)
    return [arxiv_id, paper_id, paper_id, identities.arxiv_id_from_slug(paper_id) or arxiv_id]


def _no_paper(paper_id: str) -> Http404:
    return Http404(f"No paper at /paper/{paper_id}")  # as paper_by_address says it


def paper(paper_id: str) -> Paper:
    """A paper by any id the API accepts (``_PAPER_ID``), in one query."""
    found = list(
        Paper.objects.raw(f"SELECT * FROM catalogue_paper WHERE id = ({_PAPER_ID})", _lookup_params(paper_id))
    )
    if not found:
        raise _no_paper(paper_id)
    return found[0]  # a list's authors: author_names_of; the detail reads its own with it (paper_detail)


@dataclass
class PaperRow:
    """What a paper's detail reads of it (as ``PaperDetailSerializer`` names the fields), its
    authors' names and other slugs, and its places as ``figures.paper_figures_of`` reads them."""

    pk: int
    slug: str
    arxiv_id: str | None
    url_abs: str
    url_pdf: str
    title: str
    abstract: str
    date: date | None
    proceeding: str
    conference: str
    conference_url_abs: str
    conference_url_pdf: str
    nips_id: str
    title_source: str | None
    month: str
    title_corrected: bool
    title_upstream: str
    authors: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    places: list[dict] = field(default_factory=list)

    month_is_inferred = property(Paper.month_is_inferred.fget)  # the model's own rule


_ROW_FIELDS = [f for f in PaperRow.__dataclass_fields__ if f not in ("pk", "authors", "aliases", "places")]
_PLACE_FIELDS = (*figures.PLACE_FIELDS, "repo_kind")


@cache
def _detail_sql(vendor: str) -> str:
    """One statement: the paper any id names (the precedence of :func:`paper`: its arXiv id,
    its slug, an old slug, the arXiv id a slug gives), its columns, and as JSON arrays its
    authors' names in order, its other slugs in order and its places' figure fields."""
    columns = ", ".join(f"p.{Paper._meta.get_field(name).column}" for name in _ROW_FIELDS)
    place = ", ".join(f"x.{Sample._meta.get_field(name).column}" for name in _PLACE_FIELDS)
    aliases = "FROM catalogue_paperslug s WHERE s.paper_id = p.id AND s.slug <> p.slug"
    places = "FROM catalogue_sample x WHERE x.paper_id = p.id"
    if vendor == "postgresql":
        place_list = f"(SELECT COALESCE(json_agg(json_build_array({place})), '[]') {places})"
    else:  # a row's json_array keeps its JSON type only outside a subquery: no ORDER BY here
        place_list = f"(SELECT json_group_array(json_array({place})) {places})"
    lists = ", ".join(
        [author_names_sql(vendor, "p.id"), json_list_sql(vendor, "s.slug", aliases, "s.slug"), place_list]
    )
    return f"SELECT p.id, {columns}, {lists} FROM catalogue_paper p WHERE p.id = ({_PAPER_ID})"


def paper_detail(paper_id: str) -> PaperRow:
    """:func:`paper`, with its authors, aliases and places, in one query and no model instance."""
    connection = connections[router.db_for_read(Paper)]
    with connection.cursor() as cursor:
        cursor.execute(_detail_sql(connection.vendor), _lookup_params(paper_id))
        found = cursor.fetchone()
    if found is None:
        raise _no_paper(paper_id)
    pk, *values, authors, aliases, places = found
    row = PaperRow(pk, *values, from_json(authors), from_json(aliases))
    if isinstance(row.date, str):  # SQLite's raw cursor: no converters
        row.date = date.fromisoformat(row.date)
    row.title_corrected = bool(row.title_corrected)
    row.places = [dict(zip(_PLACE_FIELDS, place, strict=True)) for place in from_json(places)]
    return row


def search_papers(*, authors: bool = True) -> QuerySet[Paper]:
    """Papers with their code links, official first, for PwC's /search/ (a paper and its best repository)."""
    return papers(authors=authors).prefetch_related(Prefetch("code_links", queryset=code_links()))


def code_links_of(paper: Paper) -> QuerySet[CodeLink]:
    """A paper's code links, each with every source that states it."""
    sources = CodeLinkSource.objects.select_related("document", "leaderboard")
    return code_links().filter(paper=paper).prefetch_related(Prefetch("sources", queryset=sources))


def results_of(paper: Paper) -> QuerySet[Result]:
    return paper.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        "leaderboard__slug", "model", "row_key"
    )
