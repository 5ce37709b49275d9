"""A reader's path through the site in a real Chromium, from the home page to a leaderboard.

Debian's /usr/bin/chromium (scripts/system-deps.sh), driven by Playwright's sync API
against pytest-django's live server. The screenshots it takes are the ones in
docs/screenshots/ and the README.
"""

import os

import pytest
from django.test import override_settings

from tests.chromium import Reader, launched
from tests.conftest import SEEDS, load
from tests.pages import seed_html_pages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # Transactional, so the live server's thread sees the rows. serialized_rollback: a flush
    # after this test must not re-create content types that a later serialized_rollback test
    # (tests/web/browser/test_browser_curation.py) restores, or its setup fails on a unique constraint.
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

# Playwright's sync API runs an event loop in this thread; the ORM calls the test makes
# around it are still synchronous, so Django's guard against ORM calls in async code is
# told so.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session", autouse=True)
def _static_from_finders():
    # Before the (session-wide) live server builds its handler: WhiteNoise must not need
    # a collected STATIC_ROOT.
    with override_settings(WHITENOISE_AUTOREFRESH=True, WHITENOISE_USE_FINDERS=True):
        yield


@pytest.fixture
def seeded(live_server):
    """The three seed documents, loaded before Playwright starts (see ``browser``)."""
    load(*SEEDS)
    return live_server


@pytest.fixture
def browser(seeded):
    # Per test, started after the data is loaded and stopped before the database is torn
    # down: while Playwright's loop runs, Django would hand this thread another connection
    # object (asgiref's context-local storage), one the test database's teardown knows nothing of.
    with launched() as chromium:
        yield chromium


def text(page, selector="main"):
    return page.locator(selector).inner_text()


def follow(page, name: str, *, exact: bool = False) -> str:
    """Click the first link named ``name`` (the whole name if ``exact``, else a part of it in any
    case), wait for the page it opens, and give that page's main text."""
    with page.expect_navigation():
        page.get_by_role("link", name=name, exact=exact).first.click()
    return text(page)


def test_a_reader_goes_from_home_to_a_leaderboard(live_server, browser):
    reader = Reader(browser, live_server.url)
    page = reader.visit("/")
    assert page.title() == "Code with Papers · Code with Papers"
    main = text(page)
    assert "What the catalogue holds" in main
    assert "Recently added papers" in main
    assert page.locator("svg.chart-status").count() == 1
    assert "CC BY-SA 4.0" in text(page, "footer")
    reader.shot("home")

    # Keyboard only: Tab to the search box, type, Enter.
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == "site-q":
            break
    else:
        pytest.fail("Tab never reached the search box")
    page.keyboard.type("pipeline parallelism")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "/search?q=pipeline+parallelism" in page.url
    hits = text(page, ".hits")
    assert "GPipe: Efficient Training of Giant Neural Networks" in hits
    assert "Counted over the best 1,000 matches" in text(page, ".facets")
    assert page.locator(".facet").first.is_visible()  # beside the results, open, on a wide screen
    reader.shot("search")

    main = follow(page, "GPipe: Efficient Training of Giant Neural Networks")
    assert page.url.endswith("/paper/gpipe-efficient-training-of-giant-neural")
    for seen in ("Yanping Huang", "Code links", "Results", "4 of 5", "Harvested samples", "pointer only"):
        assert seen in main, seen
    assert page.locator('link[rel="alternate"][type="application/json"]').count() == 1
    assert page.locator('script[type="application/ld+json"]').count() == 1
    badge = page.locator(".badge.status-ran_draft_wrong").first
    assert "not of the code" in badge.get_attribute("title")
    reader.shot("paper")

    main = follow(page, "alexnet")
    assert page.url.endswith("/code/alexnet")
    assert "Same-named routines are not asserted to be equivalent" in main
    page = reader.visit("/code/forward-step-func")
    main = text(page)
    assert "forward_step_func" in main
    assert "Places" in main
    assert "relaxed-system-lab/flashflex" in main
    reader.shot("code-entry")

    main = follow(page, "relaxed-system-lab/flashflex")
    assert page.url.endswith("/repo/relaxed-system-lab/flashflex")
    assert "Samples harvested from it" in main
    page = reader.visit("/repo/pytorch/pippy")
    assert "GPipe" in text(page)
    reader.shot("repository")

    page = reader.visit("/paper/gpipe-efficient-training-of-giant-neural")
    with page.expect_navigation():
        page.get_by_role("link", name="Image Classification on ImageNet").click()
    assert page.url.endswith("/sota/image-classification-on-imagenet")
    main = text(page)
    assert "Top 1 Accuracy" in main
    assert "higher is better" in main
    assert page.locator("svg.chart-time").count() == 1
    assert "#1 on this board, by Top 1 Accuracy" in main
    assert page.locator(".facets").count() == 0
    reader.shot("leaderboard")

    page = reader.visit("/about")
    assert "A failure of the instrument, not of the code" in text(page)
    assert reader.errors == []
    reader.close()


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_pages_read_on_a_phone_in_both_themes(live_server, browser, color_scheme):
    reader = Reader(browser, live_server.url, color_scheme=color_scheme, width=390)
    for path in seed_html_pages():  # every public page kind (catalogue.web.public_pages)
        page = reader.visit(path)
        # Wide tables scroll inside their own box; the page itself never scrolls sideways.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (path, overflow)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(255, 255, 255)" if color_scheme == "light" else "rgb(13, 17, 23)")
    reader.visit("/paper/gpipe-efficient-training-of-giant-neural")
    reader.shot(f"paper-phone-{color_scheme}")
    # issue 37: the board's chart is legible on a phone (its smallest text at least 10 px high)
    # and its code column, download links and badge are on the page without sideways scroll
    page = reader.visit("/sota/image-classification-on-imagenet")
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('svg.chart-time text')]"
        ".map(t => t.getBoundingClientRect().height))"
    )
    assert smallest >= 10, smallest
    assert page.locator("table th", has_text="Code").count() == 1
    assert page.locator("a", has_text="CSV").count() == 1
    reader.shot(f"leaderboard-phone-{color_scheme}")
    # the search page: one search box, the results before the facets, which are folded
    page = reader.visit("/search?q=training")
    assert page.locator('input[type="search"]').count() == 1
    first_hit = page.locator(".hit").first.bounding_box()
    facets = page.locator(".facets").bounding_box()
    assert first_hit["y"] < facets["y"]
    assert not page.locator(".facet").first.is_visible()  # folded until opened
    reader.shot(f"search-phone-{color_scheme}")
    assert reader.errors == []
    reader.close()

    if color_scheme == "dark":
        wide = Reader(browser, live_server.url, color_scheme="dark")
        wide.visit("/paper/gpipe-efficient-training-of-giant-neural")
        wide.shot("paper-dark")
        wide.visit("/")
        wide.shot("home-dark")
        wide.visit("/sota/image-classification-on-imagenet")
        wide.shot("leaderboard-dark")
        assert wide.errors == []
        wide.close()


def test_a_reader_browses_state_of_the_art_down_to_an_author_and_a_feed(live_server, browser):
    reader = Reader(browser, live_server.url)
    page = reader.visit("/")

    main = follow(page, "State of the art", exact=True)
    assert page.url.endswith("/sota/")
    assert "Browse state-of-the-art" in main
    reader.shot("sota")
    main = follow(page, "Other tasks", exact=True)  # the seeds' tasks come without an area
    assert page.url.endswith("/area/tasks-in-no-area")
    assert "Image Classification" in main
    main = follow(page, "Image Classification", exact=True)
    assert page.url.endswith("/task/image-classification")
    assert "CIFAR-10" in main  # its datasets
    main = follow(page, "Image Classification on ImageNet", exact=True)
    assert page.url.endswith("/sota/image-classification-on-imagenet")
    main = follow(page, "Dataset: ImageNet", exact=True)
    assert page.url.endswith("/dataset/imagenet")
    assert "Image Classification on ImageNet" in main
    main = follow(page, "GPipe: Efficient Training of Giant Neural Networks")
    assert page.url.endswith("/paper/gpipe-efficient-training-of-giant-neural")
    assert "Cite this paper" in main
    assert page.locator('meta[name="citation_author"]').count() == 11
    main = follow(page, "Yanping Huang", exact=True)
    assert page.url.endswith("/author/Yanping%20Huang")
    assert "two people may share one name" in main
    page = reader.visit("/sota/image-classification-on-imagenet")
    feed = page.locator('link[rel="alternate"][type="application/atom+xml"]').get_attribute("href")
    assert feed == "/sota/image-classification-on-imagenet/feed"
    response = page.goto(live_server.url + feed)
    assert response.status == 200
    assert response.headers["content-type"] == "application/atom+xml; charset=utf-8"
    assert "GPIPE" in response.text()
    assert reader.errors == []
    reader.close()
