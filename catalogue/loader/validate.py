"""Checking one snapshot document and turning it into rows for the staging tables.

Nothing here touches the database. A document either becomes a :class:`Parsed`
(rows per staging table, plus warnings) or raises :class:`SnapshotError` naming the
file, the JSON path of the field and what was expected. The rows are the document
schema's (``schema.TABLES``), and so is how each plain field is read and checked.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field

from catalogue import figures, identities
from catalogue.loader import schema
from catalogue.loader.documents import RawDocument, SnapshotError
from catalogue.models import DocumentKind, TitleSource

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
_SHA16 = re.compile(r"^[0-9a-f]{16}$")
MAX_INT = 2**31 - 1
NO_READ_AT = "0000-00-00T00:00:00.000000Z"


@dataclass
class Parsed:
    url: str
    kind: str
    stamp: str
    rows: dict[str, list[tuple]] = field(default_factory=lambda: defaultdict(list))
    warnings: list[str] = field(default_factory=list)

    def add(self, table: str, **values) -> None:
        """A row of staging table ``table`` (an unknown column is an error, a missing one NULL)."""
        self.rows[table].append(schema.TABLES[table].row(**values))


class Fields:
    """Typed access to a JSON object, raising errors that carry the field's JSON path."""

    def __init__(self, file: str, value: object, path: str = "", check_chars: bool = True):
        self.file, self.path, self.check_chars = file, path, check_chars
        if not isinstance(value, dict):
            self.fail("", f"expected an object, got {_type(value)}")
        self.value: dict = value

    def at(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key, message):
        raise SnapshotError(self.file, self.at(key) if key != "" else self.path, message)

    def obj(self, key, required=False) -> Fields | None:
        value = self._get(key, required)
        return None if value is None else Fields(self.file, value, self.at(key), self.check_chars)

    def objects(self, key) -> list[Fields]:
        items = self.list(key)
        base = self.at(key)
        return [Fields(self.file, item, f"{base}[{i}]", self.check_chars) for i, item in enumerate(items)]

    def list(self, key, required=False) -> list:
        value = self._get(key, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {_type(value)}")
        return value

    def str(self, key, required=False, max_length=None, blank=True) -> str | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_type(value)}")
        if self.check_chars:
            check_text(self, key, value)
        if not blank and not value.strip():
            self.fail(key, "must not be empty")
        if max_length and len(value) > max_length:
            self.fail(key, f"longer than {max_length} characters ({len(value)})")
        return value

    def choice(self, key, choices, required=False) -> str | None:
        value = self.str(key, required)
        allowed = _choice_values(choices)
        if value is not None and value not in allowed:
            self.fail(key, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def flag(self, key) -> bool | None:
        """A flag as the archive writes them: true/false, 0/1, or null."""
        value = self._get(key, False)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        self.fail(key, f"expected true, false, 0, 1 or null, got {value!r}")

    def int(self, key, required=False) -> int | None:
        value = self._get(key, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"expected a whole number, got {_type(value)}")
        if not 0 <= value <= MAX_INT:
            self.fail(key, f"expected a whole number from 0 to {MAX_INT}, got {value}")
        return value

    def date(self, key) -> dt.date | None:
        value = self.str(key)
        if value is None or value == "":
            return None
        try:
            return dt.date.fromisoformat(value[:10]) if len(value) >= 10 else _bad()
        except ValueError:
            self.fail(key, f"expected an ISO date (YYYY-MM-DD), got {value!r}")

    def datetime(self, key) -> dt.datetime | None:
        value = self.str(key)
        if value is None or value == "":
            return None
        try:
            parsed = dt.datetime.fromisoformat(value)
        except ValueError:
            self.fail(key, f"expected an ISO date-time, got {value!r}")
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=dt.UTC)
        return parsed.astimezone(dt.UTC)

    def url(self, key, required=False) -> str | None:
        value = self.str(key, required, max_length=1000)
        if value is None or value == "":
            return value
        if not re.match(r"^https?://[^\s/]+", value, re.IGNORECASE):
            self.fail(key, f"expected an http(s) URL, got {value[:80]!r}")
        return value

    def json(self, key):
        value = self._get(key, False)
        return None if value is None else json.dumps(value)

    def _get(self, key, required):
        if key not in self.value or self.value[key] is None:
            if required:
                self.fail(key, "is required")
            return None
        return self.value[key]


@functools.cache
def _choice_values(choices) -> tuple[str, ...]:
    return tuple(choices.values)


def _bad():
    raise ValueError


def _type(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else f"a {type(value).__name__}"
    )


def check_text(fields: Fields, key, value: str) -> str:
    if m := _BAD_CHARS.search(value):
        what = "a NUL character" if m[0] == "\x00" else "an unpaired surrogate"
        fields.fail(key, f"holds {what} at position {m.start()}")
    return value


def make_stamp(read_at: dt.datetime | None, sha256: str) -> str:
    """The order of document versions: newest ``read_at`` first, content hash to break ties."""
    when = read_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if read_at else NO_READ_AT
    return f"{when}|{sha256[:16]}"


def parse(raw: RawDocument) -> Parsed:
    doc = Fields(raw.name, raw.value, check_chars=raw.may_hold_bad_chars)
    url = doc.str("url", required=True, max_length=500)
    if slug := identities.slug_from_path(url, "/paper/"):
        return _parse_paper(doc, raw, url, slug)
    if slug := identities.slug_from_path(url, "/code/"):
        return _parse_code_entry(doc, raw, url, slug)
    doc.fail("url", f"{url!r} is neither /paper/<slug> nor /code/<slug>: unknown document kind")


def _document_row(out: Parsed, doc: Fields, raw: RawDocument, read_at, stamp) -> None:
    out.add(
        "document",
        url=out.url,
        kind=out.kind,
        sha256=raw.sha256,
        file_name=raw.name,
        read_at=read_at,
        stamp=stamp,
        **schema.TABLES["document"].read(doc, schema.STAMP),
    )


def _paper_key(arxiv_id: str | None, slug: str) -> str:
    return arxiv_id or f"slug:{slug}"


def _dates(fields: Fields, arxiv_id: str | None) -> dict:
    date = fields.date("date")
    month = date.isoformat()[:7] if date else identities.month_from_arxiv_id(arxiv_id)
    return {"date": date, "month": month or ""}


def _arxiv(fields: Fields, key="arxiv_id") -> str | None:
    value = fields.str(key)
    if value is None or value.strip() == "":
        return None
    normalized = identities.normalize_arxiv_id(value)
    if normalized is None:
        fields.fail(key, f"{value!r} is not an arXiv id (such as 1811.06965 or cs/9301114)")
    return normalized


@dataclass(frozen=True)
class Place:
    """One place as a document lists it: its body, its repository and what both views state."""

    sha: str
    repo_ref: identities.RepoRef | None
    stated: dict  # the schema's SAMPLE columns of the STAMP group, read and checked

    def figures_row(self, pkey: str, repo_kind: str | None = None) -> dict:
        """The place as ``figures.compute`` reads it."""
        return {
            "body": self.sha,
            "paper": pkey,
            "repo": self.repo_ref.key if self.repo_ref else None,
            "repo_kind": repo_kind,
            **self.stated,
        }


def _place(s: Fields) -> Place:
    repo = s.str("repo")
    repo_ref = None
    if repo:
        repo_ref = identities.parse_repo(repo)
        if repo_ref is None:
            s.fail("repo", f"expected owner/name or a repository URL, got {repo[:80]!r}")
    sha = s.str("code_sha256_prefix", required=True)
    if not _SHA16.match(sha):
        s.fail("code_sha256_prefix", f"expected 16 lower-case hex digits, got {sha[:40]!r}")
    return Place(sha=sha, repo_ref=repo_ref, stated=schema.SAMPLE.read(s, schema.STAMP))


def _add_repo(out: Parsed, ref: identities.RepoRef, stamp: str, reach: Fields | None = None):
    out.add(
        "repo",
        key=ref.key,
        host=ref.host,
        owner=ref.owner,
        name=ref.name,
        # A repository named only by a sample says nothing of its reach (NULL): rank it
        # below one whose reach a document states.
        **(schema.TABLES["repo"].read(reach, schema.STAMP) if reach else {}),
        stamp=("1|" if reach else "0|") + stamp,
    )


def _add_sample(out: Parsed, pkey, entry_name, place: Place, stamp, view, paper_view: dict | None = None):
    ref = place.repo_ref
    if ref:
        _add_repo(out, ref, stamp)
    out.add("body", sha=place.sha)
    out.add(
        "sample",
        pkey=pkey,
        sha=place.sha,
        entry_name=entry_name,
        repo_key=ref.key if ref else None,
        view=view,
        stamp=stamp,
        doc_url=out.url,
        **place.stated,
        **(paper_view or {}),
    )


# --- code-entry documents -------------------------------------------------------------


def _parse_code_entry(doc: Fields, raw: RawDocument, url: str, slug: str) -> Parsed:
    read_at = doc.datetime("read_at")
    stamp = make_stamp(read_at, raw.sha256)
    out = Parsed(url=url, kind=DocumentKind.CODE_ENTRY, stamp=stamp)
    _document_row(out, doc, raw, read_at, stamp)
    entry = doc.str("entry", required=True, max_length=500, blank=False)
    out.add("entry", name=entry, slug=slug, claim=doc.str("claim") or "", stamp="1|" + stamp, doc_url=url)
    places = []
    for s in doc.objects("samples"):
        arxiv_id = _arxiv(s)
        paper_path = s.str("paper", max_length=400)
        paper_slug = identities.slug_from_path(paper_path, "/paper/") if paper_path else None
        if paper_path and paper_slug is None:
            s.fail("paper", f"expected /paper/<slug>, got {paper_path[:80]!r}")
        if not paper_slug:
            if not arxiv_id:
                s.fail("paper", "is required when arxiv_id is missing")
            paper_slug = identities.arxiv_slug(arxiv_id)
        pkey = _paper_key(arxiv_id, paper_slug)
        title = s.str("title")
        out.add(
            "paper",
            pkey=pkey,
            arxiv_id=arxiv_id,
            slug=paper_slug,
            view="code",
            stamp=stamp,
            title=title.strip() if title is not None else None,
            title_source=s.choice("title_source", TitleSource),
            **_dates(s, arxiv_id),
            doc_url=url,
        )
        place = _place(s)
        _add_sample(out, pkey, entry, place, stamp, "code")
        places.append(place.figures_row(pkey))
    _check_entry_figures(doc, out, places)
    return out


def _check_entry_figures(doc: Fields, out: Parsed, places: list[dict]):
    """Warn where the document's stated figures disagree with its own rows."""
    computed = figures.stated_entry_figures(places)
    by_status = computed.pop("by_status")
    for name, value in computed.items():
        stated = doc.value.get(name)
        if stated is not None and stated != value:
            out.warnings.append(f"{doc.file}: {name}: document states {stated!r}, its rows give {value}")
    stated_by_status = doc.value.get("by_status")
    if isinstance(stated_by_status, dict):
        for status, value in by_status.items():
            if stated_by_status.get(status, 0) != value:
                out.warnings.append(
                    f"{doc.file}: by_status.{status}: document states "
                    f"{stated_by_status.get(status, 0)!r}, its rows give {value}"
                )


# --- paper documents ------------------------------------------------------------------


def _parse_paper(doc: Fields, raw: RawDocument, url: str, slug: str) -> Parsed:
    syn = doc.obj("syntology")
    read_at = syn.datetime("read_at") if syn else None
    stamp = make_stamp(read_at, raw.sha256)
    out = Parsed(url=url, kind=DocumentKind.PAPER, stamp=stamp)
    _document_row(out, doc, raw, read_at, stamp)
    arxiv_id = _arxiv(doc)
    pkey = _paper_key(arxiv_id, slug)
    title = doc.str("title")
    links = None
    if syn:
        links = {
            k: syn.value[k] for k in ("syntology_url", "atlas_url", "mcp", "developers") if k in syn.value
        }
        for k in ("syntology_url", "atlas_url", "developers"):
            syn.url(k)
    out.add(
        "paper",
        pkey=pkey,
        arxiv_id=arxiv_id,
        slug=slug,
        view="paper",
        stamp=stamp,
        title=title.strip() if title is not None else None,
        # A paper document's title is the archive's (its ``source`` is the archive).
        title_source=TitleSource.ARCHIVE if title is not None else None,
        **_dates(doc, arxiv_id),
        **schema.PAPER.read(doc, schema.PAPER_DOCUMENT),
        syntology_read_at=read_at,
        syntology_claim=(syn.str("claim") or "") if syn else "",
        syntology_links=json.dumps(links) if links else None,
        doc_url=url,
    )
    for i, name in enumerate(doc.list("authors")):
        if not isinstance(name, str):
            doc.fail("authors", f"item {i}: expected a string, got {_type(name)}")
        check_text(doc, f"authors[{i}]", name)
        out.add("author", pkey=pkey, stamp=stamp, position=i, name=name.strip()[:500])
    _parse_tasks_methods(doc, out, pkey, stamp)
    _parse_code_links(doc, out, pkey, stamp)
    _parse_results(doc, out, pkey, stamp)
    if syn:
        _parse_syntology(syn, out, pkey, stamp)
    return out


def _name_rank(name: str, slug: str) -> str:
    """A name that is more than its slug again ('Image Classification') ranks first."""
    return "0|" if name.strip().lower().replace(" ", "-") == slug else "1|"


def _parse_tasks_methods(doc: Fields, out: Parsed, pkey, stamp):
    for t in doc.objects("tasks"):
        tslug = t.str("task_slug", required=True, max_length=300, blank=False)
        name = t.str("task_name", max_length=500) or tslug
        out.add("task", slug=tslug, name=name, stamp=_name_rank(name, tslug) + stamp)
        out.add("paper_task", pkey=pkey, stamp=stamp, slug=tslug)
    for key, slug_key, name_key, introduced in (
        ("methods", "method_slug", "method_name", False),
        ("methods_introduced", "slug", "name", True),
    ):
        for m in doc.objects(key):
            mslug = m.str(slug_key, required=True, max_length=300, blank=False)
            name = m.str(name_key, max_length=500) or mslug
            out.add(
                "method",
                slug=mslug,
                name=name,
                **schema.TABLES["method"].read(m, schema.STAMP),
                stamp=_name_rank(name, mslug) + stamp,
            )
            out.add("paper_method", pkey=pkey, stamp=stamp, slug=mslug, introduced=introduced)
    for i, item in enumerate(doc.list("datasets_introduced")):
        if isinstance(item, dict):
            name = Fields(doc.file, item, f"datasets_introduced[{i}]").str(
                "name", required=True, max_length=500
            )
        elif isinstance(item, str):
            name = check_text(doc, f"datasets_introduced[{i}]", item)
        else:
            doc.fail(f"datasets_introduced[{i}]", "expected a string or an object with a name")
        out.add("dataset", name=name)
        out.add("paper_dataset", pkey=pkey, stamp=stamp, name=name)


def _add_repo_link(out: Parsed, fields: Fields, key: str, table: schema.Table, pkey, stamp):
    """A paper's link to a repository (a code link, a harvested repository), and the repository."""
    repo_url = fields.url(key, required=True)
    ref = identities.parse_repo(repo_url)
    if ref is None:
        fields.fail(key, f"expected a repository URL (host/owner/name), got {repo_url[:80]!r}")
    _add_repo(out, ref, stamp, fields.obj("reach"))
    # A code link keeps the URL as the archive gives it (sub-path and all).
    as_given = {"repo_url": repo_url} if "repo_url" in table.names else {}
    out.add(
        table.name,
        pkey=pkey,
        repo_key=ref.key,
        sub_path=ref.sub_path,
        **as_given,
        **table.read(fields, schema.STAMP),
        stamp=stamp,
        doc_url=out.url,
    )


def _parse_code_links(doc: Fields, out: Parsed, pkey, stamp):
    for link in doc.objects("code_links"):
        _add_repo_link(out, link, "repo_url", schema.CODE_LINK, pkey, stamp)


def _parse_results(doc: Fields, out: Parsed, pkey, stamp):
    task_slugs = {
        (t.get("task_name") or "").strip().lower(): t.get("task_slug")
        for t in doc.value.get("tasks") or []
        if isinstance(t, dict)
    }
    for r in doc.objects("results"):
        task_name = r.str("task", required=True, max_length=500, blank=False)
        dataset = r.str("dataset", required=True, max_length=500, blank=False)
        model = r.str("model", max_length=500) or ""
        board_path = r.str("leaderboard", max_length=600)
        board_slug = identities.slug_from_path(board_path, "/sota/") if board_path else None
        if board_path and board_slug is None:
            r.fail("leaderboard", f"expected /sota/<slug>, got {board_path[:80]!r}")
        task_slug = task_slugs.get(task_name.lower())
        if not task_slug and board_slug and "-on-" in board_slug:
            task_slug = board_slug.split("-on-", 1)[0]
        task_slug = task_slug or identities.slugify(task_name) or "task"
        out.add("task", slug=task_slug, name=task_name, stamp=_name_rank(task_name, task_slug) + stamp)
        out.add("dataset", name=dataset)
        out.add(
            "leaderboard",
            task_slug=task_slug,
            dataset=dataset,
            slug=board_slug or identities.leaderboard_slug(task_slug, dataset),
            stamp=("1|" if board_slug else "0|") + stamp,
        )
        metrics = r.obj("metrics")
        if metrics:
            for name, value in metrics.value.items():
                plain = value is None or isinstance(value, (str, int, float))
                if not plain or isinstance(value, bool):
                    metrics.fail(name, f"expected a string or number, got {_type(value)}")
                if isinstance(value, str):
                    check_text(metrics, name, value)
        stated = schema.RESULT.read(r, schema.STAMP)
        out.add(
            "result",
            pkey=pkey,
            task_slug=task_slug,
            dataset=dataset,
            model=model,
            rank_in_archive_order=stated["rank_in_archive_order"],
            of=stated["of"],
            metrics=json.dumps(
                {str(k): (v if isinstance(v, str) or v is None else str(v)) for k, v in metrics.value.items()}
            )
            if metrics
            else "{}",
            uses_additional_data=stated["uses_additional_data"],
            stamp=stamp,
            doc_url=out.url,
        )


def _parse_syntology(syn: Fields, out: Parsed, pkey, stamp):
    for repo in syn.objects("repos"):
        _add_repo_link(out, repo, "url", schema.HARVESTED_REPO, pkey, stamp)
    places = []
    for s in syn.objects("samples"):
        entry = s.str("entry", required=True, max_length=500, blank=False)
        place = _place(s)
        paper_view = schema.SAMPLE.read(s, schema.PAPER_VIEW)
        _add_sample(out, pkey, entry, place, stamp, "paper", paper_view)
        out.add(
            "entry",
            name=entry,
            slug=identities.entry_slug(entry),
            claim=None,
            stamp="0|" + stamp,
            doc_url=None,
        )
        places.append(place.figures_row(pkey, paper_view["repo_kind"]))
    _check_paper_figures(syn, out, places)


def _check_paper_figures(syn: Fields, out: Parsed, places: list[dict]):
    computed = figures.stated_paper_figures(places)
    for name in ("summary", "by_repo_kind"):
        stated = syn.value.get(name)
        if isinstance(stated, dict) and stated != computed[name]:
            out.warnings.append(
                f"{syn.file}: syntology.{name}: document states {stated!r}, its rows give {computed[name]!r}"
            )
    stated = syn.value.get("n_pointer_only_for_licence")
    if stated is not None and stated != computed["n_pointer_only_for_licence"]:
        out.warnings.append(
            f"{syn.file}: syntology.n_pointer_only_for_licence: document states {stated!r}, "
            f"its rows give {computed['n_pointer_only_for_licence']}"
        )
