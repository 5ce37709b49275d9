"""One client address per request (config.client_address), the same for the API's rate limit,
the login lock-out and the request log: X-Forwarded-For counts only as far as TRUSTED_PROXIES
says proxies of ours wrote it; with none (the default) the address is the connection's.
"""

import json
import logging
import os
import subprocess
import sys

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from tests.admin_client import make_curator
from tests.api_helpers import V1
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"  # the reverse proxy in front of gunicorn, as gunicorn sees it
ALICE, BOB = "198.51.100.7", "198.51.100.8"


@pytest.fixture
def rate_of_three(settings):
    # The real throttle (catalogue.api.throttling) at a rate a test reaches in a few requests.
    settings.API_THROTTLE_ANON = "3/minute"
    cache.clear()
    yield
    cache.clear()


def statuses(client, n, **headers):
    return [client.get(f"{V1}/tasks/", **headers).status_code for _ in range(n)]


def test_a_made_up_forwarded_for_does_not_escape_the_rate_limit(db, rate_of_three, settings):
    assert settings.TRUSTED_PROXIES == 0  # the default: no proxy, the header is the client's own words
    client = APIClient(REMOTE_ADDR=ALICE)
    answers = [
        client.get(f"{V1}/tasks/", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(1, 6)
    ]
    assert answers == [200, 200, 200, 429, 429]


def test_behind_one_proxy_each_client_is_limited_by_the_address_the_proxy_saw(db, rate_of_three, settings):
    settings.TRUSTED_PROXIES = 1
    via_proxy = APIClient(REMOTE_ADDR=PROXY)
    # The proxy appends the address it was reached from: Alice's requests and Bob's are told apart.
    assert statuses(via_proxy, 3, HTTP_X_FORWARDED_FOR=ALICE) == [200, 200, 200]
    assert statuses(via_proxy, 1, HTTP_X_FORWARDED_FOR=ALICE) == [429]
    assert statuses(via_proxy, 1, HTTP_X_FORWARDED_FOR=BOB) == [200]
    # What Alice writes herself stands left of what the proxy appended, and changes nothing.
    spoofed = [
        via_proxy.get(f"{V1}/tasks/", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, {ALICE}").status_code
        for n in range(3)
    ]
    assert spoofed == [429, 429, 429]


def test_behind_two_proxies_the_address_two_hops_in_is_the_clients(db, rate_of_three, settings):
    settings.TRUSTED_PROXIES = 2
    via_proxies = APIClient(REMOTE_ADDR=PROXY)
    assert statuses(via_proxies, 4, HTTP_X_FORWARDED_FOR=f"6.6.6.6, {ALICE}, 10.0.0.9") == [
        200,
        200,
        200,
        429,
    ]
    assert statuses(via_proxies, 1, HTTP_X_FORWARDED_FOR=f"{BOB}, 10.0.0.9") == [200]


@pytest.mark.parametrize(
    ("trusted", "meta", "expected"),
    [
        (0, {"HTTP_X_FORWARDED_FOR": ALICE}, PROXY),
        (1, {}, PROXY),  # not through the proxy after all: nothing to trust
        (1, {"HTTP_X_FORWARDED_FOR": f"1.2.3.4,{ALICE}"}, ALICE),
        (1, {"HTTP_X_FORWARDED_FOR": " 2001:db8::7 "}, "2001:db8::7"),
        (1, {"HTTP_X_FORWARDED_FOR": "not-an-address"}, PROXY),  # never stored as an address
        (2, {"HTTP_X_FORWARDED_FOR": ALICE}, PROXY),  # fewer hops than proxies: not ours
        (2, {"HTTP_X_FORWARDED_FOR": f"{ALICE}, {BOB}"}, ALICE),
    ],
)
def test_the_client_address(rf, settings, trusted, meta, expected):
    from config.client_address import client_address

    settings.TRUSTED_PROXIES = trusted
    assert client_address(rf.get("/", REMOTE_ADDR=PROXY, **meta)) == expected


PASSWORD = "cora-curates-papers-2026"  # make_curator's password for "cora"


def log_in(client, password, forwarded_for):
    return client.post(
        reverse("admin:login"),
        {"username": "cora", "password": password, "next": reverse("admin:index")},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@override_settings(AXES_FAILURE_LIMIT=3, TRUSTED_PROXIES=1)
def test_the_login_lock_out_keys_on_the_same_address():
    make_curator("cora")
    guesser = Client()
    assert [log_in(guesser, "wrong", f"6.6.6.{n}, {ALICE}").status_code for n in range(3)] == [200, 200, 429]
    assert AccessAttempt.objects.get(username="cora").ip_address == ALICE
    # Bob, behind the same proxy, is another address: his login goes through.
    assert log_in(Client(), PASSWORD, BOB).status_code == 302


@override_settings(AXES_FAILURE_LIMIT=3)
def test_without_a_proxy_the_lock_out_ignores_forwarded_for():
    make_curator("cora")
    guesser = Client()
    assert [log_in(guesser, "wrong", f"6.6.6.{n}").status_code for n in range(3)] == [200, 200, 429]
    assert AccessAttempt.objects.get(username="cora").ip_address == PROXY


def test_the_request_log_names_the_same_address(client, settings, caplog):
    settings.TRUSTED_PROXIES = 1
    with caplog.at_level(logging.INFO, logger="catalogue.requests"):
        client.get("/healthz", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"6.6.6.6, {ALICE}")
    (record,) = [r for r in caplog.records if r.name == "catalogue.requests"]
    assert record.client == ALICE
    from config.observability import JsonLineFormatter

    assert json.loads(JsonLineFormatter().format(record))["client"] == ALICE


def test_trusted_proxies_is_read_from_the_environment():
    code = "from django.conf import settings; print(settings.TRUSTED_PROXIES)"
    assert settings_value(code) == "0"
    assert settings_value(code, TRUSTED_PROXIES="2") == "2"
    assert settings_value(code, API_NUM_PROXIES="1") == "1"  # its name before TRUSTED_PROXIES


def settings_value(code: str, **env) -> str:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "TRUSTED_PROXIES", "API_NUM_PROXIES"}
    }
    setup = (
        "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "import django; django.setup();"
    )
    done = subprocess.run(
        [sys.executable, "-c", setup + code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def test_a_bad_trusted_proxies_is_refused_naming_it():
    message = settings_value("", TRUSTED_PROXIES="one")
    assert "TRUSTED_PROXIES='one'" in message
    assert "TRUSTED_PROXIES" in settings_value("", TRUSTED_PROXIES="-1")
