"""Set-based merge of the staging tables into the catalogue's tables, in one transaction.

The steps, in dependency order: documents; one identity for every name and paper
(``resolve``); the things rows refer to (``vocabularies``); papers (``papers``); the rows
papers hold (``rows``); curators' corrections a corrections document restores
(``corrections``); then the search index and the stored sort counts. ``sql`` holds
the building blocks every step shares: winners per natural key and stamp group, and the upsert.

What no step can settle (one address claimed by two things) is a :class:`Clashes`, raised at
the end with every clash of the load, so that the caller can report them all, or skip the
documents and records involved and merge again.
"""

from dataclasses import dataclass, field

from catalogue import counters, search
from catalogue.loader.merge import corrections, papers, resolve, rows, sql, summary, vocabularies
from catalogue.loader.merge.resolve import Clash
from catalogue.loader.merge.sql import Counts

__all__ = ["Clash", "Clashes", "Report", "merge_all"]


class Clashes(Exception):
    """The load's unsettled clashes; nothing it merged stands (the transaction is rolled back)."""

    def __init__(self, clashes: list[Clash]):
        self.clashes = sorted(clashes, key=lambda c: c.message)
        super().__init__("; ".join(c.message for c in self.clashes))

    @property
    def units(self) -> set[tuple[str, int]]:
        return set().union(*(c.units for c in self.clashes))

    def files(self) -> list[str]:
        """Every file involved (read from the staging tables, which outlive the rolled-back merge)."""
        return resolve.files_of(self.units)


@dataclass
class Report:
    counts: dict[str, Counts] = field(default_factory=dict)
    warnings: list = field(default_factory=list)  # LoadWarning, or plain text (kind "other")
    collapsed_results: int = 0  # staged result rows identical to another, so one with it
    by_source: dict[str, dict[str, int]] = field(default_factory=dict)  # ``summary.by_source``

    def add(self, label: str, counts: Counts):
        total = self.counts.setdefault(label, Counts())
        for k in ("created", "updated", "unchanged", "deleted"):
            setattr(total, k, getattr(total, k) + getattr(counts, k))


def merge_all(load_run_id: int | None) -> Report:
    with sql.merge_memory():
        return _merge_all(load_run_id)


def _merge_all(load_run_id: int | None) -> Report:
    report, clashes = Report(), []
    report.add("SourceDocument", vocabularies.documents(load_run_id))
    report.warnings += resolve.names_to_slugs()
    resolve.fold_paper_keys()
    report.warnings += resolve.fold_by_title()
    report.add("Repo", vocabularies.repos())
    report.add("Area", vocabularies.areas())
    report.add("MethodCollection", vocabularies.collections())
    for label, step in (
        ("Task", vocabularies.tasks),
        ("Method", vocabularies.methods),
        ("Dataset", vocabularies.datasets),
    ):
        counts, aliases = step()
        report.add(label, counts)
        report.warnings += aliases
    report.add("CodeBody", vocabularies.bodies(clashes))
    report.add("CodeEntry", vocabularies.entries(clashes))
    report.add("Leaderboard", vocabularies.leaderboards(clashes))
    report.add("Paper", papers.papers(clashes))
    papers.relations()
    papers.introduced_in()
    report.add("Author", papers.authors())
    report.add("CodeLink", rows.repo_links("code_link"))
    report.add("HarvestedRepo", rows.repo_links("harvested_repo"))
    counts, report.collapsed_results = rows.results()
    report.add("Result", counts)
    vocabularies.columns_cover_results()
    report.add("Sample", rows.samples())
    if clashes:
        raise Clashes(clashes)
    counts, not_restored = corrections.corrections()
    report.add("Correction", counts)
    report.warnings += not_restored
    report.by_source = summary.by_source()
    _reindex_search()
    # Any row written or deleted can move a stored count (a links dump alone moves papers' code
    # link counts; a tables dump alone, boards' results); a reload that changed nothing skips it.
    if any(c.created or c.updated or c.deleted for c in report.counts.values()):
        counters.refresh()
    return report


def _reindex_search():
    """Rewrite the search rows of every paper, entry and repository this load touched."""
    touched = "SELECT target_id FROM {w} WHERE created = 1 OR changed = 1 OR applied = 1"
    for kind, w in (("paper", "w_paper"), ("entry", "w_entry"), ("repo", "w_repo")):
        search.reindex(kind, ids_sql=touched.format(w=w))
