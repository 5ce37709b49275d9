"""Issue 34: the archive's dumps held to the documents' rules, no silent shrink, operator errors.

Every file the loader reads, a document or a dump's record, JSON or Parquet, meets one set of
rules (``documents.MAX_DEPTH``, the per-file cap per record, duplicate keys and NaN refused naming
record and field, a BOM accepted, text that is not UTF-8 refused naming the byte, a number out of
range left out of its field); a dump that gives far less than the copy it replaces is refused with
the counts, and the catalogue stays as it was; a path that is no file or folder, a full disk and a
database that is gone are each one line and exit status 1.
"""

import copy
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from django.core.management.base import CommandError
from django.db import connection

from catalogue import models as m
from tests import archive_dumps
from tests.conftest import PAPER_SEED, ROOT, load
from tests.dump import catalogue_state

pytestmark = pytest.mark.django_db

PWC = archive_dumps.PWC
PAPER = {
    "paper_url": f"{PWC}/paper/a-paper",
    "arxiv_id": "2001.00001",
    "title": "A paper",
    "authors": ["Ada"],
}


def _write(folder: Path, name: str, text: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    path = folder / name
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


def _refused(path, **options) -> str:
    before = catalogue_state()
    with pytest.raises(CommandError) as caught:
        load(path, **options)
    message = str(caught.value)
    assert "Traceback" not in message
    assert catalogue_state() == before
    return message


# --- one set of rules: nesting ------------------------------------------------------------


@pytest.mark.parametrize("depth", [600, 100_000])
def test_a_dump_record_nested_too_deep_is_refused_naming_it(tmp_path, depth):
    """ijson built every level (10 GB at 100,000); 600 levels loaded. Now: refused past 512."""
    deep = "[" * depth + "]" * depth
    text = "[" + json.dumps(PAPER) + ', {"paper_url": "x", "extra": ' + deep + "}]"
    path = _write(tmp_path, "papers-with-abstracts.json", text)
    message = _refused(path)
    assert "papers-with-abstracts.json: [1]: nested deeper than 512 levels" in message


def test_a_dump_record_nested_512_levels_loads(tmp_path):
    deep = "[" * 510 + "]" * 510  # with the list of records and the record: 512
    text = "[" + json.dumps({**PAPER, "x": "@"}).replace('"@"', deep) + "]"
    path = _write(tmp_path, "papers-with-abstracts.json", text)
    load(path)
    assert m.Paper.objects.filter(arxiv_id="2001.00001").exists()


def test_a_document_nested_past_the_same_depth_is_refused_alike(tmp_path):
    """One rule for documents too (a document of 600 levels loaded before)."""
    doc = {**json.loads(PAPER_SEED.read_text()), "arxiv_metadata": "@"}
    text = json.dumps(doc).replace('"@"', "[" * 600 + "]" * 600)
    path = _write(tmp_path, "doc.json", text)
    assert "doc.json: nested deeper than 512 levels" in _refused(path)


def test_a_parquet_dump_nested_past_the_depth_is_refused(tmp_path):
    """Parquet's reader bounds nesting itself, at 100 levels (below the JSON rule's 512): a deeper
    file is refused as not a Parquet file it can read; the loader's own check is the net."""
    kind = pa.int64()
    for _ in range(520):
        kind = pa.list_(kind)
    value = 1
    for _ in range(520):
        value = [value]
    table = pa.table({"paper_url": [PAPER["paper_url"]], "extra": pa.array([value], type=kind)})
    path = tmp_path / "papers-with-abstracts.parquet"
    try:
        pq.write_table(table, path)
    except pa.ArrowException as exc:  # Parquet itself may bound nesting first
        pytest.skip(f"pyarrow cannot write a schema this deep: {exc}")
    message = _refused(path)
    assert message.startswith("papers-with-abstracts.parquet: "), message
    assert "nested deeper than 512 levels" in message or "schema too deeply nested" in message


# --- record size (the long string) -------------------------------------------------------


def test_a_dump_record_over_the_per_file_cap_is_refused(tmp_path):
    """A 2 MB string under a 1 MB cap: refused when the record's text passes the cap, not read to
    its end (a 1 GB string took ijson 45 minutes; bench/hostile_dumps_bench.py)."""
    text = "[" + json.dumps(PAPER) + ", " + json.dumps({**PAPER, "abstract": "a" * (2 << 20)}) + "]"
    path = _write(tmp_path, "papers-with-abstracts.json.gz", text)
    message = _refused(path, max_file_mb=1)
    assert "papers-with-abstracts.json.gz: [1]: a record larger than the per-file cap of 1 MB" in message


def test_a_dump_larger_than_the_cap_in_small_records_loads(tmp_path):
    """The cap is per record: a dump is as large as it is."""
    records = [
        {**PAPER, "paper_url": f"{PWC}/paper/p{i}", "arxiv_id": f"2001.{i:05d}", "abstract": "x" * 3000}
        for i in range(400)
    ]
    path = _write(tmp_path, "papers-with-abstracts.json", json.dumps(records))
    assert path.stat().st_size > 1 << 20
    load(path, max_file_mb=1)
    assert m.Paper.objects.count() == 400


# --- duplicate keys, NaN, BOM, numbers, UTF-8, NUL ---------------------------------------


def test_a_duplicate_key_in_a_dump_is_refused_naming_record_and_field(tmp_path):
    """A document with one is refused; a dump took the last silently."""
    text = "[" + json.dumps(PAPER) + ', {"paper_url": "x", "methods": [{"name": "A", "name": "B"}]}]'
    path = _write(tmp_path, "papers-with-abstracts.json", text)
    message = _refused(path)
    assert "papers-with-abstracts.json: [1].methods[0].name: invalid JSON: duplicate key 'name'" in message


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_in_a_dump_is_refused_naming_record_and_field(tmp_path, literal):
    text = "[" + json.dumps(PAPER) + ', {"paper_url": "x", "abstract": ' + literal + "}]"
    path = _write(tmp_path, "papers-with-abstracts.json", text)
    message = _refused(path)
    assert (
        f"papers-with-abstracts.json: [1].abstract: invalid JSON: {literal} is not a JSON number" in message
    )


@pytest.mark.parametrize("name", ["papers-with-abstracts.json", "papers-with-abstracts.json.gz"])
def test_a_dump_with_a_byte_order_mark_loads(tmp_path, name):
    """SECURITY.md says a BOM is accepted: a dump starting with one was refused."""
    path = _write(tmp_path, name, b"\xef\xbb\xbf" + json.dumps([PAPER]).encode())
    load(path)
    assert m.Paper.objects.filter(arxiv_id="2001.00001").exists()


@pytest.mark.parametrize("number", ["1e400", "-1e400", str(2**80), str(-(2**70))])
def test_a_number_out_of_range_leaves_its_field_out_not_the_dump(tmp_path, number):
    """'integer overflow' refused the whole dump, naming nothing; now the field is left out (or,
    in a field the loader does not read, ignored) and the rest loads."""
    text = json.dumps([{**PAPER, "title": "@n@", "nips_id": "@n@"}]).replace('"@n@"', number)
    path = _write(tmp_path, "papers-with-abstracts.json", text)
    _out, err = load(path)
    paper = m.Paper.objects.get(arxiv_id="2001.00001")
    assert paper.title != number
    assert "papers-with-abstracts.json: [0].title: expected a string" in err


@pytest.mark.parametrize("name", ["papers-with-abstracts.json", "papers-with-abstracts.json.gz"])
def test_surrogate_encoded_bytes_in_a_dump_are_refused_naming_the_byte(tmp_path, name):
    """ED A0 80 (a surrogate, encoded) ended in an uncaught UnicodeDecodeError."""
    data = json.dumps([PAPER, {**PAPER, "title": "@"}]).encode().replace(b'"@"', b'"a\xed\xa0\x80b"')
    path = _write(tmp_path, name, data)
    message = _refused(path)
    assert f"{name}: not UTF-8 text (byte {data.index(b'\xed')})" in message


def test_text_that_is_not_utf8_in_a_parquet_dump_is_refused_cleanly(tmp_path):
    titles = pa.array([b"ok", b"a\xed\xa0\x80b"], type=pa.binary()).view(pa.string())
    table = pa.table({"paper_url": [PAPER["paper_url"], f"{PWC}/paper/b"], "title": titles})
    path = tmp_path / "papers-with-abstracts.parquet"
    pq.write_table(table, path)
    assert "papers-with-abstracts.parquet: not UTF-8 text in its row group 0" in _refused(path)


@pytest.mark.parametrize("form", ["json", "parquet"])
def test_nul_in_a_dump_text_is_replaced_with_a_warning(tmp_path, form):
    record = {**PAPER, "abstract": "An\x00abstract"}
    if form == "json":
        path = _write(tmp_path, "papers-with-abstracts.json", json.dumps([record]))
    else:
        path = tmp_path / "papers-with-abstracts.parquet"
        pq.write_table(pa.Table.from_pylist([record]), path)
    _out, err = load(path)
    assert m.Paper.objects.get().abstract == "An\ufffdabstract"
    assert f"{path.name}: [0].abstract: a NUL character at position 2 replaced with U+FFFD" in err


def test_a_raw_control_character_in_a_dump_is_invalid_json_naming_the_record(tmp_path):
    data = json.dumps([PAPER, {**PAPER, "title": "@"}]).encode().replace(b'"@"', b'"a\x00b"')
    path = _write(tmp_path, "papers-with-abstracts.json", data)
    message = _refused(path)
    assert "papers-with-abstracts.json: invalid JSON at line 1 column" in message
    assert "Invalid control character" in message
    assert "(in record [1])" in message


# --- no silent shrink --------------------------------------------------------------------


def _all_dumps(tmp_path, form="json.gz") -> Path:
    archive_dumps.write(tmp_path / "first", form)
    return tmp_path / "first"


def _papers_dump(tmp_path, records, form="json.gz", date="2026-01-01") -> Path:
    name = f"papers-with-abstracts-{date}"
    folder = tmp_path / f"later-{form}"
    folder.mkdir(exist_ok=True)
    if form == "parquet":
        path = folder / f"{name}.parquet"
        schema = pa.schema([("paper_url", pa.string()), ("title", pa.string())])
        pq.write_table(pa.Table.from_pylist(records, schema=schema), path)
        return path
    return _write(folder, f"{name}.{form}", json.dumps(records))


@pytest.mark.parametrize("form", ["json.gz", "parquet"])
def test_a_dump_of_no_records_over_a_loaded_one_is_refused_and_nothing_changes(tmp_path, form):
    load(_all_dumps(tmp_path))
    papers = m.Paper.objects.count()
    message = _refused(_papers_dump(tmp_path, [], form))
    assert f"papers-with-abstracts-2026-01-01.{form}: 0 records read; " in message
    assert "the copy it replaces gave" in message
    assert "refused; load_snapshot --allow-shrink accepts it" in message
    assert m.Paper.objects.count() == papers


@pytest.mark.parametrize("form", ["json.gz", "parquet"])
def test_a_dump_whose_every_record_is_skipped_is_refused(tmp_path, form):
    """A papers dump with only a title column (an upstream rename): every record names no paper."""
    load(_all_dumps(tmp_path))
    records = [{"title": p["title"]} for p in archive_dumps.PAPERS]
    message = _refused(_papers_dump(tmp_path, records, form))
    assert "5 records read; " in message
    assert "refused" in message


def test_allow_shrink_accepts_it_and_the_summary_says_what_was_removed(tmp_path):
    load(_all_dumps(tmp_path))
    out, err = load(_papers_dump(tmp_path, []), allow_shrink=True)
    assert "shrink_accepted: 1" in err
    assert "papers-with-abstracts-2026-01-01.json.gz: " in out
    assert " removed" in out
    document = m.SourceDocument.objects.get(url="archive:papers-with-abstracts")
    assert document.file_name == "papers-with-abstracts-2026-01-01.json.gz"  # the shrunken copy is in


def test_every_load_says_per_dump_what_it_added_kept_and_removed(tmp_path):
    out, _err = load(_all_dumps(tmp_path))
    assert "by dump (added, kept, removed, against the copy it replaces):" in out
    assert "papers-with-abstracts.json.gz (first copy): " in out
    later = copy.deepcopy(archive_dumps.PAPERS)
    later.append({**PAPER})
    out, _err = load(_papers_dump(tmp_path, later))
    line = next(x for x in out.splitlines() if "papers-with-abstracts-2026-01-01.json.gz: " in x)
    assert "1 added" in line, line
    assert "0 removed" in line, line


def test_a_dump_that_keeps_half_loads(tmp_path):
    load(_all_dumps(tmp_path))
    load(_papers_dump(tmp_path, archive_dumps.PAPERS[:3]))  # 3 of 4 papers: no refusal


# --- operator errors ---------------------------------------------------------------------


def test_a_fifo_named_on_the_command_line_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "papers-with-abstracts.json"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), Path("/dev/null")):
        message = _refused(path)
        assert message.startswith(f"{path}: not a regular file or folder"), message


@pytest.mark.skipif("os.environ.get('CWP_EXPECT_DB') == 'postgresql'")
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_full_disk_on_sqlite_is_one_line_and_the_database_is_unchanged(tmp_path):
    before = catalogue_state()
    with connection.cursor() as cur:  # the free pages taken up, then no page more: the disk is full
        cur.execute("PRAGMA freelist_count")
        (free,) = cur.fetchone()
        cur.execute("PRAGMA page_size")
        (size,) = cur.fetchone()
        cur.execute("CREATE TABLE disk_filler (b BLOB)")
        cur.execute("INSERT INTO disk_filler VALUES (randomblob(%s))", [max(free, 1) * size])
        cur.execute("PRAGMA page_count")
        (pages,) = cur.fetchone()
        cur.execute(f"PRAGMA max_page_count = {pages}")
    # A load needing more room than the pages it frees itself: a first load drops the paper table's
    # plain indexes (eleven pages when empty), and a handful of rows fits in the pages that are
    # there, so with the archive's small dumps alone the "full" disk could hold the whole load.
    dumps = copy.deepcopy(archive_dumps.DUMPS)
    dumps["papers-with-abstracts"][0]["abstract"] = " ".join(f"w{i}" for i in range(60_000))  # ~100 pages
    try:
        with pytest.raises(CommandError) as caught:
            load(*archive_dumps.write(tmp_path / "first", dumps=dumps))
    finally:
        with connection.cursor() as cur:
            cur.execute("PRAGMA max_page_count = 1073741823")
            cur.execute("DROP TABLE disk_filler")
    message = str(caught.value)
    assert message.startswith("the database failed (database or disk is full)"), message
    assert "\n" not in message
    assert catalogue_state() == before


def test_a_database_that_is_gone_is_one_line_exit_1(tmp_path):
    """Run as an operator runs it: no traceback on stderr."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/gone/catalogue.sqlite3"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "load_snapshot", str(ROOT / "fixtures")],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "CommandError: the database failed (unable to open database file);"
        " nothing was written to the catalogue"
    )


# --- one record given twice --------------------------------------------------------------


@pytest.mark.parametrize("form", ["json", "parquet"])
def test_a_paper_given_twice_with_other_data_is_warned_of_naming_both(tmp_path, form):
    """The first was kept, silently."""
    first = {**PAPER, "paper_url": f"{PWC}/paper/a", "abstract": "one"}
    again = {**PAPER, "paper_url": f"{PWC}/paper/a-1", "arxiv_id": "2001.00001v2", "abstract": "two"}
    records = [first, {**PAPER, "paper_url": f"{PWC}/paper/b", "arxiv_id": "2001.00002"}, again, first]
    if form == "json":
        path = _write(tmp_path, "papers-with-abstracts.json", json.dumps(records))
    else:
        path = tmp_path / "papers-with-abstracts.parquet"
        pq.write_table(pa.Table.from_pylist(records), path)
    _out, err = load(path)
    expected = f"{path.name}: [2]: gives paper 2001.00001 as record [0] did, with other data: [0] is kept"
    assert expected in err
    assert "[3]: gives paper" not in err  # the same data again: nothing to say
    assert m.Paper.objects.get(arxiv_id="2001.00001").abstract == "one"


# --- blank author names ------------------------------------------------------------------


@pytest.mark.parametrize("source", ["dump", "document"])
def test_a_blank_author_name_is_left_out_where_it_enters_with_a_warning(tmp_path, client, source):
    """825 papers of a generated catalogue had one; each stored it (and a page failed on it)."""
    if source == "dump":
        path = _write(
            tmp_path, "papers-with-abstracts.json", json.dumps([{**PAPER, "authors": ["Ada", " ", ""]}])
        )
        where = "papers-with-abstracts.json: [0].authors"
    else:
        doc = {**json.loads(PAPER_SEED.read_text())}
        doc["authors"] = [doc["authors"][0], "  ", ""]
        path = _write(tmp_path, "doc.json", json.dumps(doc))
        where = "doc.json: authors"
    _out, err = load(path)
    assert f"{where}[1]: a blank author name (left out)" in err
    assert f"{where}[2]: a blank author name (left out)" in err
    paper = m.Paper.objects.get()
    names = list(m.Author.objects.filter(paper=paper).order_by("position").values_list("name", flat=True))
    assert len(names) == 1
    assert names[0].strip()
    assert client.get(paper.get_absolute_url()).status_code == 200
