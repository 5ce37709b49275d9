"""The archive's dumps read in parts: bounded slices of a row group, a pool of readers that loads
what one process loads, a dump that breaks in a later part, gzip read in chunks, records batched
by rows."""

import gzip
import json

import pytest
from django.core.management.base import CommandError

from catalogue import models as m
from tests import archive_dumps
from tests.archive_dumps import PROVENANCE, dumps
from tests.conftest import load
from tests.dump import catalogue_state, wipe

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


# --- reading a dump in parts ---------------------------------------------------------------


def _content() -> dict:
    """Every row but where it came from (the file's name, checksum, stamp)."""
    return {
        model: [row for row in state if "sha256" not in row]
        for model, state in catalogue_state(exclude=PROVENANCE).items()
    }


@pytest.fixture
def small_parts(monkeypatch):
    """A part per row group (of 2 records: ``archive_dumps``), and a pool for any dump."""
    from catalogue.loader import archive, reading

    monkeypatch.setattr(archive, "PART_RECORDS", 1)
    monkeypatch.setattr(reading, "PARALLEL_FROM_RECORDS", 0)


def test_a_large_row_group_is_read_in_a_bounded_number_of_slices_that_cover_it(tmp_path, monkeypatch):
    """A slice of a row group decodes the rows before it (Parquet cannot start mid-group): a group
    is cut into at most SLICES_PER_GROUP slices, which together give every record once, in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from catalogue.loader import archive

    monkeypatch.setattr(archive, "PART_RECORDS", 2)
    data = tmp_path / "papers-with-abstracts" / "data"
    data.mkdir(parents=True)
    titles = [f"Paper {i}" for i in range(41)]
    table = pa.Table.from_pydict({"title": titles})
    pq.write_table(table, data / "train-00000-of-00001.parquet", row_group_size=41)
    dump = archive.open_dump(str(tmp_path), "papers-with-abstracts")
    parts = archive.parts(dump)
    assert len(parts) <= archive.SLICES_PER_GROUP  # in slices of PART_RECORDS: 21
    assert [p.first for p in parts] == [p.rows[0] for p in parts] == list(range(0, 41, 6))
    read = [record["title"] for part in parts for record in archive.records(dump, part)]
    assert read == titles


def test_dumps_read_in_parts_by_a_pool_load_what_one_process_loads(tmp_path, small_parts):
    """A dump read whole (JSON) and in parts by two processes (Parquet): one catalogue, one report.
    GPipe is in it twice, under a second slug in a later part with other authors and tasks: a
    paper's lists are its winning record's, found by its number, which a part must not start again."""
    from catalogue.loader import archive, load_paths

    again = {
        **archive_dumps.PAPERS[0],
        "paper_url": f"{archive_dumps.PWC}/paper/gpipe-2",
        "authors": ["One", "Two", "Three", "Four"],
        "tasks": ["Another Task"],
    }
    records = {**archive_dumps.DUMPS, "papers-with-abstracts": [*archive_dumps.PAPERS, again]}
    archive_dumps.write(tmp_path / "json", "json", records)
    archive_dumps.write(tmp_path / "parquet", "parquet", records)
    # Two shards of 3 records in row groups of 2 and 1 (``archive_dumps``); from PART_RECORDS 1,
    # a group of 2 is read in slices of a record, a group of 1 whole.
    papers = archive.parts(archive.open_dump(str(tmp_path / "parquet"), "papers-with-abstracts"))
    expected = [(0, (0, 1), (0, 1)), (1, (0, 1), (1, 2)), (2, (1, 2), None)]
    assert [(p.first, p.groups, p.rows) for p in papers] == [
        *expected,
        *((f + 3, g, r) for f, g, r in expected),
    ]
    whole = load_paths([tmp_path / "json"], workers=0)
    state = _content()
    wipe()
    in_parts = load_paths([tmp_path / "parquet"], workers=2)
    assert _content() == state
    assert [str(w) for w in in_parts.warnings] == [str(w).replace(".json", "") for w in whole.warnings]
    assert in_parts.file_counts == whole.file_counts == {"loaded": len(archive_dumps.DUMPS)}


@pytest.mark.parametrize("workers", [0, 2])
def test_a_dump_that_breaks_in_a_later_part_is_skipped_whole(tmp_path, small_parts, workers, monkeypatch):
    """Its first parts were staged (by a worker, or here) before the break: none of them is kept."""
    import pyarrow.parquet as pq

    monkeypatch.setenv("LOAD_WORKERS", str(workers))
    folder = dumps(tmp_path, "parquet")
    shard = folder / "papers-with-abstracts" / "data" / "train-00001-of-00002.parquet"
    column = pq.read_metadata(shard).row_group(0).column(0)  # the footer stays readable
    start, size = column.dictionary_page_offset or column.data_page_offset, column.total_compressed_size
    data = bytearray(shard.read_bytes())
    data[start : start + size] = b"\xff" * size
    shard.write_bytes(bytes(data))
    with pytest.raises(
        CommandError, match=r"papers-with-abstracts: train-00001-of-00002.parquet: not a Parquet"
    ):
        load(folder)
    assert not m.Paper.objects.exists()
    _out, err = load(folder, keep_going=True)
    assert "skipped: papers-with-abstracts: train-00001-of-00002.parquet: not a Parquet file" in err
    assert not m.SourceDocument.objects.filter(url="archive:papers-with-abstracts").exists()
    assert not m.Author.objects.exists()  # every author is in the papers dump only
    assert m.CodeLink.objects.exists()  # the other dumps loaded


def test_the_load_record_names_each_dump_with_its_checksum(tmp_path):
    load(dumps(tmp_path, "parquet"))
    (run,) = m.LoadRun.objects.all()
    files = {f["path"]: f for f in run.files.values()}
    assert set(files) == set(archive_dumps.DUMPS)
    assert all(len(f["sha256"]) == 64 and f["status"] == "loaded" for f in files.values())
    assert files["methods"]["url"] == "archive:methods"


def test_gzip_dumps_are_read_in_chunks_not_whole(tmp_path, monkeypatch):
    """A dump is streamed: records become rows a batch at a time (``archive_rows.BATCH_RECORDS``)."""
    from catalogue.loader import archive, archive_rows

    monkeypatch.setattr(archive_rows, "BATCH_RECORDS", 2)
    batches = []
    original = archive_rows.read

    def counting(dump, sha, part=archive.WHOLE, limit=None):
        for parsed in original(dump, sha, part, limit):
            batches.append(dump.name)
            yield parsed

    monkeypatch.setattr(archive_rows, "read", counting)
    load(dumps(tmp_path))
    assert batches.count("papers-with-abstracts.json.gz") == 3  # 5 records, 2 a batch
    with gzip.open(tmp_path / "json.gz" / "papers-with-abstracts.json.gz") as handle:
        assert len(json.load(handle)) == 5


def test_a_dump_of_large_records_is_batched_by_rows_too(tmp_path, monkeypatch):
    """An evaluation-tables record is a whole task: batches are cut by the rows they hold as well."""
    from catalogue.loader import archive, archive_rows

    monkeypatch.setattr(archive_rows, "BATCH_ROWS", 10)
    monkeypatch.setattr(archive_rows, "BATCH_CHECK", 1)
    folder = dumps(tmp_path, "json")
    dump = archive.open_dump(str(folder), "evaluation-tables.json")
    batches = list(archive_rows.read(dump, archive.checksum(dump)))
    sizes = [sum(map(len, batch.rows.values())) for batch in batches]
    assert len(batches) == len(archive_dumps.DUMPS["evaluation-tables"]) + 1  # a record each, then none
    assert all(size >= 10 for size in sizes[:-1])
    assert sizes[-1] == 0
