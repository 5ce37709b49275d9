"""Normalising the identities the snapshot data names things by.

Pure functions, shared by the loader (to build natural keys) and by views (to
resolve addresses such as ``/paper/arxiv-1811-06965``).
"""

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from django.utils.text import slugify

# New style 1811.06965 (4+4 or 4+5 digits); old style cs/9301114 or math.GT/0309136.
_NEW_ARXIV = re.compile(r"^(\d{4})\.(\d{4,5})(v\d+)?$")
_OLD_ARXIV = re.compile(r"^([a-z-]+(?:\.[A-Za-z-]+)?)/(\d{7})(v\d+)?$")


def normalize_arxiv_id(value: str) -> str | None:
    """The arXiv id without a version suffix, or None if ``value`` is not an arXiv id."""
    value = value.strip()
    if m := _NEW_ARXIV.match(value):
        return f"{m[1]}.{m[2]}"
    if m := _OLD_ARXIV.match(value):
        return f"{m[1]}/{m[2]}"
    return None


def month_from_arxiv_id(arxiv_id: str | None) -> str | None:
    """YYYY-MM that an arXiv id encodes (YYMM), or None."""
    if not arxiv_id:
        return None
    if m := _NEW_ARXIV.match(arxiv_id):
        yymm = m[1]
    elif m := _OLD_ARXIV.match(arxiv_id):
        yymm = m[2][:4]
    else:
        return None
    yy, mm = int(yymm[:2]), int(yymm[2:])
    if not 1 <= mm <= 12:
        return None
    # Old-style ids started in 1991; new-style ones in 2007.
    year = 1900 + yy if yy >= 91 else 2000 + yy
    return f"{year:04d}-{mm:02d}"


def arxiv_slug(arxiv_id: str) -> str:
    """The ``arxiv-<id with dots as dashes>`` address the site gives every arXiv paper."""
    return "arxiv-" + re.sub(r"[./]", "-", arxiv_id)


def arxiv_id_from_slug(slug: str) -> str | None:
    """Undo :func:`arxiv_slug` for new-style ids (``arxiv-1811-06965`` → ``1811.06965``)."""
    m = re.fullmatch(r"arxiv-(\d{4})-(\d{4,5})", slug)
    return f"{m[1]}.{m[2]}" if m else None


def slug_from_path(path: str, prefix: str) -> str | None:
    """``/paper/<slug>`` → ``<slug>``; None when the path is not of that form."""
    if not path.startswith(prefix):
        return None
    slug = path[len(prefix) :].strip("/")
    return slug if slug and "/" not in slug else None


def entry_slug(name: str) -> str:
    """The address of a code entry that no code-entry document named.

    ``forward_step_func`` → ``forward-step-func`` (the site's own form). Names that
    form cannot give back (``__init__``, ``Forward``) get a short hash so that two
    names never share an address, whatever order they were loaded in.
    """
    base = slugify(name.replace("_", "-")) or "entry"
    if base.replace("-", "_") == name:
        return base
    return f"{base}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def leaderboard_slug(task_slug: str, dataset_name: str) -> str:
    return f"{task_slug}-on-{slugify(dataset_name) or 'dataset'}"


@dataclass(frozen=True)
class RepoRef:
    host: str
    owner: str
    name: str
    sub_path: str = ""

    @property
    def key(self) -> str:
        return f"{self.host}/{self.owner}/{self.name}".lower()


_REPO_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


CODE_HOSTS = frozenset(
    {
        "bitbucket.org",
        "codeberg.org",
        "gitee.com",
        "sourceforge.net",
        "huggingface.co",
        "git.sr.ht",
        "code.google.com",
    }
)


def is_code_host(host: str) -> bool:
    """A host that serves repositories: GitHub, GitLab (and self-hosted ones: ``gitlab.inria.fr``,
    ``git.example.org``), Gitee, Bitbucket and the like; not a project's homepage (``*.github.io``)."""
    if host.endswith((".github.io", ".gitlab.io", ".readthedocs.io")):
        return False
    return host in CODE_HOSTS or host.startswith(("github.", "gitlab.", "git."))


@functools.lru_cache(maxsize=4096)  # a repository recurs across a paper's samples (loader.fields.MEMO_SIZE)
def parse_repo(value: str) -> RepoRef | None:
    """A repository from ``owner/name`` or an http(s) URL, or None if it names none.

    ``https://github.com/PaddlePaddle/FleetX/tree/develop/examples/pipeline`` is
    FleetX plus the sub-path ``tree/develop/examples/pipeline``; ``.git`` endings and
    ``%20`` are undone; the host defaults to github.com for the bare form.
    """
    value = value.strip().rstrip(")]>.,;'\"")  # markdown residue: "[code](https://github.com/a/b)."
    if "://" in value:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return None
        host = parts.hostname.lower().removeprefix("www.")
        if not is_code_host(host):
            return None
        segments = [unquote(s).strip() for s in parts.path.split("/") if s.strip()]
    else:
        host = "github.com"
        segments = [s.strip() for s in value.split("/") if s.strip()]
    if len(segments) < 2:
        return None
    owner, name = segments[0], segments[1].removesuffix(".git")
    if not (_REPO_NAME.match(owner) and _REPO_NAME.match(name)):
        return None
    return RepoRef(host=host, owner=owner, name=name, sub_path="/".join(segments[2:]))


# --- what the archive's dumps name things by ---------------------------------------------

_ARXIV_IN = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)?"
    r"(?P<id>\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Za-z-]+)?/\d{7}(?:v\d+)?)(?:\.pdf)?\s*$",
    re.IGNORECASE,
)
_PWC_PAPER = re.compile(r"^(?:https?://(?:www\.)?paperswithcode\.com)?/paper/([^/?#\s]+)/?(?:[?#].*)?$")


def arxiv_id_in(value: str | None) -> str | None:
    """An arXiv id as the archive writes it: ``1811.06965v2``, ``arXiv:1811.06965``, its abs or PDF URL."""
    if not value:
        return None
    m = _ARXIV_IN.search(value.strip())
    return normalize_arxiv_id(m["id"]) if m else None


def paper_from_url(url: str | None) -> tuple[str | None, str | None]:
    """(slug, arXiv id) of the paper an archive URL points at: a Papers-with-Code paper page
    (``https://paperswithcode.com/paper/<slug>``) or an arXiv page; (None, None) for anything else."""
    if not url:
        return None, None
    url = url.strip()
    if m := _PWC_PAPER.match(url):
        slug = unquote(m[1]).strip()
        return (slug, None) if slug and "/" not in slug else (None, None)
    if "arxiv.org/" in url.lower() and (arxiv_id := arxiv_id_in(url)):
        return arxiv_slug(arxiv_id), arxiv_id
    return None, None


_URL_IN = re.compile(r"https?://[^\s<>\"'\])]+", re.IGNORECASE)


def url_in(text: str | None) -> str | None:
    """The first http(s) URL in ``text`` ("see https://… (PDF)" is that URL), trailing punctuation off."""
    m = _URL_IN.search(text or "")
    return m[0].rstrip(".,;:") if m else None


def slug_from_url(url: str | None, kind: str) -> str | None:
    """``https://paperswithcode.com/<kind>/<slug>`` → ``<slug>`` (kind: method, dataset, task)."""
    m = re.match(rf"^(?:https?://(?:www\.)?paperswithcode\.com)?/{kind}/([^/?#\s]+)/?$", (url or "").strip())
    return unquote(m[1]) if m else None


LINK_KINDS = (
    ("arXiv", re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/abs/", re.I)),
    ("PDF", re.compile(r"(?:\.pdf(?:$|[?#])|arxiv\.org/pdf/)", re.I)),
    ("DOI", re.compile(r"^https?://(?:dx\.)?doi\.org/", re.I)),
    ("OpenReview", re.compile(r"^https?://(?:www\.)?openreview\.net/", re.I)),
    ("ACL Anthology", re.compile(r"^https?://(?:www\.)?(?:aclanthology\.org|aclweb\.org/anthology)/", re.I)),
)


def link_kind(url: str | None) -> str:
    """What a paper's link is, to label it: arXiv, PDF, DOI, OpenReview, ACL Anthology, or "other"."""
    for label, pattern in LINK_KINDS:
        if url and pattern.search(url):
            return label
    return "other"


def result_row_key(
    model: str, metrics: dict, uses_additional_data, paper_title: str = "", paper_url: str = ""
) -> str:
    """What makes a leaderboard row itself, as a digest: its model, metrics and additional data,
    and, for a row that names no paper of the catalogue, the title and URL it gives instead.

    Two rows that differ in any of these are two results; identical rows are one.
    (Migration 0010 computes the same for rows loaded before it.)
    """
    parts = [
        model or "",
        sorted((metrics or {}).items()),
        uses_additional_data,
        paper_title or "",
        paper_url or "",
    ]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:32]


def name_slug(name: str, limit: int = 280) -> str:
    """The slug a name gives (tasks, datasets, areas): names that differ only by case, spaces or
    punctuation give the same one, and so are one thing."""
    return slugify(name)[:limit].strip("-") or "unnamed"
