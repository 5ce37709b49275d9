"""Issue 34, the web side: no path, parameter or header gives a 500 on either database (NUL and
what no database holds is a 404 or 400 before any query), API errors are JSON however the server
produced them (Django's bounds stand before gunicorn's), a repeated parameter is refused like an
unknown one, and a forwarded scheme is believed only from proxies of ours (TRUSTED_PROXIES).
"""

import json
import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.urls import resolve

from config import request_checks
from tests.api_helpers import GPIPE, V1, get
from tests.conftest import ROOT, SEED_PAGE_KINDS
from tests.servers import free_port, start_gunicorn, up, wait_until

# --- NUL: 404 in the path, 400 in a parameter, before any query -----------------------------------


def _with_nul_in_the_path(url: str) -> str:
    path, _, query = url.partition("?")
    path = path + "%00" if not path.endswith("/") else path[:-1] + "%00/"
    return ("/" + path.lstrip("/")) + (f"?{query}" if query else "")


def _with_nul_in_a_parameter(url: str) -> str:
    path, _, query = url.partition("?")
    return f"{path}?{query + '&' if query else ''}page=1%00"


@pytest.fixture
def no_error_logged(caplog):
    with caplog.at_level(logging.DEBUG):
        yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def api_routes(api) -> list[str]:
    """Every path of the API's schema, with each id an existing-looking word."""
    schema = get(api, f"{V1}/schema/", format="json")
    return [re.sub(r"\{[^}]+\}", "x", path) for path in schema["paths"]]


@pytest.mark.parametrize("url", SEED_PAGE_KINDS)
def test_a_nul_in_any_page_address_is_a_404_and_in_a_parameter_a_400_without_a_query(
    client, db, django_assert_num_queries, no_error_logged, url
):
    with django_assert_num_queries(0):
        assert client.get(_with_nul_in_the_path(url)).status_code == 404
        response = client.get(_with_nul_in_a_parameter(url))
    assert response.status_code == 400
    assert "text/html" in response["Content-Type"]


def test_a_nul_in_any_api_address_or_parameter_is_answered_in_json_without_a_query(
    api, db, api_throttle_off, django_assert_num_queries, caplog
):
    routes = api_routes(api)
    assert len(routes) > 40
    with caplog.at_level(logging.DEBUG), django_assert_num_queries(0):
        for route in routes:
            in_path = route.replace("/x/", "/x%00y/", 1) if "/x/" in route else route + "%00/"
            response = api.get(in_path)
            assert response.status_code == 404, in_path
            assert response.json() == {"detail": "Not found."}
            response = api.get(route + "?q=a%00b")
            assert response.status_code == 400, route
            assert list(response.json()) == ["q"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_nul_in_a_header_is_refused(client, api, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/about", HTTP_USER_AGENT="a\x00b").status_code == 400
        response = api.get(f"{V1}/papers/", HTTP_USER_AGENT="a\x00b")
    assert response.status_code == 400
    assert "detail" in response.json()


# --- a repeated parameter --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "repeated"),
    [
        (f"{V1}/papers/?page=1&page=2", ["page"]),
        (f"{V1}/papers/?q=a&q=b", ["q"]),
        (f"{V1}/papers/?q=a&q=b&page=1&page=1&year_min=2019", ["page", "q"]),
        (f"{V1}/papers/{GPIPE}/?format=json&format=json", ["format"]),
        (f"{V1}/samples/?status=ran&status=ran&code_entry=x&code_entry=y", ["code_entry"]),
    ],
)
def test_the_api_refuses_a_repeated_parameter_naming_it_without_a_query(
    api, db, api_throttle_off, django_assert_num_queries, url, repeated
):
    with django_assert_num_queries(0):
        response = api.get(url)
    assert response.status_code == 400
    assert sorted(response.json()) == repeated


def test_a_filter_that_takes_several_values_still_takes_them(api, loaded_seeds, api_throttle_off):
    both = get(api, f"{V1}/samples/?status=ran&status=unverified")["count"]
    ran = get(api, f"{V1}/samples/?status=ran")["count"]
    unverified = get(api, f"{V1}/samples/?status=unverified")["count"]
    assert both == ran + unverified > 0


@pytest.mark.parametrize(
    ("url", "location"),
    [
        ("/search?q=a&q=training", "/search?q=training"),
        ("/search?page=1&q=x&page=2", "/search?page=2&q=x"),
        ("/papers/?year=2018&utm_source=x&year=2019", "/papers/?year=2019"),
    ],
)
def test_a_page_sends_a_repeated_parameter_to_its_last_value_without_a_query(
    client, db, django_assert_num_queries, url, location
):
    with django_assert_num_queries(0):
        response = client.get(url)
    assert (response.status_code, response["Location"]) == (301, location)


# --- sizes: Django answers first -------------------------------------------------------------------


@pytest.mark.parametrize(("base", "json_expected"), [(f"{V1}/papers/", True), ("/papers/", False)])
def test_a_long_address_and_large_headers_are_answered_by_django(client, db, base, json_expected):
    responses = {
        414: client.get(base + "?q=" + "a" * 9000),
        431: client.get(base, HTTP_X_BIG="b" * 20_000),
    }
    many = {f"HTTP_X_H{n}": "1" for n in range(request_checks.MAX_HEADER_FIELDS + 1)}
    responses[-431] = client.get(base, **many)
    for status, response in responses.items():
        assert response.status_code == abs(status)
        if json_expected:
            assert "detail" in response.json()
        else:
            assert response["Content-Type"].startswith("text/html")
            assert "Code with Papers" in response.content.decode()
    # just under the bounds, the page (or the API's own answer) as ever
    assert client.get(base + "?q=" + "a" * 4000).status_code < 400
    assert client.get(base, HTTP_X_BIG="b" * 8000).status_code < 400


def test_too_many_parameters_are_a_400_not_a_500(client, api, db, no_error_logged):
    many = "?" + "&".join(["a"] * 1200)  # Django reads at most 1,000 (DATA_UPLOAD_MAX_NUMBER_FIELDS)
    assert client.get("/papers/" + many).status_code == 400
    response = api.get(f"{V1}/papers/" + many)
    assert response.status_code == 400
    assert "detail" in response.json()


# --- a fuzz of every public page kind, on the seeds ----------------------------------------------

# long (under the bounds), NUL, not UTF-8, a surrogate, path steps, an escaped slash, unicode…
ODD = ["x" * 3000, "%00", "%ff", "%ed%a0%80", "..", "%2e%2e", "%2F", "ü作者", "%25", "'\"<>", "-1", "9" * 30]


def _odd_paths(url: str) -> list[str]:
    path = url.partition("?")[0]
    head = path.rstrip("/").rpartition("/")[0]
    return [f"{head}/{value}" for value in ODD] + [f"{path.rstrip('/')}/{value}" for value in ODD]


@pytest.mark.slow
@pytest.mark.parametrize("url", SEED_PAGE_KINDS)
def test_no_odd_path_or_parameter_gives_a_server_error(client, loaded_seeds, no_error_logged, url):
    view = resolve(unquote(url.partition("?")[0])).func
    reads = sorted(getattr(view, "page_reads", ())) or ["q"]
    tried = []
    for odd in _odd_paths(url):
        tried.append((odd, client.get(odd).status_code))
    path = url.partition("?")[0]
    for name in reads:
        for value in ODD:
            tried.append((name, value, client.get(f"{path}?{name}={value}").status_code))
    assert [t for t in tried if t[-1] >= 500] == []


# --- a real gunicorn: its own limits stand back, and no forwarded scheme from just anyone -----------


def gunicorn(tmp_path: Path, **env) -> tuple[int, subprocess.Popen]:
    port = free_port()
    environment = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}},
        "XDG_RUNTIME_DIR": str(tmp_path),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "2",
        "STATIC_MANIFEST": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",  # nothing below reads it
        "TRUSTED_PROXIES": "0",
        **env,
    }
    environment.pop("FORWARDED_ALLOW_IPS", None)
    proc = start_gunicorn(environment, tmp_path / f"gunicorn-{port}.log")
    wait_until(lambda: up(f"http://127.0.0.1:{port}/healthz"), [proc])
    return port, proc


def raw_get(port: int, target: str, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
    """(status, Content-Type, body) of one GET, sent as bytes (no client library shortens it)."""
    lines = [f"GET {target} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    head_lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in head_lines[1:])
    if fields.get("Transfer-Encoding") == "chunked":
        body = _unchunked(body)
    return int(head_lines[0].split()[1]), fields.get("Content-Type", ""), body.decode()


def _unchunked(body: bytes) -> bytes:
    out = b""
    while True:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line, 16)
        if not size:
            return out
        out, body = out + rest[:size], rest[size + 2 :]


@pytest.fixture
def stop():
    procs = []
    yield procs.append
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(timeout=30)


@pytest.mark.slow
def test_behind_gunicorn_api_errors_are_json_and_pages_html_whatever_the_size(tmp_path, stop):
    port, proc = gunicorn(tmp_path)
    stop(proc)
    for target, header, status in (
        ("?q=" + "a" * 9000, None, 414),
        ("", {"X-Big": "b" * 20_000}, 431),
    ):
        status_api, kind_api, body_api = raw_get(port, f"{V1}/papers/{target}", header)
        assert (status_api, kind_api) == (status, "application/json"), body_api[:300]
        assert "detail" in json.loads(body_api)
        status_page, kind_page, body_page = raw_get(port, f"/papers/{target}", header)
        assert (status_page, kind_page) == (status, "text/html; charset=utf-8")
        assert "Code with Papers" in body_page
    # gunicorn's own bound still holds, past Django's
    assert raw_get(port, f"{V1}/papers/?q=" + "a" * 70_000)[0] == 414


@pytest.mark.slow
@pytest.mark.parametrize(("trusted", "scheme"), [("0", "http"), ("1", "https")])
def test_a_forwarded_scheme_is_believed_only_from_proxies_of_ours(tmp_path, stop, trusted, scheme):
    port, proc = gunicorn(tmp_path, TRUSTED_PROXIES=trusted)
    stop(proc)
    # The not-found page writes its canonical address with the scheme Django was given.
    status, _, body = raw_get(port, "/no-such-page", {"X-Forwarded-Proto": "https"})
    assert status == 404
    assert f'<link rel="canonical" href="{scheme}://127.0.0.1:{port}/no-such-page">' in body


def gunicorn_settings(**env) -> dict:
    code = (
        "import json, runpy; conf = runpy.run_path('config/gunicorn.conf.py');"
        "print(json.dumps({k: conf[k] for k in ('forwarded_allow_ips', 'limit_request_line',"
        " 'limit_request_field_size', 'limit_request_fields')}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"}}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True
    )
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1]}
    return json.loads(done.stdout)


def test_gunicorn_trusts_forwarded_headers_as_trusted_proxies_says():
    assert gunicorn_settings()["forwarded_allow_ips"] == ""
    assert gunicorn_settings(TRUSTED_PROXIES="1")["forwarded_allow_ips"] == "127.0.0.1,::1"
    assert gunicorn_settings(TRUSTED_PROXIES="2", FORWARDED_ALLOW_IPS="10.0.0.5")["forwarded_allow_ips"] == (
        "10.0.0.5"
    )
    assert "TRUSTED_PROXIES=0" in gunicorn_settings(FORWARDED_ALLOW_IPS="10.0.0.5")["error"]
    limits = gunicorn_settings()
    assert limits["limit_request_line"] > request_checks.MAX_TARGET
    assert limits["limit_request_field_size"] > request_checks.MAX_HEADER_FIELD
    assert limits["limit_request_fields"] > request_checks.MAX_HEADER_FIELDS


def test_django_believes_no_forwarded_scheme_without_proxies_of_ours():
    code = "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; import config.settings"
    base = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXIES", "API_NUM_PROXIES"}}
    env = {**base, "SECURE_PROXY_SSL_HEADER_NAME": "HTTP_X_FORWARDED_PROTO"}
    refused = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert refused.returncode == 1
    assert "TRUSTED_PROXIES=0" in refused.stderr
    trusted = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**env, "TRUSTED_PROXIES": "1"}, capture_output=True
    )
    assert trusted.returncode == 0
