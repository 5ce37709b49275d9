"""Hostile text for the stored-XSS tests: seed documents rewritten to carry it everywhere.

``hostile_seeds(target)`` writes the three seed documents of fixtures/ into ``target`` with
EVIL (or EVIL plus ``label``) in every free-text field a page, the admin or the API shows:
titles, abstracts, author names, entry names, paths, metric names and values, task and method
names, models, datasets, frameworks, licences. The documents stay valid: the loader accepts
them, so the values reach the database and every page.
"""

import json
from html.parser import HTMLParser
from pathlib import Path

from django.urls import reverse

from catalogue import conferences
from catalogue.models import Author, CodeEntry, Dataset, Leaderboard
from tests.conftest import SEEDS
from tests.pages import kind_names, seed_pages

# A field value that starts like a URL someone could click, then tries every way out of an
# element, an attribute, a script, a comment and the template language, then reverses the text
# that follows it on screen (U+202E RIGHT-TO-LEFT OVERRIDE).
EVIL = (
    "javascript:alert(1)//"
    '<script>alert(2)</script>"><img src=x onerror=alert(3)>'
    "'><svg onload=alert(4)></script><script>alert(5)</script><!--"
    " {{ settings.SECRET_KEY }} {% debug %} {% load static %}"
    " \u202ecod.exe"
)
# For fields the loader caps at 100 characters (licence, framework, contract check).
EVIL_SHORT = 'javascript:alert(6)//"><img src=x onerror=alert(7)><script>alert(8)</script>'


def _evil(label: str) -> str:
    return f"{EVIL} {label}"


def _paper(doc: dict) -> None:
    doc["title"] = _evil("title")
    doc["abstract"] = _evil("abstract")
    doc["authors"] = [_evil("author"), *doc["authors"][1:]]
    doc["proceeding"] = _evil("proceeding")
    for link in doc["code_links"]:
        link["framework"] = EVIL_SHORT
    for task in doc["tasks"]:
        task["task_name"] = _evil("task")
    for method in doc["methods"]:
        method["method_name"] = _evil("method")
    for method in doc["methods_introduced"]:
        method["name"] = method["full_name"] = _evil("method introduced")
    for result in doc["results"]:
        result["model"] = _evil("model")
        result["dataset"] = _evil("dataset")
        result["task"] = _evil("result task")
        result["metrics"] = {**result["metrics"], _evil("metric"): _evil("metric value")}


def _code_entry(doc: dict) -> None:
    doc["entry"] = _evil("entry")
    for sample in doc["samples"]:
        sample["title"] = _evil("sample title")
        sample["path"] = _evil("path")
        sample["licence"] = EVIL_SHORT
        if sample.get("contract_check") is not None:
            sample["contract_check"] = EVIL_SHORT


def hostile_documents() -> dict[str, dict]:
    docs = {}
    for seed in SEEDS:
        doc = json.loads(seed.read_text())
        (_paper if doc["url"].startswith("/paper/") else _code_entry)(doc)
        docs[seed.name] = doc
    return docs


def hostile_seeds(target: Path) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, doc in hostile_documents().items():
        (path := target / name).write_text(json.dumps(doc, ensure_ascii=False))
        paths.append(path)
    return paths


class Markup(HTMLParser):
    """Every start tag of a page with its attributes, and the text of each <script>."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs)
            self.scripts.append((self._script, ""))

    def handle_data(self, data):
        if self._script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


DATA_SCRIPT_TYPES = {"application/ld+json", "application/json"}


def assert_inert(html: str, *, where: str = "") -> Markup:
    """Nothing from EVIL became markup: no handler, no script, no javascript: link, no template."""
    markup = Markup(html)
    for tag, attrs in markup.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (where, tag, name)
            if name in {"href", "src", "action", "formaction", "xlink:href"} and value:
                assert not value.strip().lower().startswith("javascript:"), (where, tag, name, value[:80])
        assert not (tag == "img" and attrs.get("src") == "x"), where
        assert not (tag == "svg" and "onload" in attrs), where
    for attrs, text in markup.scripts:
        if attrs.get("type") in DATA_SCRIPT_TYPES:
            assert "src" not in attrs, where
            json.loads(text)  # a data block that the text did not end early or break
            assert "</script" not in text.lower(), where
            assert "<!--" not in text, where
        else:
            # Executable: only the site's own files, or inline code carrying the response's nonce.
            assert (attrs.get("src") or "").startswith("/") or attrs.get("nonce"), (where, attrs)
            assert "alert(" not in text, where
    # The template language never saw the text: no debug dump, no settings value.
    assert "sql_queries" not in html, where
    if "alert(" in html:
        assert "{% debug %}" in html, where  # shown as the text it is
    return markup


PAPER = "/paper/gpipe-efficient-training-of-giant-neural"
# Every public page kind (catalogue.web.public_pages) at its seed example (tests/pages.py), which the
# hostile seeds keep, but those whose address comes from a hostile name (read from the rows, below).
# Search looks for the hostile text itself, and for a word of the seeds.
FROM_ROWS = {
    "code_entry": lambda: f"/code/{_first(CodeEntry, 'slug')}",
    "code_entry_feed": lambda: f"/code/{_first(CodeEntry, 'slug')}/feed",
    "leaderboard": lambda: f"/sota/{_first(Leaderboard, 'slug')}",
    "leaderboard_feed": lambda: f"/sota/{_first(Leaderboard, 'slug')}/feed",
    "leaderboard_table": lambda: f"/sota/{_first(Leaderboard, 'slug')}/table.csv",
    "badge_svg": lambda: f"/badge/{PAPER.rsplit('/', 1)[1]}/{_first(Leaderboard, 'slug')}.svg",
    "badge": lambda: f"/badge/{PAPER.rsplit('/', 1)[1]}/{_first(Leaderboard, 'slug')}",
    "dataset": lambda: f"/dataset/{_first(Dataset, 'slug')}",
    "dataset_leaderboards": lambda: f"/dataset/{_first(Dataset, 'slug')}/leaderboards",
    "author": lambda: reverse("author", args=[_first(Author.objects.exclude(name=""), "name")]),
    "conference": lambda: reverse("conference", args=[next(iter(conferences.conferences()))]),
    "proceeding": lambda: reverse(
        "proceeding", args=[next(iter(conferences.conferences().values())).proceedings[0].id]
    ),
}
PAGES = [
    "/search?q=alert" if kind == "search" else url
    for kind, url in zip(kind_names(), seed_pages(), strict=True)
    if kind not in FROM_ROWS
] + ["/search?q=training"]


def _first(rows, field):
    rows = rows.objects.all() if isinstance(rows, type) else rows
    return rows.order_by(field).values_list(field, flat=True)[0]
