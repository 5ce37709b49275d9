"""Every public page renders with the shared frame: attribution, no inline style or script, robots and
sitemaps, friendly 404 and 500 pages, and a page for any malformed query string."""

import re

import pytest
from django.views.defaults import server_error

from catalogue import attribution
from tests.pages import assert_only_json_ld_scripts, html
from tests.web.pages.conftest import GPIPE

pytestmark = pytest.mark.django_db


SEED_PAGES = [
    "/",
    "/search?q=training",
    "/search?q=gpipe&kind=paper",
    "/papers/",
    "/papers/?sort=title",
    "/papers/?sort=samples&ran=1",
    GPIPE,
    "/paper/arxiv-2510-16415",
    "/code/",
    "/code/?sort=ran",
    "/code/?q=forward",
    "/code/forward-step-func",
    "/code/check-args-torchrun-main?status=unverified",
    "/body/c233d4777fc58003",
    "/repo/pytorch/pippy",
    "/sota/image-classification-on-imagenet",
    "/sota/fine-grained-image-classification-on-birdsnap",
    "/task/image-classification",
    "/method/gpipe",
    "/sota/",
    "/tasks/?sort=leaderboards",
    "/datasets/?modality=Images",
    "/dataset/imagenet",
    "/methods/",
    "/author/Yanping%20Huang",
    "/proceedings/",
    "/about",
    "/attribution",
    "/data/",
]


# --- every page renders, with the shared frame --------------------------------------


@pytest.mark.parametrize("url", SEED_PAGES)
def test_every_page_renders_with_attribution_and_no_inline_style_or_script(client, loaded_seeds, url):
    page = html(client, url)
    assert attribution.SOURCE in page  # the full notice (tests/web/test_attribution.py)
    assert attribution.NON_AFFILIATION in page
    assert 'href="/about"' in page
    assert '<meta name="description" content="' in page
    assert '<meta property="og:title"' in page
    assert not re.search(r"\sstyle=", page), "inline style attribute"
    assert_only_json_ld_scripts(page)


def test_robots_and_sitemaps(client, loaded_seeds, monkeypatch):
    robots = html(client, "/robots.txt")
    assert "Sitemap: http://testserver/sitemap.xml" in robots
    assert "Disallow: /search" in robots
    index = html(client, "/sitemap.xml")
    for section in ("papers", "code", "repositories", "leaderboards", "tasks", "methods", "pages"):
        assert f"/sitemap-{section}.xml" in index
    papers = html(client, "/sitemap-papers.xml")
    assert f"http://testserver{GPIPE}</loc>" in papers
    assert "/repo/pytorch/pippy</loc>" in html(client, "/sitemap-repositories.xml")

    from catalogue.web import sitemaps

    monkeypatch.setattr(sitemaps.PaperSitemap, "limit", 5)
    index = html(client, "/sitemap.xml")
    assert "/sitemap-papers.xml?p=3" in index  # 13 papers, 5 a page
    assert html(client, "/sitemap-papers.xml?p=3").count("<loc>") == 3


def test_not_found_is_a_friendly_page(client, loaded_seeds):
    page = html(client, "/paper/no-such-paper", status=404)
    assert "Nothing here" in page
    assert "CC BY-SA 4.0" in page


def test_server_error_page_needs_no_context(rf):
    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "CC BY-SA 4.0" in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/paper/%00",
        "/paper/" + "x" * 4000,  # longer is a 414 (config.request_checks)
        "/code/%00evil",
        "/code/no-such-entry",
        "/body/C233D4777FC58003",
        "/body/c233",
        "/body/0000000000000000",
        "/repo/pytorch/pippy?host=gitlab.com",
        "/repo/nobody/nothing",
        "/sota/no-such-board",
        "/task/%00",
        "/method/nope",
    ],
)
def test_unknown_addresses_are_404(client, loaded_seeds, url):
    html(client, url, status=404)


@pytest.mark.parametrize(
    "query",
    [
        "?page=abc",
        "?page=-1",
        "?page=99999999999999999999",
        "?after=%%%",
        "?after=bm90IGpzb24",
        "?after=WyJ4IiwieSJd",  # ["x","y"]: a cursor of the wrong types
        "?before=" + "A" * 4000,
        "?q=" + "training%20" * 300,
        "?year=99999999999999",
        "?year=abc",
        "?sort=%ff",
        "?status=bogus",
        "?task=%ed%a0%80&method=..",
        "?kind=x&official=%ff",
        "?metric=%2F",
        "?host=%20",
    ],
)
@pytest.mark.parametrize(
    "path",
    [
        "/papers/",
        "/search",
        "/code/",
        "/code/forward-step-func",
        "/body/c233d4777fc58003",
        "/repo/pytorch/pippy",
    ],
)
def test_malformed_query_strings_give_a_page(client, loaded_seeds, path, query):
    # A parameter the page does not read sends it to its address without it (one redirect).
    response = client.get(path + query, follow=True)
    assert response.status_code == 200, (path, query, response.status_code)
    assert len(response.redirect_chain) <= 1


def test_favicon_ico_leads_to_the_site_s_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.svg")
