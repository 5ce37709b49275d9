"""Descriptions in a real Chromium (tests/web/browser/test_browser.py's): the MathML the server writes is
typeset under the site's CSP, with no console error, and a wide formula scrolls inside its own box
rather than widening the page on a phone. On the real methods dump."""

import shutil

import pytest

from tests.chromium import Reader, launched
from tests.conftest import load
from tests.samples import METHODS_DUMP

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.usefixtures("static_from_finders"),
]


@pytest.fixture
def real_methods(live_server, tmp_path):
    if not METHODS_DUMP.is_file():
        pytest.skip(f"{METHODS_DUMP} is not on this machine")
    shutil.copy(METHODS_DUMP, tmp_path / "methods.json.gz")
    load(tmp_path / "methods.json.gz")


@pytest.fixture
def chromium(real_methods, monkeypatch):
    # Started after the data is loaded, stopped before the database is torn down
    # (tests/web/browser/test_browser.py).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread
    with launched() as browser:
        yield browser


# gan: inline math and a fraction; srm: \begin{align} without dollars; relic: the most LaTeX;
# sm3: headings, a table, a code block; td-lambda: displayed formulas wider than a phone.
PAGES = ["gan", "srm", "relic", "sm3", "td-lambda"]


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_descriptions_typeset_their_math_on_a_phone(live_server, chromium, color_scheme):
    reader = Reader(chromium, live_server.url, color_scheme=color_scheme, width=390)
    for slug in PAGES:
        page = reader.visit(f"/method/{slug}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (slug, overflow)
        sizes = page.evaluate(
            "[...document.querySelectorAll('.description math')].map(m => m.getBoundingClientRect().width)"
        )
        assert min(sizes, default=1) > 0, slug
        assert sizes or slug == "sm3", slug  # it has no math
    # Typeset: the fraction's 1 stands above its 2, not beside it as text would.
    numerator, denominator = reader.visit("/method/gan").evaluate(
        "[...document.querySelector('.description mfrac').children].map(c => c.getBoundingClientRect())"
        ".map(r => ({top: r.top, bottom: r.bottom, left: r.left}))"
    )
    assert numerator["bottom"] <= denominator["top"] + 1
    assert reader.errors == []  # a CSP violation is a console error
    reader.close()
