"""schema.org structured data for the pages that describe one scholarly thing."""

from catalogue import authors as author_names
from catalogue.models import Paper


def scholarly_article(paper: Paper, authors: list[str], url: str) -> dict:
    """A paper as a schema.org ``ScholarlyArticle``; ``authors``: their names in order; ``url``:
    its page's absolute address."""
    data = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "headline": paper.title or paper.slug,
        "name": paper.title or paper.slug,
        "url": url,
        "author": [{"@type": "Person", "name": name} for name in author_names.shown(authors)],
    }
    if paper.abstract:
        data["abstract"] = paper.abstract
    if paper.date:
        data["datePublished"] = paper.date.isoformat()
    elif paper.month:
        data["datePublished"] = paper.month
    if paper.arxiv_id:
        data["identifier"] = f"arXiv:{paper.arxiv_id}"
    if paper.url_abs:
        data["sameAs"] = paper.url_abs
    if paper.proceeding:
        data["isPartOf"] = paper.proceeding
    return data
