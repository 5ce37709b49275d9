"""catalogue.queries, /search's reads: hits of every kind, facets counted over what the other filters
leave, pages of hits, no words; and a compiled query's marker."""

import pytest

from catalogue import reads
from catalogue.models import Paper, Status
from catalogue.reads.site_search import SearchFilters
from tests.factories import (
    make_code_link,
    make_entry,
    make_paper,
    make_repo,
    make_sample,
    make_task,
    reindex_search,
)

pytestmark = pytest.mark.django_db


# --- /search: hits, filters and facets ----------------------------------------------------------


@pytest.fixture
def zebras():
    """Five hits for "zebra": three papers, a code entry and a repository, and rows that do not match."""
    stripes, herds = make_task(slug="stripes", name="Stripes"), make_task(slug="herds", name="Herds")
    hits = {
        "p2020": make_paper(arxiv_id="2003.00001", title="Zebra stripes"),
        "p2021": make_paper(arxiv_id="2105.00002", title="Zebra herds"),
        "undated": make_paper(arxiv_id=None, month="", title="Zebra without a date"),
        "entry": make_entry(name="zebra_count"),
        "repo": make_repo(owner="zebra", name="tools"),
    }
    hits["p2020"].tasks.add(stripes)
    hits["p2021"].tasks.add(stripes, herds)
    make_code_link(paper=hits["p2020"], is_official=True)
    make_code_link(paper=hits["p2021"], is_official=False)
    make_sample(paper=hits["p2020"], status=Status.UNVERIFIED)
    make_sample(paper=hits["p2021"], status=Status.RAN)
    make_sample(entry=hits["entry"], status=Status.RAN_HONOURS)
    make_sample(repo=hits["repo"])
    make_paper(title="Lions")
    reindex_search()
    return hits


def found(page) -> set[tuple[str, int]]:
    return {(item.kind, item.object_id) for item in page.items}


def test_search_page_finds_every_kind_and_counts_each_facet(zebras):
    page = reads.site_search.search_page("zebra", SearchFilters())
    assert found(page) == {(kind, zebras[name].pk) for name, kind in (
        ("p2020", "paper"), ("p2021", "paper"), ("undated", "paper"), ("entry", "entry"), ("repo", "repo"),
    )}  # fmt: skip
    assert all(item.obj.pk == item.object_id for item in page.items)
    assert (page.total, page.capped, page.page, page.pages) == (5, False, 1, 1)
    assert page.facets == {
        "kind": [("paper", "papers", 3), ("entry", "code entries", 1), ("repo", "repositories", 1)],
        "task": [("stripes", "Stripes", 2), ("herds", "Herds", 1)],
        "year": [("2021", "2021", 1), ("2020", "2020", 1)],  # the undated paper is in no year
        "official": [("1", "has official code", 1)],
        "status": [("ran_honours", "ran_honours", 1), ("ran", "ran", 1), ("unverified", "unverified", 2)],
    }
    assert set(page.entry_figures) == {zebras["entry"].pk}
    assert page.entry_figures[zebras["entry"].pk].n_samples_ran == 1


def test_search_page_counts_each_facet_over_the_hits_the_other_filters_leave(zebras):
    by_kind = reads.site_search.search_page("zebra", SearchFilters(kind="paper"))
    assert {kind for kind, _ in found(by_kind)} == {"paper"}
    assert by_kind.total == 3
    assert by_kind.facets["kind"] == [
        ("paper", "papers", 3),
        ("entry", "code entries", 1),
        ("repo", "repositories", 1),
    ]
    assert by_kind.facets["status"] == [("ran", "ran", 1), ("unverified", "unverified", 1)]

    by_year = reads.site_search.search_page("zebra", SearchFilters(year=2020))
    assert found(by_year) == {("paper", zebras["p2020"].pk)}
    assert by_year.facets["year"] == [("2021", "2021", 1), ("2020", "2020", 1)]  # its own filter left out
    assert by_year.facets["task"] == [("stripes", "Stripes", 1)]
    assert by_year.facets["kind"] == [("paper", "papers", 1)]

    by_task = reads.site_search.search_page("zebra", SearchFilters(task="herds"))
    assert found(by_task) == {("paper", zebras["p2021"].pk)}
    assert by_task.facets["task"] == [("stripes", "Stripes", 2), ("herds", "Herds", 1)]
    assert by_task.facets["official"] == []  # the herds paper's link is not official

    by_status = reads.site_search.search_page("zebra", SearchFilters(status="unverified"))
    assert found(by_status) == {("paper", zebras["p2020"].pk), ("repo", zebras["repo"].pk)}
    assert (
        by_status.facets["status"] == reads.site_search.search_page("zebra", SearchFilters()).facets["status"]
    )

    official = reads.site_search.search_page("zebra", SearchFilters(has_official_code=True))
    assert found(official) == {("paper", zebras["p2020"].pk)}
    # task, year and official code are a paper's: the entry and the repository drop out
    assert reads.site_search.search_page("zebra", SearchFilters(kind="entry", task="stripes")).items == []


def test_search_page_pages_its_hits_and_says_when_it_stopped_counting(monkeypatch):
    papers = [make_paper(title=f"Zebra {i}") for i in range(reads.site_search.SEARCH_PAGE_SIZE + 5)]
    reindex_search()
    first = reads.site_search.search_page("zebra", SearchFilters())
    assert (first.total, first.pages, len(first.items)) == (
        len(papers),
        2,
        reads.site_search.SEARCH_PAGE_SIZE,
    )
    last = reads.site_search.search_page("zebra", SearchFilters(), page=2)
    assert len(last.items) == 5
    assert found(first) | found(last) == {("paper", p.pk) for p in papers}
    assert found(reads.site_search.search_page("zebra", SearchFilters(), page=99)) == found(
        last
    )  # past the end: the last
    assert found(reads.site_search.search_page("zebra", SearchFilters(), page=0)) == found(first)
    monkeypatch.setattr(reads.site_search, "SEARCH_FACET_LIMIT", 10)
    capped = reads.site_search.search_page("zebra", SearchFilters())
    assert (capped.capped, capped.total, capped.facets["kind"]) == (True, 10, [("paper", "papers", 10)])


def test_search_page_without_words_finds_nothing(zebras):
    page = reads.site_search.search_page("!!!", SearchFilters())
    assert (page.items, page.total, page.pages) == ([], 0, 1)
    assert page.facets["kind"] == []


def test_a_compiled_query_runs_its_queryset_with_the_value_put_in_and_refuses_an_ambiguous_marker(db):
    from django.db import connection

    a, b = make_paper(slug="alpha"), make_paper(slug="beta")
    by_slug = reads.sql.CompiledQuery(
        lambda slug, alias: Paper.objects.filter(slug=slug).values_list("id"), "\x00"
    )
    for paper in (a, b):
        with connection.cursor() as cursor:
            cursor.execute(*by_slug.sql(connection.alias, paper.slug))
            assert cursor.fetchall() == [(paper.pk,)]
    twice = reads.sql.CompiledQuery(
        lambda slug, alias: Paper.objects.filter(slug=slug).exclude(title=slug).values_list("id"), "\x00"
    )
    with pytest.raises(ValueError, match="2 times"):
        twice.sql(connection.alias, "alpha")
