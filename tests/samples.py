"""The real Papers-with-Code samples the tests read, wherever a test module sits.

tests/data/pwc-archive-samples/ holds real Papers-with-Code material (data CC BY-SA 4.0, the
sota-extractor's code Apache-2.0, paperswithcode-go MIT; see the LICENSE files and README there),
copied from the project's shared samples so that a clone alone runs these tests (PWC_ARCHIVE_SAMPLES
points elsewhere, at a newer copy).
"""

import json
import os
from pathlib import Path

import pytest

SAMPLES = Path(
    os.environ.get("PWC_ARCHIVE_SAMPLES") or Path(__file__).resolve().parent / "data" / "pwc-archive-samples"
)
# The real methods dump: every description Papers with Code rendered.
METHODS_DUMP = SAMPLES / "methods" / "methods.json.gz"


def sota_tables(task):
    """Every table (a Dataset or subdataset) under a Task of the sota-extractor format."""

    def of_dataset(dataset):
        yield dataset
        for sub in dataset.get("subdatasets") or []:
            yield from of_dataset(sub)

    for dataset in task.get("datasets") or []:
        yield from of_dataset(dataset)
    for subtask in task.get("subtasks") or []:
        yield from sota_tables(subtask)


def require_samples():
    if not (SAMPLES / "sota-extractor").is_dir():
        pytest.skip(f"{SAMPLES} is missing: the real Papers-with-Code samples are read from there")


def real_tables():
    """(file, task, dataset, table) for every table of every sota-extractor file."""
    require_samples()
    files = sorted((SAMPLES / "sota-extractor").glob("*.json"))
    assert files, f"no sota-extractor/*.json under {SAMPLES}"
    for path in files:
        for task in json.loads(path.read_text()):
            for table in sota_tables(task):
                yield path.name, task.get("task"), table.get("dataset") or table.get("subdataset"), table


def real_table(file, task, dataset):
    found = [t for f, tk, d, t in real_tables() if (f, tk, d) == (file, task, dataset)]
    assert found, f"no table {task} / {dataset} in {file}"
    return found[0]["sota"]
