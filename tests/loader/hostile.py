"""What the hostile-document tests share: a small paper document with one of each kind of row (and
it with changes made), and the outcome of loading one document alone, canonical across backends."""

import copy
import hashlib
import json
from pathlib import Path

from catalogue.loader import load_paths
from tests.dump import catalogue_state

# A small paper document with one of each kind of row (fast to load, every table touched).
BASE = {
    "url": "/paper/hostile-paper",
    "title": "A hostile paper",
    "arxiv_id": "2001.00001",
    "date": "2020-01-02",
    "abstract": "An abstract.",
    "authors": ["Ada Lovelace"],
    "source": {"archive": "test"},
    "code_links": [{"repo_url": "https://github.com/owner/repo", "is_official": 1, "framework": "pytorch"}],
    "tasks": [{"task_slug": "image-classification", "task_name": "Image Classification"}],
    "methods": [{"method_slug": "resnet", "method_name": "ResNet"}],
    "datasets_introduced": ["HostileSet"],
    "results": [
        {
            "leaderboard": "/sota/image-classification-on-imagenet",
            "task": "Image Classification",
            "dataset": "ImageNet",
            "model": "ResNet",
            "metrics": {"Top 1 Accuracy": "76.1%"},
        }
    ],
    "syntology": {
        "read_at": "2026-01-01T00:00:00+00:00",
        "samples": [
            {
                "code_sha256_prefix": "0123456789abcdef",
                "entry": "resnet_block",
                "repo": "owner/repo",
                "repo_kind": "official",
                "path": "model.py",
                "status": "unverified",
            }
        ],
        "summary": {"unverified": 1},
        "by_repo_kind": {"official": {"samples": 1, "ran": 0, "repositories": 1}},
    },
    "arxiv_metadata": {"comment": "12 pages"},
}


def document(*changes) -> dict:
    """``BASE`` with each ``(path, value)`` change made: the value put at that path of keys."""
    doc = copy.deepcopy(BASE)
    for path, value in changes:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return doc


def outcome_of(text: str, tmp: Path) -> dict:
    """Load one document alone into an empty catalogue; what happened, canonical across backends."""
    path = tmp / "doc.json"
    path.write_text(text)
    result = load_paths([path], keep_going=True, workers=0)
    (status,) = result.file_counts
    state = json.dumps(catalogue_state(), sort_keys=True, default=str, ensure_ascii=True)
    return {
        "outcome": status,
        "error": result.skipped[0].error if result.skipped else "",
        "warnings": sorted(map(str, result.warnings)),
        "rows": hashlib.sha256(state.encode()).hexdigest(),
    }
