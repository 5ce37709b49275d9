"""How every browser test starts Chromium: Debian's package, never a downloaded browser.

Without the networking flags Chromium keeps trying to reach Google's hosts, which this
machine's closed network refuses.
"""

from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@contextmanager
def launched():
    """Debian's Chromium, started through Playwright's sync API and closed on the way out; a
    missing /usr/bin/chromium fails the test (the suite never downloads a browser)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/system-deps.sh (never `playwright install`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


class Reader:
    """A browser tab that records console errors and failed page scripts."""

    def __init__(self, browser, base_url, *, color_scheme="light", width=1200):
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme=color_scheme
        )
        self.page = self.context.new_page()
        self.base_url = base_url
        self.errors: list[str] = []
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def visit(self, path):
        response = self.page.goto(self.base_url + path)
        assert response.status == 200, (path, response.status)
        return self.page

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def close(self):
        self.context.close()
