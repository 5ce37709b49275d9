"""Admin latency benchmark: the curators' list and change pages on a large catalogue.

    .venv/bin/python bench/admin_bench.py [--papers 20000] [--requests 60] [--backends sqlite postgres]

For each backend it loads a synthetic snapshot (bench/generate.py, cached under
bench/out/data/) into a fresh database (a new SQLite file; a throwaway PostgreSQL cluster from
scripts/pgcluster.py), adds a curator and some corrections, serves the site with gunicorn on
127.0.0.1, logs in through the admin's login form like a browser (session cookie, CSRF
token) and requests each admin page ``--requests`` times, one after another, after a few
untimed warm-up requests. It reports the median and 95th percentile of the full response
time as the client sees it. Results: stdout (Markdown), bench/out/admin-<papers>.json/.md.

Why sequential requests from one client: this times a page as a curator waits for it, not
the server's throughput (curators are few). Why gunicorn and a real socket: the admin's
cost includes middleware, sessions, templates and the database, all of which a test client
would share with the benchmark's own process.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import asdict, dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
OUT = BENCH / "out"
ADMIN = "/" + os.environ.get("ADMIN_PATH", "admin/").strip("/") + "/"
USERNAME = "bench-curator"
PASSWORD = "bench-curator-passphrase-2026"
WARM_UP = 3

# Corrections made before timing, so that the corrections lists and filters have rows.
SETUP = """
import json
from django.contrib.auth.models import User
from django.db import connection
from catalogue import curation
from catalogue.models import CodeEntry, Paper, Sample
user = User.objects.get(username=%(username)r)
for paper in Paper.objects.order_by("id")[:50]:
    title = (paper.title or paper.slug) + " (curated)"
    curation.correct_title(paper, title, user=user, expected_version=None)
for sample in Sample.objects.order_by("id")[:200]:
    curation.correct_status(sample, "ran_honours", user=user, reason="bench", expected_version=None)
if connection.vendor == "postgresql":
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
from django.db.models import Count
busiest = Paper.objects.annotate(n=Count("samples")).order_by("-n", "id").first()
with_samples = Paper.objects.annotate(n=Count("samples")).filter(n__gt=0).order_by("id")
typical = with_samples[min(1000, with_samples.count() - 1)]
entry = CodeEntry.objects.annotate(n=Count("samples")).order_by("-n", "id").first()
word = next(w for w in (typical.title or "").split() if w.isalpha() and len(w) > 4)
print(json.dumps({
    "papers": Paper.objects.count(),
    "samples": Sample.objects.count(),
    "busiest_paper": busiest.pk, "busiest_paper_samples": busiest.n,
    "typical_paper": typical.pk, "typical_paper_samples": typical.n,
    "sample": Sample.objects.order_by("id")[min(5000, Sample.objects.count() - 1)].pk,
    "entry": entry.pk, "entry_samples": entry.n,
    "entry_name": entry.name, "word": word,
}))
"""


@dataclass
class Timing:
    page: str
    path: str
    requests: int
    median_ms: float
    p95_ms: float
    max_ms: float
    bytes: int


@dataclass
class Result:
    backend: str
    papers: int
    facts: dict = field(default_factory=dict)
    timings: list[Timing] = field(default_factory=list)
    setup_s: float = 0.0


def ensure_snapshot(papers: int, seed: int, data_dir: Path) -> Path:
    folder = data_dir / f"papers-{papers}-seed-{seed}"
    if (folder / ".complete").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    print(f"generating {papers} papers into {folder} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [
            PYTHON,
            str(BENCH / "generate.py"),
            "--papers",
            str(papers),
            "--out",
            str(folder),
            "--seed",
            str(seed),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (folder / ".complete").write_text("")
    return folder


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"manage.py {' '.join(args[:2])} exited {result.returncode}:\n"
            f"{result.stdout[-2000:]}{result.stderr[-3000:]}"
        )
    return result.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(env: dict):
    port = free_port()
    proc = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


class Browser:
    """Just enough of a browser: one keep-alive connection, cookies, and the admin's login form."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes, dict]:
        headers = {"Host": "127.0.0.1", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        content = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({k: m.value for k, m in cookie.items()})
        return response.status, content, dict(response.headers)

    def log_in(self) -> None:
        status, page, _ = self.request("GET", ADMIN + "login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or not token:
            raise RuntimeError(f"no login form ({status})")
        status, _, _ = self.request(
            "POST",
            ADMIN + "login/",
            {
                "username": USERNAME,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1).decode(),
                "next": ADMIN,
            },
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"login failed ({status})")

    def time_page(self, page: str, path: str, n: int) -> Timing:
        for _ in range(WARM_UP):
            self._get_ok(path)
        times, size = [], 0
        for _ in range(n):
            start = time.perf_counter()
            size = len(self._get_ok(path))
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        return Timing(
            page, path, n, round(statistics.median(times), 1), round(p95, 1), round(times[-1], 1), size
        )

    def _get_ok(self, path: str) -> bytes:
        status, content, _ = self.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        return content


def pages(facts: dict) -> list[tuple[str, str]]:
    a = ADMIN + "catalogue/"
    q = urllib.parse.quote
    paper_page = max(1, min(200, facts["papers"] // 50))  # a page deep in the list (50 a page)
    sample_page = max(1, min(200, facts["samples"] // 50))
    return [
        ("admin home", ADMIN),
        ("papers: list", a + "paper/"),
        (f"papers: list, page {paper_page}", a + f"paper/?p={paper_page}"),
        ("papers: search a title word", a + f"paper/?q={q(facts['word'])}"),
        ("papers: filter corrected", a + "paper/?title_corrected__exact=1"),
        ("papers: filter upstream changed", a + "paper/?upstream_changed=yes"),
        (
            f"paper: change page, typical ({facts['typical_paper_samples']} samples)",
            a + f"paper/{facts['typical_paper']}/change/",
        ),
        (
            f"paper: change page, busiest ({facts['busiest_paper_samples']} samples)",
            a + f"paper/{facts['busiest_paper']}/change/",
        ),
        ("samples: list", a + "sample/"),
        (f"samples: list, page {sample_page}", a + f"sample/?p={sample_page}"),
        ("samples: filter status=ran", a + "sample/?status__exact=ran"),
        ("samples: filter licence + repo kind", a + "sample/?licence=MIT&repo_kind__exact=official"),
        ("samples: search an entry name", a + f"sample/?q={q(facts['entry_name'])}"),
        ("sample: change page", a + f"sample/{facts['sample']}/change/"),
        (
            f"code entry: change page with figures ({facts['entry_samples']} places)",
            a + f"codeentry/{facts['entry']}/change/",
        ),
        ("corrections: list", a + "correction/"),
        ("corrections: upstream changed", a + "correction/?upstream_changed=yes"),
    ]


def run_backend(backend: str, url: str, snapshot: Path, papers: int, n: int) -> Result:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "",
        "CURATOR_PASSWORD": PASSWORD,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    result = Result(backend, papers)
    started = time.perf_counter()
    print(f"[{backend}] migrate + load_snapshot {snapshot} ...", file=sys.stderr, flush=True)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_snapshot", str(snapshot), "-v0")
    manage(env, "create_curator", USERNAME, "--noinput")
    result.facts = json.loads(
        manage(env, "shell", "-c", SETUP % {"username": USERNAME}).strip().splitlines()[-1]
    )
    result.setup_s = round(time.perf_counter() - started, 1)
    with serve(env) as port:
        browser = Browser(port)
        browser.log_in()
        for page, path in pages(result.facts):
            timing = browser.time_page(page, path, n)
            print(
                f"[{backend}] {page}: median {timing.median_ms} ms, p95 {timing.p95_ms} ms", file=sys.stderr
            )
            result.timings.append(timing)
    return result


@contextlib.contextmanager
def databases(backends: list[str]):
    found = {}
    with contextlib.ExitStack() as stack:
        if "sqlite" in backends:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="cwp-admin-bench-")))
            found["sqlite"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
        if "postgres" in backends:
            sys.path.insert(0, str(ROOT / "scripts"))
            from pgcluster import throwaway_cluster

            found["postgres"] = stack.enter_context(throwaway_cluster())
        yield found


def markdown(results: list[Result]) -> str:
    lines = []
    for r in results:
        f = r.facts
        lines += [
            f"**{r.backend}**, {f['papers']:,} papers, {f['samples']:,} samples"
            " (50 titles and 200 statuses corrected):",
            "",
            "| page | median ms | p95 ms | max ms | KB |",
            "|---|---:|---:|---:|---:|",
            *(
                f"| {t.page} | {t.median_ms:.1f} | {t.p95_ms:.1f} | {t.max_ms:.1f} | {t.bytes / 1024:.0f} |"
                for t in r.timings
            ),
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=20000)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--backends", nargs="+", default=["sqlite", "postgres"], choices=["sqlite", "postgres"]
    )
    parser.add_argument(
        "--data", type=Path, default=OUT / "data", help="where generated snapshots are cached"
    )
    args = parser.parse_args(argv)

    snapshot = ensure_snapshot(args.papers, args.seed, args.data)
    results = []
    with databases(args.backends) as urls:
        for backend in args.backends:
            results.append(run_backend(backend, urls[backend], snapshot, args.papers, args.requests))
    report = markdown(results)
    print(report)
    OUT.mkdir(exist_ok=True)
    (OUT / f"admin-{args.papers}.md").write_text(report)
    (OUT / f"admin-{args.papers}.json").write_text(json.dumps([asdict(r) for r in results], indent=2))


if __name__ == "__main__":
    main()
