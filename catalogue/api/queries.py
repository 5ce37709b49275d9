"""Reads for the JSON API: each returns what one endpoint pages through.

Everything its serializer reads is joined or prefetched, so a page costs a fixed number of
queries whatever its size (serializers never query). Orders end on a unique column: pages
never overlap.
"""

from dataclasses import dataclass, field
from datetime import date
from functools import cache
from itertools import chain

from django.db import connections, models, router
from django.db.models import (
    Case,
    Exists,
    F,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    When,
)
from django.db.models.functions import Coalesce
from django.http import Http404

from catalogue import figures, identities, metrics
from catalogue.models import (
    Area,
    Author,
    AuthorName,
    CodeEntry,
    CodeLink,
    CodeLinkSource,
    Dataset,
    Leaderboard,
    Method,
    Paper,
    Repo,
    Result,
    Sample,
    Task,
)
from catalogue.pagination.paginators import counted_as
from catalogue.queries import author_names_sql, board_row_order, from_json, json_list_sql, ranked


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
    return Http404(f"No paper at /paper/{paper_id}")  # as queries.paper_by_address says it


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


def author_names() -> QuerySet:
    """Every author name once (``{"name": …}`` rows), in name order, from ``AuthorName`` (kept by
    ``catalogue.counters`` after each load), nothing counted per name."""
    return AuthorName.objects.values("name").order_by("name")


def author(name: str) -> dict:
    """An author: a name some paper's author list gives exactly (case, spaces and all), or 404."""
    if not name or not Author.objects.filter(name=name).exists():
        raise Http404(f"No author named {name!r}")
    return {"name": name}


def author_papers(name: str) -> QuerySet[Paper]:
    """Papers whose author list gives exactly ``name``, in the API's paper order (by id)."""
    return papers().filter(Exists(Author.objects.filter(paper=OuterRef("pk"), name=name)))


def proceeding_papers(spellings: tuple[str, ...]) -> QuerySet[Paper]:
    """Papers that name the proceeding in any of its spellings, in the API's paper order (by id)."""
    return papers().filter(proceeding__in=spellings)


def code_links() -> QuerySet[CodeLink]:
    """Code links as the API serves them: official first, with their repository."""
    return CodeLink.objects.select_related("repo").order_by(
        F("is_official").desc(nulls_last=True), "repo__key", "sub_path"
    )


def search_papers(*, authors: bool = True) -> QuerySet[Paper]:
    """Papers with their code links, official first, for PwC's /search/ (a paper and its best repository)."""
    return papers(authors=authors).prefetch_related(Prefetch("code_links", queryset=code_links()))


def paper_code_links(paper: Paper) -> QuerySet[CodeLink]:
    """A paper's code links, each with every source that states it."""
    sources = CodeLinkSource.objects.select_related("document", "leaderboard")
    return code_links().filter(paper=paper).prefetch_related(Prefetch("sources", queryset=sources))


def paper_results(paper: Paper) -> QuerySet[Result]:
    return paper.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        "leaderboard__slug", "model", "row_key"
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


def repositories() -> QuerySet[Repo]:
    return Repo.objects.annotate(framework=_first_framework()).order_by("key")


def repository(owner: str, name: str, host: str | None = None) -> Repo:
    """The repository ``owner/name``, case-insensitively: on ``host`` when given (``?host=``, as
    the site's /repo/ pages take it), else on GitHub first, as PwC's paths assume."""
    repos = repositories()
    if host is not None:
        repo = repos.filter(key=identities.RepoRef(host, owner, name).key).first()
    else:
        repo = repos.filter(key=identities.RepoRef("github.com", owner, name).key).first()
        repo = repo or repos.filter(owner__iexact=owner, name__iexact=name).first()
    if repo is None:
        raise Http404(f"No repository {host + '/' if host else ''}{owner}/{name}")
    return repo


def repository_papers(repo: Repo) -> QuerySet[Paper]:
    """Papers that link the repository (the archive's code links) or have samples in it."""
    return papers().in_repository(repo)


def tasks() -> QuerySet[Task]:
    return Task.objects.order_by("slug")


# A chain longer than this is taken to be a cycle in the data (the archive's deepest is far shorter).


def task_parents(task: Task) -> list[Task]:
    """The task's parent, its parent's parent… up to the root, nearest first (``Task.ancestors``)."""
    return task.ancestors()


def areas() -> QuerySet[Area]:
    return Area.objects.order_by("slug")


def datasets() -> QuerySet[Dataset]:
    """Datasets with what their serializer reads but their tasks (``with_task_ids``, once a page
    is chosen): the introducing paper (the dataset's own record's, else the first a paper
    document names) and the parent dataset."""
    return (
        Dataset.objects.select_related("introduced_in", "parent")
        .only(
            *("slug", "name", "full_name", "description", "homepage", "introduced_date", "num_papers"),
            *("modalities", "languages", "variants", "data_loaders"),
            *("introduced_in__slug", "introduced_in__title", "parent__slug"),
        )
        .prefetch_related(
            Prefetch("introduced_by", queryset=Paper.objects.order_by("slug").only("id", "slug", "title")),
        )
        .order_by("slug")
    )


def with_task_ids(datasets: list[Dataset]) -> list[Dataset]:
    """Sets ``task_ids`` on each dataset: the ids of the tasks its record names and of those its
    leaderboards are of, sorted. Two queries of (dataset, task id) pairs for a page of datasets:
    prefetching the boards built one model instance per board (ImageNet has 557 at archive size)."""
    found: dict[int, set[str]] = {dataset.pk: set() for dataset in datasets}
    named = Dataset.tasks.through.objects.filter(dataset__in=found).values_list("dataset_id", "task__slug")
    evaluated = (
        Leaderboard.objects.filter(dataset__in=found).values_list("dataset_id", "task__slug").distinct()
    )
    for dataset_id, slug in chain(named, evaluated):
        found[dataset_id].add(slug)
    for dataset in datasets:
        dataset.task_ids = sorted(found[dataset.pk])
    return datasets


def introduced_by(paper: Paper) -> set[int]:
    """Ids of the datasets the paper introduced, as the dataset's own record or a paper document says."""
    listed = Paper.datasets_introduced.through.objects.filter(paper=paper).values_list("dataset", flat=True)
    return {*Dataset.objects.filter(introduced_in=paper).values_list("pk", flat=True), *listed}


def evaluated_in(paper: Paper) -> set[int]:
    """Ids of the datasets of the leaderboards the paper has results on."""
    return set(Result.objects.filter(paper=paper).values_list("leaderboard__dataset", flat=True).distinct())


def paper_datasets(paper: Paper) -> QuerySet[Dataset]:
    """The datasets the paper introduced and those it has leaderboard results on, marked which.

    The paper's own few dataset ids first (indexed reads from the paper's side), then those rows:
    asked as conditions on every dataset, PostgreSQL tested all 15,000 of them (50 ms)."""
    introduced, evaluated = introduced_by(paper), evaluated_in(paper)
    return (
        datasets()
        .filter(pk__in=introduced | evaluated)
        .annotate(
            introduced=Case(When(pk__in=introduced, then=True), default=False),
            evaluated=Case(When(pk__in=evaluated, then=True), default=False),
        )
    )


def methods() -> QuerySet[Method]:
    """Methods with the papers that introduced them, for PwC's ``paper``: the methods dump's
    (``introduced_in``, joined) and those paper documents name (``introduced_by``, prefetched)."""
    return (
        Method.objects.select_related("introduced_in")
        .only("slug", "name", "full_name", "description", "introduced_in__slug")
        .prefetch_related(
            Prefetch("introduced_by", queryset=Paper.objects.order_by("slug").only("id", "slug"))
        )
        .order_by("slug")
    )


def leaderboards() -> QuerySet[Leaderboard]:
    return Leaderboard.objects.select_related("task", "dataset").order_by("slug")


def leaderboard_results(board: Leaderboard) -> QuerySet[Result]:
    return board.results.select_related("paper", "leaderboard__task", "leaderboard__dataset").order_by(
        # NULLs placed (a row without a paper): PostgreSQL sorts them last, SQLite first
        F("rank_in_archive_order").asc(nulls_last=True),
        "model",
        F("paper__slug").asc(nulls_first=True),
        "row_key",
    )


def best_ranks(results) -> dict[int, tuple[str, int]]:
    """PwC's ``best_metric`` and ``best_rank`` of each of ``results`` that states a number for
    its board's ranking metric: that metric and the row's place on the board ranked by it, as
    the leaderboard page ranks it (:func:`catalogue.queries.ranked`). One query for every board of
    the page (each row's metrics); ``results`` carry their ``leaderboard``."""
    boards = {result.leaderboard_id: result.leaderboard for result in results}
    rows = (
        Result.objects.filter(leaderboard_id__in=list(boards))
        .order_by("leaderboard_id", *board_row_order())
        .only("id", "leaderboard_id", "metrics")
    )
    of_board: dict[int, list[Result]] = {board_id: [] for board_id in boards}
    for row in rows:
        of_board[row.leaderboard_id].append(row)
    wanted = {result.pk for result in results}
    best: dict[int, tuple[str, int]] = {}
    for board_id, board_rows in of_board.items():
        metric, _, ordered = ranked(boards[board_id], board_rows)
        if not metric:
            continue
        for rank, row in enumerate(ordered, 1):
            if row.pk in wanted and metrics.parse((row.metrics or {}).get(metric)) is not None:
                best[row.pk] = (metric, rank)
    return best


def leaderboard_metrics(board: Leaderboard) -> list[str]:
    """The metric names a leaderboard's results state, in alphabetical order."""
    names: set[str] = set()
    for stated in board.results.values_list("metrics", flat=True):
        names.update(stated or {})
    return sorted(names)


def code_entries() -> QuerySet[CodeEntry]:
    return CodeEntry.objects.order_by("name")


def samples() -> QuerySet[Sample]:
    """Places in id order (the one indexed total order), to be filtered, counted, then read as
    ``place_rows``."""
    return Sample.objects.order_by("id")


# What a place's API row shows, as plain columns of one joined read (serializers.SampleSerializer
# shapes them): a page of 50 places was about 250 model instances (place, paper, entry, body,
# repository), most of the request (bench/README.md, "Issue 35: uncached reads").
PLACE_COLUMNS = (
    "id",
    "paper__slug",
    "paper__arxiv_id",
    "paper__title",
    "entry__slug",
    "entry__name",
    "body__sha256_prefix",
    "body__code_language",
    "shown_code",
    "repo_id",
    "repo__owner",
    "repo__name",
    "repo__host",
    "path",
    "file_url",
    "status",
    "status_upstream",
    "status_corrected",
    "verification_level",
    "contract_check",
    "metamorphic_tier",
    "behaviour_fingerprint",
    "licence",
    "inline_ok",
    "repo_kind",
    "link_basis",
    "language",
)


def place_rows(places: QuerySet[Sample]) -> QuerySet:
    """``places`` (``samples()``, filtered) as named tuples of ``PLACE_COLUMNS`` with their paper,
    entry, body and repository, and the body's text only where the place shows it (``shown_code``),
    no model instance; paged and walked by cursor (``id``) as the model's were, and counted as
    ``places``, without the joins."""
    rows = places.with_shown_code().values_list(*PLACE_COLUMNS, named=True)
    return counted_as(rows, places)
