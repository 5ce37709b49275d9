"""Stored XSS: hostile snapshot text, loaded by load_snapshot, is inert everywhere it is shown.

tests/xss_corpus.py writes the seed documents with script tags, attribute break-outs,
javascript: URLs in fields that are not URLs, template syntax and a bidi override in every
free-text field. Public pages, meta tags, JSON-LD, the admin's lists and change forms and the
API are read back; nothing of it may become markup, script or template. A real Chromium
opening the same pages sees no dialog (tests/web/browser/test_xss_browser.py).
"""

import json
import re

import pytest
from django.urls import reverse

from catalogue.loader.columns import MAX_TEXT_CHARS
from catalogue.models import Author, CodeEntry, Leaderboard, Paper, Sample
from tests.admin_client import make_curator
from tests.conftest import SEEDS, load
from tests.pages import kind_names
from tests.xss_corpus import (
    EVIL,
    EVIL_SHORT,
    FROM_ROWS,
    PAGES,
    PAPER,
    assert_inert,
    hostile_documents,
    hostile_seeds,
)

pytestmark = pytest.mark.django_db

# Pages that show no document text at all (or, for these searches and lists, may list others first).
NO_HOSTILE_TEXT = {"/search?q=training", "/papers/", "/corrections/", "/corrections/feed", "/about"}
NO_HOSTILE_TEXT |= {"/attribution", "/data/"}
API = [
    "/api/v1/papers/",
    "/api/v1/papers/1811.06965/",
    "/api/v1/papers/1811.06965/tasks/",
    "/api/v1/papers/1811.06965/methods/",
    "/api/v1/papers/1811.06965/results/",
    "/api/v1/papers/1811.06965/samples/",
    "/api/v1/papers/1811.06965/repositories/",
    "/api/v1/search/?q=alert",
    "/api/v1/tasks/",
    "/api/v1/methods/",
    "/api/v1/evaluations/",
    "/api/v1/code-entries/",
    "/api/v1/samples/",
]


# Answers that are data, not markup: a citation, a board's CSV, a badge's shields.io JSON hold the
# text as written; no browser renders them as markup, and none may sniff one.
DATA_FORMATS = ("application/x-bibtex", "text/csv", "application/json")


def _is_data(response) -> bool:
    if not response["Content-Type"].startswith(DATA_FORMATS):
        return False
    assert response["X-Content-Type-Options"] == "nosniff", response["Content-Type"]
    return True


@pytest.fixture
def hostile(db, tmp_path):
    load(*hostile_seeds(tmp_path / "hostile"))


def strings(value):
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def test_the_hostile_text_is_stored_as_given(hostile):
    # The corpus reached the database unchanged: the tests below read it back, not a cleaned copy.
    paper = Paper.objects.get(arxiv_id="1811.06965")
    assert paper.title == f"{EVIL} title"
    assert Author.objects.filter(paper=paper, name=f"{EVIL} author").exists()
    assert CodeEntry.objects.filter(name=f"{EVIL} entry").exists()
    assert Sample.objects.filter(path=f"{EVIL} path").exists()


@pytest.mark.parametrize("url", PAGES)
def test_public_pages_show_hostile_text_as_text(client, hostile, url):
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    if url not in NO_HOSTILE_TEXT:
        assert "alert(" in html
    if _is_data(response):
        return
    assert_inert(html, where=url)
    for content in re.findall(r'content="([^"]*)"', html):  # as sent, before any unescaping
        assert "<" not in content, (url, content[:80])
        assert ">" not in content, (url, content[:80])
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html or "alert(" not in html


def test_every_public_page_kind_is_read_with_hostile_text():
    assert set(FROM_ROWS) <= set(kind_names())
    assert len(PAGES) == len(kind_names()) - len(FROM_ROWS) + 1


@pytest.mark.parametrize("kind", sorted(FROM_ROWS))
def test_pages_named_by_hostile_text_show_it_as_text(client, hostile, kind):
    url = FROM_ROWS[kind]()
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    assert "alert(" in html, url
    if _is_data(response):
        return
    assert_inert(html, where=url)
    for content in re.findall(r'content="([^"]*)"', html):
        assert "<" not in content, (url, content[:80])
        assert ">" not in content, (url, content[:80])


def test_every_code_entry_and_leaderboard_page_shows_hostile_text_as_text(client, hostile):
    # Their addresses come from the hostile names, so they are read from the database.
    urls = [f"/code/{slug}" for slug in CodeEntry.objects.values_list("slug", flat=True)]
    urls += [f"/sota/{slug}" for slug in Leaderboard.objects.values_list("slug", flat=True)]
    assert len(urls) > 5
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert_inert(html, where=url)
        for content in re.findall(r'content="([^"]*)"', html):
            assert "<" not in content, (url, content[:80])
    assert any("alert(" in client.get(url).content.decode() for url in urls)


def test_json_ld_holds_the_hostile_text_as_data(client, hostile):
    markup = assert_inert(client.get(PAPER).content.decode())
    (block,) = [text for attrs, text in markup.scripts if attrs.get("type") == "application/ld+json"]
    data = json.loads(block)
    assert data["headline"] == f"{EVIL} title"
    assert data["abstract"] == f"{EVIL} abstract"
    assert {"@type": "Person", "name": f"{EVIL} author"} in data["author"]


def test_meta_tags_hold_the_hostile_text_escaped(client, hostile):
    html = client.get(PAPER).content.decode()
    title = re.search(r'<meta property="og:title" content="([^"]*)">', html)[1]
    assert title.startswith("javascript:alert(1)//&lt;script&gt;")
    assert "&quot;&gt;&lt;img" in title


@pytest.mark.parametrize("url", API)
def test_the_api_returns_hostile_text_as_json_data(client, hostile, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["X-Content-Type-Options"] == "nosniff"
    found = [s for s in strings(response.json()) if "alert(" in s]
    assert found, url
    assert all(s.startswith((EVIL, EVIL_SHORT)) for s in found), url


@pytest.fixture
def curator_client(client, hostile):
    client.force_login(make_curator("cora"))
    return client


def admin_pages():
    paper = Paper.objects.get(arxiv_id="1811.06965")
    sample = Sample.objects.filter(path=f"{EVIL} path").first()
    entry = CodeEntry.objects.filter(name=f"{EVIL} entry").first()
    return [
        reverse("admin:index"),
        reverse("admin:catalogue_paper_changelist"),
        reverse("admin:catalogue_paper_changelist") + "?q=alert",
        reverse("admin:catalogue_paper_change", args=[paper.pk]),
        reverse("admin:catalogue_sample_changelist"),
        reverse("admin:catalogue_sample_change", args=[sample.pk]),
        reverse("admin:catalogue_codeentry_changelist"),
        reverse("admin:catalogue_codeentry_change", args=[entry.pk]),
    ]


def test_the_admin_shows_hostile_text_as_text(curator_client):
    for url in admin_pages():
        response = curator_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert_inert(html, where=url)
        if url != reverse("admin:index"):
            assert "alert(" in html, url


@pytest.mark.slow
def test_hostile_text_as_long_as_a_field_may_be_is_shown_as_text(client, tmp_path):
    # The loader keeps an abstract up to the cap on one free text (columns.MAX_TEXT_CHARS; a
    # longer one is left out, warning: tests/loader/test_loader_hostile.py). Search indexes its first
    # 20,000 characters (catalogue.search.INDEXED_BODY_CHARS); what is promised here is that it
    # stays text. (Until issue 15 there was no cap, and this was a 10 MB abstract.)
    docs = hostile_documents()
    paper = next(name for name, doc in docs.items() if doc["url"] == PAPER)
    docs[paper]["abstract"] = (EVIL + " ") * (MAX_TEXT_CHARS // (len(EVIL) + 1))
    for name, doc in docs.items():
        (tmp_path / name).write_text(json.dumps(doc, ensure_ascii=False))
    load(*(tmp_path / name for name in docs))
    response = client.get(PAPER)
    assert response.status_code == 200
    assert_inert(response.content.decode(), where=PAPER)
    api = client.get("/api/v1/papers/1811.06965/")
    assert api.status_code == 200
    assert api.json()["abstract"].startswith(EVIL)
    assert len(api.json()["abstract"]) >= MAX_TEXT_CHARS - len(EVIL) - 1


def test_the_seeds_are_unchanged_by_the_corpus():
    # hostile_documents() works on copies: the committed seeds stay as they are.
    assert all("alert(" not in seed.read_text() for seed in SEEDS)
