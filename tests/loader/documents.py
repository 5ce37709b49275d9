"""Snapshot documents written for a test to load."""

import json


def write(path, doc):
    """``doc`` as JSON at ``path``; returns the path."""
    path.write_text(json.dumps(doc))
    return path
