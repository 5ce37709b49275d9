"""The curators' admin lists, built for size: search and filters, links between related objects, a
fixed number of queries whatever the rows, no count of the whole table, load runs and their files."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue import curation
from catalogue.models import CodeEntry, CodeLink, Paper, Sample
from tests import factories
from tests.admin.curating import GPIPE, change_url
from tests.conftest import SEEDS, load

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(curator_client):
    """Every request of this module is the curator's (tests/admin/conftest.py)."""
    return curator_client


# --- lists built for size ---


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"q": "GPipe"}, {GPIPE}),
        ({"q": GPIPE}, {GPIPE}),
        ({"title_source__exact": "archive"}, None),
    ],
)
def test_paper_list_search_and_filters(loaded_seeds, client, query, expected):
    response = client.get(reverse("admin:catalogue_paper_changelist"), query)
    assert response.status_code == 200
    found = {p.arxiv_id for p in response.context["cl"].result_list}
    if expected is None:
        expected = set(Paper.objects.filter(title_source="archive").values_list("arxiv_id", flat=True))
        assert expected
    assert found == expected


@pytest.mark.parametrize(
    ("query", "lookup"),
    [
        ({"q": "forward_step_func"}, {"entry__name": "forward_step_func"}),
        ({"q": "torchgpipe"}, {"repo__name__icontains": "torchgpipe"}),
        ({"status__exact": "ran"}, {"status": "ran"}),
        ({"licence": "BSD-3-Clause"}, {"licence": "BSD-3-Clause"}),
        ({"repo_kind__exact": "listed"}, {"repo_kind": "listed"}),
        ({"inline_ok__exact": "0"}, {"inline_ok": False}),
        ({"status_corrected__exact": "0"}, {"status_corrected": False}),
    ],
)
def test_sample_list_search_and_filters(loaded_seeds, client, query, lookup):
    response = client.get(reverse("admin:catalogue_sample_changelist"), query)
    assert response.status_code == 200
    expected = set(Sample.objects.filter(**lookup).values_list("pk", flat=True))
    assert expected, f"the seeds hold no sample with {lookup}"
    assert {s.pk for s in response.context["cl"].result_list} == expected


def test_links_between_related_objects(loaded_seeds, client):
    paper = Paper.objects.get(arxiv_id=GPIPE)
    page = client.get(change_url(paper)).content.decode()
    sample = paper.samples.first()
    assert change_url(sample) in page  # the sample inline links to each sample
    entry = CodeEntry.objects.get(name="forward_step_func")
    entry_page = client.get(reverse("admin:catalogue_codeentry_change", args=[entry.pk])).content.decode()
    samples_of_entry = reverse("admin:catalogue_sample_changelist") + f"?entry__id__exact={entry.pk}"
    assert samples_of_entry in entry_page
    listed = client.get(samples_of_entry)
    assert {s.pk for s in listed.context["cl"].result_list} == set(entry.samples.values_list("pk", flat=True))
    sample_page = client.get(change_url(sample)).content.decode()
    assert change_url(paper) in sample_page
    assert reverse("admin:catalogue_codeentry_change", args=[sample.entry_id]) in sample_page


def _count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries_run:
        assert client.get(url).status_code == 200
    return len(queries_run)


@pytest.mark.parametrize("model_name", ["paper", "sample", "correction", "codeentry", "repo"])
def test_list_pages_run_a_fixed_number_of_queries(curator, client, model_name):
    url = reverse(f"admin:catalogue_{model_name}_changelist")

    def grow(n):
        for _ in range(n):
            sample = factories.make_sample(repo=factories.make_repo(), status_upstream="unverified")
            curation.correct_status(sample, "ran", user=curator, reason="r", expected_version=None)
            curation.correct_title(sample.paper, "Corrected title", user=curator, expected_version=None)

    grow(3)
    client.get(url)  # warm what is cached across requests (the licence filter's choices)
    few = _count_queries(client, url)
    grow(30)
    many = _count_queries(client, url)
    assert few == many


def test_lists_never_count_the_whole_table_besides_the_page_count(loaded_seeds, client):
    with CaptureQueriesContext(connection) as run:
        client.get(reverse("admin:catalogue_sample_changelist"), {"status__exact": "ran"})
    counts = [q["sql"] for q in run.captured_queries if "COUNT(" in q["sql"].upper()]
    assert len(counts) == 1  # the filtered list's own count; no unfiltered full count beside it
    assert "WHERE" in counts[0].upper()


def test_a_paper_page_costs_the_same_queries_with_many_rows_and_caps_its_inlines(curator, client):
    def paper_with(n):
        paper = factories.make_paper()
        repo = factories.make_repo()
        for _ in range(n):
            factories.make_sample(paper=paper, repo=repo, status_upstream="unverified")
            other = factories.make_repo()
            CodeLink.objects.create(
                paper=paper, repo=other, repo_url=f"https://github.com/{other.key}", stamp="s"
            )
        return paper

    small, large = paper_with(3), paper_with(35)
    client.get(change_url(small))
    assert _count_queries(client, change_url(small)) == _count_queries(client, change_url(large))
    page = client.get(change_url(large))
    shown = {f.opts.model: len(f.formset.forms) for f in page.context["inline_admin_formsets"]}
    assert (shown[Sample], shown[CodeLink]) == (30, 30)
    html = page.content.decode()
    assert "35 samples →" in html
    assert "35 code links →" in html
    assert reverse("admin:catalogue_codelink_changelist") + f"?paper__id__exact={large.pk}" in html


def test_a_load_run_page_lists_its_files_and_links_to_all_of_them(loaded_seeds, client):
    from catalogue.models import LoadRun

    run = LoadRun.objects.get()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("admin:catalogue_loadrun_changelist")).status_code == 200
    assert not any("loadrunfile" in q["sql"] for q in captured)  # the list never reads them
    page = client.get(reverse("admin:catalogue_loadrun_change", args=[run.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "3 files (3 loaded)" in html
    first = run.files.first()
    assert f"loaded: {first.path} {first.sha256[:16]}" in html
    every = reverse("admin:catalogue_loadrunfile_changelist") + f"?run__id__exact={run.pk}"
    assert f'<a href="{every}">all 3 files →</a>' in html
    with CaptureQueriesContext(connection) as captured:
        listed = client.get(every + "&status__exact=loaded")
    assert listed.status_code == 200
    # In the (run, seq) index's order, not the run's own (a join and a sort of every file).
    files_read = [q["sql"] for q in captured if 'FROM "catalogue_loadrunfile"' in q["sql"]]
    assert files_read
    assert not any('ORDER BY "catalogue_loadrun".' in sql for sql in files_read)
    shown = [f.path for f in listed.context["cl"].result_list]
    assert shown == list(run.files.values_list("path", flat=True))


def test_a_load_run_whose_files_were_pruned_shows_its_summary(loaded_seeds, client, settings):
    from catalogue.models import LoadRun

    settings.LOAD_FILE_LISTS_KEPT = 1
    first = LoadRun.objects.get()
    load(*SEEDS)  # a second run: the first's rows go
    assert not first.files.exists()
    html = client.get(reverse("admin:catalogue_loadrun_change", args=[first.pk])).content.decode()
    assert "3 files (3 loaded)" in html
    shown = first.files_summary["shown"][0]
    assert f"loaded: {shown['path']} {shown['sha256'][:16]}" in html
    assert "the file-by-file list was pruned: only the newest loads keep theirs" in html
    assert "all 3 files →" not in html


def test_the_file_list_filtered_by_status_reads_the_status_index(loaded_seeds, client):
    # The admin's way to find the few skipped or failed files among every file of every run kept
    # (575,000 a run at archive size): by an index, not by reading every row (bench/README.md).
    page = client.get(reverse("admin:catalogue_loadrunfile_changelist") + "?status__exact=skipped")
    assert page.status_code == 200
    sql, params = page.context["cl"].queryset[:100].query.sql_with_params()
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        if postgres:
            cursor.execute("SET enable_seqscan = off")  # a table this small is read whole anyway
            # Plan from the rows the seeds' loads left, not from whatever statistics the tests run
            # before left behind: in one order (randomly seed 2943008845) the stale ones made the
            # run's primary key and the file order look as cheap, and the plan took those.
            cursor.execute("ANALYZE catalogue_loadrun")
            cursor.execute("ANALYZE catalogue_loadrunfile")
        cursor.execute(f"{'EXPLAIN' if postgres else 'EXPLAIN QUERY PLAN'} {sql}", params)
        plan = "\n".join(str(row) for row in cursor.fetchall())
        if postgres:
            cursor.execute("RESET enable_seqscan")
    assert "loadrunfile_by_status" in plan, plan
