"""The public pages: thin views over ``catalogue.queries`` and ``catalogue.figures``.

Every view reads its query string through the small parsers below, which turn anything
malformed (a bad page number, a forged cursor, a NUL byte, a huge value) into "not given"
rather than an error, and looks objects up so that an unknown address is a 404.
"""

import re
from dataclasses import dataclass
from functools import wraps
from urllib.parse import quote, urlencode

from django.db.models import prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import caching, charts, citations, code_text, figures, history, jsonld, provenance, queries
from catalogue.browse import queries as browse_queries
from catalogue.models import CodeBody, CodeEntry, Leaderboard, Method, Status, Task

MAX_PARAM = 200  # longer query-string values are cut: nothing we look up is longer
API_ROOT = "/api/v1/"
DEFAULT_HOST = "github.com"
_HOST = re.compile(r"^[a-z0-9.-]{1,200}$")
_SHA_PREFIX = re.compile(r"^[0-9a-f]{16}$")


# --- reading the query string -------------------------------------------------------


def param(request, name: str) -> str:
    """A query-string value as text, without NUL bytes, at most MAX_PARAM characters."""
    return request.GET.get(name, "").replace("\x00", "").strip()[:MAX_PARAM]


def int_param(request, name: str, *, low: int, high: int) -> int | None:
    value = param(request, name)
    if not value.isascii() or not value.isdigit() or len(value) > 9:
        return None
    number = int(value)
    return number if low <= number <= high else None


def flag_param(request, name: str) -> bool:
    return param(request, name).lower() in {"1", "true", "on", "yes"}


def choice_param(request, name: str, choices) -> str:
    value = param(request, name)
    return value if value in choices else ""


# --- links to the JSON API ----------------------------------------------------------


def api_url(kind: str, *parts: str, **query: str) -> str:
    """The API address of what a page shows. All API paths are written here, and only here.

    ``kind`` is the API's collection (``papers``, ``code-entries``, ``repositories``,
    ``tasks``, ``methods``, ``evaluations``, ``samples``); each part is one path segment.
    """
    path = "".join(quote(part, safe="") + "/" for part in parts)
    query_string = urlencode({k: v for k, v in query.items() if v})
    return f"{API_ROOT}{kind}/{path}" + (f"?{query_string}" if query_string else "")


def repo_path(repo) -> str:
    """/repo/<owner>/<name>, plus ``?host=`` for repositories not on GitHub."""
    url = reverse("repo", args=[repo.owner, repo.name])
    return url if repo.host == DEFAULT_HOST else f"{url}?{urlencode({'host': repo.host})}"


def repo_api_url(repo) -> str:
    host = "" if repo.host == DEFAULT_HOST else repo.host
    return api_url("repositories", repo.owner, repo.name, host=host)


# --- what every page's <head> says ----------------------------------------------------


@dataclass(frozen=True)
class Meta:
    title: str
    description: str
    og_type: str = "website"
    api_url: str = ""  # the JSON form of the object shown, if the page shows one
    feed_url: str = ""  # its Atom feed (catalogue.feeds), if it has one
    noindex: bool = False


def _describe(text: str, limit: int = 200) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _page(request, template: str, meta: Meta, **context) -> HttpResponse:
    return render(request, template, {"meta": meta, **context})


# --- caching -----------------------------------------------------------------------------


def cached_page(view):
    """Serve a page from the shared response cache while the data it was built from is unchanged.

    The key holds ``caching.data_version()`` (one cheap query), so a load or a curator's
    correction shows at once; a change made any other way (an admin edit of a task's
    name) shows within PAGE_CACHE_SECONDS. Pages hold nothing per visitor (no session,
    no CSRF token: every form is a GET), so one copy serves everyone. The cache itself, and
    the ETag / Last-Modified / Cache-Control it sends, are ``catalogue.caching``'s (the API's too).
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not caching.lifetime() or request.method != "GET":
            return view(request, *args, **kwargs)
        key, copy = caching.lookup(request, "page")
        if copy is not None:
            return caching.respond(request, copy)
        return caching.store(request, key, view(request, *args, **kwargs))

    return wrapper


def feed(view):
    """An Atom feed (``catalogue.feeds``) as a view: GET and HEAD only, cached like the pages."""
    return require_safe(cached_page(view))


# --- pages ----------------------------------------------------------------------------


@require_safe
@cached_page
def home(request):
    counts = queries.catalogue_counts()
    catalogue_figures = figures.catalogue_figures()
    recent = queries.with_list_figures(queries.recent_papers())
    meta = Meta(
        title="Code with Papers",
        description=(
            f"{counts.papers:,} machine-learning papers and the code that implements them: "
            f"{counts.code_entries:,} code entries in {counts.repositories:,} repositories, "
            "with what running the code showed."
        ),
        feed_url=reverse("papers_feed"),
    )
    chart = charts.status_bars(catalogue_figures.by_status, chart_id="home-status", title="Samples by status")
    return _page(
        request,
        "catalogue/home.html",
        meta,
        counts=counts,
        figures=catalogue_figures,
        chart=chart,
        recent=recent,
    )


@require_safe
@cached_page
def search_view(request):
    q = param(request, "q")
    filters = queries.SearchFilters(
        kind=choice_param(request, "kind", queries.SearchKind.values),
        task=param(request, "task"),
        year=int_param(request, "year", low=1900, high=2200),
        has_official_code=flag_param(request, "official"),
        status=choice_param(request, "status", Status.values),
    )
    page = int_param(request, "page", low=1, high=10**6) or 1
    results = queries.search_page(q, filters, page) if q else None
    meta = Meta(
        title=f"Search: {q}" if q else "Search",
        description="Search papers, code entries and repositories in Code with Papers.",
        noindex=True,
    )
    return _page(
        request,
        "catalogue/search.html",
        meta,
        q=q,
        filters=filters,
        results=results,
        authors=browse_queries.authors_matching(q) if q and page == 1 else [],
        facet_limit=queries.SEARCH_FACET_LIMIT,
    )


@require_safe
@cached_page
def paper_list(request):
    filters = queries.PaperFilters(
        task=param(request, "task"),
        method=param(request, "method"),
        year=int_param(request, "year", low=1900, high=2200),
        has_code=flag_param(request, "has_code"),
        has_official_code=flag_param(request, "official"),
        has_ran_samples=flag_param(request, "ran"),
    )
    sort = choice_param(request, "sort", queries.PaperSort.values) or queries.PaperSort.DATE
    page = queries.papers_page(filters, sort, after=param(request, "after"), before=param(request, "before"))
    meta = Meta(
        title="Papers",
        description="Machine-learning papers and the code linked to them.",
        feed_url=reverse("papers_feed"),
    )
    return _page(
        request,
        "catalogue/paper_list.html",
        meta,
        page=page,
        filters=filters,
        sort=sort,
        sorts=queries.PaperSort.choices,
    )


@require_safe
@cached_page
def paper_detail(request, slug: str):
    paper, current = queries.paper_by_address(slug)
    if not current:
        return redirect(paper, permanent=True)
    data = queries.paper_page(paper)
    sample_figures = data.figures.samples
    meta = Meta(
        title=paper.title or paper.slug,
        description=_describe(paper.abstract)
        or f"{paper.title or paper.slug}: code, samples and results in Code with Papers.",
        og_type="article",
        api_url=api_url("papers", paper.slug),
    )
    chart = charts.status_bars(
        sample_figures.by_status, chart_id="paper-status", title="This paper's samples by status"
    )
    return _page(
        request,
        "catalogue/paper_detail.html",
        meta,
        paper=paper,
        data=data,
        figures=sample_figures,
        paper_figures=data.figures,
        chart=chart,
        jsonld=jsonld.scholarly_article(paper, request.build_absolute_uri(paper.get_absolute_url())),
        bibtex=citations.bibtex(paper, request.build_absolute_uri(paper.get_absolute_url())),
        citation_meta=citations.meta_tags(paper),
    )


@require_safe
@cached_page
def paper_bibtex(request, slug: str):
    """The paper's BibTeX entry, as a ``.bib`` download."""
    paper, current = queries.paper_by_address(slug)
    if not current:
        return redirect("paper_bibtex", slug=paper.slug, permanent=True)
    prefetch_related_objects([paper], "authors")
    response = HttpResponse(
        citations.bibtex(paper, request.build_absolute_uri(paper.get_absolute_url())),
        content_type="application/x-bibtex; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{paper.slug}.bib"'
    return response


@require_safe
def paper_by_arxiv_id(request, arxiv_id: str):
    """``/abs/<arXiv id>`` (as on arxiv.org) and ``/paper/<old-style id>``: to the paper's page."""
    return redirect(queries.paper_by_arxiv_id(arxiv_id), permanent=True)


@require_safe
@cached_page
def code_entry_list(request):
    q = param(request, "q")
    sort = choice_param(request, "sort", queries.EntrySort.values) or queries.EntrySort.PLACES
    page, figures = queries.code_entries_page(
        q, sort, after=param(request, "after"), before=param(request, "before")
    )
    rows = [(entry, figures[entry.pk]) for entry in page.items]
    meta = Meta(
        title="Code entries", description="Routine names found in papers' code, grouped across papers."
    )
    return _page(
        request,
        "catalogue/codeentry_list.html",
        meta,
        page=page,
        rows=rows,
        q=q,
        sort=sort,
        sorts=queries.EntrySort.choices,
    )


@require_safe
@cached_page
def code_entry_detail(request, slug: str):
    entry = get_object_or_404(CodeEntry, slug=slug)
    status = choice_param(request, "status", Status.values)
    entry_figures = figures.code_entry_figures(entry)
    places = queries.entry_places(
        entry, status, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title=f"{entry.name} (code entry)",
        description=(
            f"{entry.name}: {entry_figures.n_places:,} places in {entry_figures.n_papers:,} papers, "
            f"{entry_figures.n_samples:,} code bodies of which {entry_figures.n_samples_ran:,} ran."
        ),
        api_url=api_url("code-entries", entry.slug),
        feed_url=reverse("code_entry_feed", args=[entry.slug]),
    )
    chart = charts.status_bars(
        entry_figures.by_status, chart_id="entry-status", title=f"{entry.name}: bodies by status"
    )
    return _page(
        request,
        "catalogue/codeentry_detail.html",
        meta,
        entry=entry,
        figures=entry_figures,
        places=places,
        status=status,
        statuses=list(Status),
        chart=chart,
    )


@require_safe
@cached_page
def code_body_detail(request, prefix: str):
    if not _SHA_PREFIX.match(prefix):
        raise Http404("A code body is named by 16 lower-case hex digits")
    # The text is read only where a place shows it (queries.body_code).
    body = get_object_or_404(CodeBody.objects.defer("code"), sha256_prefix=prefix)
    samples = body.samples.all()
    body_figures = figures.sample_figures(samples)
    places = queries.places_page(samples, after=param(request, "after"), before=param(request, "before"))
    meta = Meta(
        title=f"Code body {body.sha256_prefix}",
        description=(
            f"Code body {body.sha256_prefix}: {body_figures.n_places:,} places "
            f"in {body_figures.n_papers:,} papers."
        ),
        api_url=api_url("samples", body=body.sha256_prefix),
    )
    code = queries.body_code(body)
    shown = code.shown_from
    return _page(
        request,
        "catalogue/codebody_detail.html",
        meta,
        body=body,
        figures=body_figures,
        places=places,
        code=code,
        highlighted=code_text.highlight(shown.body.code, shown.body.code_language) if shown else "",
        language=code_text.language_label(shown.body.code_language) if shown else "",
        get_code_tool=code_text.SYNTOLOGY_GET_CODE,
        syntology_developers=code_text.SYNTOLOGY_DEVELOPERS,
    )


@require_safe
@cached_page
def repo_detail(request, owner: str, name: str):
    host = param(request, "host").lower() or DEFAULT_HOST
    if not _HOST.match(host):
        raise Http404("Not a host name")
    repo = queries.repo_by_address(owner, name, host)
    if (owner, name) != (repo.owner, repo.name):
        return redirect(repo_path(repo), permanent=True)  # one address per repository
    samples = repo.samples.all()
    repo_figures = figures.repo_figures(repo)
    links = queries.repo_links_page(
        repo, after=param(request, "links_after"), before=param(request, "links_before")
    )
    places = queries.places_page(samples, after=param(request, "after"), before=param(request, "before"))
    meta = Meta(
        title=f"{repo.full_name} (repository)",
        description=(
            f"{repo.full_name} on {repo.host}: linked by papers, {repo_figures.n_places:,} harvested places, "
            f"licence {repo.spdx or 'not stated'}."
        ),
        api_url=repo_api_url(repo),
    )
    return _page(
        request,
        "catalogue/repo_detail.html",
        meta,
        repo=repo,
        figures=repo_figures,
        links=links,
        places=places,
    )


# Rows a leaderboard's table shows, best first: the biggest boards hold hundreds of results
# (346 at 500,000 papers), and rendering every one grew the page with the board. The chart
# shows all of them; the API lists all of them.
LEADERBOARD_ROWS = 100


@require_safe
@cached_page
def leaderboard_detail(request, slug: str):
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    data = queries.leaderboard_page(board, param(request, "metric"))
    metric, lower = data.metric, data.lower_is_better
    chart = (
        charts.metric_over_time(data.over_time, chart_id="board-time", metric=metric, lower_is_better=lower)
        if metric
        else ""
    )
    title = f"{board.task.name} on {board.dataset.name}"
    meta = Meta(
        title=f"{title} (leaderboard)",
        description=f"{len(data.results):,} results for {title}, best first by {metric or 'archive order'}.",
        api_url=api_url("evaluations", board.slug),
        feed_url=reverse("leaderboard_feed", args=[board.slug]),
    )
    return _page(
        request,
        "catalogue/leaderboard_detail.html",
        meta,
        board=board,
        title=title,
        results=data.results[:LEADERBOARD_ROWS],
        n_results=len(data.results),
        results_api=api_url("evaluations", board.slug, "results"),
        metric=metric,
        metric_names=data.metric_names,
        lower_is_better=lower,
        direction=data.direction,
        chart=chart,
    )


@require_safe
@cached_page
def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("parent"), slug=slug)
    papers = queries.task_papers_page(task, after=param(request, "after"), before=param(request, "before"))
    boards = queries.leaderboards_of(task=task)
    meta = Meta(
        title=f"{task.name} (task)",
        description=f"Papers and leaderboards for the task {task.name}.",
        api_url=api_url("tasks", task.slug),
        feed_url=reverse("task_feed", args=[task.slug]),
    )
    tree = browse_queries.task_tree(task)
    return _page(
        request, "catalogue/task_detail.html", meta, task=task, papers=papers, boards=boards, tree=tree
    )


@require_safe
@cached_page
def method_detail(request, slug: str):
    method = get_object_or_404(Method.objects.select_related("introduced_in"), slug=slug)
    collections = list(method.collections.select_related("area").order_by("name", "slug"))
    papers = queries.method_papers_page(
        method, after=param(request, "after"), before=param(request, "before")
    )
    introduced_by = list(method.introduced_by.order_by("month", "id")[:50])
    boards = queries.leaderboards_of(method=method)
    meta = Meta(
        title=f"{method.name} (method)",
        description=(
            f"Papers that use or introduce the method {method.full_name or method.name}, "
            "and their leaderboards."
        ),
        api_url=api_url("methods", method.slug),
    )
    return _page(
        request,
        "catalogue/method_detail.html",
        meta,
        method=method,
        collections=collections,
        papers=papers,
        introduced_by=introduced_by,
        boards=boards,
    )


@require_safe
@cached_page
def correction_list(request):
    data = history.corrections_page(
        paper_slug=param(request, "paper"),
        entry_slug=param(request, "entry"),
        after=param(request, "after"),
        before=param(request, "before"),
    )
    whose = (
        f" of {data.paper.title or data.paper.slug}"
        if data.paper
        else f" of the code entry {data.entry.name}"
        if data.entry
        else ""
    )
    meta = Meta(
        title=f"Corrections{whose}",
        description="Every correction curators made to the catalogue, newest first: the corrected value, "
        "what the snapshot says, when, by whom and why; removed corrections included.",
        feed_url=reverse("corrections_feed"),
    )
    return _page(request, "catalogue/correction_list.html", meta, data=data, page=data.page)


@require_safe
@cached_page
def about(request):
    meta = Meta(
        title="About and attribution",
        description="Where the data comes from, its licence (CC BY-SA 4.0) and what each status means.",
    )
    statuses = [(status, status.value in Status.instrument_failures()) for status in Status]
    return _page(request, "catalogue/about.html", meta, statuses=statuses)


@require_safe
@cached_page
def attribution_page(request):
    """What the data's documents point to (``about.attribution``): sources, modifications, licences."""
    meta = Meta(
        title="Attribution",
        description=(
            "Where the catalogue's data comes from (the Papers-with-Code archive, CC BY-SA 4.0), "
            "what Syntology and this site's curators changed, and the licences."
        ),
    )
    return _page(
        request,
        "catalogue/attribution.html",
        meta,
        sources=provenance.snapshot_sources(),
        counts=queries.catalogue_counts(),
    )


@require_safe
@cached_page
def data_page(request):
    """When the catalogue was last loaded, from which snapshots, what it holds, and every load."""
    meta = Meta(
        title="The data and its loads",
        description=(
            "When the catalogue was last loaded, the snapshot of each source, what it holds, "
            "and the history of every load, failed loads and dry runs included."
        ),
        api_url=api_url("data"),
    )
    return _page(
        request,
        "catalogue/data.html",
        meta,
        last_load=provenance.last_successful_load(),
        sources=provenance.snapshot_sources(),
        counts=queries.catalogue_counts(),
        history=provenance.load_history(after=param(request, "after"), before=param(request, "before")),
        loads_api=api_url("loads"),
    )


@require_safe
def favicon(request):
    """What a browser asks for where no page names its icon (a feed shown as XML, a bare file).

    The icon's address is looked up per request: the static manifest may not exist at import.
    """
    return redirect(static("favicon.svg"), permanent=True)


@require_safe
def robots_txt(request):
    return render(request, "robots.txt", content_type="text/plain")
