"""Full-text search answers the same on SQLite (FTS5) and PostgreSQL (tsvector + GIN)."""

import json

import pytest

from catalogue import search
from catalogue.models import CodeEntry, Paper, Repo
from tests.conftest import SEEDS, load

pytestmark = pytest.mark.django_db


def kinds_and_ids(hits):
    return [(h.kind, h.object_id) for h in hits]


def test_finds_papers_by_title_abstract_and_author(loaded_seeds):
    gpipe = Paper.objects.get(arxiv_id="1811.06965")
    for q in ("GPipe pipeline", "AmoebaNet", "Yanping Huang", "parallelism"):
        assert ("paper", gpipe.id) in kinds_and_ids(search.ranked(q)), q


def test_stems_english_words(loaded_seeds):
    hits = kinds_and_ids(search.ranked("pipelines", kinds=["paper"]))
    assert ("paper", Paper.objects.get(arxiv_id="1811.06965").id) in hits


def test_finds_code_entries_and_repositories(loaded_seeds):
    entry = CodeEntry.objects.get(name="forward_step_func")
    assert ("entry", entry.id) in kinds_and_ids(search.ranked("forward_step_func"))
    repo = Repo.objects.get(key="github.com/kakaobrain/torchgpipe")
    assert ("repo", repo.id) in kinds_and_ids(search.ranked("torchgpipe", kinds=["repo"]))


def test_a_title_match_outranks_an_abstract_match(loaded_seeds):
    hits = search.ranked("memory", kinds=["paper"])
    first = Paper.objects.get(id=hits[0].object_id)
    assert "memory" in first.title.lower()


@pytest.mark.parametrize(
    "q", ['"', "AND OR NOT", "title:x", "*", "'; DROP TABLE x; --", "(((", "NEAR(a b)", "\x00"]
)
def test_no_input_breaks_a_query(loaded_seeds, q):
    search.ranked(q)  # must not raise
    list(search.matching(Paper.objects.all(), q, "paper"))


def test_queryset_filter_and_rank(loaded_seeds):
    qs = search.with_rank(Paper.objects.all(), "training", "paper").order_by("-search_rank")
    titles = [p.title for p in qs]
    assert titles
    assert all(p.search_rank > 0 for p in qs)


def test_reloading_a_changed_title_updates_the_index(loaded_seeds, tmp_path):
    doc = json.loads(SEEDS[2].read_text())
    doc["title"] = "Zyxwvut: a renamed paper"
    doc["syntology"]["read_at"] = "2026-12-01T00:00:00+00:00"
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc))
    load(path)
    gpipe = Paper.objects.get(arxiv_id="1811.06965")
    assert kinds_and_ids(search.ranked("zyxwvut")) == [("paper", gpipe.id)]
    assert search.ranked("GPipe Efficient Training Giant", kinds=["paper"]) == []


def test_reindex_picks_up_rows_written_outside_the_loader(db):
    from tests.factories import make_paper, reindex_search

    paper = make_paper(title="Quixotic transformers", abstract="About windmills.")
    assert search.ranked("windmills") == []
    reindex_search()
    assert kinds_and_ids(search.ranked("windmills")) == [("paper", paper.id)]


def test_a_huge_abstract_is_indexed_by_its_beginning(db):
    from catalogue.search import INDEXED_BODY_CHARS
    from tests.factories import make_paper, reindex_search

    paper = make_paper(abstract="windmills " + "x " * INDEXED_BODY_CHARS + " zeppelins")
    reindex_search()
    assert [h.object_id for h in search.ranked("windmills")] == [paper.id]
    assert search.ranked("zeppelins") == []


def test_the_search_page_ranks_its_words_once_with_the_memo_off(client, loaded_seeds, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # Both caches off: the page and its list of matching authors rank the same words.
    settings.PAGE_CACHE_SECONDS = 0
    settings.FIGURES_CACHE_SECONDS = 0
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/search?q=training")
    assert response.status_code == 200
    assert b"result" in response.content
    rankings = [q["sql"] for q in ctx.captured_queries if "ORDER BY rank DESC" in q["sql"]]
    assert len(rankings) == 1, rankings
    # and a later request ranks afresh, and so does a ranking outside a request: nothing is kept
    search.ranked("training")
    assert search._RANKED_IN_BLOCK.get() is None
    with CaptureQueriesContext(connection) as ctx:
        client.get("/search?q=training")
    assert len([q for q in ctx.captured_queries if "ORDER BY rank DESC" in q["sql"]]) == 1
