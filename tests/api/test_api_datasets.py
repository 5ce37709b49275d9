"""/api/v1/datasets/ and /api/v1/papers/{id}/datasets/: PwC's Dataset shape, filters, order, pages."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api_helpers import V1, assert_queries_do_not_grow_with_page_size, get, ids, queries_and_rows, walk
from tests.factories import make_dataset, make_leaderboard, make_paper, make_result, make_task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


@pytest.fixture
def mnist(db):
    """A dataset with every field the archive can give, a task of its own and a leaderboard's."""
    paper = make_paper(slug="gradient-based-learning", title="Gradient-based learning")
    parent = make_dataset(name="NIST")
    dataset = make_dataset(
        name="MNIST",
        full_name="Modified National Institute of Standards and Technology",
        description="Handwritten digits.",
        homepage="http://yann.lecun.com/exdb/mnist/",
        introduced_date=datetime.date(1998, 11, 1),
        modalities=["Images"],
        languages=["English"],
        variants=["MNIST", "Binarized MNIST"],
        num_papers=6500,
        data_loaders=[
            {
                "url": "https://pytorch.org/vision",
                "repo": "https://github.com/pytorch/vision",
                "frameworks": ["pytorch"],
            }
        ],
        introduced_in=paper,
        parent=parent,
    )
    dataset.tasks.add(make_task(slug="image-generation", name="Image Generation"))
    make_leaderboard(
        task=make_task(slug="image-classification", name="Image Classification"), dataset=dataset
    )
    return dataset


# --- one dataset ----------------------------------------------------------------------------


def test_dataset_detail_has_pwc_fields_and_values(api, mnist):
    body = get(api, f"{V1}/datasets/mnist/")
    assert body == {
        "id": "mnist",
        "name": "MNIST",
        "full_name": "Modified National Institute of Standards and Technology",
        "url": "http://yann.lecun.com/exdb/mnist/",
        "description": "Handwritten digits.",
        "homepage": "http://yann.lecun.com/exdb/mnist/",
        "paper": {
            "id": "gradient-based-learning",
            "title": "Gradient-based learning",
            "url": "http://testserver/paper/gradient-based-learning",
        },
        "introduced_date": "1998-11-01",
        "modalities": ["Images"],
        "languages": ["English"],
        "variants": ["MNIST", "Binarized MNIST"],
        "num_papers": 6500,
        "tasks": ["image-classification", "image-generation"],
        "data_loaders": [
            {
                "url": "https://pytorch.org/vision",
                "repo": "https://github.com/pytorch/vision",
                "frameworks": ["pytorch"],
            },
        ],
        "parent": "nist",
    }


def test_a_dataset_known_only_by_name_is_served_with_empty_values(api, db):
    make_dataset(name="Birdsnap")
    body = get(api, f"{V1}/datasets/birdsnap/")
    assert body["full_name"] == ""
    assert body["description"] == ""
    assert body["homepage"] == ""
    assert body["url"] is None
    assert body["paper"] is None
    assert body["introduced_date"] is None
    assert body["num_papers"] is None
    assert body["parent"] is None
    assert body["modalities"] == body["languages"] == body["variants"] == body["tasks"] == []
    assert body["data_loaders"] == []


def test_the_paper_is_else_the_first_a_paper_document_names(api, db):
    dataset = make_dataset(name="CIFAR-10")
    for slug in ("zebra-paper", "alpha-paper"):
        make_paper(slug=slug).datasets_introduced.add(dataset)
    assert get(api, f"{V1}/datasets/cifar-10/")["paper"]["id"] == "alpha-paper"


def test_unknown_dataset_is_404(api, mnist):
    assert "detail" in get(api, f"{V1}/datasets/no-such-dataset/", expect=404)
    get(api, f"{V1}/datasets/MNIST/", expect=404)  # the id is the slug, not the name


def test_dataset_detail_has_an_etag(api, mnist):
    response = api.get(f"{V1}/datasets/mnist/")
    again = api.get(f"{V1}/datasets/mnist/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


# --- the list: filters, order, pages --------------------------------------------------------


@pytest.fixture
def shelf(mnist):
    make_dataset(name="ImageNet", full_name="ImageNet Large Scale", modalities=["Images"], num_papers=9000)
    make_dataset(name="SQuAD", full_name="Stanford Question Answering", modalities=["Texts"],
                 languages=["English"])  # fmt: skip
    make_dataset(name="FQuAD", full_name="French Question Answering", modalities=["Texts", "Speech"],
                 languages=["French", "Français"])  # fmt: skip
    make_dataset(name="Textures", modalities=["Textures"])
    squad = make_task(slug="question-answering", name="Question Answering")
    squad.datasets.add(*type(mnist).objects.filter(slug__in=["squad", "fquad"]))
    return mnist


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, ["fquad", "imagenet", "mnist", "nist", "squad", "textures"]),
        ({"q": "question"}, ["fquad", "squad"]),
        ({"q": "french answering"}, ["fquad"]),
        ({"q": "mnist"}, ["mnist"]),
        ({"name": "quad"}, ["fquad", "squad"]),
        ({"name": "Standards"}, []),
        ({"full_name": "standards"}, ["mnist"]),
        ({"modality": "images"}, ["imagenet", "mnist"]),
        ({"modality": "Text"}, []),
        ({"modality": "texts"}, ["fquad", "squad"]),
        ({"modality": " Speech "}, ["fquad"]),
        ({"modality": ", "}, []),  # not the separator between two items
        ({"language": "english"}, ["mnist", "squad"]),
        ({"language": "FRANçAIS"}, ["fquad"]),  # the other item's "French" does not match either
        ({"language": "français"}, ["fquad"]),
        ({"task": "question-answering"}, ["fquad", "squad"]),
        ({"task": "image-generation"}, ["mnist"]),  # named by the dataset
        ({"task": "image-classification"}, ["mnist"]),  # through its leaderboard
        ({"task": "question-answering", "language": "french"}, ["fquad"]),
    ],
)
def test_dataset_filters(api, shelf, params, expected):
    assert [d["id"] for d in walk(api, f"{V1}/datasets/", **params)] == expected


def test_an_unknown_task_is_a_400_naming_it(api, shelf):
    body = get(api, f"{V1}/datasets/", expect=400, task="no-such-task")
    assert list(body) == ["task"]


def test_an_unknown_parameter_is_refused_as_elsewhere(api, shelf):
    assert list(get(api, f"{V1}/datasets/", expect=400, colour="blue")) == ["colour"]


def test_both_pagination_modes_walk_the_list_in_id_order_once(api, shelf):
    expected = ["fquad", "imagenet", "mnist", "nist", "squad", "textures"]
    first = get(api, f"{V1}/datasets/", items_per_page=4)
    assert first["count"] == 6
    assert ids(first) == expected[:4]
    second = get(api, f"{V1}/datasets/", items_per_page=4, page=2)
    assert ids(second) == expected[4:]
    assert second["next"] is None
    get(api, f"{V1}/datasets/", expect=404, items_per_page=4, page=3)
    cursor = walk(api, f"{V1}/datasets/", pagination="cursor", items_per_page=2)
    assert [d["id"] for d in cursor] == expected
    assert "count" not in get(api, f"{V1}/datasets/", pagination="cursor")
    filtered = walk(api, f"{V1}/datasets/", pagination="cursor", items_per_page=1, modality="texts")
    assert [d["id"] for d in filtered] == ["fquad", "squad"]


# --- a paper's datasets ---------------------------------------------------------------------


@pytest.fixture
def paper_with_datasets(db):
    paper = make_paper(slug="the-paper", arxiv_id="2401.99999")
    listed = make_dataset(name="Listed")  # a paper document names it
    paper.datasets_introduced.add(listed)
    make_dataset(name="Recorded", introduced_in=paper)  # the dataset's own record says so
    both = make_dataset(name="Both", introduced_in=paper)
    make_result(paper=paper, leaderboard=make_leaderboard(dataset=both))
    make_result(paper=paper, leaderboard=make_leaderboard(dataset=make_dataset(name="Evaluated")))
    twice = make_dataset(name="Twice")
    for _ in range(2):  # two boards on one dataset: listed once
        make_result(paper=paper, leaderboard=make_leaderboard(dataset=twice))
    # someone else's
    other = make_paper(slug="other-paper")
    other.datasets_introduced.add(make_dataset(name="Unrelated"))
    make_result(paper=other, leaderboard=make_leaderboard(dataset=listed))
    return paper


def test_paper_datasets_are_those_it_introduced_and_evaluated_on(api, paper_with_datasets):
    rows = get(api, f"{V1}/papers/the-paper/datasets/")["results"]
    assert [(d["id"], d["introduced"], d["evaluated"]) for d in rows] == [
        ("both", True, True),
        ("evaluated", False, True),
        ("listed", True, False),
        ("recorded", True, False),
        ("twice", False, True),
    ]
    assert get(api, f"{V1}/papers/2401.99999/datasets/")["count"] == 5  # by arXiv id too
    assert ids(get(api, f"{V1}/papers/other-paper/datasets/")) == ["listed", "unrelated"]


def test_paper_datasets_filter_and_page(api, paper_with_datasets):
    assert ids(get(api, f"{V1}/papers/the-paper/datasets/", q="twice")) == ["twice"]
    cursor = walk(api, f"{V1}/papers/the-paper/datasets/", pagination="cursor", items_per_page=2)
    assert [d["id"] for d in cursor] == ["both", "evaluated", "listed", "recorded", "twice"]
    second = get(api, f"{V1}/papers/the-paper/datasets/", items_per_page=2, page=2)
    assert ids(second) == ["listed", "recorded"]
    assert second["count"] == 5


def test_unknown_paper_datasets_is_404(api, paper_with_datasets):
    get(api, f"{V1}/papers/no-such-paper/datasets/", expect=404)


# --- the query count does not grow with the page --------------------------------------------


@pytest.mark.parametrize(
    "url", ["datasets/", "datasets/?modality=texts", "papers/the-paper/datasets/", "datasets/?task=qa"]
)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, shelf, paper_with_datasets, url, mode):
    qa = make_task(slug="qa")
    for dataset in type(shelf).objects.all():
        dataset.tasks.add(qa)
        dataset.introduced_by.add(make_paper(), make_paper())
        make_leaderboard(dataset=dataset)
    assert_queries_do_not_grow_with_page_size(api, url, mode)


def test_query_count_of_a_dataset_page_is_pinned(api, shelf):
    # count + rows (paper and parent joined) + introducing papers + tasks + leaderboards' tasks
    assert queries_and_rows(api, f"{V1}/datasets/?items_per_page=50")[0] == 5
    with CaptureQueriesContext(connection) as captured:
        get(api, f"{V1}/datasets/mnist/")
    assert len(captured) == 4
