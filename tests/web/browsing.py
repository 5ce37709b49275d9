"""What the browsing pages' tests share: a text that must stay text, areas of tasks, and a page's
query count before and after its rows grow."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import models as m
from tests.pages import html

PROBE = '<script>alert("x")</script>'


def make_area(slug, name):
    return m.Area.objects.create(slug=slug, name=name, stamp="s")


def in_area(task, area):
    task.areas.add(area)
    return task


def assert_queries_do_not_grow(client, url: str, grow_more) -> None:
    """The page at ``url`` takes as many queries after ``grow_more()`` adds its rows as before."""
    with CaptureQueriesContext(connection) as one:
        html(client, url)
    grow_more()
    with CaptureQueriesContext(connection) as fifty:
        html(client, url)
    assert len(fifty) == len(one), [q["sql"] for q in fifty.captured_queries]
