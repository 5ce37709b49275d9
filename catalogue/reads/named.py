"""Reads of papers grouped by an exact name: an author's papers and a proceeding's (the /author/
and /proceeding/ pages, the API's authors and proceedings).
"""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from catalogue import conferences, memo
from catalogue.models import Author, AuthorName, Paper
from catalogue.pagination.keyset import KeysetPage, keyset_page
from catalogue.reads.papers import PAPER_KEYS, PaperSort, with_list_figures
from catalogue.reads.papers import papers as api_papers

# --- authors and proceedings: papers grouped by an exact name -----------------------------------


@dataclass(frozen=True)
class NamedPapers:
    """The papers of one author name or one proceeding, newest first, and how many in all."""

    name: str
    papers: KeysetPage
    n_papers: int


def author_page(name: str, *, after=None, before=None) -> NamedPapers:
    """Papers whose author list holds exactly ``name`` (the data names people, it does not
    identify them), or 404."""
    named = Author.objects.filter(paper=OuterRef("pk"), name=name)
    papers = Paper.objects.filter(Exists(named))
    return _named_papers(name, papers, "author", after, before)


def proceeding_page(proceeding_id: str, *, after=None, before=None) -> NamedPapers:
    """Papers published in the proceeding with this id (every spelling it gathers), or 404."""
    found = conferences.proceeding_by_id(proceeding_id)
    papers = Paper.objects.filter(proceeding__in=found.spellings)
    return _named_papers(found.name, papers, "proceeding", after, before)


def _named_papers(name: str, papers, kind: str, after, before) -> NamedPapers:
    n_papers = memo.remember(f"{kind}_papers", name, papers.count)
    if not name or not n_papers:
        raise Http404(f"No papers for the {kind} {name!r}")
    page = keyset_page(papers, PAPER_KEYS[PaperSort.DATE], after=after, before=before)
    with_list_figures(page.items)
    return NamedPapers(name, page, n_papers)


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
    return api_papers().filter(Exists(Author.objects.filter(paper=OuterRef("pk"), name=name)))


def proceeding_papers(spellings: tuple[str, ...]) -> QuerySet[Paper]:
    """Papers that name the proceeding in any of its spellings, in the API's paper order (by id)."""
    return api_papers().filter(proceeding__in=spellings)
