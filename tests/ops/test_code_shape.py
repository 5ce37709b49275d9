"""The house rules of catalogue/'s shape (issue 36), kept by a test so a change cannot quietly undo
them: no module over 600 lines, no function over 60. Migrations are generated and left out."""

import ast
from pathlib import Path

from tests.conftest import ROOT

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def _modules():
    for path in sorted((ROOT / "catalogue").rglob("*.py")):
        if "migrations" not in path.parts:
            yield path


def _long_functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                yield f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)"


def test_the_rules_read_the_whole_package():
    assert len(list(_modules())) > 100


def test_no_module_of_catalogue_is_over_600_lines():
    long = [
        f"{path.relative_to(ROOT)} ({n} lines)"
        for path in _modules()
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert long == []


def test_no_function_of_catalogue_is_over_60_lines():
    long = [entry for path in _modules() for entry in _long_functions(path)]
    assert long == []
