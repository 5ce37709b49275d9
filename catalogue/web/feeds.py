"""Atom feeds (Django's syndication framework): new papers, a task's new papers, a leaderboard's
results, a code entry's places.

Each feed holds its newest ``ITEMS`` entries. What "new" means follows what the data records:

* a paper is new when the catalogue first loaded it (``Paper.created_at``);
* a leaderboard result carries no load time, so its date is its paper's (or the row's own
  ``paper_date``): the feed lists the newest-dated results, which is what a reader of a
  state-of-the-art table follows;
* a place (a sample of a code entry) is dated by Syntology's reading of its document
  (``read_at``), and each version of a place is its own entry (its id holds the row's
  version), so a status that a reload or a curator changes reaches a feed reader as news.

Feed text is stripped of what XML 1.0 cannot carry (control characters; the data has them).
"""

import datetime as dt
import re

from django.contrib.syndication.views import Feed
from django.db.models import F, Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from catalogue import attribution, authors, history, reads
from catalogue.models import Author, CodeEntry, Correction, Leaderboard, LoadRun, Paper, Sample, Status, Task
from catalogue.models.corrections import attach_status_corrections

ITEMS = 50
SUMMARY_CHARS = 600
TAG = "tag:codewithpapers,2026:"  # entry ids that do not depend on the host name (RFC 4151)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value) -> str:
    """``value`` as text an XML 1.0 document can hold."""
    return _NOT_XML.sub("", str(value or ""))


def _summary(text: str) -> str:
    text = " ".join(xml_text(text).split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1].rsplit(" ", 1)[0] + "…"


def _at_midnight(date: dt.date | None) -> dt.datetime | None:
    return dt.datetime.combine(date, dt.time(), tzinfo=dt.UTC) if date else None


def _last_load():
    """When the catalogue was last loaded: the date of an entry that the data does not date."""
    run = LoadRun.objects.last_successful()
    return run.finished_at if run else None


class _AtomFeed(Feed):
    feed_type = Atom1Feed
    author_name = "Code with Papers"
    # Atom's <rights>: the licence and the full attribution notice, as every page's footer has it.
    feed_copyright = f"{attribution.LICENCE} ({attribution.LICENCE_URL}). {attribution.NOTICE}"
    item_guid_is_permalink = False

    def item_title(self, item) -> str:
        return xml_text(self.title_of(item))

    def item_updateddate(self, item):
        return item.feed_updated

    def dated(self, items: list) -> list:
        """``items``, each with the ``<updated>`` Atom requires: its own date, else the last load
        (looked up once for the feed, not once per undated entry)."""
        last_load = None
        for item in items:
            item.feed_updated = self.item_pubdate(item)
            if item.feed_updated is None:
                last_load = last_load or _last_load()
                item.feed_updated = last_load
        return items

    def title_of(self, item) -> str:
        raise NotImplementedError


class _PaperFeed(_AtomFeed):
    """Papers, newest in the catalogue first, each with its authors and abstract."""

    def papers(self, obj) -> list[Paper]:
        raise NotImplementedError

    def items(self, obj=None):
        return self.papers(obj)

    def title_of(self, paper: Paper) -> str:
        return paper.title or paper.slug

    def item_description(self, paper: Paper) -> str:
        if paper.title_corrected:  # the title shown is a curator's: say so, and what the snapshot says
            note = (
                f"[Title corrected by a curator; the snapshot says: {paper.title_upstream or '(no title)'}.] "
            )
            return _summary(note + paper.abstract)
        return _summary(paper.abstract)

    def item_link(self, paper: Paper) -> str:
        return paper.get_absolute_url()

    def item_guid(self, paper: Paper) -> str:
        return f"{TAG}/paper/{paper.pk}"  # the slug can change; the row stays

    def item_pubdate(self, paper: Paper):
        return paper.created_at

    def item_author_name(self, paper: Paper) -> str:
        return xml_text(", ".join(authors.shown(a.name for a in paper.authors.all()))) or None

    def newest(self, papers) -> list[Paper]:
        return self.dated(
            list(
                papers.order_by("-created_at", "-id").prefetch_related(
                    Prefetch("authors", queryset=Author.objects.order_by("position"))
                )[:ITEMS]
            )
        )


class NewPapersFeed(_PaperFeed):
    title = "Code with Papers: new papers"
    subtitle = "Papers as they enter the catalogue, newest first."

    def link(self):
        return reverse("paper_list")

    def papers(self, obj):
        return self.newest(Paper.objects.all())


class TaskPapersFeed(_PaperFeed):
    def get_object(self, request, slug: str):
        return get_object_or_404(Task, slug=slug)

    def title(self, task: Task) -> str:
        return xml_text(f"Code with Papers: new papers on {task.name}")

    def subtitle(self, task: Task) -> str:
        return xml_text(f"Papers on the task {task.name} as they enter the catalogue, newest first.")

    def link(self, task: Task) -> str:
        return task.get_absolute_url()

    def papers(self, task: Task):
        return self.newest(Paper.objects.on_task(task.pk))


class LeaderboardFeed(_AtomFeed):
    def get_object(self, request, slug: str):
        return get_object_or_404(Leaderboard.objects.select_related("task", "dataset"), slug=slug)

    def title(self, board: Leaderboard) -> str:
        return xml_text(f"Code with Papers: results on {board.task.name} on {board.dataset.name}")

    def subtitle(self, board: Leaderboard) -> str:
        return "Results on this leaderboard, the newest paper first."

    def link(self, board: Leaderboard) -> str:
        return board.get_absolute_url()

    def items(self, board: Leaderboard):
        return self.dated(
            list(
                board.results.select_related("paper")
                .annotate(dated=reads.leaderboards.result_date())
                .order_by(F("dated").desc(nulls_last=True), "-id")[:ITEMS]
            )
        )

    def title_of(self, result) -> str:
        return f"{result.model} ({reads.leaderboards.result_source(result)})"

    def item_description(self, result) -> str:
        metrics = result.metrics or {}
        return xml_text(
            "; ".join(f"{name}: {value}" for name, value in metrics.items() if isinstance(name, str))
        )

    def item_link(self, result) -> str:
        return result.paper.get_absolute_url() if result.paper else result.leaderboard.get_absolute_url()

    def item_guid(self, result) -> str:
        return f"{TAG}{result.leaderboard.get_absolute_url()}#result-{result.row_key}"

    def item_pubdate(self, result):
        return _at_midnight(result.dated)


class CodeEntryFeed(_AtomFeed):
    def get_object(self, request, slug: str):
        return get_object_or_404(CodeEntry, slug=slug)

    def title(self, entry: CodeEntry) -> str:
        return xml_text(f"Code with Papers: places of {entry.name}")

    def subtitle(self, entry: CodeEntry) -> str:
        return "Each place of this routine name, newest reading first; a changed status is a new entry."

    def link(self, entry: CodeEntry) -> str:
        return entry.get_absolute_url()

    def items(self, entry: CodeEntry):
        places = list(
            Sample.objects.filter(entry=entry)
            .select_related("paper", "repo", "body", "document", "entry")
            .defer("body__code")  # an entry's feed never carries code
            .order_by(F("document__read_at").desc(nulls_last=True), "-id")[:ITEMS]
        )
        attach_status_corrections(places)
        return self.dated(places)

    def title_of(self, sample: Sample) -> str:
        corrected = " (corrected by a curator)" if sample.status_corrected else ""
        return f"{sample.paper.title or sample.paper.slug}: {Status(sample.status).label}{corrected}"

    def item_description(self, sample: Sample) -> str:
        where = sample.repo.full_name if sample.repo else "no repository"
        path = sample.path or "no path"
        text = f"{sample.entry.name} in {where}, {path}; code body {sample.body.sha256_prefix}."
        if correction := getattr(sample, "status_correction", None):
            text += f" {history.status_note(correction, sample.status_upstream)}"
        return xml_text(text)

    def item_link(self, sample: Sample) -> str:
        return sample.paper.get_absolute_url()

    def item_guid(self, sample: Sample) -> str:
        return f"{TAG}{sample.entry.get_absolute_url()}#place-{sample.pk}-v{sample.version}"

    def item_pubdate(self, sample: Sample):
        return sample.document.read_at if sample.document else None


class CorrectionsFeed(_AtomFeed):
    """Every correction, newest first; a removal updates its entry (``<updated>``)."""

    title = "Code with Papers: corrections"
    subtitle = "Curators' corrections of titles and statuses, with the snapshot's value and the reason."

    def link(self):
        return reverse("corrections")

    def items(self):
        corrections = list(Correction.objects.for_listing()[:ITEMS])
        for c in corrections:
            c.feed_updated = c.removed_at or c.created_at
        return corrections

    def title_of(self, c: Correction) -> str:
        state = "" if c.active else (" (superseded)" if c.superseded else " (removed)")
        if c.paper_id:
            return f"Title corrected: {c.value}{state}"
        return (
            f"Status corrected: {c.sample.entry.name} in {c.sample.paper.title or c.sample.paper.slug}{state}"
        )

    def item_description(self, c: Correction) -> str:
        return xml_text(history.describe(c))

    def item_link(self, c: Correction) -> str:
        return f"{reverse('corrections')}?paper={c.target_paper.slug}#correction-{c.pk}"

    def item_guid(self, c: Correction) -> str:
        return f"{TAG}/corrections/{c.pk}"

    def item_pubdate(self, c: Correction):
        return c.created_at

    def item_author_name(self, c: Correction) -> str:
        return c.by
