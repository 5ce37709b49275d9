"""The paper page's reads: its topics, results, code links and places, read in a fixed number of
queries (``paper_page``), which its JSON and Markdown forms do not use (they are the API's).
"""

from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db import connections, router
from django.db.models import F
from django.urls import reverse

from catalogue import figures
from catalogue.figures import PaperFigures
from catalogue.models import Correction, Paper, Sample
from catalogue.models.corrections import attach_status_corrections, title_correction
from catalogue.reads.sql import CompiledQuery, from_json


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


def _page_rows(paper: Paper, sql: str) -> list[tuple]:
    """The rows of ``sql`` for the paper's id, read where the paper was read."""
    with _page_db(paper).cursor() as cursor:
        cursor.execute(sql, [paper.pk])
        return cursor.fetchall()


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
        for pk, slug, task, dataset, model, rank, of, metrics, extra in _page_rows(paper, sql)
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
    links: dict[int, LinkRow] = {}
    for row in _page_rows(paper, sql):
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
