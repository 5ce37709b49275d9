"""Issue 38's API gaps: a dataset's evaluations (Papers with Code's path), authors by slug as well
as by exact name (one canonical address, 301 from the other), and the licence on every JSON form
of a page (``Link: <…>; rel="license"``) and in every Atom feed (``<rights>``)."""

import xml.etree.ElementTree as ET

import pytest

from catalogue import attribution, authors, counters
from catalogue.models import Author, Paper
from tests.conftest import SEEDS, load

GPIPE = "gpipe-efficient-training-of-giant-neural"
V1 = "/api/v1"
LICENCE_LINK = f'<{attribution.LICENCE_URL}>; rel="license"'
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def seeded(db, api_throttle_off):
    load(*SEEDS)


def test_a_datasets_evaluations_are_its_leaderboards(api, seeded):
    body = api.get(f"{V1}/datasets/cifar-100/evaluations/").json()
    assert [e["id"] for e in body["results"]] == ["image-classification-on-cifar-100"]
    assert body["results"][0]["dataset"] == "CIFAR-100"
    assert api.get(f"{V1}/datasets/no-such-dataset/evaluations/").status_code == 404
    assert api.get(f"{V1}/datasets/cifar-100/evaluations/", {"colour": "blue"}).status_code == 400


def test_slug_rule_and_its_deterministic_choice(seeded):
    assert authors.slug("Yanping Huang") == "yanping-huang"
    assert authors.slug("Ng / O'Brien (né Smith)") == "ng-obrien-ne-smith"
    assert authors.slug("张三") == ""
    assert authors.by_slug("yanping-huang") == "Yanping Huang"
    assert authors.by_slug("Yanping-Huang") is None  # only a slug as written is read as one
    assert authors.by_slug("nobody-at-all") is None
    # Two more names that slug alike: the one on the most papers wins, then code-point order.
    papers = list(Paper.objects.order_by("slug")[:3])
    for paper in papers[:2]:
        Author.objects.create(paper=paper, position=90, name="yanping huang")
    Author.objects.create(paper=papers[2], position=91, name="Yanping  Huang.")
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)
    assert Author.objects.filter(name="Yanping Huang").values("paper").distinct().count() == 1
    assert authors.by_slug("yanping-huang") == "yanping huang"  # 2 papers beat 1
    Author.objects.create(paper=papers[2], position=92, name="Yanping Huang")
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)
    assert authors.by_slug("yanping-huang") == "Yanping Huang"  # 2 and 2: "Y" < "y"


def test_an_authors_slug_address_redirects_to_the_one_canonical_page(client, seeded):
    response = client.get("/author/yanping-huang")
    assert response.status_code == 301
    assert response["Location"] == "/author/Yanping%20Huang"
    assert client.get(response["Location"]).status_code == 200
    assert client.get("/author/Yanping%20Huang").status_code == 200  # the exact name, unchanged
    assert client.get("/author/nobody-at-all").status_code == 404
    # a page's place in the list is kept, an unknown parameter sent away first as on every page
    assert client.get("/author/yanping-huang?after=x")["Location"] == "/author/Yanping%20Huang?after=x"


def test_an_authors_slug_sends_its_json_and_markdown_forms_to_the_canonical_ones(client, seeded):
    assert client.get("/author/yanping-huang.json")["Location"] == "/author/Yanping%20Huang.json"
    assert client.get("/author/yanping-huang.md")["Location"] == "/author/Yanping%20Huang.md"
    for accept in ("application/json", "text/markdown"):
        response = client.get("/author/yanping-huang", headers={"accept": accept})
        assert response.status_code == 301, accept
        assert response["Location"] == "/author/Yanping%20Huang"
    assert client.get("/author/Yanping%20Huang.json").json()["id"] == "Yanping Huang"
    assert client.get("/author/Yanping%20Huang.md").content.decode().startswith("# Yanping Huang")
    assert client.get("/author/nobody-at-all.json").status_code == 404


def test_an_authors_slug_id_in_the_api_redirects_to_its_exact_name(api, seeded):
    for tail in ("", "papers/"):
        response = api.get(f"{V1}/authors/yanping-huang/{tail}")
        assert response.status_code == 301, tail
        assert response["Location"] == f"{V1}/authors/Yanping%20Huang/{tail}"
        assert api.get(response["Location"]).status_code == 200
        assert LICENCE_LINK in response["Link"]
    kept = api.get(f"{V1}/authors/yanping-huang/papers/", {"items_per_page": 2})
    assert kept["Location"] == f"{V1}/authors/Yanping%20Huang/papers/?items_per_page=2"
    assert api.get(f"{V1}/authors/nobody-at-all/").status_code == 404
    assert api.get(f"{V1}/authors/Yanping%20Huang/").json()["id"] == "Yanping Huang"


@pytest.mark.parametrize(
    ("address", "page"),
    [
        (f"/paper/{GPIPE}.json", f"/paper/{GPIPE}"),
        ("/papers.json", "/papers/"),
        ("/task/image-classification.json", "/task/image-classification"),
        ("/about.json", "/about"),  # a 406: no JSON form, still a JSON answer
    ],
)
def test_every_json_form_of_a_page_names_the_licence_once(client, seeded, settings, address, page):
    settings.PAGE_CACHE_SECONDS = 60
    for _ in range(2):  # built, then from the cache
        response = client.get(address)
        assert response["Content-Type"].startswith("application/json"), address
        assert response["Link"].count(LICENCE_LINK) == 1, address
    accepted = client.get(page, headers={"accept": "application/json"})
    assert accepted["Link"].count(LICENCE_LINK) == 1
    html = client.get(page, headers={"accept": "text/html"})
    assert "Link" not in html  # the HTML page states it in its footer, as before


@pytest.mark.parametrize(
    "feed",
    [
        "/papers/feed",
        "/task/image-classification/feed",
        "/sota/image-classification-on-imagenet/feed",
        "/code/forward-step-func/feed",
        "/corrections/feed",
    ],
)
def test_every_atom_feed_states_its_rights(client, seeded, feed):
    response = client.get(feed)
    assert response.status_code == 200, feed
    rights = ET.fromstring(response.content).find(f"{ATOM}rights")
    assert rights is not None, feed
    assert attribution.LICENCE_URL in rights.text
    assert attribution.NOTICE in rights.text
