"""Production settings pass ``manage.py check --deploy`` with warnings counted as failures.

Run in a subprocess with the environment production has (a long random SECRET_KEY, DEBUG off,
ALLOWED_HOSTS set) and nothing else of this machine's: the settings are read once per process.
The two checks config/settings.py silences are each justified there and come back as soon as
the operator turns the setting on (the last test).
"""

import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(64),
    "DEBUG": "0",
    "ALLOWED_HOSTS": "codewithpapers.example",
}


def check_deploy(**env) -> subprocess.CompletedProcess:
    # Nothing of the test run's own (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE, which
    # production never has and the checks rightly refuse).
    ours = ("DEBUG", "SECURE_", "SECRET_KEY", "ALLOWED_", "DJANGO_ALLOW_ASYNC_UNSAFE")
    base = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_settings_pass_the_deployment_checks():
    result = check_deploy()
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (2 silenced)." in result.stdout


@pytest.mark.parametrize(
    ("env", "check"),
    [
        ({"SECRET_KEY": ""}, "security.W009"),  # the development key
        ({"DEBUG": "1"}, "security.W018"),
        ({"SECURE_HSTS_SECONDS": "0"}, "security.W004"),
        ({"SECURE_COOKIES": "0"}, "security.W012"),
        ({"SECURE_HSTS_INCLUDE_SUBDOMAINS": "0"}, "security.W005"),
    ],
)
def test_each_weakening_fails_the_deployment_checks(env, check):
    result = check_deploy(**env)
    assert result.returncode == 1
    assert check in result.stderr


def test_a_silenced_check_comes_back_when_its_setting_is_turned_on():
    # Django redirecting to HTTPS itself without knowing which requests came over HTTPS would
    # loop; W008 is silenced only while the proxy does the redirect.
    result = check_deploy(
        SECURE_SSL_REDIRECT="1", SECURE_PROXY_SSL_HEADER_NAME="HTTP_X_FORWARDED_PROTO", TRUSTED_PROXIES="1"
    )
    assert result.returncode == 0, result.stderr
    assert "(1 silenced)" in result.stdout
    preload = check_deploy(SECURE_HSTS_PRELOAD="1")
    assert "(1 silenced)" in preload.stdout
