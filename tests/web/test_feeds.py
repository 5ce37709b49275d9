"""catalogue/feeds.py: the Atom feeds, and the pages that link them."""

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalogue import models as m
from catalogue.web import feeds
from tests.factories import (
    make_document,
    make_entry,
    make_leaderboard,
    make_paper,
    make_result,
    make_sample,
    make_task,
)

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def atom(client, url: str) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    return ET.fromstring(response.content)  # well-formed XML, or this raises


def entries(feed: ET.Element) -> list[dict]:
    return [
        {
            "title": e.findtext(f"{ATOM}title"),
            "link": e.find(f"{ATOM}link").get("href"),
            "id": e.findtext(f"{ATOM}id"),
            "updated": e.findtext(f"{ATOM}updated"),
            "published": e.findtext(f"{ATOM}published"),
            "summary": e.findtext(f"{ATOM}summary"),
        }
        for e in feed.findall(f"{ATOM}entry")
    ]


def _created(paper, when: dt.datetime):
    m.Paper.objects.filter(pk=paper.pk).update(created_at=when)


def test_new_papers_come_newest_in_the_catalogue_first_with_their_abstract(client):
    old, new = make_paper(title="Old one", abstract="An   older\nabstract."), make_paper(title="New one")
    _created(old, timezone.now() - dt.timedelta(days=3))
    feed = atom(client, "/papers/feed")
    rows = entries(feed)
    assert [r["title"] for r in rows] == ["New one", "Old one"]
    assert rows[1]["link"] == f"http://testserver{old.get_absolute_url()}"
    assert rows[1]["summary"] == "An older abstract."
    assert rows[0]["id"] == f"{feeds.TAG}/paper/{new.pk}"
    assert all(r["updated"] for r in rows)  # Atom requires it on every entry
    assert feed.find(f"{ATOM}link[@rel='self']").get("href") == "http://testserver/papers/feed"


def test_a_feed_holds_the_newest_fifty_in_the_same_number_of_queries_for_1_or_50(client):
    make_paper()
    with CaptureQueriesContext(connection) as one:
        assert len(entries(atom(client, "/papers/feed"))) == 1
    for _ in range(feeds.ITEMS + 5):
        make_paper()
    with CaptureQueriesContext(connection) as many:
        assert len(entries(atom(client, "/papers/feed"))) == feeds.ITEMS
    assert len(many) == len(one)


def test_a_task_feed_lists_only_the_task_s_papers_and_an_unknown_task_is_404(client):
    task = make_task(slug="segmentation", name="Segmentation")
    on_task, _elsewhere = make_paper(title="On the task"), make_paper(title="Elsewhere")
    on_task.tasks.add(task)
    feed = atom(client, "/task/segmentation/feed")
    assert [r["title"] for r in entries(feed)] == ["On the task"]
    assert feed.findtext(f"{ATOM}title") == "Code with Papers: new papers on Segmentation"
    assert client.get("/task/no-such-task/feed").status_code == 404


def test_a_leaderboard_feed_lists_the_newest_dated_results_first_and_rows_without_a_paper(client):
    board = make_leaderboard()
    make_result(leaderboard=board, model="Older", paper=make_paper(date=dt.date(2019, 5, 1)))
    make_result(leaderboard=board, model="Newer", paper=make_paper(date=dt.date(2023, 1, 2)))
    make_result(
        leaderboard=board,
        model="Competition entry",
        paper=None,
        paper_title="",
        paper_date=dt.date(2021, 3, 4),
    )
    make_result(leaderboard=board, model="Undated", paper=None, metrics={"Accuracy": "1"})
    rows = entries(atom(client, f"/sota/{board.slug}/feed"))
    assert [r["title"].split(" (")[0] for r in rows] == ["Newer", "Competition entry", "Older", "Undated"]
    assert rows[0]["published"].startswith("2023-01-02T00:00:00")
    assert rows[1]["link"] == f"http://testserver{board.get_absolute_url()}"  # no paper: the board
    assert rows[3]["published"] is None
    assert all(r["updated"] for r in rows[:3])
    assert rows[0]["summary"] == "Accuracy: 90.0%"
    assert client.get("/sota/no-such-board/feed").status_code == 404


def test_a_code_entry_feed_gives_a_changed_status_a_new_entry(client):
    entry = make_entry()
    document = make_document(read_at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC))
    sample = make_sample(entry=entry, document=document, paper=make_paper(title="A paper"))
    first = entries(atom(client, f"/code/{entry.slug}/feed"))
    assert first[0]["title"] == "A paper: unverified (harvested, no recorded run)"
    assert first[0]["published"].startswith("2026-01-02")
    m.Sample.objects.filter(pk=sample.pk).update(status=m.Status.RAN, status_corrected=True, version=2)
    second = entries(atom(client, f"/code/{entry.slug}/feed"))
    assert second[0]["title"] == "A paper: ran on a synthesized input (corrected by a curator)"
    assert second[0]["id"] != first[0]["id"]


def test_text_xml_cannot_carry_is_left_out_and_markup_stays_text(client):
    # (no NUL: PostgreSQL cannot hold one; catalogue.web.feeds.xml_text drops it all the same)
    make_paper(title="<script>alert(1)</script> \x1bbell\x07 & co", abstract="escape\x1f here")
    response = client.get("/papers/feed")
    assert b"<script>" not in response.content
    row = entries(ET.fromstring(response.content))[0]
    assert row["title"] == "<script>alert(1)</script> bell & co"
    assert row["summary"] == "escape here"
    assert feeds.xml_text("a\x00b\ud800c") == "abc"


@pytest.mark.parametrize(
    ("page", "feed"),
    [
        ("/", "/papers/feed"),
        ("/papers/", "/papers/feed"),
        ("/task/{task}", "/task/{task}/feed"),
        ("/sota/{board}", "/sota/{board}/feed"),
        ("/code/{entry}", "/code/{entry}/feed"),
    ],
)
def test_pages_link_their_feed_for_feed_readers_and_people(client, page, feed):
    board, entry = make_leaderboard(), make_entry()
    make_sample(entry=entry)
    names = {"task": board.task.slug, "board": board.slug, "entry": entry.slug}
    page, feed = page.format(**names), feed.format(**names)
    html = client.get(page).content.decode()
    assert 'type="application/atom+xml" title="' in html
    assert f'href="{feed}">' in html
    assert f'<a href="{feed}" type="application/atom+xml">Atom feed</a>' in html
    atom(client, feed)


def test_a_feed_is_served_from_the_page_cache_and_answers_get_and_head_only(client, settings):
    settings.PAGE_CACHE_SECONDS = 60
    make_paper()
    first = client.get("/papers/feed")
    assert first.has_header("ETag")
    assert client.get("/papers/feed", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.post("/papers/feed").status_code == 405


def test_undated_entries_take_the_last_load_s_date_in_one_query_for_1_or_50(client):
    m.LoadRun.objects.create(
        started_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC),
        finished_at=dt.datetime(2026, 3, 1, 0, 5, tzinfo=dt.UTC),
        outcome=m.LoadRun.Outcome.SUCCEEDED,
    )
    board = make_leaderboard()
    make_result(leaderboard=board, paper=None, model="Undated 0", metrics={"Accuracy": "0"})
    with CaptureQueriesContext(connection) as one:
        rows = entries(atom(client, f"/sota/{board.slug}/feed"))
    assert rows[0]["updated"].startswith("2026-03-01T00:05:00")
    for n in range(1, 50):
        make_result(leaderboard=board, paper=None, model=f"Undated {n}", metrics={"Accuracy": str(n)})
    with CaptureQueriesContext(connection) as fifty:
        rows = entries(atom(client, f"/sota/{board.slug}/feed"))
    assert len(rows) == 50
    assert {r["updated"] for r in rows} == {rows[0]["updated"]}
    assert len(fifty) == len(one)
