"""The staged rows more than one source gives, built one way: a repository, a place (a sample of
a code entry), a code link, a result, a paper a row only names, a stated arXiv id.

Snapshot documents (``validate``) and archive dumps (``archive_rows``) both add them, so a code
link or a result is the same row whichever source gives it. Nothing here touches the database.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from catalogue import identities
from catalogue.loader import columns, schema
from catalogue.loader.fields import (
    MENTION_RANK,
    Fields,
    Parsed,
    bad_char,
    memo_name_slug,
    memo_parse_repo,
    metrics_json,
    paper_key,
    paper_naming,
)
from catalogue.models import TitleSource

_SHA16 = re.compile(r"^[0-9a-f]{16}$")


def arxiv_in_links(fields: Fields, keys=("url_abs", "url_pdf")) -> str | None:
    """The arXiv id a paper's own links give where it states none (``url_abs`` on arxiv.org, any
    version): the same paper a row naming that address is."""
    for key in keys:
        value = fields.value.get(key)
        if (
            isinstance(value, str)
            and "arxiv.org/" in value.lower()
            and (found := identities.arxiv_id_in(value))
        ):
            return found
    return None


def stated_arxiv(fields: Fields, key="arxiv_id") -> str | None:
    """A stated arXiv id, normalised; one that is no arXiv id is left out, warning."""
    value = fields.str(key)
    if value is None or value.strip() == "":
        return None
    normalized = identities.arxiv_id_in(value)
    if normalized is None:
        fields.leave_out(key, f"{value[:80]!r} is not an arXiv id (such as 1811.06965 or cs/9301114)")
    return normalized


@dataclass(frozen=True)
class Place:
    """One place as a document lists it: its body, its repository and what both views state."""

    sha: str
    repo_ref: identities.RepoRef | None
    stated: dict  # the schema's SAMPLE columns of the STAMP group, read and checked
    code: dict  # the schema's BODY columns of the CODE_TEXT group, where the place gives a text

    def figures_row(self, pkey: str, repo_kind: str | None = None) -> dict:
        """The place as ``figures.compute`` reads it."""
        return {
            "body": self.sha,
            "paper": pkey,
            "repo": self.repo_ref.key if self.repo_ref else None,
            "repo_kind": repo_kind,
            **self.stated,
        }


def read_place(s: Fields) -> Place:
    repo = s.str("repo")
    repo_ref = None
    if repo:
        repo_ref = memo_parse_repo(repo)
        if repo_ref is None:
            s.leave_out("repo", f"expected owner/name or a repository URL, got {repo[:80]!r}")
    sha = s.str("code_sha256_prefix", required=True)
    if not _SHA16.match(sha):
        s.fail("code_sha256_prefix", f"expected 16 lower-case hex digits, got {sha[:40]!r}")
    stated = schema.SAMPLE.read(s, schema.STAMP)
    return Place(sha=sha, repo_ref=repo_ref, stated=stated, code=code_text(s, stated["inline_ok"]))


def code_text(s: Fields, inline_ok: bool) -> dict:
    """The body's text and language, where the place gives one: only a place whose licence lets
    its code be shown (``inline_ok``) may; from any other the text is left out, warning."""
    if s.value.get("code") is None:
        return {}
    if not inline_ok:
        s.leave_out("code", "a pointer-only place (inline_ok false) may not give its code's text")
        return {}
    raw = s.value.get("code")
    if isinstance(raw, str) and (found := bad_char(raw)):
        # Not replaced as in other text: the body's checksum names the text as given.
        s.leave_out("code", f"holds {found}")
        return {}
    code = schema.BODY.read(s, schema.CODE_TEXT)
    # A bad text was left out (warned of); a blank one gives nothing to show.
    return code if code["code"] and code["code"].strip() else {}


def add_repo(out: Parsed, ref: identities.RepoRef, stamp: str, reach: Fields | None = None):
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


def add_sample(out: Parsed, pkey, entry_name, place: Place, stamp, view, paper_view: dict | None = None):
    ref = place.repo_ref
    if ref:
        add_repo(out, ref, stamp)
    code = {**place.code, "stamp": stamp} if place.code else {}
    out.add("body", sha=place.sha, doc_url=out.url, **code)
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


def add_repo_link(out: Parsed, fields: Fields, key: str, table: columns.Table, pkey, stamp, rec=0):
    """A paper's link to a repository (a code link, a harvested repository), and the repository.

    A link that names no repository (empty, a homepage) fails: its row is skipped.
    """
    repo_url = fields.url(key, required=True)
    if not repo_url.strip():
        fields.fail(key, "is empty: it names no repository")
    ref = memo_parse_repo(repo_url)
    if ref is None:
        fields.fail(key, f"expected a repository URL (host/owner/name), got {repo_url[:80]!r}")
    add_repo(out, ref, stamp, fields.obj("reach"))
    # A code link keeps the URL as the archive gives it (sub-path and all).
    as_given = {"repo_url": repo_url, "rec": rec} if "repo_url" in table.names else {}
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


def add_result(out: Parsed, r: Fields, pkey: str | None, stamp: str, **given) -> None:
    """One leaderboard row: its board and what the source gives (``given``: task_slug, dataset,
    model, rec…; ranks where the source counts them), and the row's own fields read from ``r``."""
    metrics = metrics_json(r.obj("metrics"))
    values = {**schema.RESULT.read(r, schema.STAMP), **given}
    values["row_key"] = identities.result_row_key(
        values["model"],
        json.loads(metrics),
        "" if pkey else (values.get("paper_title") or ""),
        "" if pkey else (values.get("paper_url") or ""),
    )
    out.add("result", pkey=pkey, metrics=metrics, **values, stamp=stamp, doc_url=out.url)


def add_paper(
    out: Parsed,
    view: str,
    stamp: str,
    *,
    arxiv_id: str | None,
    slug: str,
    title: str | None,
    title_source: str | None,
    landing: str | None = None,
    rec: int | None = 0,
    **stated,
) -> str:
    """A staged paper row, as every source stages one: its key (``paper_key``), its name
    (``paper_naming``) and where its title comes from; ``stated``: what this kind of source also
    says of it (dates, the archive's description, Syntology's reading). Returns its key."""
    pkey = paper_key(arxiv_id, slug, landing)
    out.add(
        "paper",
        pkey=pkey,
        arxiv_id=arxiv_id,
        slug=slug,
        view=view,
        stamp=stamp,
        **paper_naming(title, slug, landing),
        title_source=title_source,
        landing=landing,
        doc_url=out.url,
        rec=rec,
        **stated,
    )
    return pkey


def mention_paper(
    out: Parsed,
    ref: identities.PaperRef,
    stamp: str,
    title=None,
    date=None,
    rec=0,
    url_named: str | None = None,
) -> str:
    """A paper only named by a row of another kind (``ref``: who it is, as the row names it): its
    identity, its title below all others, and the address the row gives for it (``url_named``)."""
    title = title if title and title.strip() else None
    slug = ref.slug or (
        identities.arxiv_slug(ref.arxiv_id) if ref.arxiv_id else identities.landing_slug(title, ref.landing)
    )
    return add_paper(
        out,
        schema.MENTION_VIEW,
        MENTION_RANK + stamp,
        arxiv_id=ref.arxiv_id,
        slug=slug,
        title=title,
        title_source=TitleSource.ARCHIVE if title else None,
        landing=ref.landing,
        rec=rec,
        date=date,
        month=(date.isoformat()[:7] if date else identities.month_from_arxiv_id(ref.arxiv_id)) or "",
        url_named=url_named,
    )


def add_paper_method(
    out: Parsed, m: Fields, pkey, stamp: str, *, name: str, slug, derived_slug: str, rank: str, **given
) -> None:
    """A method a paper names (``m``: where it is named, for its ``full_name``), and the paper's tie
    to it (``given``: ``introduced``, the record ``rec``)."""
    out.add(
        "method",
        slug=slug,
        derived_slug=derived_slug,
        name=name,
        name_key=memo_name_slug(name),
        full_name=m.str("full_name", max_length=schema.max_chars("method", "full_name")),
        stamp=rank + stamp,
        detailed=False,
        doc_url=out.url,
    )
    out.add("paper_method", pkey=pkey, stamp=stamp, slug=slug, name=name, derived_slug=derived_slug, **given)
