"""Fixtures the loader's test modules share."""

import shutil
from pathlib import Path

import pytest

from tests.archive_dumps import SOTA


@pytest.fixture
def sota(tmp_path) -> Path:
    if not SOTA.is_dir():
        pytest.skip(f"{SOTA} is not on this machine")
    target = tmp_path / "sota"
    target.mkdir()
    for path in sorted(SOTA.glob("*.json")):
        shutil.copy(path, target / f"evaluation-tables-{path.name}")
    return target
