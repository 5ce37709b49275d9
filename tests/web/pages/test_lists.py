"""Lists, filters, sorting and pagination on the pages: papers, code entries, repositories,
leaderboards (their best hundred rows and the rest), tasks, methods and search."""

import re

import pytest

from catalogue import models as m
from catalogue.pagination import keyset
from tests.factories import make_entry, make_leaderboard, make_paper, make_repo, make_result
from tests.pages import html
from tests.web.pages.conftest import GPIPE, make_sample

pytestmark = pytest.mark.django_db


# --- lists, filters and pagination ---------------------------------------------------


def test_keyset_pagination_walks_every_paper_once_in_order(client, db):
    papers = [make_paper(arxiv_id=f"23{(i % 12) + 1:02d}.{i:05d}") for i in range(60)]
    seen, url = [], "/papers/"
    for _ in range(10):
        response = client.get(url)
        page = response.context["page"]
        seen += [p.pk for p in page.items]
        if not page.next_cursor:
            break
        url = "/papers/?after=" + page.next_cursor
    expected = sorted(papers, key=lambda p: (p.month, p.pk), reverse=True)
    assert seen == [p.pk for p in expected]

    second = client.get("/papers/?after=" + client.get("/papers/").context["page"].next_cursor)
    back = client.get("/papers/?before=" + second.context["page"].prev_cursor).context["page"]
    assert [p.pk for p in back.items] == [p.pk for p in expected[: keyset.PAGE_SIZE]]
    assert back.prev_cursor is None


def test_paper_filters(client, db):
    task = m.Task.objects.create(slug="t", name="T", stamp="s")
    tagged = make_paper(arxiv_id="2001.00001")
    tagged.tasks.add(task)
    official = make_paper(arxiv_id="2101.00001")
    m.CodeLink.objects.create(
        paper=official, repo=make_repo(), repo_url="https://github.com/a/b", is_official=True, stamp="s"
    )
    ran = make_paper(arxiv_id="2201.00001")
    make_sample(paper=ran, status="ran")
    unverified = make_paper(arxiv_id="2301.00001")
    make_sample(paper=unverified)

    def shown(query):
        return {p.pk for p in client.get("/papers/" + query).context["page"].items}

    assert shown("?task=t") == {tagged.pk}
    assert shown("?year=2021") == {official.pk}
    assert shown("?official=1") == {official.pk}
    assert shown("?ran=1") == {ran.pk}
    assert shown("?has_code=1") == {official.pk, ran.pk, unverified.pk}
    items = client.get("/papers/?sort=samples").context["page"].items
    assert {items[0].pk, items[1].pk} == {ran.pk, unverified.pk}


def test_code_entries_sort_by_places_papers_and_samples_ran(client, db):
    busy, ran = make_entry(name="busy"), make_entry(name="ran_one")
    paper = make_paper()
    for _ in range(3):
        make_sample(entry=busy, paper=paper)
    make_sample(entry=ran, status="ran")
    make_sample(entry=ran, status="ran_honours")

    def first(sort):
        return client.get(f"/code/?sort={sort}").context["rows"][0][0]

    assert first("places") == busy
    assert first("papers") == ran
    assert first("ran") == ran
    assert first("name") == busy


def test_code_entry_places_filter_by_status(client, loaded_seeds):
    response = client.get("/code/forward-step-func?status=ran")
    places = response.context["places"].items
    assert [s.status for s in places] == ["ran"]
    assert "relaxed-system-lab/flashflex" in response.content.decode()


def test_code_body_page_lists_every_place_of_the_body(client, loaded_seeds):
    page = html(client, "/body/c233d4777fc58003")
    places = m.Sample.objects.filter(body__sha256_prefix="c233d4777fc58003")
    assert places.values("paper").distinct().count() == 4
    for sample in places.select_related("paper", "repo", "entry"):
        assert sample.paper.get_absolute_url() in page
        assert sample.repo.full_name in page
    # Every place that shows a body links it.
    entry_page = html(client, "/code/check-args-torchrun-main")
    assert 'href="/body/c233d4777fc58003"' in entry_page


def test_repository_pages_are_case_insensitive_and_hosts_other_than_github_use_a_parameter(client, db):
    gitlab = make_repo(host="gitlab.com", owner="Group", name="Proj", key="gitlab.com/group/proj")
    response = client.get("/repo/group/proj?host=gitlab.com")
    assert response.status_code == 301
    assert response["Location"] == "/repo/Group/Proj?host=gitlab.com"
    page = html(client, "/repo/Group/Proj?host=GitLab.com")
    assert "https://gitlab.com/Group/Proj" in page
    assert "/api/v1/repositories/Group/Proj/?host=gitlab.com" in page
    html(client, "/repo/Group/Proj", status=404)
    paper = make_paper()
    make_sample(paper=paper, repo=gitlab)
    assert 'href="/repo/Group/Proj?host=gitlab.com"' in html(client, paper.get_absolute_url())


def test_repository_page_shows_papers_linking_it_and_samples_from_it(client, loaded_seeds):
    page = html(client, "/repo/pytorch/pippy")
    assert GPIPE in page
    assert "BSD-3-Clause" in page
    assert "not official" in page
    assert "create_empty_tensors" in page
    assert "pointer only" in page


def test_leaderboard_sorts_by_parsed_metric_and_lists_unparseable_values_last(client, db):
    board = make_leaderboard()
    values = ["84.4%", "N/A", "1.82M", "57.01 %", "-"]
    for i, value in enumerate(values):
        make_result(
            leaderboard=board, model=f"model-{i}", metrics={"Accuracy": value}, rank_in_archive_order=i + 1
        )
    response = client.get(board.get_absolute_url())
    assert [r.metrics["Accuracy"] for r in response.context["results"]] == [
        "1.82M",
        "84.4%",
        "57.01 %",
        "N/A",
        "-",
    ]
    page = response.content.decode()
    assert "higher is better" in page
    assert 'class="chart chart-time"' in page
    assert "Best: model-2" in page


def test_leaderboard_sorts_error_metrics_lower_first(client, db):
    board = make_leaderboard()
    for i, value in enumerate(["5.0", "1.5", "3"]):
        make_result(leaderboard=board, metrics={"Top-1 Error Rate": value}, model=f"m{i}")
    response = client.get(board.get_absolute_url())
    assert [r.metrics["Top-1 Error Rate"] for r in response.context["results"]] == ["1.5", "3", "5.0"]
    assert "lower is better" in response.content.decode()


def test_leaderboard_can_sort_by_another_metric(client, db):
    board = make_leaderboard()
    # Params is a cost, fewer first (it was read as higher-better, like every name that was
    # not an error, until catalogue.metrics knew costs): b's 10M ranks it first by Params.
    make_result(leaderboard=board, model="a", metrics={"Accuracy": "90", "Params": "20M"})
    make_result(leaderboard=board, model="b", metrics={"Accuracy": "80", "Params": "10M"})
    assert [r.model for r in client.get(board.get_absolute_url()).context["results"]] == ["a", "b"]
    sorted_by_params = client.get(board.get_absolute_url() + "?metric=Params").context["results"]
    assert [r.model for r in sorted_by_params] == ["b", "a"]


def test_task_and_method_pages_list_papers_and_leaderboards(client, loaded_seeds):
    task = html(client, "/task/image-classification")
    assert "image-classification-on-imagenet" in task
    assert GPIPE in task
    method = html(client, "/method/gpipe")
    assert "Introduced by" in method
    assert GPIPE in method
    assert "image-classification-on-imagenet" in method


def test_search_ranks_and_facets(client, loaded_seeds):
    response = client.get("/search?q=training")
    results = response.context["results"]
    assert results.total > 1
    page = response.content.decode()
    assert "Counted over the best 1,000 matches" in page
    kinds = {item.kind for item in results.items}
    assert kinds == {"paper"}
    only_2018 = client.get("/search?q=training&year=2018").context["results"]
    assert [i.obj.arxiv_id for i in only_2018.items] == ["1811.06965"]
    entry = client.get("/search?q=forward_step_func&kind=entry").context["results"]
    assert [i.obj.name for i in entry.items] == ["forward_step_func"]
    assert (
        client.get("/search?q=forward_step_func&kind=entry&task=image-classification")
        .context["results"]
        .items
        == []
    )
    ran = client.get("/search?q=training&status=ran").context["results"]
    assert [i.obj.arxiv_id for i in ran.items] == ["2409.01143"]


def test_counts_take_the_singular_for_one(client, loaded_seeds):
    # An entry found in one place, and a paper with one harvested sample, are common.
    found = html(client, "/search?q=stage_backward&kind=entry")
    assert "1 place in 1 paper</span>" in found
    # issue 37: a count of "ran" says how many of those were instrument failures
    assert re.search(r"of 1 body, (0 ran|1 ran, (none of them an|an) instrument failure)<", found)
    many = html(client, "/search?q=forward_step_func&kind=entry")
    assert "5 places in 5 papers</span><span>of 4 bodies, 2 ran, 1 of them an instrument failure<" in many
    one = html(client, "/paper/frugal-memory-efficient-optimization-by")
    assert "<dd>1 sample, 0 ran; 1 repository</dd>" in one
    gpipe = html(client, "/paper/gpipe-efficient-training-of-giant-neural")
    # its one body that ran is ran_draft_wrong: a failure of the instrument
    assert "<dd>25 samples, 1 ran, an instrument failure; 3 repositories</dd>" in gpipe


def test_search_without_words_shows_the_box(client, loaded_seeds):
    page = html(client, "/search")
    assert 'id="search-q"' in page
    assert "result" not in page.split('<main id="main"')[1].split("</main>")[0]


def test_a_big_leaderboard_shows_its_best_hundred_rows_and_pages_the_rest(client, db):
    from catalogue.web.views.leaderboards import LEADERBOARD_ROWS

    board = make_leaderboard()
    paper = make_paper()
    for i in range(LEADERBOARD_ROWS + 5):
        make_result(leaderboard=board, paper=paper, model=f"model-{i}", metrics={"Accuracy": f"{i}.0%"})
    response = client.get(board.get_absolute_url())
    shown = [r.model for r in response.context["results"]]
    assert shown == [f"model-{i}" for i in range(LEADERBOARD_ROWS + 4, 4, -1)]  # the best, best first
    page = response.content.decode()
    assert f"{LEADERBOARD_ROWS + 5} results" in page
    assert (
        f"Results 1–{LEADERBOARD_ROWS} of {LEADERBOARD_ROWS + 5}, best first by Accuracy (page 1 of 2)"
        in (page)
    )
    assert f'<a rel="next" href="/sota/{board.slug}?page=2">' in page  # tests/web/test_leaderboard_page.py
    assert f"/api/v1/evaluations/{board.slug}/results/" in page
    assert client.get(f"/api/v1/evaluations/{board.slug}/results/?items_per_page=500").json()["count"] == 105


@pytest.mark.parametrize(
    "address",
    [
        "/paper/1811.06965",
        "/paper/1811.06965v2",
        "/abs/1811.06965",
        "/abs/1811.06965v1",
        "/abs/1811.06965v1/",
    ],
)
def test_an_arxiv_id_finds_its_paper_with_or_without_version(client, db, address):
    paper = make_paper(arxiv_id="1811.06965", slug="gpipe-efficient-training")
    response = client.get(address)
    assert response.status_code == 301
    assert response["Location"] == paper.get_absolute_url()
