"""Admin safety: login lock-out (django-axes), cookie flags, CSRF."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from catalogue.models import Paper
from tests.admin_client import make_curator
from tests.environment import setting_in_a_fresh_process

pytestmark = pytest.mark.django_db

PASSWORD = "cora-curates-papers-2026"  # make_curator's password for "cora"


@pytest.fixture
def curator(db):
    return make_curator("cora")


def log_in(client, username, password, address):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password, "next": reverse("admin:index")},
        REMOTE_ADDR=address,
    )


def fail_until_locked(client, username, address):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, username, "wrong password", address).status_code == 200  # the form again
    return log_in(client, username, "wrong password", address)


@override_settings(AXES_FAILURE_LIMIT=3)
def test_repeated_failures_lock_out_that_username_from_that_address(curator):
    client = Client()
    assert fail_until_locked(client, "cora", "203.0.113.7").status_code == 429
    # Locked: even the right password is refused from there, with 429 and nothing logged in.
    locked = log_in(client, "cora", PASSWORD, "203.0.113.7")
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert "_auth_user_id" not in client.session

    # The same curator from another address, and another user from that address, are unaffected.
    elsewhere = Client()
    assert log_in(elsewhere, "cora", PASSWORD, "198.51.100.1").status_code == 302
    make_curator("olga")
    same_address = Client()
    assert log_in(same_address, "olga", "olga-curates-papers-2026", "203.0.113.7").status_code == 302


@override_settings(AXES_FAILURE_LIMIT=3, AXES_COOLOFF_TIME=timedelta(minutes=15))
def test_the_lock_out_ends_after_the_cool_off_period(curator):
    client = Client()
    assert fail_until_locked(client, "cora", "203.0.113.7").status_code == 429
    assert log_in(client, "cora", PASSWORD, "203.0.113.7").status_code == 429
    # Sixteen minutes later (moved in the records rather than waited for).
    attempts = AccessAttempt.objects.filter(username="cora")
    for attempt in attempts:
        attempt.attempt_time -= timedelta(minutes=16)
        attempt.save(update_fields=["attempt_time"])
    assert log_in(client, "cora", PASSWORD, "203.0.113.7").status_code == 302


def test_lockout_settings_are_the_username_and_address_pair_with_429():
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_HTTP_RESPONSE_CODE == 429
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_session_and_csrf_cookies_are_secure_and_the_session_http_only(curator):
    # The suite runs with DEBUG off, as production does: secure cookies are the default.
    response = log_in(Client(), "cora", PASSWORD, "192.0.2.10")
    assert response.status_code == 302
    session = response.cookies[settings.SESSION_COOKIE_NAME]
    assert session["secure"] is True
    assert session["httponly"] is True
    csrf = Client().get(reverse("admin:login")).cookies[settings.CSRF_COOKIE_NAME]
    assert csrf["secure"] is True


def _setting(name: str, **env) -> str:
    return setting_in_a_fresh_process(name, lambda k: k in {"DEBUG", "SECURE_COOKIES"}, **env)


@pytest.mark.parametrize(
    ("env", "secure"),
    [
        ({}, "True"),
        ({"DEBUG": "1"}, "False"),
        ({"SECURE_COOKIES": "0"}, "False"),
        ({"DEBUG": "1", "SECURE_COOKIES": "1"}, "True"),
    ],
)
def test_secure_cookies_follow_the_environment(env, secure):
    assert _setting("SESSION_COOKIE_SECURE", **env) == secure
    assert _setting("CSRF_COOKIE_SECURE", **env) == secure


def test_cool_off_and_failure_limit_come_from_the_environment():
    limit = _setting("AXES_FAILURE_LIMIT", AXES_FAILURE_LIMIT="7")
    cool_off = _setting("AXES_COOLOFF_TIME", AXES_COOLOFF_MINUTES="90")
    assert (limit, cool_off) == ("7", "1:30:00")


def test_admin_posts_need_a_csrf_token(curator, loaded_seeds):
    client = Client(enforce_csrf_checks=True)
    assert log_in(client, "cora", PASSWORD, "192.0.2.20").status_code == 403
    client.force_login(curator)
    paper = Paper.objects.get(arxiv_id="1811.06965")
    url = reverse("admin:catalogue_paper_change", args=[paper.pk])
    assert client.post(url, {"title": "No token", "row_version": paper.version}).status_code == 403
    paper.refresh_from_db()
    assert paper.title != "No token"
