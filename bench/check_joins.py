"""Does a loaded catalogue hold together with the archive material it was loaded from?

    DATABASE_URL=… .venv/bin/python bench/check_joins.py DIR [DIR…]    # the files that were loaded

Reads the evaluation-tables dumps under DIR (``evaluation-tables*.json[.gz]``, as an operator
names them) on its own, with no code of the loader, and the catalogue through the ORM, and
counts what issue 33 found broken on real data:

- every distinct paper → repository link a table row gives (``code_links``), and how many of
  them are code links of a paper of the catalogue (found by the row's ``paper_url``);
- rows whose ``paper_url`` names a paper (any non-empty URL) that has no record;
- papers from tables stored with an empty ``url_abs``;
- paper titles stored more than once (the same title, case and punctuation aside);
- boards with more rows than distinct (paper, model, metrics) rows;
- metric names that results state and their board's columns do not list.

Prints one line per figure and exits 1 when one of them is broken.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from catalogue.models import CodeLink, Leaderboard, Paper, Result  # noqa: E402

_REPO = re.compile(
    r"https?://(?:www\.)?(github\.com|gitlab\.com|bitbucket\.org)/([^/\s#?]+)/([^/\s#?]+)", re.I
)
_CODE_HOST = re.compile(r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/", re.I)
_URL = re.compile(r"https?://[^\s<>\"'\])]+")
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Za-z-]+)?/\d{7})", re.I)


def _load(path: Path):
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def _rows(tasks):
    for task in tasks or []:
        stack = list(task.get("datasets") or [])
        while stack:
            table = stack.pop()
            yield from (table.get("sota") or {}).get("rows") or []
            stack += table.get("subdatasets") or []
        yield from _rows(task.get("subtasks"))


def title_key(title: str) -> str:
    text = unicodedata.normalize("NFKC", title or "").casefold()
    return " ".join(re.findall(r"\w+", text))


def main(dirs: list[str]) -> int:
    files = sorted(p for d in dirs for p in Path(d).rglob("evaluation-tables*.json*"))
    links, named, titled = set(), set(), {}
    for path in files:
        for row in _rows(_load(path)):
            found = _URL.search(row.get("paper_url") or "")
            if not found:
                continue
            url = found[0]
            named.add(url)
            titled.setdefault(url, title_key(row.get("paper_title")))
            for link in row.get("code_links") or []:
                for m in _REPO.finditer((link or {}).get("url") or ""):
                    links.add((url, f"{m[1].lower()}/{m[2].lower()}/{m[3].lower().removesuffix('.git')}"))

    # how the catalogue finds a row's paper: its arXiv id, else its url_abs as given
    by_arxiv = dict(Paper.objects.exclude(arxiv_id=None).values_list("arxiv_id", "id"))
    by_url = {}
    for pid, abs_url, pdf_url in Paper.objects.values_list("id", "url_abs", "url_pdf"):
        for u in (abs_url, pdf_url):
            if u:
                by_url[u.strip()] = pid

    # ... or the paper its own rows were given (a result keeps the paper_url its row gave), or,
    # where rows giving two addresses of one paper were one result, the paper of the row's title
    by_row = dict(Result.objects.exclude(paper=None).values_list("paper_url", "paper_id"))
    by_title = {}
    for pid, title in Paper.objects.values_list("id", "title"):
        by_title.setdefault(title_key(title), pid)

    def paper_of(url: str):
        m = _ARXIV.search(url)
        if m:
            return by_arxiv.get(m[1])
        return by_url.get(url) or by_row.get(url) or (titled.get(url) and by_title.get(titled[url]))

    held = defaultdict(set)
    for pid, key in CodeLink.objects.values_list("paper_id", "repo__key"):
        held[pid].add(key.lower())
    found = sum(1 for url, key in links if (pid := paper_of(url)) and key in held[pid])
    # a repository (or an organisation's page) named as the paper is code; a PDF kept in one is a paper
    code_pages = {url for url in named if _CODE_HOST.match(url) and not url.lower().endswith(".pdf")}
    without_record = sum(1 for url in named - code_pages if paper_of(url) is None)
    titles = Counter(title_key(t) for t in Paper.objects.values_list("title", flat=True) if t.strip())
    twice = {t: n for t, n in titles.items() if n > 1}
    empty_abs = Paper.objects.filter(url_abs="", results__isnull=False).distinct().count()

    larger = 0
    lost = Counter()
    for board in Leaderboard.objects.all():
        rows = list(Result.objects.filter(leaderboard=board).values_list("paper_id", "model", "metrics"))
        distinct = {
            (
                p,
                " ".join(m.split()),
                json.dumps(sorted((k.strip(), str(v).strip()) for k, v in (ms or {}).items())),
            )
            for p, m, ms in rows
        }
        larger += len(rows) > len(distinct)
        columns = set(board.metrics or [])
        if columns:
            for _p, _m, ms in rows:
                lost.update(name for name in (ms or {}) if name not in columns)

    figures = [
        ("paper→repository links in the tables", len(links), None),
        ("  of them code links of their paper", found, found == len(links)),
        ("papers the rows name (distinct URLs)", len(named), None),
        ("  of them a code repository's page (no paper)", len(code_pages), None),
        ("  of the others without a record", without_record, without_record == 0),
        ("papers with results and an empty url_abs", empty_abs, empty_abs == 0),
        ("titles stored more than once", len(twice), not twice),
        ("boards larger than their distinct rows", larger, larger == 0),
        ("metric names results state that their board does not list", len(lost), not lost),
    ]
    for label, n, ok in figures:
        mark = "" if ok is None else ("  ok" if ok else "  BROKEN")
        print(f"{label:<62} {n:>7,}{mark}")
    for url, key in sorted(links):
        if not ((pid := paper_of(url)) and key in held[pid]):
            print(f"  link missing: {url} -> {key} (paper {pid})")
    for url in sorted(named - code_pages):
        if paper_of(url) is None:
            print(f"  no record: {url}")
    for title, n in sorted(twice.items())[:10]:
        print(f"  twice: {title!r} ({n})")
    for name, n in lost.most_common(10):
        print(f"  lost column: {name!r} ({n} results)")
    return 0 if all(ok in (None, True) for _l, _n, ok in figures) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
