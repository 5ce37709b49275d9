"""Documents too large to hold whole are read streaming, with the same rules, rows, warnings and
errors as when read whole; and a per-file cap refuses what is larger still."""

import gzip
import json
import os
import re
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from catalogue.loader import documents, staging, streaming
from catalogue.loader.documents import Snapshot, SnapshotError
from catalogue.loader.reading import KnownDocuments, read_all, read_one
from tests.conftest import CODE_SEEDS, FIGURES, ROOT, SEEDS, load

CODE_SEED = CODE_SEEDS[-1]


def _whole(path):
    try:
        return documents.read(path, "d.json").value
    except SnapshotError as exc:
        return str(exc)


def _streamed(path):
    try:
        value = {}
        for key, member in documents.stream_members(path, "d.json", "samples"):
            if key is None:
                return member
            value[key] = list(member) if key == "samples" and not isinstance(member, list | dict) else member
        return value
    except SnapshotError as exc:
        return str(exc)


SAMPLES = '[{"a": 1, "b": "x\\u00e9"}, {"c": [1, 2.5e3, null]}, 7, "s", []]'
TEXTS = [
    CODE_SEED.read_text(),
    "\ufeff" + CODE_SEED.read_text(),  # a BOM is allowed
    '{"url": "/code/x", "samples": ' + SAMPLES + ', "n": 123456789012}',
    '{"samples": ' + SAMPLES + ', "url": "/code/x"}',  # samples first
    '{"samples": {"not": "a list"}}',
    '{"samples": []}',
    "{}",
    "[1, 2]",
    "",
    "   \n ",
    '{"url": "/code/x", "url": "/code/y"}',  # duplicate keys, at the top
    '{"samples": [{"a": 1, "a": 2}]}',  # and inside a sample
    '{"samples": [NaN]}',
    '{"samples": [1, 2,]}',
    '{"samples": [1 2]}',
    '{"a": 1 "b": 2}',
    '{"a": 1,}',
    '{"a" 1}',
    "{1: 2}",
    '{"a": 1}}',
    '{"a": 1} x',
    '{"a": "\\u0000 and \\ud800"}',
    '{"samples": [{"t": "tab\there"}]}',  # a raw control character
    '{"samples": ["unterminated]}',
    '{\n  "samples": [\n    {"a": 1},\n    {"b": tru}\n  ]\n}',
    '{"samples": [' + ", ".join(f'{{"n": {i}, "s": "{"é" * (i % 7)}"}}' for i in range(300)) + "]}",
    '{"samples": [' + ", ".join(str(10**i) for i in range(40)) + "]}",  # numbers across chunks
]


@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 20])
@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_streamed_reading_agrees_with_whole_reading(tmp_path, monkeypatch, text, chunk):
    monkeypatch.setattr(documents, "_CHUNK", chunk)
    path = tmp_path / "d.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    assert _streamed(path) == _whole(path)


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
def test_streamed_reading_names_the_bad_byte_of_a_file_that_is_not_utf8(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(documents, "_CHUNK", chunk)
    path = tmp_path / "d.json"
    for data in (
        b'{"a": "\xc3\xa9\xff"}',
        b'\xef\xbb\xbf{"a": "\xe2\x82"}',
        b'{"samples": ["\xed\xa0\x80"]}',
    ):
        path.write_bytes(data)
        assert "not UTF-8 text" in _whole(path)
        assert _streamed(path) == _whole(path)


def _read(snapshot, stage):
    return list(read_all(snapshot, KnownDocuments(), stage, workers=0))


def _rows_and_warnings(results):
    rows, warnings, outcomes = {}, [], []
    for result in results:
        for table, items in result.tuples.items():
            rows.setdefault(table, []).extend(items)
        warnings += [str(w) for w in result.warnings]
        if result.outcome:
            outcomes.append((result.outcome.path, result.outcome.status, result.outcome.url, result.error))
    return {table: sorted(items, key=repr) for table, items in rows.items()}, warnings, outcomes


@pytest.mark.django_db
def test_a_streamed_document_gives_the_rows_and_warnings_of_one_read_whole(tmp_path, monkeypatch):
    doc = json.loads(CODE_SEED.read_text())
    doc["samples"] += [
        7,  # no object: skipped, warning
        {**doc["samples"][0], "code_sha256_prefix": "nope"},  # a bad required field: skipped
        {**doc["samples"][0], "repo": "not a repo!"},  # a bad optional field: left out
        {**doc["samples"][1], "title": "NUL \x00 in a title"},
    ]
    doc["n_places"] = 99  # a figure the rows do not give: warned of
    (tmp_path / "big.json").write_text(json.dumps(doc))
    for seed in SEEDS:
        (tmp_path / seed.name).write_bytes(seed.read_bytes())
    snapshot = documents.discover([tmp_path])
    stage = staging.Staging()
    whole = _rows_and_warnings(_read(snapshot, stage))
    monkeypatch.setattr(documents, "STREAM_FROM_BYTES", 0)  # every document streamed…
    monkeypatch.setattr(streaming, "BATCH_SAMPLES", 2)  # …its samples two at a time
    results = _read(snapshot, stage)
    assert sum(1 for r in results if r.outcome is None) > len(snapshot.names)  # it was streamed
    assert _rows_and_warnings(results) == whole
    assert any("n_places: document states 99" in w for w in whole[1])
    assert any("samples[8]" in w for w in whole[1])


def _big_paper(tmp_path, megabytes: float, name="big.json"):
    doc = json.loads(SEEDS[-1].read_text())
    doc["abstract"] = "x" * int(megabytes * 2**20)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.django_db
def test_a_document_over_the_per_file_cap_is_refused_unless_the_cap_is_raised(tmp_path):
    big = _big_paper(tmp_path, 1.5)
    with pytest.raises(Exception, match=r"big.json: larger than the per-file cap of 1 MB") as refused:
        load(big, max_file_mb=1)
    assert "--max-file-mb raises it" in str(refused.value)
    out, _ = load(big, max_file_mb=2)
    assert "loaded" in out


@pytest.mark.django_db
def test_a_small_gzip_file_that_unzips_over_the_cap_is_refused(tmp_path):
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b'{"url": "/code/x", "pad": "' + b" " * (3 * 2**20) + b'"}'))
    assert bomb.stat().st_size < 2**20 // 10
    snapshot = Snapshot(root=str(tmp_path), names=[bomb.name])
    result = read_one(snapshot, bomb.name, KnownDocuments(), "sqlite", limit=2**20)
    assert "bomb.json.gz: larger than the per-file cap of 1 MB" in str(result.error)


# --- one very large document in bounded memory -----------------------------------------------

SAMPLES_IN_BIG_DOCUMENT = 1_000_000
PEAK_RSS_MB = 500


def _write_big_code_entry(path, samples: int) -> None:
    """A code-entry document of ``samples`` samples (about 170 MB a million), a sample at a time."""
    head = {k: v for k, v in json.loads(CODE_SEED.read_text()).items() if k != "samples"}
    for figure in FIGURES:  # stated figures would not match; their check is tested elsewhere
        head.pop(figure, None)
    with open(path, "w") as out:
        out.write(json.dumps(head)[:-1] + ', "samples": [')
        for i in range(samples):
            paper = i % 50_000
            sample = {
                "arxiv_id": f"2401.{paper:05d}",
                "paper": f"/paper/arxiv-2401-{paper:05d}",
                "repo": f"o/r{i % 1000}",
                "path": f"m/f{i}.py",
                "status": "unverified",
                "inline_ok": False,
                "code_sha256_prefix": f"{i:016x}",
            }
            out.write(("," if i else "") + json.dumps(sample))
        out.write("]}")


# Runs a command as its only child and prints that child's peak RSS (kB): the load's own peak.
PEAK_RSS = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def load_measured(env, *args) -> tuple[subprocess.CompletedProcess, float]:
    """load_snapshot run as an operator runs it, and its peak RSS in MB (Linux counts kB)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, sys.executable, str(ROOT / "manage.py"), "load_snapshot", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    return done, int(done.stderr.strip().splitlines()[-1]) / 1024


@pytest.mark.slow
@pytest.mark.django_db
def test_a_million_sample_document_loads_in_bounded_memory(tmp_path):
    # Five minutes of checking a million samples in Python, so it runs once, on PostgreSQL (the
    # production database, where staging goes through COPY). The reading and checking it bounds
    # are the same code on SQLite, where it peaked at 212 MB (SECURITY.md).
    if connection.vendor != "postgresql":
        pytest.skip("run on PostgreSQL only: the same reading and checking, 5 minutes a run")
    if connection.vendor == "postgresql":
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        with psycopg.connect(**params, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS memtest")
            admin.execute("CREATE DATABASE memtest")
        url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/memtest"
    else:
        url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env, check=True)
    big = tmp_path / "big.json"
    _write_big_code_entry(big, SAMPLES_IN_BIG_DOCUMENT)
    done, peak_mb = load_measured(env, "--max-file-mb", "400", str(big))
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"Sample +1000000 created", done.stdout), done.stdout
    assert peak_mb < PEAK_RSS_MB, f"peak RSS {peak_mb:.0f} MB"
