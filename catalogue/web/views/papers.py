"""Paper pages: search (and what is pasted into it), the papers list, a paper, its BibTeX, and a
paper found by its arXiv id (/abs/<id>, /paper/<arXiv id>).
"""

from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import reads, search
from catalogue.addresses import api_url
from catalogue.models import SearchKind, Status
from catalogue.web import charts, citations, jsonld
from catalogue.web.pageframe import (
    KEYSET,
    Meta,
    cached_page,
    choice_param,
    describe,
    flag,
    flag_param,
    int_param,
    keyset_position,
    list_json,
    param,
    render_page,
    same,
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
    page = reads.papers.papers_page(filters, sort, **keyset_position(request))
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
        board_ranks=reads.leaderboards.ranks_of_paper(paper) if data.results else {},
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
