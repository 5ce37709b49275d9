#!/usr/bin/env python3
"""Bring every pin to the newest release the project's checks pass on (``make lock``).

    python scripts/lock.py                 newest releases, then `make lint` and `make test`
    python scripts/lock.py --no-test       re-pin only (after editing pyproject.toml by hand)
    python scripts/lock.py --only idna     only these packages (and what they need) move

pyproject.toml pins every direct dependency exactly (a fresh machine builds what CI tested);
requirements.lock pins everything with hashes. Here:

1. uv resolves the newest releases that fit together: the direct pins loosened to ``>=`` their
   current version (so nothing moves backwards), every transitive pin upgraded;
2. pyproject.toml takes the resolved versions of its direct pins, and requirements.lock is
   compiled from it with hashes;
3. unless ``--no-test``, `make lint` and `make test` run on the new lock. If they fail, both files
   go back to what they were, and each package that moved is tried on its own (the old lock plus
   that one upgrade), keeping those the checks pass on. A package whose newest release fails stays
   where it was, reported: its newest release is what is tried, not the releases in between.

Needs uv (the Makefile installs a pinned one into .venv) and PyPI.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "requirements.lock"
UV = ROOT / ".venv" / "bin" / "uv"
COMPILE_FLAGS = [
    "--extra",
    "dev",
    "--extra",
    "bench",
    "--generate-hashes",
    "--universal",
    "--python-version",
    "3.12",
    "--quiet",
    "--custom-compile-command",
    "make lock",
]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock: Path) -> dict[str, str]:
    out = {}
    for line in lock.read_text().splitlines():
        if m := PIN.match(line):
            out[canonical(m[1])] = m[2]
    return out


def direct_pins(pyproject_text: str) -> dict[str, str]:
    """Every ``name==version`` of pyproject.toml's dependencies and extras, by canonical name."""
    project = tomllib.loads(pyproject_text)["project"]
    extras = project["optional-dependencies"].values()
    declared = [*project["dependencies"], *(d for ds in extras for d in ds)]
    out = {}
    for requirement in declared:
        name, _, version = requirement.partition("==")
        if not version:
            sys.exit(f"lock: {requirement!r} in pyproject.toml is not pinned with ==")
        out[canonical(name.split("[")[0])] = version.strip()
    return out


def _requirement(text: str, name: str) -> re.Pattern:
    """The quoted requirement of ``name`` in pyproject.toml's text, extras kept."""
    spelled = "[-_.]+".join(re.escape(part) for part in re.split(r"[-_.]+", name))
    return re.compile(rf'"({spelled}(?:\[[^\]]*\])?)(==|>=)([^"]+)"', re.IGNORECASE)


def with_pins(text: str, versions: dict[str, str], operator: str = "==") -> str:
    for name, version in versions.items():
        text, n = _requirement(text, name).subn(rf'"\g<1>{operator}{version}"', text)
        if n != 1:
            sys.exit(f"lock: found {n} requirements for {name} in pyproject.toml")
    return text


def compile_lock(pyproject: Path, out: Path, upgrade: list[str] | None) -> None:
    """``uv pip compile`` into ``out``, keeping its pins but for ``upgrade`` (None: upgrade all)."""
    flags = ["--upgrade"] if upgrade is None else [f"--upgrade-package={n}" for n in upgrade]
    run = subprocess.run(
        [str(UV), "pip", "compile", str(pyproject), *COMPILE_FLAGS, *flags, "-o", str(out)],
        cwd=pyproject.parent,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"lock: uv pip compile failed:\n{run.stderr}")


def resolve(only: list[str] | None) -> dict[str, str]:
    """The newest versions that fit together (of ``only`` and what they need, else of everything)."""
    current = direct_pins(PYPROJECT.read_text())
    loosen = {n: v for n, v in current.items() if only is None or n in only}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        (scratch / "pyproject.toml").write_text(with_pins(PYPROJECT.read_text(), loosen, ">="))
        shutil.copy(LOCK, scratch / "requirements.lock")
        compile_lock(scratch / "pyproject.toml", scratch / "requirements.lock", upgrade=only)
        return locked(scratch / "requirements.lock")


def pin(only: list[str] | None) -> dict[str, tuple[str, str]]:
    """Rewrite pyproject.toml and requirements.lock; returns what moved: name -> (old, new)."""
    before = locked(LOCK)
    resolved = resolve(only)
    direct = direct_pins(PYPROJECT.read_text())
    PYPROJECT.write_text(with_pins(PYPROJECT.read_text(), {n: resolved[n] for n in direct}))
    # The loosened resolution is the target; compiling the pinned pyproject keeps it exactly.
    compile_lock(PYPROJECT, LOCK, upgrade=[n for n in resolved if resolved[n] != before.get(n)])
    after = locked(LOCK)
    return {n: (before.get(n, "-"), v) for n, v in sorted(after.items()) if before.get(n) != v}


def checks_pass() -> bool:
    for target in ("lint", "test"):
        print(f"lock: make {target}", flush=True)
        if subprocess.run(["make", target], cwd=ROOT).returncode != 0:
            print(f"lock: make {target} failed", flush=True)
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-test", action="store_true", help="re-pin only; run no checks")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="move only these packages")
    args = parser.parse_args(argv)
    if not UV.exists():
        sys.exit("lock: .venv/bin/uv is missing (make lock installs it)")
    only = [canonical(n) for n in args.only] if args.only else None

    saved = PYPROJECT.read_text(), LOCK.read_text()
    moved = pin(only)
    if not moved:
        print("lock: every pin is already the newest release")
        return 0
    for name, (old, new) in moved.items():
        print(f"lock: {name} {old} -> {new}")
    if args.no_test or checks_pass():
        print(f"lock: {len(moved)} pin(s) moved; commit pyproject.toml and requirements.lock")
        return 0

    # Together they fail: each on its own, from the old lock plus what already passed.
    kept, held = [], {}
    for name in moved:
        PYPROJECT.write_text(saved[0])
        LOCK.write_text(saved[1])
        pin([*kept, name])
        if checks_pass():
            kept.append(name)
        else:
            held[name] = moved[name]
    PYPROJECT.write_text(saved[0])
    LOCK.write_text(saved[1])
    if kept:
        pin(kept)
    for name, (old, new) in held.items():
        print(f"lock: {name} stays at {old}: the checks fail on {new}")
    print(f"lock: {len(kept)} pin(s) moved, {len(held)} held back")
    return 0 if not held else 1


if __name__ == "__main__":
    sys.exit(main())
