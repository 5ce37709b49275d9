"""catalogue.loader.schema: one table of the staged columns, read by validation, staging, merge, export."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection

from catalogue.checks import schema_matches_models
from catalogue.loader import columns, schema, staging
from catalogue.loader.documents import RawDocument
from catalogue.loader.validate import parse
from tests.conftest import PAPER_SEED, SEEDS


def test_a_column_the_table_does_not_know_is_an_error_not_a_dropped_value():
    with pytest.raises(KeyError, match="stg_paper has no column 'abstrct'"):
        schema.PAPER.row(pkey="1811.06965", abstrct="typo")


def test_a_column_left_out_is_null_which_means_not_stated():
    row = schema.PAPER.row(pkey="1811.06965", slug="gpipe", view="code")
    assert dict(zip(schema.PAPER.names, row, strict=True))["abstract"] is None


def test_every_merged_column_names_a_real_model_field():
    assert schema_matches_models() == []
    call_command("check")  # the same check runs at every command's start


def test_a_column_merged_into_a_missing_field_fails_the_start_up_check(monkeypatch):
    broken = columns.Table(
        "result", [*schema.RESULT.columns, columns.Column("score", "t", group="stamp")], "Result"
    )
    monkeypatch.setitem(schema.TABLES, "result", broken)
    errors = schema_matches_models()
    assert [e.id for e in errors] == ["catalogue.E002"]
    assert "stg_result.score is merged into Result.score, which does not exist" in errors[0].msg
    with pytest.raises(SystemCheckError):
        call_command("check")


def test_a_stamp_group_that_is_not_a_field_of_the_model_fails_the_check(monkeypatch):
    broken = columns.Table(
        "repo", [columns.Column("key", "t"), columns.Column("host", "t", group="hosted_at")], "Repo"
    )
    monkeypatch.setitem(schema.TABLES, "repo", broken)
    assert [e.id for e in schema_matches_models()] == ["catalogue.E003"]


@pytest.mark.django_db
def test_the_staging_tables_are_the_schema_s():
    stage = staging.Staging()
    stage.create()
    try:
        with connection.cursor() as cursor:
            for name, table in schema.TABLES.items():
                columns = [
                    c.name for c in connection.introspection.get_table_description(cursor, f"stg_{name}")
                ]
                assert columns == ["seq", *table.names], name
    finally:
        stage.drop()


def _parsed(doc: dict, name="doc.json"):
    return parse(RawDocument(path=Path(name), name=name, sha256="0" * 64, value=doc))


def test_every_seed_row_fills_its_table_s_columns_by_name():
    for seed in SEEDS:
        parsed = _parsed(json.loads(seed.read_text()), seed.name)
        for table, rows in parsed.rows.items():
            assert all(len(row) == len(schema.TABLES[table].columns) for row in rows), table


def test_a_plain_field_is_read_and_checked_by_its_schema_rule():
    doc = json.loads(PAPER_SEED.read_text())
    doc["url_abs"] = "ftp://example.org/paper"
    doc["syntology"]["samples"][0]["licence"] = "x" * 101
    parsed = _parsed(doc)
    assert "doc.json: url_abs: expected an http(s) URL, got 'ftp://example.org/paper' (left out)" in map(
        str, parsed.warnings
    )
    assert any(
        "syntology.samples[0].licence: longer than 100 characters (101) (left out)" in w
        for w in map(str, parsed.warnings)
    )
    (paper,) = [dict(zip(schema.PAPER.names, row, strict=True)) for row in parsed.rows["paper"]]
    assert paper["url_abs"] == ""  # not stated


def test_a_url_with_text_around_it_is_that_url():
    doc = json.loads(PAPER_SEED.read_text())
    doc["url_abs"] = "see https://arxiv.org/abs/1811.06965 (abstract)"
    parsed = _parsed(doc)
    (paper,) = [dict(zip(schema.PAPER.names, row, strict=True)) for row in parsed.rows["paper"]]
    assert paper["url_abs"] == "https://arxiv.org/abs/1811.06965"
    assert any("url_abs: took the URL out of" in w for w in map(str, parsed.warnings))


def test_export_writes_what_validation_reads():
    """A group's fields, exported from a row and read back, are the same values."""
    doc = json.loads(PAPER_SEED.read_text())
    parsed = _parsed(doc)
    (paper,) = [dict(zip(schema.PAPER.names, row, strict=True)) for row in parsed.rows["paper"]]

    class Row:  # a model object with the staged values as its fields
        def __init__(self, values):
            self.__dict__.update({k: v if v is not None else "" for k, v in values.items()})

    exported = schema.PAPER.export(Row(paper), schema.PAPER_DOCUMENT)
    assert {k: exported[k] or "" for k in ("proceeding", "abstract", "url_abs", "url_pdf")} == {
        k: doc[k] or "" for k in ("proceeding", "abstract", "url_abs", "url_pdf")
    }
