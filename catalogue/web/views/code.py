"""Code pages: the code entries list, a code entry and its places, a code body (its text where a
place may show it) and a repository (/repo/<owner>/<name>, ``?host=`` off GitHub).
"""

import re

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from catalogue import figures, reads
from catalogue.addresses import DEFAULT_HOST, api_url, repo_path
from catalogue.models import CodeBody, CodeEntry, Status
from catalogue.web import charts, code_text
from catalogue.web.pageframe import (
    KEYSET,
    Meta,
    cached_page,
    choice_param,
    keyset_position,
    list_json,
    param,
    render_page,
    same,
)

_HOST = re.compile(r"^[a-z0-9.-]{1,200}$")


_SHA_PREFIX = re.compile(r"^[0-9a-f]{16}$")


@require_safe
@cached_page(reads=("q", "sort", *KEYSET), json=list_json("code-entries", q=same("q")))
def code_entry_list(request):
    q = param(request, "q")
    sort = choice_param(request, "sort", reads.code.EntrySort.values) or reads.code.EntrySort.PLACES
    page, figures = reads.code.code_entries_page(q, sort, **keyset_position(request))
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
    places = reads.code.entry_places(entry, status, **keyset_position(request))
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
    places = reads.code.places_page(samples, **keyset_position(request))
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
    places = reads.code.places_page(samples, **keyset_position(request))
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
