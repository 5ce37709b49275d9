#!/usr/bin/env python3
"""Known vulnerabilities of the pinned dependencies, from PyPI's project JSON (standard library only).

    python scripts/audit_lock.py [requirements.lock] [--allowlist scripts/audit-allowlist.txt]

Why not only pip-audit: pip-audit asks PyPI's per-release endpoint (``/pypi/NAME/VERSION/json``)
or OSV; where only the project endpoint (``/pypi/NAME/json``) is reachable, as on our build
machines, pip-audit reports every package as "not found" and audits nothing. The project
endpoint lists the vulnerabilities (OSV records: PYSEC, GHSA, CVE) of the project's newest
release, and the ids of the releases each one is fixed in. So:

- a pin that is the newest release is audited fully: any listed vulnerability is a finding;
- an older pin is reported as "behind" (with the newest version): upgrade it (``make lock``) or
  audit it elsewhere. Its known vulnerabilities cannot be listed from here, so a "behind" pin
  fails the audit unless ``--allow-behind`` is given.

Findings can be allowed, after review, by listing their id in the allowlist file (one
``ID  # reason`` per line); a pin that must stay behind is allowed by ``behind:NAME  # reason``.
Exit status: 0 clean, 1 findings, 2 PyPI unreachable.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


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


def project(name: str) -> dict:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=30) as response:
        return json.load(response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lock", nargs="?", type=Path, default=ROOT / "requirements.lock")
    parser.add_argument("--allowlist", type=Path, default=ROOT / "scripts" / "audit-allowlist.txt")
    parser.add_argument("--allow-behind", action="store_true", help="older pins do not fail the audit")
    args = parser.parse_args(argv)

    pinned = pins(args.lock)
    allowed = allowlist(args.allowlist)
    try:
        with ThreadPoolExecutor(8) as pool:
            data = dict(zip(pinned, pool.map(project, pinned), strict=True))
    except (urllib.error.URLError, TimeoutError) as error:
        print(f"audit: PyPI unreachable: {error}", file=sys.stderr)
        return 2

    findings, behind = [], []
    for name, version in sorted(pinned.items()):
        newest = data[name]["info"]["version"]
        if version != newest:
            if f"behind:{name}" not in allowed:
                behind.append(f"{name}=={version} (newest {newest})")
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
    if findings:
        return 1
    if behind and not args.allow_behind:
        print("audit: pins behind the newest release cannot be audited here (make lock, or --allow-behind)")
        return 1
    print("audit: no known vulnerability in the audited pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
