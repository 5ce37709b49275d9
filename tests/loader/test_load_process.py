"""The loading process's own behaviour, run as an operator runs it (manage.py in a subprocess):
its lock follows the real database file, its reading workers die with it, a refused load
leaves no stray traceback."""

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from catalogue.management.commands.load_snapshot import EXIT_LOCKED
from tests.conftest import ROOT
from tests.servers import run_manage


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An empty, migrated SQLite catalogue, made once: each test loads into its own copy."""
    database = tmp_path_factory.mktemp("template") / "catalogue.sqlite3"
    done = run_manage("migrate", "-v0", env={**os.environ, "DATABASE_URL": f"sqlite:///{database}"})
    assert done.returncode == 0, done.stderr
    return database


def _sqlite_env(template: Path, tmp_path: Path, **extra) -> dict:
    database = tmp_path / "catalogue.sqlite3"
    shutil.copy(template, database)
    return {**os.environ, "DATABASE_URL": f"sqlite:///{database}", **extra}


def _generate(tmp_path: Path, papers: int) -> Path:
    out = tmp_path / "snapshot"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "generate.py"), "--papers", str(papers), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def test_sqlite_lock_follows_a_symlink_to_the_real_file(tmp_path):
    real = tmp_path / "real.sqlite3"
    real.touch()
    link = tmp_path / "link.sqlite3"
    link.symlink_to(real)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{link}"}
    with open(f"{real}.load-lock", "a") as handle:  # what a load through the real path holds
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        refused = run_manage("load_snapshot", str(ROOT / "fixtures"), env=env)
    assert refused.returncode == EXIT_LOCKED, refused.stderr
    assert "refused: another load_snapshot is running" in refused.stderr


@pytest.mark.slow
def test_refused_parallel_load_prints_no_stray_traceback(migrated_sqlite, tmp_path):
    snapshot = _generate(tmp_path, papers=250)  # over 256 files: read by a pool of workers
    (snapshot / "zzz_bad.json").write_text('{"url": "/code/x", "entry": ')
    env = _sqlite_env(migrated_sqlite, tmp_path, LOAD_WORKERS="2")
    refused = run_manage("load_snapshot", str(snapshot), env=env)
    assert refused.returncode == 1
    assert "zzz_bad.json: invalid JSON" in refused.stderr
    assert "Exception ignored" not in refused.stderr
    assert "Traceback" not in refused.stderr


def _marked(marker: str) -> list[int]:
    """The processes whose environment holds ``marker``: a load and whatever it started."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # gone meanwhile, or not ours
                continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killed_load_leaves_no_reading_workers(migrated_sqlite, tmp_path):
    snapshot = _generate(tmp_path, papers=3000)
    marker = f"CWP_TEST_LOAD_MARK={uuid.uuid4().hex}"
    key, value = marker.split("=")
    env = _sqlite_env(migrated_sqlite, tmp_path, LOAD_WORKERS="2", PYTHONUNBUFFERED="1", **{key: value})
    loader = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "load_snapshot", str(snapshot)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        for line in loader.stdout:
            if "read " in line:  # the first progress line: the pool is reading
                break
        # The loader, its forkserver, its resource tracker and its two workers.
        assert len(_marked(marker)) >= 4
        os.kill(loader.pid, signal.SIGKILL)
        loader.wait()
        deadline = time.monotonic() + 30
        while _marked(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _marked(marker)
        assert left == [], [Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in left]
    finally:
        loader.stdout.close()
        for pid in _marked(marker):  # what an unfixed loader leaves: ours, found by our marker
            os.kill(pid, signal.SIGKILL)


def test_a_reading_worker_reads_the_seed_format_without_pyarrow(seeds_dir):
    """Importing pyarrow costs each reading worker 25 MB of RSS (two workers: 50 MB of the loading
    tree's peak, which must stay under 500 MB at archive size); only a dump part needs it."""
    script = (
        "import sys\n"
        "from catalogue import loadworker\n"
        f"loadworker.start({str(seeds_dir)!r}, [], None)\n"
        f"results = loadworker.read_chunk({sorted(p.name for p in seeds_dir.iterdir())!r}, 'sqlite')\n"
        "assert all(r.error is None and r.tuples for r in results), results\n"
        "print(len(results), 'pyarrow' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(list(seeds_dir.iterdir()))), "False"]
