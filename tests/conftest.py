import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "fixtures").glob("*.json"))
CODE_SEEDS = [s for s in SEEDS if not s.name.startswith("003")]
PAPER_SEED = next(s for s in SEEDS if s.name.startswith("003"))
# One public page of each kind, all of them filled by the seeds (security and browser tests).
SEED_PAGE_KINDS = [
    "/",
    "/search?q=training",
    "/papers/",
    "/paper/gpipe-efficient-training-of-giant-neural",
    "/code/",
    "/code/forward-step-func",
    "/body/c233d4777fc58003",
    "/repo/pytorch/pippy",
    "/sota/image-classification-on-imagenet",
    "/task/image-classification",
    "/method/gpipe",
    "/sota/",
    "/area/tasks-in-no-area",
    "/tasks/",
    "/datasets/",
    "/dataset/imagenet",
    "/methods/",
    "/author/Yanping%20Huang",
    "/proceedings/",
    "/conference/neurips",
    "/proceeding/neurips-2019-12",
    "/papers/feed",
    "/about",
    "/attribution",
    "/data/",
]
# The figures a code-entry document states (SNAPSHOT-FORMAT.md), in one place for every test.
FIGURES = (
    "n_papers",
    "n_papers_ran",
    "n_samples",
    "n_samples_ran",
    "n_samples_fingerprinted",
    "n_places",
    "n_places_pointer_only",
    "by_status",
)


@pytest.fixture
def seeds_dir(tmp_path) -> Path:
    """A private copy of the three seed documents."""
    target = tmp_path / "seeds"
    target.mkdir()
    for seed in SEEDS:
        shutil.copy(seed, target / seed.name)
    return target


@pytest.fixture
def seed_docs() -> dict[str, dict]:
    return {seed.name: json.loads(seed.read_text()) for seed in SEEDS}


def load(*paths, **options):
    """Run load_snapshot like an operator would, returning what it printed."""
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("load_snapshot", *map(str, paths), stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def loaded_seeds(db):
    load(*SEEDS)


@pytest.fixture(autouse=True)
def _response_cache_off(settings):
    # Pages and API answers are cached against caching.data_version() (catalogue.caching), which
    # only a load or a correction moves; tests that change rows directly would read old copies.
    # So the cache is off unless a test turns it on (tests/test_caching.py), and it starts empty:
    # rolled-back tests can reach the same version with other rows (SQLite reuses ids).
    from django.core.cache import cache

    settings.PAGE_CACHE_SECONDS = 0
    settings.FIGURES_CACHE_SECONDS = 0  # the same for remembered counts (catalogue.memo)
    cache.clear()


@pytest.fixture
def api():
    """A client of the JSON API (tests/api_helpers.py reads its answers)."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def api_throttle_off(settings):
    """The API's anonymous rate limit off: the API's tests make many requests from one address."""
    settings.API_THROTTLE_ANON = "off"
