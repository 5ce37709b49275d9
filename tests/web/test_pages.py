"""The public pages: what they show, that it is escaped, that figures agree, and that they stay cheap."""

import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.views.defaults import server_error

from catalogue import attribution, queries
from catalogue import models as m
from catalogue.addresses import api_url
from catalogue.figures import catalogue_figures, code_entry_figures, code_entry_figures_for, paper_figures
from catalogue.pagination import keyset
from catalogue.templatetags.pages import status_explanation
from tests import factories
from tests.conftest import SEEDS
from tests.factories import (
    make_body,
    make_entry,
    make_leaderboard,
    make_paper,
    make_repo,
    make_result,
    reindex_search,
)
from tests.pages import html

pytestmark = pytest.mark.django_db

GPIPE = "/paper/gpipe-efficient-training-of-giant-neural"
SEED_PAGES = [
    "/",
    "/search?q=training",
    "/search?q=gpipe&kind=paper",
    "/papers/",
    "/papers/?sort=title",
    "/papers/?sort=samples&ran=1",
    GPIPE,
    "/paper/arxiv-2510-16415",
    "/code/",
    "/code/?sort=ran",
    "/code/?q=forward",
    "/code/forward-step-func",
    "/code/check-args-torchrun-main?status=unverified",
    "/body/c233d4777fc58003",
    "/repo/pytorch/pippy",
    "/sota/image-classification-on-imagenet",
    "/sota/fine-grained-image-classification-on-birdsnap",
    "/task/image-classification",
    "/method/gpipe",
    "/sota/",
    "/tasks/?sort=leaderboards",
    "/datasets/?modality=Images",
    "/dataset/imagenet",
    "/methods/",
    "/author/Yanping%20Huang",
    "/proceedings/",
    "/about",
    "/attribution",
    "/data/",
]


@pytest.fixture(autouse=True)
def page_settings(settings):
    # WhiteNoise warns (an error here) when STATIC_ROOT was never collected; serve from finders.
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True
    # Pages are built afresh in every test but the cache's own (test_page_cache_*).
    settings.PAGE_CACHE_SECONDS = 0


def make_sample(**fields):
    # The snapshot's status goes beside the shown one (curation); the shared builder predates it.
    fields.setdefault("status", m.Status.UNVERIFIED)
    fields.setdefault("status_upstream", fields["status"])
    return factories.make_sample(**fields)


# --- every page renders, with the shared frame --------------------------------------


@pytest.mark.parametrize("url", SEED_PAGES)
def test_every_page_renders_with_attribution_and_no_inline_style_or_script(client, loaded_seeds, url):
    page = html(client, url)
    assert attribution.SOURCE in page  # the full notice (tests/web/test_attribution.py)
    assert attribution.NON_AFFILIATION in page
    assert 'href="/about"' in page
    assert '<meta name="description" content="' in page
    assert '<meta property="og:title"' in page
    assert not re.search(r"\sstyle=", page), "inline style attribute"
    scripts = re.findall(r"<script[^>]*>", page)
    assert all(s == '<script type="application/ld+json">' for s in scripts), scripts


def test_robots_and_sitemaps(client, loaded_seeds, monkeypatch):
    robots = html(client, "/robots.txt")
    assert "Sitemap: http://testserver/sitemap.xml" in robots
    assert "Disallow: /search" in robots
    index = html(client, "/sitemap.xml")
    for section in ("papers", "code", "repositories", "leaderboards", "tasks", "methods", "pages"):
        assert f"/sitemap-{section}.xml" in index
    papers = html(client, "/sitemap-papers.xml")
    assert f"http://testserver{GPIPE}</loc>" in papers
    assert "/repo/pytorch/pippy</loc>" in html(client, "/sitemap-repositories.xml")

    from catalogue import sitemaps

    monkeypatch.setattr(sitemaps.PaperSitemap, "limit", 5)
    index = html(client, "/sitemap.xml")
    assert "/sitemap-papers.xml?p=3" in index  # 13 papers, 5 a page
    assert html(client, "/sitemap-papers.xml?p=3").count("<loc>") == 3


def test_not_found_is_a_friendly_page(client, loaded_seeds):
    page = html(client, "/paper/no-such-paper", status=404)
    assert "Nothing here" in page
    assert "CC BY-SA 4.0" in page


def test_server_error_page_needs_no_context(rf):
    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "CC BY-SA 4.0" in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/paper/%00",
        "/paper/" + "x" * 4000,  # longer is a 414 (config.request_checks)
        "/code/%00evil",
        "/code/no-such-entry",
        "/body/C233D4777FC58003",
        "/body/c233",
        "/body/0000000000000000",
        "/repo/pytorch/pippy?host=gitlab.com",
        "/repo/nobody/nothing",
        "/sota/no-such-board",
        "/task/%00",
        "/method/nope",
    ],
)
def test_unknown_addresses_are_404(client, loaded_seeds, url):
    html(client, url, status=404)


@pytest.mark.parametrize(
    "query",
    [
        "?page=abc",
        "?page=-1",
        "?page=99999999999999999999",
        "?after=%%%",
        "?after=bm90IGpzb24",
        "?after=WyJ4IiwieSJd",  # ["x","y"]: a cursor of the wrong types
        "?before=" + "A" * 4000,
        "?q=" + "training%20" * 300,
        "?year=99999999999999",
        "?year=abc",
        "?sort=%ff",
        "?status=bogus",
        "?task=%ed%a0%80&method=..",
        "?kind=x&official=%ff",
        "?metric=%2F",
        "?host=%20",
    ],
)
@pytest.mark.parametrize(
    "path",
    [
        "/papers/",
        "/search",
        "/code/",
        "/code/forward-step-func",
        "/body/c233d4777fc58003",
        "/repo/pytorch/pippy",
    ],
)
def test_malformed_query_strings_give_a_page(client, loaded_seeds, path, query):
    # A parameter the page does not read sends it to its address without it (one redirect).
    response = client.get(path + query, follow=True)
    assert response.status_code == 200, (path, query, response.status_code)
    assert len(response.redirect_chain) <= 1


# --- the paper page ---------------------------------------------------------------------


def test_paper_page_shows_what_a_reader_needs(client, loaded_seeds):
    page = html(client, GPIPE)
    for text in (
        "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
        "Yanping Huang",
        "16 November 2018",
        "NeurIPS 2019 12",
        'href="https://arxiv.org/abs/1811.06965v5"',
        'href="https://arxiv.org/pdf/1811.06965v5.pdf"',
        'href="/task/image-classification"',
        'href="/method/gpipe"',
        "Methods introduced",
        'href="/repo/KakaoBrain/torchgpipe"',
        "BSD-3-Clause",
        "4 of 5",
        "316 of 1060",
        "Top 1 Accuracy: <strong>84.4%</strong>",
        'href="/sota/image-classification-on-imagenet"',
        "Syntology’s claim:",
        "Per-sample execution status on synthesized fixtures",
        "25 September 2026",
        "pointer only",
        "OUTPUT_MISDECLARED",
        "deterministic",
        'href="/body/effafd8df78cdde1"',
        'href="https://github.com/alondj/Pytorch-Gpipe/blob/HEAD/sample_models/AlexNet.py"',
    ):
        assert text in page, text
    # Harvested samples are grouped by repository.
    groups = re.findall(r'<h3 class="repo-group"><a href="/repo/([^"]+)"', page)
    assert groups == ["alondj/Pytorch-Gpipe", "KakaoBrain/torchgpipe", "pytorch/pippy"]


def test_paper_page_marks_an_inferred_month(client, loaded_seeds):
    page = html(client, "/paper/arxiv-2510-16415")
    assert "October 2025" in page
    assert "inferred from the arXiv id" in page
    assert "inferred" not in html(client, GPIPE).split('<main id="main"')[1].split("Abstract")[0]


def test_paper_page_badges_official_and_mentioned_code(client, db):
    paper = make_paper()
    official, mentioned = make_repo(), make_repo()
    for repo, flags in ((official, {"is_official": True}), (mentioned, {"mentioned_in_paper": True})):
        m.CodeLink.objects.create(
            paper=paper, repo=repo, repo_url=repo.url, framework="jax", stamp="s", **flags
        )
    page = html(client, paper.get_absolute_url())
    assert 'class="badge badge-official"' in page
    assert 'class="badge badge-mentioned"' in page
    assert page.index(official.full_name) < page.index(mentioned.full_name)  # official first
    assert "jax" in page


def test_old_slugs_and_arxiv_addresses_redirect_permanently(client, loaded_seeds):
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    m.PaperSlug.objects.create(slug="gpipe-old-slug", paper=paper, last_stamp="s")
    for old in ("/paper/gpipe-old-slug", "/paper/arxiv-1811-06965"):
        response = client.get(old)
        assert response.status_code == 301
        assert response["Location"] == GPIPE


def test_json_ld_describes_the_paper(client, loaded_seeds):
    page = html(client, GPIPE)
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])
    assert data["@type"] == "ScholarlyArticle"
    assert data["headline"].startswith("GPipe")
    assert data["author"][0] == {"@type": "Person", "name": "Yanping Huang"}
    assert data["datePublished"] == "2018-11-16"
    assert data["identifier"] == "arXiv:1811.06965"


def test_pages_link_their_json_form(client, loaded_seeds):
    cases = {
        GPIPE: "/api/v1/papers/gpipe-efficient-training-of-giant-neural/",
        "/code/forward-step-func": "/api/v1/code-entries/forward-step-func/",
        "/repo/pytorch/pippy": "/api/v1/repositories/pytorch/pippy/",
        "/task/image-classification": "/api/v1/tasks/image-classification/",
        "/method/gpipe": "/api/v1/methods/gpipe/",
        "/sota/image-classification-on-imagenet": "/api/v1/evaluations/image-classification-on-imagenet/",
        "/body/c233d4777fc58003": "/api/v1/samples/?body=c233d4777fc58003",
    }
    for url, api in cases.items():
        page = html(client, url)
        json_form = url.split("?")[0] + ".json"
        assert f'<link rel="alternate" type="application/json" href="{json_form}">' in page, url
        assert f'<a href="{api}" type="application/json">' in page, url


def test_api_urls_quote_path_segments():
    assert api_url("papers", "a/b c") == "/api/v1/papers/a%2Fb%20c/"
    assert api_url("samples", body="abc") == "/api/v1/samples/?body=abc"


# --- untrusted text -------------------------------------------------------------------

EVIL = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


@pytest.fixture
def evil_catalogue(db):
    task = m.Task.objects.create(slug="evil-task", name=EVIL, stamp="s")
    method = m.Method.objects.create(slug="evil-method", name=EVIL, full_name=EVIL, stamp="s")
    paper = make_paper(
        title=f"Evil {EVIL}",
        abstract=f"</script><script>alert(3)</script> {EVIL}",
        proceeding=EVIL,
        slug="evil",
        date=None,
    )
    paper.tasks.add(task)
    paper.methods.add(method)
    paper.methods_introduced.add(method)
    m.Author.objects.create(paper=paper, position=0, name=EVIL)
    repo = make_repo(owner="evil", name="repo", spdx=EVIL)
    m.CodeLink.objects.create(paper=paper, repo=repo, repo_url=repo.url, framework=EVIL, stamp="s")
    entry = make_entry(name=f"evil_{EVIL}", slug="evil-entry")
    body = make_body(sha256_prefix="00000000000000ee")
    make_sample(paper=paper, entry=entry, body=body, repo=repo, path=EVIL, licence=EVIL, contract_check=EVIL)
    board = make_leaderboard(task=task, slug="evil-board")
    make_result(paper=paper, leaderboard=board, model=EVIL, metrics={EVIL: EVIL, "Accuracy": "9%"})
    reindex_search()
    return paper


EVIL_PAGES = [
    "/",
    "/search?q=evil",
    "/search?q=evil&task=evil-task",
    "/papers/",
    "/paper/evil",
    "/code/",
    "/code/evil-entry",
    "/body/00000000000000ee",
    "/repo/evil/repo",
    "/sota/evil-board",
    "/task/evil-task",
    "/method/evil-method",
]


@pytest.mark.parametrize("url", EVIL_PAGES)
def test_snapshot_text_is_shown_as_text_everywhere(client, evil_catalogue, url):
    page = html(client, url)
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "alert(" in page  # the text is there, escaped
    scripts = re.findall(r"<script[^>]*>", page)
    assert all(s == '<script type="application/ld+json">' for s in scripts)
    for content in re.findall(r'content="([^"]*)"', page):
        assert "<" not in content
        assert ">" not in content


def test_json_ld_cannot_be_broken_out_of(client, evil_catalogue):
    page = html(client, "/paper/evil")
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1  # the abstract's </script> did not close it early
    data = json.loads(blocks[0])
    assert data["headline"] == f"Evil {EVIL}"
    assert data["abstract"].startswith("</script><script>alert(3)")
    assert data["author"] == [{"@type": "Person", "name": EVIL}]


# --- figures come from the query module -----------------------------------------------


def test_figures_on_pages_are_the_query_modules(client, loaded_seeds):
    home = client.get("/")
    assert home.context["figures"] == catalogue_figures()
    assert home.context["counts"] == queries.catalogue_counts()

    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    paper = client.get(GPIPE)
    assert paper.context["paper_figures"] == paper_figures(gpipe)

    entry = m.CodeEntry.objects.get(name="forward_step_func")
    entry_page = client.get("/code/forward-step-func")
    assert entry_page.context["figures"] == code_entry_figures(entry)

    listing = client.get("/code/")
    entries = [e for e, _ in listing.context["rows"]]
    assert {e.pk: f for e, f in listing.context["rows"]} == code_entry_figures_for(entries)

    papers = client.get("/papers/").context["page"].items
    for row in papers:
        assert row.figures == paper_figures(row).samples


def test_figures_match_what_the_seed_document_states(client, loaded_seeds, seed_docs):
    doc = next(d for d in seed_docs.values() if d.get("entry") == "forward_step_func")
    page = html(client, "/code/forward-step-func")
    figures = re.findall(r"<dt>([^<]+)</dt><dd>([\d,]+)</dd>", page)
    shown = {label: int(value.replace(",", "")) for label, value in figures}
    assert shown["Places"] == doc["n_places"]
    # a sub-count that is 0 is not shown as a tile (issue 37)
    assert shown.get("pointer-only places", 0) == doc["n_places_pointer_only"]
    assert shown["Code bodies (samples)"] == doc["n_samples"]
    assert shown["Samples ran"] == doc["n_samples_ran"]
    assert shown["Papers"] == doc["n_papers"]
    assert shown["Papers with a sample that ran"] == doc["n_papers_ran"]
    desc = re.search(r'<desc id="entry-status-d">(.*?)</desc>', page)[1]
    for status, count in doc["by_status"].items():
        assert f"{status}: {count}" in desc


def test_a_corrected_status_moves_the_figures_on_the_page(client, loaded_seeds):
    entry = m.CodeEntry.objects.get(name="forward_step_func")
    before = client.get("/code/forward-step-func").context["figures"]
    m.Sample.objects.filter(entry=entry, status="unverified").update(status="ran_honours")
    after = client.get("/code/forward-step-func").context["figures"]
    assert after.n_samples_ran > before.n_samples_ran
    assert after == code_entry_figures(entry)


# --- statuses explain themselves ----------------------------------------------------


def test_status_badges_explain_themselves_and_instrument_failures_say_so(client, loaded_seeds):
    page = html(client, GPIPE)
    assert f'title="{status_explanation("ran_draft_wrong")}"' in page.replace("&#x27;", "'")
    assert "not of the code" in status_explanation("ran_draft_wrong")
    assert "not of the code" in status_explanation("ran_fixture")
    assert "not of the code" not in status_explanation("ran_violates")
    assert "What the statuses mean" in page
    about = html(client, "/about")
    assert about.count("A failure of the instrument, not of the code") == 2
    for status in m.Status:
        assert status.value in about
    assert "CC BY-SA 4.0" in about
    assert "modified by Syntology" in about
    assert "not affiliated" in about


# --- lists, filters and pagination ---------------------------------------------------


def test_keyset_pagination_walks_every_paper_once_in_order(client, db):
    papers = [make_paper(arxiv_id=f"23{(i % 12) + 1:02d}.{i:05d}") for i in range(60)]
    seen, url = [], "/papers/"
    for _ in range(10):
        response = client.get(url)
        page = response.context["page"]
        seen += [p.pk for p in page.items]
        if not page.next_cursor:
            break
        url = "/papers/?after=" + page.next_cursor
    expected = sorted(papers, key=lambda p: (p.month, p.pk), reverse=True)
    assert seen == [p.pk for p in expected]

    second = client.get("/papers/?after=" + client.get("/papers/").context["page"].next_cursor)
    back = client.get("/papers/?before=" + second.context["page"].prev_cursor).context["page"]
    assert [p.pk for p in back.items] == [p.pk for p in expected[: keyset.PAGE_SIZE]]
    assert back.prev_cursor is None


def test_paper_filters(client, db):
    task = m.Task.objects.create(slug="t", name="T", stamp="s")
    tagged = make_paper(arxiv_id="2001.00001")
    tagged.tasks.add(task)
    official = make_paper(arxiv_id="2101.00001")
    m.CodeLink.objects.create(
        paper=official, repo=make_repo(), repo_url="https://github.com/a/b", is_official=True, stamp="s"
    )
    ran = make_paper(arxiv_id="2201.00001")
    make_sample(paper=ran, status="ran")
    unverified = make_paper(arxiv_id="2301.00001")
    make_sample(paper=unverified)

    def shown(query):
        return {p.pk for p in client.get("/papers/" + query).context["page"].items}

    assert shown("?task=t") == {tagged.pk}
    assert shown("?year=2021") == {official.pk}
    assert shown("?official=1") == {official.pk}
    assert shown("?ran=1") == {ran.pk}
    assert shown("?has_code=1") == {official.pk, ran.pk, unverified.pk}
    items = client.get("/papers/?sort=samples").context["page"].items
    assert {items[0].pk, items[1].pk} == {ran.pk, unverified.pk}


def test_code_entries_sort_by_places_papers_and_samples_ran(client, db):
    busy, ran = make_entry(name="busy"), make_entry(name="ran_one")
    paper = make_paper()
    for _ in range(3):
        make_sample(entry=busy, paper=paper)
    make_sample(entry=ran, status="ran")
    make_sample(entry=ran, status="ran_honours")

    def first(sort):
        return client.get(f"/code/?sort={sort}").context["rows"][0][0]

    assert first("places") == busy
    assert first("papers") == ran
    assert first("ran") == ran
    assert first("name") == busy


def test_code_entry_places_filter_by_status(client, loaded_seeds):
    response = client.get("/code/forward-step-func?status=ran")
    places = response.context["places"].items
    assert [s.status for s in places] == ["ran"]
    assert "relaxed-system-lab/flashflex" in response.content.decode()


def test_code_body_page_lists_every_place_of_the_body(client, loaded_seeds):
    page = html(client, "/body/c233d4777fc58003")
    places = m.Sample.objects.filter(body__sha256_prefix="c233d4777fc58003")
    assert places.values("paper").distinct().count() == 4
    for sample in places.select_related("paper", "repo", "entry"):
        assert sample.paper.get_absolute_url() in page
        assert sample.repo.full_name in page
    # Every place that shows a body links it.
    entry_page = html(client, "/code/check-args-torchrun-main")
    assert 'href="/body/c233d4777fc58003"' in entry_page


def test_repository_pages_are_case_insensitive_and_hosts_other_than_github_use_a_parameter(client, db):
    gitlab = make_repo(host="gitlab.com", owner="Group", name="Proj", key="gitlab.com/group/proj")
    response = client.get("/repo/group/proj?host=gitlab.com")
    assert response.status_code == 301
    assert response["Location"] == "/repo/Group/Proj?host=gitlab.com"
    page = html(client, "/repo/Group/Proj?host=GitLab.com")
    assert "https://gitlab.com/Group/Proj" in page
    assert "/api/v1/repositories/Group/Proj/?host=gitlab.com" in page
    html(client, "/repo/Group/Proj", status=404)
    paper = make_paper()
    make_sample(paper=paper, repo=gitlab)
    assert 'href="/repo/Group/Proj?host=gitlab.com"' in html(client, paper.get_absolute_url())


def test_repository_page_shows_papers_linking_it_and_samples_from_it(client, loaded_seeds):
    page = html(client, "/repo/pytorch/pippy")
    assert GPIPE in page
    assert "BSD-3-Clause" in page
    assert "not official" in page
    assert "create_empty_tensors" in page
    assert "pointer only" in page


def test_leaderboard_sorts_by_parsed_metric_and_lists_unparseable_values_last(client, db):
    board = make_leaderboard()
    values = ["84.4%", "N/A", "1.82M", "57.01 %", "-"]
    for i, value in enumerate(values):
        make_result(
            leaderboard=board, model=f"model-{i}", metrics={"Accuracy": value}, rank_in_archive_order=i + 1
        )
    response = client.get(board.get_absolute_url())
    assert [r.metrics["Accuracy"] for r in response.context["results"]] == [
        "1.82M",
        "84.4%",
        "57.01 %",
        "N/A",
        "-",
    ]
    page = response.content.decode()
    assert "higher is better" in page
    assert 'class="chart chart-time"' in page
    assert "Best: model-2" in page


def test_leaderboard_sorts_error_metrics_lower_first(client, db):
    board = make_leaderboard()
    for i, value in enumerate(["5.0", "1.5", "3"]):
        make_result(leaderboard=board, metrics={"Top-1 Error Rate": value}, model=f"m{i}")
    response = client.get(board.get_absolute_url())
    assert [r.metrics["Top-1 Error Rate"] for r in response.context["results"]] == ["1.5", "3", "5.0"]
    assert "lower is better" in response.content.decode()


def test_leaderboard_can_sort_by_another_metric(client, db):
    board = make_leaderboard()
    # Params is a cost, fewer first (it was read as higher-better, like every name that was
    # not an error, until catalogue.metrics knew costs): b's 10M ranks it first by Params.
    make_result(leaderboard=board, model="a", metrics={"Accuracy": "90", "Params": "20M"})
    make_result(leaderboard=board, model="b", metrics={"Accuracy": "80", "Params": "10M"})
    assert [r.model for r in client.get(board.get_absolute_url()).context["results"]] == ["a", "b"]
    sorted_by_params = client.get(board.get_absolute_url() + "?metric=Params").context["results"]
    assert [r.model for r in sorted_by_params] == ["b", "a"]


def test_task_and_method_pages_list_papers_and_leaderboards(client, loaded_seeds):
    task = html(client, "/task/image-classification")
    assert "image-classification-on-imagenet" in task
    assert GPIPE in task
    method = html(client, "/method/gpipe")
    assert "Introduced by" in method
    assert GPIPE in method
    assert "image-classification-on-imagenet" in method


def test_search_ranks_and_facets(client, loaded_seeds):
    response = client.get("/search?q=training")
    results = response.context["results"]
    assert results.total > 1
    page = response.content.decode()
    assert "Counted over the best 1,000 matches" in page
    kinds = {item.kind for item in results.items}
    assert kinds == {"paper"}
    only_2018 = client.get("/search?q=training&year=2018").context["results"]
    assert [i.obj.arxiv_id for i in only_2018.items] == ["1811.06965"]
    entry = client.get("/search?q=forward_step_func&kind=entry").context["results"]
    assert [i.obj.name for i in entry.items] == ["forward_step_func"]
    assert (
        client.get("/search?q=forward_step_func&kind=entry&task=image-classification")
        .context["results"]
        .items
        == []
    )
    ran = client.get("/search?q=training&status=ran").context["results"]
    assert [i.obj.arxiv_id for i in ran.items] == ["2409.01143"]


def test_counts_take_the_singular_for_one(client, loaded_seeds):
    # An entry found in one place, and a paper with one harvested sample, are common.
    found = html(client, "/search?q=stage_backward&kind=entry")
    assert "1 place in 1 paper</span>" in found
    # issue 37: a count of "ran" says how many of those were instrument failures
    assert re.search(r"of 1 body, (0 ran|1 ran, (none of them an|an) instrument failure)<", found)
    many = html(client, "/search?q=forward_step_func&kind=entry")
    assert "5 places in 5 papers</span><span>of 4 bodies, 2 ran, 1 of them an instrument failure<" in many
    one = html(client, "/paper/frugal-memory-efficient-optimization-by")
    assert "<dd>1 sample, 0 ran; 1 repository</dd>" in one
    gpipe = html(client, "/paper/gpipe-efficient-training-of-giant-neural")
    # its one body that ran is ran_draft_wrong: a failure of the instrument
    assert "<dd>25 samples, 1 ran, an instrument failure; 3 repositories</dd>" in gpipe


def test_search_without_words_shows_the_box(client, loaded_seeds):
    page = html(client, "/search")
    assert 'id="search-q"' in page
    assert "result" not in page.split('<main id="main"')[1].split("</main>")[0]


# --- queries do not grow with rows -------------------------------------------------


def _queries(client, url) -> int:
    client.get(url)  # warm: the first request may load things once per process
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def _grow_paper(paper, n):
    task = m.Task.objects.create(slug=f"t-{paper.pk}-{n}", name="T", stamp="s")
    method = m.Method.objects.create(slug=f"m-{paper.pk}-{n}", name="M", stamp="s")
    paper.tasks.add(task)
    paper.methods.add(method)
    paper.methods_introduced.add(method)
    m.Author.objects.create(paper=paper, position=n, name=f"Author {n}")
    repo = make_repo()
    m.CodeLink.objects.create(paper=paper, repo=repo, repo_url=repo.url, stamp="s")
    make_sample(paper=paper, repo=repo, status="ran" if n % 2 else "unverified")
    make_result(paper=paper)


def _builders():
    """Per page: (set up one row → url, add one more row)."""

    def home():
        return "/", lambda n: _grow_paper(make_paper(), 0)

    def papers():
        return "/papers/", lambda n: _grow_paper(make_paper(), 0)

    def papers_by_samples():
        return "/papers/?sort=samples", lambda n: _grow_paper(make_paper(), 0)

    def paper():
        p = make_paper(slug="grown")
        return "/paper/grown", lambda n: _grow_paper(p, n)

    def search(kind):
        # One kind per run: which kinds share the first page depends on ranking, and each
        # kind present costs its own fetch (a fixed number, whatever the hits).
        def build():
            def add(n):
                if kind == "paper":
                    _grow_paper(make_paper(title=f"Zebra paper {n}"), 0)
                elif kind == "entry":
                    make_sample(entry=make_entry(name=f"zebra_{n}"), repo=make_repo())
                else:
                    make_sample(repo=make_repo(owner="zebra", name=f"r{n}"))
                reindex_search()

            return f"/search?q=zebra&kind={kind}", add

        build.__name__ = f"search_{kind}"
        return build

    def entries():
        return "/code/?sort=ran", lambda n: make_sample(entry=make_entry(), status="ran")

    def entry():
        e = make_entry(slug="grown-entry", name="grown_entry")
        return "/code/grown-entry", lambda n: make_sample(entry=e, repo=make_repo())

    def body():
        b = make_body(sha256_prefix="00000000000000bb")
        return "/body/00000000000000bb", lambda n: make_sample(body=b, repo=make_repo())

    def repo():
        r = make_repo(owner="grown", name="repo")

        def add(n):
            p = make_paper()
            m.CodeLink.objects.create(paper=p, repo=r, repo_url=r.url, stamp="s")
            make_sample(paper=p, repo=r)

        return "/repo/grown/repo", add

    def board():
        b = make_leaderboard(slug="grown-board")
        return "/sota/grown-board", lambda n: make_result(leaderboard=b, metrics={"Accuracy": f"{n}%"})

    def task():
        t = m.Task.objects.create(slug="grown-task", name="Grown", stamp="s")

        def add(n):
            p = make_paper()
            _grow_paper(p, 0)
            p.tasks.add(t)
            make_leaderboard(task=t)

        return "/task/grown-task", add

    def method():
        me = m.Method.objects.create(slug="grown-method", name="Grown", stamp="s")

        def add(n):
            p = make_paper()
            _grow_paper(p, 0)
            p.methods.add(me)
            p.methods_introduced.add(me)
            make_result(paper=p)

        return "/method/grown-method", add

    def sitemap():
        return "/sitemap-papers.xml", lambda n: make_paper()

    return {
        f.__name__: f
        for f in (
            home,
            papers,
            papers_by_samples,
            paper,
            search("paper"),
            search("entry"),
            search("repo"),
            entries,
            entry,
            body,
            repo,
            board,
            task,
            method,
            sitemap,
        )
    }


@pytest.mark.parametrize("page", list(_builders()))
def test_queries_per_page_do_not_grow_with_rows(client, db, page):
    url, add = _builders()[page]()
    add(0)
    one = _queries(client, url)
    for n in range(1, 50):
        add(n)
    fifty = _queries(client, url)
    assert one == fifty, f"{url}: {one} queries with 1 row, {fifty} with 50"


# Public page kinds (catalogue.public_pages) whose queries are counted for 1 and 50 rows by a
# test of their own module, with rows built for them; and those not counted yet, with why.
QUERY_COUNTS_ELSEWHERE = {
    **dict.fromkeys(
        ("sota", "area", "task_list", "dataset_list", "dataset", "task_leaderboards", "dataset_leaderboards"),
        "web.test_browse::test_query_counts_do_not_grow_with_rows",
    ),
    **dict.fromkeys(
        ("author", "proceeding"),
        "web.test_browse::test_author_and_proceeding_pages_take_the_same_queries_for_1_or_50_papers",
    ),
    "method_list": "web.test_browse::test_method_pages_take_the_same_queries_for_1_or_50_methods",
    "corrections": "web.test_corrections_public::test_query_counts_do_not_grow_with_corrections",
    "corrections_feed": "web.test_corrections_public::test_query_counts_do_not_grow_with_corrections",
    "papers_feed": "web.test_feeds::"
    "test_a_feed_holds_the_newest_fifty_in_the_same_number_of_queries_for_1_or_50",
    "leaderboard_feed": "web.test_feeds::"
    "test_undated_entries_take_the_last_load_s_date_in_one_query_for_1_or_50",
    **dict.fromkeys(
        ("leaderboard_table", "badge_svg", "badge"),
        "web.test_boards::test_board_csv_badge_and_paper_ranks_read_the_same_queries_for_1_row_and_50",
    ),
    "data": "web.test_data_page::"
    "test_the_load_history_costs_the_same_queries_for_one_run_or_many_and_walks_them_all",
}
QUERY_COUNTS_NOT_YET = {
    "paper_bibtex": "one paper's citation: no list in it",
    "code_entry_feed": "the newest places of one entry, capped as /papers/feed is; no builder yet",
    "task_feed": "the newest papers of one task, capped as /papers/feed is; no builder yet",
    "conference": "its proceedings, a short list; no builder yet",
    "proceeding_list": "every proceeding, remembered per data version (catalogue.browse.conferences)",
    "about": "no rows",
    "attribution": "the loaded sources and load history, a few rows; no builder yet",
}


def test_every_public_page_kind_has_its_queries_counted_or_says_why_not(db):
    import importlib

    from django.urls import resolve

    from catalogue.public_pages import public_page_kinds

    kinds = public_page_kinds()
    by_view = {kind.view: kind.name for kind in kinds}
    built = set()
    for build in _builders().values():
        url, _ = build()
        match = resolve(url.split("?")[0])
        if match.func in by_view:  # a sitemap is built too, and is no public page
            built.add(by_view[match.func])
    assert len(built) == 11
    for where in set(QUERY_COUNTS_ELSEWHERE.values()):
        module, test = where.split("::")
        assert callable(getattr(importlib.import_module(f"tests.{module}"), test)), where
    counted = [built, set(QUERY_COUNTS_ELSEWHERE), set(QUERY_COUNTS_NOT_YET)]
    assert sum(map(len, counted)) == len(set().union(*counted))  # each kind in one place
    assert set().union(*counted) == {kind.name for kind in kinds}  # a new page: count its queries


def test_the_paper_page_is_seven_queries_and_one_more_per_kind_of_correction(client, loaded_seeds):
    from django.contrib.auth import get_user_model

    from catalogue import curation

    # the paper with its authors' names and whether it has corrections, its places (with entry,
    # body, repository and code flags), results, topics, code links, the rows of the boards its
    # results are on (its "Ranked #N", issue 37), its related papers (issue 37); an active
    # title correction and status corrections of its places are one query each
    assert _queries(client, GPIPE) == 7
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    curator = get_user_model().objects.create(username="curator")
    for sample in m.Sample.objects.filter(paper=paper).order_by("id")[:2]:
        curation.correct_status(sample, "ran", user=curator, reason="ran", expected_version=None)
    assert _queries(client, GPIPE) == 8
    curation.correct_title(paper, "GPipe, corrected", user=curator, expected_version=None)
    assert _queries(client, GPIPE) == 9


# --- the page cache -----------------------------------------------------------------


def _ran_figure(page: str) -> int:
    return int(re.search(r"<dt>Samples ran</dt><dd>(\d+)</dd>", page)[1])


def test_page_cache_serves_a_copy_until_a_curator_corrects_or_a_load_runs(
    client, loaded_seeds, settings, tmp_path
):
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from catalogue import curation

    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    url = "/code/forward-step-func"
    assert _ran_figure(html(client, url)) == 2
    with CaptureQueriesContext(connection) as ctx:
        html(client, url)
    assert len(ctx.captured_queries) == 1  # the data version, nothing else

    sample = m.Sample.objects.filter(entry__name="forward_step_func", status="unverified").first()
    user = get_user_model().objects.create(username="curator")
    curation.correct_status(sample, "ran_honours", user=user, reason="ran it", expected_version=None)
    assert _ran_figure(html(client, url)) == 3

    doc = json.loads(next(s for s in SEEDS if s.name.startswith("000")).read_text())
    doc["read_at"] = "2027-01-01T00:00:00+00:00"
    for row in doc["samples"]:
        row["status"] = "unverified"
    doc.update(
        n_papers_ran=0, n_samples_ran=0, by_status=dict.fromkeys(doc["by_status"], 0) | {"unverified": 4}
    )
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc))
    from tests.conftest import load

    load(path)
    # Every place unverified upstream now; the curator's correction still stands.
    assert _ran_figure(html(client, url)) == code_entry_figures(sample.entry).n_samples_ran == 1


def test_page_cache_keeps_pages_apart(client, loaded_seeds, settings):
    from django.core.cache import cache

    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    assert "GPipe" in html(client, GPIPE)
    assert "forward_step_func" in html(client, "/code/forward-step-func")
    assert (
        "ran_draft_wrong"
        not in html(client, "/code/check-args-torchrun-main?status=unverified").split("<tbody>")[-1]
    )
    assert html(client, "/papers/?sort=title") != html(client, "/papers/?sort=samples")


def test_a_big_leaderboard_shows_its_best_hundred_rows_and_pages_the_rest(client, db):
    from catalogue.views import LEADERBOARD_ROWS

    board = make_leaderboard()
    paper = make_paper()
    for i in range(LEADERBOARD_ROWS + 5):
        make_result(leaderboard=board, paper=paper, model=f"model-{i}", metrics={"Accuracy": f"{i}.0%"})
    response = client.get(board.get_absolute_url())
    shown = [r.model for r in response.context["results"]]
    assert shown == [f"model-{i}" for i in range(LEADERBOARD_ROWS + 4, 4, -1)]  # the best, best first
    page = response.content.decode()
    assert f"{LEADERBOARD_ROWS + 5} results" in page
    assert (
        f"Results 1–{LEADERBOARD_ROWS} of {LEADERBOARD_ROWS + 5}, best first by Accuracy (page 1 of 2)"
        in (page)
    )
    assert f'<a rel="next" href="/sota/{board.slug}?page=2">' in page  # tests/web/test_leaderboard_page.py
    assert f"/api/v1/evaluations/{board.slug}/results/" in page
    assert client.get(f"/api/v1/evaluations/{board.slug}/results/?items_per_page=500").json()["count"] == 105


@pytest.mark.parametrize(
    "address",
    [
        "/paper/1811.06965",
        "/paper/1811.06965v2",
        "/abs/1811.06965",
        "/abs/1811.06965v1",
        "/abs/1811.06965v1/",
    ],
)
def test_an_arxiv_id_finds_its_paper_with_or_without_version(client, db, address):
    paper = make_paper(arxiv_id="1811.06965", slug="gpipe-efficient-training")
    response = client.get(address)
    assert response.status_code == 301
    assert response["Location"] == paper.get_absolute_url()


@pytest.mark.parametrize(
    "address", ["/paper/hep-th/9901001", "/abs/hep-th/9901001v3", "/abs/math.GT/0309136"]
)
def test_an_old_style_arxiv_id_with_its_slash_finds_its_paper(client, db, address):
    arxiv_id = address.removeprefix("/paper/").removeprefix("/abs/").removesuffix("v3")
    paper = make_paper(arxiv_id=arxiv_id, slug=f"old-style-{arxiv_id.replace('/', '-').replace('.', '-')}")
    response = client.get(address)
    assert response.status_code == 301
    assert response["Location"] == paper.get_absolute_url()


@pytest.mark.parametrize(
    "address", ["/abs/1811.06965", "/paper/1811.06965", "/abs/not-an-id", "/paper/hep-th/9901001"]
)
def test_an_arxiv_id_of_no_paper_is_not_found(client, db, address):
    make_paper(arxiv_id="2001.00001")
    assert client.get(address).status_code == 404


@pytest.mark.parametrize(
    ("url_abs", "label"),
    [
        ("https://arxiv.org/abs/1811.06965v5", "arXiv abstract"),
        ("https://www.semanticscholar.org/paper/abc123", "Abstract"),
        ("https://aclanthology.org/P19-1001/", "ACL Anthology"),
        ("https://openreview.net/forum?id=rJl-b3RcF7", "OpenReview"),
        ("https://doi.org/10.1109/CVPR.2016.90", "DOI"),
        ("https://example.org/papers/paper.pdf", "PDF"),
    ],
)
def test_a_paper_s_links_are_labelled_by_what_they_are(client, db, url_abs, label):
    paper = make_paper(url_abs=url_abs, url_pdf="https://example.org/paper.pdf")
    page = html(client, paper.get_absolute_url())
    assert f'<a href="{url_abs}" rel="noopener">{label}</a>' in page
    assert '<a href="https://example.org/paper.pdf" rel="noopener">PDF</a>' in page
    if label != "arXiv abstract":
        assert "arXiv abstract" not in page


def test_favicon_ico_leads_to_the_site_s_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.svg")


# The rows of includes/places_table.html as its {% for %} wrote them before the place_rows tag.
PLACE_ROWS_AS_A_LOOP = (Path(__file__).parent / "places_table_loop.html").read_text()


@pytest.mark.parametrize("hidden", ["", "hide_paper", "hide_entry", "hide_repo", "hide_body"])
def test_place_rows_write_what_the_template_loop_wrote(loaded_seeds, hidden):
    from django.contrib.auth import get_user_model
    from django.template import Context, Template

    from catalogue import curation

    curator = get_user_model().objects.create(username="curator")
    corrected = m.Sample.objects.filter(status="unverified").order_by("id").first()
    curation.correct_status(corrected, "ran", user=curator, reason="<b>ran</b> it", expected_version=None)
    odd = make_paper(slug="odd", title="", month="")  # no title, no month
    factories.make_sample(paper=odd, repo=None, path="", inline_ok=False, licence=None)
    factories.make_sample(paper=odd, repo=make_repo(host="gitlab.com"), path="a/b.py", file_url=None)
    factories.make_sample(
        paper=odd, entry=make_entry(name="<script>x</script>"), path="x/<y>.py", file_url='https://e"x'
    )
    places = [
        *queries.places_page(m.Sample.objects.all()).items,
        *queries.places_page(m.Sample.objects.filter(pk=corrected.pk)).items,
        *queries.places_page(m.Sample.objects.filter(paper=odd)).items,
    ]
    assert any(s.status_corrected for s in places)
    context = {"places": places, hidden: True} if hidden else {"places": places}
    table = Template("{% include 'includes/places_table.html' %}").render(Context(context))
    rows = table.split("<tbody>\n", 1)[1].split("\n  </tbody>", 1)[0]
    assert rows == Template(PLACE_ROWS_AS_A_LOOP).render(Context(context))
    empty = Template("{% include 'includes/places_table.html' %}").render(Context({"places": []}))
    assert empty.split("<tbody>\n", 1)[1].split("\n  </tbody>", 1)[0] == Template(
        PLACE_ROWS_AS_A_LOOP
    ).render(Context({"places": []}))


@pytest.mark.parametrize("script_prefix", ["/", "/mounted/", "/a&b'c/"])
def test_place_row_addresses_are_what_reverse_gives(script_prefix):
    """``url_to`` is ``reverse``, and ``href_to`` its escaped text, under any script prefix
    (one that HTML escaping changes too)."""
    from django.urls import get_script_prefix, reverse, set_script_prefix
    from django.utils.html import conditional_escape

    from catalogue.addresses import href_to, url_to

    before = get_script_prefix()
    set_script_prefix(script_prefix)
    try:
        segments = ("gpipe-1", "a.b_c~d", "0123abcdef", "with space", "ünï", "a%2Fb", "x?y#z", "a&b", "..")
        for name in ("paper", "code_entry", "code_body"):
            for segment in segments:
                url = reverse(name, args=[segment])
                assert url_to(name, segment) == url, (name, segment)
                assert href_to(name, segment) == conditional_escape(url), (name, segment)
        for owner in segments:  # a repository's page: two segments
            for repo in ("torchgpipe", owner[::-1]):
                url = reverse("repo", args=[owner, repo])
                assert url_to("repo", owner, repo) == url, (owner, repo)
                assert href_to("repo", owner, repo) == conditional_escape(url), (owner, repo)
    finally:
        set_script_prefix(before)


@pytest.mark.parametrize("script_prefix", ["/", "/mounted/", "/a&b'c/"])
def test_url_tag_without_arguments_is_djangos_under_any_script_prefix(script_prefix):
    """``{% url %}`` (catalogue.templatetags.addresses, a builtin) reverses an address without
    arguments once and keeps it; what it writes is still Django's tag's, under every script prefix
    (asked for in turn, so a kept address of one prefix must not answer for another), escaped or
    not, and with arguments, a name in a variable or ``as var`` it is Django's tag itself."""
    from django.template import Context, Template
    from django.urls import get_script_prefix, reverse, set_script_prefix
    from django.utils.html import conditional_escape

    before = get_script_prefix()
    try:
        for prefix in ("/", script_prefix, "/other/"):
            set_script_prefix(prefix)
            for name in ("home", "about", "search", "paper_list"):
                url = reverse(name)
                assert prefix in url
                assert Template(f"{{% url '{name}' %}}").render(Context()) == conditional_escape(url)
                off = f"{{% autoescape off %}}{{% url '{name}' %}}{{% endautoescape %}}"
                assert Template(off).render(Context()) == url
                assert Template("{% url name %}").render(Context({"name": name})) == conditional_escape(url)
                assert Template(f"{{% url '{name}' as u %}}[{{{{ u }}}}]").render(Context()) == (
                    f"[{conditional_escape(url)}]"
                )
            paper = reverse("paper", args=["gpipe"])
            assert Template("{% url 'paper' 'gpipe' %}").render(Context()) == conditional_escape(paper)
    finally:
        set_script_prefix(before)


# The paper page's places as its two {% for %} wrote them, from Sample instances grouped by Repo,
# before the paper_place_groups tag wrote them from queries.PaperPlace rows.
PAPER_PLACES_AS_LOOPS = (Path(__file__).parent / "paper_places_loop.html").read_text()


def test_paper_place_groups_write_what_the_template_loops_wrote(loaded_seeds):
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model
    from django.db.models import F
    from django.template import Context, Template

    from catalogue import curation
    from catalogue.models.corrections import attach_status_corrections

    curator = get_user_model().objects.create(username="curator")
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    corrected = m.Sample.objects.filter(paper=gpipe).order_by("id").first()
    curation.correct_status(corrected, "ran", user=curator, reason="<b>ran</b> it", expected_version=None)
    odd = make_paper(slug="odd")
    shown = make_body(code="print(1)")
    factories.make_sample(paper=odd, repo=None, path="", inline_ok=False, licence=None, body=shown)
    factories.make_sample(paper=odd, repo=None, path="", file_url="https://e/x", licence="NONE", body=shown)
    factories.make_sample(
        paper=odd,
        repo=make_repo(host="gitlab.com", owner="<i>o", name="a&b", spdx="NOASSERTION"),
        entry=make_entry(name="<script>x</script>"),
        path="x/<y>.py",
        file_url='https://e"x',
        contract_check="<b>passed</b>",
        metamorphic_tier="tier & 2",
        verification_level=3,
    )
    groups = Template("{% load pages %}{% paper_place_groups groups slug %}")
    loops = Template(PAPER_PLACES_AS_LOOPS)
    seen = []
    for paper in (gpipe, odd):
        samples = list(
            m.Sample.objects.filter(paper=paper)
            .with_code_links()
            .select_related("repo", "entry")
            .order_by(F("repo__key").asc(nulls_last=True), "entry__name", "body__sha256_prefix")
        )
        attach_status_corrections(samples)
        by_repo = {}
        for sample in samples:
            by_repo.setdefault(sample.repo_id, (sample.repo, []))[1].append(sample)
        page = queries.paper_page(queries.paper_by_address(paper.slug)[0])
        assert [[p.pk for p in places] for _, places in page.samples_by_repo] == [
            [s.pk for s in group] for _, group in by_repo.values()
        ]
        seen += samples
        written = groups.render(Context({"groups": page.samples_by_repo, "slug": paper.slug}))
        as_loops = loops.render(
            Context({"data": SimpleNamespace(samples_by_repo=list(by_repo.values())), "paper": paper})
        )
        assert written == as_loops
    # the cases the rows tell apart: code shown or not, a corrected status, no path, no file link,
    # a repository or none, one place in a repository or several
    assert {s.code_shown for s in seen} == {s.status_corrected for s in seen} == {True, False}
    assert {bool(s.path) for s in seen} == {bool(s.file_url) for s in seen} == {True, False}
    assert {s.repo is None for s in seen} == {True, False}
    assert {len(group) for _, group in by_repo.values()} == {1, 2}


# A leaderboard's rows as its template's {% for %} wrote them before the board_rows tag.
BOARD_ROWS_AS_A_LOOP = (Path(__file__).parent / "board_rows_loop.html").read_text()


def test_board_rows_write_what_the_template_loop_wrote(db):
    import datetime

    from django.template import Context, Template

    board = make_leaderboard(slug="rows-board")
    titled = make_paper(slug="titled", title="A <b>title</b> & more", month="2020-03")
    untitled = make_paper(slug="untitled", title="", month="")
    rows = [
        {
            "paper": titled,
            "metrics": {"Accuracy": "90.1%", "Top-5": 97, "Error": 0.000012},
            "rank_in_archive_order": 1,
            "of": 4,
        },
        {
            "paper": untitled,
            "metrics": {"Accuracy": None, "Error": 1e21},
            "uses_additional_data": True,
            "rank_in_archive_order": 2,
        },
        {
            "paper": None,
            "paper_url": "https://example.org/p?a=1&b=<2>",
            "paper_title": "",
            "paper_date": datetime.date(2019, 5, 1),
            "metrics": {},
            "uses_additional_data": False,
        },
        {
            "paper": None,
            "paper_url": "https://example.org/q",
            "paper_title": 'Named "paper"',
            "paper_date": None,
            "metrics": {"Top-5": "n/a"},
        },
        {
            "paper": None,
            "paper_title": "Only a <title>",
            "paper_date": datetime.date(2018, 1, 2),
            "metrics": {"Accuracy": 12.5},
        },
        {
            "paper": None,
            "paper_title": "",
            "metrics": {"Accuracy": "<script>"},
            "rank_in_archive_order": 0,
            "of": 3,
        },
    ]
    results = [make_result(leaderboard=board, model=f"Model <{n}>", **row) for n, row in enumerate(rows)]
    results = queries.leaderboard_results(board)
    for metric in ("Accuracy", "Error", ""):
        context = {"results": results, "metric_names": ["Accuracy", "Top-5", "Error"], "metric": metric}
        tag = Template("{% load pages %}  {% board_rows results metric_names metric %}").render(
            Context(context)
        )
        assert tag == Template(BOARD_ROWS_AS_A_LOOP).render(Context(context))
    empty = {"results": [], "metric_names": ["Accuracy"], "metric": "Accuracy"}
    assert Template("{% load pages %}  {% board_rows results metric_names metric %}").render(
        Context(empty)
    ) == Template(BOARD_ROWS_AS_A_LOOP).render(Context(empty))
