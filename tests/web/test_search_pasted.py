"""Issue 37's search box: what people paste to find one paper (an arXiv id or address, a
Papers-with-Code address, a DOI) goes straight to it, or says plainly none is known; one search
box on the search page; the results before the facets, which fold (on a phone)."""

import re

import pytest

from catalogue import identities, reads
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def gpipe():
    paper = make_paper(arxiv_id="1811.06965", slug="gpipe-efficient-training-of-giant-neural", title="GPipe")
    return paper


@pytest.mark.parametrize(
    "q",
    [
        "1811.06965",
        "1811.06965v5",
        " arXiv:1811.06965v2 ",
        "https://arxiv.org/abs/1811.06965",
        "https://arxiv.org/abs/1811.06965v5",
        "http://export.arxiv.org/abs/1811.06965",
        "https://arxiv.org/pdf/1811.06965v5.pdf",
        "arxiv.org/pdf/1811.06965",
        "https://paperswithcode.com/paper/gpipe-efficient-training-of-giant-neural",
        "https://paperswithcode.com/paper/gpipe-efficient-training-of-giant-neural/review/",
        "paperswithcode.com/paper/arxiv-1811-06965",
    ],
)
def test_a_pasted_identifier_goes_straight_to_its_paper(client, gpipe, q):
    response = client.get("/search", {"q": q})
    assert response.status_code == 302
    assert response["Location"] == gpipe.get_absolute_url()


def test_a_doi_finds_the_paper_whose_landing_page_it_is(client):
    # keyed as the loader keys a paper whose url_abs is its DOI page
    key = identities.landing_key("https://doi.org/10.1109/CVPR.2016.90")
    paper = make_paper(arxiv_id=None, landing_key=key, slug="resnet")
    for q in (
        "10.1109/CVPR.2016.90",
        "doi:10.1109/cvpr.2016.90",
        "https://doi.org/10.1109/CVPR.2016.90",
        "https://doi.org/10.1109/CVPR.2016.90/",  # as the loader reads it: a trailing slash is no part of it
    ):
        response = client.get("/search", {"q": q})
        assert (response.status_code, response["Location"]) == (302, paper.get_absolute_url())


@pytest.mark.parametrize(
    ("q", "kind", "value"),
    [
        ("2001.00001", "arXiv id", "2001.00001"),
        ("https://arxiv.org/abs/hep-th/9901001v1", "arXiv address", "hep-th/9901001"),
        ("https://paperswithcode.com/paper/no-such-paper", "Papers-with-Code address", "no-such-paper"),
        ("10.1000/xyz123", "DOI", "10.1000/xyz123"),
    ],
)
def test_an_identifier_of_no_known_paper_says_so_plainly(client, gpipe, q, kind, value):
    response = client.get("/search", {"q": q})
    assert response.status_code == 200
    page = response.content.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert f"No paper with the {kind} {value} is known to this catalogue" in text


@pytest.mark.parametrize("q", ["gpipe", "pipeline parallelism", "1811", "10.5 percent", "arxiv"])
def test_words_are_not_identifiers(q):
    assert reads.pasted.recognise(q) is None


def test_the_search_page_has_one_search_box_and_lists_results_before_folded_facets(client, gpipe):
    page = client.get("/search", {"q": "GPipe"}).content.decode()
    assert page.count('type="search"') == 1
    assert 'id="site-q"' not in page
    assert page.index('class="hits"') < page.index('class="facets"')
    assert '<details class="facets-fold">' in page  # folded (opened beside the results on a wide screen)
    other = client.get("/papers/").content.decode()
    assert other.count('type="search"') == 1
    assert 'id="site-q"' in other
