"""Reads on PostgreSQL: one snapshot per public request (config.consistency), and indexes.

A public read on PostgreSQL sees one state of the catalogue.

A load that commits while a page runs its queries must not show in half of them. Here the
"page" counts papers, another connection commits a new paper (as a load would), and the
page counts again: inside the middleware both counts agree; without it they do not (the
second test shows the failure the middleware prevents). bench/README.md has the same
check end to end, under wrk, during real loads.
"""

import threading

import pytest
from django.db import connection, connections
from django.http import HttpResponse
from django.test import RequestFactory

from catalogue.models import Paper
from config.consistency import ConsistentReadMiddleware
from tests.factories import make_paper

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def commit_a_paper_elsewhere():
    def work():
        make_paper()
        connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def page_counting_twice(request):
    first = Paper.objects.count()
    commit_a_paper_elsewhere()
    second = Paper.objects.count()
    return HttpResponse(f"{first} {second}")


@pytest.fixture
def on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads stay in autocommit (see config/consistency.py)")


def test_a_page_sees_one_snapshot_while_a_load_commits(on_postgres):
    make_paper()
    response = ConsistentReadMiddleware(page_counting_twice)(RequestFactory().get("/papers/"))
    first, second = response.content.decode().split()
    assert first == second == "1"
    assert Paper.objects.count() == 2  # the other commit happened, and shows to the next read


def test_without_it_the_two_queries_straddle_the_commit(on_postgres):
    make_paper()
    first, second = page_counting_twice(RequestFactory().get("/papers/")).content.decode().split()
    assert (first, second) == ("1", "2")


def test_writes_and_the_admin_are_left_in_autocommit(on_postgres):
    seen = []

    def view(request):
        seen.append(connection.in_atomic_block)
        return HttpResponse("")

    middleware = ConsistentReadMiddleware(view)
    middleware(RequestFactory().post("/api/v1/papers/"))
    middleware(RequestFactory().get("/admin/catalogue/paper/"))
    middleware(RequestFactory().get("/healthz"))
    middleware(RequestFactory().get("/code/"))
    assert seen == [False, False, False, True]


def test_the_api_title_filter_can_use_the_trigram_index(on_postgres):
    make_paper(title="Attention is all you need")
    qs = Paper.objects.filter(title__icontains="ttention")
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a table this small is read whole anyway
        try:
            sql, params = qs.query.sql_with_params()
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")
    assert "paper_title_trgm" in plan, plan
    assert list(qs.values_list("title", flat=True)) == ["Attention is all you need"]
