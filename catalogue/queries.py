"""Reads shared by pages, API and admin, and the one place the catalogue's figures are computed.

Every figure of SNAPSHOT-FORMAT.md is derived here from the sample rows, never copied
from a document, so a corrected status moves every figure that depends on it.
Units: ``n_samples``, ``n_samples_ran``, ``n_samples_fingerprinted`` and ``by_status``
count distinct code bodies; ``n_places`` and ``n_places_pointer_only`` count places
(sample rows); a body with places in several statuses counts under each status.
"""

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from catalogue import identities
from catalogue.models import CodeEntry, Paper, PaperSlug, Sample, Status

RAN = ~Q(status=Status.UNVERIFIED)


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

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _figure_aggregates(prefix: str = "") -> dict:
    body, paper, place = f"{prefix}body", f"{prefix}paper", f"{prefix}id"

    def q(**kwargs):
        return Q(**{f"{prefix}{k}": v for k, v in kwargs.items()})

    ran = ~q(status=Status.UNVERIFIED)
    aggregates = {
        "n_places": Count(place),
        "n_places_pointer_only": Count(place, filter=q(inline_ok=False)),
        "n_samples": Count(body, distinct=True),
        "n_samples_fingerprinted": Count(body, distinct=True, filter=q(behaviour_fingerprint=True)),
        "n_papers": Count(paper, distinct=True),
        "n_papers_ran": Count(paper, distinct=True, filter=ran),
        "n_places_corrected": Count(place, filter=q(status_corrected=True)),
    }
    for status in Status:
        aggregates[f"by_status_{status.value}"] = Count(body, distinct=True, filter=q(status=status))
    return aggregates


def _figures_from_row(row: dict) -> SampleFigures:
    by_status = {s.value: row[f"by_status_{s.value}"] or 0 for s in Status}
    return SampleFigures(
        n_places=row["n_places"] or 0,
        n_places_pointer_only=row["n_places_pointer_only"] or 0,
        n_samples=row["n_samples"] or 0,
        n_samples_ran=sum(v for k, v in by_status.items() if k != Status.UNVERIFIED),
        n_samples_fingerprinted=row["n_samples_fingerprinted"] or 0,
        n_papers=row["n_papers"] or 0,
        n_papers_ran=row["n_papers_ran"] or 0,
        by_status=by_status,
        n_places_corrected=row["n_places_corrected"] or 0,
    )


def sample_figures(samples: QuerySet[Sample]) -> SampleFigures:
    """The figures of any set of places, in one query."""
    return _figures_from_row(samples.aggregate(**_figure_aggregates()))


def code_entry_figures(entry: CodeEntry) -> SampleFigures:
    return sample_figures(Sample.objects.filter(entry=entry))


def code_entry_figures_for(entries) -> dict[int, SampleFigures]:
    """Figures for many entries in one grouped query (list pages, API lists)."""
    ids = [e.pk for e in entries]
    rows = (
        Sample.objects.filter(entry_id__in=ids).values("entry_id").annotate(**_figure_aggregates()).order_by()
    )
    found = {row["entry_id"]: _figures_from_row(row) for row in rows}
    empty = _figures_from_row(dict.fromkeys(_figure_aggregates(), 0))
    return {pk: found.get(pk, empty) for pk in ids}


def catalogue_figures() -> SampleFigures:
    return sample_figures(Sample.objects.all())


@dataclass(frozen=True)
class PaperFigures:
    """A paper's Syntology figures, as its document states them (units: distinct bodies)."""

    samples: SampleFigures
    summary: dict[str, int]  # status -> samples, zero statuses left out
    by_repo_kind: dict[str, dict[str, int]]  # kind -> {samples, ran, repositories}
    n_pointer_only_for_licence: int


def paper_figures(paper: Paper) -> PaperFigures:
    samples = Sample.objects.filter(paper=paper)
    figures = sample_figures(samples)
    kinds = (
        samples.values("repo_kind")
        .annotate(
            n_samples=Count("body", distinct=True),
            n_ran=Count("body", distinct=True, filter=RAN),
            n_repositories=Count("repo", distinct=True),
        )
        .order_by("repo_kind")
    )
    by_repo_kind = {
        (row["repo_kind"] or "unknown"): {
            "samples": row["n_samples"],
            "ran": row["n_ran"],
            "repositories": row["n_repositories"],
        }
        for row in kinds
    }
    pointer_only = samples.filter(inline_ok=False).values("body").distinct().count()
    return PaperFigures(
        samples=figures,
        summary={k: v for k, v in figures.by_status.items() if v},
        by_repo_kind=by_repo_kind,
        n_pointer_only_for_licence=pointer_only,
    )


def paper_by_address(slug: str) -> tuple[Paper, bool]:
    """The paper at ``/paper/<slug>`` and whether ``slug`` is its current address.

    Any slug the paper was ever published under finds it, and so does
    ``arxiv-<id with dots as dashes>``; callers redirect when the second value is False.
    """
    paper = Paper.objects.filter(slug=slug).first()
    if paper:
        return paper, True
    old = PaperSlug.objects.select_related("paper").filter(slug=slug).first()
    if old:
        return old.paper, False
    arxiv_id = identities.arxiv_id_from_slug(slug)
    if arxiv_id and (paper := Paper.objects.filter(arxiv_id=arxiv_id).first()):
        return paper, False
    raise Http404(f"No paper at /paper/{slug}")
