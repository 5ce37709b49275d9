"""Reads of repositories: a repository by its address (the page's and the API's rules), the
papers that link it, and the API's list with each repository's framework.
"""

from django.db import models
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404

from catalogue import identities
from catalogue.models import CodeLink, Paper, Repo
from catalogue.pagination.keyset import Key, KeysetPage, keyset_page
from catalogue.reads.papers import papers


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
