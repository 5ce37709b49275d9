"""catalogue.figures: one definition of every figure, computed the same way by every consumer.

The ORM (pages, API, admin, export), the SQL of the stored sort counts and the Python check of
a document's stated figures are three evaluations of one definition. The proof: change what
"ran" means in its one place (``Status.ran_values``) and every consumer follows.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue import counters, curation, figures
from catalogue.export import dump_snapshot
from catalogue.models import CodeEntry, Paper, Sample, Status
from tests import factories
from tests.conftest import load

pytestmark = pytest.mark.django_db

# Places of three papers, three bodies and two repositories: each figure counts something else.
PLACES = [
    # (paper, body, repo, status, inline_ok, fingerprinted)
    (0, 0, 0, "ran_fixture", True, False),
    (0, 1, 0, "unverified", False, False),
    (1, 0, 1, "ran_fixture", True, True),
    (1, 2, None, "ran_honours", False, False),
    (2, 2, 1, "unverified", True, False),
]
# What docs/SNAPSHOT-FORMAT.md says these places give, with ran_fixture counting as ran (as it does).
EXPECTED = {
    "n_places": 5,
    "n_places_pointer_only": 2,
    "n_samples": 3,
    "n_samples_ran": 2,  # by_status summed over the ran statuses: ran_fixture 1 + ran_honours 1
    "n_papers": 3,
    "n_papers_ran": 2,
    "n_samples_fingerprinted": 1,
}


def build(places=PLACES) -> CodeEntry:
    entry = factories.make_entry()
    papers, bodies, repos = {}, {}, {}
    for paper, body, repo, status, inline_ok, fingerprinted in places:
        factories.make_sample(
            entry=entry,
            paper=papers.setdefault(paper, factories.make_paper()),
            body=bodies.setdefault(body, factories.make_body()),
            repo=None if repo is None else repos.setdefault(repo, factories.make_repo()),
            status=status,
            inline_ok=inline_ok,
            behaviour_fingerprint=fingerprinted,
        )
    return entry


def rows(places=PLACES) -> list[dict]:
    """The same places as a document's rows, as the loader's check reads them."""
    return [
        {"paper": p, "body": b, "repo": r, "status": s, "inline_ok": i, "behaviour_fingerprint": f}
        for p, b, r, s, i, f in places
    ]


def test_the_orm_the_sql_and_python_give_the_format_s_figures():
    entry = build()
    orm = figures.code_entry_figures(entry).as_dict()
    assert {k: orm[k] for k in EXPECTED} == EXPECTED
    python = figures.stated_entry_figures(rows())
    assert {k: python[k] for k in EXPECTED} == EXPECTED
    assert (
        python["by_status"]
        == orm["by_status"]
        == {
            **dict.fromkeys(Status.values, 0),
            "ran_fixture": 1,
            "ran_honours": 1,
            "unverified": 2,
        }
    )
    entry.refresh_from_db()
    assert (entry.n_places, entry.n_papers, entry.n_samples_ran) == (5, 3, 2)  # the SQL's


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(0, 3),
            st.none() | st.integers(0, 2),
            st.sampled_from(Status.values),
            st.booleans(),
            st.booleans(),
        ),
        max_size=8,
        unique_by=lambda p: (p[0], p[1]),  # one place per (paper, body) under one entry
    )
)
def test_the_three_evaluations_agree_on_any_places(places):
    entry = build(places)
    # the figures of many entries or papers at once are sql()'s; of any set, the ORM's aggregates
    aggregated = figures.sample_figures(Sample.objects.filter(entry=entry))
    assert figures.grouped_by("entry_id", [entry.pk, entry.pk + 1000]) == {
        entry.pk: aggregated,
        entry.pk + 1000: figures.EMPTY,
    }
    for paper in Paper.objects.filter(samples__entry=entry).distinct():
        by_paper = figures.grouped_by("paper_id", [paper.pk])[paper.pk]
        assert by_paper == figures.sample_figures(Sample.objects.filter(paper=paper))
    orm = figures.code_entry_figures(entry).as_dict()
    python = figures.stated_entry_figures(rows(places))
    assert {k: orm[k] for k in python} == python
    entry.refresh_from_db()
    assert (entry.n_places, entry.n_papers, entry.n_samples_ran) == (
        orm["n_places"],
        orm["n_papers"],
        orm["n_samples_ran"],
    )


def _aggregated_paper_figures(paper) -> figures.PaperFigures:
    """A paper's figures as the database's aggregates give them, to check the Python count against."""
    places = Sample.objects.filter(paper=paper)
    samples = figures.sample_figures(places)
    kinds = figures.repo_kind_definitions()
    rows = places.values("repo_kind").annotate(**figures.aggregates(figures=kinds)).order_by()
    pointer_only = places.aggregate(**figures.aggregates(figures={"n": figures.POINTER_ONLY_BODIES}))["n"]
    failures = (
        places.values("repo_kind")
        .annotate(**figures.aggregates(figures={"n": figures.INSTRUMENT_FAILURE_BODIES}))
        .order_by()
    )
    failed = {(r["repo_kind"] or figures.UNKNOWN_KIND): r["n"] for r in failures}
    return figures.PaperFigures(
        samples=samples,
        summary=figures.summary(samples.by_status),
        by_repo_kind={(r["repo_kind"] or figures.UNKNOWN_KIND): {k: r[k] for k in kinds} for r in rows},
        n_pointer_only_for_licence=pointer_only,
        ran_words_by_kind={
            (r["repo_kind"] or figures.UNKNOWN_KIND): figures.ran_words(
                r["ran"], failed[r["repo_kind"] or figures.UNKNOWN_KIND]
            )
            for r in rows
        },
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),  # body
            st.none() | st.integers(0, 2),  # repository
            st.none() | st.sampled_from(["official", "community", "listed"]),
            st.sampled_from(Status.values),
            st.booleans(),  # inline_ok
            st.booleans(),  # fingerprinted
            st.booleans(),  # a curator corrected the status
        ),
        max_size=8,
    )
)
def test_a_paper_s_figures_counted_from_its_rows_agree_with_the_aggregates(places):
    paper, other = factories.make_paper(), factories.make_paper()
    bodies, repos = {}, {}
    for body, repo, kind, status, inline_ok, fingerprinted, corrected in places:
        factories.make_sample(
            paper=paper,
            body=bodies.setdefault(body, factories.make_body()),
            repo=None if repo is None else repos.setdefault(repo, factories.make_repo()),
            repo_kind=kind,
            status=status,
            inline_ok=inline_ok,
            behaviour_fingerprint=fingerprinted,
            status_corrected=corrected,
        )
    factories.make_sample(paper=other, body=bodies.get(0) or factories.make_body())  # not counted
    counted = figures.paper_figures(paper)
    assert counted == _aggregated_paper_figures(paper)
    # Places without a repository kind first, on every database.
    kinds = list(counted.by_repo_kind)
    assert kinds == sorted(kinds, key=lambda k: (k != figures.UNKNOWN_KIND, k))


def test_a_paper_s_figures_are_one_query(django_assert_num_queries):
    paper = factories.make_paper()
    factories.make_sample(paper=paper, repo=factories.make_repo(), repo_kind="official", status="ran")
    factories.make_sample(paper=paper, inline_ok=False)
    with django_assert_num_queries(1):
        stated = figures.paper_figures(paper)
    assert stated.samples.n_places == 2
    assert stated.by_repo_kind == {
        "unknown": {"samples": 1, "ran": 0, "repositories": 0},
        "official": {"samples": 1, "ran": 1, "repositories": 1},
    }


@pytest.fixture
def instrument_failures_do_not_count(monkeypatch):
    """What "ran" means, changed in its one place: a failure of the instrument is no longer "ran"."""
    ran = [s for s in Status.values if s != "unverified" and s not in Status.instrument_failures()]
    monkeypatch.setattr(Status, "ran_values", classmethod(lambda cls: list(ran)))


def test_a_changed_definition_of_ran_moves_every_consumer(instrument_failures_do_not_count, tmp_path, client):
    entry = build()
    # the ORM's figures
    assert figures.code_entry_figures(entry).n_samples_ran == 1
    assert figures.code_entry_figures(entry).n_papers_ran == 1
    # the stored sort column's SQL
    counters.refresh()
    entry.refresh_from_db()
    assert entry.n_samples_ran == 1
    # the query vocabulary, and through it the page's and the API's ran filters
    assert Sample.objects.ran().count() == 1
    assert Paper.objects.with_ran_samples().count() == 1
    assert CodeEntry.objects.with_ran_places().count() == 1
    api = client.get("/api/v1/samples/", {"ran": "true"}).json()
    assert api["count"] == 1
    # the loader's check of a document's stated figures
    python = figures.stated_entry_figures(rows())
    assert (python["n_samples_ran"], python["n_papers_ran"]) == (1, 1)
    # dump_snapshot's stated figures
    entry.document = factories.make_document()
    entry.save()
    dump_snapshot(tmp_path / "dump")
    (stated,) = [json.loads(p.read_text()) for p in (tmp_path / "dump" / "code").glob("*.json")]
    assert (stated["n_samples_ran"], stated["n_papers_ran"]) == (1, 1)


def test_a_changed_definition_of_ran_moves_the_loader_s_warning(instrument_failures_do_not_count, seeds_dir):
    # The seed states n_samples_ran with its ran_draft_wrong body counted as ran: now the rows give one fewer.
    doc = json.loads((seeds_dir / "000_cb8aa0155acc4815.json").read_text())
    assert doc["by_status"]["ran_draft_wrong"] == 1
    _out, err = load(seeds_dir / "000_cb8aa0155acc4815.json")
    stated = doc["n_samples_ran"]
    assert f"n_samples_ran: document states {stated}, its rows give {stated - 1}" in err


def test_a_curator_s_correction_moves_the_figures_and_the_stored_counts():
    entry = build()
    place = Sample.objects.filter(entry=entry, status="unverified").order_by("id").first()
    curation.correct_status(
        place,
        "ran",
        user=get_user_model().objects.create(username="curator"),
        reason="checked by hand",
        expected_version=None,
    )
    assert figures.code_entry_figures(entry).n_samples_ran == EXPECTED["n_samples_ran"] + 1
    assert figures.code_entry_figures(entry).n_places_corrected == 1
    entry.refresh_from_db()
    assert entry.n_samples_ran == EXPECTED["n_samples_ran"] + 1


def test_a_paper_s_figures_per_repository_kind():
    paper = factories.make_paper()
    body, other = factories.make_body(), factories.make_body()
    official, community = factories.make_repo(), factories.make_repo()
    factories.make_sample(paper=paper, body=body, repo=official, repo_kind="official", status="ran")
    factories.make_sample(paper=paper, body=other, repo=official, repo_kind="official", inline_ok=False)
    factories.make_sample(paper=paper, body=other, repo=community, repo_kind="community")
    factories.make_sample(paper=paper, body=body, repo=None)
    stated = figures.paper_figures(paper)
    assert stated.by_repo_kind == {
        "official": {"samples": 2, "ran": 1, "repositories": 1},
        "community": {"samples": 1, "ran": 0, "repositories": 1},
        "unknown": {"samples": 1, "ran": 0, "repositories": 0},
    }
    assert stated.n_pointer_only_for_licence == 1
    assert stated.summary == {"ran": 1, "unverified": 2}


@pytest.mark.parametrize(
    ("ran", "failures", "words"),
    [
        (0, 0, "0 ran"),
        (3, 0, "3 ran, none of them an instrument failure"),
        (1, 1, "1 ran, an instrument failure"),
        (2, 1, "2 ran, 1 of them an instrument failure"),
        (240, 109, "240 ran, 109 of them instrument failures"),
        (1508, 1200, "1,508 ran, 1,200 of them instrument failures"),
    ],
)
def test_a_count_of_ran_says_how_many_were_instrument_failures(ran, failures, words):
    assert figures.ran_words(ran, failures) == words


def test_sample_figures_count_instrument_failures_among_those_that_ran():
    values = {figures.by_status_name(s): 0 for s in Status.values}
    values |= {"by_status_ran": 5, "by_status_ran_draft_wrong": 2, "by_status_ran_fixture": 1}
    values |= {"by_status_unverified": 9}
    shown = figures.SampleFigures.of(values)
    assert shown.n_samples_ran == 8  # instrument failures included: the seeds' definition
    assert shown.n_samples_ran_instrument_failures == 3
    assert shown.ran_words == "8 ran, 3 of them instrument failures"
