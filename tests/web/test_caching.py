"""catalogue.caching: pages and API answers cached at the data's version, with HTTP validators.

Each test turns the cache on (tests/conftest.py turns it off by default), warms it, checks a
copy is served (only the data-version query runs), then moves the data the two ways the site
promises to notice at once, a load_snapshot and a curator's correction, and checks the next
answer shows it, for a page and for the API's list and detail.
"""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import curation
from catalogue.figures import code_entry_figures
from catalogue.models import Paper
from tests.conftest import PAPER_SEED, SEEDS, load

SLUG = "gpipe-efficient-training-of-giant-neural"
TITLE = "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism"
PAGE = f"/paper/{SLUG}"
API_DETAIL = f"/api/v1/papers/{SLUG}/"
API_LIST = "/api/v1/papers/?ordering=title"
URLS = [PAGE, API_DETAIL, API_LIST]


@pytest.fixture
def cache_on(settings):
    settings.PAGE_CACHE_SECONDS = 60
    settings.HTTP_MAX_AGE = 60
    settings.HTTP_S_MAXAGE = 300
    # Pages read static files through the finders: the suite never runs collectstatic.
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True
    settings.API_THROTTLE_ANON = "off"


def body(client, url, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code, response.content[:300])
    return response


def served_from_cache(client, url) -> bytes:
    with CaptureQueriesContext(connection) as ctx:
        content = body(client, url).content
    assert len(ctx.captured_queries) == 1, [q["sql"] for q in ctx.captured_queries]  # data_version
    return content


def reload_with_title(tmp_path, title: str) -> None:
    seed = next(s for s in SEEDS if json.loads(s.read_text()).get("title") == TITLE)
    doc = json.loads(seed.read_text())
    doc["title"] = title
    doc["read_at"] = "2027-01-01T00:00:00+00:00"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc))
    load(path)


@pytest.mark.parametrize("url", URLS)
def test_a_copy_is_served_until_a_load_changes_the_data(client, loaded_seeds, cache_on, tmp_path, url):
    first = body(client, url).content
    assert TITLE in first.decode()
    assert served_from_cache(client, url) == first

    reload_with_title(tmp_path, "GPipe, as the newer snapshot names it")

    fresh = body(client, url).content.decode()
    assert "GPipe, as the newer snapshot names it" in fresh
    assert TITLE not in fresh
    assert served_from_cache(client, url).decode() == fresh


@pytest.mark.parametrize("url", URLS)
def test_a_copy_is_served_until_a_curator_corrects(client, loaded_seeds, cache_on, url):
    body(client, url)
    served_from_cache(client, url)

    curator = get_user_model().objects.create(username="curator")
    paper = Paper.objects.get(slug=SLUG)
    correction = curation.correct_title(
        paper, "GPipe (title corrected)", user=curator, reason="typo", expected_version=None
    )
    assert "GPipe (title corrected)" in body(client, url).content.decode()

    curation.remove_correction(correction, user=curator, reason="undo")
    shown = body(client, url).content.decode()
    assert "GPipe (title corrected)" not in shown
    assert "GPipe" in shown


@pytest.mark.parametrize("url", URLS)
def test_validators_and_cache_control_a_cdn_can_honour(client, loaded_seeds, cache_on, url):
    first = body(client, url)
    etag, last_modified = first["ETag"], first["Last-Modified"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    directives = {d.strip() for d in first["Cache-Control"].split(",")}
    assert directives == {"public", "max-age=60", "s-maxage=300"}

    # The copy carries the same validators; a client holding it gets 304 without a body.
    again = body(client, url)
    assert (again["ETag"], again["Last-Modified"]) == (etag, last_modified)
    not_modified = client.get(url, headers={"if-none-match": etag})
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    assert client.get(url, headers={"if-modified-since": last_modified}).status_code == 304


@pytest.mark.parametrize("url", URLS)
def test_a_load_makes_an_old_etag_stale(client, loaded_seeds, cache_on, tmp_path, url):
    etag = body(client, url)["ETag"]
    reload_with_title(tmp_path, "GPipe, renamed")
    response = client.get(url, headers={"if-none-match": etag})
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert "GPipe, renamed" in response.content.decode()


def test_a_validator_is_sent_even_when_the_copy_was_evicted(client, loaded_seeds, cache_on):
    from django.core.cache import cache

    etag = body(client, API_DETAIL)["ETag"]
    cache.clear()
    assert client.get(API_DETAIL, headers={"if-none-match": etag}).status_code == 304


def test_errors_and_other_methods_are_not_cached(client, loaded_seeds, cache_on):
    missing = client.get("/api/v1/papers/no-such-paper/")
    assert missing.status_code == 404
    assert "public" not in missing.get("Cache-Control", "")
    assert client.get("/paper/no-such-paper").status_code == 404
    head = client.head(PAGE)
    assert head.status_code == 200
    assert not head.has_header("ETag")


def test_pages_and_api_keep_apart_and_keep_their_content_type(client, loaded_seeds, cache_on):
    for _ in range(2):
        assert body(client, PAGE)["Content-Type"].startswith("text/html")
        assert body(client, API_DETAIL)["Content-Type"] == "application/json"
        ascending = [p["id"] for p in body(client, API_LIST).json()["results"]]
        descending = [p["id"] for p in body(client, "/api/v1/papers/?ordering=-title").json()["results"]]
        assert len(ascending) > 1
        assert descending == ascending[::-1]


def test_the_cache_off_sends_no_public_cache_control(client, loaded_seeds, cache_on, settings):
    settings.PAGE_CACHE_SECONDS = 0
    for url in URLS:
        response = body(client, url)
        assert "public" not in response.get("Cache-Control", "")


# --- remembered figures (catalogue.memo) ------------------------------------------------------

ENTRY = "/code/forward-step-func"
FIGURE_URLS = ["/", ENTRY, "/api/v1/papers/?items_per_page=2", "/api/v1/code-entries/forward-step-func/"]


@pytest.fixture
def figures_on(settings):
    settings.FIGURES_CACHE_SECONDS = 600  # pages themselves stay uncached: PAGE_CACHE_SECONDS=0
    settings.API_THROTTLE_ANON = "off"


def counting_queries(client, url) -> int:
    """How many of the queries building ``url`` count or aggregate rows."""
    with CaptureQueriesContext(connection) as ctx:
        body(client, url)
    return sum("COUNT(" in q["sql"].upper() for q in ctx.captured_queries)


@pytest.mark.parametrize("url", FIGURE_URLS)
def test_figures_are_counted_once_per_data_version(client, loaded_seeds, figures_on, url, settings):
    first = counting_queries(client, url)
    again = counting_queries(client, url)
    assert again < first  # the counts and figures were read back, not counted again
    settings.FIGURES_CACHE_SECONDS = 0
    assert counting_queries(client, url) == first


def test_a_load_moves_the_remembered_counts(client, loaded_seeds, figures_on, tmp_path):
    from catalogue import reads

    papers = reads.papers.catalogue_counts().papers
    assert body(client, "/api/v1/papers/").json()["count"] == papers
    doc = json.loads(PAPER_SEED.read_text())
    doc.update(
        url="/paper/a-paper-new-here",
        arxiv_id="2601.00001",
        url_abs="https://arxiv.org/abs/2601.00001",
        url_pdf="https://arxiv.org/pdf/2601.00001.pdf",
        title="A paper new here",
    )
    del doc["syntology"]  # its figures and links are GPipe's
    (tmp_path / "new.json").write_text(json.dumps(doc))
    load(tmp_path / "new.json")
    assert reads.papers.catalogue_counts().papers == papers + 1
    assert body(client, "/api/v1/papers/").json()["count"] == papers + 1
    assert f"{papers + 1:,}" in body(client, "/").content.decode()


def test_a_correction_moves_the_remembered_figures(client, loaded_seeds, figures_on):
    from catalogue.models import CodeEntry, Sample

    entry = CodeEntry.objects.get(name="forward_step_func")
    before = body(client, ENTRY).context["figures"]
    curator = get_user_model().objects.create(username="curator")
    sample = Sample.objects.filter(entry=entry, status="unverified").first()
    curation.correct_status(sample, "ran_honours", user=curator, reason="ran it", expected_version=None)
    after = body(client, ENTRY).context["figures"]
    assert after.n_samples_ran == before.n_samples_ran + 1
    assert after == code_entry_figures(entry)


@pytest.mark.parametrize("url", ["/search?q=pipeline", "/api/v1/papers/?q=pipeline"])
def test_a_querys_ranked_hits_are_found_once_per_data_version(
    client, loaded_seeds, figures_on, url, settings
):
    def ranking_queries():
        with CaptureQueriesContext(connection) as ctx:
            shown = body(client, url).content
        return sum("bm25(" in q["sql"] or "ts_rank_cd(" in q["sql"] for q in ctx.captured_queries), shown

    ranked_first, first = ranking_queries()
    ranked_again, again = ranking_queries()
    assert ranked_first == 1
    assert ranked_again == 0
    assert again == first


def test_a_list_django_knows_is_empty_counts_zero_with_figures_remembered(client, loaded_seeds, figures_on):
    # schemathesis found it: a `q` nothing matches filters on no ids, which compiles to no SQL
    response = body(client, "/api/v1/papers/?q=zzyzxqq")
    assert response.json()["count"] == 0


def test_conferences_are_kept_in_process_until_the_data_changes(db, figures_on):
    from catalogue import conferences, memo
    from tests.factories import make_paper

    make_paper(proceeding="NeurIPS 2019 12")
    first = conferences.summaries()
    assert [c.id for c in first] == ["neurips"]
    assert conferences.summaries() is first  # the same object: no unpickling per request
    load(PAPER_SEED)  # a load moves the data version
    second = conferences.summaries()
    assert second is not first
    memo.forget_in_process()
    third = conferences.summaries()  # from the shared cache again: equal, another object
    assert third == second
    assert third is not second
