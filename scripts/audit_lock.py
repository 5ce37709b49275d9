#!/usr/bin/env python3
"""Known vulnerabilities of the pinned dependencies, from PyPI's project JSON (standard library only).

    python scripts/audit_lock.py [requirements.lock] [--allowlist scripts/audit-allowlist.txt]
                                 [--index https://pypi.org/pypi]

Run by ``make audit`` (and by CI after the test suite), never by the test suite itself: what
PyPI publishes changes without our code changing, and a test must depend on the code and the
lock only. The script's own tests answer it from a local fake index (``--index``).

Why not only pip-audit: pip-audit asks PyPI's per-release endpoint (``/pypi/NAME/VERSION/json``)
or OSV; where only the project endpoint (``/pypi/NAME/json``) is reachable, as on our build
machines (the per-release one answers 404 there, OSV does not answer), pip-audit reports every
package as "not found" and audits nothing. The project endpoint lists the vulnerabilities (OSV
records: PYSEC, GHSA, CVE) of the project's newest release, and the ids of the releases each one
is fixed in. So:

- a pin that is the newest release is audited fully: any listed vulnerability is a finding, and
  fails the audit (exit 1);
- an older pin is reported as "behind" (with the newest version), and does not fail the audit:
  its known vulnerabilities cannot be listed from here, and a release published upstream is not a
  fault of ours. ``make lock`` brings it up to date; ``--fail-behind`` makes it a failure.

Findings can be allowed, after review, by listing their id in the allowlist file (one
``ID  # reason`` per line); a pin that must stay behind is marked reviewed by
``behind:NAME  # reason`` (reported as such, not as "behind").
Exit status: 0 clean (pins behind reported), 1 findings, 2 the index unreachable.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")
PYPI = "https://pypi.org/pypi"


def pins(lock: Path) -> dict[str, str]:
    found = {}
    for line in lock.read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            found[match.group(1).lower()] = match.group(2)
    return found


def allowlist(path: Path | None) -> set[str]:
    if not path or not path.exists():
        return set()
    return {line.split("#", 1)[0].strip() for line in path.read_text().splitlines()} - {""}


def project(index: str, name: str) -> dict:
    with urllib.request.urlopen(f"{index.rstrip('/')}/{name}/json", timeout=30) as response:
        return json.load(response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lock", nargs="?", type=Path, default=ROOT / "requirements.lock")
    parser.add_argument("--allowlist", type=Path, default=ROOT / "scripts" / "audit-allowlist.txt")
    parser.add_argument(
        "--index",
        default=os.environ.get("AUDIT_INDEX_URL", PYPI),
        help="PyPI's JSON API root (default %(default)s; AUDIT_INDEX_URL sets it)",
    )
    parser.add_argument("--fail-behind", action="store_true", help="a pin behind the newest release fails")
    args = parser.parse_args(argv)

    pinned = pins(args.lock)
    allowed = allowlist(args.allowlist)
    try:
        with ThreadPoolExecutor(8) as pool:
            data = dict(zip(pinned, pool.map(lambda name: project(args.index, name), pinned), strict=True))
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as error:
        print(f"audit: {args.index} unreachable or unreadable: {error}", file=sys.stderr)
        return 2

    findings, behind, reviewed = [], [], []
    for name, version in sorted(pinned.items()):
        newest = data[name]["info"]["version"]
        if version != newest:
            line = f"{name}=={version} (newest {newest})"
            (reviewed if f"behind:{name}" in allowed else behind).append(line)
            continue
        for vuln in data[name].get("vulnerabilities") or []:
            ids = {vuln["id"], *vuln.get("aliases", [])}
            if ids & allowed:
                continue
            fixed = ", ".join(vuln.get("fixed_in") or []) or "no fix yet"
            findings.append(f"{name}=={version}: {vuln['id']} (fixed in {fixed}) {vuln.get('summary') or ''}")

    newest_pins = sum(pinned[n] == data[n]["info"]["version"] for n in pinned)
    print(f"audit: {len(pinned)} pins in {args.lock.name}; {newest_pins} are the newest release and audited")
    for line in findings:
        print(f"  VULNERABLE {line}")
    for line in behind:
        print(f"  behind     {line}")
    for line in reviewed:
        print(f"  behind     {line}: reviewed (scripts/audit-allowlist.txt)")
    if behind:
        print(
            f"audit: {len(behind)} pin(s) behind the newest release, not audited here "
            "(PyPI lists the vulnerabilities of the newest release only): `make lock` brings them up"
        )
    if findings:
        print(f"audit: {len(findings)} known vulnerabilit{'y' if len(findings) == 1 else 'ies'}: FAILED")
        return 1
    if behind and args.fail_behind:
        return 1
    print("audit: no known vulnerability in the audited pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
