"""The public pages: thin views over ``catalogue.queries`` and ``catalogue.figures``.

What every page shares (its parameters, ``Meta``, its JSON and Markdown forms, its cached copy)
is the page framework, ``catalogue.pageframe``; the addresses they write are
``catalogue.addresses``'. A view names the query parameters it reads (``cached_page(reads=…)``)
and looks objects up so that an unknown address is a 404.
"""

import re

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.encoding import escape_uri_path
from django.views.decorators.http import require_safe

from catalogue import (
    boards,
    charts,
    citations,
    code_text,
    figures,
    history,
    jsonld,
    markdown_forms,
    markup,
    provenance,
    reads,
    search,
)
from catalogue.addresses import DEFAULT_HOST, api_url, repo_path
from catalogue.models import CodeBody, CodeEntry, Leaderboard, Method, Paper, SearchKind, Status, Task
from catalogue.pageframe import (
    KEYSET,
    Meta,
    NoJsonForm,
    cached_page,
    choice_param,
    describe,
    flag,
    flag_param,
    int_param,
    list_json,
    param,
    render_page,
    same,
)

_HOST = re.compile(r"^[a-z0-9.-]{1,200}$")
_SHA_PREFIX = re.compile(r"^[0-9a-f]{16}$")


@require_safe
@cached_page
def home(request):
    counts = reads.papers.catalogue_counts()
    catalogue_figures = figures.catalogue_figures()
    recent = reads.papers.with_list_figures(reads.papers.recent_papers())
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
    return render_page(
        request,
        "catalogue/home.html",
        meta,
        counts=counts,
        figures=catalogue_figures,
        chart=chart,
        recent=recent,
    )


@require_safe
@cached_page(
    reads=("q", "kind", "task", "year", "official", "status", "page")
)  # papers, entries, repos: no API list
def search_view(request):
    q = param(request, "q")
    named = reads.pasted.recognise(q) if q else None
    if named and named.paper:
        return redirect(named.paper)  # an arXiv id, a DOI… pasted: its paper, if the catalogue holds it
    filters = reads.site_search.SearchFilters(
        kind=choice_param(request, "kind", SearchKind.values),
        task=param(request, "task"),
        year=int_param(request, "year", low=1900, high=2200),
        has_official_code=flag_param(request, "official"),
        status=choice_param(request, "status", Status.values),
    )
    page = int_param(request, "page", low=1, high=10**6) or 1
    with search.ranking_once():  # the hits and the matching authors rank the same words
        results = reads.site_search.search_page(q, filters, page) if q else None
        authors = reads.site_search.authors_matching(q) if q and page == 1 else []
    meta = Meta(
        title=f"Search: {q}" if q else "Search",
        description="Search papers, code entries and repositories in Code with Papers.",
        noindex=True,
    )
    return render_page(
        request,
        "catalogue/search.html",
        meta,
        q=q,
        filters=filters,
        results=results,
        authors=authors,
        facet_limit=reads.site_search.SEARCH_FACET_LIMIT,
        pasted=named,
    )


@require_safe
@cached_page(
    reads=("task", "method", "year", "has_code", "official", "ran", "sort", *KEYSET),
    json=list_json(
        "papers",
        task=same("task"),
        method=same("method"),
        year=lambda year: {"year_min": year, "year_max": year},
        has_code=flag("has_code"),
        official=flag("official"),
    ),
)
def paper_list(request):
    filters = reads.papers.PaperFilters(
        task=param(request, "task"),
        method=param(request, "method"),
        year=int_param(request, "year", low=1900, high=2200),
        has_code=flag_param(request, "has_code"),
        has_official_code=flag_param(request, "official"),
        has_ran_samples=flag_param(request, "ran"),
    )
    sort = choice_param(request, "sort", reads.papers.PaperSort.values) or reads.papers.PaperSort.DATE
    page = reads.papers.papers_page(
        filters, sort, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title="Papers",
        description="Machine-learning papers and the code linked to them.",
        feed_url=reverse("papers_feed"),
    )
    return render_page(
        request,
        "catalogue/paper_list.html",
        meta,
        page=page,
        filters=filters,
        sort=sort,
        sorts=reads.papers.PaperSort.choices,
    )


@require_safe
@cached_page(json=lambda request, slug: api_url("papers", slug))
def paper_detail(request, slug: str):
    paper, current = reads.papers.paper_by_address(slug)
    if not current:
        return redirect(paper, permanent=True)
    data = reads.paper_page.paper_page(paper)
    sample_figures = data.figures.samples
    meta = Meta(
        title=paper.title or paper.slug,
        description=describe(paper.abstract)
        or f"{paper.title or paper.slug}: code, samples and results in Code with Papers.",
        og_type="article",
    )
    chart = charts.status_bars(
        sample_figures.by_status, chart_id="paper-status", title="This paper's samples by status"
    )
    url = request.build_absolute_uri(paper.get_absolute_url())
    return render_page(
        request,
        "catalogue/paper_detail.html",
        meta,
        paper=paper,
        data=data,
        figures=sample_figures,
        paper_figures=data.figures,
        chart=chart,
        board_ranks=boards.ranks_of_paper(paper) if data.results else {},
        related=reads.related.related_papers(paper),
        jsonld=jsonld.scholarly_article(paper, paper.author_names, url),
        bibtex=citations.bibtex(paper, paper.author_names, url),
        citation_meta=citations.meta_tags(paper, paper.author_names),
    )


@require_safe
@cached_page
def paper_bibtex(request, slug: str):
    """The paper's BibTeX entry, as a ``.bib`` download."""
    paper, current = reads.papers.paper_by_address(slug)
    if not current:
        return redirect("paper_bibtex", slug=paper.slug, permanent=True)
    response = HttpResponse(
        citations.bibtex(paper, paper.author_names, request.build_absolute_uri(paper.get_absolute_url())),
        content_type="application/x-bibtex; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{paper.slug}.bib"'
    return response


@require_safe
def paper_by_arxiv_id(request, arxiv_id: str):
    """``/abs/<arXiv id>`` (as on arxiv.org) and ``/paper/<old-style id>``: to the paper's page."""
    return redirect(reads.papers.paper_by_arxiv_id(arxiv_id), permanent=True)


@require_safe
@cached_page(reads=("q", "sort", *KEYSET), json=list_json("code-entries", q=same("q")))
def code_entry_list(request):
    q = param(request, "q")
    sort = choice_param(request, "sort", reads.code.EntrySort.values) or reads.code.EntrySort.PLACES
    page, figures = reads.code.code_entries_page(
        q, sort, after=param(request, "after"), before=param(request, "before")
    )
    rows = [(entry, figures[entry.pk]) for entry in page.items]
    meta = Meta(
        title="Code entries", description="Routine names found in papers' code, grouped across papers."
    )
    return render_page(
        request,
        "catalogue/codeentry_list.html",
        meta,
        page=page,
        rows=rows,
        q=q,
        sort=sort,
        sorts=reads.code.EntrySort.choices,
    )


@require_safe
@cached_page(reads=("status", *KEYSET), json=lambda request, slug: api_url("code-entries", slug))
def code_entry_detail(request, slug: str):
    entry = get_object_or_404(CodeEntry, slug=slug)
    status = choice_param(request, "status", Status.values)
    entry_figures = figures.code_entry_figures(entry)
    places = reads.code.entry_places(
        entry, status, after=param(request, "after"), before=param(request, "before")
    )
    meta = Meta(
        title=f"{entry.name} (code entry)",
        description=(
            f"{entry.name}: {entry_figures.n_places:,} places in {entry_figures.n_papers:,} papers, "
            f"{entry_figures.n_samples:,} code bodies: {entry_figures.ran_words}."
        ),
        feed_url=reverse("code_entry_feed", args=[entry.slug]),
    )
    chart = charts.status_bars(
        entry_figures.by_status, chart_id="entry-status", title=f"{entry.name}: bodies by status"
    )
    return render_page(
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


def _body_prefix(prefix: str) -> str:
    if not _SHA_PREFIX.match(prefix):
        raise Http404("A code body is named by 16 lower-case hex digits")
    return prefix


def _body_code_markdown(request, prefix: str) -> str:
    """The code body's text in its Markdown form, exactly where its page shows it
    (``reads.code.body_code``: a place whose licence and ``inline_ok`` allow it); else a note."""
    body = get_object_or_404(CodeBody.objects.defer("code"), sha256_prefix=_body_prefix(prefix))
    shown = reads.code.body_code(body).shown_from
    if not shown:
        return "## Code\n\nThis body's text is not shown here: no place of it may show it (pointer only)."
    fence = "`" * max(3, max((len(run) for run in re.findall("`+", shown.body.code)), default=0) + 1)
    language = shown.body.code_language or ""
    return f"## Code\n\n{fence}{language}\n{shown.body.code.rstrip()}\n{fence}"


@require_safe
@cached_page(
    reads=KEYSET,
    json=lambda request, prefix: api_url("samples", body=_body_prefix(prefix)),
    markdown=_body_code_markdown,
)
def code_body_detail(request, prefix: str):
    # The text is read only where a place shows it (reads.code.body_code).
    body = get_object_or_404(CodeBody.objects.defer("code"), sha256_prefix=_body_prefix(prefix))
    samples = body.samples.all()
    body_figures = figures.sample_figures(samples)
    places = reads.code.places_page(samples, after=param(request, "after"), before=param(request, "before"))
    meta = Meta(
        title=f"Code body {body.sha256_prefix}",
        description=(
            f"Code body {body.sha256_prefix}: {body_figures.n_places:,} places "
            f"in {body_figures.n_papers:,} papers."
        ),
    )
    code = reads.code.body_code(body)
    shown = code.shown_from
    return render_page(
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


def _repo_host(request) -> str:
    host = param(request, "host").lower() or DEFAULT_HOST
    if not _HOST.match(host):
        raise Http404("Not a host name")
    return host


def _repo_json(request, owner: str, name: str) -> str:
    host = _repo_host(request)
    return api_url("repositories", owner, name, host="" if host == DEFAULT_HOST else host)


@require_safe
@cached_page(reads=("host", "links_after", "links_before", *KEYSET), json=_repo_json)
def repo_detail(request, owner: str, name: str):
    repo = reads.repositories.repo_by_address(owner, name, _repo_host(request))
    if (owner, name) != (repo.owner, repo.name):
        return redirect(repo_path(repo), permanent=True)  # one address per repository
    samples = repo.samples.all()
    repo_figures = figures.repo_figures(repo)
    links = reads.repositories.repo_links_page(
        repo, after=param(request, "links_after"), before=param(request, "links_before")
    )
    places = reads.code.places_page(samples, after=param(request, "after"), before=param(request, "before"))
    meta = Meta(
        title=f"{repo.full_name} (repository)",
        description=(
            f"{repo.full_name} on {repo.host}: linked by papers, {repo_figures.n_places:,} harvested places, "
            f"licence {repo.spdx or 'not stated'}."
        ),
    )
    return render_page(
        request,
        "catalogue/repo_detail.html",
        meta,
        repo=repo,
        figures=repo_figures,
        links=links,
        places=places,
    )


# Rows a page of a leaderboard's table shows: the biggest boards hold hundreds of results
# (346 at 500,000 papers), and rendering every one on one page grew the page with the board.
# The rest are on the board's next pages (?page=2…); the chart shows all of them.
LEADERBOARD_ROWS = 100


def _board_page_address(request, number: int) -> str:
    """This board page's address on page ``number``, its other parameters kept; page 1 has no ``page``."""
    query = request.GET.copy()
    query.pop("page", None)
    if number > 1:
        query["page"] = str(number)
    return escape_uri_path(request.path) + (f"?{query.urlencode()}" if query else "")


def _board_json(request, slug: str) -> str:
    if flag_param(request, "code"):
        raise NoJsonForm(f"No JSON form of a board with code only: its rows are at {request.path}/table.json")
    return api_url("evaluations", slug)


def _board_rows_markdown(request, slug: str) -> str:
    """The board's ranked rows in its Markdown form: this page's rows (``?metric=``, ``?page=``)
    as the HTML page ranks them (``reads.leaderboards.leaderboard_page``), the metric's direction stated."""
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    data = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    given = param(request, "page")
    rows = data.rows(int(given) if given.isascii() and given.isdigit() else 1, LEADERBOARD_ROWS)
    metric = data.metric or ""
    head = (
        f"## Results, best first by {metric} ({data.direction or 'unknown'} is better)"
        if metric
        else "## Results, in the archive's order (no metric states a direction)"
    )
    table = [
        f"{head}, page {rows.number} of {rows.pages}, {len(data.results):,} in all",
        "",
        f"| rank | model | paper | {markdown_forms.cell(metric) if metric else 'metrics'} |",
        "|---|---|---|---|",
    ]
    for rank, result in enumerate(rows.results, start=rows.first_rank):
        shown = (result.metrics or {}).get(metric) if metric else result.metrics
        cells = (rank, result.model, reads.leaderboards.result_source(result), shown)
        table.append("| " + " | ".join(markdown_forms.cell(c) for c in cells) + " |")
    return "\n".join(table)


@require_safe
@cached_page(reads=("metric", "page", "code"), json=_board_json, markdown=_board_rows_markdown)
def leaderboard_detail(request, slug: str):
    board = get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)
    whole = reads.leaderboards.leaderboard_page(board, param(request, "metric"))
    code = boards.code_of_papers_on(board)
    with_code = flag_param(request, "code")
    data = boards.with_board_ranks(whole, code, code_only=with_code)
    given = param(request, "page")
    rows = data.rows(int(given) if given.isascii() and given.isdigit() else 1, LEADERBOARD_ROWS)
    if given != (str(rows.number) if rows.number > 1 else ""):
        # One address per page: page 1 has no ?page=; a page past the last (the board shrank,
        # or a made-up number) is the last page; anything else that names no page, the first.
        return redirect(_board_page_address(request, rows.number))
    metric, lower = data.metric, data.lower_is_better
    chart = (
        charts.metric_over_time(data.over_time, chart_id="board-time", metric=metric, lower_is_better=lower)
        if metric
        else ""
    )
    page_links = [(n, _board_page_address(request, n)) for n in range(1, rows.pages + 1)]
    title = f"{board.task.name} on {board.dataset.name}"
    order = f"best first by {metric}" if data.direction else "in the archive’s order"
    on_page = f", page {rows.number} of {rows.pages}" if rows.pages > 1 else ""
    meta = Meta(
        title=f"{title} (leaderboard{on_page})",
        description=f"{len(whole.results):,} results for {title}, {order}{on_page}.",
        feed_url=reverse("leaderboard_feed", args=[board.slug]),
    )
    return render_page(
        request,
        "catalogue/leaderboard_detail.html",
        meta,
        board=board,
        title=title,
        rows=rows,
        results=rows.results,
        page_links=page_links,
        previous_page=page_links[rows.number - 2][1] if rows.number > 1 else "",
        next_page=page_links[rows.number][1] if rows.number < rows.pages else "",
        n_results=len(whole.results),
        results_api=api_url("evaluations", board.slug, "results"),
        metric=metric,
        metric_names=data.metric_names,
        lower_is_better=lower,
        direction=data.direction,
        chart=chart,
        code=code,
        with_code=with_code,
        n_shown=len(data.results),
        shown_last=rows.results[-1].board_rank if rows.results else 0,
        downloads=boards.download_links(request, board),
        chart_rows=charts.table_rows(data.over_time, lower_is_better=lower) if chart else [],
        badge=boards.badge_example(request, board, whole.results),
    )


@require_safe
@cached_page(reads=KEYSET, json=lambda request, slug: api_url("tasks", slug))
def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("parent"), slug=slug)
    papers = reads.taxonomy.task_papers_page(
        task, after=param(request, "after"), before=param(request, "before")
    )
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
    papers = reads.taxonomy.method_papers_page(
        method, after=param(request, "after"), before=param(request, "before")
    )
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


@require_safe
@cached_page(reads=("paper", "entry", *KEYSET))  # no JSON form: the API's fields mark corrections
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
    return render_page(request, "catalogue/correction_list.html", meta, data=data, page=data.page)


@require_safe
@cached_page
def about(request):
    meta = Meta(
        title="About and attribution",
        description="Where the data comes from, its licence (CC BY-SA 4.0) and what each status means.",
    )
    statuses = [(status, status.value in Status.instrument_failures()) for status in Status]
    return render_page(request, "catalogue/about.html", meta, statuses=statuses)


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
    return render_page(
        request,
        "catalogue/attribution.html",
        meta,
        sources=provenance.snapshot_sources(),
        counts=reads.papers.catalogue_counts(),
    )


@require_safe
@cached_page(reads=KEYSET, json=lambda request: api_url("data"))
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
    return render_page(
        request,
        "catalogue/data.html",
        meta,
        last_load=provenance.last_successful_load(),
        sources=provenance.snapshot_sources(),
        counts=reads.papers.catalogue_counts(),
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
