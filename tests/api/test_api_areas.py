"""/api/v1/areas/ (and an area's tasks) and /api/v1/tasks/{id}/parents/ and children/: the task tree."""

import pytest

from catalogue import models as m
from tests.api_helpers import V1, assert_queries_do_not_grow_with_page_size, get, ids, queries_and_rows, walk
from tests.factories import make_task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


def make_area(**fields) -> m.Area:
    fields.setdefault("name", fields["slug"].replace("-", " ").title())
    fields.setdefault("stamp", "s")
    return m.Area.objects.create(**fields)


@pytest.fixture
def areas(db):
    """Three areas; Computer Vision holds three tasks, one of them also in Medical."""
    cv = make_area(slug="computer-vision", name="Computer Vision")
    medical = make_area(slug="medical", name="Medical")
    make_area(slug="natural-language-processing", name="Natural Language Processing")
    for slug, name in [
        ("semantic-segmentation", "Semantic Segmentation"),
        ("image-classification", "Image Classification"),
        ("object-detection", "Object Detection"),
    ]:
        make_task(slug=slug, name=name).areas.add(cv)
    m.Task.objects.get(slug="semantic-segmentation").areas.add(medical)
    make_task(slug="speech-recognition", name="Speech Recognition")  # in no area
    return cv


@pytest.fixture
def tree(db):
    """root > vision > classification > {fine-grained, few-shot, zero-shot}."""
    root = make_task(slug="root", name="Root")
    vision = make_task(slug="vision", name="Vision", parent=root)
    classification = make_task(slug="classification", name="Classification", parent=vision)
    for slug in ("zero-shot", "fine-grained", "few-shot"):
        make_task(slug=slug, name=slug.replace("-", " ").title(), parent=classification)
    return classification


# --- areas ----------------------------------------------------------------------------------


def test_area_list_and_detail(api, areas):
    page = get(api, f"{V1}/areas/")
    assert page["count"] == 3
    assert page["results"] == [
        {"id": "computer-vision", "name": "Computer Vision"},
        {"id": "medical", "name": "Medical"},
        {"id": "natural-language-processing", "name": "Natural Language Processing"},
    ]
    assert get(api, f"{V1}/areas/medical/") == {"id": "medical", "name": "Medical"}


def test_unknown_area_is_404(api, areas):
    assert "detail" in get(api, f"{V1}/areas/no-such-area/", expect=404)
    get(api, f"{V1}/areas/no-such-area/tasks/", expect=404)
    get(api, f"{V1}/areas/Medical/", expect=404)  # the id is the slug


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "vision"}, ["computer-vision"]),
        ({"q": "language natural"}, ["natural-language-processing"]),
        ({"q": "medical-x"}, []),
        ({"name": "COMPUTER"}, ["computer-vision"]),
        ({"name": "o"}, ["computer-vision", "natural-language-processing"]),
    ],
)
def test_area_filters(api, areas, params, expected):
    assert [a["id"] for a in walk(api, f"{V1}/areas/", **params)] == expected


def test_area_pages_in_both_modes(api, areas):
    expected = ["computer-vision", "medical", "natural-language-processing"]
    assert ids(get(api, f"{V1}/areas/", items_per_page=2, page=2)) == expected[2:]
    assert [a["id"] for a in walk(api, f"{V1}/areas/", items_per_page=1)] == expected
    assert [a["id"] for a in walk(api, f"{V1}/areas/", pagination="cursor", items_per_page=1)] == expected


def test_area_tasks_are_those_in_the_area_in_id_order(api, areas):
    page = get(api, f"{V1}/areas/computer-vision/tasks/")
    assert page["count"] == 3
    assert page["results"][0] == {
        "id": "image-classification",
        "name": "Image Classification",
        "description": "",
    }
    assert ids(page) == ["image-classification", "object-detection", "semantic-segmentation"]
    assert ids(get(api, f"{V1}/areas/medical/tasks/")) == ["semantic-segmentation"]
    assert ids(get(api, f"{V1}/areas/natural-language-processing/tasks/")) == []
    assert ids(get(api, f"{V1}/areas/computer-vision/tasks/", q="detect")) == ["object-detection"]
    assert ids(get(api, f"{V1}/areas/computer-vision/tasks/", name="image")) == ["image-classification"]
    cursor = walk(api, f"{V1}/areas/computer-vision/tasks/", pagination="cursor", items_per_page=2)
    assert [t["id"] for t in cursor] == ["image-classification", "object-detection", "semantic-segmentation"]
    assert ids(get(api, f"{V1}/areas/computer-vision/tasks/", items_per_page=2, page=2)) == [
        "semantic-segmentation"
    ]


# --- a task's parents and children ----------------------------------------------------------


def test_parents_are_the_chain_to_the_root_nearest_first(api, tree):
    parents = get(api, f"{V1}/tasks/few-shot/parents/")
    assert parents["count"] == 3
    assert parents["results"] == [
        {"id": "classification", "name": "Classification", "description": ""},
        {"id": "vision", "name": "Vision", "description": ""},
        {"id": "root", "name": "Root", "description": ""},
    ]
    assert ids(get(api, f"{V1}/tasks/vision/parents/")) == ["root"]
    assert get(api, f"{V1}/tasks/root/parents/")["results"] == []


def test_parents_page_by_number_and_have_no_cursor_mode(api, tree):
    assert ids(get(api, f"{V1}/tasks/zero-shot/parents/", items_per_page=2, page=2)) == ["root"]
    assert [t["id"] for t in walk(api, f"{V1}/tasks/zero-shot/parents/", items_per_page=1)] == [
        "classification", "vision", "root",
    ]  # fmt: skip
    assert list(get(api, f"{V1}/tasks/zero-shot/parents/", expect=400, pagination="cursor")) == ["pagination"]


def test_a_cycle_in_the_data_lists_each_parent_once(api, db):
    a, b, c = (make_task(slug=s) for s in "abc")
    for task, parent in ((a, b), (b, c), (c, a)):
        task.parent = parent
        task.save()
    assert ids(get(api, f"{V1}/tasks/a/parents/")) == ["b", "c"]
    assert ids(get(api, f"{V1}/tasks/c/parents/")) == ["a", "b"]
    a.parent = a
    a.save()
    assert ids(get(api, f"{V1}/tasks/a/parents/")) == []
    assert ids(get(api, f"{V1}/tasks/b/parents/")) == ["c", "a"]


def test_a_chain_deeper_than_the_guard_is_cut(api, db, monkeypatch):
    from catalogue.models import taxonomy

    monkeypatch.setattr(taxonomy, "MAX_TASK_DEPTH", 3)
    parent = None
    for n in range(6):
        parent = make_task(slug=f"level-{n}", parent=parent)
    assert ids(get(api, f"{V1}/tasks/level-5/parents/")) == ["level-4", "level-3", "level-2"]


def test_children_are_the_direct_subtasks_in_id_order(api, tree):
    assert ids(get(api, f"{V1}/tasks/classification/children/")) == ["few-shot", "fine-grained", "zero-shot"]
    assert ids(get(api, f"{V1}/tasks/root/children/")) == ["vision"]
    assert get(api, f"{V1}/tasks/few-shot/children/")["count"] == 0
    assert ids(get(api, f"{V1}/tasks/classification/children/", q="shot")) == ["few-shot", "zero-shot"]
    assert ids(get(api, f"{V1}/tasks/classification/children/", items_per_page=2, page=2)) == ["zero-shot"]
    cursor = walk(api, f"{V1}/tasks/classification/children/", pagination="cursor", items_per_page=2)
    assert [t["id"] for t in cursor] == ["few-shot", "fine-grained", "zero-shot"]


def test_the_task_list_filtered_by_parent_is_its_children(api, tree):
    # the site's /tasks/?parent=<id> and its JSON form
    assert ids(get(api, f"{V1}/tasks/", parent="classification")) == ["few-shot", "fine-grained", "zero-shot"]
    assert get(api, f"{V1}/tasks/", parent="few-shot")["count"] == 0


def test_unknown_task_parents_and_children_are_404(api, tree):
    get(api, f"{V1}/tasks/no-such-task/parents/", expect=404)
    get(api, f"{V1}/tasks/no-such-task/children/", expect=404)


# --- the query count does not grow with the page --------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "areas/",
        "areas/computer-vision/tasks/",
        "tasks/classification/children/",
        "tasks/few-shot/parents/",
    ],
)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, areas, tree, url, mode):
    if mode == "cursor" and url.endswith("parents/"):
        pytest.skip("a list bounded by its task, without cursor mode")
    assert_queries_do_not_grow_with_page_size(api, url, mode)


def test_query_counts_are_pinned(api, areas, tree):
    # the task, the chain (one recursive query), its tasks; nothing per level
    assert queries_and_rows(api, f"{V1}/tasks/few-shot/parents/")[0] == 3
    # the parent, count, rows
    assert queries_and_rows(api, f"{V1}/tasks/classification/children/")[0] == 3
    assert queries_and_rows(api, f"{V1}/areas/computer-vision/tasks/")[0] == 3
    assert queries_and_rows(api, f"{V1}/areas/")[0] == 2
