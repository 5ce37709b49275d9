"""Supply chain: every dependency is pinned with hashes, and the pins have no known vulnerability.

The audit asks PyPI (scripts/audit_lock.py), so these tests need PyPI, which CI reaches
because it installs from it. A PyPI outage fails them loudly (exit 2) rather than passing.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "scripts" / "audit_lock.py"


def test_every_locked_requirement_is_pinned_with_a_hash():
    text = (ROOT / "requirements.lock").read_text()
    requirements = [line for line in text.splitlines() if line and not line.startswith((" ", "#", "\t", "-"))]
    assert len(requirements) > 30
    for line in requirements:
        assert "==" in line, line
    blocks = text.split("\n")
    hashes = sum(line.strip().startswith("--hash=sha256:") for line in blocks)
    assert hashes >= len(requirements)


def audit(lock: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(AUDIT), str(lock), *extra], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_the_locked_dependencies_have_no_known_vulnerability():
    result = audit(ROOT / "requirements.lock")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no known vulnerability" in result.stdout


@pytest.mark.slow
def test_the_audit_flags_a_vulnerable_pin_and_an_unreviewed_old_one(tmp_path):
    lock = tmp_path / "requirements.lock"
    # pycrypto 2.6.1 is its newest release and has published advisories; django 1.11.0 is old.
    lock.write_text("pycrypto==2.6.1 \\\n    --hash=sha256:00\ndjango==1.11 \\\n    --hash=sha256:00\n")
    empty = tmp_path / "allow.txt"
    empty.write_text("")
    result = audit(lock, "--allowlist", str(empty))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "VULNERABLE pycrypto==2.6.1: PYSEC-" in result.stdout
    assert "behind     django==1.11" in result.stdout
