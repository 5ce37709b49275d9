"""Reads for the public pages: each page's objects, fetched with what it shows in a fixed number of queries.

Lists are keyset-paginated ("after this row", ``catalogue.pagination.keyset``), never by
OFFSET, so page 10,000 costs what page 1 does. Filters are the models' query vocabulary
(``Paper.objects.with_code()``…); figures come from ``catalogue.figures``; the JSON API's
reads are ``catalogue.api.queries``.
"""

import json
from collections import Counter
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db import connection, connections, models, router
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.http import Http404
from django.urls import reverse

from catalogue import charts, figures, identities, memo, metrics, search
from catalogue.figures import PaperFigures, SampleFigures
from catalogue.models import (
    Author,
    CodeBody,
    CodeEntry,
    CodeLink,
    Correction,
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
from catalogue.models.corrections import attach_status_corrections, title_correction
from catalogue.models.papers import has_official_code
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page


class CompiledQuery:
    """A queryset of fixed shape, compiled to SQL once per database and run with its one
    parameter put in. The ORM states the query, with the model's own rules (``SHOWS_CODE``,
    ``Correction.objects.of_paper``); a hot page does not build it again on every request.
    The paper page's two: 0.73 + 1.07 ms built per request, 0.18 + 0.06 ms compiled once, on a
    page of about 3 ms (20,000 papers, in process; bench/README.md, issue 16).

    ``build(value, alias)`` returns the queryset for ``value``; ``marker`` is a value no real
    call passes, found among the compiled parameters to know where ``value`` goes.
    """

    def __init__(self, build, marker):
        self.build, self.marker = build, marker
        self._compiled: dict[str, tuple[str, tuple, int]] = {}

    def sql(self, alias: str, value) -> tuple[str, list]:
        if alias not in self._compiled:
            sql, params = self.build(self.marker, alias).using(alias).query.sql_with_params()
            if params.count(self.marker) != 1:  # the marker must name the one place value goes
                raise ValueError(
                    f"{self.marker!r} is in the compiled parameters {params.count(self.marker)} times"
                )
            self._compiled[alias] = (sql, params, params.index(self.marker))
        sql, params, at = self._compiled[alias]
        return sql, [*params[:at], value, *params[at + 1 :]]


def json_list_sql(vendor: str, value: str, source: str, order: str) -> str:
    """A subquery: ``value`` of each row of ``source`` (``FROM … WHERE …``, correlated as it
    likes) in ``order``, as a JSON array ('[]' for none), written as each database writes it.
    Read the result with :func:`from_json`."""
    if vendor == "postgresql":
        return f"(SELECT COALESCE(json_agg({value} ORDER BY {order}), '[]') {source})"
    # SQLite's json_group_array keeps its subquery's order
    return f"(SELECT json_group_array(v) FROM (SELECT {value} AS v {source} ORDER BY {order}))"


def from_json(value):
    return json.loads(value) if isinstance(value, str) else value  # SQLite: text; psycopg: decoded


def author_names_sql(vendor: str, paper_id: str) -> str:
    """The names of the authors of the paper whose id is ``paper_id`` (a column), in order."""
    authors = f"FROM catalogue_author a WHERE a.paper_id = {paper_id}"
    return json_list_sql(vendor, "a.name", authors, "a.position")


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


@dataclass(frozen=True)
class Topic:
    """A task, method or dataset as the paper page links it."""

    name: str
    full_name: str  # a method's full name, else ""
    url: str


# The paper page's topic lists: (Paper's many-to-many field, the model's full-name column or None).
TOPICS = {
    "tasks": ("tasks", None),
    "methods": ("methods", None),
    "methods_introduced": ("methods_introduced", "full_name"),
    "datasets_introduced": ("datasets_introduced", None),
}


def paper_topics(paper: Paper) -> dict[str, list[Topic]]:
    """The paper's tasks, methods, methods introduced and datasets introduced, each by name (then
    slug): one query of four joins (four prefetches built and compiled four querysets before)."""
    db = _page_db(paper)
    selects = []
    for position, (relation, full_name) in enumerate(TOPICS.values()):
        field = Paper._meta.get_field(relation)
        table = db.ops.quote_name(field.related_model._meta.db_table)
        through = db.ops.quote_name(field.remote_field.through._meta.db_table)
        selects.append(
            f"SELECT {position} AS k, t.slug, t.name, {'t.' + full_name if full_name else "''"} AS full_name "
            f"FROM {table} t JOIN {through} x ON x.{field.m2m_reverse_name()} = t.id "
            f"WHERE x.{field.m2m_column_name()} = %s"
        )
    topics: dict[str, list[Topic]] = {name: [] for name in TOPICS}
    names = list(TOPICS)
    urls = {
        "tasks": "task",
        "methods": "method",
        "methods_introduced": "method",
        "datasets_introduced": "dataset",
    }
    with db.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(selects) + " ORDER BY 1, 3, 2", [paper.pk] * len(selects))
        for position, slug, name, full in cursor.fetchall():
            kind = names[position]
            topics[kind].append(Topic(name=name, full_name=full or "", url=reverse(urls[kind], args=[slug])))
    return topics


@dataclass(frozen=True)
class ResultRow:
    """A result as the paper page lists it."""

    pk: int
    url: str  # its leaderboard's page
    task_name: str
    dataset_name: str
    model: str
    rank_in_archive_order: int | None
    of: int | None
    metrics: dict
    uses_additional_data: bool | None


def _flag(value) -> bool | None:
    return None if value is None else bool(value)  # SQLite gives 0 / 1


def _page_db(paper: Paper):
    return connections[paper._state.db or router.db_for_read(Paper)]  # where the paper was read


def paper_results(paper: Paper) -> list[ResultRow]:
    """The paper's results by task, dataset, model: one query written for the page, which shows
    five columns of them (the ORM's select_related built a Result, a Leaderboard, a Task and a
    Dataset per row, with every column of each)."""
    sql = (
        "SELECT r.id, b.slug, t.name, d.name, r.model, r.rank_in_archive_order, r.of, r.metrics, "
        "r.uses_additional_data FROM catalogue_result r "
        "JOIN catalogue_leaderboard b ON b.id = r.leaderboard_id "
        "JOIN catalogue_task t ON t.id = b.task_id JOIN catalogue_dataset d ON d.id = b.dataset_id "
        "WHERE r.paper_id = %s ORDER BY t.name, d.name, r.model, r.row_key"
    )
    with _page_db(paper).cursor() as cursor:
        cursor.execute(sql, [paper.pk])
        return [
            ResultRow(
                pk=pk,
                url=reverse("leaderboard", args=[slug]),
                task_name=task,
                dataset_name=dataset,
                model=model,
                rank_in_archive_order=rank,
                of=of,
                metrics=from_json(metrics),
                uses_additional_data=_flag(extra),
            )
            for pk, slug, task, dataset, model, rank, of, metrics, extra in cursor.fetchall()
        ]


@dataclass(frozen=True)
class RepoRef:
    """A repository as a paper's code links show it."""

    owner: str
    name: str
    host: str
    spdx: str
    reach_status: str

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


@dataclass(frozen=True)
class LinkSource:
    """One source that states a code link: its kind of document, and the board whose row gave it."""

    kind: str  # a DocumentKind
    board_slug: str | None = None
    board_name: str | None = None

    @property
    def label(self) -> str:
        """Where the link comes from, in words ("the links dump", "a row of <board>")."""
        return LINK_SOURCE_LABELS.get(self.kind, self.kind)


LINK_SOURCE_LABELS = {
    "paper": "the paper's document",
    "archive_links": "the archive's links dump",
    "archive_evaluations": "a leaderboard row",
}


@dataclass(frozen=True)
class LinkRow:
    """A code link as the paper page lists it, with every source that states it."""

    pk: int
    repo: RepoRef
    repo_url: str
    sub_path: str
    is_official: bool | None
    mentioned_in_paper: bool | None
    framework: str
    mentioned_in_github: bool | None = None
    sources: list[LinkSource] = dataclass_field(default_factory=list)


def paper_code_links(paper: Paper) -> list[LinkRow]:
    """The archive's code links of the paper: official first, then not official, then not stated
    (mentioned in the paper first within each), then by repository; each with every source that
    states it (a row each, joined). One query written for the page."""
    sql = (
        "SELECT l.id, r.owner, r.name, r.host, r.spdx, r.reach_status, l.repo_url, l.sub_path, "
        "l.is_official, l.mentioned_in_paper, l.framework, l.mentioned_in_github, "
        "d.kind, lb.slug, t.name, ds.name "
        "FROM catalogue_codelink l JOIN catalogue_repo r ON r.id = l.repo_id "
        "LEFT JOIN catalogue_codelinksource x ON x.link_id = l.id "
        "LEFT JOIN catalogue_sourcedocument d ON d.id = x.document_id "
        "LEFT JOIN catalogue_leaderboard lb ON lb.id = x.leaderboard_id "
        "LEFT JOIN catalogue_task t ON t.id = lb.task_id "
        "LEFT JOIN catalogue_dataset ds ON ds.id = lb.dataset_id "
        "WHERE l.paper_id = %s "
        "ORDER BY l.is_official IS NULL, l.is_official DESC, "
        "l.mentioned_in_paper IS NULL, l.mentioned_in_paper DESC, r.key, l.sub_path, d.kind, lb.slug"
    )
    with _page_db(paper).cursor() as cursor:
        cursor.execute(sql, [paper.pk])
        links: dict[int, LinkRow] = {}
        for row in cursor.fetchall():
            pk, owner, name, host, spdx, reach, url, sub_path, official, mentioned, framework = row[:11]
            in_github, kind, board, task, dataset = row[11:]
            link = links.get(pk)
            if link is None:
                link = links[pk] = LinkRow(
                    pk=pk,
                    repo=RepoRef(owner=owner, name=name, host=host, spdx=spdx, reach_status=reach),
                    repo_url=url,
                    sub_path=sub_path,
                    is_official=_flag(official),
                    mentioned_in_paper=_flag(mentioned),
                    framework=framework,
                    mentioned_in_github=_flag(in_github),
                )
            if kind:
                link.sources.append(LinkSource(kind, board, f"{task} on {dataset}" if board else None))
        return list(links.values())


@dataclass
class PaperPlace:
    """A place as the paper page lists it: plain values, no model instance. ``figures.place_row``
    reads the same attribute names as of a ``Sample``; ``attach_status_corrections`` sets
    ``status_correction``."""

    pk: int
    paper_id: int
    body_id: int
    repo_id: int | None
    repo_kind: str | None
    status: str
    status_upstream: str
    status_corrected: bool
    inline_ok: bool
    behaviour_fingerprint: bool
    path: str
    file_url: str | None
    verification_level: int
    contract_check: str | None
    metamorphic_tier: str | None
    licence: str | None
    entry_name: str
    entry_slug: str
    body_prefix: str  # the body's sha256_prefix: its address
    code_shown: bool  # as Sample.objects.with_code_links() says it
    repo: RepoRef | None
    status_correction: Correction | None = None


# The columns of a PaperPlace, in its order: the place's own, its entry's, its body's address,
# ``code_shown`` as ``Sample.objects.with_code_links()`` annotates it (SHOWS_CODE, stated once),
# then its repository's.
_PLACE_COLUMNS = (
    *("id", "paper_id", "body_id", "repo_id", "repo_kind", "status", "status_upstream"),
    *("status_corrected", "inline_ok", "behaviour_fingerprint", "path", "file_url"),
    *("verification_level", "contract_check", "metamorphic_tier", "licence"),
    *("entry__name", "entry__slug", "body__sha256_prefix", "code_shown"),
    *("repo__owner", "repo__name", "repo__host", "repo__spdx", "repo__reach_status"),
)
_BEFORE_REPO = len(_PLACE_COLUMNS) - 5  # the PaperPlace fields before ``repo``
_PAPER_PLACES = CompiledQuery(
    lambda paper_id, alias: (
        Sample.objects.filter(paper_id=paper_id)
        .with_code_links()
        .order_by(F("repo__key").asc(nulls_last=True), "entry__name", "body__sha256_prefix")
        .values_list(*_PLACE_COLUMNS)
    ),
    marker=-(2**62) + 7,  # an id no paper has
)


def paper_places(paper: Paper) -> list[PaperPlace]:
    """Every place of the paper with its entry, body, repository and whether its code is shown,
    grouped by repository (none last), then by entry name and body: one query of plain rows (a
    queryset of places built a Sample, a Repo, a CodeEntry and a CodeBody per place), compiled once."""
    db = _page_db(paper)
    with db.cursor() as cursor:
        cursor.execute(*_PAPER_PLACES.sql(db.alias, paper.pk))
        rows = cursor.fetchall()
    places = []
    for row in rows:
        repo = None
        if row[3] is not None:  # repo_id
            owner, name, host, spdx, reach = row[_BEFORE_REPO:]
            repo = RepoRef(owner=owner, name=name, host=host, spdx=spdx, reach_status=reach)
        place = PaperPlace(*row[:_BEFORE_REPO], repo=repo)
        place.code_shown = bool(place.code_shown)  # SQLite: an expression's truth is 0 / 1
        places.append(place)
    attach_status_corrections(places)  # no query unless a place's status is corrected
    return places


@dataclass(frozen=True)
class PaperPage:
    paper: Paper
    figures: PaperFigures
    samples_by_repo: list[tuple[RepoRef | None, list[PaperPlace]]]
    results: list[ResultRow]
    title_correction: Correction | None = None  # the active one; its places carry theirs
    has_corrections: bool = False  # any correction ever, removed ones too: link the history
    topics: dict[str, list[Topic]] = dataclass_field(default_factory=dict)  # paper_topics
    code_links: list[LinkRow] = dataclass_field(default_factory=list)  # paper_code_links


def paper_page(paper: Paper) -> PaperPage:
    """Everything the paper page shows of ``paper`` (as :func:`paper_by_address` reads it, its
    author names with it), in a fixed number of queries."""
    places = paper_places(paper)
    groups: dict[int | None, tuple[RepoRef | None, list[PaperPlace]]] = {}
    for place in places:
        groups.setdefault(place.repo_id, (place.repo, []))[1].append(place)
    return PaperPage(
        paper=paper,
        # counted from the places just fetched, which are every place of the paper: no query
        figures=figures.paper_figures_of(map(figures.place_row, places)),
        samples_by_repo=list(groups.values()),
        results=paper_results(paper),
        title_correction=title_correction(paper),
        has_corrections=paper.has_corrections,
        topics=paper_topics(paper),
        code_links=paper_code_links(paper),
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
    return page, figures.code_entry_figures_for(page.items)


# Newest rows first, by the sample's own id: the (entry, status), body and repo indexes
# then give a page without sorting every place (``forward`` has thousands), which an
# order by the paper's date would need.
PLACE_KEYS = [Key("id", True, int)]


def places_page(
    samples: QuerySet[Sample], *, after: str | None = None, before: str | None = None
) -> KeysetPage:
    """A page of places (sample rows) with their paper, repository, entry and body."""
    samples = samples.with_code_links().select_related("paper", "repo", "entry")
    page = keyset_page(samples, PLACE_KEYS, after=after, before=before)
    attach_status_corrections(page.items)
    return page


# Of the places that may show a body's text, the one its page shows it from: one with a
# repository first (its attribution names one), then by natural keys, the same on every database.
SHOWN_FROM_ORDER = (F("repo__key").asc(nulls_last=True), "path", "paper__slug", "entry__name")
FILE_URLS_SHOWN = 5


@dataclass(frozen=True)
class BodyCode:
    """What a code body's page says of its text."""

    shown_from: Sample | None  # the place whose licence lets the text be shown, with the text
    held: bool  # the catalogue holds a text of the body (shown or not)
    file_urls: list[str]  # where a few of its places' files are: where to get the code


def body_code(body: CodeBody) -> BodyCode:
    """The place a body's text is shown from (``SHOWS_CODE``), or where to get the text instead."""
    shown_from = (
        body.samples.showing_code()
        .select_related("paper", "repo", "entry", "body")
        .order_by(*SHOWN_FROM_ORDER)
        .first()
    )
    held = shown_from is not None or CodeBody.objects.with_code().filter(pk=body.pk).exists()
    file_urls = list(
        body.samples.exclude(file_url=None)
        .exclude(file_url="")
        .order_by("file_url")
        .values_list("file_url", flat=True)
        .distinct()[:FILE_URLS_SHOWN]
    )
    return BodyCode(shown_from=shown_from, held=held, file_urls=file_urls)


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


def board_row_order() -> tuple:
    """The order a leaderboard's rows are read in before ranking (ties in the ranking keep it):
    archive order, ending on the row's own key, not the id: the same order on every database
    (NULLs placed: a row without a paper has no month, which PostgreSQL sorts last, SQLite first)."""
    return (
        F("rank_in_archive_order").asc(nulls_last=True),
        F("paper__month").asc(nulls_first=True),
        "model",
        "row_key",
    )


def leaderboard_results(leaderboard: Leaderboard) -> list[Result]:
    """Every result on a leaderboard with its paper (if it names one), in archive order."""
    return list(leaderboard.results.select_related("paper").order_by(*board_row_order()))


@dataclass(frozen=True)
class BoardRows:
    """One page of a ranked board's rows, and where they sit on the whole board."""

    results: list[Result]  # this page's results, in the board's order
    number: int  # this page, from 1
    pages: int  # pages of the whole board (1 for a board without results)
    first_rank: int  # the whole board's rank of the first row: row 101 is #101 on page 2

    @property
    def last_rank(self) -> int:
        return self.first_rank + len(self.results) - 1


@dataclass(frozen=True)
class LeaderboardPage:
    results: list[Result]  # every result, best first by ``metric``
    metric: str | None  # the column the board is ranked by (None: no result states a metric)
    metric_names: list[str]  # the table's columns in its order (else every metric stated), ranking one first
    direction: str | None  # "higher", "lower", or None: not known from the metric's name
    over_time: list[charts.Point]  # each result with a value and a date: (when, value, label)

    @property
    def lower_is_better(self) -> bool:
        return self.direction == "lower"

    def pages(self, size: int) -> int:
        return max(1, -(-len(self.results) // size))

    def rows(self, number: int, size: int) -> BoardRows:
        """Page ``number`` (from 1) of ``size`` rows of the ranked board: the last page past the
        last, the first before the first.

        A page of the ranked list, not a keyset: the board is ranked in Python by the parsed
        metric (``catalogue.metrics``), so every page reads the whole board (a few hundred rows
        at most) in the same queries and takes its slice.
        """
        pages = self.pages(size)
        number = min(max(number, 1), pages)
        start = (number - 1) * size
        return BoardRows(self.results[start : start + size], number, pages, first_rank=start + 1)


def leaderboard_page(board: Leaderboard, metric: str = "") -> LeaderboardPage:
    """A leaderboard ranked by ``metric`` when its results state it, else as the field ranks it.

    A table the archive gives ranks by its first quality column (``sota.metrics`` order, never a
    cost column beside a quality one); a board without one, by the metric most results state.
    """
    metric, names, ordered = ranked(board, leaderboard_results(board), metric)
    points = []
    for result in ordered:
        value = metrics.parse((result.metrics or {}).get(metric)) if metric else None
        when = metrics.fractional_year(result.paper.month if result.paper else _month(result.paper_date))
        if value is not None and when is not None:
            label = f"{result.model} ({result_source(result)})"
            points.append(charts.Point(when, value, label, result.model))
    return LeaderboardPage(
        results=ordered,
        metric=metric,
        metric_names=names,
        direction=metrics.direction(metric) if metric else None,
        over_time=points,
    )


def ranked(board: Leaderboard, results: list[Result], metric: str = "") -> tuple[str | None, list[str], list]:
    """How :func:`leaderboard_page` ranks a board (the API's ``best_metric`` and ``best_rank`` too):
    the metric, the metric names (the table's columns in its order, then the others stated; the
    ranking one first) and ``results`` best first. ``results`` are the board's rows in
    :func:`board_row_order`; each needs only its ``metrics``."""
    stated = {name for r in results for name in (r.metrics or {}) if isinstance(name, str)}
    columns = [name for name in board.metrics or [] if name in stated]
    names = columns + sorted(stated - set(columns))
    if metric not in stated:
        metric = (
            metrics.ranking_metric(columns) if columns else metrics.primary_metric(r.metrics for r in results)
        )
    if metric:
        names = [metric] + [name for name in names if name != metric]  # the sorting column first
    return metric, names, metrics.ordered(results, metric, lambda r: r.metrics)


def _month(date) -> str:
    return date.isoformat()[:7] if date else ""


def result_date():
    """A result's date as an expression: its paper's date, else the date the row gives."""
    return Coalesce("paper__date", "paper_date")


def result_source(result: Result) -> str:
    """What a result row comes from, in words: its paper's title, or what the row names instead."""
    if result.paper:
        return result.paper.title or result.paper.slug
    return result.paper_title or result.paper_url or "no paper"


def leaderboards_of_method(method: Method, limit: int = 200) -> list[Leaderboard]:
    """Leaderboards where papers using a method have results, with ``n_method_results`` (theirs)
    beside the stored ``n_results`` (all); most of theirs first. A task's and a dataset's boards
    are read from the stored counts (``catalogue.browse.queries.boards_shown``)."""
    return memo.remember("leaderboards_of_method", (method.pk, limit), lambda: _boards_of(method, limit))


def _boards_of(method: Method, limit: int) -> list[Leaderboard]:
    boards = (
        Leaderboard.objects.select_related("task", "dataset")
        .filter(results__paper__methods=method)
        .annotate(n_method_results=Count("results", distinct=True))
    )
    return list(boards.order_by("-n_method_results", "slug")[:limit])


def task_papers_page(task: Task, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    page = keyset_page(Paper.objects.on_task(task.pk), PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return page


def method_papers_page(method: Method, *, after: str | None = None, before: str | None = None) -> KeysetPage:
    papers = Paper.objects.using_method(method.pk)
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
        for pk, month, has_official in (
            Paper.objects.filter(pk__in=_id_list(papers))
            .annotate(o=has_official_code())
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
        entry_figures = figures.code_entry_figures_for(found_entries)
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
