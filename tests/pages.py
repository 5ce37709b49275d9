"""One example address per public page kind on the seed documents, for every test that walks pages.

The kinds are the URLconf's (``catalogue.web.public_pages``: every view ``cached_page`` marks); the
examples are here because they name rows of the seeds. ``seed_pages()`` is one address per kind,
in URLconf order, and refuses a kind without an example: a new page is walked by the XSS, CSP,
strict-parameter and phone-width tests as soon as it is routed and given an example here
(tests/web/test_public_pages.py checks each example is of its kind and answers 200).
"""

import re
from urllib.parse import unquote, urlsplit

from django.urls import Resolver404, resolve

from catalogue.web.public_pages import public_page_kinds

GPIPE = "/paper/gpipe-efficient-training-of-giant-neural"

# kind (the URL pattern's name) -> an address of that kind, filled by the seeds
SEED_EXAMPLES = {
    "home": "/",
    "search": "/search?q=training",
    "paper_list": "/papers/",
    "papers_feed": "/papers/feed",
    "paper": GPIPE,
    "paper_bibtex": f"{GPIPE}/bibtex",
    "code_entry_list": "/code/",
    "code_entry": "/code/forward-step-func",
    "code_entry_feed": "/code/forward-step-func/feed",
    "code_body": "/body/c233d4777fc58003",
    "repo": "/repo/pytorch/pippy",
    "sota": "/sota/",
    "leaderboard": "/sota/image-classification-on-imagenet",
    "area": "/area/tasks-in-no-area",
    "task_list": "/tasks/",
    "dataset_list": "/datasets/",
    "dataset": "/dataset/imagenet",
    "dataset_leaderboards": "/dataset/imagenet/leaderboards",
    "author": "/author/Yanping%20Huang",
    "proceeding_list": "/proceedings/",
    "conference": "/conference/neurips",
    "proceeding": "/proceeding/neurips-2019-12",
    "leaderboard_feed": "/sota/image-classification-on-imagenet/feed",
    "task": "/task/image-classification",
    "task_feed": "/task/image-classification/feed",
    "task_leaderboards": "/task/image-classification/leaderboards",
    "method_list": "/methods/",
    "method": "/method/gpipe",
    "corrections": "/corrections/",
    "corrections_feed": "/corrections/feed",
    "about": "/about",
    "attribution": "/attribution",
    "data": "/data/",
    "leaderboard_table": "/sota/image-classification-on-imagenet/table.csv",
    "badge_svg": "/badge/gpipe-efficient-training-of-giant-neural/image-classification-on-imagenet.svg",
    "badge": "/badge/gpipe-efficient-training-of-giant-neural/image-classification-on-imagenet",
}


# Kinds a browser saves instead of showing (Content-Disposition: attachment): the browser tests
# cannot open them as pages, and need not (nothing of them runs).
SAVED_NOT_SHOWN = {"paper_bibtex", "leaderboard_table"}
# Kinds that are Atom feeds, not HTML pages: a browser shows them as XML, with no page layout.
FEEDS = {"papers_feed", "code_entry_feed", "leaderboard_feed", "task_feed", "corrections_feed"}
# Kinds that answer in a format of their own, not as an HTML page (a badge is an image, or the
# JSON shields.io reads): a browser shows them, with no page layout.
OWN_FORMAT = {"badge_svg": "image/svg+xml", "badge": "application/json"}


class MissingExample(LookupError):
    pass


def kind_names() -> list[str]:
    return [kind.name for kind in public_page_kinds()]


def seed_pages(examples: dict[str, str] = SEED_EXAMPLES) -> list[str]:
    """One address per public page kind, in URLconf order."""
    missing = [name for name in kind_names() if name not in examples]
    if missing:
        raise MissingExample(f"public page kinds without an example in tests/pages.py: {', '.join(missing)}")
    return [examples[name] for name in kind_names()]


def shown_by_browsers(urls: list[str]) -> list[str]:
    """``urls`` but those of a kind a browser saves as a file (``SAVED_NOT_SHOWN``)."""
    saved = {kind.view for kind in public_page_kinds() if kind.name in SAVED_NOT_SHOWN}

    def view_of(url: str):
        try:
            return resolve(unquote(urlsplit(url).path)).func
        except Resolver404:
            return None

    return [url for url in urls if view_of(url) not in saved]


def seed_html_pages() -> list[str]:
    """One address per public page kind that is an HTML page (no feed, no download), URLconf order."""
    return [
        url
        for name, url in zip(kind_names(), seed_pages(), strict=True)
        if name not in SAVED_NOT_SHOWN | FEEDS | set(OWN_FORMAT)
    ]


def html(client, url, status=200):
    """The page's text, without the <wbr> break hints that long names carry."""
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode().replace("<wbr>", "")


def assert_only_json_ld_scripts(page: str) -> None:
    """The page runs no script: each of its <script> elements is JSON-LD data."""
    scripts = re.findall(r"<script[^>]*>", page)
    assert all(s == '<script type="application/ld+json">' for s in scripts), scripts


def text_outside_code(html: str) -> str:
    """The page's words, without markup and without code and math-source elements."""
    html = re.sub(r"<(pre|code)\b.*?</\1>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", "", html)
