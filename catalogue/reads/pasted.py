"""What people paste into the search box to find one paper: an arXiv id (``1811.06965``,
``1811.06965v2``, ``arXiv:1811.06965``, ``cs/9901001``), an arXiv address (abs or PDF), a
Papers-with-Code paper address (``https://paperswithcode.com/paper/<slug>``) or a DOI (bare,
``doi:…`` or a doi.org address). The search page goes straight to the paper, or says plainly
that none is known; anything else is searched as words.
"""

import re
from dataclasses import dataclass

from django.http import Http404

from catalogue import identities
from catalogue.models import Paper
from catalogue.reads.papers import paper_by_address

_ARXIV_ADDRESS = re.compile(
    r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?/?$", re.I
)
# a paper's page, or a page under it (/paper/<slug>/review/)
_PWC_ADDRESS = re.compile(
    r"^(?:https?://)?(?:www\.)?paperswithcode\.com/paper/([^/?#\s]+)(?:/[^?#\s]*)?(?:[?#].*)?$", re.I
)
_DOI = re.compile(r"^(?:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)$", re.I)


@dataclass(frozen=True)
class Pasted:
    kind: str  # "arXiv id", "arXiv address", "Papers-with-Code address", "DOI"
    value: str  # what names the paper: the arXiv id, the slug, the DOI
    paper: Paper | None  # the paper it names, if the catalogue holds it


def recognise(q: str) -> Pasted | None:
    """The paper ``q`` names, if ``q`` is one of the identifiers above (None: search it as words)."""
    text = q.strip()
    if " " in text or not text:
        return None
    arxiv_id = identities.normalize_arxiv_id(text.removeprefix("arXiv:").removeprefix("arxiv:"))
    if arxiv_id:
        return Pasted("arXiv id", arxiv_id, _by_arxiv_id(arxiv_id))
    if m := _ARXIV_ADDRESS.match(text):
        arxiv_id = identities.normalize_arxiv_id(m[1])
        if arxiv_id:
            return Pasted("arXiv address", arxiv_id, _by_arxiv_id(arxiv_id))
        return None
    if m := _PWC_ADDRESS.match(text):
        return Pasted("Papers-with-Code address", m[1], _by_slug(m[1]))
    if m := _DOI.match(text):
        # the loader's own key for a DOI landing page (identities.landing_key), not a second rule
        key = identities.landing_key("https://doi.org/" + m[1].rstrip(".,;"))
        if not key or not key.startswith("doi:"):
            return None
        return Pasted("DOI", key.removeprefix("doi:"), Paper.objects.filter(landing_key=key).first())
    return None


def _by_arxiv_id(arxiv_id: str) -> Paper | None:
    return Paper.objects.filter(arxiv_id=arxiv_id).first()


def _by_slug(slug: str) -> Paper | None:
    try:
        return paper_by_address(slug)[0]
    except Http404:
        return None
