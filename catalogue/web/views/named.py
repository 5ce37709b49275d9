"""Papers by an exact name: /author/<name>, /proceedings/ (the conferences), /conference/<id> and
/proceeding/<id>.
"""

from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import authors, conferences, reads
from catalogue.addresses import api_url
from catalogue.models import Author
from catalogue.pagination.keyset import keyset_page_of_rows
from catalogue.web.pageframe import (
    KEYSET,
    Meta,
    MovedTo,
    cached_page,
    keyset_position,
    list_json,
    render_page,
)

CONFERENCES_PER_PAGE = 100


def _proceeding_json(request, slug: str) -> str:
    proceeding = conferences.proceeding_by_id(slug)
    return api_url("conferences", proceeding.conference, "proceedings", proceeding.id)


@require_safe
def _author_json(request, name: str) -> str:
    """The API's author; a name's slug is sent to the exact name's page form (as the page is)."""
    if not Author.objects.filter(name=name).exists():
        found = authors.by_slug(name)
        if found is not None and found != name and authors.has_page(found):
            raise MovedTo(reverse("author", args=[found]))
    return api_url("authors", name)


@cached_page(reads=KEYSET, json=_author_json)
def author_detail(request, name: str):
    try:
        data = reads.named.author_page(name, **keyset_position(request))
    except Http404:
        # Not an exact name: a name's slug (/author/yanping-huang, Papers with Code's form) is
        # sent to that name's page, the one address of an author (catalogue.authors.by_slug).
        found = authors.by_slug(name)
        if found is None or found == name or not authors.has_page(found):
            raise
        query = request.META.get("QUERY_STRING", "")
        return redirect(reverse("author", args=[found]) + (f"?{query}" if query else ""), permanent=True)
    meta = Meta(
        title=f"{name} (author)",
        description=f"Papers with {name} among the authors: {data.n_papers:,}.",
    )
    return render_page(request, "catalogue/author_detail.html", meta, data=data)


@require_safe
@cached_page(reads=KEYSET, json=list_json("conferences"))
def proceeding_list(request):
    page = keyset_page_of_rows(
        conferences.summaries(),
        "id",
        **keyset_position(request),
        size=CONFERENCES_PER_PAGE,
    )
    meta = Meta(
        title="Proceedings",
        description="Conferences, their proceedings and the papers the archive places in them.",
    )
    return render_page(request, "catalogue/proceeding_list.html", meta, page=page)


@require_safe
@cached_page(json=lambda request, slug: api_url("conferences", slug))
def conference_detail(request, slug: str):
    conference = conferences.conference(slug)
    newest_first = sorted(conference.proceedings, key=lambda p: (-(p.year or 0), -(p.month or 0), p.id))
    n_papers = sum(p.n_papers for p in conference.proceedings)
    meta = Meta(
        title=f"{conference.name} (conference)",
        description=f"{len(newest_first):,} proceedings of {conference.name}, {n_papers:,} papers.",
    )
    return render_page(
        request,
        "catalogue/conference_detail.html",
        meta,
        conference=conference,
        proceedings=newest_first,
        n_papers=n_papers,
    )


@require_safe
@cached_page(reads=KEYSET, json=_proceeding_json)
def proceeding_detail(request, slug: str):
    data = reads.named.proceeding_page(slug, **keyset_position(request))
    name = data.name
    conference = conferences.conference(conferences.proceeding_by_id(slug).conference)
    meta = Meta(title=f"{name} (proceedings)", description=f"{data.n_papers:,} papers published in {name}.")
    return render_page(request, "catalogue/proceeding_detail.html", meta, data=data, conference=conference)
