"""catalogue.queries: the public pages' reads, called directly (the pages' own tests go through the client).

Each read is given rows built with the factories and checked for what it returns: which rows,
in which order, with what figures, and for lists, how keyset cursors walk them both ways.
"""

import pytest
from django.http import Http404

from catalogue import counters, figures, queries
from catalogue.browse import queries as browse_queries
from catalogue.models import Paper, PaperSlug, Sample, Status
from catalogue.pagination import keyset
from catalogue.queries import EntrySort, PaperFilters, PaperSort, SearchFilters
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
    reindex_search,
)

pytestmark = pytest.mark.django_db


def pks(rows) -> list[int]:
    return [row.pk for row in rows]


def walk_forward(read, **kwargs) -> list:
    """Every row of a keyset list, following next_cursor from page 1."""
    rows, page = [], read(**kwargs)
    while True:
        rows += page.items
        if not page.next_cursor:
            return rows
        page = read(**kwargs, after=page.next_cursor)


# --- addresses ----------------------------------------------------------------------------------


def test_paper_by_address_finds_current_old_and_arxiv_addresses():
    paper = make_paper(arxiv_id="1811.06965", slug="gpipe")
    PaperSlug.objects.create(slug="gpipe-old-title", paper=paper, last_stamp="s")
    assert queries.paper_by_address("gpipe") == (paper, True)
    assert queries.paper_by_address("gpipe-old-title") == (paper, False)
    assert queries.paper_by_address("arxiv-1811-06965") == (paper, False)
    # the bare arXiv id too (issue 13: /paper/<arXiv id> redirects), with or without version
    assert queries.paper_by_address("1811.06965") == (paper, False)
    assert queries.paper_by_address("1811.06965v3") == (paper, False)
    for address in ("no-such-paper", "arxiv-1811-06966", "1811.06966"):
        with pytest.raises(Http404):
            queries.paper_by_address(address)


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
            found, current = queries.paper_by_address(paper.slug)
        assert (found, current) == (paper, True)
        assert found.has_corrections is corrected is Correction.objects.of_paper(paper).exists()
        paper.refresh_from_db()
        assert (found.title, found.month, found.date) == (paper.title, paper.month, paper.date)
    assert queries.paper_by_address(plain.slug)[0].author_names == ["First", "Ünïcode, Second", "Third"]
    assert queries.paper_by_address(titled.slug)[0].author_names == []


def test_repo_by_address_is_case_insensitive_and_on_github_unless_told():
    github = make_repo(owner="KakaoBrain", name="torchgpipe")
    gitlab = make_repo(host="gitlab.com", owner="Group", name="Proj", key="gitlab.com/group/proj")
    assert queries.repo_by_address("kakaobrain", "TorchGPipe") == github
    assert queries.repo_by_address("group", "proj", host="GitLab.com") == gitlab
    with pytest.raises(Http404):
        queries.repo_by_address("Group", "Proj")  # on github.com: no such repository


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
    return {p.pk for p in queries.papers_page(filters, sort).items}


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
    rows = {row.pk: row for row in queries.papers_page(PaperFilters()).items}
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
        return pks(queries.papers_page(PaperFilters(), sort).items)

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
    everything = list(queries.filtered_papers(PaperFilters()))
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
        return queries.papers_page(PaperFilters(), sort, **cursor)

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
    first = queries.papers_page(PaperFilters(), PaperSort.DATE)
    title_cursor = queries.papers_page(PaperFilters(), PaperSort.TITLE).next_cursor
    for cursor in ("garbage", title_cursor, first.next_cursor[:-3], keyset.encode_cursor(["2024-01", "1"])):
        page = queries.papers_page(PaperFilters(), PaperSort.DATE, after=cursor)
        assert pks(page.items) == pks(first.items), cursor
        assert page.prev_cursor is None


def test_task_and_method_papers_pages_list_their_papers_newest_first():
    task, method = make_task(), make_method()
    old, new, other = make_paper(arxiv_id="1901.00001"), make_paper(arxiv_id="2201.00001"), make_paper()
    for paper in (old, new):
        paper.tasks.add(task)
        paper.methods.add(method)
    other.methods_introduced.add(method)
    assert pks(queries.task_papers_page(task).items) == pks([new, old])
    assert pks(queries.method_papers_page(method).items) == pks([new, old])
    assert queries.task_papers_page(task).items[0].figures.n_places == 0  # rows carry their figures


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
    page = queries.paper_page(queries.paper_by_address(paper.slug)[0])
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
        places = {place.pk: place for place in queries.paper_places(paper)}
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
    paper, _ = queries.paper_by_address(paper.slug)  # with its authors and whether it has corrections
    # code links, the four topic lists in one, results, places: the figures add none (they were
    # three aggregate queries), the topics one (they were four)
    with django_assert_num_queries(4):
        page = queries.paper_page(paper)
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
    page = queries.paper_page(queries.paper_by_address(paper.slug)[0])
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


# --- /code/: entries and their places ------------------------------------------------------


def test_code_entries_page_sorts_by_places_papers_ran_and_name():
    busy, spread, lonely = make_entry(name="busy"), make_entry(name="spread"), make_entry(name="a_lonely")
    paper = make_paper()
    for _ in range(3):
        make_sample(entry=busy, paper=paper)
    make_sample(entry=spread, status=Status.RAN)
    make_sample(entry=spread, status=Status.RAN_HONOURS)

    def order(sort):
        page, entry_figures = queries.code_entries_page(sort=sort)
        assert entry_figures == figures.code_entry_figures_for(page.items)
        return [e.name for e in page.items]

    assert order(EntrySort.PLACES) == ["busy", "spread", "a_lonely"]
    assert order(EntrySort.PAPERS) == ["spread", "busy", "a_lonely"]
    assert order(EntrySort.RAN) == ["spread", "busy", "a_lonely"]  # busy and lonely tie at 0: by id
    assert order(EntrySort.NAME) == ["a_lonely", "busy", "spread"]
    assert order("stars") == order(EntrySort.PLACES)
    _, entry_figures = queries.code_entries_page(sort=EntrySort.PLACES)
    assert (entry_figures[busy.pk].n_places, entry_figures[busy.pk].n_papers) == (3, 1)
    assert (entry_figures[spread.pk].n_samples_ran, entry_figures[lonely.pk].n_places) == (2, 0)


def test_code_entries_page_searches_names_and_a_query_without_words_lists_all():
    zebra, other = make_entry(name="zebra_count"), make_entry(name="lion_count")
    reindex_search()
    page, entry_figures = queries.code_entries_page("zebra")
    assert pks(page.items) == [zebra.pk]
    assert set(entry_figures) == {zebra.pk}
    assert queries.code_entries_page("giraffe")[0].items == []
    assert set(pks(queries.code_entries_page("!!!")[0].items)) == {zebra.pk, other.pk}


def test_code_entries_page_cursors_walk_every_entry_once():
    for i in range(keyset.PAGE_SIZE + 5):
        entry = make_entry(name=f"routine_{i:02d}")
        for _ in range(i % 3):
            make_sample(entry=entry)

    def read(**cursor):
        return queries.code_entries_page(sort=EntrySort.PLACES, **cursor)[0]

    rows = walk_forward(read)
    assert len(rows) == len({e.pk for e in rows}) == keyset.PAGE_SIZE + 5
    assert [(e.n_places, e.pk) for e in rows] == sorted(
        ((e.n_places, e.pk) for e in rows), key=lambda k: (-k[0], k[1])
    )
    second = read(after=read().next_cursor)
    assert pks(read(before=second.prev_cursor).items) == pks(rows[: keyset.PAGE_SIZE])


def test_entry_places_are_newest_first_by_status_and_a_bad_status_is_every_place(django_assert_num_queries):
    entry = make_entry()
    places = [
        make_sample(entry=entry, status=Status.RAN if i % 3 == 0 else Status.UNVERIFIED) for i in range(30)
    ]
    make_sample()  # another entry's place
    newest_first = sorted(places, key=lambda s: -s.pk)
    page = queries.entry_places(entry)
    assert pks(page.items) == pks(newest_first[: keyset.PAGE_SIZE])
    assert pks(queries.entry_places(entry, after=page.next_cursor).items) == pks(
        newest_first[keyset.PAGE_SIZE :]
    )
    ran = queries.entry_places(entry, Status.RAN)
    assert pks(ran.items) == pks(s for s in newest_first if s.status == Status.RAN)
    assert ran.next_cursor is None
    assert pks(queries.entry_places(entry, "bogus").items) == pks(page.items)
    with django_assert_num_queries(0):  # each place comes with its paper, repository, entry and body
        shown = [(p.pk, p.paper.slug, p.repo, p.entry.name, p.body.sha256_prefix) for p in page.items]
    assert shown == [
        (s.pk, s.paper.slug, None, s.entry.name, s.body.sha256_prefix)
        for s in newest_first[: keyset.PAGE_SIZE]
    ]


def test_places_page_pages_any_set_of_places():
    body = make_body()
    of_body = [make_sample(body=body) for _ in range(3)]
    make_sample()
    page = queries.places_page(body.samples.all())
    assert pks(page.items) == pks(reversed(of_body))
    assert (page.next_cursor, page.prev_cursor) == (None, None)


# --- /repo/: the papers linking it ---------------------------------------------------------------


def test_repo_links_page_is_the_links_to_it_newest_paper_first():
    repo = make_repo()
    links = {
        month: make_code_link(repo=repo, paper=make_paper(arxiv_id=None, month=month))
        for month in ("2019-01", "2021-06", "2020-03", "")
    }
    same_month = make_code_link(repo=repo, paper=make_paper(arxiv_id=None, month="2020-03"))
    make_code_link()  # another repository's link
    page = queries.repo_links_page(repo)
    assert pks(page.items) == pks(
        [links["2021-06"], same_month, links["2020-03"], links["2019-01"], links[""]]  # then the higher id
    )
    assert [link.paper_month for link in page.items] == ["2021-06", "2020-03", "2020-03", "2019-01", ""]
    assert page.next_cursor is None


def test_repo_links_page_cursors_go_both_ways():
    repo = make_repo()
    for i in range(keyset.PAGE_SIZE + 3):
        make_code_link(repo=repo, paper=make_paper(arxiv_id=f"2{i % 5}01.{i:05d}"))

    def read(**cursor):
        return queries.repo_links_page(repo, **cursor)

    rows = walk_forward(read)
    assert pks(rows) == pks(sorted(rows, key=lambda link: (link.paper_month, link.pk), reverse=True))
    assert len({link.pk for link in rows}) == keyset.PAGE_SIZE + 3
    second = read(after=read().next_cursor)
    assert pks(read(before=second.prev_cursor).items) == pks(rows[: keyset.PAGE_SIZE])


# --- /sota/: a leaderboard ------------------------------------------------------------------


def test_leaderboard_page_ranks_by_the_metric_most_results_state():
    board = make_leaderboard()
    a = make_result(leaderboard=board, model="a", metrics={"Accuracy": "80.5", "Params": "10M"})
    b = make_result(leaderboard=board, model="b", metrics={"Accuracy": "90%", "Params": "20M"})
    c = make_result(leaderboard=board, model="c", metrics={"Accuracy": "N/A"})
    page = queries.leaderboard_page(board)
    assert page.metric == "Accuracy"
    assert page.metric_names == ["Accuracy", "Params"]
    assert pks(page.results) == pks([b, a, c])  # best first, what does not parse last
    assert page.lower_is_better is False


def test_leaderboard_page_ranks_by_an_asked_metric_only_if_a_result_states_it():
    board = make_leaderboard()
    # Params is a cost, fewer first: b's 10M ranks it first when the board is ranked by Params.
    a = make_result(leaderboard=board, model="a", metrics={"Accuracy": "90", "Params": "20M"})
    b = make_result(leaderboard=board, model="b", metrics={"Accuracy": "80", "Params": "10M"})
    by_params = queries.leaderboard_page(board, "Params")
    assert (by_params.metric, by_params.metric_names) == ("Params", ["Params", "Accuracy"])
    assert pks(by_params.results) == pks([b, a])
    unknown = queries.leaderboard_page(board, "Stars")
    assert (unknown.metric, pks(unknown.results)) == ("Accuracy", pks([a, b]))


def test_leaderboard_page_ranks_errors_lower_first():
    board = make_leaderboard()
    rows = [
        make_result(leaderboard=board, model=f"m{i}", metrics={"Top-1 Error Rate": v})
        for i, v in enumerate(["5.0", "1.5", "3"])
    ]
    page = queries.leaderboard_page(board)
    assert page.lower_is_better is True
    assert pks(page.results) == pks([rows[1], rows[2], rows[0]])


def test_leaderboard_page_ties_in_the_primary_metric_go_to_the_first_name():
    board = make_leaderboard()
    make_result(leaderboard=board, metrics={"Recall": "1"})
    make_result(leaderboard=board, metrics={"Precision": "1"})
    assert queries.leaderboard_page(board).metric == "Precision"


def test_leaderboard_page_over_time_points_are_the_results_with_a_value_and_a_month():
    board = make_leaderboard()
    dated = make_paper(arxiv_id=None, month="2019-07", title="Dated")
    untitled = make_paper(arxiv_id=None, month="2020-01", title="", slug="untitled-paper")
    undated = make_paper(arxiv_id=None, month="")
    make_result(leaderboard=board, paper=dated, model="a", metrics={"Accuracy": "70%"})
    make_result(leaderboard=board, paper=untitled, model="b", metrics={"Accuracy": "75"})
    make_result(leaderboard=board, paper=undated, model="c", metrics={"Accuracy": "99"})  # no month
    make_result(leaderboard=board, paper=dated, model="d", metrics={"Accuracy": "-"})  # no value
    points = queries.leaderboard_page(board).over_time
    assert [(p.x, p.y, p.label) for p in points] == [
        (2020.0, 75.0, "b (untitled-paper)"),
        (2019.5, 70.0, "a (Dated)"),
    ]


def test_leaderboard_page_without_metrics_keeps_the_archive_order():
    board = make_leaderboard()
    second = make_result(leaderboard=board, metrics={}, rank_in_archive_order=2)
    unranked = make_result(leaderboard=board, metrics={}, rank_in_archive_order=None)
    first = make_result(leaderboard=board, metrics={}, rank_in_archive_order=1)
    page = queries.leaderboard_page(board, "Accuracy")
    assert (page.metric, page.metric_names, page.lower_is_better, page.over_time) == (None, [], False, [])
    assert pks(page.results) == pks([first, second, unranked])


def test_leaderboards_of_a_task_or_of_a_method_s_papers_most_results_first():
    task, method = make_task(), make_method()
    busy, quiet = make_leaderboard(task=task), make_leaderboard(task=task)
    elsewhere = make_leaderboard()
    using = make_paper()
    using.methods.add(method)
    for model in ("a", "b"):
        make_result(leaderboard=busy, model=model)
        make_result(leaderboard=elsewhere, paper=using, model=model)
    make_result(leaderboard=elsewhere, model="c")  # a paper not using the method
    make_result(leaderboard=quiet, paper=using)
    make_result(leaderboard=make_leaderboard())  # neither the task's nor the method's
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)  # as a load ends
    shown = browse_queries.boards_shown(task.leaderboards)
    assert ([(b.pk, b.n_results) for b in shown.first], shown.total) == ([(busy.pk, 2), (quiet.pk, 1)], 2)
    # a method's: most results of its papers first, beside all the board's results
    assert [(b.pk, b.n_method_results, b.n_results) for b in queries.leaderboards_of_method(method)] == [
        (elsewhere.pk, 2, 3),
        (quiet.pk, 1, 1),
    ]


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
    page = queries.search_page("zebra", SearchFilters())
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
    by_kind = queries.search_page("zebra", SearchFilters(kind="paper"))
    assert {kind for kind, _ in found(by_kind)} == {"paper"}
    assert by_kind.total == 3
    assert by_kind.facets["kind"] == [
        ("paper", "papers", 3),
        ("entry", "code entries", 1),
        ("repo", "repositories", 1),
    ]
    assert by_kind.facets["status"] == [("ran", "ran", 1), ("unverified", "unverified", 1)]

    by_year = queries.search_page("zebra", SearchFilters(year=2020))
    assert found(by_year) == {("paper", zebras["p2020"].pk)}
    assert by_year.facets["year"] == [("2021", "2021", 1), ("2020", "2020", 1)]  # its own filter left out
    assert by_year.facets["task"] == [("stripes", "Stripes", 1)]
    assert by_year.facets["kind"] == [("paper", "papers", 1)]

    by_task = queries.search_page("zebra", SearchFilters(task="herds"))
    assert found(by_task) == {("paper", zebras["p2021"].pk)}
    assert by_task.facets["task"] == [("stripes", "Stripes", 2), ("herds", "Herds", 1)]
    assert by_task.facets["official"] == []  # the herds paper's link is not official

    by_status = queries.search_page("zebra", SearchFilters(status="unverified"))
    assert found(by_status) == {("paper", zebras["p2020"].pk), ("repo", zebras["repo"].pk)}
    assert by_status.facets["status"] == queries.search_page("zebra", SearchFilters()).facets["status"]

    official = queries.search_page("zebra", SearchFilters(has_official_code=True))
    assert found(official) == {("paper", zebras["p2020"].pk)}
    # task, year and official code are a paper's: the entry and the repository drop out
    assert queries.search_page("zebra", SearchFilters(kind="entry", task="stripes")).items == []


def test_search_page_pages_its_hits_and_says_when_it_stopped_counting(monkeypatch):
    papers = [make_paper(title=f"Zebra {i}") for i in range(queries.SEARCH_PAGE_SIZE + 5)]
    reindex_search()
    first = queries.search_page("zebra", SearchFilters())
    assert (first.total, first.pages, len(first.items)) == (len(papers), 2, queries.SEARCH_PAGE_SIZE)
    last = queries.search_page("zebra", SearchFilters(), page=2)
    assert len(last.items) == 5
    assert found(first) | found(last) == {("paper", p.pk) for p in papers}
    assert found(queries.search_page("zebra", SearchFilters(), page=99)) == found(
        last
    )  # past the end: the last
    assert found(queries.search_page("zebra", SearchFilters(), page=0)) == found(first)
    monkeypatch.setattr(queries, "SEARCH_FACET_LIMIT", 10)
    capped = queries.search_page("zebra", SearchFilters())
    assert (capped.capped, capped.total, capped.facets["kind"]) == (True, 10, [("paper", "papers", 10)])


def test_search_page_without_words_finds_nothing(zebras):
    page = queries.search_page("!!!", SearchFilters())
    assert (page.items, page.total, page.pages) == ([], 0, 1)
    assert page.facets["kind"] == []


def test_a_compiled_query_runs_its_queryset_with_the_value_put_in_and_refuses_an_ambiguous_marker(db):
    from django.db import connection

    from catalogue.models import Paper

    a, b = make_paper(slug="alpha"), make_paper(slug="beta")
    by_slug = queries.CompiledQuery(
        lambda slug, alias: Paper.objects.filter(slug=slug).values_list("id"), "\x00"
    )
    for paper in (a, b):
        with connection.cursor() as cursor:
            cursor.execute(*by_slug.sql(connection.alias, paper.slug))
            assert cursor.fetchall() == [(paper.pk,)]
    twice = queries.CompiledQuery(
        lambda slug, alias: Paper.objects.filter(slug=slug).exclude(title=slug).values_list("id"), "\x00"
    )
    with pytest.raises(ValueError, match="2 times"):
        twice.sql(connection.alias, "alpha")
