"""The paper page: what a reader needs, badges, redirects, JSON-LD, its JSON form, arXiv addresses
and labelled links."""

import json
import re

import pytest

from catalogue import models as m
from catalogue.addresses import api_url
from tests.factories import make_paper, make_repo
from tests.pages import html
from tests.web.pages.conftest import GPIPE

pytestmark = pytest.mark.django_db


# --- the paper page ---------------------------------------------------------------------


def test_paper_page_shows_what_a_reader_needs(client, loaded_seeds):
    page = html(client, GPIPE)
    for text in (
        "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
        "Yanping Huang",
        "16 November 2018",
        "NeurIPS 2019 12",
        'href="https://arxiv.org/abs/1811.06965v5"',
        'href="https://arxiv.org/pdf/1811.06965v5.pdf"',
        'href="/task/image-classification"',
        'href="/method/gpipe"',
        "Methods introduced",
        'href="/repo/KakaoBrain/torchgpipe"',
        "BSD-3-Clause",
        "4 of 5",
        "316 of 1060",
        "Top 1 Accuracy: <strong>84.4%</strong>",
        'href="/sota/image-classification-on-imagenet"',
        "Syntology’s claim:",
        "Per-sample execution status on synthesized fixtures",
        "25 September 2026",
        "pointer only",
        "OUTPUT_MISDECLARED",
        "deterministic",
        'href="/body/effafd8df78cdde1"',
        'href="https://github.com/alondj/Pytorch-Gpipe/blob/HEAD/sample_models/AlexNet.py"',
    ):
        assert text in page, text
    # Harvested samples are grouped by repository.
    groups = re.findall(r'<h3 class="repo-group"><a href="/repo/([^"]+)"', page)
    assert groups == ["alondj/Pytorch-Gpipe", "KakaoBrain/torchgpipe", "pytorch/pippy"]


def test_paper_page_marks_an_inferred_month(client, loaded_seeds):
    page = html(client, "/paper/arxiv-2510-16415")
    assert "October 2025" in page
    assert "inferred from the arXiv id" in page
    assert "inferred" not in html(client, GPIPE).split('<main id="main"')[1].split("Abstract")[0]


def test_paper_page_badges_official_and_mentioned_code(client, db):
    paper = make_paper()
    official, mentioned = make_repo(), make_repo()
    for repo, flags in ((official, {"is_official": True}), (mentioned, {"mentioned_in_paper": True})):
        m.CodeLink.objects.create(
            paper=paper, repo=repo, repo_url=repo.url, framework="jax", stamp="s", **flags
        )
    page = html(client, paper.get_absolute_url())
    assert 'class="badge badge-official"' in page
    assert 'class="badge badge-mentioned"' in page
    assert page.index(official.full_name) < page.index(mentioned.full_name)  # official first
    assert "jax" in page


def test_old_slugs_and_arxiv_addresses_redirect_permanently(client, loaded_seeds):
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    m.PaperSlug.objects.create(slug="gpipe-old-slug", paper=paper, last_stamp="s")
    for old in ("/paper/gpipe-old-slug", "/paper/arxiv-1811-06965"):
        response = client.get(old)
        assert response.status_code == 301
        assert response["Location"] == GPIPE


def test_json_ld_describes_the_paper(client, loaded_seeds):
    page = html(client, GPIPE)
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])
    assert data["@type"] == "ScholarlyArticle"
    assert data["headline"].startswith("GPipe")
    assert data["author"][0] == {"@type": "Person", "name": "Yanping Huang"}
    assert data["datePublished"] == "2018-11-16"
    assert data["identifier"] == "arXiv:1811.06965"


def test_pages_link_their_json_form(client, loaded_seeds):
    cases = {
        GPIPE: "/api/v1/papers/gpipe-efficient-training-of-giant-neural/",
        "/code/forward-step-func": "/api/v1/code-entries/forward-step-func/",
        "/repo/pytorch/pippy": "/api/v1/repositories/pytorch/pippy/",
        "/task/image-classification": "/api/v1/tasks/image-classification/",
        "/method/gpipe": "/api/v1/methods/gpipe/",
        "/sota/image-classification-on-imagenet": "/api/v1/evaluations/image-classification-on-imagenet/",
        "/body/c233d4777fc58003": "/api/v1/samples/?body=c233d4777fc58003",
    }
    for url, api in cases.items():
        page = html(client, url)
        json_form = url.split("?")[0] + ".json"
        assert f'<link rel="alternate" type="application/json" href="{json_form}">' in page, url
        assert f'<a href="{api}" type="application/json">' in page, url


def test_api_urls_quote_path_segments():
    assert api_url("papers", "a/b c") == "/api/v1/papers/a%2Fb%20c/"
    assert api_url("samples", body="abc") == "/api/v1/samples/?body=abc"


@pytest.mark.parametrize(
    "address", ["/paper/hep-th/9901001", "/abs/hep-th/9901001v3", "/abs/math.GT/0309136"]
)
def test_an_old_style_arxiv_id_with_its_slash_finds_its_paper(client, db, address):
    arxiv_id = address.removeprefix("/paper/").removeprefix("/abs/").removesuffix("v3")
    paper = make_paper(arxiv_id=arxiv_id, slug=f"old-style-{arxiv_id.replace('/', '-').replace('.', '-')}")
    response = client.get(address)
    assert response.status_code == 301
    assert response["Location"] == paper.get_absolute_url()


@pytest.mark.parametrize(
    "address", ["/abs/1811.06965", "/paper/1811.06965", "/abs/not-an-id", "/paper/hep-th/9901001"]
)
def test_an_arxiv_id_of_no_paper_is_not_found(client, db, address):
    make_paper(arxiv_id="2001.00001")
    assert client.get(address).status_code == 404


@pytest.mark.parametrize(
    ("url_abs", "label"),
    [
        ("https://arxiv.org/abs/1811.06965v5", "arXiv abstract"),
        ("https://www.semanticscholar.org/paper/abc123", "Abstract"),
        ("https://aclanthology.org/P19-1001/", "ACL Anthology"),
        ("https://openreview.net/forum?id=rJl-b3RcF7", "OpenReview"),
        ("https://doi.org/10.1109/CVPR.2016.90", "DOI"),
        ("https://example.org/papers/paper.pdf", "PDF"),
    ],
)
def test_a_paper_s_links_are_labelled_by_what_they_are(client, db, url_abs, label):
    paper = make_paper(url_abs=url_abs, url_pdf="https://example.org/paper.pdf")
    page = html(client, paper.get_absolute_url())
    assert f'<a href="{url_abs}" rel="noopener">{label}</a>' in page
    assert '<a href="https://example.org/paper.pdf" rel="noopener">PDF</a>' in page
    if label != "arXiv abstract":
        assert "arXiv abstract" not in page
