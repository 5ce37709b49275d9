"""Strict parameters: a query parameter the resource does not read is never silently ignored.

The API answers 400 naming it (before any query runs, so a random parameter costs nothing);
a public page redirects to its address without it. The response cache keys on the known
parameters only, in one order.
"""

import html
import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from catalogue import caching
from catalogue.models import Sample
from catalogue.web.pageframe import cached_page, param
from tests.api_helpers import GPIPE, V1, get
from tests.conftest import SEED_PAGE_KINDS
from tests.factories import make_repo

BODY = "c233d4777fc58003"


@pytest.fixture
def cache_on(settings, api_throttle_off):
    settings.PAGE_CACHE_SECONDS = 60


# --- the API ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [f"{V1}/papers/?year=2019&author=Le", f"{V1}/papers/{GPIPE}/?page=2", f"{V1}/samples/?body_sha=x"],
)
def test_an_unknown_api_parameter_is_a_400_naming_it_without_a_query(
    api, db, cache_on, django_assert_num_queries, url
):
    with django_assert_num_queries(0):  # not even the cache's data version
        response = api.get(url)
    assert response.status_code == 400
    unknown = sorted(set(re.findall(r"[?&]([^=]+)=", url)))
    body = response.json()
    assert sorted(body) == unknown
    # Each message lists what the resource does read.
    accepted = body[unknown[0]][0]
    assert "format" in accepted
    if "/samples/" in url:
        assert "body, code_entry, code_sha256_prefix" in accepted


def test_format_pagination_and_filters_are_known(api, loaded_seeds, api_throttle_off):
    get(api, f"{V1}/papers/", format="json", page=1, items_per_page=2, ordering="title", q="pipeline")
    get(api, f"{V1}/papers/", pagination="cursor", items_per_page=2)
    get(api, f"{V1}/papers/{GPIPE}/", format="json")
    # A list without a cursor mode reads no cursor.
    assert list(get(api, f"{V1}/papers/{GPIPE}/results/", expect=400, cursor="x")) == ["cursor"]


def test_the_api_cache_keys_on_known_parameters_in_one_order(api, loaded_seeds, cache_on):
    first = api.get(f"{V1}/papers/?ordering=title&items_per_page=2")
    with CaptureQueriesContext(connection) as ctx:
        again = api.get(f"{V1}/papers/?items_per_page=2&ordering=title")
    assert len(ctx.captured_queries) == 1  # the data version: the copy was served
    assert again.content == first.content


def test_a_cache_key_holds_only_known_parameters_by_name():
    def key(query, known=None):
        return caching.key_for(RequestFactory().get("/papers/" + query), "page", "v1", known)

    assert key("?b=1&a=2") == key("?a=2&b=1")
    assert key("?a=2&utm_source=x", known={"a"}) == key("?a=2", known={"a"})
    assert key("?a=1&a=2") != key("?a=2&a=1")  # a repeated parameter's values keep their order
    assert key("?a=2") != key("?a=3")


def test_the_body_pages_json_link_lists_exactly_its_places(client, api, loaded_seeds, api_throttle_off):
    page = client.get(f"/body/{BODY}").content.decode()
    link = re.search(r'This page as JSON: <a href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert link == f"{V1}/samples/?body={BODY}"
    places = Sample.objects.filter(body__sha256_prefix=BODY).count()
    assert 0 < places < Sample.objects.count()
    assert get(api, link)["count"] == places
    assert list(get(api, f"{V1}/samples/", expect=400, body="0123456789abcdef")) == ["body"]


def test_stars_as_the_pwc_client_sends_it_reads_as_the_answers_do(api, loaded_seeds, api_throttle_off):
    every = get(api, f"{V1}/repositories/")["count"]
    assert every > 0
    assert get(api, f"{V1}/repositories/", stars=0)["count"] == every  # every repository reads 0
    assert get(api, f"{V1}/repositories/", stars=1)["count"] == 0
    get(api, f"{V1}/repositories/", expect=400, stars="many")


def test_a_repository_not_on_github_is_found_by_its_host(api, db, api_throttle_off):
    make_repo(owner="team", name="tool")
    make_repo(host="gitlab.com", owner="team", name="tool", key="gitlab.com/team/tool")
    assert get(api, f"{V1}/repositories/team/tool/")["url"].startswith("https://github.com/")
    assert get(api, f"{V1}/repositories/team/tool/", host="gitlab.com")["url"].startswith(
        "https://gitlab.com/"
    )
    get(api, f"{V1}/repositories/team/tool/", expect=404, host="codeberg.org")
    get(api, f"{V1}/repositories/team/tool/papers/", host="gitlab.com")


def test_every_parameter_read_is_documented_and_every_documented_one_read(api, db, api_throttle_off):
    schema = get(api, f"{V1}/schema/", format="json")
    checked = 0
    for path, operations in schema["paths"].items():
        documented = {p["name"] for p in operations["get"].get("parameters", []) if p["in"] == "query"}
        view_class = resolve(re.sub(r"\{[^}]+\}", "x", path)).func.view_class
        known = view_class().known_query_params() - {"format"}
        assert documented == known, path
        checked += 1
    assert checked > 40


# --- the pages ----------------------------------------------------------------------------


def test_a_page_sends_an_unknown_parameter_away_without_a_query(
    client, db, cache_on, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get("/papers/?utm_source=news&year=2018&fbclid=x&task=image-classification")
    assert response.status_code == 301
    assert response["Location"] == "/papers/?task=image-classification&year=2018"  # by name
    assert "Accept" in response["Vary"]
    assert client.get("/about?ref=x")["Location"] == "/about"
    assert client.get("/author/Yanping%20Huang?page=2")["Location"] == "/author/Yanping%20Huang"
    assert client.get("/papers.json?colour=blue")["Location"] == "/papers.json"


def test_a_pages_copy_is_keyed_on_its_parameters_in_one_order(client, loaded_seeds, cache_on):
    first = client.get("/papers/?year=2018&has_code=1")
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        again = client.get("/papers/?has_code=1&year=2018")
    assert len(ctx.captured_queries) == 1  # the data version: the copy was served
    assert again.status_code == 200


def test_the_benchmarks_cache_bust_parameter_exists_only_when_configured(
    client, loaded_seeds, cache_on, settings
):
    assert client.get("/?zzpoll=1").status_code == 301
    settings.CACHE_BUST_PARAM = "zzpoll"
    assert client.get("/?zzpoll=1").status_code == 200
    with CaptureQueriesContext(connection) as fresh:
        assert client.get("/?zzpoll=2").status_code == 200
    with CaptureQueriesContext(connection) as cached:
        client.get("/?zzpoll=2")
    assert len(fresh.captured_queries) > len(cached.captured_queries) == 1


def test_the_sites_own_links_feeds_and_sitemaps_carry_only_what_pages_read(client, loaded_seeds):
    texts = {page: client.get(page).content.decode() for page in SEED_PAGE_KINDS}
    sitemap = client.get("/sitemap.xml").content.decode()
    for section in re.findall(r"http://testserver(/[^<]+)", sitemap):
        texts[section] = client.get(section).content.decode()
    addresses = set()
    for page, text in texts.items():
        for link in re.findall(r'(?:href="|<loc>)(?:http://testserver)?([/?][^"<]*)', text):
            link = html.unescape(link)
            link = page.split("?")[0] + link if link.startswith("?") else link  # this page, other query
            if "?" in link and not link.startswith(("/api/", "/static/")):
                addresses.add(link)
        # What each GET form submits: every field it names, empty.
        for attributes, fields in re.findall(r'<form([^>]*method="get"[^>]*)>(.*?)</form>', text, re.S):
            action = re.search(r'action="([^"]*)"', attributes)
            names = sorted(set(re.findall(r'name="([^"]+)"', fields)))
            addresses.add(
                (action[1] if action else page.split("?")[0]) + "?" + "&".join(f"{n}=" for n in names)
            )
    assert len(addresses) > 20
    for address in sorted(addresses):
        assert client.get(address).status_code == 200, address


def test_a_page_must_name_every_parameter_it_reads(rf):
    @cached_page(reads=("q",))
    def page(request):
        return HttpResponse(param(request, "q") + param(request, "sort"))

    with pytest.raises(ImproperlyConfigured, match=r"\?sort="):
        page(rf.get("/x", {"q": "a"}))
