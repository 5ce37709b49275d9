"""catalogue.models: each model's query vocabulary, what every word takes in and what it leaves out.

Each test builds rows on both sides of the line: those a word must select and the nearest ones
it must not (an ``is_official`` NULL is not official, a paper with no month is in no year,
unverified is not ran, ``wanted=False`` is the rest). Ids are compared as lists in id order, so
a word that joins and repeats a row fails as surely as one that selects the wrong rows.
"""

import pytest

from catalogue.models import CodeEntry, Leaderboard, Paper, Repo, Sample, Status
from tests.factories import (
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

pytestmark = pytest.mark.django_db

NOT_RAN = [s for s in Status.values if s not in Status.ran_values()]


def ids(queryset) -> list[int]:
    """The ids a query gives, in id order; a row it repeats is there twice."""
    return list(queryset.order_by("pk").values_list("pk", flat=True))


def pks(*rows) -> list[int]:
    return sorted(row.pk for row in rows)


# --- the vocabulary of statuses ---------------------------------------------------------------


def test_ran_is_every_status_but_unverified():
    assert Status.ran_values() == ["ran_honours", "ran_violates", "ran_draft_wrong", "ran_fixture", "ran"]
    assert NOT_RAN == ["unverified"]


# --- papers -----------------------------------------------------------------------------------


def test_with_code_is_a_code_link_or_a_place():
    linked, harvested, both, neither = (make_paper() for _ in range(4))
    make_code_link(paper=linked)
    make_sample(paper=harvested)
    for _ in range(2):
        make_code_link(paper=both)
        make_sample(paper=both)
    assert ids(Paper.objects.with_code()) == pks(linked, harvested, both)
    assert ids(Paper.objects.with_code(wanted=False)) == pks(neither)


def test_with_official_code_is_a_link_marked_official_and_null_is_not_official():
    official, unofficial, unstated, mixed, harvested, codeless = (make_paper() for _ in range(6))
    make_code_link(paper=official, is_official=True)
    make_code_link(paper=unofficial, is_official=False)
    make_code_link(paper=unstated)  # is_official NULL: the archive does not say
    for is_official in (True, False, True, None):
        make_code_link(paper=mixed, is_official=is_official)
    make_sample(paper=harvested)  # a place is code, not official code
    assert ids(Paper.objects.with_official_code()) == pks(official, mixed)
    assert ids(Paper.objects.with_official_code(wanted=False)) == pks(
        unofficial, unstated, harvested, codeless
    )


def test_on_task_is_the_papers_tagged_with_it_and_no_task_has_no_papers():
    task, other = make_task(), make_task()
    on, on_both, off, untagged = (make_paper() for _ in range(4))
    on.tasks.add(task)
    on_both.tasks.add(task, other)
    off.tasks.add(other)
    assert ids(Paper.objects.on_task(task.pk)) == pks(on, on_both)
    assert ids(Paper.objects.on_task(other.pk)) == pks(on_both, off)
    assert untagged.pk not in ids(Paper.objects.on_task(task.pk))
    assert ids(Paper.objects.on_task(None)) == []  # an unknown task's id


def test_using_method_is_the_papers_listing_it_not_those_that_only_introduced_it():
    method, other = make_method(), make_method()
    using, using_both, introduced_only, elsewhere, untagged = (make_paper() for _ in range(5))
    using.methods.add(method)
    using_both.methods.add(method, other)
    introduced_only.methods_introduced.add(method)
    elsewhere.methods.add(other)
    assert ids(Paper.objects.using_method(method.pk)) == pks(using, using_both)
    assert untagged.pk not in ids(Paper.objects.using_method(method.pk))
    assert ids(Paper.objects.using_method(None)) == []


@pytest.mark.parametrize("status", Status.values)
def test_with_ran_samples_is_a_place_of_any_status_but_unverified(status):
    paper, unverified, placeless = make_paper(), make_paper(), make_paper()
    make_sample(paper=paper, status=status)
    make_sample(paper=unverified, status=Status.UNVERIFIED)
    assert placeless.pk not in ids(Paper.objects.with_ran_samples())
    assert ids(Paper.objects.with_ran_samples()) == ([] if status in NOT_RAN else [paper.pk])


def test_with_ran_samples_reads_the_shown_status_and_gives_a_paper_once():
    corrected_down, corrected_up, many = make_paper(), make_paper(), make_paper()
    # A curator's correction is the status shown; the snapshot's stays beside it.
    make_sample(paper=corrected_down, status=Status.UNVERIFIED, status_upstream=Status.RAN)
    make_sample(paper=corrected_up, status=Status.RAN_HONOURS, status_upstream=Status.UNVERIFIED)
    for status in (Status.RAN, Status.RAN_FIXTURE, Status.UNVERIFIED):
        make_sample(paper=many, status=status)
    assert ids(Paper.objects.with_ran_samples()) == pks(corrected_up, many)


def test_with_status_is_a_place_of_exactly_that_status():
    honours, violates, both, unverified = (make_paper() for _ in range(4))
    make_sample(paper=honours, status=Status.RAN_HONOURS)
    make_sample(paper=violates, status=Status.RAN_VIOLATES)
    for status in (Status.RAN_HONOURS, Status.RAN_VIOLATES, Status.RAN_HONOURS):
        make_sample(paper=both, status=status)
    make_sample(paper=unverified)
    assert ids(Paper.objects.with_status(Status.RAN_HONOURS)) == pks(honours, both)
    assert ids(Paper.objects.with_status(Status.UNVERIFIED)) == pks(unverified)
    assert ids(Paper.objects.with_status(Status.RAN)) == []  # the status "ran", not every ran status


def test_on_dataset_is_a_result_on_one_of_its_leaderboards_or_having_introduced_it():
    dataset, other = make_dataset(), make_dataset()
    board, second_board = make_leaderboard(dataset=dataset), make_leaderboard(dataset=dataset)
    other_board = make_leaderboard(dataset=other)
    evaluated, introduced, both, elsewhere, unevaluated = (make_paper() for _ in range(5))
    make_result(paper=evaluated, leaderboard=board)
    make_result(paper=evaluated, leaderboard=board, model="a bigger model")
    make_result(paper=evaluated, leaderboard=second_board)
    introduced.datasets_introduced.add(dataset)
    make_result(paper=both, leaderboard=board)
    both.datasets_introduced.add(dataset)
    make_result(paper=elsewhere, leaderboard=other_board)
    unevaluated.datasets_introduced.add(other)
    assert ids(Paper.objects.on_dataset(dataset)) == pks(evaluated, introduced, both)
    assert ids(Paper.objects.on_dataset(other)) == pks(elsewhere, unevaluated)


def test_with_framework_is_a_code_link_in_it_whatever_the_case():
    pytorch, shouting, tf, unstated, harvested = (make_paper() for _ in range(5))
    make_code_link(paper=pytorch, framework="pytorch")
    make_code_link(paper=pytorch, framework="pytorch")
    make_code_link(paper=shouting, framework="PyTorch")
    make_code_link(paper=tf, framework="tf")
    make_code_link(paper=unstated)  # framework ""
    make_sample(paper=harvested)
    assert ids(Paper.objects.with_framework("PYTORCH")) == pks(pytorch, shouting)
    assert ids(Paper.objects.with_framework("tf")) == pks(tf)
    assert ids(Paper.objects.with_framework("torch")) == []  # the name, not a part of it


def test_with_code_entry_is_a_place_under_that_entry():
    entry, other = make_entry(), make_entry()
    under, elsewhere, placeless = make_paper(), make_paper(), make_paper()
    make_sample(paper=under, entry=entry)
    make_sample(paper=under, entry=entry)  # a second body under the same name
    make_sample(paper=under, entry=other)
    make_sample(paper=elsewhere, entry=other)
    assert ids(Paper.objects.with_code_entry(entry)) == pks(under)
    assert ids(Paper.objects.with_code_entry(other)) == pks(under, elsewhere)
    assert placeless.pk not in ids(Paper.objects.with_code_entry(other))


def test_in_repository_is_a_code_link_to_it_or_a_place_in_it():
    repo, other = make_repo(), make_repo()
    linked, harvested, both, elsewhere, repoless = (make_paper() for _ in range(5))
    make_code_link(paper=linked, repo=repo)
    make_sample(paper=harvested, repo=repo)
    make_code_link(paper=both, repo=repo)
    make_code_link(paper=both, repo=repo, sub_path="tree/main/examples")
    make_sample(paper=both, repo=repo)
    make_code_link(paper=elsewhere, repo=other)
    make_sample(paper=elsewhere, repo=other)
    make_sample(paper=repoless, repo=None)
    assert ids(Paper.objects.in_repository(repo)) == pks(linked, harvested, both)
    assert ids(Paper.objects.in_repository(other)) == pks(elsewhere)


@pytest.fixture
def by_month() -> dict[str, Paper]:
    """A paper in each month around 2020, and one with no month at all."""
    return {
        month: make_paper(arxiv_id=None, month=month)
        for month in ("2019-12", "2020-01", "2020-12", "2021-01", "")
    }


def months(queryset) -> list[str]:
    return list(queryset.order_by("month").values_list("month", flat=True))


def test_from_year_is_from_its_january_on_and_no_month_is_out(by_month):
    assert months(Paper.objects.from_year(2020)) == ["2020-01", "2020-12", "2021-01"]
    assert months(Paper.objects.from_year(2021)) == ["2021-01"]
    assert months(Paper.objects.from_year(2022)) == []


def test_until_year_is_up_to_its_december_and_no_month_is_out(by_month):
    assert months(Paper.objects.until_year(2020)) == ["2019-12", "2020-01", "2020-12"]
    assert months(Paper.objects.until_year(2019)) == ["2019-12"]
    assert months(Paper.objects.until_year(2018)) == []  # "" sorts before every month: still out


def test_in_year_is_its_twelve_months_and_no_month_is_in_none(by_month):
    assert months(Paper.objects.in_year(2020)) == ["2020-01", "2020-12"]
    assert months(Paper.objects.in_year(2019)) == ["2019-12"]
    assert months(Paper.objects.in_year(2022)) == []
    assert by_month[""].pk not in ids(Paper.objects.from_year(1).until_year(9999))


def test_from_paper_documents_is_the_papers_a_paper_document_described():
    described = make_paper(paper_stamp="2026-01-01T00:00:00+00:00|abc")
    named_only = make_paper()  # only a code-entry document named it: no paper stamp
    assert ids(Paper.objects.from_paper_documents()) == pks(described)
    assert named_only.pk in ids(Paper.objects.all())


def test_the_words_chain_into_one_sentence():
    task = make_task()
    hit, other_year, unofficial, off_task = (
        make_paper(arxiv_id=arxiv_id) for arxiv_id in ("2003.00001", "2103.00001", "2003.00002", "2003.00003")
    )
    for paper in (hit, other_year, unofficial):
        paper.tasks.add(task)
    for paper in (hit, other_year, off_task):
        make_code_link(paper=paper, is_official=True)
    make_code_link(paper=unofficial, is_official=False)
    assert ids(Paper.objects.with_official_code().on_task(task.pk).in_year(2020)) == pks(hit)
    assert ids(Paper.objects.on_task(task.pk).with_official_code(wanted=False)) == pks(unofficial)


# --- places (samples) -------------------------------------------------------------------------


def test_sample_ran_is_every_status_but_unverified_and_wanted_false_is_the_rest():
    places = {status: make_sample(status=status) for status in Status.values}
    corrected_down = make_sample(status=Status.UNVERIFIED, status_upstream=Status.RAN_HONOURS)
    ran = [places[status] for status in Status.ran_values()]
    assert ids(Sample.objects.ran()) == pks(*ran)
    assert ids(Sample.objects.ran(wanted=False)) == pks(places[Status.UNVERIFIED], corrected_down)


def test_sample_on_dataset_is_a_place_in_a_paper_with_a_result_on_it():
    dataset, other = make_dataset(), make_dataset()
    board = make_leaderboard(dataset=dataset)
    evaluated, elsewhere, unevaluated = make_paper(), make_paper(), make_paper()
    make_result(paper=evaluated, leaderboard=board)
    make_result(paper=evaluated, leaderboard=board, model="another model")
    make_result(paper=elsewhere, leaderboard=make_leaderboard(dataset=other))
    inside = [make_sample(paper=evaluated), make_sample(paper=evaluated)]
    outside = [make_sample(paper=elsewhere), make_sample(paper=unevaluated)]
    assert ids(Sample.objects.on_dataset(dataset)) == pks(*inside)
    assert ids(Sample.objects.on_dataset(other)) == pks(outside[0])


def test_sample_with_framework_is_a_place_in_a_repository_its_paper_links_in_that_framework():
    paper, torch_repo, tf_repo = make_paper(), make_repo(), make_repo()
    make_code_link(paper=paper, repo=torch_repo, framework="PyTorch")
    make_code_link(paper=paper, repo=torch_repo, sub_path="tree/main/examples", framework="pytorch")
    make_code_link(paper=paper, repo=tf_repo, framework="tf")
    in_torch = make_sample(paper=paper, repo=torch_repo)
    in_tf = make_sample(paper=paper, repo=tf_repo)
    make_sample(paper=paper, repo=make_repo())  # a repository the paper does not link
    make_sample(paper=paper, repo=None)
    make_sample(repo=torch_repo)  # another paper's place in it: that paper links nothing
    assert ids(Sample.objects.with_framework("pytorch")) == pks(in_torch)
    assert ids(Sample.objects.with_framework("TF")) == pks(in_tf)


def test_in_official_repository_is_a_place_where_its_paper_marks_the_link_official():
    paper = make_paper()
    official_repo, unofficial_repo, unstated_repo = make_repo(), make_repo(), make_repo()
    make_code_link(paper=paper, repo=official_repo, is_official=True)
    make_code_link(paper=paper, repo=unofficial_repo, is_official=False)
    make_code_link(paper=paper, repo=unstated_repo)  # is_official NULL
    official = make_sample(paper=paper, repo=official_repo)
    unofficial = make_sample(paper=paper, repo=unofficial_repo)
    unstated = make_sample(paper=paper, repo=unstated_repo)
    repoless = make_sample(paper=paper, repo=None)
    borrowed = make_sample(repo=official_repo)  # official for the first paper, not for this one
    assert ids(Sample.objects.in_official_repository()) == pks(official)
    assert ids(Sample.objects.in_official_repository(wanted=False)) == pks(
        unofficial, unstated, repoless, borrowed
    )


def test_described_by_paper_documents_is_a_place_a_paper_document_listed():
    listed = make_sample(paper_view_stamp="2026-01-01T00:00:00+00:00|abc")
    make_sample()  # only a code-entry document's view: no paper view stamp
    assert ids(Sample.objects.described_by_paper_documents()) == pks(listed)


# --- code entries -----------------------------------------------------------------------------


def test_with_places_is_one_place_meeting_every_condition():
    paper, repo = make_paper(), make_repo()
    in_paper, in_repo, split, elsewhere = (make_entry() for _ in range(4))
    make_entry()  # no places at all
    make_sample(entry=in_paper, paper=paper)
    make_sample(entry=in_paper, paper=paper)
    make_sample(entry=in_repo, repo=repo, status=Status.RAN)
    make_sample(entry=split, paper=paper)  # in the paper, unverified…
    make_sample(entry=split, status=Status.RAN)  # …and ran, elsewhere
    make_sample(entry=elsewhere)
    assert ids(CodeEntry.objects.with_places(paper=paper)) == pks(in_paper, split)
    assert ids(CodeEntry.objects.with_places(repo=repo)) == pks(in_repo)
    assert ids(CodeEntry.objects.with_places(status=Status.RAN)) == pks(in_repo, split)
    assert ids(CodeEntry.objects.with_places(paper=paper, status=Status.RAN)) == []
    assert ids(CodeEntry.objects.with_places()) == pks(in_paper, in_repo, split, elsewhere)


def test_with_ran_places_is_a_place_that_ran_and_wanted_false_is_the_rest():
    ran, unverified, corrected_down, placeless = (make_entry() for _ in range(4))
    make_sample(entry=ran, status=Status.RAN_FIXTURE)
    make_sample(entry=ran)
    make_sample(entry=ran, status=Status.RAN_VIOLATES)
    make_sample(entry=unverified)
    make_sample(entry=corrected_down, status=Status.UNVERIFIED, status_upstream=Status.RAN)
    assert ids(CodeEntry.objects.with_ran_places()) == pks(ran)
    assert ids(CodeEntry.objects.with_ran_places(wanted=False)) == pks(unverified, corrected_down, placeless)


# --- repositories -----------------------------------------------------------------------------


def test_repo_with_framework_is_a_code_link_to_it_in_that_framework():
    torch, shouting, tf, unstated, harvested_only = (make_repo() for _ in range(5))
    make_code_link(repo=torch, framework="pytorch")
    make_code_link(repo=torch, framework="pytorch")  # another paper's link
    make_code_link(repo=shouting, framework="PyTorch")
    make_code_link(repo=tf, framework="tf")
    make_code_link(repo=unstated)
    make_sample(repo=harvested_only)
    assert ids(Repo.objects.with_framework("PYTORCH")) == pks(torch, shouting)
    assert ids(Repo.objects.with_framework("tf")) == pks(tf)
    assert ids(Repo.objects.with_framework("jax")) == []


def test_linked_by_is_a_code_link_from_the_paper_or_a_place_of_it():
    paper = make_paper()
    linked, harvested, both, other = (make_repo() for _ in range(4))
    make_code_link(paper=paper, repo=linked)
    make_sample(paper=paper, repo=harvested)
    make_code_link(paper=paper, repo=both)
    make_sample(paper=paper, repo=both)
    make_sample(paper=paper, repo=both)
    make_sample(paper=paper, repo=None)
    make_code_link(repo=other)
    make_sample(repo=other)
    assert ids(Repo.objects.linked_by(paper)) == pks(linked, harvested, both)
    assert ids(Repo.objects.linked_by(make_paper())) == []


def test_with_official_links_is_some_paper_marking_it_official_and_null_is_not():
    official, unofficial, unstated, mixed, unlinked = (make_repo() for _ in range(5))
    make_code_link(repo=official, is_official=True)
    make_code_link(repo=unofficial, is_official=False)
    make_code_link(repo=unstated)
    for is_official in (False, True, True):
        make_code_link(repo=mixed, is_official=is_official)
    make_sample(repo=unlinked)
    assert ids(Repo.objects.with_official_links()) == pks(official, mixed)
    assert ids(Repo.objects.with_official_links(wanted=False)) == pks(unofficial, unstated, unlinked)


# --- leaderboards -----------------------------------------------------------------------------


def test_with_results_of_is_the_boards_where_the_paper_has_a_result():
    paper = make_paper()
    board, second_board, others, empty = (make_leaderboard() for _ in range(4))
    make_result(paper=paper, leaderboard=board)
    make_result(paper=paper, leaderboard=board, model="a bigger model")
    make_result(paper=paper, leaderboard=second_board)
    make_result(leaderboard=others)
    paper.datasets_introduced.add(empty.dataset)  # introducing its dataset is no result on it
    assert ids(Leaderboard.objects.with_results_of(paper)) == pks(board, second_board)
    assert ids(Leaderboard.objects.with_results_of(make_paper())) == []
