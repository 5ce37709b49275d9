"""What the browsing pages' tests share: a text that must stay text, and areas of tasks."""

from catalogue import models as m

PROBE = '<script>alert("x")</script>'


def make_area(slug, name):
    return m.Area.objects.create(slug=slug, name=name, stamp="s")


def in_area(task, area):
    task.areas.add(area)
    return task
