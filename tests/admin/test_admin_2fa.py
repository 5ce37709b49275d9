"""A second factor for staff (django-otp, TOTP): ADMIN_REQUIRE_2FA, setting up a device, logging in.

With ADMIN_REQUIRE_2FA on, a staff member's password alone never opens the admin: without a
device they are sent to set one up, and with one the login needs its current code. With it off,
the admin works as before for staff without a device, and a device, once set up, is asked for.
The setting is read per request (catalogue/twofactor/site.py), so tests override it.
"""

import io
import re
from datetime import timedelta
from urllib.parse import unquote

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F
from django.test import Client, override_settings
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice

from catalogue.twofactor import devices
from tests.admin_client import code, make_curator
from tests.environment import setting_in_a_fresh_process

pytestmark = pytest.mark.django_db

PASSWORD = "cora-curates-papers-2026"  # make_curator's password for "cora"
required = override_settings(ADMIN_REQUIRE_2FA=True)


@pytest.fixture
def curator(db):
    return make_curator("cora")


@pytest.fixture
def enrolled(curator):
    """Cora, with a confirmed TOTP device."""
    return devices.create_confirmed_device(curator)


def wrong(token: str) -> str:
    return f"{(int(token) + 1) % 10**6:06d}"


def log_in(client, password=PASSWORD, token="", username="cora", address="192.0.2.1"):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password, "otp_token": token, "next": reverse("admin:index")},
        REMOTE_ADDR=address,
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def admin_opens(client) -> bool:
    """Whether the admin's index and a list page answer 200 (not a redirect) to this client."""
    index = client.get(reverse("admin:index"))
    papers = client.get(reverse("admin:catalogue_paper_changelist"))
    return index.status_code == 200 and papers.status_code == 200


def setup_url(next_url=None) -> str:
    return reverse("admin:two_factor") + (f"?next={next_url}" if next_url else "")


def error_note(response) -> str:
    notes = re.findall(r'<p class="errornote">\s*(.*?)\s*</p>', response.content.decode(), re.S)
    return " ".join(" ".join(notes).split())


# --- ADMIN_REQUIRE_2FA on ---


@required
def test_required_a_password_alone_does_not_open_the_admin(curator):
    client = Client()
    assert log_in(client).status_code == 302  # the password is right: logged in, but not verified
    for url in (reverse("admin:index"), reverse("admin:catalogue_paper_changelist")):
        response = client.get(url)
        assert response.status_code == 302, url
        assert unquote(response["Location"]) == setup_url(url)
    assert not admin_opens(client)
    assert not TOTPDevice.objects.filter(user=curator, confirmed=True).exists()


@required
def test_required_setting_up_confirms_a_device_then_the_admin_opens(curator):
    client = Client()
    log_in(client)
    page = client.get(client.get(reverse("admin:index"))["Location"])
    assert page.status_code == 200
    pending = TOTPDevice.objects.get(user=curator)
    assert not pending.confirmed
    text = page.content.decode()
    assert devices.secret(pending) in text  # the key, to type in
    assert "otpauth://totp/Code%20with%20Papers%3Acora?secret=" in text  # the URI, and as a QR code:
    assert 'src="data:image/svg+xml;base64,' in text
    assert 'id="leave-form"' in text  # no admin yet, but logging out is offered

    # A wrong code leaves the device unconfirmed and the admin shut.
    refused = client.post(setup_url(), {"token": wrong(code(pending)), "next": "/admin/"})
    assert refused.status_code == 200
    assert "not the app&#x27;s current code" in refused.content.decode()
    assert not TOTPDevice.objects.get(pk=pending.pk).confirmed
    assert not admin_opens(client)
    # The right code at once is held off too (django-otp's throttling: 1 s after one wrong code)...
    held_off = client.post(setup_url(), {"token": code(pending), "next": "/admin/"})
    assert "wait 1 s" in held_off.content.decode()
    assert not TOTPDevice.objects.get(pk=pending.pk).confirmed
    # ...and accepted a moment later (moved in the records rather than waited for).
    TOTPDevice.objects.filter(pk=pending.pk).update(
        throttling_failure_timestamp=F("throttling_failure_timestamp") - timedelta(seconds=2)
    )
    confirmed = client.post(setup_url(), {"token": code(pending), "next": reverse("admin:index")})
    assert confirmed.status_code == 302
    assert confirmed["Location"] == reverse("admin:index")
    assert list(TOTPDevice.objects.filter(user=curator).values_list("pk", "confirmed")) == [
        (pending.pk, True)
    ]
    assert client.session[DEVICE_ID_SESSION_KEY] == pending.persistent_id
    assert "Two-factor authentication is on" in client.get(reverse("admin:index")).content.decode()
    assert admin_opens(client)

    # From now on the login needs the code.
    client.post(reverse("admin:logout"))
    again = Client()
    assert log_in(again).status_code == 200
    assert not logged_in(again)
    assert log_in(again, token=code(pending, steps_ahead=1)).status_code == 302
    assert admin_opens(again)


@override_settings(ADMIN_REQUIRE_2FA=True, AXES_FAILURE_LIMIT=10)  # five failures here, none locks
def test_required_a_wrong_or_missing_code_is_refused_like_a_wrong_password(enrolled):
    client = Client()
    bad_password = log_in(client, password="not the password", address="192.0.2.2")
    for token in ("", wrong(code(enrolled)), "abcdef", code(enrolled) + "0"):
        response = log_in(client, token=token, address="192.0.2.2")
        assert response.status_code == 200, token  # the form again
        assert not logged_in(client)
        # The same words as for a wrong password: the form does not say the password was right.
        assert error_note(response) == error_note(bad_password)
    assert "code from your authenticator app" in error_note(bad_password)
    assert not admin_opens(client)


@required
def test_required_the_right_code_opens_the_admin(enrolled):
    client = Client()
    response = log_in(client, token=code(enrolled))
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")
    assert client.session[DEVICE_ID_SESSION_KEY] == enrolled.persistent_id
    assert admin_opens(client)
    # The code may be typed as the app shows it, "123 456".
    spaced = code(enrolled, steps_ahead=1)
    assert log_in(Client(), token=f"{spaced[:3]} {spaced[3:]}").status_code == 302


@required
def test_a_code_is_accepted_once(enrolled):
    token = code(enrolled)
    assert log_in(Client(), token=token).status_code == 302
    replayed = Client()
    assert log_in(replayed, token=token, address="192.0.2.3").status_code == 200
    assert not logged_in(replayed)


@override_settings(ADMIN_REQUIRE_2FA=True, AXES_FAILURE_LIMIT=3)
def test_wrong_codes_count_towards_the_login_lockout(enrolled):
    client = Client()
    for _ in range(2):
        assert log_in(client, token=wrong(code(enrolled)), address="203.0.113.9").status_code == 200
    assert log_in(client, token="", address="203.0.113.9").status_code == 429  # a missing code counts too
    assert AccessAttempt.objects.get(username="cora", ip_address="203.0.113.9").failures_since_start == 3
    # Locked: the right password and the right code are refused from there too.
    assert log_in(client, token=code(enrolled), address="203.0.113.9").status_code == 429
    assert not logged_in(client)
    # Elsewhere, the right pair still works, once the device's own throttling (2 s after two wrong
    # codes, whoever sent them) has passed: moved in the records rather than waited for.
    TOTPDevice.objects.filter(pk=enrolled.pk).update(
        throttling_failure_timestamp=F("throttling_failure_timestamp") - timedelta(seconds=3)
    )
    assert log_in(Client(), token=code(enrolled), address="198.51.100.9").status_code == 302


@pytest.mark.parametrize("require", [True, False])
def test_a_session_that_gave_no_code_is_refused_once_the_user_has_a_device(enrolled, curator, require):
    client = Client()
    client.force_login(curator)  # as a session from before the device was set up would be
    with override_settings(ADMIN_REQUIRE_2FA=require):
        response = client.get(reverse("admin:index"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
        # Nor can such a session replace the device.
        assert client.get(setup_url() + "?replace=1").status_code == 302
        login_page = client.get(response["Location"])
        assert "log in again" in " ".join(login_page.content.decode().split())
    assert TOTPDevice.objects.filter(user=curator).count() == 1


@required
def test_logging_out_works_while_a_device_is_yet_to_be_set_up(curator):
    client = Client()
    log_in(client)
    page = client.get(setup_url())
    assert page.status_code == 200
    response = client.post(reverse("admin:logout"))
    assert response.status_code == 200  # Django's "logged out" page
    assert not logged_in(client)


@required
def test_the_setup_page_is_for_logged_in_staff_only(curator):
    anonymous = Client().get(setup_url())
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("admin:login"))
    reader = User.objects.create_user("reader", password="a-reader-passphrase-2026")
    client = Client()
    client.force_login(reader)
    assert client.get(setup_url()).status_code == 302
    assert not TOTPDevice.objects.exists()


@required
def test_after_setting_up_only_a_local_next_is_followed(curator):
    client = Client()
    log_in(client)
    client.get(setup_url())
    pending = TOTPDevice.objects.get(user=curator)
    response = client.post(setup_url(), {"token": code(pending), "next": "https://evil.example/"})
    assert response["Location"] == reverse("admin:index")


# --- ADMIN_REQUIRE_2FA off (the default) ---


def test_off_by_default_the_admin_works_as_before(curator, settings):
    assert settings.ADMIN_REQUIRE_2FA is False
    client = Client()
    response = log_in(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")
    assert admin_opens(client)
    index = " ".join(client.get(reverse("admin:index")).content.decode().split())
    assert f'<a href="{setup_url()}">Two-factor authentication</a></th> <td>not set up' in index
    forced = Client()
    forced.force_login(curator)
    assert admin_opens(forced)


def test_off_a_device_set_up_by_choice_is_asked_for_from_then_on(curator):
    client = Client()
    log_in(client)
    page = client.get(setup_url())
    assert page.status_code == 200
    assert 'id="leave-form"' not in page.content.decode()  # the admin's own header has log-out
    pending = TOTPDevice.objects.get(user=curator)
    assert client.post(setup_url(), {"token": code(pending)}).status_code == 302
    assert admin_opens(client)
    status = client.get(setup_url()).content.decode()
    assert "Two-factor authentication is <strong>on</strong>" in status
    assert devices.secret(pending) not in status  # the key is shown only while setting up

    again = Client()
    assert log_in(again).status_code == 200
    assert not logged_in(again)
    assert log_in(again, token=code(pending, steps_ahead=1)).status_code == 302
    assert admin_opens(again)


def test_the_setting_is_read_per_request(curator):
    client = Client()
    log_in(client)
    assert admin_opens(client)
    with required:
        assert client.get(reverse("admin:index"))["Location"] == setup_url(reverse("admin:index"))
    assert admin_opens(client)


def test_a_new_device_replaces_the_old_once_confirmed(enrolled, curator):
    client = Client()
    log_in(client, token=code(enrolled))
    page = client.get(setup_url() + "?replace=1")
    assert page.status_code == 200
    new = TOTPDevice.objects.get(user=curator, confirmed=False)
    assert devices.secret(new) in page.content.decode()
    # Until the new one is confirmed, the old one is the one that logs in.
    assert log_in(Client(), token=code(enrolled, steps_ahead=1)).status_code == 302
    assert client.post(setup_url() + "?replace=1", {"token": code(new)}).status_code == 302
    assert list(TOTPDevice.objects.filter(user=curator).values_list("pk", flat=True)) == [new.pk]
    assert admin_opens(client)


def test_create_curator_can_hand_out_a_device(monkeypatch):
    monkeypatch.setenv("CURATOR_PASSWORD", PASSWORD)
    out = io.StringIO()
    call_command("create_curator", "cora", "--totp", stdout=out)
    device = TOTPDevice.objects.get(user__username="cora")
    assert device.confirmed
    assert device.config_url in out.getvalue()
    assert devices.secret(device) in out.getvalue()
    assert log_in(Client()).status_code == 200  # the very first login needs the code
    assert log_in(Client(), token=code(device)).status_code == 302


def _setting(name: str, **env) -> str:
    return setting_in_a_fresh_process(name, lambda k: k == "ADMIN_REQUIRE_2FA", **env)


def test_the_setting_comes_from_the_environment_and_is_off_unless_set():
    assert _setting("ADMIN_REQUIRE_2FA") == "False"
    assert _setting("ADMIN_REQUIRE_2FA", ADMIN_REQUIRE_2FA="1") == "True"
    assert _setting("ADMIN_REQUIRE_2FA", ADMIN_REQUIRE_2FA="off") == "False"
