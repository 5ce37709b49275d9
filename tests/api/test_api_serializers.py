"""catalogue.api.serializers: the shape of every row (Papers-with-Code's, and the catalogue's own fields)."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from catalogue import models as m
from tests.api_helpers import GPIPE, V1, get, ids, walk

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- Papers-with-Code shapes --------------------------------------------------------------


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
        "sources": [{"document": "/paper/gpipe-efficient-training-of-giant-neural", "leaderboard": None}],
    }
    fleetx = next(r for r in repos if r["name"] == "FleetX")
    assert fleetx["sub_path"] == "tree/develop/examples/pipeline"


def test_a_method_names_the_paper_that_introduced_it(api, loaded_seeds):
    assert get(api, f"{V1}/methods/gpipe/")["paper"] == GPIPE


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


# --- the catalogue's own: places ----------------------------------------------------------


def test_a_place_without_repository(api, db):
    from tests.factories import make_sample

    make_sample(repo=None, path="", file_url=None, licence=None, status_upstream="unverified")
    row = get(api, f"{V1}/samples/")["results"][0]
    assert row["repository"] is None
    assert row["file_url"] is None
    assert row["licence"] is None


# --- curator corrections ------------------------------------------------------------------


def test_corrections_are_served_with_the_snapshot_value_beside_them(api, loaded_seeds):
    from django.contrib.auth.models import User

    from catalogue import curation

    curator = User.objects.create_user("cora", email="cora@example.org", password="x" * 12, is_staff=True)
    m.CuratorProfile.objects.create(user=curator, public_name="Cora from the catalogue")
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    title_fix = curation.correct_title(paper, "GPipe (corrected)", user=curator, expected_version=None)
    sample = m.Sample.objects.get(entry__name="forward_step_func", status="ran")
    status_fix = curation.correct_status(
        sample, "ran_honours", user=curator, reason="checked", expected_version=None
    )

    def mark(snapshot, correction, reason, paper=GPIPE):
        return {
            "snapshot": snapshot,
            "corrected_at": correction.created_at.isoformat().replace("+00:00", "Z"),
            "reason": reason,
            "by": "Cora from the catalogue",
            "history": f"http://testserver/corrections/?paper={paper}#correction-{correction.pk}",
        }

    detail = get(api, f"{V1}/papers/{GPIPE}/")
    assert detail["title"] == "GPipe (corrected)"
    assert detail["corrected"] == {"title": mark(paper.title_upstream, title_fix, "")}
    assert get(api, f"{V1}/papers/", corrected="true")["results"][0]["corrected"] == detail["corrected"]
    place = get(api, f"{V1}/samples/", corrected="true")["results"]
    assert [(p["status"], p["corrected"]) for p in place] == [
        ("ran_honours", {"status": mark("ran", status_fix, "checked", sample.paper.slug)})
    ]
    assert "cora@example.org" not in json.dumps(place)
    assert '"cora"' not in json.dumps(detail)
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


# --- the hot lists' plain rows (serializers.base.PlainRows) say what DRF's own path says --------


def _bodies(api, urls) -> dict[str, bytes]:
    out = {}
    for url in urls:
        response = api.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        out[url] = response.content
    return out


def test_plain_rows_answer_byte_for_byte_what_drf_s_own_path_answers(
    api, loaded_seeds, settings, monkeypatch
):
    from django.contrib.auth import get_user_model

    from catalogue import curation
    from catalogue.api.serializers import base

    settings.PAGE_CACHE_SECONDS = 0  # each answer built, not served from the response cache
    curator = get_user_model().objects.create(username="curator")
    place = m.Sample.objects.filter(status="unverified").order_by("id").first()
    curation.correct_status(place, "ran", user=curator, reason="ran it", expected_version=None)
    paper = m.Paper.objects.get(slug=GPIPE)
    curation.correct_title(paper, "GPipe, corrected", user=curator, reason="typo", expected_version=None)
    entry = m.CodeEntry.objects.order_by("id").first()
    urls = [
        f"{V1}/samples/?items_per_page=500",
        f"{V1}/samples/?status=ran&items_per_page=500",
        f"{V1}/samples/?pagination=cursor&items_per_page=7",
        f"{V1}/code-entries/{entry.slug}/samples/?items_per_page=500",
        f"{V1}/papers/?items_per_page=500",
        f"{V1}/papers/{GPIPE}/",
        f"{V1}/papers/{GPIPE}/repositories/",
        f"{V1}/search/?q=pipeline",
        f"{V1}/search/?q=training&items_per_page=500",
        f"{V1}/papers/?q=training&items_per_page=500",
        f"{V1}/code-entries/?items_per_page=500",
        f"{V1}/code-entries/{entry.slug}/",
        *(f"{V1}/papers/{slug}/" for slug in m.Paper.objects.order_by("slug").values_list("slug", flat=True)),
    ]
    plain = _bodies(api, urls)
    assert b'"corrected":{"status"' in plain[urls[1]]
    assert b'"corrected":{"title"' in plain[urls[5]]
    monkeypatch.setattr(
        base.PlainRows,
        "to_representation",
        lambda self, instance: base.serializers.Serializer.to_representation(self, instance),
    )
    assert _bodies(api, urls) == plain


@pytest.mark.parametrize(
    "url", [f"{V1}/papers/?items_per_page=50", f"{V1}/search/?q=training&items_per_page=50"]
)
def test_a_page_of_papers_reads_its_authors_names_without_an_author_per_name(
    api, loaded_seeds, settings, url
):
    from django.db.models.signals import post_init

    settings.PAGE_CACHE_SECONDS = 0
    made = []

    def count(sender, **kwargs):
        made.append(sender)

    post_init.connect(count, sender=m.Author)
    try:
        page = get(api, url)
    finally:
        post_init.disconnect(count, sender=m.Author)
    assert made == []
    # in position order, as the paper's own detail gives them
    for paper in page["results"][:5]:
        paper = paper.get("paper", paper)
        assert paper["authors"] == get(api, f"{V1}/papers/{paper['id']}/")["authors"]
    assert any(p.get("paper", p)["authors"] for p in page["results"])


@pytest.mark.parametrize("tail", ["", "repositories/", "tasks/"])
def test_a_paper_s_detail_and_children_make_no_author_or_slug_objects(api, loaded_seeds, settings, tail):
    from django.db.models.signals import post_init

    settings.PAGE_CACHE_SECONDS = 0
    paper = m.Paper.objects.get(arxiv_id="2510.16415")
    m.PaperSlug.objects.create(slug="mecefo-old-title", paper=paper, last_stamp="s")
    made = []

    def count(sender, **kwargs):
        made.append(sender)

    for model in (m.Author, m.PaperSlug):
        post_init.connect(count, sender=model)
    try:
        found = get(api, f"{V1}/papers/{paper.slug}/{tail}")  # (an old slug is found by its PaperSlug)
    finally:
        for model in (m.Author, m.PaperSlug):
            post_init.disconnect(count, sender=model)
    assert made == []
    if not tail:
        assert "mecefo-old-title" in found["aliases"]
        assert found["id"] not in found["aliases"]
        assert found["aliases"] == sorted(found["aliases"])
        assert found["authors"] == list(
            m.Author.objects.filter(paper__slug=found["id"])
            .order_by("position")
            .values_list("name", flat=True)
        )


# --- a paper's detail: one query of plain rows, and what DRF's own serializer says of the model ----


def _detail_as_drf_made_it(paper, request, monkeypatch) -> bytes:
    """The detail as it was made before it was read in one query: DRF's own serializer path (no
    plan) over the Paper model, with the context the view read in four ORM queries."""
    from rest_framework.renderers import JSONRenderer

    from catalogue import figures
    from catalogue.api.serializers import base, papers

    with monkeypatch.context() as patched:
        patched.setattr(
            base.PlainRows,
            "to_representation",
            lambda self, instance: base.serializers.Serializer.to_representation(self, instance),
        )
        context = {
            "request": request,
            "paper_figures": figures.paper_figures(paper),
            "author_names": {paper.pk: [a.name for a in paper.authors.order_by("position")]},
            "aliases": [s.slug for s in paper.slugs.order_by("slug") if s.slug != paper.slug],
        }
        data = papers.PaperDetailSerializer(paper, context=context).data
    return JSONRenderer().render(data)


def _papers_with_and_without_every_optional_field():
    """(name, paper, ids it is found under): every optional field absent, and each present."""
    import datetime

    from django.contrib.auth import get_user_model

    from catalogue import curation
    from tests.factories import make_paper, make_repo, make_sample

    bare = make_paper(arxiv_id=None, slug="bare", title="", title_upstream="", month="")
    inferred = make_paper(arxiv_id="2311.00042", slug="month-inferred")  # no date: month from the id
    full = make_paper(
        arxiv_id="1901.02345",
        slug="full-paper",
        title="Ünïcode “title” — 学习 ✓ 🙂",
        date=datetime.date(2019, 1, 8),
        month="2019-01",
        proceeding="NeurIPS 2019",
        abstract='An abstract with "quotes", \\backslashes\\, a tab\t, a line\nand 中文.',
        url_abs="https://arxiv.org/abs/1901.02345",
        url_pdf="https://arxiv.org/pdf/1901.02345",
        title_source=m.TitleSource.choices[0][0],
    )
    names = ["Zoë Zed", "Ádám Äbel", "李雷", "Mia Park", *map(str, range(20))]
    for position in [*range(1, len(names), 2), *range(0, len(names), 2)]:  # not written in order
        m.Author.objects.create(paper=full, position=position, name=names[position])
    m.Author.objects.create(paper=inferred, position=0, name="Only One")
    for old in ("old-z-slug", "old-a-slug", "ältere-fassung"):
        m.PaperSlug.objects.create(slug=old, paper=full, last_stamp="s")
    repos = [make_repo(), make_repo()]
    for n, (repo, kind, status, inline_ok) in enumerate(
        [
            (repos[0], m.RepoKind.OFFICIAL, m.Status.RAN, True),
            (repos[0], m.RepoKind.OFFICIAL, m.Status.RAN_HONOURS, False),
            (repos[1], m.RepoKind.COMMUNITY, m.Status.UNVERIFIED, True),
            (None, None, m.Status.RAN_VIOLATES, False),
        ]
    ):
        make_sample(paper=full, repo=repo, repo_kind=kind, status=status, inline_ok=inline_ok,
                    path=f"src/f{n}.py" if repo else "", behaviour_fingerprint=n % 2 == 0)  # fmt: skip
    no_repos = make_paper(slug="places-without-repositories")
    make_sample(paper=no_repos, repo=None, path="", status=m.Status.RAN)
    curator = get_user_model().objects.create(username="curator")
    corrected = make_paper(slug="corrected-title", arxiv_id="2002.00001")
    curation.correct_title(corrected, "Fixed ünïcode", user=curator, reason="typo", expected_version=None)
    return [
        ("bare", bare, ["bare"]),
        ("month inferred", inferred, ["month-inferred", "2311.00042", "2311.00042v3", "arxiv-2311-00042"]),
        ("full", full, ["full-paper", "1901.02345", "old-z-slug", "ältere-fassung", "arxiv-1901-02345"]),
        ("places without repositories", no_repos, [no_repos.slug]),
        ("corrected title", corrected, ["corrected-title", "2002.00001"]),
    ]


def test_a_paper_s_detail_is_byte_for_byte_what_drf_made_of_the_model(api, db, settings, monkeypatch):
    settings.PAGE_CACHE_SECONDS = 0
    for name, paper, ids_ in _papers_with_and_without_every_optional_field():
        paper.refresh_from_db()
        for paper_id in ids_:
            response = api.get(f"{V1}/papers/{paper_id}/")
            assert response.status_code == 200, (name, paper_id, response.content[:300])
            expected = _detail_as_drf_made_it(paper, response.wsgi_request, monkeypatch)
            assert response.content == expected, (name, paper_id)
    full = json.loads(api.get(f"{V1}/papers/full-paper/").content)
    assert full["authors"][:3] == ["Zoë Zed", "Ádám Äbel", "李雷"]
    assert len(full["authors"]) == 24
    assert full["aliases"] == ["old-a-slug", "old-z-slug", "ältere-fassung"]
    assert full["figures"]["samples"]["n_places"] == 4
    assert json.loads(api.get(f"{V1}/papers/bare/").content)["authors"] == []


def test_a_paper_s_detail_answers_as_before_for_an_id_two_papers_could_claim(api, db, settings):
    """The same precedence as ``reads.papers.paper``: the arXiv id, the slug, an old slug, then the
    arXiv id a slug gives; and the same 404."""
    from tests.factories import make_paper

    settings.PAGE_CACHE_SECONDS = 0
    by_slug = make_paper(slug="contested")
    by_old_slug = make_paper(slug="renamed")
    m.PaperSlug.objects.create(slug="was-contested", paper=by_old_slug, last_stamp="s")
    by_arxiv = make_paper(arxiv_id="1811.06965", slug="the-arxiv-one")
    m.PaperSlug.objects.create(slug="arxiv-1811-06965", paper=by_slug, last_stamp="s")
    assert get(api, f"{V1}/papers/contested/")["id"] == by_slug.slug
    assert get(api, f"{V1}/papers/was-contested/")["id"] == by_old_slug.slug
    assert get(api, f"{V1}/papers/1811.06965v2/")["id"] == by_arxiv.slug
    # an old slug comes before the arXiv id the slug spells
    assert get(api, f"{V1}/papers/arxiv-1811-06965/")["id"] == by_slug.slug
    response = api.get(f"{V1}/papers/no-such-paper/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No paper at /paper/no-such-paper"}
    # the paper's lists (repositories, tasks, results…) find it by the same rule, and 404 alike
    from catalogue import reads

    for paper_id, paper in [
        ("contested", by_slug),
        ("was-contested", by_old_slug),
        ("1811.06965v2", by_arxiv),
        ("arxiv-1811-06965", by_slug),
    ]:
        assert reads.papers.paper(paper_id).pk == paper.pk
    assert api.get(f"{V1}/papers/no-such-paper/repositories/").json() == response.json()


def test_a_paper_s_detail_is_one_query(api, loaded_seeds, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.PAGE_CACHE_SECONDS = 0
    for paper_id in (GPIPE, "1811.06965", "arxiv-1811-06965"):
        with CaptureQueriesContext(connection) as queries:
            response = api.get(f"{V1}/papers/{paper_id}/")
        assert response.status_code == 200
        assert len(queries) == 1, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"{V1}/papers/no-such-paper/").status_code == 404
    assert len(queries) == 1
    # a corrected title: and the correction's own row (when, why, by whom)
    from django.contrib.auth import get_user_model

    from catalogue import curation

    curator = get_user_model().objects.create(username="curator")
    paper = m.Paper.objects.get(slug=GPIPE)
    curation.correct_title(paper, "GPipe, corrected", user=curator, reason="typo", expected_version=None)
    with CaptureQueriesContext(connection) as queries:
        assert get(api, f"{V1}/papers/{GPIPE}/")["corrected"]["title"]["snapshot"] == paper.title_upstream
    assert len(queries) == 2, [q["sql"] for q in queries]


@pytest.mark.parametrize("url", [f"{V1}/papers/{GPIPE}/", f"{V1}/samples/?items_per_page=5"])
def test_plain_rows_copy_their_declared_fields_once_per_process_not_per_request(
    api, loaded_seeds, settings, monkeypatch, url
):
    from catalogue.api.serializers import base

    settings.PAGE_CACHE_SECONDS = 0
    assert api.get(url).status_code == 200  # the plans are made (once per class)
    copied = []
    get_fields = base.serializers.Serializer.get_fields
    monkeypatch.setattr(
        base.serializers.Serializer,
        "get_fields",
        lambda self: copied.append(type(self).__name__) or get_fields(self),
    )
    assert api.get(url).status_code == 200
    assert copied == []


# --- places: plain rows shaped for the answer, and what DRF made of the model --------------------


def _places_as_drf_made_them(ids_, request) -> bytes:
    """The places as they were made before they were read as plain rows: DRF's own serializer
    path over the Sample model (as ``code.samples()`` read them), with the declared fields of today's
    ``SampleSerializer`` and the methods it had then."""
    import copy

    from rest_framework import serializers as drf
    from rest_framework.renderers import JSONRenderer

    from catalogue.api.serializers import base, code
    from catalogue.models.corrections import attach_status_corrections, status_correction

    class SampleOverTheModel(drf.Serializer):
        def get_fields(self):
            return copy.deepcopy(code.SampleSerializer._declared_fields)

        def get_code(self, sample):
            text = getattr(sample, "shown_code", "")
            return {"text": text, "language": sample.body.code_language} if text else None

        def get_corrected(self, sample):
            return base.corrected_mark(
                self, "status", status_correction(sample), sample.status_upstream, sample.paper.slug
            )

    places = list(
        m.Sample.objects.with_shown_code().select_related("paper", "entry", "repo").filter(id__in=ids_)
    )
    attach_status_corrections(places)
    by_id = {p.pk: p for p in places}
    data = SampleOverTheModel([by_id[i] for i in ids_], many=True, context={"request": request}).data
    return JSONRenderer().render(data)


@pytest.fixture
def places_of_every_kind(loaded_seeds):
    """The seeds' places, and beside them: no repository, no licence, text shown and not, a
    corrected status, a NULL file URL, every repo kind."""
    from django.contrib.auth import get_user_model

    from catalogue import curation
    from tests.factories import make_body, make_paper, make_repo, make_sample

    paper = make_paper(arxiv_id=None, slug="places-of-every-kind", title="Ünïcode “places” 学习")
    repo = make_repo(
        host="gitlab.com", owner="Some-One", name="Their_Repo", key="gitlab.com/some-one/their_repo"
    )
    shown = make_body(code="def f():\n    return '“x”'\n", code_language="python")
    hidden = make_body(code="secret()", code_language="")
    make_sample(paper=paper, body=shown, repo=repo, repo_kind=m.RepoKind.OFFICIAL, path="a/b.py",
                file_url="https://gitlab.com/Some-One/Their_Repo/-/blob/main/a/b.py", inline_ok=True,
                verification_level=3, contract_check="honours", metamorphic_tier="t2",
                behaviour_fingerprint=True, link_basis="stated", language="python")  # fmt: skip
    make_sample(paper=paper, body=hidden, repo=None, path="", file_url=None, licence=None,
                inline_ok=False, repo_kind=None, status=m.Status.RAN_FIXTURE)  # fmt: skip
    make_sample(paper=paper, body=shown, repo=repo, repo_kind=m.RepoKind.COMMUNITY, inline_ok=False)
    curator = get_user_model().objects.create(username="curator")
    for place in m.Sample.objects.filter(status="unverified").order_by("id")[:2]:
        curation.correct_status(place, "ran", user=curator, reason="ran it", expected_version=None)
    return paper, repo


def test_places_are_byte_for_byte_what_drf_made_of_the_model(api, places_of_every_kind, settings):
    settings.PAGE_CACHE_SECONDS = 0
    paper, repo = places_of_every_kind
    entry = m.CodeEntry.objects.order_by("id").first()
    lists = [
        (f"{V1}/samples/?items_per_page=500", m.Sample.objects.all()),
        (f"{V1}/samples/?status=ran&items_per_page=500", m.Sample.objects.filter(status="ran")),
        (f"{V1}/samples/?corrected=true", m.Sample.objects.filter(status_corrected=True)),
        (f"{V1}/samples/?pagination=cursor&items_per_page=7", m.Sample.objects.all()),
        (f"{V1}/code-entries/{entry.slug}/samples/?items_per_page=500", entry.samples.all()),
        (f"{V1}/papers/{paper.slug}/samples/", paper.samples.all()),
        (f"{V1}/papers/{GPIPE}/samples/?items_per_page=500", m.Sample.objects.filter(paper__slug=GPIPE)),
        (f"{V1}/repositories/Some-One/Their_Repo/samples/?host=gitlab.com", repo.samples.all()),
    ]
    for url, places in lists:
        response = api.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        size = len(response.json()["results"])
        ids_ = list(places.order_by("id").values_list("id", flat=True)[:size])
        assert size > 0
        assert len(ids_) == size  # the list's first page: the model's first places in id order
        expected = _places_as_drf_made_them(ids_, response.wsgi_request)
        assert response.content.endswith(b'"results":' + expected + b"}"), url
    kinds = get(api, f"{V1}/papers/{paper.slug}/samples/")["results"]
    assert [p["code"] for p in kinds] == [
        {"text": "def f():\n    return '“x”'\n", "language": "python"},
        None,
        None,
    ]
    assert [p["repository"] and p["repository"]["url"] for p in kinds] == [
        "https://gitlab.com/Some-One/Their_Repo",
        None,
        "https://gitlab.com/Some-One/Their_Repo",
    ]


def test_a_page_of_places_makes_no_model_instance_and_a_fixed_number_of_queries(
    api, places_of_every_kind, settings
):
    from django.db import connection
    from django.db.models.signals import post_init
    from django.test.utils import CaptureQueriesContext

    settings.PAGE_CACHE_SECONDS = 0
    made = []

    def count(sender, **kwargs):
        made.append(sender.__name__)

    post_init.connect(count)
    try:
        counts = {}
        for size in (1, 50):
            for corrected in ("false", "true"):
                with CaptureQueriesContext(connection) as queries:
                    page = get(api, f"{V1}/samples/?items_per_page={size}&corrected={corrected}")
                assert (len(page["results"]) == 1) == (size == 1), (size, corrected)
                counts[size, corrected] = len(queries)
    finally:
        post_init.disconnect(count)
    # only the corrections themselves are models (the curator's public name is copied onto them)
    assert set(made) == {"Correction"}, made
    # page mode: count + rows (+ the page's active corrections when a row on it is corrected)
    assert counts == {(1, "false"): 2, (50, "false"): 2, (1, "true"): 3, (50, "true"): 3}
