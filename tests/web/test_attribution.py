"""catalogue.attribution: the notice in full on /attribution, in every page's footer, and in the API."""

import json

import pytest
from django.test import RequestFactory
from django.urls import reverse

from catalogue import attribution
from catalogue.export import DEFAULT_ABOUT
from catalogue.loader.archive import ARCHIVE_ABOUT
from config import errors
from tests.api_helpers import GPIPE, V1
from tests.conftest import SEEDS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

LICENCE_LINK = f'<{attribution.LICENCE_URL}>; rel="license"'
# The notice's exact sentences, written out here: the footer once dropped Syntology and the mirror.
SOURCE = (
    "Data from the Papers-with-Code archive, as published by the pwc-archive mirror (Hugging Face), "
    "licensed CC BY-SA 4.0; archive material modified by Syntology."
)
NON_AFFILIATION = (
    "Code with Papers and Syntology are not affiliated with, endorsed by, or sponsored by "
    "Papers with Code, Meta, or the pwc-archive mirror."
)


def _has_full_notice(page: str) -> None:
    assert SOURCE in page
    assert NON_AFFILIATION in page
    assert f'href="{attribution.LICENCE_URL}" rel="license"' in page


def test_the_attribution_page_says_what_comes_from_whom_under_which_licence(client, loaded_seeds):
    response = client.get("/attribution")
    assert response.status_code == 200
    page = response.content.decode()
    _has_full_notice(page)
    # The snapshots loaded, as the documents state them: the paper document's archive snapshot…
    assert "pwc-archive (Hugging Face), CC BY-SA 4.0" in page
    assert "2025-07-28" in page
    # …and Syntology's reading of the code-entry documents.
    assert "Syntology graph, per-sample; not an archive number" in page
    assert "2026-09-24" in page
    assert "Added or modified by Syntology" in page
    assert "<strong>code places</strong> (38 here" in page
    assert 'href="/corrections/"' in page  # what curators changed
    assert f'href="{attribution.LICENCE_LEGAL_CODE_URL}" rel="license"' in page
    assert 'href="/data/"' in page


def test_every_document_points_to_the_attribution_page_and_it_is_there(client, db):
    stated = {json.loads(seed.read_text())["about"]["attribution"] for seed in SEEDS}
    written = {DEFAULT_ABOUT["attribution"], ARCHIVE_ABOUT["attribution"]}  # dump_snapshot, archive dumps
    assert stated == written == {attribution.SITE + reverse("attribution")}
    assert client.get(reverse("attribution")).status_code == 200
    for key in ("licence", "licence_url", "non_affiliation"):  # the seeds' own words, kept
        assert {json.loads(seed.read_text())["about"][key] for seed in SEEDS} == {DEFAULT_ABOUT[key]}


@pytest.mark.parametrize(
    ("url", "status"), [("/", 200), (f"/paper/{GPIPE}", 200), ("/paper/no-such-paper", 404)]
)
def test_the_footer_of_every_kind_of_page_carries_the_full_notice(client, loaded_seeds, url, status):
    response = client.get(url)
    assert response.status_code == status
    footer = response.content.decode().split('<footer class="site-footer">')[1]
    _has_full_notice(footer)
    for page in ("/attribution", "/about", "/data/"):
        assert f'href="{page}"' in footer


def test_the_error_pages_carry_the_full_notice_without_a_request_context(db):
    request = RequestFactory().get("/")
    for response in (errors.server_error(request), errors.service_unavailable(request)):
        _has_full_notice(response.content.decode())


@pytest.mark.parametrize(
    "url", [f"{V1}/papers/", f"{V1}/papers/{GPIPE}/", f"{V1}/schema/", f"{V1}/", f"{V1}/no-such-thing/"]
)
def test_every_api_response_names_the_licence_once_even_from_the_cache(api, loaded_seeds, settings, url):
    settings.PAGE_CACHE_SECONDS = 60
    for _ in range(2):  # built, then served from the response cache
        response = api.get(url, HTTP_ORIGIN="https://example.org")
        links = response["Link"]
        assert links.count(LICENCE_LINK) == 1, links
        assert f'<{attribution.ATTRIBUTION_PATH}>; rel="describedby"' in links
        assert "Link" in response["Access-Control-Expose-Headers"]  # a browser client may read it


def test_the_api_root_and_the_openapi_info_state_the_licence_and_the_attribution(api, db):
    root = api.get(f"{V1}/").json()
    assert root["licence"]["name"] == "CC BY-SA 4.0"
    assert root["licence"]["url"] == attribution.LICENCE_URL
    assert root["attribution"]["notice"] == attribution.NOTICE
    assert root["attribution"]["url"] == "http://testserver/attribution"
    assert root["resources"]["loads"] == "http://testserver/api/v1/loads/"
    info = api.get(f"{V1}/schema/", {"format": "json"}).json()["info"]
    assert info["license"] == {"name": "CC BY-SA 4.0", "url": attribution.LICENCE_URL}
    assert attribution.NOTICE in info["description"]
