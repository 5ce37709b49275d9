"""Issue 37's orders of /papers/: "recently added" and "most code", each explained on the page,
from stored columns (no star counts: the archive holds none)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import counters
from catalogue import models as m
from tests.conftest import SEEDS, load
from tests.factories import make_code_link, make_paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def papers():
    first = make_paper(slug="added-first", month="2024-05")
    second = make_paper(slug="added-second", month="2019-01")
    third = make_paper(slug="added-third", month="2021-01")
    for _ in range(3):
        make_code_link(paper=second)
    make_code_link(paper=first)
    counters.refresh()
    return first, second, third


def test_most_code_lists_the_papers_with_the_most_code_links_first(client, papers):
    first, second, third = papers
    assert [p.n_code_links for p in m.Paper.objects.order_by("slug")] == [1, 2 + 1, 0]
    page = client.get("/papers/?sort=code").content.decode()
    order = [page.index(f'/paper/{p.slug}"') for p in (second, first, third)]
    assert order == sorted(order)
    assert "Most code: the papers the archive links to the most repositories" in page
    assert "No star counts" in page
    assert "star" not in re.sub(r"No star counts[^<]*", "", page.split('<main id="main"')[1]).lower()


def test_recently_added_lists_the_papers_the_catalogue_took_in_last_first(client, papers):
    first, second, third = papers
    page = client.get("/papers/?sort=added").content.decode()
    order = [page.index(f'/paper/{p.slug}"') for p in (third, second, first)]
    assert order == sorted(order)
    assert "Recently added: the papers this catalogue took in last" in page
    assert '<option value="added" selected>recently added</option>' in page
    assert '<option value="code">most code</option>' in page


def test_a_load_keeps_the_code_link_counts(client):
    load(*SEEDS)
    counts = {p.slug: p.n_code_links for p in m.Paper.objects.all()}
    assert counts["gpipe-efficient-training-of-giant-neural"] == 13  # the seed's 13 code links
    assert counts == {p.slug: p.code_links.count() for p in m.Paper.objects.all()}


def test_both_orders_read_the_same_queries_for_a_page_of_1_and_of_50(client):
    make_code_link(paper=make_paper())
    counters.refresh()

    def count(url):
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    one = [count("/papers/?sort=code"), count("/papers/?sort=added")]
    for _ in range(49):
        make_code_link(paper=make_paper())
    counters.refresh()
    assert [count("/papers/?sort=code"), count("/papers/?sort=added")] == one


def test_the_migration_counts_what_a_load_counts(client):
    """Migration 0025 counts existing papers' code links with its own frozen copy of the SQL."""
    import importlib

    migration = importlib.import_module("catalogue.migrations.0025_paper_n_code_links")
    load(*SEEDS)
    expected = {p.slug: p.n_code_links for p in m.Paper.objects.all()}
    m.Paper.objects.update(n_code_links=0)
    with connection.cursor() as cursor:
        cursor.execute(migration.COUNT_CODE_LINKS)
    assert {p.slug: p.n_code_links for p in m.Paper.objects.all()} == expected
    assert max(expected.values()) == 13
