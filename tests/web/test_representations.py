"""One URL, two representations: a public page answers JSON (Accept or ``.json``) with the API's
own response for what it shows, HTML to browsers, ``Vary: Accept`` always, and neither form's
cached copy is ever served for the other."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Area, Task
from tests.conftest import SEEDS, load
from tests.factories import make_repo

GPIPE = "gpipe-efficient-training-of-giant-neural"
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
JSON = {"accept": "application/json"}

# Every page kind with a JSON form, and the API address whose answer it is.
PAGES = [
    (f"/paper/{GPIPE}", f"/api/v1/papers/{GPIPE}/"),
    ("/code/forward-step-func", "/api/v1/code-entries/forward-step-func/"),
    ("/body/c233d4777fc58003", "/api/v1/samples/?body=c233d4777fc58003"),
    ("/repo/pytorch/pippy", "/api/v1/repositories/pytorch/pippy/"),
    ("/sota/image-classification-on-imagenet", "/api/v1/evaluations/image-classification-on-imagenet/"),
    ("/task/image-classification", "/api/v1/tasks/image-classification/"),
    ("/method/gpipe", "/api/v1/methods/gpipe/"),
    ("/dataset/imagenet", "/api/v1/datasets/imagenet/"),
    ("/area/computer-vision", "/api/v1/areas/computer-vision/"),
    ("/author/Yanping%20Huang", "/api/v1/authors/Yanping%20Huang/"),
    ("/proceeding/neurips-2019-12", "/api/v1/conferences/neurips/proceedings/neurips-2019-12/"),
    ("/papers/", "/api/v1/papers/"),
    ("/papers/?official=1&year=2018", "/api/v1/papers/?official=true&year_max=2018&year_min=2018"),
    ("/code/", "/api/v1/code-entries/"),
    ("/tasks/?q=classification", "/api/v1/tasks/?q=classification"),
    ("/datasets/?task=image-classification", "/api/v1/datasets/?task=image-classification"),
    ("/methods/", "/api/v1/methods/"),
    ("/proceedings/", "/api/v1/conferences/"),
    ("/sota/", "/api/v1/areas/"),
]


@pytest.fixture
def seeded(db, api_throttle_off):
    load(*SEEDS)
    vision = Area.objects.create(slug="computer-vision", name="Computer Vision", stamp="s")
    vision.tasks.add(Task.objects.get(slug="image-classification"))


def json_address(page: str) -> str:
    path, _, query = page.partition("?")
    return path.rstrip("/") + ".json" + (f"?{query}" if query else "")


def varies_on_accept(response) -> bool:
    return "accept" in {v.strip().lower() for v in response.get("Vary", "").split(",")}


def test_every_page_kind_answers_json_with_the_apis_own_response(client, seeded):
    for page, api in PAGES:
        expected = client.get(api)
        assert expected.status_code == 200, api
        for response in (client.get(page, headers=JSON), client.get(json_address(page))):
            assert response.status_code == 200, (page, response.content[:300])
            assert response["Content-Type"] == "application/json", page
            assert response.content == expected.content, page
            assert varies_on_accept(response), page
        html = client.get(page, headers={"accept": BROWSER})
        assert html.status_code == 200, page
        assert html["Content-Type"].startswith("text/html"), page
        assert varies_on_accept(html), page
        alternate = f'<link rel="alternate" type="application/json" href="{json_address(page)}">'
        assert alternate.replace("&", "&amp;") in html.content.decode(), page


@pytest.mark.parametrize(
    "page",
    ["/", "/about", "/search?q=pipeline", "/area/tasks-in-no-area", "/papers/feed", "/papers/?sort=title"],
)
def test_a_page_with_no_json_form_answers_406_and_browsers_still_get_it(client, seeded, page):
    asked = [client.get(page, headers=JSON)] + ([client.get(json_address(page))] if page != "/" else [])
    for response in asked:
        assert response.status_code == 406, page
        assert "detail" in response.json()
        assert varies_on_accept(response)
    assert client.get(page, headers={"accept": BROWSER}).status_code == 200
    assert '<link rel="alternate" type="application/json"' not in client.get(page).content.decode()


def test_a_list_says_which_parameter_has_no_json_form(client, seeded):
    detail = client.get("/papers/?sort=title&task=image-classification", headers=JSON).json()["detail"]
    assert "sort" in detail
    assert "task" not in detail.split(":")[0]
    assert "/api/v1/papers/" in detail


def test_a_dotted_arxiv_id_keeps_its_redirect_and_gets_a_json_form(client, seeded):
    assert client.get("/paper/1811.06965")["Location"] == f"/paper/{GPIPE}"
    response = client.get("/paper/1811.06965.json")
    assert response.status_code == 200
    assert response.content == client.get(f"/api/v1/papers/{GPIPE}/").content


def test_a_name_that_ends_in_json_is_still_its_own_page(client, db, api_throttle_off):
    make_repo(owner="team", name="config.json")
    page = client.get("/repo/team/config.json", headers={"accept": BROWSER})
    assert page.status_code == 200
    assert "team/config.json" in page.content.decode()
    as_json = client.get("/repo/team/config.json.json")
    assert as_json.json()["name"] == "config.json"
    assert client.get("/repo/team/nothing.json").status_code == 404


@pytest.fixture
def cache_on(settings):
    settings.PAGE_CACHE_SECONDS = 60


def assert_each_is_its_own_cached_copy(client, page: str, built: dict) -> None:
    """Asked again, each representation (by its Accept header) is the copy first built for it."""
    for accept, response in built.items():
        with CaptureQueriesContext(connection) as ctx:
            again = client.get(page, headers={"accept": accept})
        assert len(ctx.captured_queries) == 1, accept  # the data version: a cached copy
        assert again.content == response.content
        assert again["Content-Type"] == response["Content-Type"]


def test_neither_representations_cached_copy_is_served_for_the_other(client, seeded, cache_on):
    page = f"/paper/{GPIPE}"
    for first, second in ((BROWSER, "application/json"), ("application/json", BROWSER)):
        built = {accept: client.get(page, headers={"accept": accept}) for accept in (first, second)}
        assert_each_is_its_own_cached_copy(client, page, built)
        assert built[BROWSER]["Content-Type"].startswith("text/html")
        assert built["application/json"]["Content-Type"] == "application/json"
        load(SEEDS[0], force=True)  # a new data version for the other order


def assert_the_form_costs_what_the_api_costs(client, pages, address) -> None:
    """Each page's other form (``address(page)``) runs the queries its API answer runs."""
    for page, api in pages:
        with CaptureQueriesContext(connection) as direct:
            client.get(api)
        with CaptureQueriesContext(connection) as via_page:
            client.get(address(page))
        assert len(via_page) == len(direct), page


def test_the_json_form_costs_what_the_api_costs(client, seeded):
    assert_the_form_costs_what_the_api_costs(client, PAGES[:3] + PAGES[11:12], json_address)


# --- the Markdown forms (issue 38): the same pages, the same answers, written as Markdown -----

MARKDOWN = {"accept": "text/markdown"}


def markdown_address(page: str) -> str:
    path, _, query = page.partition("?")
    return path.rstrip("/") + ".md" + (f"?{query}" if query else "")


def test_every_page_with_a_json_form_has_a_markdown_form(client, seeded):
    from catalogue import attribution

    for page, api in PAGES:
        expected = client.get(api).json()
        for response in (client.get(page, headers=MARKDOWN), client.get(markdown_address(page))):
            assert response.status_code == 200, (page, response.content[:300])
            assert response["Content-Type"] == "text/markdown; charset=utf-8", page
            assert varies_on_accept(response), page
            text = response.content.decode()
            assert text.startswith("# "), page
            assert attribution.NOTICE in text, page
            assert attribution.LICENCE_URL in text, page
            assert response["Link"].count(f'<{attribution.LICENCE_URL}>; rel="license"') == 1, page
            rows = expected.get("results", [expected]) if isinstance(expected, dict) else []
            for row in rows[:3]:  # what the API answers is what the Markdown says
                assert str(row.get("id", row.get("name", ""))) in text, page


@pytest.mark.parametrize("page", ["/", "/about", "/search?q=pipeline", "/papers/?sort=title"])
def test_a_page_with_no_json_form_has_no_markdown_form(client, seeded, page):
    asked = [client.get(page, headers=MARKDOWN)] + (
        [client.get(markdown_address(page))] if page != "/" else []
    )
    for response in asked:
        assert response.status_code == 406, page
        assert response["Content-Type"] == "text/markdown; charset=utf-8"
        assert varies_on_accept(response)


def test_the_markdown_form_sends_unknown_parameters_away_as_the_json_form_does(client, seeded):
    assert client.get("/papers.md?colour=blue")["Location"] == "/papers.md"
    assert client.get(f"/paper/{GPIPE}.md?colour=blue")["Location"] == f"/paper/{GPIPE}.md"
    assert client.get("/papers.md?task=a&task=b")["Location"] == "/papers.md?task=b"


def test_no_representations_cached_copy_is_served_for_another(client, seeded, cache_on):
    page = f"/paper/{GPIPE}"
    accepts = (BROWSER, "application/json", "text/markdown")
    built = {accept: client.get(page, headers={"accept": accept}) for accept in accepts}
    assert_each_is_its_own_cached_copy(client, page, built)
    assert built["text/markdown"]["Content-Type"].startswith("text/markdown")


def test_the_markdown_form_costs_what_the_api_costs(client, seeded):
    assert_the_form_costs_what_the_api_costs(client, PAGES[:1] + PAGES[11:12], markdown_address)


def test_a_code_bodys_text_is_in_its_markdown_form_only_where_its_page_shows_it(
    client, db, api_throttle_off, tmp_path
):
    from tests.code_bodies import MARKER, OPEN, SHA, entry_document, write

    load(write(tmp_path, "old.json", entry_document([OPEN])))
    shown = client.get(f"/body/{SHA}.md").content.decode()
    assert MARKER in shown
    assert "```python" in shown
    assert MARKER in client.get(f"/body/{SHA}").content.decode()  # as its page shows it
    # A newer reading: the only place that gave the text may no longer show it.
    newer = entry_document([{**OPEN, "inline_ok": False, "code": None}], read_at="2027-01-01T00:00:00+00:00")
    load(write(tmp_path, "new.json", newer))
    hidden = client.get(f"/body/{SHA}.md").content.decode()
    assert MARKER not in hidden
    assert "pointer only" in hidden
    assert MARKER not in client.get(f"/body/{SHA}").content.decode()


def test_a_boards_markdown_form_holds_its_rows_ranked_as_its_page(client, seeded):
    text = client.get("/sota/image-classification-on-imagenet.md").content.decode()
    assert "## Results, best first by Top 1 Accuracy (higher is better), page 1 of 1, 1 in all" in text
    assert "| 1 | GPIPE | GPipe: Efficient Training of Giant Neural Networks" in text
