"""Normalising the identities the snapshot data names things by.

Pure functions, shared by the loader (to build natural keys) and by views (to
resolve addresses such as ``/paper/arxiv-1811-06965``).
"""

import functools
import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

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


# --- a paper by the other addresses the archive names it by ----------------------------------
#
# A paper is, in this order: its arXiv id; else its Papers-with-Code slug; else the paper its
# landing page is (``landing_key``): the DOI, the ACL Anthology, OpenReview, CVF, NeurIPS or PMLR
# id its address carries, else the address normalised. Two addresses of one paper (its abstract
# page and its PDF) give one key where the venue's addresses say which paper they are.

_DOI_PATH = re.compile(r"(?:^|/)(10\.\d{4,9}/[^\s?#]+)$")
_ACL_ID = re.compile(r"(?:^|/)([A-Za-z]\d{2}-\d{4}|\d{4}\.[a-z0-9-]+\.\d+)(?:\.pdf)?/?$")
_NEURIPS_HASH = re.compile(r"/([0-9a-f]{32})-(?:abstract|paper|supplemental)[^/]*$", re.IGNORECASE)
_NEURIPS_OLD = re.compile(r"^/paper/(\d+)-[^/]*?(?:\.pdf)?$")
_PMLR = re.compile(r"^/(v\d+)/([^/.]+)(?:/[^/]*|\.(?:html|pdf))?$")
_LANDING_SUFFIX = re.compile(r"(?:\.pdf|\.html?|/)+$", re.IGNORECASE)


def landing_key(url: str | None) -> str | None:
    """The identity of the paper an http(s) address that is neither arXiv nor Papers with Code
    points at, or None (no such address; a code repository, which is code, not a paper).

    ``https://doi.org/10.1109/CVPR.2016.90`` is ``doi:10.1109/cvpr.2016.90``; ACL Anthology
    (``acl:P18-1031``, from aclanthology.org or aclweb.org/anthology, page or PDF), OpenReview
    (``openreview:<id>``, forum or PDF), CVF open access (``cvf:<file name>``, html or PDF),
    NeurIPS (``neurips:<hash or number>``), PMLR (``pmlr:v37/ioffe15``); anything else is
    ``url:<host><path>[?query]``, the host lower-cased without ``www.``, without scheme,
    fragment, a trailing slash or a ``.pdf``/``.html`` ending. A venue's key names one paper; a
    ``url:`` key is weaker (an author's homepage, a mirror: one paper may have several).
    """
    if not url:
        return None
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower().removeprefix("www.")
    path = unquote(parts.path)
    if host in ("arxiv.org", "export.arxiv.org", "paperswithcode.com"):
        return None
    if is_code_host(host) and not path.lower().endswith(".pdf"):
        return None  # a repository is code; a report kept in one (…/blob/main/report.pdf) is a paper
    if (host.endswith("doi.org") or "/doi/" in path) and (m := _DOI_PATH.search(path.rstrip("/"))):
        return "doi:" + m[1].lower()
    if ("aclanthology" in host or host == "aclweb.org") and (m := _ACL_ID.search(path)):
        acl_id = m[1]
        return "acl:" + (
            acl_id.upper() if acl_id[:1].isalpha() else acl_id
        )  # P18-1031 (old), 2020.acl-main.1
    if host == "openreview.net":
        query = dict(parse_qsl(parts.query))
        if query.get("id"):
            return "openreview:" + query["id"]
    if host == "openaccess.thecvf.com" and path.rstrip("/"):
        return "cvf:" + _LANDING_SUFFIX.sub("", path).rsplit("/", 1)[-1]
    if host in ("papers.nips.cc", "proceedings.neurips.cc", "papers.neurips.cc"):
        if m := _NEURIPS_HASH.search(path):
            return "neurips:" + m[1].lower()
        if m := _NEURIPS_OLD.match(path):
            return "neurips:" + m[1]
    if host == "proceedings.mlr.press" and (m := _PMLR.match(path)):
        return f"pmlr:{m[1]}/{m[2]}"
    query = urlencode(sorted(parse_qsl(parts.query)))
    return f"url:{host}{_LANDING_SUFFIX.sub('', path)}" + (f"?{query}" if query else "")


def landing_slug(title: str | None, key: str) -> str:
    """The address of a paper known only by its landing page: its title's slug (at most 60
    characters) and 8 hex digits of its key, so that two such papers never share one."""
    base = slugify(unicodedata.normalize("NFKD", title or ""))[:60].rstrip("-")
    if "-" in base and len(slugify(title or "")) > 60:
        base = base.rsplit("-", 1)[0]  # at a word's end
    return f"{base or 'paper'}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class PaperRef:
    """Who a paper is, as one source names it: each identity it gives (None where it gives none)."""

    slug: str | None = None  # a Papers-with-Code slug
    arxiv_id: str | None = None
    landing: str | None = None  # ``landing_key``

    @property
    def known(self) -> bool:
        return bool(self.slug or self.arxiv_id or self.landing)


def paper_named_by(url: str | None) -> PaperRef:
    """The paper an address names: a Papers-with-Code paper page (its slug), an arXiv page or PDF
    (its id), or another landing page (``landing_key``)."""
    slug, arxiv_id = paper_from_url(url)
    if slug or arxiv_id:
        return PaperRef(slug=None if arxiv_id else slug, arxiv_id=arxiv_id)
    return PaperRef(landing=landing_key(url))


def title_key(title: str | None) -> str:
    """A title as titles are compared: NFKC, case folded, its words (letters and digits) joined by
    one space; so "BERT: Pre-training of…" and "Bert pre training of…" are one title."""
    return " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", title or "").casefold()))


_URL_IN = re.compile(r"https?://[^\s<>\"'\])]+", re.IGNORECASE)


def urls_in(text: str | None) -> list[str]:
    """Every http(s) URL in ``text``, in order ("[site](https://a.org) [code](https://github.com/b/c)")."""
    return [m.rstrip(".,;:") for m in _URL_IN.findall(text or "")]


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


_PLAIN_NUMBER = re.compile(r"^([-+]?\d+(?:\.\d+)?)\s*(%?)$")


def row_text(value) -> str:
    """A name or value as result rows are compared: NFC, whitespace runs as one space, ends
    trimmed; a plain number as its decimal value ("57.30", "57.3 " and 57.3 alike; "84.4 %" and
    "84.4%" alike). Text that is more than a number is compared as written."""
    text = " ".join(unicodedata.normalize("NFC", str(value)).split())
    if m := _PLAIN_NUMBER.match(text):
        return format(Decimal(m[1]).normalize(), "f") + m[2]
    return text


def result_row_key(model: str, metrics: dict, paper_title: str = "", paper_url: str = "") -> str:
    """What makes a leaderboard row itself, as a digest: its model and metrics (names and values
    as :func:`row_text` compares them), and, for a row that names no paper of the catalogue, the
    title and URL it gives instead.

    Two rows that differ in any of these are two results; rows equal in them are one, whichever
    source gives them (a paper document and an evaluation table, one stating
    ``uses_additional_data`` and the other not). Migration 0024 recomputed the stored keys.
    """
    parts = [
        row_text(model or ""),
        sorted((row_text(k), None if v is None else row_text(v)) for k, v in (metrics or {}).items()),
        row_text(paper_title or ""),
        (paper_url or "").strip(),
    ]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:32]


def clean_name(name: str) -> str:
    """A name (task, dataset, method, metric) as the catalogue keeps it: NFC, Unicode whitespace
    trimmed at its ends and each inner run of it one space (`` FB15k``, ``\u3000SEED``, ``KDD ``)."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_slug(name: str, limit: int = 280) -> str:
    """The slug a name gives (tasks, datasets, methods, areas): names that differ only by case,
    spaces, underscores or other punctuation give the same one, and so are one thing
    (``Image_Classification`` is ``Image Classification``; slugify alone keeps underscores)."""
    return slugify(name.replace("_", " "))[:limit].strip("-") or "unnamed"
