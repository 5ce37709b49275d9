"""catalogue.queries, code's reads: /code/ (entries sorted, searched, walked by cursor), an entry's
places, any set of places, and /repo/'s papers linking a repository."""

import pytest

from catalogue import figures, reads
from catalogue.models import Status
from catalogue.pagination import keyset
from catalogue.reads.code import EntrySort
from tests.factories import (
    make_body,
    make_code_link,
    make_entry,
    make_paper,
    make_repo,
    make_sample,
    reindex_search,
)
from tests.reads.walk import pks, walk_forward

pytestmark = pytest.mark.django_db


# --- /code/: entries and their places ------------------------------------------------------


def test_code_entries_page_sorts_by_places_papers_ran_and_name():
    busy, spread, lonely = make_entry(name="busy"), make_entry(name="spread"), make_entry(name="a_lonely")
    paper = make_paper()
    for _ in range(3):
        make_sample(entry=busy, paper=paper)
    make_sample(entry=spread, status=Status.RAN)
    make_sample(entry=spread, status=Status.RAN_HONOURS)

    def order(sort):
        page, entry_figures = reads.code.code_entries_page(sort=sort)
        assert entry_figures == figures.code_entry_figures_for(page.items)
        return [e.name for e in page.items]

    assert order(EntrySort.PLACES) == ["busy", "spread", "a_lonely"]
    assert order(EntrySort.PAPERS) == ["spread", "busy", "a_lonely"]
    assert order(EntrySort.RAN) == ["spread", "busy", "a_lonely"]  # busy and lonely tie at 0: by id
    assert order(EntrySort.NAME) == ["a_lonely", "busy", "spread"]
    assert order("stars") == order(EntrySort.PLACES)
    _, entry_figures = reads.code.code_entries_page(sort=EntrySort.PLACES)
    assert (entry_figures[busy.pk].n_places, entry_figures[busy.pk].n_papers) == (3, 1)
    assert (entry_figures[spread.pk].n_samples_ran, entry_figures[lonely.pk].n_places) == (2, 0)


def test_code_entries_page_searches_names_and_a_query_without_words_lists_all():
    zebra, other = make_entry(name="zebra_count"), make_entry(name="lion_count")
    reindex_search()
    page, entry_figures = reads.code.code_entries_page("zebra")
    assert pks(page.items) == [zebra.pk]
    assert set(entry_figures) == {zebra.pk}
    assert reads.code.code_entries_page("giraffe")[0].items == []
    assert set(pks(reads.code.code_entries_page("!!!")[0].items)) == {zebra.pk, other.pk}


def test_code_entries_page_cursors_walk_every_entry_once():
    for i in range(keyset.PAGE_SIZE + 5):
        entry = make_entry(name=f"routine_{i:02d}")
        for _ in range(i % 3):
            make_sample(entry=entry)

    def read(**cursor):
        return reads.code.code_entries_page(sort=EntrySort.PLACES, **cursor)[0]

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
    page = reads.code.entry_places(entry)
    assert pks(page.items) == pks(newest_first[: keyset.PAGE_SIZE])
    assert pks(reads.code.entry_places(entry, after=page.next_cursor).items) == pks(
        newest_first[keyset.PAGE_SIZE :]
    )
    ran = reads.code.entry_places(entry, Status.RAN)
    assert pks(ran.items) == pks(s for s in newest_first if s.status == Status.RAN)
    assert ran.next_cursor is None
    assert pks(reads.code.entry_places(entry, "bogus").items) == pks(page.items)
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
    page = reads.code.places_page(body.samples.all())
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
    page = reads.repositories.repo_links_page(repo)
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
        return reads.repositories.repo_links_page(repo, **cursor)

    rows = walk_forward(read)
    assert pks(rows) == pks(sorted(rows, key=lambda link: (link.paper_month, link.pk), reverse=True))
    assert len({link.pk for link in rows}) == keyset.PAGE_SIZE + 3
    second = read(after=read().next_cursor)
    assert pks(read(before=second.prev_cursor).items) == pks(rows[: keyset.PAGE_SIZE])
