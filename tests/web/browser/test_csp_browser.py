"""In a real Chromium, the Content-Security-Policy blocks nothing the site itself serves.

Every public page, the API docs and the curator admin (login, index, lists, change forms)
are visited with the policy enforced; the test fails on any ``securitypolicyviolation``
event and any console error (Chromium logs a refused script, style or image there too).
It pairs with tests/ops/test_security.py, which checks the policy itself is strict: together
they say the policy is strict *and* the site works under it.
"""

import pytest
from django.db import connections
from django.test import override_settings
from django.urls import reverse

from catalogue.models import Paper, Sample
from tests.admin_client import make_curator
from tests.chromium import launched
from tests.conftest import SEED_PAGE_KINDS, SEEDS, load
from tests.pages import shown_by_browsers

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # Transactional, so the live server's thread sees the rows; serialized_rollback as in
    # tests/web/browser/test_browser.py (a later test restores content types and the Curators group).
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.usefixtures("static_from_finders"),
]


PUBLIC_PAGES = [*shown_by_browsers(SEED_PAGE_KINDS), "/api/docs/", "/api/redoc/"]
# Violations are recorded in the page as they happen; the test reads them after each visit.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} `
    + `at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
});
"""


@pytest.fixture
def site(live_server):
    load(*SEEDS)  # before Playwright starts (see tests/web/browser/test_browser.py)
    make_curator("cora")
    return live_server


@pytest.fixture
def tab(site, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here stay sync.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launched() as chromium:
        context = chromium.new_context()
        context.add_init_script(LISTEN)
        page = context.new_page()
        page.problems = []
        page.on("console", lambda msg: msg.type == "error" and page.problems.append(msg.text))
        # A failed load is named by its address (the console message above does not name it).
        # /favicon.ico is asked for by Chromium itself on pages that name no icon (the admin).
        page.on(
            "response",
            lambda r: (
                r.status >= 400
                and not r.request.is_navigation_request()
                and not r.url.endswith("/favicon.ico")
                and page.problems.append(f"{r.status} {r.url}")
            ),
        )
        page.on("pageerror", lambda exc: page.problems.append(str(exc)))
        try:
            yield page
        finally:
            # ORM calls made while Playwright's loop ran got a connection of their own
            # (PostgreSQL), which would outlive the test and block the test database's removal.
            connections.close_all()


def visit(page, url: str, *, status: int = 200) -> list[str]:
    """Open ``url``, let its scripts settle, and return what the policy blocked or broke."""
    response = page.goto(url)
    assert response.status == status, (url, response.status)
    assert "Content-Security-Policy" in {h.title() for h in response.headers}, url
    page.wait_for_load_state("networkidle")
    failed_loads = "Failed to load resource"  # counted by address, through the "response" event
    found = page.evaluate("window.__cspViolations") + [
        p for p in page.problems if not p.startswith(failed_loads)
    ]
    page.problems.clear()
    return found


def test_public_pages_and_api_docs_break_no_rule_of_the_policy(site, tab):
    problems = {}
    for path in PUBLIC_PAGES:
        if found := visit(tab, site.url + path):
            problems[path] = found
    assert visit(tab, site.url + "/no/such/page", status=404) == []
    # The docs really ran under the policy: Swagger UI and Redoc drew the API.
    tab.goto(site.url + "/api/docs/")
    tab.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
    tab.goto(site.url + "/api/redoc/")
    tab.wait_for_selector("[data-section-id]", timeout=15_000)
    assert problems == {}


def test_the_admin_breaks_no_rule_of_the_policy(site, tab):
    problems = {}
    found = visit(tab, site.url + reverse("admin:login"))
    tab.fill("#id_username", "cora")
    tab.fill("#id_password", "cora-curates-papers-2026")
    with tab.expect_navigation():
        tab.click("input[type=submit]")
    assert tab.url.endswith(reverse("admin:index")), tab.url
    if found:
        problems["login"] = found
    paper = Paper.objects.get(arxiv_id="1811.06965")
    sample = Sample.objects.filter(paper=paper).first()
    for url in (
        reverse("admin:index"),
        reverse("admin:catalogue_paper_changelist"),
        reverse("admin:catalogue_paper_changelist") + "?q=gpipe",
        reverse("admin:catalogue_paper_change", args=[paper.pk]),
        reverse("admin:catalogue_sample_changelist"),
        reverse("admin:catalogue_sample_change", args=[sample.pk]),
        reverse("admin:catalogue_correction_changelist"),
    ):
        if found := visit(tab, site.url + url):
            problems[url] = found
    assert problems == {}


def test_the_second_factor_pages_break_no_rule_of_the_policy(site, tab):
    """With ADMIN_REQUIRE_2FA on: the login with its code field, the page that sets up an
    authenticator (QR code as a data: image), then a login with the code."""
    from django_otp.oath import totp
    from django_otp.plugins.otp_totp.models import TOTPDevice

    def code(device):
        device.refresh_from_db()
        return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):06d}"

    problems = {}
    with override_settings(ADMIN_REQUIRE_2FA=True):
        if found := visit(tab, site.url + reverse("admin:login")):
            problems["login"] = found
        tab.fill("#id_username", "cora")
        tab.fill("#id_password", "cora-curates-papers-2026")
        with tab.expect_navigation():
            tab.click("input[type=submit]")
        assert reverse("admin:two_factor") in tab.url, tab.url
        if found := visit(tab, tab.url):
            problems["set-up"] = found
        # The QR code was drawn (an <img> blocked by the policy would have no width).
        assert tab.eval_on_selector("img.otp-qr", "img => img.naturalWidth") > 0
        device = TOTPDevice.objects.get(user__username="cora")
        tab.fill("#id_token", code(device))
        with tab.expect_navigation():
            tab.click("#two-factor-form input[type=submit]")
        assert tab.url.endswith(reverse("admin:index")), tab.url
        if found := visit(tab, site.url + reverse("admin:two_factor")):
            problems["status"] = found
    assert problems == {}
