#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for tests and benchmarks (standard library only).

As a command::

    python scripts/pgcluster.py run -- CMD ARGS...

makes a temporary directory, ``initdb``s a cluster in it (trust auth, superuser
``postgres``), starts it on a free port on 127.0.0.1 with its unix socket in the same
directory and durability switched off (fsync, synchronous_commit, full_page_writes),
creates the database ``cwp``, runs CMD with
``DATABASE_URL=postgres://postgres@127.0.0.1:PORT/cwp`` added to its environment, then
stops the cluster and removes the directory, also on Ctrl-C, SIGTERM or failure. It exits
with CMD's exit code (128+N when CMD died of signal N). If the cluster itself cannot be
set up it exits with 69, which no test runner uses for its own results.

``python scripts/pgcluster.py reap`` stops and removes clusters left behind by runs that
were killed outright (SIGKILL); ``run`` does this itself before it starts.

As a library::

    from pgcluster import throwaway_cluster

    with throwaway_cluster() as url:
        ...  # url is the DATABASE_URL

The binaries are found on PATH (``initdb``), else in the newest
``/usr/lib/postgresql/*/bin``; ``PG_BINDIR`` overrides both. Run as root, the directory is
handed to the ``postgres`` user and the server runs as that user (initdb refuses root).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

DIR_PREFIX = "cwp-pgcluster-"
OWNER_FILE = "owner.pid"
SUPERUSER = "postgres"
DEFAULT_DBNAME = "cwp"
EXIT_SETUP_FAILED = 69  # EX_UNAVAILABLE: distinct from pytest's 0-5
START_ATTEMPTS = 3

SETTINGS = {
    "listen_addresses": "127.0.0.1",
    # Test-only durability trade-offs: a crash loses the cluster, which is thrown away anyway.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "100",
    "shared_buffers": "128MB",
    "max_wal_size": "1GB",
    "checkpoint_timeout": "30min",
    "logging_collector": "off",
    "log_min_messages": "warning",
    "log_min_duration_statement": "-1",
    "timezone": "UTC",
    "log_timezone": "UTC",
}


class ClusterError(RuntimeError):
    """The throwaway cluster could not be set up."""


def _log(message: str) -> None:
    print(f"pgcluster: {message}", file=sys.stderr, flush=True)


def _version_key(path: str) -> tuple[int, ...]:
    name = Path(path).parent.name  # /usr/lib/postgresql/15/bin -> "15"
    return tuple(int(part) for part in name.split(".") if part.isdigit()) or (0,)


def find_bindir() -> Path:
    """Directory holding initdb, pg_ctl and postgres of one PostgreSQL version."""

    def complete(directory: Path) -> bool:
        return all(os.access(directory / tool, os.X_OK) for tool in ("initdb", "pg_ctl", "postgres"))

    override = os.environ.get("PG_BINDIR")
    if override:
        if complete(Path(override)):
            return Path(override)
        raise ClusterError(f"PG_BINDIR={override} has no initdb, pg_ctl and postgres")
    on_path = shutil.which("initdb")
    if on_path:
        # Resolve symlinks such as /usr/local/bin/initdb so pg_ctl and postgres match it.
        directory = Path(on_path).resolve().parent
        if complete(directory):
            return directory
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True):
        if complete(Path(candidate)):
            return Path(candidate)
    raise ClusterError(
        "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in "
        "/usr/lib/postgresql/*/bin; install them with `sudo bash scripts/system-deps.sh` "
        "(Debian package postgresql)"
    )


def _is_root() -> bool:
    return os.geteuid() == 0


def _postgres_ids() -> tuple[int, int]:
    import pwd

    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        raise ClusterError(
            "running as root, but there is no `postgres` user to run the server as "
            "(the Debian package postgresql creates it; initdb refuses to run as root)"
        ) from None
    return entry.pw_uid, entry.pw_gid


def _world_traversable(directory: Path) -> bool:
    """True if every directory from / down to ``directory`` can be entered by anyone."""
    for part in [directory, *directory.parents]:
        try:
            if not part.stat().st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def _base_tempdir() -> str:
    base = Path(tempfile.gettempdir()).resolve()
    if _is_root() and not _world_traversable(base):
        # The postgres user must reach the directory (TMPDIR may be under /root).
        return "/tmp"
    return str(base)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Cluster:
    """One throwaway cluster. Use :func:`throwaway_cluster` rather than this directly."""

    def __init__(self, dbname: str = DEFAULT_DBNAME) -> None:
        self.dbname = dbname
        self.bindir = find_bindir()
        self.as_postgres = _is_root()
        self.root: Path | None = None
        self.port: int | None = None
        self.started = False

    # -- paths -----------------------------------------------------------------------------
    @property
    def datadir(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    @property
    def logfile(self) -> Path:
        assert self.root is not None
        return self.root / "server.log"

    @property
    def url(self) -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/{self.dbname}"

    # -- running tools ---------------------------------------------------------------------
    def _pg(self, tool: str, *args: str, check: bool = True, timeout: float = 120):
        command = [str(self.bindir / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C"
        result = subprocess.run(
            command,
            # The postgres user may not be able to enter the caller's working directory.
            cwd=self.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            check=False,
        )
        if check and result.returncode != 0:
            raise ClusterError(
                f"{tool} {' '.join(args)} failed ({result.returncode}):\n{result.stdout.strip()}"
            )
        return result

    def _log_tail(self, lines: int = 30) -> str:
        try:
            text = self.logfile.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    # -- lifecycle -------------------------------------------------------------------------
    def create(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=DIR_PREFIX, dir=_base_tempdir()))
        (self.root / OWNER_FILE).write_text(f"{os.getpid()}\n")
        if self.as_postgres:
            uid, gid = _postgres_ids()
            os.chown(self.root, uid, gid)
            os.chmod(self.root, 0o700)
        self._pg(
            "initdb",
            "--pgdata",
            str(self.datadir),
            "--username",
            SUPERUSER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
            "--no-instructions",
        )
        socket_dir = str(self.root).replace("'", "''")
        lines = [f"{key} = '{value}'" for key, value in SETTINGS.items()]
        lines.append(f"unix_socket_directories = '{socket_dir}'")
        with open(self.datadir / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("\n# throwaway test cluster (scripts/pgcluster.py)\n")
            conf.write("\n".join(lines) + "\n")

    def start(self) -> None:
        last_error = ""
        for _attempt in range(START_ATTEMPTS):
            self.port = _free_port()
            result = self._pg(
                "pg_ctl",
                "--pgdata",
                str(self.datadir),
                "--log",
                str(self.logfile),
                "--options",
                f"-p {self.port}",
                "--wait",
                "--timeout",
                "60",
                "start",
                check=False,
            )
            if result.returncode == 0:
                self.started = True
                return
            # Most likely another process took the port between probing and binding.
            last_error = f"{result.stdout.strip()}\n{self._log_tail()}"
            self._pg("pg_ctl", "--pgdata", str(self.datadir), "-m", "immediate", "stop", check=False)
        raise ClusterError(f"could not start PostgreSQL:\n{last_error}")

    def create_database(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        result = subprocess.run(
            [
                str(self.bindir / "createdb"),
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--username",
                SUPERUSER,
                self.dbname,
            ],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=60,
            check=False,
        )
        if result.returncode != 0:
            raise ClusterError(f"createdb {self.dbname} failed:\n{result.stdout.strip()}")

    def version(self) -> str:
        try:
            return (self.datadir / "PG_VERSION").read_text().strip()
        except OSError:
            return "?"

    def destroy(self) -> None:
        if self.root is None:
            return
        if self.started:
            stop = self._pg(
                "pg_ctl",
                "--pgdata",
                str(self.datadir),
                "-m",
                "fast",
                "--wait",
                "--timeout",
                "30",
                "stop",
                check=False,
            )
            if stop.returncode != 0:
                self._pg("pg_ctl", "--pgdata", str(self.datadir), "-m", "immediate", "stop", check=False)
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None


def reap_stale(verbose: bool = True) -> int:
    """Stop and remove clusters whose owning process is gone. Returns how many."""
    reaped = 0
    bases = {_base_tempdir(), tempfile.gettempdir(), "/tmp"}
    for base in bases:
        for candidate in glob.glob(os.path.join(base, DIR_PREFIX + "*")):
            root = Path(candidate)
            owner = root / OWNER_FILE
            try:
                pid = int(owner.read_text().strip())
            except (OSError, ValueError):
                # Not (yet) one of ours, or its owner is still writing it: leave it alone
                # unless it is clearly old.
                try:
                    if time.time() - root.stat().st_mtime < 3600:
                        continue
                except OSError:
                    continue
                pid = -1
            if pid > 0 and _pid_alive(pid):
                continue
            try:
                cluster = Cluster()
            except ClusterError:
                cluster = None
            if cluster is not None and (root / "data" / "postmaster.pid").exists():
                cluster.root = root
                cluster._pg("pg_ctl", "--pgdata", str(root / "data"), "-m", "immediate", "stop", check=False)
            shutil.rmtree(root, ignore_errors=True)
            reaped += 1
            if verbose:
                _log(f"removed stale cluster {root}")
    return reaped


@contextlib.contextmanager
def throwaway_cluster(dbname: str = DEFAULT_DBNAME, announce: bool = True) -> Iterator[str]:
    """Start a throwaway cluster, yield its DATABASE_URL, then stop and remove it.

    The URL's role is the cluster's superuser, so it can CREATE DATABASE (pytest-django
    creates ``test_<dbname>``). Raises :class:`ClusterError` if the cluster cannot be set up.
    """
    reap_stale(verbose=announce)
    cluster = Cluster(dbname)
    try:
        cluster.create()
        cluster.start()
        cluster.create_database()
        if announce:
            _log(
                f"PostgreSQL {cluster.version()} ({cluster.bindir}) at {cluster.url}, data in {cluster.root}"
            )
        yield cluster.url
    finally:
        with _signals_deferred():
            cluster.destroy()


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold off SIGINT/SIGTERM/SIGHUP (main thread only) so teardown is not cut short."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    watched = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.getsignal(signum) for signum in watched}
    for signum in watched:
        signal.signal(signum, lambda signum, _frame: received.append(signum))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        if received:
            # Deliver the first deferred signal now that the cluster is gone.
            signal.raise_signal(received[0])


class _Terminated(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, _frame: object) -> None:
    raise _Terminated(signum)


def _run(command: list[str], dbname: str) -> int:
    if not command:
        _log("nothing to run: give a command after `run --`")
        return 2
    # SIGTERM/SIGHUP become exceptions so that the cluster is always torn down.
    signal.signal(signal.SIGTERM, _raise_terminated)
    signal.signal(signal.SIGHUP, _raise_terminated)
    try:
        with throwaway_cluster(dbname) as url:
            env = dict(os.environ, DATABASE_URL=url)
            try:
                child = subprocess.Popen(command, env=env)
            except OSError as exc:
                _log(f"cannot run {command[0]}: {exc}")
                return 127
            try:
                returncode = child.wait()
            except KeyboardInterrupt:
                # The terminal sent SIGINT to the child too; give it time to finish.
                try:
                    child.wait(timeout=10)
                except (subprocess.TimeoutExpired, KeyboardInterrupt):
                    child.kill()
                    child.wait()
                return 130
            except _Terminated as exc:
                child.send_signal(exc.signum)
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
                return 128 + exc.signum
            return 128 - returncode if returncode < 0 else returncode
    except ClusterError as exc:
        _log(f"error: {exc}")
        return EXIT_SETUP_FAILED
    except KeyboardInterrupt:
        _log("interrupted; cluster removed")
        return 130
    except _Terminated as exc:
        _log(f"terminated by signal {exc.signum}; cluster removed")
        return 128 + exc.signum


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pgcluster.py", description="Run a command against a throwaway PostgreSQL cluster."
    )
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("run", help="run CMD with DATABASE_URL pointing at a throwaway cluster")
    run.add_argument("--dbname", default=DEFAULT_DBNAME, help="database to create (default: cwp)")
    run.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD ARGS...")
    sub.add_parser("reap", help="stop and remove clusters left behind by killed runs")
    args = parser.parse_args(argv)

    if args.action == "reap":
        count = reap_stale()
        _log(f"{count} stale cluster(s) removed")
        return 0
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    return _run(command, args.dbname)


if __name__ == "__main__":
    sys.exit(main())
