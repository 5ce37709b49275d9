"""catalogue.api.ids: ids of results and metrics come from their natural keys, never from database ids."""

import re

from catalogue import identities
from catalogue import models as m
from catalogue.api.ids import metric_ids, result_id


def result(model="GPipe", pk=None, metrics=None, **paper):
    paper.setdefault("slug", "gpipe")
    metrics = metrics or {"Accuracy": "90%"}
    row_key = identities.result_row_key(model, metrics, None)
    return m.Result(pk=pk, paper=m.Paper(**paper), model=model, metrics=metrics, row_key=row_key)


def test_a_result_id_is_its_paper_and_what_its_row_says_whatever_its_database_row():
    first = result_id(result(pk=1, arxiv_id="1811.06965"))
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    # another database, another row id, another slug: the same paper (by arXiv id) and model
    assert result_id(result(pk=9001, arxiv_id="1811.06965", slug="gpipe-renamed")) == first
    assert result_id(result(pk=1, arxiv_id="1811.06965", model="GPipe (big)")) != first
    assert result_id(result(pk=1, arxiv_id="2409.01143")) != first
    # two settings of one model on one board are two rows, with two ids (issue 12: ids repeated)
    assert result_id(result(pk=1, arxiv_id="1811.06965", metrics={"Accuracy": "78%"})) != first


def test_a_paper_without_arxiv_id_is_keyed_by_its_slug_apart_from_arxiv_ids():
    by_slug = result_id(result(arxiv_id=None, slug="some-paper"))
    assert result_id(result(arxiv_id=None, slug="some-paper")) == by_slug
    assert result_id(result(arxiv_id=None, slug="another-paper")) != by_slug
    # a slug that reads like an arXiv id is not that arXiv paper
    assert result_id(result(arxiv_id=None, slug="1811.06965")) != result_id(result(arxiv_id="1811.06965"))


def test_metric_ids_are_slugs_numbered_where_two_collide_in_any_order():
    names = ["Top-1 Accuracy", "Top 1 Accuracy", "Params"]
    expected = [
        ("params", "Params"),
        ("top-1-accuracy", "Top 1 Accuracy"),
        ("top-1-accuracy-2", "Top-1 Accuracy"),
    ]
    assert metric_ids(names) == expected
    assert metric_ids(names[::-1]) == expected
    assert metric_ids(["%", "Σ"]) == [("metric", "%"), ("metric-2", "Σ")]  # nothing to slug: "metric"
    assert metric_ids([]) == []
