"""catalogue.pagination.paginators: the admin's counts stay cheap on large tables."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue.models import Paper
from catalogue.pagination.paginators import EstimatedCountPaginator
from tests import factories
from tests.admin_client import make_curator

pytestmark = pytest.mark.django_db


def analyse():
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalogue_paper")


def test_small_or_filtered_lists_are_counted_exactly():
    for _ in range(3):
        factories.make_paper()
    paginator = EstimatedCountPaginator(Paper.objects.order_by("pk"), 2)
    assert paginator.count == 3
    assert not paginator.count_is_estimate
    filtered = EstimatedCountPaginator(Paper.objects.filter(title__contains="number").order_by("pk"), 2)
    assert filtered.count == 3
    assert paginator.num_pages == 2


def test_a_list_that_is_not_a_queryset_is_counted_by_length():
    assert EstimatedCountPaginator([1, 2, 3], 2).count == 3


@pytest.fixture
def eight_papers_analysed(monkeypatch):
    """Eight papers the planner's statistics know of, on a table estimated above five rows."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's pg_class.reltuples")
    monkeypatch.setattr(EstimatedCountPaginator, "estimate_above", 5)
    for _ in range(8):
        factories.make_paper()
    analyse()


@pytest.mark.postgres_only
def test_an_unfiltered_large_table_is_counted_from_the_planner_statistics(eight_papers_analysed):
    factories.make_paper()  # one more than the statistics know of
    paginator = EstimatedCountPaginator(Paper.objects.order_by("pk"), 2)
    with CaptureQueriesContext(connection) as run:
        assert paginator.count == 8
    assert paginator.count_is_estimate
    assert not any("COUNT(" in q["sql"].upper() for q in run.captured_queries)

    filtered = EstimatedCountPaginator(Paper.objects.filter(arxiv_id__isnull=False).order_by("pk"), 2)
    assert (filtered.count, filtered.count_is_estimate) == (9, False)


@pytest.mark.postgres_only
def test_the_admin_list_says_about_when_it_shows_an_estimate(eight_papers_analysed):
    client = Client()
    client.force_login(make_curator())
    url = reverse("admin:catalogue_paper_changelist")
    with CaptureQueriesContext(connection) as run:
        page = client.get(url)
    assert "about 8 papers" in " ".join(page.content.decode().split())
    assert not any("COUNT(" in q["sql"].upper() for q in run.captured_queries)
    searched = client.get(url, {"q": "number"})
    assert searched.context["cl"].result_count == 8
    assert not searched.context["cl"].paginator.count_is_estimate
