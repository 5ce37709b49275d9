"""The site's own pages: the home page, /about, /attribution, /data/, /corrections/, robots.txt
and the favicon.
"""

from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import figures, history, provenance, reads
from catalogue.addresses import api_url
from catalogue.models import Status
from catalogue.web import charts
from catalogue.web.pageframe import (
    KEYSET,
    Meta,
    cached_page,
    keyset_position,
    param,
    render_page,
)


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
@cached_page(reads=("paper", "entry", *KEYSET))  # no JSON form: the API's fields mark corrections
def correction_list(request):
    data = history.corrections_page(
        paper_slug=param(request, "paper"),
        entry_slug=param(request, "entry"),
        **keyset_position(request),
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
        history=provenance.load_history(**keyset_position(request)),
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
