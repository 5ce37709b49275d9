"""Every public page kind and API endpoint over a loaded catalogue, written to files to diff.

    .venv/bin/python scripts/response_dump.py OUT SNAPSHOT [SNAPSHOT ...]
    diff -r before/ after/

The check for a change of shape that must not change behaviour: dump before, dump after,
and diff. It builds a fresh SQLite database (or uses ``DATABASE_URL`` as it is, which must
then be empty), loads the snapshot(s) with ``load_snapshot``, and fetches through Django's
test client every page of every object (papers and their old addresses, code entries and
bodies, repositories, leaderboards, tasks, methods), the list pages under each sort and
filter with three pages of each, search with facets, the sitemaps, one page of every other public
page kind the URLconf routes (``catalogue.web.public_pages``), and every API list
(page and cursor mode, each filter), detail and child list. Each answer is one file: the
status, the headers that carry meaning (type, location, link, allow) and the body.
"""

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEPT_HEADERS = ("Content-Type", "Location", "Link", "Allow", "Vary")
SEARCH_WORDS = ("training", "learning", "pipeline parallel", "language pretraining", "forward", "pytorch")
PAGE_SORTS = {
    "/papers/": [{}, {"sort": "title"}, {"sort": "samples"}, {"has_code": "1"}, {"official": "1"},
                 {"ran": "1"}, {"year": "2019"}],
    "/code/": [{}, {"sort": "papers"}, {"sort": "ran"}, {"sort": "name"}, {"q": "forward"}],
}  # fmt: skip
_NEXT_CURSOR = re.compile(r'href="([^"]*[?&](?:links_)?after=[^"]+)"')


def seg(value: str) -> str:
    return quote(value, safe="")


class Dumper:
    def __init__(self, out: Path):
        from django.test import Client

        self.client = Client(HTTP_HOST="testserver")
        self.out = out
        self.seen: set[str] = set()

    def get(self, url: str, **headers) -> tuple[int, bytes]:
        if url in self.seen:
            return 0, b""
        self.seen.add(url)
        response = self.client.get(url, **headers)
        body = response.content if not response.streaming else b"".join(response.streaming_content)
        lines = [f"GET {url}", f"status: {response.status_code}"]
        lines += [f"{h}: {response[h]}" for h in KEPT_HEADERS if response.has_header(h)]
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", url)[:120] + "-" + hashlib.sha1(url.encode()).hexdigest()[:10]
        (self.out / name).write_bytes("\n".join(lines).encode() + b"\n\n" + body)
        return response.status_code, body

    def walk(self, url: str, pages: int = 3) -> None:
        """A list page and the next ``pages - 1`` pages its links lead to."""
        for _ in range(pages):
            status, body = self.get(url)
            if status != 200:
                return
            found = _NEXT_CURSOR.findall(body.decode())
            nexts = [u.replace("&amp;", "&") for u in found if "before=" not in u]
            if not nexts:
                return
            link = nexts[-1]
            url = link if link.startswith("/") else url.split("?")[0] + link

    def api_walk(self, url: str, pages: int = 2) -> None:
        for _ in range(pages):
            status, body = self.get(url)
            if status != 200:
                return
            data = json.loads(body)
            nxt = data.get("next") if isinstance(data, dict) else None
            if not nxt:
                return
            url = nxt.removeprefix("http://testserver")


def urls_of_pages(d: Dumper) -> None:
    from catalogue import models as m

    d.get("/")
    d.get("/about")
    d.get("/robots.txt")
    d.get("/search")
    for words in SEARCH_WORDS:
        d.get("/search?" + urlencode({"q": words}))
        for extra in (
            {"kind": "paper"},
            {"kind": "entry"},
            {"official": "1"},
            {"status": "ran"},
            {"page": "2"},
        ):
            d.get("/search?" + urlencode({"q": words, **extra}))
    for task in m.Task.objects.order_by("slug")[:3]:
        d.get("/search?" + urlencode({"q": "learning", "task": task.slug}))
        d.walk("/papers/?" + urlencode({"task": task.slug}))
    for method in m.Method.objects.order_by("slug")[:3]:
        d.walk("/papers/?" + urlencode({"method": method.slug}))
    for base, variants in PAGE_SORTS.items():
        for params in variants:
            d.walk(base + ("?" + urlencode(params) if params else ""))
    d.get("/sitemap.xml")
    for section in ("pages", "papers", "code", "repositories", "leaderboards", "tasks", "methods"):
        d.get(f"/sitemap-{section}.xml")
        d.get(f"/sitemap-{section}.xml?p=2")
    for slug in m.PaperSlug.objects.order_by("slug").values_list("slug", flat=True):
        d.get(f"/paper/{seg(slug)}")
    for arxiv_id in (
        m.Paper.objects.exclude(arxiv_id=None).order_by("arxiv_id").values_list("arxiv_id", flat=True)[:50]
    ):
        d.get(f"/paper/arxiv-{arxiv_id.replace('.', '-')}")
    for slug in m.CodeEntry.objects.order_by("slug").values_list("slug", flat=True):
        d.walk(f"/code/{seg(slug)}", pages=2)
    for slug in m.CodeEntry.objects.order_by("-n_places", "slug").values_list("slug", flat=True)[:5]:
        for status in m.Status.values:
            d.walk(f"/code/{seg(slug)}?status={status}", pages=2)
    for prefix in m.CodeBody.objects.order_by("sha256_prefix").values_list("sha256_prefix", flat=True):
        d.get(f"/body/{prefix}")
    for repo in m.Repo.objects.order_by("key"):
        base = f"/repo/{seg(repo.owner)}/{seg(repo.name)}"
        d.walk(base + ("" if repo.host == "github.com" else "?" + urlencode({"host": repo.host})), pages=2)
    for board in m.Leaderboard.objects.order_by("slug"):
        d.get(f"/sota/{seg(board.slug)}")
        for name in sorted({n for r in board.results.all() for n in (r.metrics or {})})[:3]:
            d.get(f"/sota/{seg(board.slug)}?" + urlencode({"metric": name}))
    for slug in m.Task.objects.order_by("slug").values_list("slug", flat=True):
        d.walk(f"/task/{seg(slug)}", pages=2)
    for slug in m.Method.objects.order_by("slug").values_list("slug", flat=True):
        d.walk(f"/method/{seg(slug)}", pages=2)
    d.get("/paper/no-such-paper")
    d.get("/code/no-such-entry")
    urls_of_every_kind(d)


def _first(rows, field: str):
    return rows.order_by(field).values_list(field, flat=True).first()


def _kind_addresses() -> dict:
    """Per public page kind: an address of it read from the rows (None: the data holds none)."""
    from django.urls import NoReverseMatch, reverse

    from catalogue import conferences
    from catalogue import models as m

    def at(name: str, value):
        try:
            return None if value is None else reverse(name, args=[value])
        except NoReverseMatch:  # an author name that makes no address
            return None

    def under(name: str, value, tail: str):
        url = at(name, value)
        return url and url + tail

    def _badge(tail: str):
        rows = m.Result.objects.filter(paper__isnull=False).order_by("pk")
        row = rows.values_list("paper__slug", "leaderboard__slug").first()
        return row and f"/badge/{row[0]}/{row[1]}{tail}"

    conference = next(iter(conferences.conferences().values()), None)
    proceeding = conference.proceedings[0] if conference and conference.proceedings else None
    return {
        "home": lambda: "/",
        "search": lambda: "/search",
        "paper_list": lambda: "/papers/",
        "papers_feed": lambda: "/papers/feed",
        "paper": lambda: at("paper", _first(m.PaperSlug.objects, "slug")),
        "paper_bibtex": lambda: under("paper", _first(m.PaperSlug.objects, "slug"), "/bibtex"),
        "code_entry_list": lambda: "/code/",
        "code_entry": lambda: at("code_entry", _first(m.CodeEntry.objects, "slug")),
        "code_entry_feed": lambda: under("code_entry", _first(m.CodeEntry.objects, "slug"), "/feed"),
        "code_body": lambda: at("code_body", _first(m.CodeBody.objects, "sha256_prefix")),
        "repo": lambda: next((r.get_absolute_url() for r in m.Repo.objects.order_by("key")[:1]), None),
        "sota": lambda: "/sota/",
        "leaderboard": lambda: at("leaderboard", _first(m.Leaderboard.objects, "slug")),
        "leaderboard_feed": lambda: under("leaderboard", _first(m.Leaderboard.objects, "slug"), "/feed"),
        "area": lambda: at("area", _first(m.Area.objects, "slug")),
        "task_list": lambda: "/tasks/",
        "task": lambda: at("task", _first(m.Task.objects, "slug")),
        "task_feed": lambda: under("task", _first(m.Task.objects, "slug"), "/feed"),
        "task_leaderboards": lambda: under("task", _first(m.Task.objects, "slug"), "/leaderboards"),
        "dataset_list": lambda: "/datasets/",
        "dataset": lambda: at("dataset", _first(m.Dataset.objects, "slug")),
        "dataset_leaderboards": lambda: under("dataset", _first(m.Dataset.objects, "slug"), "/leaderboards"),
        "author": lambda: at("author", _first(m.Author.objects.exclude(name=""), "name")),
        "proceeding_list": lambda: "/proceedings/",
        "conference": lambda: conference and at("conference", conference.id),
        "proceeding": lambda: proceeding and at("proceeding", proceeding.id),
        "method_list": lambda: "/methods/",
        "method": lambda: at("method", _first(m.Method.objects, "slug")),
        "corrections": lambda: "/corrections/",
        "corrections_feed": lambda: "/corrections/feed",
        "about": lambda: "/about",
        "attribution": lambda: "/attribution",
        "data": lambda: "/data/",
        "leaderboard_table": lambda: under(
            "leaderboard", _first(m.Leaderboard.objects, "slug"), "/table.csv"
        ),
        "badge_svg": lambda: _badge(".svg"),
        "badge": lambda: _badge(""),
    }


def urls_of_every_kind(d: Dumper) -> None:
    """Every public page kind (catalogue.web.public_pages, read from the URLconf) at least once: those
    the walk above did not reach, at an address read from the rows. A kind it cannot address stops
    the dump: a new page is dumped once it is given an address in _kind_addresses."""
    from urllib.parse import unquote, urlsplit

    from django.urls import Resolver404, resolve

    from catalogue.web.public_pages import public_page_kinds

    kinds = public_page_kinds()
    by_view = {kind.view: kind.name for kind in kinds}
    reached = set()
    for url in d.seen:
        try:
            reached.add(by_view.get(resolve(unquote(urlsplit(url).path)).func))
        except Resolver404:
            continue
    addresses = _kind_addresses()
    unknown = [kind.name for kind in kinds if kind.name not in addresses]
    if unknown:
        sys.exit(
            f"response_dump: no address for the public page kinds {', '.join(unknown)} (_kind_addresses)"
        )
    for kind in kinds:
        if kind.name not in reached and (url := addresses[kind.name]()):
            d.get(url)


API = "/api/v1"
LIST_FILTERS = {
    "papers": [{}, {"ordering": "-published"}, {"ordering": "title"}, {"has_code": "true"},
               {"has_code": "false"}, {"official": "true"}, {"official": "false"}, {"status": "ran"},
               {"year_min": "2019"}, {"year_max": "2018"}, {"q": "training"}, {"title": "learning"},
               {"framework": "pytorch"}, {"corrected": "false"}, {"title_source": "syntology"}],
    "search": [{"q": "training"}, {"q": "learning", "items_per_page": "5"}, {}],
    "repositories": [{}, {"q": "pytorch"}, {"official": "true"}, {"framework": "pytorch"},
                     {"host": "github.com"}],
    "tasks": [{}, {"q": "classification"}, {"name": "image"}],
    "methods": [{}, {"q": "attention"}, {"full_name": "network"}],
    "evaluations": [{}, {"q": "imagenet"}],
    "code-entries": [{}, {"q": "forward"}, {"ran": "true"}, {"ran": "false"}, {"status": "ran_honours"},
                     {"ordering": "-name"}],
    "samples": [{}, {"status": "ran"}, {"ran": "true"}, {"ran": "false"}, {"inline_ok": "false"},
                {"licence": "MIT"}, {"repo_kind": "official"}, {"verification_level_min": "1"},
                {"official": "true"}, {"q": "forward"}, {"year_min": "2020"}],
}  # fmt: skip


def urls_of_api(d: Dumper, every: int) -> None:
    from catalogue import models as m
    from catalogue.api import ids

    d.get(f"{API}/schema/")
    for kind, variants in LIST_FILTERS.items():
        for params in variants:
            d.api_walk(f"{API}/{kind}/" + ("?" + urlencode(params) if params else ""))
            if kind != "search":
                d.api_walk(f"{API}/{kind}/?" + urlencode({**params, "pagination": "cursor"}))
    for task in m.Task.objects.order_by("slug")[:3]:
        d.api_walk(f"{API}/papers/?task={seg(task.slug)}")
        d.api_walk(f"{API}/samples/?task={seg(task.slug)}")
        d.api_walk(f"{API}/evaluations/?task={seg(task.slug)}")
    for method in m.Method.objects.order_by("slug")[:3]:
        d.api_walk(f"{API}/papers/?method={seg(method.slug)}")
    for dataset in m.Dataset.objects.order_by("name")[:3]:
        d.api_walk(f"{API}/papers/?" + urlencode({"dataset": dataset.name}))
    for repo in m.Repo.objects.order_by("key")[:3]:
        d.api_walk(f"{API}/papers/?" + urlencode({"repository": repo.full_name}))
        d.api_walk(f"{API}/code-entries/?" + urlencode({"repository": repo.full_name}))
    for paper in m.Paper.objects.order_by("slug")[::every]:
        base = f"{API}/papers/{seg(paper.slug)}"
        d.get(base + "/")
        for child in ("repositories", "tasks", "methods", "results", "samples"):
            d.api_walk(f"{base}/{child}/")
        if paper.arxiv_id:
            d.get(f"{API}/papers/{paper.arxiv_id}/")
        d.api_walk(f"{API}/code-entries/?paper={seg(paper.slug)}")
    for repo in m.Repo.objects.order_by("key")[::every]:
        base = f"{API}/repositories/{seg(repo.owner)}/{seg(repo.name)}"
        d.get(base + "/")
        d.api_walk(base + "/papers/")
        d.api_walk(base + "/samples/")
        d.api_walk(f"{API}/repositories/{seg(repo.owner)}")
    for task in m.Task.objects.order_by("slug")[::every]:
        base = f"{API}/tasks/{seg(task.slug)}"
        d.get(base + "/")
        d.api_walk(base + "/papers/")
        d.api_walk(base + "/evaluations/")
    for method in m.Method.objects.order_by("slug")[::every]:
        d.get(f"{API}/methods/{seg(method.slug)}/")
    for board in m.Leaderboard.objects.order_by("slug"):
        base = f"{API}/evaluations/{seg(board.slug)}"
        d.get(base + "/")
        d.api_walk(base + "/metrics/")
        d.api_walk(base + "/results/")
        for result in board.results.all()[:3]:
            d.get(f"{base}/results/{ids.result_id(result)}/")
    for entry in m.CodeEntry.objects.order_by("slug")[::every]:
        base = f"{API}/code-entries/{seg(entry.slug)}"
        d.get(base + "/")
        d.api_walk(base + "/samples/")
    for prefix in m.CodeBody.objects.order_by("sha256_prefix").values_list("sha256_prefix", flat=True)[
        ::every
    ]:
        d.api_walk(f"{API}/samples/?code_sha256_prefix={prefix}")
    d.get(f"{API}/papers/no-such-paper/")
    d.get(f"{API}/papers/?year_min=abc")
    d.get(f"{API}/samples/?status=bogus")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("snapshots", nargs="+")
    parser.add_argument("--every", type=int, default=1, help="API details: every Nth object only")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    work = tempfile.mkdtemp(prefix="response-dump-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{work}/db.sqlite3")
    os.environ.update(
        PAGE_CACHE_SECONDS="0", FIGURES_CACHE_SECONDS="0", LOAD_WORKERS="0", STATIC_MANIFEST="0"
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host and no throttling surprises
    from django.conf import settings

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    call_command("migrate", verbosity=0)
    call_command("load_snapshot", *args.snapshots, verbosity=0)
    dumper = Dumper(args.out)
    urls_of_pages(dumper)
    urls_of_api(dumper, args.every)
    sys.stdout.write(f"{len(dumper.seen)} responses in {args.out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
