"""Real servers a test starts (gunicorn, redis-server, manage.py runserver): a free port, waiting
for one to answer, stopping it."""

import socket
import subprocess
import time
import urllib.request


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
