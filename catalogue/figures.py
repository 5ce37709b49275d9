"""The catalogue's figures: each defined once, here, and computed from that definition three ways.

docs/SNAPSHOT-FORMAT.md defines a code-entry document's figures (``n_places``, ``by_status``, …) and
a paper document's (``summary``, ``by_repo_kind``, …) over its place rows. Each is written
below once, as what it counts (:class:`Count`: distinct code bodies, papers or repositories, or
place rows) among the places passing a condition (:class:`Condition`), or as a sum of other
figures (:class:`Sum`). From that one definition:

* :func:`aggregates` gives the ORM's aggregates: the figures of any set of places the pages,
  API, admin and export show, computed from the rows so that a corrected status moves every
  figure at once;
* :func:`sql` gives the same figure in SQL, for the sort counts ``catalogue.counters`` stores
  and the figures of many entries or papers at once (:func:`grouped_by`);
* :func:`compute` gives it in Python over a document's own rows, which the loader compares
  with what the document states, as ``dump_snapshot`` states them.

Units: ``n_samples``, ``n_samples_ran``, ``n_samples_fingerprinted`` and ``by_status`` count
distinct code bodies; ``n_places`` and ``n_places_pointer_only`` count places (sample rows);
a body with places in several statuses counts under each status. What counts as *ran* is
``Status.ran_values()``, read when a figure is computed.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db import connections, router
from django.db.models import Count as CountAggregate
from django.db.models import Q, QuerySet

from catalogue import memo
from catalogue.models import CodeEntry, Paper, Repo, Sample, Status

# --- the definitions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """A place passes when its ``field`` holds one of ``values()`` (read each time a figure is
    computed: never stale)."""

    field: str
    values: Callable[[], Iterable]

    def q(self, prefix: str = "") -> Q:
        return Q(**{f"{prefix}{self.field}__in": list(self.values())})

    def sql(self, alias: str) -> str:
        return f"{alias}.{self.field} IN ({', '.join(_literal(v) for v in self.values())})"

    def tester(self) -> Callable[[Mapping], bool]:
        """Whether a place passes, with ``values()`` read once, now: for one pass over many places."""
        field, values = self.field, tuple(self.values())
        return lambda place: place[field] in values


RAN = Condition("status", lambda: Status.ran_values())  # looked up each time, never bound early
POINTER_ONLY = Condition("inline_ok", lambda: (False,))
FINGERPRINTED = Condition("behaviour_fingerprint", lambda: (True,))
CORRECTED = Condition("status_corrected", lambda: (True,))


def status_is(status: str) -> Condition:
    return Condition("status", lambda: (status,))


# What a figure counts: the column of a place that names it (None for the place row itself).
UNITS = {"place": None, "body": "body", "paper": "paper", "repo": "repo"}


@dataclass(frozen=True)
class Count:
    """Distinct ``unit``s (bodies, papers, repositories) among the places passing ``where``;
    for ``unit="place"``, the place rows themselves."""

    unit: str
    where: Condition | None = None


@dataclass(frozen=True)
class Sum:
    """The sum of other figures, by name."""

    parts: Callable[[], list[str]]


def by_status_name(status: str) -> str:
    return f"by_status_{status}"


def definitions(*, curated: bool = True) -> dict[str, Count | Sum]:
    """Every figure of a set of places, in docs/SNAPSHOT-FORMAT.md's order (``by_status_<s>`` per status).

    ``curated`` adds the one figure that is not the format's: how many places a curator corrected.
    """
    figures = {
        "n_places": Count("place"),
        "n_places_pointer_only": Count("place", POINTER_ONLY),
        "n_samples": Count("body"),
        **{by_status_name(s): Count("body", status_is(s)) for s in Status.values},
        "n_samples_ran": Sum(lambda: [by_status_name(s) for s in RAN.values()]),
        "n_papers": Count("paper"),
        "n_papers_ran": Count("paper", RAN),
        "n_samples_fingerprinted": Count("body", FINGERPRINTED),
    }
    if curated:
        figures["n_places_corrected"] = Count("place", CORRECTED)
    return figures


# A paper document's ``by_repo_kind``: these, per repository kind of its places.
def repo_kind_definitions() -> dict[str, Count]:
    return {"samples": Count("body"), "ran": Count("body", RAN), "repositories": Count("repo")}


# Of the bodies that ran, those whose status is a failure of the instrument, not of the code.
INSTRUMENT_FAILURE_BODIES = Count("body", Condition("status", lambda: Status.instrument_failures()))
# A paper document's ``n_pointer_only_for_licence``: bodies, not places.
POINTER_ONLY_BODIES = Count("body", POINTER_ONLY)
# Rows without a repository kind are counted under this name in ``by_repo_kind``.
UNKNOWN_KIND = "unknown"


# --- the three ways of computing them ----------------------------------------------------------


def aggregates(prefix: str = "", figures: dict | None = None) -> dict:
    """The ORM aggregates of every :class:`Count` figure; ``prefix`` reaches places through a relation."""
    figures = definitions() if figures is None else figures
    out = {}
    for name, figure in figures.items():
        if isinstance(figure, Count):
            unit = UNITS[figure.unit] or "id"
            where = {"filter": figure.where.q(prefix)} if figure.where else {}
            out[name] = CountAggregate(f"{prefix}{unit}", distinct=figure.unit != "place", **where)
    return out


def sql(name: str, alias: str = "s") -> str:
    """One figure as a SQL expression over the places ``alias`` (a ``catalogue_sample`` alias)."""
    figure = definitions()[name]
    if isinstance(figure, Sum):
        return " + ".join(sql(part, alias) for part in figure.parts())
    column = f"{alias}.{UNITS[figure.unit] + '_id' if UNITS[figure.unit] else 'id'}"
    counted = f"CASE WHEN {figure.where.sql(alias)} THEN {column} END" if figure.where else column
    return f"COUNT({'' if figure.unit == 'place' else 'DISTINCT '}{counted})"


def compute(places: Iterable[Mapping], figures: dict | None = None) -> dict[str, int]:
    """Every figure of the format over place rows given as mappings (a document's own rows):
    ``body``, ``paper``, ``repo`` (None if none) and the fields the conditions test (``status``,
    ``inline_ok``, ``behaviour_fingerprint``); in the order of the definitions."""
    figures = definitions(curated=False) if figures is None else figures
    if isinstance(places, Iterator):  # read once per figure: a collection may make them anew
        places = list(places)
    values: dict[str, int] = {}
    for name, figure in figures.items():
        if isinstance(figure, Count):
            # A generator, not a list: a document's places can be a million (loader.streaming).
            # Each condition's values are read once per figure, not once per place.
            passing = places if figure.where is None else filter(figure.where.tester(), places)
            if figure.unit == "place":
                values[name] = sum(1 for _ in passing)
            else:
                unit = figure.unit
                values[name] = len({p[unit] for p in passing if p[unit] is not None})
    for name, figure in figures.items():
        if isinstance(figure, Sum):
            values[name] = sum(values[part] for part in figure.parts())
    return {name: values[name] for name in figures}


def stated_entry_figures(places: Iterable[Mapping]) -> dict:
    """What a code-entry document states of its places: each figure, and ``by_status`` as a map."""
    values = compute(places)
    by_status = {s: values.pop(by_status_name(s)) for s in Status.values}
    return {**values, "by_status": by_status}


def _literal(value) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"  # SQLite ≥ 3.23 reads these too
    return "'" + str(value).replace("'", "''") + "'"


# --- figures of sets of places ------------------------------------------------------------------


@dataclass(frozen=True)
class SampleFigures:
    n_places: int
    n_places_pointer_only: int
    n_samples: int
    n_samples_ran: int
    n_samples_fingerprinted: int
    n_papers: int
    n_papers_ran: int
    by_status: dict[str, int]  # every status, zeros included
    n_places_corrected: int = 0  # places whose status a curator corrected (figures include them)

    @classmethod
    def of(cls, values: Mapping[str, int | None]) -> "SampleFigures":
        """From computed figures (aggregated counts may be None over no rows: 0)."""
        values = dict(values)
        for name, figure in definitions().items():
            if isinstance(figure, Sum):
                values[name] = sum(values.get(part) or 0 for part in figure.parts())
        return cls(
            by_status={s: values.get(by_status_name(s)) or 0 for s in Status.values},
            **{name: values.get(name) or 0 for name in cls.__dataclass_fields__ if name != "by_status"},
        )

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    @property
    def n_samples_ran_instrument_failures(self) -> int:
        """Of ``n_samples_ran``, the bodies whose status is a failure of the instrument, not of the code."""
        return sum(self.by_status.get(s, 0) for s in Status.instrument_failures())

    @property
    def ran_words(self) -> str:
        """'240 ran, 109 of them instrument failures': every sentence that counts "ran" says so."""
        return ran_words(self.n_samples_ran, self.n_samples_ran_instrument_failures)


def ran_words(n_ran: int, n_failures: int) -> str:
    """How many ran, and how many of those were failures of the instrument (``n_samples_ran``
    counts them: a body ran when Syntology's instrument ran it, whatever it showed)."""
    if not n_ran:
        return "0 ran"
    if not n_failures:
        return f"{n_ran:,} ran, none of them an instrument failure"
    if n_failures == n_ran == 1:
        return "1 ran, an instrument failure"
    if n_failures == 1:
        return f"{n_ran:,} ran, 1 of them an instrument failure"
    return f"{n_ran:,} ran, {n_failures:,} of them instrument failures"


EMPTY = SampleFigures.of({})


def sample_figures(samples: QuerySet[Sample]) -> SampleFigures:
    """The figures of any set of places, in one query."""
    return SampleFigures.of(samples.aggregate(**aggregates()))


def grouped_by(field: str, ids: list[int]) -> dict[int, SampleFigures]:
    """The figures of the places of each of ``ids`` (papers, entries…), in one grouped query.

    The query is :func:`sql`'s figures, written out once per call: the same definitions as the
    ORM's aggregates, without building and compiling a dozen filtered aggregate expressions per
    request (most of a code-entry page's figures, where the database's own work is the count).
    """
    if not ids:
        return {}
    db = connections[router.db_for_read(Sample)]
    names = [name for name, figure in definitions().items() if isinstance(figure, Count)]
    column = db.ops.quote_name(Sample._meta.get_field(field.removesuffix("_id")).column)
    figures = ", ".join(f"{sql(name)} AS {db.ops.quote_name(name)}" for name in names)
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT s.{column}, {figures} FROM {db.ops.quote_name(Sample._meta.db_table)} s "
            f"WHERE s.{column} IN ({', '.join(['%s'] * len(ids))}) GROUP BY s.{column}",
            list(ids),
        )
        found = {
            row[0]: SampleFigures.of(dict(zip(names, row[1:], strict=True))) for row in cursor.fetchall()
        }
    return {pk: found.get(pk, EMPTY) for pk in ids}


# The figures of an entry, a repository or the whole catalogue count thousands of places
# (``forward``: 34,000 at archive size); they are remembered per data version (catalogue.memo).


def code_entry_figures(entry: CodeEntry) -> SampleFigures:
    return code_entry_figures_for([entry])[entry.pk]


def code_entry_figures_for(entries) -> dict[int, SampleFigures]:
    """Figures for many entries in one grouped query (list pages, API lists)."""
    return memo.remember_many(
        "entry_figures", [e.pk for e in entries], lambda ids: grouped_by("entry_id", ids)
    )


def paper_sample_figures_for(papers) -> dict[int, SampleFigures]:
    """Each paper's sample figures (as ``paper_figures(p).samples``), in one grouped query."""
    return grouped_by("paper_id", [p.pk for p in papers])


def repo_figures(repo: Repo) -> SampleFigures:
    return memo.remember("repo_figures", repo.pk, lambda: sample_figures(repo.samples.all()))


def catalogue_figures() -> SampleFigures:
    return memo.remember("catalogue_figures", None, lambda: sample_figures(Sample.objects.all()))


# --- a paper's figures, as its document states them --------------------------------------------


@dataclass(frozen=True)
class PaperFigures:
    """A paper's Syntology figures, as its document states them (units: distinct bodies)."""

    samples: SampleFigures
    summary: dict[str, int]  # status -> samples, zero statuses left out
    by_repo_kind: dict[str, dict[str, int]]  # kind -> {samples, ran, repositories}
    n_pointer_only_for_licence: int
    # kind -> its "ran" in words, with the instrument failures among them (:func:`ran_words`);
    # the page's, not the document's: by_repo_kind is the format's
    ran_words_by_kind: dict[str, str] = dataclass_field(default_factory=dict)


# What the definitions read of a place: the units counted and the fields conditions test.
PLACE_FIELDS = ("body", "paper", "repo", "status", "inline_ok", "behaviour_fingerprint", "status_corrected")


def place_row(sample: Sample) -> dict:
    """A place already fetched, as :func:`compute` reads it (``repo_kind`` too, for a paper's figures)."""
    return {
        "body": sample.body_id,
        "paper": sample.paper_id,
        "repo": sample.repo_id,
        "status": sample.status,
        "inline_ok": sample.inline_ok,
        "behaviour_fingerprint": sample.behaviour_fingerprint,
        "status_corrected": sample.status_corrected,
        "repo_kind": sample.repo_kind,
    }


def paper_figures(paper: Paper) -> PaperFigures:
    """A paper's figures in one query: its places' rows, counted here by the same definitions.

    A paper has a handful of places (hundreds at most), so counting them in Python costs less
    than building and compiling three aggregate queries; figures over thousands of places (an
    entry, a repository, the catalogue) stay aggregates in the database.
    """
    return paper_figures_of(Sample.objects.filter(paper=paper).values(*PLACE_FIELDS, "repo_kind"))


def paper_figures_of(places: Iterable[Mapping]) -> PaperFigures:
    """A paper's figures from its places' rows (:func:`place_row`, or ``values()`` of
    ``PLACE_FIELDS`` and ``repo_kind``): every place of the paper, no other."""
    places = list(places)
    samples = SampleFigures.of(compute(places, definitions()))
    kinds: dict[str | None, list[Mapping]] = {}
    for place in places:
        kinds.setdefault(place["repo_kind"], []).append(place)
    by_kind = repo_kind_definitions()
    return PaperFigures(
        samples=samples,
        summary=summary(samples.by_status),
        # Places without a kind first, then by kind: the order SQLite's ORDER BY gave (PostgreSQL
        # put NULL last); one order on every database now.
        by_repo_kind={
            (kind or UNKNOWN_KIND): compute(rows, by_kind)
            for kind, rows in sorted(kinds.items(), key=lambda item: (item[0] is not None, item[0] or ""))
        },
        n_pointer_only_for_licence=compute(places, {"n": POINTER_ONLY_BODIES})["n"],
        ran_words_by_kind={
            (kind or UNKNOWN_KIND): ran_words(
                compute(rows, by_kind)["ran"], compute(rows, {"n": INSTRUMENT_FAILURE_BODIES})["n"]
            )
            for kind, rows in kinds.items()
        },
    )


def summary(by_status: Mapping[str, int]) -> dict[str, int]:
    """``syntology.summary``: the statuses that occur, in the vocabulary's order."""
    return {s: by_status[s] for s in Status.values if by_status.get(s)}


def stated_paper_figures(places: Sequence[Mapping]) -> dict:
    """A paper document's ``summary``, ``by_repo_kind`` and ``n_pointer_only_for_licence`` of the
    places it lists (mappings as :func:`compute` reads them, with ``repo_kind``).

    ``by_repo_kind`` is what the format defines: per kind of the vocabulary, its places. A
    place without a kind is of none (no ``unknown`` bucket, which no document states).
    """
    kinds: dict[str, list[Mapping]] = {}
    for place in places:
        if place["repo_kind"]:
            kinds.setdefault(place["repo_kind"], []).append(place)
    values = compute(places)
    return {
        "summary": summary({s: values[by_status_name(s)] for s in Status.values}),
        "by_repo_kind": {kind: compute(rows, repo_kind_definitions()) for kind, rows in kinds.items()},
        "n_pointer_only_for_licence": compute(places, {"n": POINTER_ONLY_BODIES})["n"],
    }
