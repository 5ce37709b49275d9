"""/api/v1/authors/, /authors/{id}/ and /authors/{id}/papers/: an author is an exact name."""

import datetime
from urllib.parse import quote, unquote, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from catalogue import counters
from catalogue import models as m
from catalogue.authors import has_page
from tests.api_helpers import (
    V1,
    assert_both_pagination_modes_walk,
    assert_queries_do_not_grow_with_page_size,
    get,
    ids,
    queries_and_rows,
    walk,
)
from tests.factories import make_paper

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

HOSTILE = [
    'O\'Brien "Bob" <script>alert(1)</script>',
    "AC/DC",
    "a/b/c/",
    "Name with a trailing space ",
    "Ünïcödé 作者",
    "50% & ?query#hash",
]


def dated_paper(slug: str, date: datetime.date, **fields) -> m.Paper:
    return make_paper(slug=slug, date=date, month=date.isoformat()[:7], **fields)


def make_authors(paper, *names):
    for position, name in enumerate(names):
        m.Author.objects.create(paper=paper, position=position, name=name)
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)  # the names, collected as a load ends
    return paper


def author_url(name: str, tail: str = "") -> str:
    return f"{V1}/authors/{quote(name, safe='')}/{tail}"


@pytest.fixture
def authors(db):
    """Four names on three papers; "alan turing" is another name than "Alan Turing"."""
    make_authors(dated_paper("paper-b", datetime.date(2021, 5, 1), title="Second"),
                 "Alan Turing", "Grace Hopper")  # fmt: skip
    make_authors(dated_paper("paper-a", datetime.date(2020, 1, 1), title="First"),
                 "Ada Lovelace", "Alan Turing")  # fmt: skip
    make_authors(dated_paper("paper-c", datetime.date(2019, 3, 1), title="Third"), "alan turing")


NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "alan turing"]


# --- one author -----------------------------------------------------------------------------


def test_author_detail_is_the_exact_name_with_its_page(api, authors):
    assert get(api, author_url("Alan Turing")) == {
        "id": "Alan Turing",
        "full_name": "Alan Turing",
        "url": "http://testserver/author/Alan%20Turing",
    }


@pytest.mark.parametrize("name", ["ALAN TURING", "Alan  Turing", "Alan Turing ", "Alan", "Nobody"])
def test_unknown_author_is_404(api, authors, name):
    assert "detail" in get(api, author_url(name), expect=404)
    get(api, author_url(name, "papers/"), expect=404)


def test_a_nul_in_the_id_is_404(api, authors):
    get(api, f"{V1}/authors/Alan%00Turing/", expect=404)


def test_author_detail_has_an_etag(api, authors):
    response = api.get(author_url("Alan Turing"))
    assert api.get(author_url("Alan Turing"), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


# --- the list: every name once, by name ----------------------------------------------------


def test_author_list_is_every_name_once_in_name_order(api, authors):
    page = get(api, f"{V1}/authors/")
    assert page["count"] == 4
    assert page["results"][0] == {
        "id": "Ada Lovelace",
        "full_name": "Ada Lovelace",
        "url": "http://testserver/author/Ada%20Lovelace",
    }
    assert ids(page) == NAMES  # code-point order ("C" collation on PostgreSQL, as SQLite)


def test_an_empty_name_is_not_an_author(api, authors):
    make_authors(make_paper(), "")
    assert ids(get(api, f"{V1}/authors/")) == NAMES


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "alan"}, ["Alan Turing", "alan turing"]),
        ({"q": "TURING alan"}, ["Alan Turing", "alan turing"]),
        ({"q": "ada lovelace"}, ["Ada Lovelace"]),
        ({"q": "ada turing"}, []),  # every word in the one name
        ({"q": "hop"}, ["Grace Hopper"]),
        ({"full_name": "TURING"}, ["Alan Turing", "alan turing"]),
        ({"full_name": "e h"}, ["Grace Hopper"]),
        ({"full_name": "zzz"}, []),
    ],
)
def test_author_filters(api, authors, params, expected):
    assert [a["id"] for a in walk(api, f"{V1}/authors/", **params)] == expected


def test_both_pagination_modes_walk_the_names_once(api, authors):
    assert_both_pagination_modes_walk(api, f"{V1}/authors/", NAMES, ["Alan Turing", "alan turing"], q="alan")
    assert list(get(api, f"{V1}/authors/", expect=400, cursor="junk")) == ["cursor"]


def test_deep_pages_walk_the_names_not_keys(api, authors, monkeypatch):
    from catalogue.pagination import paginators

    monkeypatch.setattr(paginators, "DEFERRED_FROM", 1)  # every page past the first is "deep"
    assert [a["id"] for a in walk(api, f"{V1}/authors/", items_per_page=1)] == NAMES


# --- a name's papers ------------------------------------------------------------------------


def test_author_papers_are_those_naming_exactly_it_in_id_order(api, authors):
    page = get(api, author_url("Alan Turing", "papers/"))
    assert (page["count"], ids(page)) == (2, ["paper-a", "paper-b"])
    assert page["results"][0]["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert ids(get(api, author_url("alan turing", "papers/"))) == ["paper-c"]
    newest = get(api, author_url("Alan Turing", "papers/"), ordering="-published")
    assert ids(newest) == ["paper-b", "paper-a"]
    assert ids(get(api, author_url("Alan Turing", "papers/"), year_min=2021)) == ["paper-b"]
    assert ids(get(api, author_url("Alan Turing", "papers/"), title="first")) == ["paper-a"]


def test_author_papers_in_both_pagination_modes(api, authors):
    url = author_url("Alan Turing", "papers/")
    assert ids(get(api, url, items_per_page=1, page=2)) == ["paper-b"]
    assert [p["id"] for p in walk(api, url, items_per_page=1)] == ["paper-a", "paper-b"]
    assert [p["id"] for p in walk(api, url, pagination="cursor", items_per_page=1)] == ["paper-a", "paper-b"]


# --- hostile names round-trip ---------------------------------------------------------------


def test_hostile_names_round_trip(api, db):
    paper = make_authors(make_paper(slug="hostile"), *HOSTILE)
    listed = {a["id"]: a for a in walk(api, f"{V1}/authors/")}
    assert set(listed) == set(HOSTILE)
    for name, author in listed.items():
        assert author["full_name"] == name
        assert get(api, author_url(name)) == author
        assert ids(get(api, author_url(name, "papers/"))) == [paper.slug]
        if has_page(name):
            page = urlsplit(author["url"])
            assert resolve(unquote(page.path)).kwargs == {"name": name}
        else:  # "/", "%", "?" or "#": the site shows such a name without a page
            assert author["url"] is None
    assert sum(author["url"] is None for author in listed.values()) == 4
    assert ids(get(api, f"{V1}/authors/", q="script")) == [HOSTILE[0]]
    cursor = walk(api, f"{V1}/authors/", pagination="cursor", items_per_page=1)
    assert [a["id"] for a in cursor] == list(listed)


def test_a_name_with_a_line_break_is_served_without_a_page(api, db):
    make_authors(make_paper(slug="broken"), "Line\nBreak")
    assert get(api, author_url("Line\nBreak")) == {
        "id": "Line\nBreak",
        "full_name": "Line\nBreak",
        "url": None,
    }
    assert ids(get(api, author_url("Line\nBreak", "papers/"))) == ["broken"]


def test_a_name_ending_in_papers_reads_as_that_list(api, db):
    # /authors/<name>/papers/ is the list: a name that itself ends in "/papers" is not reachable
    make_authors(make_paper(slug="one"), "X", "X/papers")
    assert ids(get(api, f"{V1}/authors/X/papers/")) == ["one"]
    assert get(api, f"{V1}/authors/X%2Fpapers/papers/")["count"] == 1


# --- the query count does not grow with the page --------------------------------------------


@pytest.fixture
def many(authors):
    for n in range(3):
        make_authors(make_paper(), f"Alan Turing {n}", "Alan Turing")


@pytest.mark.parametrize(
    "url", ["authors/", "authors/?q=alan", "authors/?full_name=n", "authors/Alan%20Turing/papers/"]
)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, many, url, mode):
    assert_queries_do_not_grow_with_page_size(api, url, mode)


def test_query_counts_are_pinned(api, many):
    assert queries_and_rows(api, f"{V1}/authors/")[0] == 2  # count, names
    assert queries_and_rows(api, f"{V1}/authors/?pagination=cursor")[0] == 1
    assert (
        queries_and_rows(api, author_url("Alan Turing", "papers/"))[0] == 4
    )  # the name, count, papers, authors
    with CaptureQueriesContext(connection) as captured:
        get(api, author_url("Alan Turing"))
    assert len(captured) == 1
