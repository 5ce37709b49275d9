"""catalogue.api.queries: papers by any id, code links official first, and pages at a fixed query count."""

import pytest

from catalogue import models as m
from tests.api_helpers import GPIPE, V1, assert_queries_do_not_grow_with_page_size, get, queries_and_rows

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- a paper by any id --------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [GPIPE, "1811.06965", "1811.06965v5", "arxiv-1811-06965"],
    ids=["slug", "arxiv", "v5", "arxiv-slug"],
)
def test_paper_detail_by_any_id(api, loaded_seeds, address):
    paper = get(api, f"{V1}/papers/{address}/")
    assert paper["id"] == GPIPE
    assert paper["arxiv_id"] == "1811.06965"
    assert paper["authors"][:2] == ["Yanping Huang", "Youlong Cheng"]
    assert paper["published"] == "2018-11-16"
    assert paper["proceeding"] == "NeurIPS 2019 12"
    assert paper["url_pdf"] == "https://arxiv.org/pdf/1811.06965v5.pdf"


def test_paper_detail_keeps_old_slugs_working(api, loaded_seeds):
    paper = m.Paper.objects.get(arxiv_id="2510.16415")
    m.PaperSlug.objects.create(slug="mecefo-old-title", paper=paper, last_stamp="s")
    found = get(api, f"{V1}/papers/mecefo-old-title/")
    assert found["id"] == paper.slug
    assert "mecefo-old-title" in found["aliases"]


# --- a paper's code links, official first -------------------------------------------------


def test_official_links_come_first(api, loaded_seeds):
    link = m.CodeLink.objects.get(repo__key="github.com/tensorflow/lingvo")
    link.is_official = True
    link.save()
    repos = get(api, f"{V1}/papers/{GPIPE}/repositories/")["results"]
    assert repos[0]["name"] == "lingvo"
    assert repos[0]["is_official"] is True


# --- the query count does not grow with the page ------------------------------------------


LISTS = [
    "papers/",
    "papers/?q=training",
    "search/",
    f"papers/{GPIPE}/repositories/",
    f"papers/{GPIPE}/tasks/",
    f"papers/{GPIPE}/methods/",
    f"papers/{GPIPE}/results/",
    f"papers/{GPIPE}/samples/",
    "repositories/",
    "repositories/pytorch",
    "repositories/pytorch/pippy/samples/",
    "tasks/",
    "tasks/fine-grained-image-classification/evaluations/",
    "methods/",
    "evaluations/",
    "code-entries/",
    "code-entries/?paper=1811.06965",
    "samples/",
    "samples/?status=unverified&paper=1811.06965",
    "samples/?task=image-classification&dataset=Birdsnap&framework=pytorch",
]


NO_CURSOR = {f"papers/{GPIPE}/repositories/", f"papers/{GPIPE}/results/"}


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, loaded_seeds, url, mode):
    if mode == "cursor" and url in NO_CURSOR:
        pytest.skip("a list bounded by its parent, without cursor mode")
    assert_queries_do_not_grow_with_page_size(api, url, mode)


def test_query_count_of_a_nested_page_is_pinned(api, loaded_seeds):
    # page mode: count + rows + each prefetch; the exact figures catch an accidental N+1
    assert queries_and_rows(api, f"{V1}/samples/?items_per_page=50")[0] == 2
    assert queries_and_rows(api, f"{V1}/papers/?items_per_page=50")[0] == 3
    assert queries_and_rows(api, f"{V1}/code-entries/?items_per_page=50")[0] == 3
