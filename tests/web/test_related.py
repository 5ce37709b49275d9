"""Issue 37's related papers: a shared code body, then a repository, then a leaderboard, each
with its reason, at most ten, on the paper page and in the API, in one query whatever the paper."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import reads
from tests.factories import (
    make_body,
    make_code_link,
    make_entry,
    make_leaderboard,
    make_paper,
    make_repo,
    make_result,
    make_sample,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


@pytest.fixture
def paper():
    """A paper with a body, a repository and a board, and one paper related by each, one by all."""
    paper = make_paper(title="Centre")
    body, repo, board = make_body(), make_repo(owner="shared", name="repo"), make_leaderboard()
    make_sample(paper=paper, body=body, entry=make_entry())
    make_code_link(paper=paper, repo=repo)
    make_result(paper=paper, leaderboard=board)
    by_body = make_paper(title="By body", slug="by-body")
    make_sample(paper=by_body, body=body, entry=make_entry())
    by_repo = make_paper(title="By repo", slug="by-repo")
    make_code_link(paper=by_repo, repo=repo)
    by_board = make_paper(title="By board", slug="by-board")
    make_result(paper=by_board, leaderboard=board)
    by_all = make_paper(title="By all", slug="by-all")
    make_sample(paper=by_all, body=body, entry=make_entry())
    make_code_link(paper=by_all, repo=repo)
    make_result(paper=by_all, leaderboard=board)
    make_paper(title="Unrelated")
    return paper


def test_related_papers_come_by_code_body_then_repository_then_leaderboard(paper):
    found = reads.related.related_papers(paper)
    assert [(r.slug, r.reason) for r in found] == [
        ("by-all", "code_body"),  # once, by its strongest reason
        ("by-body", "code_body"),
        ("by-repo", "repository"),
        ("by-board", "leaderboard"),
    ]
    assert found[0].words == "shares a code body"
    assert found[2].words == "links the same repository"
    assert found[2].example_label == "shared/repo"
    assert found[2].example_url == "/repo/shared/repo"
    assert found[3].words == "has a result on the same leaderboard"


def test_the_paper_page_shows_each_related_paper_with_its_reason(client, paper):
    page = client.get(paper.get_absolute_url()).content.decode()
    section = page.split('<h2 id="related">')[1].split("</section>")[0]
    assert (
        section.index("By all")
        < section.index("By body")
        < section.index("By repo")
        < section.index("By board")
    )
    assert "Unrelated" not in section
    assert 'links the same repository, e.g. <a href="/repo/shared/repo">shared/repo</a>' in section


def test_the_api_lists_them_with_their_reasons(client, paper):
    response = client.get(f"/api/v1/papers/{paper.slug}/related/")
    assert response.status_code == 200
    data = response.json()
    assert data["paper"] == paper.slug
    assert [(r["id"], r["reason"], r["n_shared"]) for r in data["results"]] == [
        ("by-all", "code_body", 1),
        ("by-body", "code_body", 1),
        ("by-repo", "repository", 1),
        ("by-board", "leaderboard", 1),
    ]
    assert data["results"][0]["url"] == "http://testserver/paper/by-all"
    assert client.get(f"/api/v1/papers/{paper.slug}/related/?x=1").status_code == 400
    assert client.get("/api/v1/papers/no-such-paper/related/").status_code == 404


def test_at_most_ten_strongest_first():
    paper = make_paper()
    board = make_leaderboard()
    make_result(paper=paper, leaderboard=board)
    for i in range(15):
        other = make_paper(slug=f"other-{i:02d}")
        make_result(paper=other, leaderboard=board)
        if i >= 12:  # three of them share a second board: they come first
            second = make_leaderboard()
            make_result(paper=paper, leaderboard=second)
            make_result(paper=other, leaderboard=second)
    found = reads.related.related_papers(paper)
    assert len(found) == reads.related.LIMIT
    assert [r.slug for r in found[:3]] == ["other-12", "other-13", "other-14"]
    assert [r.n_shared for r in found[:4]] == [2, 2, 2, 1]


def _count(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_related_papers_read_one_query_for_1_related_and_for_50(client):
    paper = make_paper()
    body, repo, board = make_body(), make_repo(), make_leaderboard()
    make_sample(paper=paper, body=body, entry=make_entry())
    make_code_link(paper=paper, repo=repo)
    make_result(paper=paper, leaderboard=board)
    make_result(paper=make_paper(), leaderboard=board)
    with CaptureQueriesContext(connection) as one:
        assert len(reads.related.related_papers(paper)) == 1
    urls = [paper.get_absolute_url(), f"/api/v1/papers/{paper.slug}/related/"]
    before = [_count(client, url) for url in urls]
    for i in range(49):
        other = make_paper()
        if i % 3 == 0:
            make_sample(paper=other, body=body, entry=make_entry())
        elif i % 3 == 1:
            make_code_link(paper=other, repo=repo)
        else:
            make_result(paper=other, leaderboard=board)
    with CaptureQueriesContext(connection) as fifty:
        assert len(reads.related.related_papers(paper)) == reads.related.LIMIT
    assert len(one.captured_queries) == len(fifty.captured_queries) == 1
    assert [_count(client, url) for url in urls] == before


def test_a_shared_repository_off_github_links_to_its_own_address():
    from catalogue.addresses import repo_path

    repo = make_repo(host="gitlab.com", owner="Team", name="tool.v2", key="gitlab.com/team/tool.v2")
    one, other = make_paper(title="One", slug="one"), make_paper(title="Other", slug="other")
    make_code_link(paper=one, repo=repo)
    make_code_link(paper=other, repo=repo)
    [found] = reads.related.related_papers(one)
    assert found.example_url == repo_path(repo) == "/repo/Team/tool.v2?host=gitlab.com"
