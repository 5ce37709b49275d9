"""Conferences and their proceedings, derived from the proceeding each paper names.

The data has no conference records: a paper's ``proceeding`` (``NeurIPS 2019 12``) is all there
is. The rule, which :func:`derive` applies and the API documents:

* A **proceeding** is a non-empty ``Paper.proceeding`` string. Its id is the string's slug
  (``neurips-2019-12``), so spellings that differ only by case, spaces or punctuation are one
  proceeding, named by the spelling most of its papers give (then the first in code-point order).
* In that name, the words before the first word of four digits (never the first word) name its
  **conference**; that word is its ``year``, and the word after it its ``month`` when it is a
  whole number from 1 to 12 (the archive writes ``NeurIPS 2019 12``). A name with no such year
  is a conference of its own, with no year or month (null: the data does not give them).
* A conference's id is its name's slug; its name is the spelling most of its papers give.

The archive's own ``conference`` field is not used: it holds the paper's slug on the
conference's site (``gpipe-efficient-training-of-giant-neural-1``), not a conference.

Everything comes from one grouped read of the papers, remembered per data version
(``catalogue.memo``). The site's proceeding pages and the API's conferences both read it. The
map and the list of conferences are also kept in each process's memory for the data version
(3,893 proceedings at archive size: unpickled from the shared cache they cost more than the
page), and one conference or proceeding has a remembered entry of its own.
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from django.db.models import Count
from django.http import Http404
from django.utils.text import slugify

from catalogue import memo
from catalogue.models import Paper

_YEAR = re.compile(r"[0-9]{4}")
_MONTH = re.compile(r"[0-9]{1,2}")


@dataclass(frozen=True)
class Proceeding:
    id: str
    name: str  # the spelling most of its papers give
    spellings: tuple[str, ...]  # every ``Paper.proceeding`` string it gathers
    conference: str  # the conference's id
    year: int | None
    month: int | None
    n_papers: int


@dataclass(frozen=True)
class Conference:
    id: str
    name: str
    proceedings: tuple[Proceeding, ...]  # in id order


@dataclass(frozen=True)
class ConferenceSummary:
    """What the list of conferences shows of one: no proceedings, their number and span."""

    id: str
    name: str
    n_proceedings: int
    n_papers: int
    first_year: int | None
    last_year: int | None


def slug(name: str) -> str:
    """An id from a name: Django's slug (letters of any script kept), ``unnamed`` if none is left."""
    return slugify(name, allow_unicode=True) or "unnamed"


def parts(name: str) -> tuple[str, int | None, int | None]:
    """(conference name, year, month) that a proceeding's name gives, as the module says."""
    words = name.split()
    for i in range(1, len(words)):
        if _YEAR.fullmatch(words[i]):
            after = words[i + 1] if i + 1 < len(words) else ""
            month = int(after) if _MONTH.fullmatch(after) and 1 <= int(after) <= 12 else None
            return " ".join(words[:i]), int(words[i]), month
    return " ".join(words), None, None


def _most_given(counts: dict[str, int]) -> str:
    return min(counts, key=lambda spelling: (-counts[spelling], spelling))


def derive(named: Iterable[tuple[str, int]]) -> dict[str, Conference]:
    """Conferences by id, in id order, from (proceeding string, number of papers) pairs."""
    spellings: dict[str, dict[str, int]] = defaultdict(dict)
    for name, n in named:
        if name.split():
            spellings[slug(name)][name] = n
    proceedings: dict[str, list[Proceeding]] = defaultdict(list)
    conference_names: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pid, counts in spellings.items():
        name = _most_given(counts)
        conference, year, month = parts(name)
        cid, n_papers = slug(conference), sum(counts.values())
        proceedings[cid].append(Proceeding(pid, name, tuple(sorted(counts)), cid, year, month, n_papers))
        conference_names[cid][conference] += n_papers
    return {
        cid: Conference(cid, _most_given(conference_names[cid]), tuple(sorted(rows, key=attrgetter("id"))))
        for cid, rows in sorted(proceedings.items())
    }


def conferences() -> dict[str, Conference]:
    """Every conference, from one grouped read of the papers' proceedings (remembered)."""
    return memo.remember_in_process("conferences", lambda: memo.remember("conferences", None, _conferences))


def _conferences() -> dict[str, Conference]:
    named = Paper.objects.exclude(proceeding="").values_list("proceeding").annotate(n=Count("id")).order_by()
    return derive(named)


def summaries() -> list[ConferenceSummary]:
    """Every conference in id order, without its proceedings (remembered)."""
    return memo.remember_in_process("conference_summaries", _summaries)


def _summaries() -> list[ConferenceSummary]:
    rows = []
    for c in conferences().values():
        years = [p.year for p in c.proceedings if p.year is not None]
        n_papers = sum(p.n_papers for p in c.proceedings)
        first, last = (min(years), max(years)) if years else (None, None)
        rows.append(ConferenceSummary(c.id, c.name, len(c.proceedings), n_papers, first, last))
    return rows


def conference(conference_id: str) -> Conference:
    found = memo.remember("conference", conference_id, lambda: conferences().get(conference_id))
    if found is None:
        raise Http404(f"No conference {conference_id!r}")
    return found


def proceeding(conference: Conference, proceeding_id: str) -> Proceeding:
    found = next((p for p in conference.proceedings if p.id == proceeding_id), None)
    if found is None:
        raise Http404(f"No proceeding {proceeding_id!r} of {conference.id}")
    return found


def proceeding_by_id(proceeding_id: str) -> Proceeding:
    """The proceeding with this id, whatever its conference, or 404."""
    found = memo.remember("proceeding", proceeding_id, lambda: _find_proceeding(proceeding_id))
    if found is None:
        raise Http404(f"No proceeding {proceeding_id!r}")
    return found


def _find_proceeding(proceeding_id: str) -> Proceeding | None:
    for found in conferences().values():
        for p in found.proceedings:
            if p.id == proceeding_id:
                return p
    return None
