"""Supply chain: every dependency is pinned with hashes, and the audit of the pins (make audit).

The audit itself (scripts/audit_lock.py) asks PyPI, and runs as ``make audit``, outside the
suite: a release or an advisory published upstream changes its answer, and the suite's outcome
depends only on the code and requirements.lock. Here it is answered by a local fake index, so
what is tested is what the script makes of an answer: a vulnerable pin fails, a pin behind the
newest release is reported and does not, an index it cannot reach is exit status 2.
"""

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import ROOT

AUDIT = ROOT / "scripts" / "audit_lock.py"
LOCK = ROOT / "requirements.lock"

sys.path.insert(0, str(ROOT / "scripts"))
from audit_lock import pins  # noqa: E402


def test_every_locked_requirement_is_pinned_with_a_hash():
    text = LOCK.read_text()
    requirements = [line for line in text.splitlines() if line and not line.startswith((" ", "#", "\t", "-"))]
    assert len(requirements) > 30
    for line in requirements:
        assert "==" in line, line
    blocks = text.split("\n")
    hashes = sum(line.strip().startswith("--hash=sha256:") for line in blocks)
    assert hashes >= len(requirements)


def test_every_direct_dependency_is_pinned_in_the_lock_at_the_version_pyproject_names():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"].values()
    declared = [*project["dependencies"], *(d for ds in extras for d in ds)]
    locked = pins(LOCK)
    for requirement in declared:
        name, version = requirement.split("==")
        assert locked[name.split("[")[0].lower()] == version, requirement


def _project(version: str, vulnerabilities=()) -> dict:
    """A project answer as PyPI's JSON API gives it: the newest version, its vulnerabilities."""
    return {"info": {"version": version}, "vulnerabilities": list(vulnerabilities)}


@pytest.fixture
def index():
    """A fake PyPI JSON API on loopback; tests set ``projects`` (name -> answer) before asking it."""
    projects: dict[str, dict] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            name = self.path.strip("/").removesuffix("/json")
            if name not in projects:
                self.send_error(404)
                return
            body = json.dumps(projects[name]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.projects = projects
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()
    server.server_close()


def audit(lock: Path, index_url: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(AUDIT), str(lock), "--index", index_url, *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_release_on(version: str) -> str:
    parts = version.split(".")
    return ".".join([*parts[:-1], str(int("".join(c for c in parts[-1] if c.isdigit()) or 0) + 1)])


def test_the_lock_with_every_pin_the_newest_release_is_clean(index):
    index.projects.update({name: _project(version) for name, version in pins(LOCK).items()})
    result = audit(LOCK, index.url, "--allowlist", "/dev/null")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(pins(LOCK))} are the newest release and audited" in result.stdout
    assert "behind" not in result.stdout
    assert "no known vulnerability" in result.stdout


def test_a_pin_one_release_behind_is_reported_and_does_not_fail(index, tmp_path):
    locked = pins(LOCK)
    newest = _one_release_on(locked["idna"])
    index.projects.update({name: _project(version) for name, version in locked.items()})
    index.projects["idna"] = _project(newest)
    result = audit(LOCK, index.url, "--allowlist", "/dev/null")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"behind     idna=={locked['idna']} (newest {newest})" in result.stdout
    assert "1 pin(s) behind the newest release" in result.stdout
    assert "make lock" in result.stdout
    # ... and --fail-behind, for whoever wants it as a failure:
    assert audit(LOCK, index.url, "--allowlist", "/dev/null", "--fail-behind").returncode == 1


def test_a_reviewed_pin_behind_is_reported_as_reviewed(index, tmp_path):
    locked = pins(LOCK)
    index.projects.update({name: _project(version) for name, version in locked.items()})
    index.projects["ruff"] = _project(_one_release_on(locked["ruff"]))
    allow = tmp_path / "allow.txt"
    allow.write_text("behind:ruff  # pinned so formatting does not change under us\n")
    result = audit(LOCK, index.url, "--allowlist", str(allow))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"behind     ruff=={locked['ruff']} (newest " in result.stdout
    assert "reviewed (scripts/audit-allowlist.txt)" in result.stdout
    assert "pin(s) behind" not in result.stdout


def test_a_vulnerable_pin_fails_naming_the_advisory_unless_allowed(index, tmp_path):
    lock = tmp_path / "requirements.lock"
    lock.write_text("pycrypto==2.6.1 \\\n    --hash=sha256:00\ndjango==1.11 \\\n    --hash=sha256:00\n")
    advisory = {
        "id": "PYSEC-2018-1",
        "aliases": ["CVE-2018-6594"],
        "fixed_in": [],
        "summary": "weak ElGamal key parameters",
    }
    index.projects["pycrypto"] = _project("2.6.1", [advisory])
    index.projects["django"] = _project("6.1.3")
    result = audit(lock, index.url, "--allowlist", "/dev/null")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "VULNERABLE pycrypto==2.6.1: PYSEC-2018-1 (fixed in no fix yet) weak ElGamal" in result.stdout
    assert "behind     django==1.11 (newest 6.1.3)" in result.stdout
    assert "FAILED" in result.stdout

    allow = tmp_path / "allow.txt"
    allow.write_text("CVE-2018-6594  # reviewed: we never generate ElGamal keys\n")
    allowed = audit(lock, index.url, "--allowlist", str(allow))
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert "VULNERABLE" not in allowed.stdout


def test_an_index_that_does_not_answer_is_exit_status_2(index):
    index.projects.clear()  # every project answers 404
    result = audit(LOCK, index.url, "--allowlist", "/dev/null")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "unreachable" in result.stderr
