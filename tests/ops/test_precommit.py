"""The pre-commit hooks run what ``make lint`` (so CI) runs, with the same pinned tools."""

import re
import shlex

import yaml

from tests.conftest import ROOT


def lint_commands() -> list[list[str]]:
    """Each tool call of the Makefile's lint target, as words (``$(VENV)`` spelled ``.venv``)."""
    makefile = (ROOT / "Makefile").read_text()
    body = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M)[1]
    calls = [line.strip().lstrip("@") for line in body.splitlines() if "$(VENV)/bin/" in line]
    return [shlex.split(call.replace("$(VENV)", ".venv")) for call in calls]


def test_every_lint_command_is_a_hook_and_every_hook_is_pinned_here():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert {repo["repo"] for repo in config["repos"]} == {"local"}  # nothing fetched
    entries = [shlex.split(hook["entry"]) for hook in hooks]
    commands = lint_commands()
    assert len(commands) == 3  # ruff check, ruff format --check, mypy
    for command in commands:
        # the Makefile names the tree ("."); a hook is given the changed files (or none, for mypy)
        wanted = [word for word in command if word != "."]
        assert any([w for w in entry if w != "--force-exclude"] == wanted for entry in entries), command
    for entry in entries:
        assert entry[0].startswith(".venv/bin/"), entry  # the locked tools, not a hook's own copy


def test_django_upgrade_targets_the_pinned_django():
    pinned = re.search(r'"Django==(\d+\.\d+)', (ROOT / "pyproject.toml").read_text())[1]
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    assert f"django-upgrade --target-version {pinned} " in config
