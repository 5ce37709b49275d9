"""The pages stay cheap: their queries do not grow with rows, and every public page kind has its
queries counted (here or in a module of its own) or says why not."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import models as m
from tests.factories import (
    make_body,
    make_entry,
    make_leaderboard,
    make_paper,
    make_repo,
    make_result,
    reindex_search,
)
from tests.web.pages.conftest import GPIPE, make_sample

pytestmark = pytest.mark.django_db


# --- queries do not grow with rows -------------------------------------------------


def _queries(client, url) -> int:
    client.get(url)  # warm: the first request may load things once per process
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def _grow_paper(paper, n) -> m.Paper:
    """``paper`` given its ``n``-th task, method, author, code link, sample and result."""
    task = m.Task.objects.create(slug=f"t-{paper.pk}-{n}", name="T", stamp="s")
    method = m.Method.objects.create(slug=f"m-{paper.pk}-{n}", name="M", stamp="s")
    paper.tasks.add(task)
    paper.methods.add(method)
    paper.methods_introduced.add(method)
    m.Author.objects.create(paper=paper, position=n, name=f"Author {n}")
    repo = make_repo()
    m.CodeLink.objects.create(paper=paper, repo=repo, repo_url=repo.url, stamp="s")
    make_sample(paper=paper, repo=repo, status="ran" if n % 2 else "unverified")
    make_result(paper=paper)
    return paper


def _builders():
    """Per page: (set up one row → url, add one more row)."""

    def home():
        return "/", lambda n: _grow_paper(make_paper(), 0)

    def papers():
        return "/papers/", lambda n: _grow_paper(make_paper(), 0)

    def papers_by_samples():
        return "/papers/?sort=samples", lambda n: _grow_paper(make_paper(), 0)

    def paper():
        p = make_paper(slug="grown")
        return "/paper/grown", lambda n: _grow_paper(p, n)

    def search(kind):
        # One kind per run: which kinds share the first page depends on ranking, and each
        # kind present costs its own fetch (a fixed number, whatever the hits).
        def build():
            def add(n):
                if kind == "paper":
                    _grow_paper(make_paper(title=f"Zebra paper {n}"), 0)
                elif kind == "entry":
                    make_sample(entry=make_entry(name=f"zebra_{n}"), repo=make_repo())
                else:
                    make_sample(repo=make_repo(owner="zebra", name=f"r{n}"))
                reindex_search()

            return f"/search?q=zebra&kind={kind}", add

        build.__name__ = f"search_{kind}"
        return build

    def entries():
        return "/code/?sort=ran", lambda n: make_sample(entry=make_entry(), status="ran")

    def entry():
        e = make_entry(slug="grown-entry", name="grown_entry")
        return "/code/grown-entry", lambda n: make_sample(entry=e, repo=make_repo())

    def body():
        b = make_body(sha256_prefix="00000000000000bb")
        return "/body/00000000000000bb", lambda n: make_sample(body=b, repo=make_repo())

    def repo():
        r = make_repo(owner="grown", name="repo")

        def add(n):
            p = make_paper()
            m.CodeLink.objects.create(paper=p, repo=r, repo_url=r.url, stamp="s")
            make_sample(paper=p, repo=r)

        return "/repo/grown/repo", add

    def board():
        b = make_leaderboard(slug="grown-board")
        return "/sota/grown-board", lambda n: make_result(leaderboard=b, metrics={"Accuracy": f"{n}%"})

    def task():
        t = m.Task.objects.create(slug="grown-task", name="Grown", stamp="s")

        def add(n):
            p = _grow_paper(make_paper(), 0)
            p.tasks.add(t)
            make_leaderboard(task=t)

        return "/task/grown-task", add

    def method():
        me = m.Method.objects.create(slug="grown-method", name="Grown", stamp="s")

        def add(n):
            p = _grow_paper(make_paper(), 0)
            p.methods.add(me)
            p.methods_introduced.add(me)
            make_result(paper=p)

        return "/method/grown-method", add

    def sitemap():
        return "/sitemap-papers.xml", lambda n: make_paper()

    return {
        f.__name__: f
        for f in (
            home,
            papers,
            papers_by_samples,
            paper,
            search("paper"),
            search("entry"),
            search("repo"),
            entries,
            entry,
            body,
            repo,
            board,
            task,
            method,
            sitemap,
        )
    }


@pytest.mark.parametrize("page", list(_builders()))
def test_queries_per_page_do_not_grow_with_rows(client, db, page):
    url, add = _builders()[page]()
    add(0)
    one = _queries(client, url)
    for n in range(1, 50):
        add(n)
    fifty = _queries(client, url)
    assert one == fifty, f"{url}: {one} queries with 1 row, {fifty} with 50"


# Public page kinds (catalogue.web.public_pages) whose queries are counted for 1 and 50 rows by a
# test of their own module, with rows built for them; and those not counted yet, with why.
QUERY_COUNTS_ELSEWHERE = {
    **dict.fromkeys(
        ("sota", "area", "task_list", "dataset_list", "dataset", "task_leaderboards", "dataset_leaderboards"),
        "web.test_browse::test_query_counts_do_not_grow_with_rows",
    ),
    **dict.fromkeys(
        ("author", "proceeding"),
        "web.test_browse_authors::test_author_and_proceeding_pages_take_the_same_queries_for_1_or_50_papers",
    ),
    "method_list": "web.test_browse_methods::test_method_pages_take_the_same_queries_for_1_or_50_methods",
    "corrections": "web.test_corrections_public::test_query_counts_do_not_grow_with_corrections",
    "corrections_feed": "web.test_corrections_public::test_query_counts_do_not_grow_with_corrections",
    "papers_feed": "web.test_feeds::"
    "test_a_feed_holds_the_newest_fifty_in_the_same_number_of_queries_for_1_or_50",
    "leaderboard_feed": "web.test_feeds::"
    "test_undated_entries_take_the_last_load_s_date_in_one_query_for_1_or_50",
    **dict.fromkeys(
        ("leaderboard_table", "badge_svg", "badge"),
        "web.test_boards::test_board_csv_badge_and_paper_ranks_read_the_same_queries_for_1_row_and_50",
    ),
    "data": "web.test_data_page::"
    "test_the_load_history_costs_the_same_queries_for_one_run_or_many_and_walks_them_all",
}


QUERY_COUNTS_NOT_YET = {
    "paper_bibtex": "one paper's citation: no list in it",
    "code_entry_feed": "the newest places of one entry, capped as /papers/feed is; no builder yet",
    "task_feed": "the newest papers of one task, capped as /papers/feed is; no builder yet",
    "conference": "its proceedings, a short list; no builder yet",
    "proceeding_list": "every proceeding, remembered per data version (catalogue.conferences)",
    "about": "no rows",
    "attribution": "the loaded sources and load history, a few rows; no builder yet",
}


def test_every_public_page_kind_has_its_queries_counted_or_says_why_not(db):
    import importlib

    from django.urls import resolve

    from catalogue.web.public_pages import public_page_kinds

    kinds = public_page_kinds()
    by_view = {kind.view: kind.name for kind in kinds}
    built = set()
    for build in _builders().values():
        url, _ = build()
        match = resolve(url.split("?")[0])
        if match.func in by_view:  # a sitemap is built too, and is no public page
            built.add(by_view[match.func])
    assert len(built) == 11
    for where in set(QUERY_COUNTS_ELSEWHERE.values()):
        module, test = where.split("::")
        assert callable(getattr(importlib.import_module(f"tests.{module}"), test)), where
    counted = [built, set(QUERY_COUNTS_ELSEWHERE), set(QUERY_COUNTS_NOT_YET)]
    assert sum(map(len, counted)) == len(set().union(*counted))  # each kind in one place
    assert set().union(*counted) == {kind.name for kind in kinds}  # a new page: count its queries


def test_the_paper_page_is_seven_queries_and_one_more_per_kind_of_correction(client, loaded_seeds):
    from django.contrib.auth import get_user_model

    from catalogue import curation

    # the paper with its authors' names and whether it has corrections, its places (with entry,
    # body, repository and code flags), results, topics, code links, the rows of the boards its
    # results are on (its "Ranked #N", issue 37), its related papers (issue 37); an active
    # title correction and status corrections of its places are one query each
    assert _queries(client, GPIPE) == 7
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    curator = get_user_model().objects.create(username="curator")
    for sample in m.Sample.objects.filter(paper=paper).order_by("id")[:2]:
        curation.correct_status(sample, "ran", user=curator, reason="ran", expected_version=None)
    assert _queries(client, GPIPE) == 8
    curation.correct_title(paper, "GPipe, corrected", user=curator, expected_version=None)
    assert _queries(client, GPIPE) == 9
