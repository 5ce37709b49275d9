"""The site's security promises over HTTP (SECURITY.md lists them all).

Headers on every response (Content-Security-Policy, HSTS, nosniff, Referrer-Policy,
X-Frame-Options), no cookie for anonymous readers, cookie flags where cookies exist, a wrong
Host refused, error pages that give nothing away and keep the headers, JSON errors under /api/.
"""

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.urls import include, path, reverse

from catalogue.models import Paper
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 (the site's, for this URLconf)
from tests.admin_client import make_curator
from tests.conftest import SEED_PAGE_KINDS
from tests.environment import setting_in_a_fresh_process

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = [
    *SEED_PAGE_KINDS,
    "/search?q=training&kind=paper",
    "/robots.txt",
    "/sitemap.xml",
    "/healthz",
    "/readyz",
]
API = [
    "/api/v1/search/?q=training",
    "/api/v1/papers/",
    "/api/v1/papers/1811.06965/",
    "/api/v1/papers/1811.06965/repositories/",
    "/api/v1/papers/1811.06965/tasks/",
    "/api/v1/papers/1811.06965/methods/",
    "/api/v1/papers/1811.06965/results/",
    "/api/v1/papers/1811.06965/samples/",
    "/api/v1/repositories/",
    "/api/v1/repositories/pytorch",
    "/api/v1/repositories/pytorch/pippy/",
    "/api/v1/tasks/",
    "/api/v1/methods/",
    "/api/v1/evaluations/",
    "/api/v1/code-entries/",
    "/api/v1/samples/",
    "/api/v1/schema/",
    "/api/docs/",
    "/api/docs/?script=",
    "/api/redoc/",
]
HTML_PAGES = [p for p in PUBLIC_PAGES if p not in {"/robots.txt", "/sitemap.xml", "/healthz", "/readyz"}]
# Feeds the seeds leave empty (they state no correction).
EMPTY_FEEDS = {"/corrections/feed"}
_NO_UPDATED = re.compile(rb"<updated>[^<]*</updated>")


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = [d.split() for d in header.split(";") if d.strip()]
    return {name: values for name, *values in directives}


# --- headers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", PUBLIC_PAGES + API)
def test_every_response_carries_the_security_headers(client, loaded_seeds, url):
    for _ in range(2):  # the second time from the page cache, which must not lose them
        response = client.get(url, secure=True)
        assert response.status_code == 200, url
        assert "Content-Security-Policy" in response
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"
        assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
        assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_the_policy_is_strict(client, loaded_seeds):
    rules = policy(client.get("/paper/gpipe-efficient-training-of-giant-neural"))
    assert rules["default-src"] == ["'none'"]
    assert rules["object-src"] == ["'none'"]
    assert rules["base-uri"] == ["'none'"]
    assert rules["frame-ancestors"] == ["'none'"]
    assert rules["form-action"] == ["'self'"]
    for name in ("script-src", "style-src"):
        assert rules[name][0] == "'self'"
        for value in rules[name][1:]:
            assert value.startswith("'nonce-"), (name, value)
    everything = " ".join(v for values in rules.values() for v in values)
    assert "unsafe-" not in everything
    assert "*" not in everything
    assert "http:" not in everything
    assert "https:" not in everything


def test_the_admin_and_the_docs_get_a_fresh_nonce_each_response(client, loaded_seeds):
    client.force_login(make_curator("cora"))
    url = reverse("admin:catalogue_paper_change", args=[Paper.objects.get(arxiv_id="1811.06965").pk])
    nonces = set()
    for _ in range(2):
        response = client.get(url)
        assert response.status_code == 200
        (nonce,) = [v for v in policy(response)["script-src"] if v.startswith("'nonce-")]
        assert f'nonce="{nonce[7:-1]}"' in response.content.decode()
        nonces.add(nonce)
    assert len(nonces) == 2


def test_redoc_alone_gets_the_extras_its_bundle_needs(client):
    redoc = policy(client.get("/api/redoc/"))
    site = policy(client.get("/about"))
    assert redoc["script-src"][0] == "'self'"
    assert all(v.startswith("'nonce-") for v in redoc["script-src"][1:])
    assert "unsafe-" not in client.get("/api/redoc/")["Content-Security-Policy"]
    assert "worker-src" not in site
    assert redoc["img-src"] == ["'self'", "data:", "https://cdn.redoc.ly/redoc/logo-mini.svg"]


@pytest.mark.parametrize("url", HTML_PAGES)
def test_cached_public_pages_hold_no_nonce(client, loaded_seeds, url):
    # Pages are cached whole and served to everyone: a nonce in one would be replayed, stale and
    # public. Their one inline script, JSON-LD, is a data block that CSP does not govern (shown in
    # Chromium by tests/web/browser/test_csp_browser.py), so it needs none.
    first, second = client.get(url), client.get(url)
    assert b"nonce" not in first.content
    if url in EMPTY_FEEDS:
        # A feed with no entry is as new as the request (Django's Feed: <updated> is now); the
        # page cache then serves that one copy to everyone. All else must be equal.
        assert b"<entry>" not in first.content
        first.content, second.content = (_NO_UPDATED.sub(b"", r.content, count=1) for r in (first, second))
    assert first.content == second.content
    assert all(not v.startswith("'nonce-") for v in policy(first)["script-src"])


def test_hsts_is_not_sent_over_plain_http(client):
    # Browsers ignore it there anyway; sending it only over HTTPS is Django's documented behaviour.
    assert "Strict-Transport-Security" not in client.get("/about")


# --- cookies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", PUBLIC_PAGES + API + ["/no/such/page", "/api/v1/no-such/"])
def test_anonymous_readers_get_no_cookie(loaded_seeds, url):
    client = Client()
    for _ in range(2):
        response = client.get(url)
        assert response.cookies == {}, url
        assert "Set-Cookie" not in response
        assert "Cookie" not in response.get("Vary", ""), url


def test_the_csrf_cookie_is_secure_and_out_of_javascripts_reach():
    response = Client().get(reverse("admin:login"))
    csrf = response.cookies[settings.CSRF_COOKIE_NAME]
    assert csrf["secure"] is True
    assert csrf["httponly"] is True
    assert csrf["samesite"] == "Lax"


# --- hosts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "localhost.evil.example", "localhost:8000@evil.example"])
def test_a_host_not_allowed_is_refused(client, host):
    response = client.get("/about", headers={"host": host})
    assert response.status_code == 400
    assert b"evil" not in response.content
    assert response["X-Frame-Options"] == "DENY"
    assert "Content-Security-Policy" in response
    api = client.get("/api/v1/papers/", headers={"host": host})
    assert api.status_code == 400
    assert api["Content-Type"] == "application/json"


# --- errors ----------------------------------------------------------------------------------

SECRET_MESSAGE = "SELECT password FROM auth_user -- boom"


def explode(request):
    raise RuntimeError(SECRET_MESSAGE)


def explode_in_the_database(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT no_such_column FROM no_such_table_for_a_test")


# The site's URLs plus views that fail, used as ROOT_URLCONF by the tests below (the error
# handlers are looked up on the root URLconf, so they are the site's).
urlpatterns = [
    path("boom", explode),
    path("boom-sql", explode_in_the_database),
    path("api/boom", explode),
    path("", include("config.urls")),
]


def assert_gives_nothing_away(response):
    body = response.content.decode()
    for leak in ("Traceback", "RuntimeError", "SELECT", "no_such_table", "SECRET_KEY", "settings", 'File "'):
        assert leak not in body, leak
    assert "Content-Security-Policy" in response
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
@pytest.mark.parametrize("url", ["/boom", "/boom-sql"])
def test_a_server_error_page_gives_nothing_away_and_keeps_the_headers(url):
    client = Client(raise_request_exception=False)
    response = client.get(url)
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
    assert_gives_nothing_away(response)


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
def test_a_server_error_under_the_api_is_json():
    response = Client(raise_request_exception=False).get("/api/boom")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Server error."}
    assert_gives_nothing_away(response)


def test_a_missing_page_keeps_the_headers(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert b"Nothing here" in response.content
    assert_gives_nothing_away(response)


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("get", "/api/nothing", 404),
        ("get", "/api/v1/no-such-resource/", 404),
        ("get", "/api/v1/papers/no-such-paper/", 404),
        ("get", "/api/v1/tasks/no-such-task/", 404),
        ("post", "/api/v1/papers/", 405),
        ("delete", "/api/v1/papers/1811.06965/", 405),
        ("put", "/api/v1/tasks/", 405),
        ("get", "/api/v1/papers/?page=abc", 400),
    ],
)
def test_api_errors_are_json(client, loaded_seeds, method, url, status):
    response = getattr(client, method)(url)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.json()
    assert_gives_nothing_away(response)


# --- settings from the environment -----------------------------------------------------------


def _setting(name: str, **env) -> str:
    return setting_in_a_fresh_process(name, lambda k: k.startswith(("DEBUG", "SECURE_")), **env)


@pytest.mark.parametrize(
    ("env", "seconds"),
    [({}, "31536000"), ({"DEBUG": "1"}, "0"), ({"SECURE_HSTS_SECONDS": "3600"}, "3600")],
)
def test_hsts_is_on_by_default_and_set_from_the_environment(env, seconds):
    assert _setting("SECURE_HSTS_SECONDS", **env) == seconds
