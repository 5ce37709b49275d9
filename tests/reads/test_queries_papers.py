"""catalogue.queries, a paper's reads, called directly (the pages' own tests go through the client):
a paper or repository by its address, /papers/ (filters, sorts, cursors both ways) and a paper's
page (its places, figures, code links and results).

Each read is given rows built with the factories and checked for what it returns: which rows,
in which order, with what figures, and for lists, how keyset cursors walk them both ways.
"""

import pytest
from django.http import Http404

from catalogue import figures, reads
from catalogue.models import Paper, PaperSlug, Sample, Status
from catalogue.pagination import keyset
from catalogue.reads.papers import PaperFilters, PaperSort
from tests.factories import (
    make_body,
    make_code_link,
    make_dataset,
    make_entry,
    make_leaderboard,
    make_method,
    make_paper,
    make_repo,
    make_result,
    make_sample,
    make_task,
)
from tests.reads.walk import pks, walk_forward

pytestmark = pytest.mark.django_db


# --- addresses ----------------------------------------------------------------------------------


def test_paper_by_address_finds_current_old_and_arxiv_addresses():
    paper = make_paper(arxiv_id="1811.06965", slug="gpipe")
    PaperSlug.objects.create(slug="gpipe-old-title", paper=paper, last_stamp="s")
    assert reads.papers.paper_by_address("gpipe") == (paper, True)
    assert reads.papers.paper_by_address("gpipe-old-title") == (paper, False)
    assert reads.papers.paper_by_address("arxiv-1811-06965") == (paper, False)
    # the bare arXiv id too (issue 13: /paper/<arXiv id> redirects), with or without version
    assert reads.papers.paper_by_address("1811.06965") == (paper, False)
    assert reads.papers.paper_by_address("1811.06965v3") == (paper, False)
    for address in ("no-such-paper", "arxiv-1811-06966", "1811.06966"):
        with pytest.raises(Http404):
            reads.papers.paper_by_address(address)


def test_the_paper_at_its_address_comes_with_its_author_names_and_whether_it_was_ever_corrected(
    django_assert_num_queries,
):
    from django.contrib.auth import get_user_model

    from catalogue import curation
    from catalogue.models import Correction

    curator = get_user_model().objects.create(username="curator")
    plain, titled, placed, withdrawn = (make_paper() for _ in range(4))
    for position, name in ((2, "Third"), (0, "First"), (1, "Ünïcode, Second")):
        plain.authors.create(position=position, name=name)
    make_sample(paper=plain)
    curation.correct_title(titled, "Better", user=curator, expected_version=None)
    curation.correct_status(make_sample(paper=placed), "ran", user=curator, reason="r", expected_version=None)
    removed = curation.correct_status(
        make_sample(paper=withdrawn), "ran", user=curator, reason="r", expected_version=None
    )
    curation.remove_correction(removed, user=curator)
    other = make_sample(paper=make_paper())  # another paper's place, corrected: not these papers'
    curation.correct_status(other, "ran", user=curator, reason="r", expected_version=None)
    expected = {plain: False, titled: True, placed: True, withdrawn: True}  # removed ones count
    for paper, corrected in expected.items():
        with django_assert_num_queries(1):
            found, current = reads.papers.paper_by_address(paper.slug)
        assert (found, current) == (paper, True)
        assert found.has_corrections is corrected is Correction.objects.of_paper(paper).exists()
        paper.refresh_from_db()
        assert (found.title, found.month, found.date) == (paper.title, paper.month, paper.date)
    assert reads.papers.paper_by_address(plain.slug)[0].author_names == ["First", "Ünïcode, Second", "Third"]
    assert reads.papers.paper_by_address(titled.slug)[0].author_names == []


def test_repo_by_address_is_case_insensitive_and_on_github_unless_told():
    github = make_repo(owner="KakaoBrain", name="torchgpipe")
    gitlab = make_repo(host="gitlab.com", owner="Group", name="Proj", key="gitlab.com/group/proj")
    assert reads.repositories.repo_by_address("kakaobrain", "TorchGPipe") == github
    assert reads.repositories.repo_by_address("group", "proj", host="GitLab.com") == gitlab
    with pytest.raises(Http404):
        reads.repositories.repo_by_address("Group", "Proj")  # on github.com: no such repository


# --- /papers/: filters, sorts and cursors -------------------------------------------------------


@pytest.fixture
def tagged_papers():
    """Papers that each pass one filter of /papers/ (and a plain one that passes none)."""
    task, method = make_task(slug="t"), make_method(slug="me")
    papers = {
        "tagged": make_paper(arxiv_id="2001.00001"),
        "using": make_paper(arxiv_id="2001.00002"),
        "official": make_paper(arxiv_id="2101.00001"),
        "unofficial": make_paper(arxiv_id="2101.00002"),
        "ran": make_paper(arxiv_id="2201.00001"),
        "unverified": make_paper(arxiv_id="2301.00001"),
        "plain": make_paper(arxiv_id=None, month=""),
    }
    papers["tagged"].tasks.add(task)
    papers["using"].methods.add(method)
    papers["plain"].methods_introduced.add(method)  # introduced is not "using"
    make_code_link(paper=papers["official"], is_official=True)
    make_code_link(paper=papers["unofficial"])  # is_official NULL
    make_sample(paper=papers["ran"], status=Status.RAN)
    make_sample(paper=papers["unverified"])
    return papers


def shown(filters: PaperFilters, sort=PaperSort.DATE) -> set[int]:
    return {p.pk for p in reads.papers.papers_page(filters, sort).items}


def test_papers_page_filters(tagged_papers):
    p = {name: paper.pk for name, paper in tagged_papers.items()}
    assert shown(PaperFilters()) == set(p.values())
    assert shown(PaperFilters(task="t")) == {p["tagged"]}
    assert shown(PaperFilters(task="no-such-task")) == set()  # an unknown task is no papers, not all
    assert shown(PaperFilters(method="me")) == {p["using"]}
    assert shown(PaperFilters(method="no-such-method")) == set()
    assert shown(PaperFilters(year=2021)) == {p["official"], p["unofficial"]}
    assert shown(PaperFilters(year=1999)) == set()
    assert shown(PaperFilters(has_code=True)) == {p["official"], p["unofficial"], p["ran"], p["unverified"]}
    assert shown(PaperFilters(has_official_code=True)) == {p["official"]}
    assert shown(PaperFilters(has_ran_samples=True)) == {p["ran"]}
    assert shown(PaperFilters(year=2021, has_official_code=True)) == {p["official"]}
    assert shown(PaperFilters(year=2022, has_official_code=True)) == set()


def test_papers_page_rows_carry_what_a_list_row_shows():
    paper = make_paper()
    for position, name in ((2, "Third"), (0, "First"), (1, "Second")):
        paper.authors.create(position=position, name=name)
    make_code_link(paper=paper, is_official=False)
    make_code_link(paper=paper, is_official=True)
    make_sample(paper=paper, status=Status.RAN)
    make_sample(paper=paper)
    bare = make_paper()
    rows = {row.pk: row for row in reads.papers.papers_page(PaperFilters()).items}
    row = rows[paper.pk]
    assert [a.name for a in row.authors.all()] == ["First", "Second", "Third"]
    assert (row.n_code_links, row.has_official_code) == (2, True)
    assert row.figures == figures.paper_figures(paper).samples
    assert (row.figures.n_places, row.figures.n_samples_ran) == (2, 1)
    assert (rows[bare.pk].n_code_links, rows[bare.pk].has_official_code) == (0, False)
    assert rows[bare.pk].figures.n_places == 0


def test_papers_page_sorts_by_date_title_or_samples_with_a_tie_break():
    older, newer, same_month, undated = (
        make_paper(arxiv_id="1901.00001", title="b"),
        make_paper(arxiv_id="2301.00001", title="a", slug="z-a"),
        make_paper(arxiv_id="2301.00002", title="a", slug="a-a"),
        make_paper(arxiv_id=None, month="", title="c"),
    )
    for _ in range(2):
        make_sample(paper=older)
    make_sample(paper=undated)

    def order(sort):
        return pks(reads.papers.papers_page(PaperFilters(), sort).items)

    # newest month first, then the higher id; no month at all comes last
    assert order(PaperSort.DATE) == pks([same_month, newer, older, undated])
    assert order(PaperSort.TITLE) == pks([same_month, newer, older, undated])  # title, then slug
    assert order(PaperSort.SAMPLES) == pks([older, undated, same_month, newer])  # then the higher id
    assert order("stars") == order(PaperSort.DATE)  # an unknown sort is the default


@pytest.mark.parametrize("sort", PaperSort.values)
def test_papers_page_cursors_walk_every_paper_once_and_come_back(sort):
    # Thirty papers in three months with three titles: every order has ties to break.
    for i in range(30):
        paper = make_paper(arxiv_id=f"230{i % 3 + 1}.{i:05d}", title=f"title {i % 3}")
        for _ in range(i % 4):
            make_sample(paper=paper)
        Paper.objects.filter(pk=paper.pk).update(n_code_links=i % 5)  # the stored count "most code" reads
    everything = list(reads.papers.filtered_papers(PaperFilters()))
    expected = sorted(
        everything,
        key={
            PaperSort.DATE: lambda p: (p.month, p.pk),
            PaperSort.TITLE: lambda p: (p.title, p.slug),
            PaperSort.SAMPLES: lambda p: (p.n_samples, p.pk),
            PaperSort.ADDED: lambda p: p.pk,
            PaperSort.CODE: lambda p: (p.n_code_links, p.pk),
        }[sort],
        reverse=sort != PaperSort.TITLE,
    )

    def read(**cursor):
        return reads.papers.papers_page(PaperFilters(), sort, **cursor)

    assert pks(walk_forward(read)) == pks(expected)
    first = read()
    assert (len(first.items), first.prev_cursor) == (keyset.PAGE_SIZE, None)
    second = read(after=first.next_cursor)
    assert pks(second.items) == pks(expected[keyset.PAGE_SIZE :])
    assert second.next_cursor is None
    back = read(before=second.prev_cursor)
    assert pks(back.items) == pks(first.items)
    assert back.prev_cursor is None
    assert back.next_cursor is not None


def test_a_cursor_that_is_not_one_of_this_order_gives_page_one():
    for i in range(keyset.PAGE_SIZE + 1):
        make_paper(title=f"paper {i}")
    first = reads.papers.papers_page(PaperFilters(), PaperSort.DATE)
    title_cursor = reads.papers.papers_page(PaperFilters(), PaperSort.TITLE).next_cursor
    for cursor in ("garbage", title_cursor, first.next_cursor[:-3], keyset.encode_cursor(["2024-01", "1"])):
        page = reads.papers.papers_page(PaperFilters(), PaperSort.DATE, after=cursor)
        assert pks(page.items) == pks(first.items), cursor
        assert page.prev_cursor is None


def test_task_and_method_papers_pages_list_their_papers_newest_first():
    task, method = make_task(), make_method()
    old, new, other = make_paper(arxiv_id="1901.00001"), make_paper(arxiv_id="2201.00001"), make_paper()
    for paper in (old, new):
        paper.tasks.add(task)
        paper.methods.add(method)
    other.methods_introduced.add(method)
    assert pks(reads.taxonomy.task_papers_page(task).items) == pks([new, old])
    assert pks(reads.taxonomy.method_papers_page(method).items) == pks([new, old])
    assert reads.taxonomy.task_papers_page(task).items[0].figures.n_places == 0  # rows carry their figures


# --- a paper's page --------------------------------------------------------------------------


def test_paper_page_groups_places_by_repository_with_no_repository_last():
    paper = make_paper()
    a, b = make_repo(owner="a", name="r"), make_repo(owner="b", name="r")
    beta, alpha = make_entry(name="beta"), make_entry(name="alpha")
    low, high = make_body(sha256_prefix="00000000000000aa"), make_body(sha256_prefix="00000000000000ff")
    in_b = [
        make_sample(paper=paper, repo=b, entry=beta, body=low),
        make_sample(paper=paper, repo=b, entry=alpha, body=high),
        make_sample(paper=paper, repo=b, entry=alpha, body=low),
    ]
    in_a = make_sample(paper=paper, repo=a, entry=beta, body=high)
    nowhere = make_sample(paper=paper, repo=None)
    make_sample(repo=a)  # another paper's place
    page = reads.paper_page.paper_page(reads.papers.paper_by_address(paper.slug)[0])
    assert [(repo and repo.full_name, pks(samples)) for repo, samples in page.samples_by_repo] == [
        (a.full_name, [in_a.pk]),
        (b.full_name, pks([in_b[2], in_b[1], in_b[0]])),  # by entry name, then body
        (None, [nowhere.pk]),
    ]
    assert page.figures == figures.paper_figures(paper)
    assert page.figures.samples.n_places == 5


def test_paper_places_are_the_paper_s_samples_as_plain_rows(django_assert_num_queries):
    paper = make_paper()
    with_text, without_text = make_body(code="x = 1"), make_body(code="")
    pointer_elsewhere = make_body(code="y = 2")
    make_sample(body=pointer_elsewhere, inline_ok=True)  # another paper's place shows its text
    gitlab = make_repo(host="gitlab.com", spdx="MIT")
    made = [
        make_sample(paper=paper, body=with_text, repo=gitlab, repo_kind="official", status="ran"),
        make_sample(paper=paper, body=without_text, repo=None, inline_ok=True, behaviour_fingerprint=True),
        make_sample(paper=paper, body=pointer_elsewhere, inline_ok=False, licence=None, path="a/b.py"),
        make_sample(
            paper=paper, body=make_body(code="z"), inline_ok=False, contract_check="ok", metamorphic_tier="t1"
        ),
    ]
    with django_assert_num_queries(1):
        places = {place.pk: place for place in reads.paper_page.paper_places(paper)}
    assert set(places) == set(pks(made))
    for sample in Sample.objects.filter(paper=paper).with_code_links().select_related("repo", "entry"):
        place = places[sample.pk]
        assert place.code_shown is sample.code_shown, sample  # SHOWS_CODE, as the ORM states it
        assert (place.entry_name, place.entry_slug, place.body_prefix) == (
            sample.entry.name,
            sample.entry.slug,
            sample.body.sha256_prefix,
        )
        assert (place.repo and (place.repo.full_name, place.repo.host, place.repo.spdx)) == (
            sample.repo and (sample.repo.full_name, sample.repo.host, sample.repo.spdx)
        )
        for name in (
            "paper_id",
            "body_id",
            "repo_id",
            "repo_kind",
            "status",
            "status_upstream",
            "status_corrected",
            "inline_ok",
            "behaviour_fingerprint",
            "path",
            "file_url",
            "verification_level",
            "contract_check",
            "metamorphic_tier",
            "licence",
        ):
            assert getattr(place, name) == getattr(sample, name), name
            assert type(getattr(place, name)) is type(getattr(sample, name)), name  # bools, not 0 / 1
        assert figures.place_row(place) == figures.place_row(sample)
        assert place.status_correction is None
    assert [places[s.pk].code_shown for s in made] == [True, False, True, False]


def test_paper_page_counts_its_figures_from_the_places_it_shows(django_assert_num_queries):
    paper = make_paper()
    repo = make_repo()
    make_sample(paper=paper, repo=repo, repo_kind="official", status="ran")
    make_sample(paper=paper, repo=None, inline_ok=False)
    make_result(paper=paper)
    paper.tasks.add(
        make_task(name="Zeta", slug="z"), make_task(name="Alpha", slug="b"), make_task(name="Alpha", slug="a")
    )
    paper.methods_introduced.add(
        make_method(name="M", full_name="Full M"), make_method(name="N", full_name="")
    )
    paper, _ = reads.papers.paper_by_address(paper.slug)  # with its authors and whether it has corrections
    # code links, the four topic lists in one, results, places: the figures add none (they were
    # three aggregate queries), the topics one (they were four)
    with django_assert_num_queries(4):
        page = reads.paper_page.paper_page(paper)
    assert [(t.name, t.url) for t in page.topics["tasks"]] == [
        ("Alpha", "/task/a"),
        ("Alpha", "/task/b"),
        ("Zeta", "/task/z"),
    ]
    assert [(t.name, t.full_name) for t in page.topics["methods_introduced"]] == [("M", "Full M"), ("N", "")]
    assert page.topics["methods"] == page.topics["datasets_introduced"] == []
    assert page.figures == figures.paper_figures(paper)
    assert page.figures.by_repo_kind == {
        "unknown": {"samples": 1, "ran": 0, "repositories": 0},
        "official": {"samples": 1, "ran": 1, "repositories": 1},
    }


def test_paper_page_lists_code_links_official_first_and_results_by_task_dataset_model():
    paper = make_paper()
    for position, name in ((1, "Second"), (0, "First")):
        paper.authors.create(position=position, name=name)
    paper.tasks.add(make_task(name="Zoology"), make_task(name="Anatomy"))
    links = {
        "official": make_code_link(paper=paper, repo=make_repo(owner="z", name="z"), is_official=True),
        "unofficial": make_code_link(paper=paper, repo=make_repo(owner="a", name="a"), is_official=False),
        "mentioned": make_code_link(
            paper=paper, repo=make_repo(owner="c", name="c"), mentioned_in_paper=True
        ),
        "unstated": make_code_link(paper=paper, repo=make_repo(owner="b", name="b")),
    }
    task_a, task_b = make_task(name="A task"), make_task(name="B task")
    dataset_x, dataset_y = make_dataset(name="X"), make_dataset(name="Y")
    b_x = make_result(paper=paper, leaderboard=make_leaderboard(task=task_b, dataset=dataset_x), model="m")
    a_y = make_result(paper=paper, leaderboard=make_leaderboard(task=task_a, dataset=dataset_y), model="m")
    board_a_x = make_leaderboard(task=task_a, dataset=dataset_x)
    a_x_2 = make_result(paper=paper, leaderboard=board_a_x, model="model 2")
    a_x_1 = make_result(paper=paper, leaderboard=board_a_x, model="model 1")
    make_result(leaderboard=board_a_x)  # another paper's
    page = reads.paper_page.paper_page(reads.papers.paper_by_address(paper.slug)[0])
    assert page.paper.author_names == ["First", "Second"]
    assert [t.name for t in page.topics["tasks"]] == ["Anatomy", "Zoology"]
    # official, then not official, then not stated (mentioned in the paper first)
    assert pks(page.code_links) == pks(
        [links[k] for k in ("official", "unofficial", "mentioned", "unstated")]
    )
    assert [(link.repo.full_name, link.is_official, link.mentioned_in_paper) for link in page.code_links] == [
        ("z/z", True, None),
        ("a/a", False, None),
        ("c/c", None, True),
        ("b/b", None, None),
    ]
    assert pks(page.results) == pks([a_x_1, a_x_2, a_y, b_x])
    first = page.results[0]
    assert (first.task_name, first.dataset_name, first.model, first.url) == (
        "A task",
        "X",
        "model 1",
        board_a_x.get_absolute_url(),
    )
    assert first.metrics == a_x_1.metrics
    assert page.samples_by_repo == []
