"""Real processes a test starts (gunicorn, redis-server, manage.py commands): a free port, waiting
for a server to answer, stopping it."""

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import ROOT

GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_until(condition, procs, give_up: float = 60) -> None:
    deadline = time.monotonic() + give_up
    while not condition():
        for proc in procs:
            assert proc.poll() is None, "gunicorn exited"
        if time.monotonic() > deadline:
            # Not a timing assertion: the state never came; the assertion after says which.
            return
        time.sleep(0.2)


def stop(proc: subprocess.Popen, timeout: float = 30) -> None:
    """Terminate, then kill what has not exited within ``timeout`` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def start_gunicorn(env: dict, log: Path) -> subprocess.Popen:
    """gunicorn with the project's configuration (config/gunicorn.conf.py), started from the
    repository's root with ``env`` as its whole environment, its output written to ``log``."""
    with log.open("w") as out:  # the child holds its own copy of the descriptor
        return subprocess.Popen(
            [str(GUNICORN), "-c", "config/gunicorn.conf.py"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def run_manage(*args: str, env: dict, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    """``manage.py <args>`` as an operator runs it, from the repository's root with ``env`` as its
    whole environment; its output captured as text."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )
