"""Hostile documents: one validator, one outcome, on SQLite and on PostgreSQL alike.

Every length, range and character rule is the validator's (``loader.fields``, bounds read from
the models through ``loader.schema``), so the database never sees a value it would refuse, and
a document gives the same result on both backends: loaded (with warnings naming file and
field), or skipped under ``--keep-going`` with an error naming file, record and field.

Both databases cannot be in one pytest process (the suite runs once per backend), so the
sameness is kept in two ways; here the first:

* ``REPRO``, the issue's hostile documents one by one, each with the outcome it must have. The
  full outcome of each (skipped or loaded, the error, the warnings, and a digest of every stored
  row, canonical across backends) is committed in ``loader_hostile_expected.json``: each
  backend's run must give exactly that, so a difference between the databases fails in CI on
  whichever one differs. ``CWP_WRITE_HOSTILE_EXPECTED=1`` rewrites the file (review the diff).

The documents hypothesis generates, compared across the two backends, are in
test_loader_differential.py.
"""

import gzip
import hashlib
import json
import os
from pathlib import Path

import pytest
from django.db import connection

from catalogue import models as m
from catalogue.loader import columns, load_paths, schema
from tests.conftest import CODE_SEEDS
from tests.dump import catalogue_state
from tests.loader.hostile import document, outcome_of

EXPECTED_FILE = Path(__file__).with_name("loader_hostile_expected.json")


def _text(doc, **raw):
    """The document's JSON with ``"@name@"`` placeholders replaced by raw JSON text (1e400)."""
    text = json.dumps(doc)
    for name, value in raw.items():
        text = text.replace(json.dumps(f"@{name}@"), value)
    return text


# name -> (document text, expected outcome "loaded" | "skipped", a line of the error or warnings)
REPRO = {
    "read_at in year 1 before UTC": (
        json.dumps(document((["syntology", "read_at"], "0001-01-01T00:00:00+01:00"))),
        "loaded",
        "doc.json: syntology.read_at: '0001-01-01T00:00:00+01:00' is outside years 1 to 9999 in UTC"
        " (left out)",
    ),
    "read_at in year 9999 after UTC": (
        json.dumps(document((["syntology", "read_at"], "9999-12-31T23:59:59-01:00"))),
        "loaded",
        "doc.json: syntology.read_at: '9999-12-31T23:59:59-01:00' is outside years 1 to 9999 in UTC"
        " (left out)",
    ),
    "1e400 in arxiv_metadata": (
        _text(document((["arxiv_metadata"], {"x": "@big@"})), big="1e400"),
        "loaded",
        "doc.json: arxiv_metadata: holds a number that is not finite (left out)",
    ),
    "-1e400 in a metric": (
        _text(document((["results", 0, "metrics"], {"F1": "@big@"})), big="-1e400"),
        "loaded",
        "doc.json: results[0].metrics.F1: expected a finite number, got -inf (result skipped)",
    ),
    "NUL in arxiv_metadata": (
        json.dumps(document((["arxiv_metadata"], {"title": "a\x00b"}))),
        "loaded",
        "doc.json: arxiv_metadata: holds a NUL character or an unpaired surrogate (left out)",
    ),
    "NUL in a metric name": (
        json.dumps(document((["results", 0, "metrics"], {"Top\x001": "1"}))),
        "loaded",
        "doc.json: results[0].metrics.Top\ufffd1: a NUL character at position 3 replaced with U+FFFD",
    ),
    "lone surrogate in source": (
        json.dumps(document((["source"], {"archive": "a\ud800"}))),
        "loaded",
        "doc.json: source: holds a NUL character or an unpaired surrogate (left out)",
    ),
    "NUL in the abstract": (
        json.dumps(document((["abstract"], "An\x00abstract"))),
        "loaded",
        "doc.json: abstract: a NUL character at position 2 replaced with U+FFFD",
    ),
    "lone surrogate in the title": (
        json.dumps(document((["title"], "A \udc00 title"))),
        "loaded",
        "doc.json: title: an unpaired surrogate at position 2 replaced with U+FFFD",
    ),
    "NUL in the url": (
        json.dumps(document((["url"], "/paper/hostile\x00paper"))),
        "loaded",
        "doc.json: url: a NUL character at position 14 replaced with U+FFFD",
    ),
    "datasets_introduced name over 500": (
        json.dumps(document((["datasets_introduced"], ["d" * 501]))),
        "loaded",
        "doc.json: datasets_introduced[0]: dataset.name: longer than 500 characters (501) (dataset skipped)",
    ),
    "slug of 480": (
        json.dumps(document((["url"], "/paper/" + "s" * 480))),
        "skipped",
        "doc.json: paper.slug: longer than 300 characters (480)",
    ),
    "old-style arXiv id of 80": (
        json.dumps(document((["arxiv_id"], "x" * 72 + "/9301114"))),
        "skipped",
        "doc.json: paper.arxiv_id: longer than 40 characters (80)",
    ),
    "task name of 500": (
        json.dumps(document((["results", 0, "task"], "T" * 500), (["results", 0, "leaderboard"], None))),
        "loaded",
        "doc.json: results[0]: task.slug: longer than 300 characters (500) (result skipped)",
    ),
    "leaderboard path over 606": (
        json.dumps(document((["results", 0, "leaderboard"], "/sota/" + "b" * 601))),
        "loaded",
        "doc.json: results[0].leaderboard: longer than 606 characters (607) (left out)",
    ),
    "leaderboard slug made over 600": (
        json.dumps(
            document(
                (["results", 0, "leaderboard"], None),
                (["results", 0, "task"], "t" * 290),
                (["results", 0, "dataset"], "D" * 400),
            )
        ),
        "loaded",
        "doc.json: results[0]: leaderboard.slug: longer than 600 characters (694) (result skipped)",
    ),
    "repository key over 400": (
        json.dumps(
            document((["code_links", 0, "repo_url"], "https://github.com/" + "o" * 199 + "/" + "n" * 199))
        ),
        "loaded",
        "doc.json: code_links[0]: repo.key: longer than 400 characters (410) (code link skipped)",
    ),
    "abstract over the text cap": (
        json.dumps(document((["abstract"], "a" * 1_000_001))),
        "loaded",
        "doc.json: abstract: longer than 1000000 characters (1000001) (left out)",
    ),
    "huge int in arxiv_metadata": (
        json.dumps(document((["arxiv_metadata"], {"n": 2**80}))),
        "loaded",
        None,
    ),
    "floats PostgreSQL's jsonb rewrites": (
        json.dumps(
            document((["arxiv_metadata"], {"big": 1.5e300, "zero": -0.0, "small": 1e-7, "int": 1e16}))
        ),
        "loaded",
        None,
    ),
    "deep nesting in arxiv_metadata": (
        json.dumps(document((["arxiv_metadata"], json.loads("[" * 500 + "]" * 500)))),
        "loaded",
        None,
    ),
    "read_at of a year below 1000": (
        json.dumps(document((["syntology", "read_at"], "0999-06-01T00:00:00+00:00"))),
        "loaded",
        None,
    ),
}


@pytest.mark.parametrize("case", REPRO, ids=str)
def test_a_hostile_document_has_its_one_outcome_on_either_database(case, db, tmp_path):
    text, outcome, line = REPRO[case]
    got = outcome_of(text, tmp_path)
    assert got["outcome"] == outcome, got
    if line is not None:
        assert line in [got["error"], *got["warnings"]], got
    _compare_with_committed(case, got)


def _compare_with_committed(case: str, got: dict) -> None:
    expected = json.loads(EXPECTED_FILE.read_text()) if EXPECTED_FILE.exists() else {}
    if os.environ.get("CWP_WRITE_HOSTILE_EXPECTED"):
        expected[case] = got
        EXPECTED_FILE.write_text(json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=True) + "\n")
        return
    assert case in expected, f"{case!r} has no committed outcome: run once with CWP_WRITE_HOSTILE_EXPECTED=1"
    assert got == expected[case], f"{connection.vendor} differs from the committed outcome of {case!r}"


# --- hostile dumps (issue 34): the same rules as documents, JSON and Parquet alike ---------------

_PWC = "https://paperswithcode.com/paper/"


_DUMP_PAPER = {
    "paper_url": _PWC + "hostile",
    "arxiv_id": "2001.00001",
    "title": "Hostile",
    "authors": ["Ada"],
}


def _dump_json(*records, raw: dict | None = None, prefix: bytes = b"") -> bytes:
    """A papers dump's JSON: ``"@name@"`` placeholders replaced by raw bytes (1e400, NaN, ED A0 80)."""
    data = json.dumps(list(records)).encode()
    for name, value in (raw or {}).items():
        data = data.replace(json.dumps(f"@{name}@").encode(), value)
    return prefix + data


def _dump_parquet(*records, titles=None) -> bytes:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist(list(records))
    if titles is not None:  # bytes as they are, valid UTF-8 or not
        column = pa.array(titles, type=pa.binary()).view(pa.string())
        table = table.set_column(table.schema.get_field_index("title"), "title", column)
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


_DEEP = "[" * 100_000 + "]" * 100_000


_OTHER = {**_DUMP_PAPER, "paper_url": _PWC + "other", "arxiv_id": "2001.00002"}


# name -> (file name, bytes, expected outcome, a line of the error or warnings)
DUMP_REPRO = {
    "dump nested 100,000 levels": (
        "papers-with-abstracts.json",
        _dump_json(_DUMP_PAPER, {**_OTHER, "x": "@deep@"}, raw={"deep": _DEEP.encode()}),
        "skipped",
        "papers-with-abstracts.json: [1]: nested deeper than 512 levels",
    ),
    "dump record over the per-file cap": (
        "papers-with-abstracts.json.gz",
        gzip.compress(_dump_json(_DUMP_PAPER, {**_OTHER, "abstract": "a" * (3 << 20)})),
        "skipped",
        "papers-with-abstracts.json.gz: [1]: a record larger than the per-file cap of 1 MB as JSON text"
        " (load_snapshot --max-file-mb raises it)",
    ),
    "dump duplicate key": (
        "papers-with-abstracts.json",
        _dump_json(_DUMP_PAPER).replace(b'"title": "Hostile"', b'"title": "A", "title": "B"'),
        "skipped",
        "papers-with-abstracts.json: [0].title: invalid JSON: duplicate key 'title' in one object",
    ),
    "dump NaN": (
        "papers-with-abstracts.json",
        _dump_json({**_DUMP_PAPER, "abstract": "@n@"}, raw={"n": b"NaN"}),
        "skipped",
        "papers-with-abstracts.json: [0].abstract: invalid JSON: NaN is not a JSON number",
    ),
    "dump BOM": (
        "papers-with-abstracts.json",
        _dump_json(_DUMP_PAPER, prefix=b"\xef\xbb\xbf"),
        "loaded",
        None,
    ),
    "dump 1e400 and 2**80": (
        "papers-with-abstracts.json",
        _dump_json(
            {**_DUMP_PAPER, "title": "@big@", "nips_id": "@huge@"}, raw={"big": b"1e400", "huge": b"2" * 25}
        ),
        "loaded",
        "papers-with-abstracts.json: [0].title: expected a string, got a float (left out)",
    ),
    "dump surrogate-encoded bytes": (
        "papers-with-abstracts.json.gz",
        gzip.compress(_dump_json({**_DUMP_PAPER, "title": "@s@"}, raw={"s": b'"a\xed\xa0\x80b"'})),
        "skipped",
        "papers-with-abstracts.json.gz: not UTF-8 text (byte 96)",
    ),
    "dump escaped NUL": (
        "papers-with-abstracts.json",
        _dump_json({**_DUMP_PAPER, "abstract": "An\x00abstract"}),
        "loaded",
        "papers-with-abstracts.json: [0].abstract: a NUL character at position 2 replaced with U+FFFD",
    ),
    "dump raw NUL": (
        "papers-with-abstracts.json",
        _dump_json({**_DUMP_PAPER, "title": "@s@"}, raw={"s": b'"a\x00b"'}),
        "skipped",
        None,
    ),
    "dump blank author": (
        "papers-with-abstracts.json",
        _dump_json({**_DUMP_PAPER, "authors": ["Ada", " "]}),
        "loaded",
        "papers-with-abstracts.json: [0].authors[1]: a blank author name (left out)",
    ),
    "dump paper twice with other data": (
        "papers-with-abstracts.json",
        _dump_json(_DUMP_PAPER, {**_DUMP_PAPER, "paper_url": _PWC + "hostile-1", "title": "Other"}),
        "loaded",
        "papers-with-abstracts.json: [1]: gives paper 2001.00001 as record [0] did, with other data:"
        " [0] is kept",
    ),
    "dump of no records": ("papers-with-abstracts.json", b"[]", "loaded", None),
    "parquet bad UTF-8": (
        "papers-with-abstracts.parquet",
        _dump_parquet(_DUMP_PAPER, _OTHER, titles=[b"ok", b"a\xed\xa0\x80b"]),
        "skipped",
        "papers-with-abstracts.parquet: not UTF-8 text in its row group 0 (invalid continuation byte)",
    ),
    "parquet NaN and huge numbers": (
        "papers-with-abstracts.parquet",
        _dump_parquet({**_DUMP_PAPER, "nips_id": float("nan"), "x": 2**63 - 1, "abstract": float("inf")}),
        "loaded",
        "papers-with-abstracts.parquet: [0].abstract: expected a string, got a float (left out)",
    ),
    "parquet escaped NUL and blank author": (
        "papers-with-abstracts.parquet",
        _dump_parquet({**_DUMP_PAPER, "abstract": "An\x00abstract", "authors": ["Ada", ""]}),
        "loaded",
        "papers-with-abstracts.parquet: [0].authors[1]: a blank author name (left out)",
    ),
    "parquet paper twice with other data": (
        "papers-with-abstracts.parquet",
        _dump_parquet(_DUMP_PAPER, {**_DUMP_PAPER, "paper_url": _PWC + "hostile-1", "title": "Other"}),
        "loaded",
        "papers-with-abstracts.parquet: [1]: gives paper 2001.00001 as record [0] did, with other data:"
        " [0] is kept",
    ),
}


@pytest.mark.parametrize("case", DUMP_REPRO, ids=str)
def test_a_hostile_dump_has_its_one_outcome_on_either_database(case, db, tmp_path):
    name, data, outcome, line = DUMP_REPRO[case]
    path = tmp_path / name
    path.write_bytes(data)
    result = load_paths([path], keep_going=True, workers=0, max_file_bytes=1 << 20)
    (status,) = result.file_counts
    state = json.dumps(catalogue_state(), sort_keys=True, default=str, ensure_ascii=True)
    got = {
        "outcome": status,
        "error": result.skipped[0].error if result.skipped else "",
        "warnings": sorted(map(str, result.warnings)),
        "rows": hashlib.sha256(state.encode()).hexdigest(),
    }
    assert got["outcome"] == outcome, got
    assert "Traceback" not in got["error"]
    if line is not None:
        assert line in [got["error"], *got["warnings"]], got
    _compare_with_committed(f"dump: {case}", got)


def test_nothing_the_database_would_refuse_reaches_it(db, tmp_path):
    """The stored text of the repro cases holds no NUL or lone surrogate, on either backend."""
    text, _, _ = REPRO["NUL in the abstract"]
    outcome_of(text, tmp_path)
    paper = m.Paper.objects.get()
    assert paper.abstract == "An\ufffdabstract"


def test_each_staged_text_column_is_bounded_by_the_model_field_it_ends_in():
    """One declaration: the bound is the model field's own ``max_length`` (a ``stored`` name that
    names no field fails here), else the cap on free text."""
    for table in schema.TABLES.values():
        for column in table.columns:
            assert 0 < table.max_chars(column.name) <= columns.MAX_TEXT_CHARS
    assert schema.max_chars("paper", "slug") == m.Paper._meta.get_field("slug").max_length
    assert schema.max_chars("repo", "key") == m.Repo._meta.get_field("key").max_length
    assert schema.max_chars("leaderboard", "task_slug") == m.Task._meta.get_field("slug").max_length
    assert schema.max_chars("paper", "abstract") == columns.MAX_TEXT_CHARS


def test_newest_wins_by_instant_also_before_year_1000(db, tmp_path):
    """A read_at in year 999 is older than one in 2026 (the stamp once sorted '999-' above '2026-')."""
    old = document((["syntology", "read_at"], "0999-01-01T00:00:00+00:00"), (["abstract"], "old"))
    new = document((["syntology", "read_at"], "2026-01-01T00:00:00+00:00"), (["abstract"], "new"))
    (tmp_path / "a.json").write_text(json.dumps(old))
    (tmp_path / "b.json").write_text(json.dumps(new))
    load_paths([tmp_path / "a.json", tmp_path / "b.json"], workers=0)
    assert m.Paper.objects.get().abstract == "new"


def test_newest_wins_by_instant_across_time_zones(db, tmp_path):
    """01:30+02:00 is 23:30 UTC the day before: older than 00:15 UTC, whatever the text says."""
    early = document((["syntology", "read_at"], "2026-01-02T01:30:00+02:00"), (["abstract"], "early"))
    late = document((["syntology", "read_at"], "2026-01-02T00:15:00+00:00"), (["abstract"], "late"))
    (tmp_path / "a.json").write_text(json.dumps(late))
    (tmp_path / "b.json").write_text(json.dumps(early))
    load_paths([tmp_path / "a.json", tmp_path / "b.json"], workers=0)
    assert m.Paper.objects.get().abstract == "late"


def test_by_repo_kind_is_compared_as_the_format_defines_it(db, tmp_path):
    """A place without a repo_kind is of no kind: a document stating only its kinds is not warned
    of (a clean 2,000-paper snapshot gave 113 such warnings, all for an 'unknown' kind no document states)."""
    doc = document()
    kindless = {**doc["syntology"]["samples"][0], "code_sha256_prefix": "fedcba9876543210", "repo_kind": None}
    doc["syntology"]["samples"].append(kindless)
    doc["syntology"]["summary"] = {"unverified": 2}
    (tmp_path / "doc.json").write_text(json.dumps(doc))
    result = load_paths([tmp_path / "doc.json"], workers=0)
    assert not [w for w in map(str, result.warnings) if "by_repo_kind" in w], result.warnings


def test_a_code_entry_named_with_a_nul_loads_with_a_warning(db, tmp_path):
    """NUL in text no longer refuses a document (1.3 % of realistic abstracts carry one)."""
    doc = json.loads(CODE_SEEDS[0].read_text())
    doc["entry"] = doc["entry"] + "\x00"
    (tmp_path / "doc.json").write_text(json.dumps(doc))
    result = load_paths([tmp_path / "doc.json"], workers=0)
    assert result.file_counts == {"loaded": 1}
    assert m.CodeEntry.objects.filter(name__endswith="\ufffd").exists()
