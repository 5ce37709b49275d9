"""Deterministic generator of synthetic snapshots in the seed format.

    .venv/bin/python bench/generate.py --papers 20000 --out /tmp/snap20k [--seed 0] [--gzip] [--messy]
    .venv/bin/python bench/generate.py --touch /tmp/snap20k --out /tmp/snap20k-touched [--fraction 0.05]

Why it exists: the three real seed documents are far too few to measure a loader, and
the real archive (~576,000 papers) cannot be fetched here. This writes paper documents
(``/paper/<slug>``, shaped like seed 003) and code-entry documents (``/code/<slug>``,
shaped like seeds 000/001) whose every stated aggregate agrees with its rows, and whose
two views of a place (paper x code body x entry) agree field by field.

Why it is shaped this way:
- Deterministic: one seeded ``random.Random`` drives the sequence, and per-item
  attributes (a code body's entry name, a repository's owner) come from their own small
  ``Random`` seeded by (seed, kind, index), so no wall clock and no hash randomisation.
- Streaming: each paper document is written as soon as it is made. The places it holds
  are appended to an on-disk SQLite "spill" keyed by entry name; once all papers are out,
  the spill is read back grouped by entry to write the code-entry documents. Memory stays
  flat whatever ``--papers`` is (it will be run at 500,000).
- Messy like the archive: papers without arXiv ids, ``arxiv-YYMM-NNNNN`` slugs with no
  date, LaTeX/accents/CJK in titles and authors, ``\\r\\n`` abstracts, mixed-case and
  sub-path repository URLs, samples without a repository, skewed entry names.
- And, on request (``--mess`` / ``--messy``, issue 35), the mess real harvests have that a
  loader's cost can hinge on: names that slug alike, blank and repeated authors, code
  entries whose addresses collide, papers given by two documents (MESS_KINDS). Off by
  default, each from its own ``Random``: the tidy snapshot stays byte for byte what it was.
- ``--touch``: a copy of a snapshot with 5 % of its files as the next harvest gives them,
  for a reload.
See bench/README.md for the proportions.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import gzip
import hashlib
import json
import random
import re
import shutil
import sqlite3
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import snapshot_text as text
import synth_words as words

STATUSES = ("ran_honours", "ran_violates", "ran_draft_wrong", "ran_fixture", "ran", "unverified")
STATUS_WEIGHTS = (0.02, 0.015, 0.04, 0.025, 0.05, 0.85)  # "mostly unverified"
CONTRACT_CHECKS = {
    "ran_honours": ("HONOURED",),
    "ran_violates": ("VIOLATED", "OUTPUT_VIOLATED"),
    "ran_draft_wrong": ("MISDECLARED", "OUTPUT_MISDECLARED"),
    "ran_fixture": ("FIXTURE_UNDRIVABLE", None),
    "ran": (None,),
}
PERMISSIVE = ("Apache-2.0", "MIT", "BSD-3-Clause", "BSD-2-Clause")
LICENCES = (*PERMISSIVE, "GPL-3.0", "NONE", "NOASSERTION", None)
LICENCE_WEIGHTS = (0.3, 0.3, 0.08, 0.02, 0.06, 0.14, 0.06, 0.04)
PWC_PROVENANCE = "external:paperswithcode_snapshot_2025-07-28"
SNAPSHOT_DAY = dt.date(2025, 7, 28)
N_POPULAR_REPOS = 200  # community repositories many papers point at


@dataclass(frozen=True)
class Proportions:
    """Per-paper proportions; bench/README.md states them (keep the two in step)."""

    no_arxiv: float = 0.12  # conference/journal-only papers: slug identity
    syntology_only: float = 0.03  # arxiv-YYMM-NNNNN slugs, date null, always with samples
    sampled_if_linked: float = 0.40  # papers with code links that get samples
    sampled_if_unlinked: float = 0.05  # samples from community repositories only
    mean_samples: float = 5.0  # per sampled paper (geometric), plus rare 30-150
    big_sample_paper: float = 0.01
    body_reuse: float = 0.15  # a place reuses an existing code body (shared code)
    with_results: float = 0.05  # papers with 1-4 leaderboard rows (~0.1 rows per paper)


# The mess real harvests have and the seed-shaped data above lacks (issue 35), one switch each,
# all off by default so that earlier figures can be reproduced byte for byte.
MESS_KINDS = {
    "name-variants": "methods, tasks and datasets also named by other spellings that slug alike (case, "
    "punctuation, spaces, underscores: 'ANDE' / 'Ande', 'Image Classification' / 'image_classification')",
    "blank-authors": "papers with a blank author ('' or spaces) in their list",
    "duplicate-authors": "papers that list one author twice (as written, or in another case)",
    "entry-slug-alikes": "routine names that slug alike ('update_params' / '_update_params' / "
    "'Update_Params', '__call__' / 'call'); their documents' addresses disambiguated in name order "
    "(-1, -2…), so one entry's address is the one another's name gives",
    "multi-document-papers": "an arXiv paper given by a second paper document under another slug "
    "('x' and 'x-1', or its 'arxiv-YYMM-NNNNN' address), the same arXiv id and places",
}


@dataclass(frozen=True)
class Mess:
    """Which kinds of mess to make, and how often (bench/README.md, "Issue 35": keep in step).

    The rates are chosen so that 20,000 papers hold about what issue 35's independent run
    describes: 638 names that differ from another only by case or punctuation, 825 papers with
    a blank author. Each kind draws from its own ``Random``, so a switch changes only its own
    mess, and the data under it (every other draw) is that of the tidy snapshot.
    """

    kinds: frozenset[str] = frozenset()
    variant_names: float = 0.07  # a pool's names that the harvest also spells otherwise
    variant_use: float = 0.3  # a mention of such a name that uses another spelling
    blank_authors: float = 0.044  # of papers with authors (97 %): 825 at 20,000
    duplicate_authors: float = 0.02
    variant_entries: float = 0.04  # code bodies whose routine name slugs as another's
    multi_document: float = 0.01  # arXiv papers given by a second document

    def __contains__(self, kind: str) -> bool:
        return kind in self.kinds

    @classmethod
    def parse(cls, text: str) -> Mess:
        """``all``, or kinds separated by commas (MESS_KINDS)."""
        kinds = (
            set(MESS_KINDS) if text.strip() == "all" else {k.strip() for k in text.split(",") if k.strip()}
        )
        if unknown := kinds - set(MESS_KINDS):
            raise ValueError(
                f"unknown kind(s) of mess: {', '.join(sorted(unknown))}; known: {', '.join(MESS_KINDS)}"
            )
        return cls(frozenset(kinds))


def stable_rng(seed: int, kind: str, index: int) -> random.Random:
    """A Random for one item, independent of generation order."""
    return random.Random(f"{seed}:{kind}:{index}")


def short_hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:16]


def slugify(value: str, max_len: int = 42) -> str:
    """PwC-like slug: ASCII words joined by hyphens, cut on a word boundary."""
    ascii_text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    parts = re.sub(r"[^a-z0-9]+", " ", ascii_text.lower()).split()
    out: list[str] = []
    for part in parts:
        if out and len("-".join([*out, part])) > max_len:
            break
        out.append(part)
    return "-".join(out)


def entry_slug(entry: str) -> str:
    """``forward_step_func`` -> ``forward-step-func`` as in the seeds' ``url``."""
    return re.sub(r"[^a-z0-9]+", "-", entry.lower()).strip("-")


_CONS = "bcdfghjklmnprstvz"
_VOWELS = "aeiou"


def syllable_name(index: int) -> str:
    """Bijective index -> pronounceable word (``Zorbalu``): unique names by construction."""
    base = len(_CONS) * len(_VOWELS)
    n = index + base  # at least two syllables
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(_CONS[r // len(_VOWELS)] + _VOWELS[r % len(_VOWELS)])
    return "".join(out).capitalize()


def other_spellings(name: str, underscores: bool = True) -> list[str]:
    """Spellings of ``name`` that differ only by case, spaces, hyphens or underscores, so slug
    alike (``slugify``); never the slug itself, which names nothing of its own."""
    slug = slugify(name, 80)
    parts = name.split()
    forms = {name.upper(), name.lower(), name.title(), name.capitalize()}
    if len(parts) > 1:
        forms.add("-".join(parts))
        forms.add(" ".join(parts).lower().capitalize())
        if underscores:
            forms.add("_".join(parts))
    elif len(name) > 4 and name.isalpha():
        forms.add(name[:3] + name[3].swapcase() + name[4:])  # 'PubMed' / 'Pubmed'
    return sorted(f for f in forms if f != name and f != slug and slugify(f, 80) == slug)


def slug_alike_entry(name: str, rng: random.Random) -> str:
    """Another routine name whose address slugs as ``name``'s does: ``_update_params``,
    ``__update_params``, ``Update_Params``, ``update_params_``; a dunder's bare name (``call``)."""
    if name.startswith("__") and name.endswith("__"):
        return name.strip("_")
    return rng.choice(
        (f"_{name}", f"__{name}", "_".join(p.capitalize() for p in name.split("_")), f"{name}_")
    )


def zipf_index(rng: random.Random, size: int, power: float = 3.0) -> int:
    """Skewed pick from a pool: low indices (popular items) come up far more often."""
    return min(int(size * rng.random() ** power), size - 1)


# --------------------------------------------------------------------------- catalogues


@dataclass(frozen=True)
class Body:
    sha: str
    entry: str
    path: str
    language: str


class BodyCatalogue:
    """Code bodies, each derived from its index alone so none has to be remembered."""

    def __init__(self, seed: int, expected_bodies: int, mess: Mess | None = None):
        self.seed = seed
        self.mess = mess or Mess()
        self.count = 0
        self.tail_space = max(50, int(expected_bodies * 0.6))
        self._hot_cum = []
        total = 0.0
        for name, weight in words.HOT_ENTRIES:
            total += weight
            self._hot_cum.append((total, name))

    def new(self) -> int:
        self.count += 1
        return self.count - 1

    @functools.lru_cache(maxsize=1 << 16)  # noqa: B019  (one catalogue per run)
    def get(self, index: int) -> Body:
        rng = stable_rng(self.seed, "body", index)
        entry = self._entry(rng)
        if "entry-slug-alikes" in self.mess:
            mess_rng = stable_rng(self.seed, "mess:entry-slug-alikes", index)
            if mess_rng.random() < self.mess.variant_entries:
                entry = slug_alike_entry(entry, mess_rng)
        return Body(
            sha=hashlib.sha256(f"{self.seed}:body:{index}".encode()).hexdigest()[:16],
            entry=entry,
            path=self._path(rng),
            language="python" if rng.random() < 0.95 else "cpp",
        )

    def _entry(self, rng: random.Random) -> str:
        r = rng.random()
        for cum, name in self._hot_cum:
            if r < cum:
                return name
        return self._tail_name(rng.randrange(self.tail_space))

    @staticmethod
    def _tail_name(name_id: int) -> str:
        """verb_[modifier_]noun, bijective in ``name_id`` so slugs never collide."""
        capacity = len(words.VERBS) * len(words.MODIFIERS) * len(words.NOUNS)
        n = (name_id * 7919) % capacity  # scatter consecutive ids over the combinations
        n, noun = divmod(n, len(words.NOUNS))
        verb, mod = divmod(n, len(words.MODIFIERS))
        parts = [words.VERBS[verb], words.MODIFIERS[mod], words.NOUNS[noun]]
        return "_".join(p for p in parts if p)

    @staticmethod
    def _path(rng: random.Random) -> str:
        folder = rng.choice(words.DIRS)
        name = rng.choice(words.FILES) + rng.choice(("", "", "_utils", "_v2", "s"))
        return f"{folder}/{name}.py" if folder else f"{name}.py"


@dataclass(frozen=True)
class Repo:
    owner: str
    name: str
    host: str
    licence: str | None

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def url(self) -> str:
        return f"https://{self.host}/{self.full_name}"


class RepoCatalogue:
    """Repositories derived from their index; owner/name unique by construction."""

    def __init__(self, seed: int):
        self.seed = seed
        self.count = N_POPULAR_REPOS  # indices below this are the popular ones

    def new(self) -> int:
        self.count += 1
        return self.count - 1

    def popular(self, rng: random.Random) -> int:
        return zipf_index(rng, N_POPULAR_REPOS, 2.0)

    def earlier(self, rng: random.Random) -> int:
        return rng.randrange(self.count)

    @functools.lru_cache(maxsize=1 << 16)  # noqa: B019  (one catalogue per run)
    def get(self, index: int) -> Repo:
        rng = stable_rng(self.seed, "repo", index)
        owner = syllable_name(index // 3)
        style = rng.random()
        if style < 0.3:
            owner = owner.lower()
        elif style < 0.4:
            owner = owner.upper()
        elif style < 0.5:
            owner = f"{owner}-{rng.choice(('Lab', 'AI', 'Group', 'research'))}"
        name = rng.choice(words.REPO_WORDS)
        name = (name.capitalize() if rng.random() < 0.3 else name) + ("", "-pytorch", "_official")[index % 3]
        host = "github.com" if rng.random() < 0.97 else rng.choice(("gitlab.com", "bitbucket.org"))
        licence = rng.choices(LICENCES, LICENCE_WEIGHTS)[0]
        return Repo(owner, name, host, licence)


class Pools:
    """Tasks, methods and datasets: small fixed vocabularies the papers share."""

    def __init__(self, seed: int):
        rng = random.Random(f"{seed}:pools")
        self.tasks = self._names(
            rng, 3000, lambda: " ".join(rng.sample(words.TASK_WORDS, rng.randint(2, 3))).title()
        )
        self.methods = self._names(rng, 8700, lambda: self._method_name(rng))
        self.datasets = list(words.DATASET_NAMES) + self._names(
            rng, 2000, lambda: f"{syllable_name(rng.randrange(10**6))}-{rng.randint(1, 999)}"
        )

    @staticmethod
    def _names(rng: random.Random, size: int, make) -> list[str]:
        seen: dict[str, None] = {}
        while len(seen) < size:
            seen.setdefault(make(), None)
        return list(seen)

    @staticmethod
    def _method_name(rng: random.Random) -> str:
        if rng.random() < 0.5:
            return syllable_name(rng.randrange(10**6))
        return " ".join(w.capitalize() for w in rng.sample(words.TITLE_WORDS, rng.randint(1, 3)))


class Spellings:
    """The spelling a mention of a pool's name uses: its own, or (name-variants) now and then
    another that slugs alike. Which names have other spellings, and which, depends on the name
    alone (its kind and index); which mention uses one, on a ``Random`` of this mess's own."""

    def __init__(self, seed: int, mess: Mess):
        self.seed, self.mess = seed, mess
        self.on = "name-variants" in mess
        self.rng = random.Random(f"{seed}:mess:name-variants")
        self.mentions = 0  # mentions written in another spelling

    @functools.cache  # noqa: B019  (one per run; bounded by the pools' size)
    def variants(self, kind: str, index: int, name: str) -> tuple[str, ...]:
        rng = stable_rng(self.seed, f"spellings-{kind}", index)
        if rng.random() >= self.mess.variant_names:
            return ()
        # A dataset's slug is derived by the catalogue (Django's slugify keeps '_'): no underscores.
        forms = other_spellings(name, underscores=kind != "dataset")
        return tuple(rng.sample(forms, min(len(forms), rng.choice((1, 1, 2)))))

    def spell(self, kind: str, index: int, name: str) -> str:
        if not self.on:
            return name
        forms = self.variants(kind, index, name)
        if forms and self.rng.random() < self.mess.variant_use:
            self.mentions += 1
            return self.rng.choice(forms)
        return name


class ArxivIds:
    """Unique arXiv ids: a counter per month, 4-digit numbers before 2015 as on arXiv."""

    def __init__(self):
        self.next_number: Counter[str] = Counter()

    def new(self, day: dt.date) -> str:
        if day.year < 2007:
            key = f"cs/{day:%y%m}"
            self.next_number[key] += 1
            return f"{key}{self.next_number[key]:03d}"
        key = f"{day:%y%m}"
        if key not in self.next_number:  # start each month somewhere in its range, not at 1
            self.next_number[key] = int(short_hash(key), 16) % 3000
        self.next_number[key] += 1
        width = 4 if day.year < 2015 else 5
        return f"{key}.{self.next_number[key]:0{width}d}"


# --------------------------------------------------------------------------- papers


@dataclass
class PaperIdentity:
    slug: str
    arxiv_id: str | None
    date: str | None
    month_inferred: str | None
    title: str | None
    title_source: str
    syntology_only: bool


class PaperFactory:
    """Makes one paper document at a time, plus the places it holds."""

    def __init__(self, seed: int, n_papers: int, props: Proportions, mess: Mess | None = None):
        self.seed = seed
        self.props = props
        self.mess = mess or Mess()
        self.rng = random.Random(seed)
        # each kind of mess draws from its own Random: the tidy data's draws stay as they were
        self.mess_rng = {kind: random.Random(f"{seed}:mess:{kind}") for kind in MESS_KINDS}
        self.mess_counts: Counter[str] = Counter()
        expected_places = int(n_papers * 1.2)
        self.bodies = BodyCatalogue(seed, int(expected_places * (1 - props.body_reuse)), self.mess)
        self.repos = RepoCatalogue(seed)
        self.pools = Pools(seed)
        self.spellings = Spellings(seed, self.mess)
        self.arxiv = ArxivIds()
        self.sentences = self._sentence_pool()

    def _sentence_pool(self) -> list[str]:
        rng = random.Random(f"{self.seed}:sentences")
        pool = []
        for _ in range(3000):
            pool.append(
                f"We {rng.choice(words.ABSTRACT_VERBS)} {rng.choice(words.ABSTRACT_OBJECTS)} that "
                f"{rng.choice(words.ABSTRACT_CLAIMS)}, and show that it "
                f"{rng.choice(words.ABSTRACT_CLAIMS)} on {rng.choice(words.DATASET_NAMES)}."
            )
        return pool

    # -- identity -------------------------------------------------------------

    def identity(self, index: int) -> PaperIdentity:
        rng, p = self.rng, self.props
        acronym = syllable_name(index + 1000)
        title = self.title(acronym)
        r = rng.random()
        if r < p.syntology_only:
            day = dt.date(2025, 8, 1) + dt.timedelta(days=rng.randrange(150))
            arxiv_id = self.arxiv.new(day)
            slug = "arxiv-" + arxiv_id.replace(".", "-")
            return PaperIdentity(slug, arxiv_id, None, f"{day:%Y-%m}", title, "syntology", True)
        day = self.paper_date()
        slug = slugify(title or acronym) or acronym.lower()
        if not slug.startswith(acronym.lower()):
            slug = f"{acronym.lower()}-{slug}"  # keep slugs unique by construction
        arxiv_id = None if r < p.syntology_only + p.no_arxiv else self.arxiv.new(day)
        return PaperIdentity(slug, arxiv_id, day.isoformat(), None, title, "archive", False)

    def paper_date(self) -> dt.date:
        rng = self.rng
        r = rng.random()
        if r < 0.003:
            return dt.date(1993, 1, 1) + dt.timedelta(days=rng.randrange(14 * 365))
        if r < 0.005:  # later than the snapshot: the archive has some
            return SNAPSHOT_DAY + dt.timedelta(days=rng.randrange(1, 400))
        return dt.date(2013, 1, 1) + dt.timedelta(
            days=rng.randrange((SNAPSHOT_DAY - dt.date(2013, 1, 1)).days)
        )

    def title(self, acronym: str) -> str | None:
        rng = self.rng
        r = rng.random()
        if r < 0.001:
            return rng.choice((None, ""))
        body = " ".join(rng.sample(words.TITLE_WORDS, rng.randint(3, 8))).capitalize()
        link = rng.choice(words.TITLE_LINKS)
        tail = " ".join(rng.sample(words.TITLE_WORDS, rng.randint(1, 4)))
        if r < 0.06:
            tail = f"{tail} {rng.choice(words.TITLE_ODDITIES)}"
        title = f"{acronym}: {body} {link} {tail}"
        if r > 0.995:
            title = f"{title}, {' '.join(rng.choices(words.TITLE_WORDS, k=40))}"  # 250+ chars
        if 0.98 < r <= 0.99:
            title = f"  {title} "  # padded, as the archive has
        return title

    def authors(self) -> list[str]:
        rng = self.rng
        out = []
        for _ in range(rng.choice((1, 2, 3, 3, 4, 4, 5, 6, 8, 12))):
            if rng.random() < 0.04:
                out.append(rng.choice(words.CJK_NAMES))
            else:
                out.append(f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}")
        return out

    def messy_authors(self, authors: list[str]) -> list[str]:
        """blank-authors: a blank name somewhere in the list; duplicate-authors: one name twice."""
        if authors and "blank-authors" in self.mess:
            rng = self.mess_rng["blank-authors"]
            if rng.random() < self.mess.blank_authors:
                authors.insert(rng.randint(0, len(authors)), rng.choice(("", " ", "  ")))
                self.mess_counts["papers_with_blank_author"] += 1
        if authors and "duplicate-authors" in self.mess:
            rng = self.mess_rng["duplicate-authors"]
            named = [a for a in authors if a.strip()]
            if named and rng.random() < self.mess.duplicate_authors:
                again = rng.choice(named)
                authors.insert(
                    rng.randint(authors.index(again) + 1, len(authors)), rng.choice((again, again.upper()))
                )
                self.mess_counts["papers_with_duplicate_author"] += 1
        return authors

    def abstract(self) -> str:
        rng = self.rng
        sep = "\r\n" if rng.random() < 0.15 else " "
        parts = [rng.choice(words.ABSTRACT_OPENERS) + "."]
        parts += rng.choices(self.sentences, k=rng.randint(4, 14))
        return sep.join(parts)

    def links(self, ident: PaperIdentity) -> tuple[str | None, str | None]:
        rng = self.rng
        if ident.arxiv_id:
            version = rng.randint(1, 5)
            return (
                f"https://arxiv.org/abs/{ident.arxiv_id}v{version}",
                f"https://arxiv.org/pdf/{ident.arxiv_id}v{version}.pdf",
            )
        token = short_hash(ident.slug)[:10]
        pdf = None if rng.random() < 0.1 else f"https://openreview.net/pdf?id={token}"
        return f"https://openreview.net/forum?id={token}", pdf

    # -- archive links ------------------------------------------------------------

    def code_links(self, slug: str) -> list[dict]:
        """~0.55 links per paper, most papers none, a rare one with hundreds."""
        rng = self.rng
        r = rng.random()
        if r < 0.72:
            return []
        if r < 0.91:
            n = 1
        elif r < 0.975:
            n = rng.randint(2, 3)
        elif r < 0.9995:
            n = rng.randint(4, 10)
        else:
            n = rng.randint(50, 200)
        chosen: dict[int, None] = {}
        for _ in range(n):
            pick = rng.random()
            if pick < 0.8:
                chosen.setdefault(self.repos.new(), None)
            elif pick < 0.9:
                chosen.setdefault(self.repos.popular(rng), None)
            else:
                chosen.setdefault(self.repos.earlier(rng), None)
        return [self.code_link(slug, k, position) for position, k in enumerate(chosen)]

    def code_link(self, slug: str, repo_index: int, position: int) -> dict:
        rng = self.rng
        repo = self.repos.get(repo_index)
        url = repo.url
        r = rng.random()
        if r < 0.03:
            url = f"{url}/tree/{rng.choice(('main', 'master', 'develop'))}/{rng.choice(words.DIRS[1:])}"
        elif r < 0.04:
            url = f"{url}.git"
        elif r < 0.07:
            url = url.lower()
        official = 1 if position == 0 and rng.random() < 0.35 else 0
        return {
            "paper_slug": slug,
            "repo_url": url,
            "is_official": self.flag(official),
            "mentioned_in_paper": self.flag(
                1 if official and rng.random() < 0.7 else int(rng.random() < 0.08)
            ),
            "mentioned_in_github": self.flag(int(rng.random() < 0.5)),
            "framework": rng.choice(words.FRAMEWORKS),
            "reach": self.reach(repo),
            "_repo_index": repo_index,  # stripped before writing
        }

    def flag(self, value: int):
        """Flags mostly 0/1 as in the seed; the archive also has true/false and null."""
        r = self.rng.random()
        if r < 0.97:
            return value
        return None if r > 0.99 else bool(value)

    def reach(self, repo: Repo) -> dict | None:
        r = self.rng.random()
        if r < 0.3:
            return None
        if r < 0.6 or repo.licence in (None, "NONE", "NOASSERTION"):
            return {"status": "ok"}
        return {"status": "ok", "spdx": repo.licence}

    def tasks(self) -> list[dict]:
        rng = self.rng
        out = []
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4, 6))):
            index = zipf_index(rng, len(self.pools.tasks))
            name = self.spellings.spell("task", index, self.pools.tasks[index])
            out.append({"task_slug": slugify(name, 80), "task_name": name})
        if out and rng.random() < 0.05:  # same slug again under another name, as in seed 003
            out.append({"task_slug": out[0]["task_slug"], "task_name": out[0]["task_slug"]})
        return out

    def methods(self) -> list[dict]:
        rng = self.rng
        n = 0 if rng.random() < 0.5 else rng.choice((1, 2, 3, 5, 8, 12, 21))
        picked = {zipf_index(rng, len(self.pools.methods)) for _ in range(n)}
        names = [
            self.spellings.spell("method", i, self.pools.methods[i])
            for i in sorted(picked, key=self.pools.methods.__getitem__)
        ]
        return [{"method_slug": slugify(n, 80), "method_name": n} for n in names]

    def introduced(self, acronym: str, rate: float) -> list[dict]:
        if self.rng.random() >= rate:
            return []
        return [{"slug": acronym.lower(), "name": acronym, "full_name": acronym}]

    def results(self, tasks: list[dict]) -> list[dict]:
        rng = self.rng
        if rng.random() >= self.props.with_results:
            return []
        out = []
        for _ in range(rng.randint(1, 4)):
            if tasks:
                task = rng.choice(tasks)["task_name"]
            else:
                index = zipf_index(rng, 3000)
                task = self.spellings.spell("task", index, self.pools.tasks[index])
            index = zipf_index(rng, len(self.pools.datasets))
            dataset = self.spellings.spell("dataset", index, self.pools.datasets[index])
            board = f"/sota/{slugify(task, 80)}-on-{slugify(dataset, 80)}"
            of = rng.randint(1, 1200)
            out.append(
                {
                    "leaderboard": None if rng.random() < 0.05 else board,
                    "task": task,
                    "dataset": dataset,
                    "model": rng.choice(("GPipe", "Ours", "Baseline", "Large", "base + extra data")),
                    "rank_in_archive_order": rng.randint(1, of),
                    "of": of,
                    "metrics": self.metrics(),
                    "uses_additional_data": rng.random() < 0.3,
                }
            )
        return out

    def metrics(self) -> dict[str, str]:
        rng = self.rng
        out = {}
        for name in rng.sample(words.METRIC_NAMES, rng.choice((0, 1, 1, 1, 2, 3))):
            r = rng.random()
            if r < 0.4:
                out[name] = f"{rng.uniform(10, 99.9):.1f}%"
            elif r < 0.6:
                out[name] = f"{rng.uniform(0, 100):.{rng.randint(0, 2)}f}"
            elif r < 0.75:
                out[name] = f"{rng.uniform(0.1, 900):.2f}{rng.choice('MKG')}"
            else:
                out[name] = rng.choice(words.METRIC_ODD_VALUES)
        return out

    # -- samples (places) -------------------------------------------------------

    def sample_count(self, ident: PaperIdentity, links: list[dict]) -> int:
        rng, p = self.rng, self.props
        if not ident.arxiv_id:
            return 0  # Syntology keys papers by arXiv id (see README: a choice, stated)
        chance = 1.0 if ident.syntology_only else (p.sampled_if_linked if links else p.sampled_if_unlinked)
        if rng.random() >= chance:
            return 0
        if rng.random() < p.big_sample_paper:
            return rng.randint(30, 150)
        return min(1 + int(rng.expovariate(1 / (p.mean_samples - 1))), 29)

    def samples(self, n: int, links: list[dict]) -> list[dict]:
        """Paper-side sample rows, sorted by entry as in seed 003."""
        github_links = [lk for lk in links if "github.com/" in lk["repo_url"]]
        used: set[int] = set()
        rows = []
        for _ in range(n):
            body_index = self.pick_body(used)
            used.add(body_index)
            repo_text, kind = self.pick_repo(github_links)
            rows.append(self.place(self.bodies.get(body_index), repo_text, kind))
        rows.sort(key=lambda s: (s["entry"], s["code_sha256_prefix"]))
        return rows

    def pick_body(self, used: set[int]) -> int:
        rng = self.rng
        if self.bodies.count and rng.random() < self.props.body_reuse:
            k = rng.randrange(self.bodies.count)
            if k not in used:
                return k
        return self.bodies.new()

    def pick_repo(self, github_links: list[dict]) -> tuple[tuple[Repo, str] | None, str]:
        """(repo, owner/name as written) and repo_kind for one place."""
        rng = self.rng
        r = rng.random()
        if github_links and r < 0.85:
            link = rng.choice(github_links)
            repo = self.repos.get(link["_repo_index"])
            written = "/".join(link["repo_url"].split("/")[3:5]).removesuffix(".git")  # as linked
            if link["is_official"]:
                kind = "official"
            elif link["mentioned_in_paper"]:
                kind = "named_in_paper"
            else:
                kind = "listed"
            return (repo, written), kind
        if r < 0.97:
            k = self.repos.popular(rng) if rng.random() < 0.4 else self.repos.new()
            repo = self.repos.get(k)
            if repo.host != "github.com":
                return None, "community"
            written = repo.full_name.lower() if rng.random() < 0.1 else repo.full_name
            return (repo, written), ("found_in_text" if rng.random() < 0.25 else "community")
        return None, "community"

    def place(self, body: Body, repo: tuple[Repo, str] | None, kind: str) -> dict:
        rng = self.rng
        status = rng.choices(STATUSES, STATUS_WEIGHTS)[0]
        if repo is None:
            repo_text, path, file_url, licence = None, "", None, None
        else:
            path = body.path if rng.random() < 0.85 else BodyCatalogue._path(rng)
            repo_text, licence = repo[1], repo[0].licence
            file_url = f"https://github.com/{repo_text}/blob/HEAD/{path}"
        return {
            "code_sha256_prefix": body.sha,
            "entry": body.entry,
            "repo": repo_text,
            "repo_kind": kind,
            "path": path,
            "file_url": file_url,
            "link_basis": "first_harvest_node" if rng.random() < 0.1 else "harvester_set",
            "language": body.language,
            **status_fields(rng, status),
            "licence": licence,
            "inline_ok": licence in PERMISSIVE and rng.random() < 0.8,
            "mcp_get_code": {"code_sha256": body.sha},
        }

    # -- the document -------------------------------------------------------------

    def make(self, index: int) -> tuple[dict, PaperIdentity]:
        rng = self.rng
        ident = self.identity(index)
        acronym = syllable_name(index + 1000)
        if ident.syntology_only:
            links, tasks, methods, results = [], [], [], []
            authors, abstract, proceeding, source = [], None, None, None
        else:
            links = self.code_links(ident.slug)
            tasks, methods = self.tasks(), self.methods()
            results = self.results(tasks)
            authors, abstract, source = self.messy_authors(self.authors()), self.abstract(), text.PAPER_SOURCE
            year = int(ident.date[:4])
            proceeding = (
                f"{rng.choice(words.PROCEEDINGS)} {year} {rng.randint(1, 12)}"
                if rng.random() < 0.35
                else None
            )
        url_abs, url_pdf = self.links(ident)
        samples = self.samples(self.sample_count(ident, links), links)
        doc = {
            "about": text.ABOUT,
            "url": f"/paper/{ident.slug}",
            "title": ident.title,
            "arxiv_id": ident.arxiv_id,
            "date": ident.date,
            "proceeding": proceeding,
            "authors": authors,
            "abstract": abstract,
            "url_abs": url_abs,
            "url_pdf": url_pdf,
            "source": source,
            "code_links": [{k: v for k, v in lk.items() if k != "_repo_index"} for lk in links],
            "tasks": tasks,
            "methods": methods,
            "datasets_introduced": [] if ident.syntology_only else self.introduced(acronym + "-DS", 0.03),
            "methods_introduced": [] if ident.syntology_only else self.introduced(acronym, 0.1),
            "results": results,
            "syntology": paper_syntology(ident, doc_links=links, samples=samples),
            "arxiv_metadata": None,
            "syntology_extracted_results": None,
        }
        return doc, ident


def status_fields(rng: random.Random, status: str) -> dict:
    """A place's status and the fields that go with it (what ran, how far it was checked)."""
    ran = status != "unverified"
    # 0 for harvested only, 1 for ran, sometimes 2 where a contract was judged
    level = (rng.choice((1, 2)) if status in ("ran_honours", "ran_violates") else 1) if ran else 0
    return {
        "status": status,
        "verification_level": level,
        "contract_check": rng.choice(CONTRACT_CHECKS[status]) if ran else None,
        "metamorphic_tier": rng.choice(("deterministic", "invariant", None)) if ran else None,
        "behaviour_fingerprint": ran and rng.random() < 0.2,
    }


def other_document(doc: dict, ident: PaperIdentity, rng: random.Random) -> dict:
    """multi-document-papers: a second paper document of the same paper (same arXiv id and
    places): the archive's duplicate under ``<slug>-1``, or, for a paper with samples, the
    ``arxiv-YYMM-NNNNN`` document Syntology gave it before the archive gave it a title slug."""
    new_style = "/" not in (ident.arxiv_id or "/")
    samples = doc["syntology"]["samples"] if doc["syntology"] else []
    if new_style and samples and rng.random() < 0.5:
        slug = "arxiv-" + ident.arxiv_id.replace(".", "-")
        other = PaperIdentity(slug, ident.arxiv_id, None, ident.date[:7], ident.title, "syntology", True)
        empty = ("proceeding", "authors", "abstract", "source", "code_links", "tasks", "methods")
        return {
            **doc,
            **{k: [] if isinstance(doc[k], list) else None for k in empty},
            "url": f"/paper/{slug}",
            "date": None,
            "datasets_introduced": [],
            "methods_introduced": [],
            "results": [],
            "syntology": paper_syntology(other, doc_links=[], samples=samples),
        }
    slug = f"{ident.slug}-1"
    return {
        **doc,
        "url": f"/paper/{slug}",
        "code_links": [{**link, "paper_slug": slug} for link in doc["code_links"]],
    }


def paper_syntology(ident: PaperIdentity, doc_links: list[dict], samples: list[dict]) -> dict | None:
    """The paper's ``syntology`` block, its figures computed from ``samples``."""
    if not samples and not doc_links:
        return None
    repos = [{"provenance": PWC_PROVENANCE, "url": lk["repo_url"], "reach": lk["reach"]} for lk in doc_links]
    listed = {lk["repo_url"].lower() for lk in doc_links}
    for repo in sorted(
        {s["repo"] for s in samples if s["repo"] and s["repo_kind"] in ("community", "found_in_text")}
    ):
        url = f"https://github.com/{repo}"
        if url.lower() not in listed:
            repos.append({"provenance": "syntology:harvest", "url": url, "reach": None})
    arxiv_id = ident.arxiv_id
    return {
        "syntology_url": f"https://syntology.ai/paper/{arxiv_id}" if arxiv_id else None,
        "atlas_url": f"https://app.syntology.ai/?focus={arxiv_id}" if arxiv_id else None,
        "mcp": {"get_harvested_code_for_paper": {"arxiv_id": arxiv_id}} if arxiv_id else None,
        "developers": text.DEVELOPERS,
        "read_at": text.PAPER_READ_AT,
        "read_at_is": text.PAPER_READ_AT_IS,
        "claim": text.PAPER_CLAIM,
        "repos": repos,
        **paper_figures(samples),
        "samples": samples,
    }


def paper_figures(samples: list[dict]) -> dict:
    """The figures a paper's ``syntology`` block states, from its samples (in the block's order)."""
    summary = Counter(s["status"] for s in samples)
    by_kind: dict[str, dict] = {}
    for s in samples:
        slot = by_kind.setdefault(s["repo_kind"], {"samples": 0, "ran": 0, "repositories": set()})
        slot["samples"] += 1
        slot["ran"] += s["status"] != "unverified"
        if s["repo"]:
            slot["repositories"].add(s["repo"].lower())  # repository identity ignores case
    return {
        "summary": {s: summary[s] for s in STATUSES if summary[s]},
        "by_repo_kind": {
            kind: {"samples": v["samples"], "ran": v["ran"], "repositories": len(v["repositories"])}
            for kind, v in sorted(by_kind.items())
        },
        "repo_kind_vocabulary": text.REPO_KIND_VOCABULARY,
        "n_pointer_only_for_licence": sum(not s["inline_ok"] for s in samples),
    }


# --------------------------------------------------------------------------- code entries


def code_entry_row(ident: PaperIdentity, sample: dict) -> dict:
    """The code-entry view of a place: the paper's side copied, the place's fields shared."""
    return {
        "arxiv_id": ident.arxiv_id,
        "paper": f"/paper/{ident.slug}",
        "title": ident.title,
        "date": ident.date,
        "month_inferred_from_arxiv_id": ident.month_inferred,
        "title_source": ident.title_source,
        **{
            k: sample[k]
            for k in (
                "repo",
                "path",
                "file_url",
                "status",
                "verification_level",
                "contract_check",
                "metamorphic_tier",
                "behaviour_fingerprint",
                "licence",
                "inline_ok",
                "code_sha256_prefix",
                "mcp_get_code",
            )
        },
    }


def entry_document(entry: str, rows: list[dict], slug: str | None = None) -> dict:
    """A code-entry document whose aggregates follow docs/SNAPSHOT-FORMAT.md from ``rows``, at
    ``/code/<slug>`` (by default the slug the entry's name gives)."""
    figures = entry_figures(rows)
    return {
        "about": text.ABOUT,
        "url": f"/code/{slug or entry_slug(entry)}",
        "entry": entry,
        "source": text.CODE_SOURCE,
        "read_at": text.CODE_READ_AT,
        "claim": text.CODE_CLAIM,
        "status_vocabulary": text.STATUS_VOCABULARY,
        "n_papers": figures["n_papers"],
        "n_papers_ran": figures["n_papers_ran"],
        "units": text.UNITS,
        **{k: v for k, v in figures.items() if not k.startswith("n_papers")},
        "syntology": text.CODE_SYNTOLOGY,
        "samples": rows,
    }


def entry_figures(rows: list[dict]) -> dict:
    """A code-entry document's figures from its rows (docs/SNAPSHOT-FORMAT.md's table), in its order."""
    bodies_by_status = {s: set() for s in STATUSES}
    papers, papers_ran, fingerprinted = set(), set(), set()
    for row in rows:
        bodies_by_status[row["status"]].add(row["code_sha256_prefix"])
        papers.add(row["arxiv_id"])
        if row["status"] != "unverified":
            papers_ran.add(row["arxiv_id"])
        if row["behaviour_fingerprint"]:
            fingerprinted.add(row["code_sha256_prefix"])
    by_status = {s: len(b) for s, b in bodies_by_status.items()}
    return {
        "n_papers": len(papers),
        "n_papers_ran": len(papers_ran),
        "n_samples": len({r["code_sha256_prefix"] for r in rows}),
        "n_samples_ran": sum(v for s, v in by_status.items() if s != "unverified"),
        "n_samples_fingerprinted": len(fingerprinted),
        "n_places": len(rows),
        "n_places_pointer_only": sum(not r["inline_ok"] for r in rows),
        "by_status": by_status,
    }


class EntryAddresses:
    """The ``/code/<slug>`` of each code-entry document, in the order they are written (entry
    name order): the slug the name gives, or, where an earlier entry took it, that slug with
    ``-1``, ``-2``… as a site gives one address per page. Only slug-alike names meet this."""

    def __init__(self):
        self.taken: set[str] = set()
        self.disambiguated = 0

    def claim(self, entry: str) -> str:
        base = slug = entry_slug(entry)
        n = 0
        while slug in self.taken:
            n += 1
            slug = f"{base}-{n}"
        self.disambiguated += n > 0
        self.taken.add(slug)
        return slug


class EntrySpill:
    """On-disk holding pen for code-entry rows until every paper has been written."""

    def __init__(self, path: Path):
        path.unlink(missing_ok=True)
        self.path = path
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("CREATE TABLE spill (seq INTEGER PRIMARY KEY, entry TEXT, sortkey TEXT, row TEXT)")
        self.pending: list[tuple[str, str, str]] = []

    def add(self, entry: str, sortkey: str, row: dict) -> None:
        self.pending.append((entry, sortkey, json.dumps(row, ensure_ascii=False)))
        if len(self.pending) >= 5000:
            self.flush()

    def flush(self) -> None:
        self.db.executemany("INSERT INTO spill (entry, sortkey, row) VALUES (?, ?, ?)", self.pending)
        self.pending.clear()

    def groups(self):
        """(entry, rows) per entry name; rows newest paper first, as in the seeds."""
        self.flush()
        cursor = self.db.execute("SELECT entry, row FROM spill ORDER BY entry, sortkey DESC, seq")
        current, rows = None, []
        for entry, row in cursor:
            if entry != current and rows:
                yield current, rows
                rows = []
            current = entry
            rows.append(json.loads(row))
        if rows:
            yield current, rows

    def close(self) -> None:
        self.db.close()
        self.path.unlink(missing_ok=True)


# --------------------------------------------------------------------------- output


class SnapshotWriter:
    """Writes ``NNNNNN_<hash>.json`` files (compact JSON like the seeds), optionally gzipped."""

    def __init__(self, out: Path, use_gzip: bool):
        out.mkdir(parents=True, exist_ok=True)
        self.out, self.use_gzip = out, use_gzip
        self.count = 0
        self.bytes = 0

    def write(self, doc: dict) -> None:
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        name = f"{self.count:06d}_{short_hash(doc['url'])}.json"
        self.count += 1
        if self.use_gzip:
            path = self.out / f"{name}.gz"
            with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                gz.write(data)
        else:
            path = self.out / name
            path.write_bytes(data)
        self.bytes += len(data)


def generate(
    n_papers: int,
    out: Path,
    seed: int = 0,
    use_gzip: bool = False,
    props: Proportions | None = None,
    mess: Mess | None = None,
) -> dict:
    """Write a snapshot of ``n_papers`` paper documents plus their code-entry documents."""
    props, mess = props or Proportions(), mess or Mess()
    factory = PaperFactory(seed, n_papers, props, mess)
    addresses = EntryAddresses()
    writer = SnapshotWriter(out, use_gzip)
    spill = EntrySpill(out / ".entry-spill.sqlite3")
    stats = Counter()
    try:
        for index in range(n_papers):
            doc, ident = factory.make(index)
            writer.write(doc)
            if "multi-document-papers" in mess and ident.arxiv_id and not ident.syntology_only:
                rng = factory.mess_rng["multi-document-papers"]
                if rng.random() < mess.multi_document:
                    writer.write(other_document(doc, ident, rng))
                    stats["extra_paper_documents"] += 1
            stats["papers"] += 1
            stats["code_links"] += len(doc["code_links"])
            stats["results"] += len(doc["results"])
            samples = doc["syntology"]["samples"] if doc["syntology"] else []
            stats["places"] += len(samples)
            sortkey = f"{ident.date or ident.month_inferred}|{ident.arxiv_id}"
            for sample in samples:
                spill.add(sample["entry"], sortkey, code_entry_row(ident, sample))
        for entry, rows in spill.groups():
            writer.write(entry_document(entry, rows, addresses.claim(entry)))
            stats["code_entries"] += 1
            stats["max_places_per_entry"] = max(stats["max_places_per_entry"], len(rows))
    finally:
        spill.close()
    stats["code_bodies"] = factory.bodies.count
    if mess.kinds:
        stats["mess"] = sorted(mess.kinds)
        stats["name_mentions_respelled"] = factory.spellings.mentions
        stats["entry_addresses_disambiguated"] = addresses.disambiguated
        stats.update(factory.mess_counts)
    stats["documents"] = writer.count
    stats["bytes"] = writer.bytes
    return dict(stats)


# --------------------------------------------------------------------------- the next harvest


def touch(src: Path, out: Path, seed: int = 0, fraction: float = 0.05) -> dict:
    """Copy the snapshot in ``src`` to ``out`` (same file names) with ``fraction`` of its files
    touched as the next harvest would give them: a paper's title reworded; some places' statuses
    changed, with the fields and figures that follow from them restated; the document's
    ``read_at`` moved on. The other files are copied as they are (a reload finds them loaded).

    Only the touched document changes: where a touched paper's place is also listed by an
    untouched code-entry document (or the other way round), the two views differ, and the newer
    one should win, as they would after a real re-harvest.
    """
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"{seed}:touch")
    stats = Counter()
    for path in sorted(src.iterdir()):
        if not path.name.endswith((".json", ".json.gz")):
            continue
        stats["files"] += 1
        if rng.random() >= fraction:
            shutil.copyfile(path, out / path.name)
            continue
        zipped = path.name.endswith(".gz")
        raw = gzip.decompress(path.read_bytes()) if zipped else path.read_bytes()
        doc = json.loads(raw)
        stats["touched_" + touch_document(doc, rng)] += 1
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        (out / path.name).write_bytes(gzip.compress(data, mtime=0) if zipped else data)
    return dict(stats)


def touch_document(doc: dict, rng: random.Random) -> str:
    """Touch one document in place (see :func:`touch`); its kind: ``paper`` or ``code_entry``."""

    def later(read_at: str) -> str:
        moved = dt.datetime.fromisoformat(read_at) + dt.timedelta(
            days=rng.randint(1, 60), seconds=rng.randrange(86400)
        )
        return moved.isoformat()

    def restatus(samples: list[dict]) -> None:
        """At least one place, then each other with a chance of 0.3, gets another status."""
        first = rng.randrange(len(samples)) if samples else -1
        for i, sample in enumerate(samples):
            if i == first or rng.random() < 0.3:
                others = [
                    (s, w) for s, w in zip(STATUSES, STATUS_WEIGHTS, strict=True) if s != sample["status"]
                ]
                status = rng.choices([s for s, _ in others], [w for _, w in others])[0]
                sample.update(status_fields(rng, status))

    if doc["url"].startswith("/paper/"):
        doc["title"] = f"{(doc['title'] or '').strip()} {rng.choice(words.TITLE_WORDS)}".strip()
        syn = doc.get("syntology")
        if syn:
            restatus(syn["samples"])
            syn.update(paper_figures(syn["samples"]))
            syn["read_at"] = later(syn["read_at"])
        return "paper"
    restatus(doc["samples"])
    doc.update(entry_figures(doc["samples"]))
    doc["read_at"] = later(doc["read_at"])
    return "code_entry"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="kinds of mess: " + "; ".join(f"{k}: {v}" for k, v in MESS_KINDS.items()),
    )
    parser.add_argument("--papers", type=int, help="paper documents to make (not with --touch)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gzip", action="store_true", help="write .json.gz files")
    parser.add_argument(
        "--mess", default="", metavar="KIND,…", help="kinds of a real harvest's mess to make, or 'all'"
    )
    parser.add_argument("--messy", action="store_true", help="every kind of mess (--mess all)")
    parser.add_argument(
        "--touch",
        type=Path,
        metavar="SNAPSHOT",
        help="instead of generating: copy SNAPSHOT to --out with --fraction of its files touched "
        "(titles and statuses changed, read_at moved on), for a reload",
    )
    parser.add_argument("--fraction", type=float, default=0.05, help="with --touch: share of files touched")
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.glob("*.json*")):
        parser.error(f"{args.out} already holds documents; give an empty or new directory")
    if args.touch:
        if args.papers or args.mess or args.messy:
            parser.error("--touch copies a snapshot: no --papers or --mess")
        print(json.dumps(touch(args.touch, args.out, args.seed, args.fraction), indent=1))
        return
    if not args.papers:
        parser.error("--papers is required (or --touch SNAPSHOT)")
    try:
        mess = Mess.parse("all" if args.messy else args.mess)
    except ValueError as exc:
        parser.error(str(exc))
    stats = generate(args.papers, args.out, args.seed, args.gzip, mess=mess)
    print(json.dumps(stats, indent=1))


if __name__ == "__main__":
    main()
