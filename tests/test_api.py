"""The JSON API: every endpoint and filter, pagination, errors, figures, ETags, throttling, CORS, docs."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from catalogue import models as m
from tests.conftest import CODE_SEEDS, FIGURES, PAPER_SEED

pytestmark = pytest.mark.django_db

V1 = "/api/v1"
GPIPE = "gpipe-efficient-training-of-giant-neural"


@pytest.fixture(autouse=True)
def _no_throttle(settings):
    settings.API_THROTTLE_ANON = "off"


@pytest.fixture
def api():
    return APIClient()


def get(api, url, expect=200, **params):
    response = api.get(url, params)
    assert response.status_code == expect, (url, params, response.content[:500])
    return response.json() if response.content else None


def ids(page, key="id"):
    return [row[key] for row in page["results"]]


def walk(api, url, **params):
    """Every row of a list, page after page (following ``next`` as a client would)."""
    rows, page = [], get(api, url, **params)
    while True:
        rows += page["results"]
        if not page["next"]:
            return rows
        page = api.get(page["next"]).json()


# --- Papers-with-Code compatible: papers ----------------------------------------------------


def test_paper_list_has_pwc_page_and_paper_shape(api, loaded_seeds):
    page = get(api, f"{V1}/papers/", items_per_page=5)
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 13
    assert page["previous"] is None
    assert parse_qs(urlsplit(page["next"]).query) == {"items_per_page": ["5"], "page": ["2"]}
    assert ids(page) == sorted(ids(page))
    paper = page["results"][0]
    for field in (
        "id", "arxiv_id", "nips_id", "url_abs", "url_pdf", "title", "abstract", "authors", "published",
        "conference", "conference_url_abs", "conference_url_pdf", "proceeding",
    ):  # fmt: skip
        assert field in paper


def test_paper_pages_cover_the_list_exactly_once(api, loaded_seeds):
    rows = walk(api, f"{V1}/papers/", items_per_page=3)
    assert len(rows) == 13
    assert len({r["id"] for r in rows}) == 13
    page2 = get(api, f"{V1}/papers/", items_per_page=3, page=2)
    assert parse_qs(urlsplit(page2["previous"]).query) == {"items_per_page": ["3"]}


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


def test_paper_detail_figures_equal_the_seed(api, loaded_seeds):
    doc = json.loads(PAPER_SEED.read_text())
    figures = get(api, f"{V1}/papers/{GPIPE}/")["figures"]
    assert figures["summary"] == doc["syntology"]["summary"]
    assert figures["by_repo_kind"] == doc["syntology"]["by_repo_kind"]
    assert figures["n_pointer_only_for_licence"] == doc["syntology"]["n_pointer_only_for_licence"]
    assert figures["samples"]["n_places"] == len(doc["syntology"]["samples"])


def test_unknown_paper_is_404(api, loaded_seeds):
    body = get(api, f"{V1}/papers/no-such-paper/", expect=404)
    assert "detail" in body
    get(api, f"{V1}/papers/no-such-paper/repositories/", expect=404)
    get(api, f"{V1}/papers/9999.99999/", expect=404)


def test_paper_repositories_official_first_with_pwc_fields(api, loaded_seeds):
    repos = walk(api, f"{V1}/papers/1811.06965/repositories/", items_per_page=5)
    assert len(repos) == 13
    torchgpipe = next(r for r in repos if r["name"] == "torchgpipe")
    assert torchgpipe == {
        "url": "https://github.com/KakaoBrain/torchgpipe",
        "owner": "KakaoBrain",
        "name": "torchgpipe",
        "description": "",
        "stars": 0,
        "framework": "pytorch",
        "is_official": False,
        "host": "github.com",
        "licence": "BSD-3-Clause",
        "reach_status": "ok",
        "link_url": "https://github.com/KakaoBrain/torchgpipe",
        "sub_path": "",
        "mentioned_in_paper": False,
        "mentioned_in_github": True,
    }
    fleetx = next(r for r in repos if r["name"] == "FleetX")
    assert fleetx["sub_path"] == "tree/develop/examples/pipeline"


def test_official_links_come_first(api, loaded_seeds):
    link = m.CodeLink.objects.get(repo__key="github.com/tensorflow/lingvo")
    link.is_official = True
    link.save()
    repos = get(api, f"{V1}/papers/{GPIPE}/repositories/")["results"]
    assert repos[0]["name"] == "lingvo"
    assert repos[0]["is_official"] is True


def test_paper_tasks_methods_results(api, loaded_seeds):
    doc = json.loads(PAPER_SEED.read_text())
    tasks = ids(get(api, f"{V1}/papers/{GPIPE}/tasks/"))
    assert tasks == sorted({t["task_slug"] for t in doc["tasks"]})
    methods = get(api, f"{V1}/papers/{GPIPE}/methods/")
    assert methods["count"] == 21
    assert {m_["id"] for m_ in methods["results"]} == {x["method_slug"] for x in doc["methods"]}
    results = get(api, f"{V1}/papers/{GPIPE}/results/")["results"]
    assert len(results) == len(doc["results"])
    birdsnap = next(r for r in results if r["evaluation"] == "fine-grained-image-classification-on-birdsnap")
    assert birdsnap["metrics"] == {"Accuracy": "83.6%"}
    assert birdsnap["methodology"] == "GPIPE"
    assert birdsnap["best_rank"] == 4
    assert birdsnap["rank_of"] == 5
    assert birdsnap["paper"] == GPIPE
    assert birdsnap["uses_additional_data"] is True
    assert birdsnap["evaluated_on"] == "2018-11-16"


def test_a_method_names_the_paper_that_introduced_it(api, loaded_seeds):
    assert get(api, f"{V1}/methods/gpipe/")["paper"] == GPIPE


def test_paper_samples_are_its_places(api, loaded_seeds):
    doc = json.loads(PAPER_SEED.read_text())
    rows = walk(api, f"{V1}/papers/{GPIPE}/samples/")
    assert len(rows) == len(doc["syntology"]["samples"])
    assert {r["code_sha256_prefix"] for r in rows} == {
        s["code_sha256_prefix"] for s in doc["syntology"]["samples"]
    }
    alexnet = next(r for r in rows if r["code_entry"]["name"] == "alexnet")
    assert alexnet["status"] == "ran_draft_wrong"
    assert alexnet["inline_ok"] is False
    assert alexnet["licence"] == "NONE"
    assert alexnet["repo_kind"] == "listed"
    assert alexnet["repository"]["owner"] == "alondj"


# --- papers: filters ------------------------------------------------------------------------


def paper_ids(api, **params):
    return sorted(r["id"] for r in walk(api, f"{V1}/papers/", **params))


def test_paper_filters(api, loaded_seeds):
    everything = paper_ids(api)
    assert paper_ids(api, arxiv_id="1811.06965v3") == [GPIPE]
    assert paper_ids(api, title="giant neural") == [GPIPE]
    assert paper_ids(api, abstract="AmoebaNet") == [GPIPE]
    assert paper_ids(api, task="image-classification") == [GPIPE]
    assert paper_ids(api, method="adam") == [GPIPE]
    assert paper_ids(api, dataset="Birdsnap") == [GPIPE]
    assert paper_ids(api, framework="PyTorch") == [GPIPE]
    assert paper_ids(api, official="false") == everything
    assert paper_ids(api, official="true") == []
    assert paper_ids(api, has_code="true") == everything
    syntology = sorted(m.Paper.objects.filter(title_source="syntology").values_list("slug", flat=True))
    assert len(syntology) == 2
    assert paper_ids(api, title_source="syntology") == syntology
    assert paper_ids(api, published_after="2018-11-16", published_before="2018-11-16") == [GPIPE]
    assert paper_ids(api, year_min=2018, year_max=2018) == [GPIPE]
    assert GPIPE not in paper_ids(api, year_min=2019)
    assert paper_ids(api, code_entry="alexnet") == [GPIPE]
    assert paper_ids(api, repository="pytorch/pippy") == [GPIPE]
    ran = paper_ids(api, status="ran")
    assert ran == ["flashflex-accommodating-large-language-model"]


def test_paper_official_filter_follows_code_links(api, loaded_seeds):
    m.CodeLink.objects.filter(repo__key="github.com/tensorflow/lingvo").update(is_official=True)
    assert paper_ids(api, official="true") == [GPIPE]
    assert GPIPE not in paper_ids(api, official="false")


def test_paper_full_text_search_ranks_and_finds_authors(api, loaded_seeds):
    assert ids(get(api, f"{V1}/papers/", q="Yanping Huang")) == [GPIPE]
    ranked = ids(get(api, f"{V1}/papers/", q="memory"))
    assert ranked
    first = m.Paper.objects.get(slug=ranked[0])
    assert "memory" in first.title.lower()


def test_empty_ordering_items_are_ignored(api, loaded_seeds):
    assert ids(get(api, f"{V1}/code-entries/", ordering=",,")) == ids(get(api, f"{V1}/code-entries/"))
    assert ids(get(api, f"{V1}/papers/", ordering=",-id,")) == ids(get(api, f"{V1}/papers/", ordering="-id"))


def test_paper_ordering(api, loaded_seeds):
    newest = ids(get(api, f"{V1}/papers/", ordering="-published", items_per_page=50))
    dated = [p for p in newest if m.Paper.objects.get(slug=p).date]
    dates = [m.Paper.objects.get(slug=p).date for p in dated]
    assert dates == sorted(dates, reverse=True)
    by_id = ids(get(api, f"{V1}/papers/", ordering="-id", items_per_page=50))
    assert by_id == sorted(by_id, reverse=True)


# --- search ---------------------------------------------------------------------------------


def test_search_gives_papers_with_their_best_repository(api, loaded_seeds):
    page = get(api, f"{V1}/search/", q="pipeline parallelism")
    assert [r["paper"]["id"] for r in page["results"]] == [GPIPE]
    hit = page["results"][0]
    assert hit["is_official"] is False
    assert hit["repository"]["url"].startswith("https://github.com/")
    everything = get(api, f"{V1}/search/", items_per_page=50)
    assert everything["count"] == 13
    no_repo = [r for r in everything["results"] if r["repository"] is None]
    assert all(r["is_official"] is False for r in no_repo)


# --- repositories ---------------------------------------------------------------------------


def test_repository_list_detail_and_filters(api, loaded_seeds):
    page = get(api, f"{V1}/repositories/", items_per_page=50)
    assert page["count"] == m.Repo.objects.count()
    names = [(r["owner"], r["name"]) for r in walk(api, f"{V1}/repositories/", owner="PyTorch")]
    assert sorted(names) == [("pytorch", "pippy"), ("pytorch", "tau")]
    assert ids(get(api, f"{V1}/repositories/", name="TORCHGPIPE"), "name") == ["torchgpipe"]
    assert {r["name"] for r in walk(api, f"{V1}/repositories/", q="torchgpipe")} == {"torchgpipe"}
    assert {r["name"] for r in walk(api, f"{V1}/repositories/", licence="bsd-3-clause")} == {
        "torchgpipe", "pippy", "tau",
    }  # fmt: skip
    pytorch = set(m.Repo.objects.filter(code_links__framework="pytorch").values_list("name", flat=True))
    assert len(pytorch) > 1
    assert {r["name"] for r in walk(api, f"{V1}/repositories/", framework="PyTorch")} == pytorch
    assert {r["name"] for r in walk(api, f"{V1}/repositories/", paper="2409.01143")} == {"flashflex"}
    assert walk(api, f"{V1}/repositories/", official="true") == []
    repo = get(api, f"{V1}/repositories/kakaobrain/TorchGPipe/")
    assert (repo["owner"], repo["name"], repo["licence"], repo["stars"]) == (
        "KakaoBrain",
        "torchgpipe",
        "BSD-3-Clause",
        0,
    )
    get(api, f"{V1}/repositories/nobody/nothing/", expect=404)


def test_repositories_of_an_owner_without_trailing_slash(api, loaded_seeds):
    assert sorted(ids(get(api, f"{V1}/repositories/pytorch"), "name")) == ["pippy", "tau"]


def test_repository_papers_and_samples(api, loaded_seeds):
    assert ids(get(api, f"{V1}/repositories/pytorch/pippy/papers/")) == [GPIPE]
    samples = walk(api, f"{V1}/repositories/pytorch/pippy/samples/")
    assert samples
    assert {s["repository"]["name"] for s in samples} == {"pippy"}
    # seed 003: BSD-3-Clause is pointer-only in pippy, inline in torchgpipe
    assert {s["inline_ok"] for s in samples} == {False}


# --- tasks, methods, evaluations ------------------------------------------------------------


def test_tasks(api, loaded_seeds):
    tasks = walk(api, f"{V1}/tasks/")
    assert {t["id"] for t in tasks} == set(m.Task.objects.values_list("slug", flat=True))
    task = get(api, f"{V1}/tasks/image-classification/")
    assert task == {"id": "image-classification", "name": "Image Classification", "description": ""}
    assert ids(get(api, f"{V1}/tasks/", q="fine grained")) == ["fine-grained-image-classification"]
    assert ids(get(api, f"{V1}/tasks/", name="grained")) == ["fine-grained-image-classification"]
    assert ids(get(api, f"{V1}/tasks/image-classification/papers/")) == [GPIPE]
    boards = ids(get(api, f"{V1}/tasks/fine-grained-image-classification/evaluations/"))
    assert "fine-grained-image-classification-on-birdsnap" in boards
    get(api, f"{V1}/tasks/nope/", expect=404)


def test_methods(api, loaded_seeds):
    assert get(api, f"{V1}/methods/", items_per_page=50)["count"] == m.Method.objects.count()
    adam = get(api, f"{V1}/methods/adam/")
    assert adam == {"id": "adam", "name": "Adam", "full_name": "", "description": "", "paper": None}
    assert ids(get(api, f"{V1}/methods/", name="adam")) == ["adam"]
    assert "gpipe" in ids(get(api, f"{V1}/methods/", q="GPipe"))
    assert ids(get(api, f"{V1}/methods/", introduced_by=GPIPE)) == ["gpipe"]
    get(api, f"{V1}/methods/nope/", expect=404)


def test_evaluations_metrics_and_results(api, loaded_seeds):
    boards = walk(api, f"{V1}/evaluations/")
    assert len(boards) == m.Leaderboard.objects.count()
    board_id = "fine-grained-image-classification-on-birdsnap"
    board = get(api, f"{V1}/evaluations/{board_id}/")
    assert board == {
        "id": board_id,
        "task": "fine-grained-image-classification",
        "dataset": "Birdsnap",
        "description": "",
        "mirror_url": None,
    }
    assert ids(get(api, f"{V1}/evaluations/", dataset="Birdsnap")) == [board_id]
    assert board_id in ids(get(api, f"{V1}/evaluations/", task="fine-grained-image-classification"))
    assert board_id in ids(get(api, f"{V1}/evaluations/", paper=GPIPE))
    metrics = get(api, f"{V1}/evaluations/{board_id}/metrics/")["results"]
    assert metrics == [{"id": "accuracy", "name": "Accuracy", "description": "", "is_loss": False}]
    assert get(api, f"{V1}/evaluations/{board_id}/metrics/accuracy/")["name"] == "Accuracy"
    get(api, f"{V1}/evaluations/{board_id}/metrics/nope/", expect=404)
    results = get(api, f"{V1}/evaluations/{board_id}/results/")["results"]
    assert [(r["methodology"], r["metrics"]) for r in results] == [("GPIPE", {"Accuracy": "83.6%"})]
    result = get(api, f"{V1}/evaluations/{board_id}/results/{results[0]['id']}/")
    assert result == results[0]
    get(api, f"{V1}/evaluations/{board_id}/results/0000000000000000/", expect=404)
    get(api, f"{V1}/evaluations/nope/", expect=404)


# --- the catalogue's own: code entries and samples ------------------------------------------


@pytest.mark.parametrize("seed", CODE_SEEDS, ids=lambda p: p.name)
def test_code_entry_figures_equal_the_seed(api, loaded_seeds, seed):
    doc = json.loads(seed.read_text())
    slug = doc["url"].removeprefix("/code/")
    detail = get(api, f"{V1}/code-entries/{slug}/")
    assert detail["name"] == doc["entry"]
    assert {k: detail["figures"][k] for k in FIGURES} == {k: doc[k] for k in FIGURES}
    listed = next(e for e in walk(api, f"{V1}/code-entries/") if e["id"] == slug)
    assert listed["figures"] == detail["figures"]
    places = walk(api, f"{V1}/code-entries/{slug}/samples/")
    assert len(places) == doc["n_places"]
    assert {p["code_sha256_prefix"] for p in places} == {s["code_sha256_prefix"] for s in doc["samples"]}


def test_code_entry_figures_follow_the_rows(api, loaded_seeds):
    m.Sample.objects.filter(entry__name="forward_step_func", status="ran").update(status="ran_honours")
    figures = get(api, f"{V1}/code-entries/forward-step-func/")["figures"]
    assert figures["by_status"]["ran"] == 0
    assert figures["by_status"]["ran_honours"] == 1


def test_code_entry_filters(api, loaded_seeds):
    assert ids(get(api, f"{V1}/code-entries/", q="forward_step_func")) == ["forward-step-func"]
    assert ids(get(api, f"{V1}/code-entries/", name="forward_step")) == ["forward-step-func"]
    assert "alexnet" in ids(get(api, f"{V1}/code-entries/", paper=GPIPE, items_per_page=50))
    assert ids(get(api, f"{V1}/code-entries/", status="ran")) == ["forward-step-func"]
    ran = {e["id"] for e in walk(api, f"{V1}/code-entries/", ran="true")}
    assert ran == set(
        m.CodeEntry.objects.filter(samples__status__in=m.Status.ran_values()).values_list("slug", flat=True)
    )
    assert ids(get(api, f"{V1}/code-entries/", repository="relaxed-system-lab/flashflex")) == [
        "forward-step-func"
    ]
    assert (
        ids(get(api, f"{V1}/code-entries/", ordering="-name"))
        == sorted(
            m.CodeEntry.objects.values_list("slug", flat=True),
            key=lambda s: m.CodeEntry.objects.get(slug=s).name,
        )[::-1][:50]
    )
    get(api, f"{V1}/code-entries/nope/", expect=404)
    get(api, f"{V1}/code-entries/nope/samples/", expect=404)


def sample_keys(api, **params):
    return sorted(
        (r["paper"]["id"], r["code_sha256_prefix"], r["code_entry"]["name"])
        for r in walk(api, f"{V1}/samples/", **params)
    )


def db_keys(qs):
    return sorted(qs.values_list("paper__slug", "body__sha256_prefix", "entry__name"))


@pytest.mark.parametrize(
    ("params", "where"),
    [
        ({"status": "unverified"}, {"status": "unverified"}),
        ({"status": ["ran", "ran_draft_wrong"]}, {"status__in": ["ran", "ran_draft_wrong"]}),
        ({"licence": "bsd-3-clause"}, {"licence": "BSD-3-Clause"}),
        ({"inline_ok": "false"}, {"inline_ok": False}),
        ({"inline_ok": "true"}, {"inline_ok": True}),
        ({"repository": "pytorch/pippy"}, {"repo__key": "github.com/pytorch/pippy"}),
        (
            {"repository": "https://github.com/KakaoBrain/torchgpipe"},
            {"repo__key": "github.com/kakaobrain/torchgpipe"},
        ),
        ({"code_entry": "forward-step-func"}, {"entry__name": "forward_step_func"}),
        ({"code_entry": "forward_step_func"}, {"entry__name": "forward_step_func"}),
        ({"paper": "1811.06965"}, {"paper__arxiv_id": "1811.06965"}),
        ({"paper": "arxiv-2510-16415"}, {"paper__arxiv_id": "2510.16415"}),
        ({"repo_kind": "listed"}, {"repo_kind": "listed"}),
        ({"verification_level": 1}, {"verification_level": 1}),
        ({"verification_level_min": 1}, {"verification_level__gte": 1}),
        ({"code_sha256_prefix": "c233d4777fc58003"}, {"body__sha256_prefix": "c233d4777fc58003"}),
        ({"task": "image-classification"}, {"paper__tasks__slug": "image-classification"}),
        ({"method": "adam"}, {"paper__methods__slug": "adam"}),
        ({"dataset": "Birdsnap"}, {"paper__arxiv_id": "1811.06965"}),
        ({"title_source": "syntology"}, {"paper__title_source": "syntology"}),
        ({"published_after": "2024-01-01"}, {"paper__date__gte": "2024-01-01"}),
        ({"published_before": "2020-01-01"}, {"paper__date__lte": "2020-01-01"}),
        ({"year_min": 2025}, {"paper__month__gte": "2025-01"}),
        ({"year_max": 2018}, {"paper__month__lte": "2018-12", "paper__month__gt": ""}),
        ({"ran": "true"}, {"status__in": m.Status.ran_values()}),
        ({"q": "torchgpipe"}, {"repo__key": "github.com/kakaobrain/torchgpipe"}),
        (
            {"status": "unverified", "code_entry": "forward-step-func"},
            {"status": "unverified", "entry__name": "forward_step_func"},
        ),
    ],
    ids=lambda v: json.dumps(v) if isinstance(v, dict) and len(json.dumps(v)) < 60 else None,
)
def test_sample_filters(api, loaded_seeds, params, where):
    expected = db_keys(m.Sample.objects.filter(**where))
    assert expected, "a filter test must select something"
    assert expected != db_keys(m.Sample.objects.all()) or "ran" in params, "…and not everything"
    assert sample_keys(api, **params) == expected


def test_sample_framework_and_official_filters(api, loaded_seeds):
    assert sample_keys(api, framework="pytorch") == db_keys(
        m.Sample.objects.filter(
            paper__arxiv_id="1811.06965", repo__code_links__framework="pytorch"
        ).distinct()
    )
    assert sample_keys(api, official="true") == []
    m.CodeLink.objects.filter(repo__key="github.com/pytorch/pippy").update(is_official=True)
    assert sample_keys(api, official="true") == db_keys(
        m.Sample.objects.filter(repo__key="github.com/pytorch/pippy")
    )


def test_a_place_without_repository(api, db):
    from tests.factories import make_sample

    make_sample(repo=None, path="", file_url=None, licence=None, status_upstream="unverified")
    row = get(api, f"{V1}/samples/")["results"][0]
    assert row["repository"] is None
    assert row["file_url"] is None
    assert row["licence"] is None


# --- errors: a bad value is a 400 naming the parameter --------------------------------------


@pytest.mark.parametrize(
    ("path", "param", "value"),
    [
        ("papers/", "arxiv_id", "not-an-id"),
        ("papers/", "task", "no-such-task"),
        ("papers/", "method", "no-such-method"),
        ("papers/", "dataset", "No Such Dataset"),
        ("papers/", "official", "maybe"),
        ("papers/", "has_code", "2"),
        ("papers/", "title_source", "wikipedia"),
        ("papers/", "published_after", "2020-13-40"),
        ("papers/", "year_min", "twenty"),
        ("papers/", "year_max", "99999"),
        ("papers/", "ordering", "stars"),
        ("papers/", "q", "!!!"),
        ("papers/", "status", "correct"),
        ("papers/", "repository", "not a repo"),
        ("papers/", "code_entry", "no_such_routine"),
        ("papers/", "page", "two"),
        ("papers/", "page", "0"),
        ("papers/", "items_per_page", "0"),
        ("papers/", "items_per_page", "100000"),
        ("papers/", "pagination", "infinite"),
        ("papers/", "title", "a\x00b"),
        ("search/", "q", "***"),
        ("repositories/", "paper", "no-such-paper"),
        ("repositories/", "official", "yes please"),
        ("tasks/", "paper", "no-such-paper"),
        ("methods/", "introduced_by", "no-such-paper"),
        ("evaluations/", "task", "no-such-task"),
        ("evaluations/", "dataset", "No Such Dataset"),
        ("code-entries/", "status", "fine"),
        ("code-entries/", "ran", "often"),
        ("code-entries/", "ordering", "places"),
        ("samples/", "status", "bogus"),
        ("samples/", "inline_ok", "sometimes"),
        ("samples/", "repo_kind", "cousin"),
        ("samples/", "verification_level", "1.5"),
        ("samples/", "verification_level_min", "-1"),
        ("samples/", "repository", "nobody/nothing"),
        ("samples/", "code_entry", "nothing"),
        ("samples/", "paper", "nothing"),
        ("samples/", "paper", "100%{"),  # a "%" in a value once broke the error message (500)
        ("samples/", "cursor", "garbage"),
        ("samples/", "published_before", "yesterday"),
        (f"papers/{GPIPE}/samples/", "status", "bogus"),
        (f"papers/{GPIPE}/results/", "pagination", "cursor"),
    ],
)
def test_an_invalid_value_is_a_400_naming_the_parameter(api, loaded_seeds, path, param, value):
    response = api.get(f"{V1}/{path}", {param: value})
    assert response.status_code == 400, response.content[:300]
    assert param in response.json(), response.json()


def test_cursor_mode_refuses_page_and_ordering(api, loaded_seeds):
    assert "ordering" in get(api, f"{V1}/papers/", 400, pagination="cursor", ordering="-published")
    assert "page" in get(api, f"{V1}/papers/", 400, pagination="cursor", page=2)


def test_a_page_past_the_end_is_404(api, loaded_seeds):
    assert "detail" in get(api, f"{V1}/papers/", 404, page=99)
    assert get(api, f"{V1}/samples/", page=1)["count"] == 38


def test_an_empty_list_has_a_first_page(api, db):
    assert get(api, f"{V1}/samples/") == {"count": 0, "next": None, "previous": None, "results": []}


# --- cursor pagination ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "papers/",
        "samples/",
        "code-entries/",
        "repositories/",
        "methods/",
        "search/",
        f"papers/{GPIPE}/samples/",
    ],
)
def test_cursor_mode_walks_the_whole_list_once(api, loaded_seeds, path):
    by_page = walk(api, f"{V1}/{path}", items_per_page=50)
    first = get(api, f"{V1}/{path}", pagination="cursor", items_per_page=4)
    assert set(first) == {"next", "previous", "results"}
    by_cursor = walk(api, f"{V1}/{path}", pagination="cursor", items_per_page=4)
    assert len(by_cursor) == len(by_page) > 4
    assert sorted(json.dumps(r, sort_keys=True) for r in by_cursor) == sorted(
        json.dumps(r, sort_keys=True) for r in by_page
    )


def test_deep_pages_fetch_keys_first_and_keep_the_order(api, loaded_seeds, monkeypatch):
    from catalogue.pagination import paginators as pagination

    shallow = walk(api, f"{V1}/samples/", items_per_page=4)
    monkeypatch.setattr(pagination, "DEFERRED_FROM", 4)
    assert walk(api, f"{V1}/samples/", items_per_page=4) == shallow
    ranked = walk(api, f"{V1}/papers/", q="training", items_per_page=2)
    monkeypatch.setattr(pagination, "DEFERRED_FROM", 10**6)
    assert walk(api, f"{V1}/papers/", q="training", items_per_page=2) == ranked


def test_cursor_previous_link_goes_back(api, loaded_seeds):
    first = get(api, f"{V1}/samples/", pagination="cursor", items_per_page=5)
    second = api.get(first["next"]).json()
    back = api.get(second["previous"]).json()
    assert back["results"] == first["results"]


def test_cursor_pages_combine_with_filters(api, loaded_seeds):
    rows = walk(api, f"{V1}/samples/", pagination="cursor", items_per_page=3, status="unverified")
    assert {r["status"] for r in rows} == {"unverified"}
    assert len(rows) == m.Sample.objects.filter(status="unverified").count()


# --- the query count does not grow with the page --------------------------------------------

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


def count_queries(api, url) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(queries), len(response.json()["results"])


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, loaded_seeds, url, mode):
    sep = "&" if "?" in url else "?"
    if mode == "cursor":
        if url in NO_CURSOR:
            pytest.skip("a list bounded by its parent, without cursor mode")
        sep += "pagination=cursor&"
    one, rows_one = count_queries(api, f"{V1}/{url}{sep}items_per_page=1")
    fifty, rows_fifty = count_queries(api, f"{V1}/{url}{sep}items_per_page=50")
    assert rows_one == 1
    assert rows_fifty > 1
    assert fifty == one


def test_query_count_of_a_nested_page_is_pinned(api, loaded_seeds):
    # page mode: count + rows + each prefetch; the exact figures catch an accidental N+1
    assert count_queries(api, f"{V1}/samples/?items_per_page=50")[0] == 2
    assert count_queries(api, f"{V1}/papers/?items_per_page=50")[0] == 3
    assert count_queries(api, f"{V1}/code-entries/?items_per_page=50")[0] == 3


# --- ETag, throttling, CORS -----------------------------------------------------------------

DETAILS = [
    f"papers/{GPIPE}/",
    "repositories/pytorch/pippy/",
    "tasks/image-classification/",
    "methods/adam/",
    "evaluations/fine-grained-image-classification-on-birdsnap/",
    "evaluations/fine-grained-image-classification-on-birdsnap/metrics/accuracy/",
    "code-entries/forward-step-func/",
]


@pytest.mark.parametrize("path", DETAILS)
def test_detail_resources_answer_conditional_gets(api, loaded_seeds, path):
    first = api.get(f"{V1}/{path}")
    etag = first.headers["ETag"]
    assert etag.startswith('"')
    again = api.get(f"{V1}/{path}", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    stale = api.get(f"{V1}/{path}", HTTP_IF_NONE_MATCH='"something-else"')
    assert stale.status_code == 200


def test_an_etag_changes_with_the_object(api, loaded_seeds):
    url = f"{V1}/code-entries/forward-step-func/"
    etag = api.get(url).headers["ETag"]
    m.Sample.objects.filter(entry__name="forward_step_func", status="ran").update(status="ran_honours")
    response = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.headers["ETag"] != etag


def test_anonymous_clients_are_throttled_with_retry_after(api, loaded_seeds, settings):
    settings.API_THROTTLE_ANON = "3/minute"
    cache.clear()
    try:
        for _ in range(3):
            assert api.get(f"{V1}/tasks/").status_code == 200
        response = api.get(f"{V1}/tasks/")
        assert response.status_code == 429
        assert 0 < int(response.headers["Retry-After"]) <= 60
        assert "detail" in response.json()
        other = APIClient(REMOTE_ADDR="10.0.0.2")
        assert other.get(f"{V1}/tasks/").status_code == 200
    finally:
        cache.clear()


def test_throttle_off_means_unlimited(api, loaded_seeds, settings):
    settings.API_THROTTLE_ANON = "off"
    cache.clear()
    assert all(api.get(f"{V1}/tasks/").status_code == 200 for _ in range(70))


def test_cors_allows_reads_from_any_origin(api, loaded_seeds):
    response = api.get(f"{V1}/papers/", HTTP_ORIGIN="https://example.org")
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    preflight = api.options(
        f"{V1}/papers/", HTTP_ORIGIN="https://example.org", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert preflight.status_code == 200
    assert "GET" in preflight.headers["Access-Control-Allow-Methods"]
    assert "POST" not in preflight.headers["Access-Control-Allow-Methods"]


def test_the_api_is_read_only(api, loaded_seeds):
    assert api.post(f"{V1}/papers/", {}, format="json").status_code == 405
    assert api.delete(f"{V1}/papers/{GPIPE}/").status_code == 405


# --- schema and docs ------------------------------------------------------------------------


def test_schema_describes_every_endpoint_and_validates(api, db):
    from django.urls import get_resolver
    from drf_spectacular.validation import validate_schema

    response = api.get(f"{V1}/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)
    routes = {
        "/api/v1/" + str(p.pattern).replace("<paper_id:", "{").replace("<str:", "{").replace(">", "}")
        for p in get_resolver("catalogue.api.urls").url_patterns[0].url_patterns
        if p.name != "schema"
    }
    assert set(schema["paths"]) == routes
    for path, operations in schema["paths"].items():
        responses = operations["get"]["responses"]
        assert {"200", "404", "429"} <= set(responses), path
        assert "Retry-After" in responses["429"]["headers"], path
        assert ("304" in responses) or ("400" in responses), path
    stars = schema["components"]["schemas"]["Repository"]["properties"]["stars"]
    assert "Not known" in stars["description"]


def test_interactive_docs_are_served_from_our_static_files(api, db):
    from django.contrib.staticfiles import finders

    html = api.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert api.get("/api/redoc/").status_code == 200


# --- curator corrections --------------------------------------------------------------------


def test_corrections_are_served_with_the_snapshot_value_beside_them(api, loaded_seeds):
    from django.contrib.auth.models import User

    from catalogue import curation

    curator = User.objects.create_user("cora", password="x" * 12, is_staff=True)
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    curation.correct_title(paper, "GPipe (corrected)", user=curator, expected_version=None)
    sample = m.Sample.objects.get(entry__name="forward_step_func", status="ran")
    curation.correct_status(sample, "ran_honours", user=curator, reason="checked", expected_version=None)

    detail = get(api, f"{V1}/papers/{GPIPE}/")
    assert detail["title"] == "GPipe (corrected)"
    assert detail["corrected"] == {"title": {"snapshot": paper.title_upstream}}
    assert get(api, f"{V1}/papers/", corrected="true")["results"][0]["id"] == GPIPE
    place = get(api, f"{V1}/samples/", corrected="true")["results"]
    assert [(p["status"], p["corrected"]) for p in place] == [
        ("ran_honours", {"status": {"snapshot": "ran"}})
    ]
    assert {r["corrected"]["status"]["snapshot"] for r in walk(api, f"{V1}/samples/", corrected="true")} == {
        "ran"
    }
    assert all(r["corrected"] == {} for r in walk(api, f"{V1}/samples/", corrected="false"))
    figures = get(api, f"{V1}/code-entries/forward-step-func/")["figures"]
    assert (
        figures["by_status"]["ran"],
        figures["by_status"]["ran_honours"],
        figures["n_places_corrected"],
    ) == (
        0,
        1,
        1,
    )
