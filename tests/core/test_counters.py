"""catalogue.counters: the stored counts lists sort by agree with the figures, after every change."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalogue import counters, curation
from catalogue.models import Author, AuthorName, CodeEntry, Leaderboard, Paper, Sample, Task
from tests import archive_dumps
from tests.conftest import CODE_SEEDS, PAPER_SEED, load
from tests.counts import assert_counts_agree


def test_a_load_stores_the_counts_in_any_order(db):
    load(*CODE_SEEDS)
    assert_counts_agree()
    load(PAPER_SEED)
    assert_counts_agree()
    assert CodeEntry.objects.filter(n_places__gt=1).exists()
    assert Paper.objects.filter(n_samples__gt=1).exists()


@pytest.mark.parametrize("order", [1, -1], ids=["dump order", "reversed"])
def test_each_dump_loaded_by_itself_leaves_every_stored_count_true(db, tmp_path, order):
    # A load that creates no paper and no place still moves counts: the links dump loaded after
    # the papers dump gives papers their code links (it left 20,595 of 59,592 at 0 once).
    for dump in archive_dumps.write(tmp_path / "dumps")[::order]:
        load(dump)
        assert recount() == ["recount: nothing to change"], dump.name
    assert Paper.objects.filter(n_code_links__gt=0).exists()


def test_a_status_correction_and_its_removal_move_the_ran_count(loaded_seeds):
    curator = get_user_model().objects.create(username="curator")
    # a place whose body is under no ran_honours place of its entry yet: the count moves by one
    honoured = Sample.objects.filter(status="ran_honours").values_list("entry_id", "body_id")
    sample = next(
        s
        for s in Sample.objects.filter(status="unverified").select_related("entry").order_by("id")
        if (s.entry_id, s.body_id) not in set(honoured)
    )
    before = sample.entry.n_samples_ran
    correction = curation.correct_status(
        sample, "ran_honours", user=curator, reason="ran it", expected_version=None
    )
    sample.entry.refresh_from_db()
    assert sample.entry.n_samples_ran == before + 1
    assert_counts_agree()
    curation.remove_correction(correction, user=curator, reason="undo")
    sample.entry.refresh_from_db()
    assert sample.entry.n_samples_ran == before
    assert_counts_agree()


def test_refresh_repairs_counts_and_reports_what_it_changed(loaded_seeds):
    assert counters.refresh() == 0  # a load left them true
    CodeEntry.objects.update(n_places=0)
    Paper.objects.update(n_samples=99)
    assert counters.refresh() == CodeEntry.objects.count() + Paper.objects.count()
    assert_counts_agree()


@pytest.mark.parametrize("sort", ["places", "papers", "ran"])
def test_the_code_list_is_ordered_by_the_stored_counts(client, loaded_seeds, sort):
    column = {"places": "n_places", "papers": "n_papers", "ran": "n_samples_ran"}[sort]
    rows = client.get(f"/code/?sort={sort}").context["rows"]
    shown = [getattr(entry, column) for entry, _ in rows]
    assert shown == sorted(shown, reverse=True)
    assert shown[0] == max(CodeEntry.objects.values_list(column, flat=True))


def test_the_paper_list_sorted_by_samples_starts_with_the_most(client, loaded_seeds):
    papers = client.get("/papers/?sort=samples").context["page"].items
    assert papers[0].n_samples == max(Paper.objects.values_list("n_samples", flat=True)) > 0


def test_task_and_board_counts_and_author_names_are_what_the_rows_say_after_a_load_and_a_repair(db, tmp_path):
    load(*archive_dumps.write(tmp_path / "dumps"))
    assert Task.objects.filter(n_papers__gt=0).exists()
    assert Task.objects.filter(n_leaderboards__gt=0).exists()
    for task in Task.objects.all():
        assert (task.n_papers, task.n_leaderboards) == (
            task.papers.count(),
            Leaderboard.objects.filter(task=task).count(),
        ), task.slug
    assert Leaderboard.objects.filter(n_results__gt=1).exists()
    for board in Leaderboard.objects.all():
        assert board.n_results == board.results.count(), board.slug
    names = set(Author.objects.exclude(name="").values_list("name", flat=True))
    assert names
    assert set(AuthorName.objects.values_list("name", flat=True)) == names
    # a refresh repairs what was lost or made up, and a per-entry refresh leaves them alone
    Task.objects.update(n_papers=7, n_leaderboards=7)
    Leaderboard.objects.update(n_results=1000)
    AuthorName.objects.create(name="Nobody Anywhere")
    AuthorName.objects.filter(name=min(names)).delete()
    assert counters.refresh(entry_ids=[], paper_ids=[]) == 0
    assert counters.refresh() == Task.objects.count() + Leaderboard.objects.count() + 2
    assert [b.n_results for b in Leaderboard.objects.all()] == [
        b.results.count() for b in Leaderboard.objects.all()
    ]
    assert set(AuthorName.objects.values_list("name", flat=True)) == names


def recount() -> list[str]:
    """``manage.py recount`` as an operator runs it: the lines it printed."""
    out = StringIO()
    call_command("recount", stdout=out)
    return out.getvalue().splitlines()


def test_recount_repairs_every_stored_count_says_which_and_then_has_nothing_to_change(db, tmp_path):
    load(*CODE_SEEDS, PAPER_SEED, *archive_dumps.write(tmp_path / "dumps"))
    assert recount() == ["recount: nothing to change"]  # a load left them true
    entries, papers = CodeEntry.objects.count(), Paper.objects.filter(n_samples__gt=0).count()
    linked = Paper.objects.filter(n_code_links__gt=0).count()
    assert linked > 0
    tasks, boards = Task.objects.count(), Leaderboard.objects.count()
    names = set(AuthorName.objects.values_list("name", flat=True))
    CodeEntry.objects.update(n_places=1000, n_samples_ran=1000)
    Paper.objects.filter(n_samples__gt=0).update(n_samples=0)
    Paper.objects.filter(n_code_links__gt=0).update(n_code_links=0)
    Task.objects.update(n_leaderboards=1000)
    Leaderboard.objects.update(n_results=1000)
    AuthorName.objects.create(name="Nobody Anywhere")

    assert recount() == [
        f"CodeEntry.n_places: {entries} rows changed",
        f"CodeEntry.n_samples_ran: {entries} rows changed",
        f"Paper.n_samples: {papers} rows changed",
        f"Paper.n_code_links: {linked} rows changed",
        f"Task.n_leaderboards: {tasks} rows changed",
        f"Leaderboard.n_results: {boards} rows changed",
        "AuthorName: 1 row changed",
        f"recount: {2 * entries + papers + linked + tasks + boards + 1} rows changed in all",
    ]
    assert_counts_agree()
    for task in Task.objects.all():
        assert task.n_leaderboards == Leaderboard.objects.filter(task=task).count(), task.slug
    for board in Leaderboard.objects.all():
        assert board.n_results == board.results.count(), board.slug
    for paper in Paper.objects.all():
        assert paper.n_code_links == paper.code_links.count(), paper.slug
    assert set(AuthorName.objects.values_list("name", flat=True)) == names
    assert recount() == ["recount: nothing to change"]


def test_recount_counts_one_column_at_a_time_as_a_refresh_counts_them_together(loaded_seeds):
    CodeEntry.objects.filter(pk=CodeEntry.objects.order_by("pk")[0].pk).update(n_papers=50)
    Task.objects.filter(n_papers__gt=0).update(n_papers=0)
    changed = counters.recount()
    assert changed["CodeEntry.n_papers"] == 1
    assert changed["Task.n_papers"] == Task.objects.filter(n_papers__gt=0).count() > 0
    assert {k for k, v in changed.items() if v} == {"CodeEntry.n_papers", "Task.n_papers"}
    assert counters.refresh() == 0
