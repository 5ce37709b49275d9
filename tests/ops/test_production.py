"""The production configuration: hashed, compressed static files with far-future caching,
gunicorn's settings from the environment, and `make serve`'s script.
"""

import os
import runpy
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.conftest import ROOT

MANIFEST_STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def python_outside_the_suite(code: str, *argv: str, **env: str) -> subprocess.CompletedProcess:
    """``python -c code argv…`` from the repository's root, with this environment less the suite's
    settings module and static-manifest switch, plus ``env``; its output captured as text."""
    base = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "STATIC_MANIFEST"}}
    return subprocess.run(
        [sys.executable, "-c", code, *argv], cwd=ROOT, env={**base, **env}, capture_output=True, text=True
    )


def settings_in_a_fresh_process(**env) -> dict:
    """Values config.settings takes outside the test suite, in a clean interpreter."""
    code = (
        "import json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "import django; from django.conf import settings; django.setup();"
        "print(json.dumps({'storage': settings.STORAGES['staticfiles']['BACKEND'],"
        " 'conn_max_age': settings.DATABASES['default']['CONN_MAX_AGE'],"
        " 'health': settings.DATABASES['default']['CONN_HEALTH_CHECKS'],"
        " 'cache': settings.CACHES['default']['BACKEND'],"
        " 'max_age': settings.HTTP_MAX_AGE, 's_maxage': settings.HTTP_S_MAXAGE}))"
    )
    done = python_outside_the_suite(code, **env)
    done.check_returncode()
    import json

    return json.loads(done.stdout.strip().splitlines()[-1])


def test_outside_tests_static_files_are_hashed_and_compressed():
    found = settings_in_a_fresh_process(
        CONN_MAX_AGE="300", CACHE_URL="redis://127.0.0.1:1/0", HTTP_MAX_AGE="99999", HTTP_S_MAXAGE="-5"
    )
    assert found["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert found["conn_max_age"] == 300
    assert found["health"] is True
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"
    # The documented bound: neither lifetime goes past an hour, nor below nothing.
    assert (found["max_age"], found["s_maxage"]) == (3600, 0)


def test_static_manifest_can_be_turned_off():
    found = settings_in_a_fresh_process(STATIC_MANIFEST="0")
    assert found["storage"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_collected_static_files_are_served_with_far_future_cache_headers(db, client, tmp_path, settings):
    with override_settings(STORAGES=MANIFEST_STORAGE, STATIC_ROOT=tmp_path):
        call_command("collectstatic", "--noinput", verbosity=0)
        from django.templatetags.static import static

        hashed = static("css/site.css")
    assert hashed != "/static/css/site.css"
    assert (tmp_path / hashed.removeprefix("/static/")).exists()
    assert (tmp_path / (hashed.removeprefix("/static/") + ".gz")).exists()

    from whitenoise.middleware import WhiteNoiseMiddleware

    with override_settings(STORAGES=MANIFEST_STORAGE, STATIC_ROOT=tmp_path):
        middleware = WhiteNoiseMiddleware(get_response=lambda request: None)
        from django.test import RequestFactory

        response = middleware(RequestFactory().get(hashed, headers={"accept-encoding": "gzip"}))
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"]
    assert "max-age=315360000" in response["Cache-Control"]
    response.close()  # WhiteNoise streams the file


@pytest.mark.parametrize(
    ("env", "bind", "workers"),
    [({}, "127.0.0.1:8000", None), ({"PORT": "9123", "WEB_CONCURRENCY": "3"}, "127.0.0.1:9123", 3)],
)
def test_gunicorn_settings_come_from_the_environment(monkeypatch, env, bind, workers):
    for name in ("PORT", "WEB_CONCURRENCY", "HOST"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    assert conf["bind"] == bind
    assert conf["workers"] == (workers or os.cpu_count() * 2 + 1)
    assert conf["wsgi_app"] == "config.wsgi:application"
    assert conf["accesslog"] is None  # config.observability logs each request as JSON
    assert 0 < conf["timeout"] <= 60


def test_make_serve_runs_the_script_that_migrates_collects_and_starts_gunicorn():
    makefile = (ROOT / "Makefile").read_text()
    assert "serve: venv\n\t@bash scripts/serve.sh" in makefile
    script = (ROOT / "scripts" / "serve.sh").read_text()
    for step in ("manage.py migrate", "manage.py collectstatic", "gunicorn -c config/gunicorn.conf.py"):
        assert step in script
    assert "DJANGO_SETTINGS_MODULE=" not in script
    subprocess.run(["bash", "-n", str(ROOT / "scripts" / "serve.sh")], check=True)


def test_the_site_starts_before_collectstatic_has_run(tmp_path):
    # A fresh clone's `make run` migrates before it collects the static files: nothing that
    # loads with the URLconf may ask the (still missing) manifest for an address.
    code = (
        "import os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "import django; from django.conf import settings; django.setup();"
        "settings.STATIC_ROOT = sys.argv[1];"
        "from django.core.management import call_command; call_command('check');"
        "print('started')"
    )
    done = python_outside_the_suite(code, str(tmp_path / "never-collected"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "started" in done.stdout
