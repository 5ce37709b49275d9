"""Issue 34: odd author names never fail a page. Whether a name has a page is one rule
(``catalogue.authors``) that the URL converter, the templates, the feeds, JSON-LD, citations and
the API's author ``url`` all follow; a blank name is left out of what is shown; and a BibTeX
author named "A and B" stays one author, counted as BibTeX splits them.
"""

import html as html_lib
import json
import re
import xml.etree.ElementTree as ET
from urllib.parse import quote, unquote

import pytest
from django.urls import NoReverseMatch, resolve, reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from catalogue import authors
from catalogue import models as m
from catalogue.web import citations
from tests.api_helpers import V1, get
from tests.factories import make_paper, reindex_search

ATOM = "{http://www.w3.org/2005/Atom}"


# --- which author names have a page ------------------------------------------------------------

WITH_A_PAGE = ["Ada Lovelace", "Smith and Sons Ltd", "Name with a trailing space ", "Zoë Ångström", "J."]
WITHOUT_A_PAGE = [
    "AC/DC",
    "a/../b",
    "50% Off",
    "Who?",
    "#1 author",
    "...",
    "-",
    "Line\nBreak",
    "NUL\x00here",
    "half \ud800 a pair",
]
BLANK = ["", "   ", "\t\n"]


@pytest.mark.parametrize("name", WITH_A_PAGE)
def test_a_name_that_makes_an_address_has_a_page(name):
    assert authors.has_page(name)
    assert resolve(unquote(reverse("author", args=[name]))).kwargs == {"name": name}


@pytest.mark.parametrize("name", WITHOUT_A_PAGE + BLANK)
def test_a_name_that_makes_no_address_has_none_and_reversing_it_says_so(name):
    assert not authors.has_page(name)
    with pytest.raises(NoReverseMatch):
        reverse("author", args=[name])


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_one_rule_decides_both_ways_for_any_name(name):
    # The rule, the converter and the resolver agree: a name has a page exactly when its address
    # leads back to it.
    if authors.has_page(name):
        assert resolve(unquote(reverse("author", args=[name]))).kwargs == {"name": name}
    else:
        with pytest.raises(NoReverseMatch):
            reverse("author", args=[name])


def test_blank_names_are_left_out_of_what_is_shown():
    assert authors.shown(["A", "", " ", "\x01", "B"]) == ["A", "B"]


# --- every place that shows authors -------------------------------------------------------------

STORED = [n for n in WITH_A_PAGE + WITHOUT_A_PAGE + BLANK if not re.search("[\x00\ud800-\udfff]", n)]
SHOWN = authors.shown(STORED)


@pytest.fixture
def odd_paper(db):
    paper = make_paper(slug="odd-names", title="Names of every kind", month="2024-02", abstract="Odd names.")
    for position, name in enumerate(STORED):
        m.Author.objects.create(paper=paper, position=position, name=name)
    from catalogue import counters

    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)  # the author names, as a load ends
    return paper


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def as_shown(name: str) -> str:
    text = html_lib.escape(name, quote=False)
    if authors.has_page(name):
        return f'<a href="{html_lib.escape(reverse("author", args=[name]))}">{text}</a>'
    return text


def test_the_paper_page_links_the_names_with_a_page_and_shows_the_others_as_text(client, odd_paper):
    text = page(client, odd_paper.get_absolute_url())
    line = re.search(r'<p class="authors">(.*?)</p>', text, re.S)[1]
    assert line == ", ".join(map(as_shown, SHOWN))
    assert line.count('href="/author/') == len(WITH_A_PAGE)
    # JSON-LD and Google Scholar's tags name the same authors, blank ones left out
    ld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)[1])
    assert [a["name"] for a in ld["author"]] == SHOWN
    tags = re.findall(r'<meta name="citation_author" content="([^"]*)">', text)
    assert [html_lib.unescape(t) for t in tags] == SHOWN


def test_lists_feeds_and_search_show_the_names_as_text(client, odd_paper):
    rows = page(client, "/papers/")
    assert f"<span>{', '.join(map(html_lib.escape, SHOWN[:4]))} et al.</span>" in rows
    assert feed_author(client) == ", ".join(SHOWN)
    reindex_search()
    # (PostgreSQL's parser reads "AC/DC" as one word, a file path: names that split alike on both)
    for q, name in (("author", "#1 author"), ("line break", "Line\nBreak"), ("lovelace", "Ada Lovelace")):
        found = re.search(r'<p class="authors-found">(.*?)</p>', page(client, f"/search?q={quote(q)}"), re.S)
        assert f"Authors named so: {as_shown(name)} " in found[1], q


def feed_author(client) -> str:
    feed = ET.fromstring(client.get("/papers/feed").content)
    return feed.find(f"{ATOM}entry/{ATOM}author/{ATOM}name").text


def test_the_api_gives_every_name_and_a_url_only_where_the_site_has_a_page(api, api_throttle_off, odd_paper):
    listed = {row["id"]: row for row in get(api, f"{V1}/authors/", items_per_page=50)["results"]}
    assert set(listed) == {n for n in STORED if n}  # "" is no author; "   " is listed as given
    for name, row in listed.items():
        if authors.has_page(name):
            assert row["url"] == "http://testserver" + reverse("author", args=[name])
        else:
            assert row["url"] is None, name
        assert get(api, f"{V1}/authors/{quote(name, safe='')}/") == row
    assert get(api, f"{V1}/papers/odd-names/")["authors"] == STORED  # the data, as given


@pytest.mark.parametrize("name", WITHOUT_A_PAGE + BLANK)
def test_the_address_of_a_name_without_a_page_is_a_404_without_a_query(
    client, odd_paper, django_assert_num_queries, name
):
    with django_assert_num_queries(0):
        page(client, "/author/" + quote(name, safe="/", errors="surrogatepass"), status=404)


def test_a_name_with_a_page_keeps_it(client, odd_paper):
    for name in WITH_A_PAGE[:3]:
        assert "Names of every kind" in page(client, reverse("author", args=[name]))


# --- BibTeX: one name per author, as BibTeX splits them ------------------------------------------


def bibtex_names(field: str) -> list[str]:
    """An author field split as BibTeX does: at the word "and" (any case) between white space,
    outside braces."""
    names, depth, start, i = [], 0, 0, 0
    while i < len(field):
        c = field[i]
        depth += (c == "{") - (c == "}")
        match = re.match(r"\s+and\s+", field[i:], re.IGNORECASE) if depth == 0 and c.isspace() else None
        if match:
            names.append(field[start:i])
            i = start = i + match.end()
            continue
        i += 1
    return [*names, field[start:]]


def test_the_splitting_rule_is_bibtex_s():
    assert bibtex_names("A and B AND C {D and E} and F") == ["A", "B", "C {D and E}", "F"]
    assert bibtex_names("Andrew Band") == ["Andrew Band"]


@pytest.mark.parametrize(
    "name", ["Smith and Sons Ltd", "Research AND Development", "and Partners", "Partners and", "others"]
)
def test_a_name_bibtex_would_split_is_kept_whole(db, name):
    names = ["Ada Lovelace", name, "", "Alan Turing"]
    entry = citations.bibtex(make_paper(title="A paper"), names, "https://example.org/p")
    field = re.search(r"^  author = \{(.*)\},$", entry, re.M)[1]
    assert len(bibtex_names(field)) == 3
    assert bibtex_names(field)[1] == "{" + name + "}"


def test_the_downloaded_bibtex_keeps_every_shown_name_whole(client, odd_paper):
    entry = page(client, f"{odd_paper.get_absolute_url()}/bibtex")
    field = re.search(r"^  author = \{(.*)\},$", entry, re.M)[1]
    assert len(bibtex_names(field)) == len(SHOWN)
