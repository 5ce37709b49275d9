"""Leaderboards (a task × dataset table) and their result rows."""

from django.db import models
from django.urls import reverse

from catalogue.models.base import related_exists
from catalogue.models.papers import Paper
from catalogue.models.provenance import Harvested
from catalogue.models.taxonomy import Dataset, Task


class LeaderboardQuerySet(models.QuerySet):
    def with_results_of(self, paper):
        return self.filter(related_exists(Leaderboard, "results", paper=paper))


class Leaderboard(Harvested):
    """A task × dataset pair (PwC's ``/sota/<task>-on-<dataset>``)."""

    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="leaderboards")
    dataset = models.ForeignKey(Dataset, on_delete=models.PROTECT, related_name="leaderboards")
    slug = models.CharField(max_length=600, unique=True)
    # The table's metric columns in the table's order (``sota.metrics``): the first quality
    # metric ranks it. Empty where no table stated them (the seed format's results).
    metrics = models.JSONField(default=list, blank=True)
    description = models.TextField(blank=True)  # what the table says of its dataset
    table_stamp = models.CharField(max_length=100, blank=True, editable=False)  # the two above
    # Its result rows, kept by ``counters.refresh()`` after every load (only a load changes
    # results): a task's and a dataset's boards are listed most results first, a page at a time.
    n_results = models.PositiveIntegerField(db_default=0, editable=False)

    objects = LeaderboardQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "dataset"], name="leaderboard_unique_task_dataset")
        ]
        indexes = [
            models.Index(fields=["task", "-n_results", "slug"], name="board_of_task_by_results"),
            models.Index(fields=["dataset", "-n_results", "slug"], name="board_of_dataset_by_results"),
        ]

    def __str__(self):
        return self.slug

    def get_absolute_url(self):
        return reverse("leaderboard", args=[self.slug])


class Result(Harvested):
    """One row of a leaderboard, as a table or a paper document gives it.

    Identity: (leaderboard, ``row_key``), a digest of what makes the row this row (its paper or,
    without one, the title and URL it names; the model; the metrics; additional data). Rows
    that differ in any of those are distinct results, so two settings of one model on one
    board are two rows; identical rows (one table listed under two names) are one. A row
    need not have a paper: a competition entry names only its model.
    """

    paper = models.ForeignKey(Paper, null=True, blank=True, on_delete=models.CASCADE, related_name="results")
    leaderboard = models.ForeignKey(Leaderboard, on_delete=models.CASCADE, related_name="results")
    row_key = models.CharField(max_length=32)
    model = models.CharField(max_length=500)
    rank_in_archive_order = models.PositiveIntegerField(null=True, blank=True)
    of = models.PositiveIntegerField(null=True, blank=True)
    metrics = models.JSONField(default=dict)  # name -> value as given ("84.4%")
    uses_additional_data = models.BooleanField(null=True)
    # What the row itself says of its paper (shown where it names no paper of the catalogue).
    paper_title = models.TextField(blank=True)
    paper_url = models.URLField(max_length=1000, blank=True)
    paper_date = models.DateField(null=True, blank=True)
    code_links = models.JSONField(default=list, blank=True)  # [{title, url}] as the table gives them
    model_links = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["leaderboard", "paper", "row_key"], name="result_unique_board_row"
            ),
            # NULLs are distinct in a unique index: rows without a paper need one of their own.
            models.UniqueConstraint(
                fields=["leaderboard", "row_key"],
                condition=models.Q(paper__isnull=True),
                name="result_unique_board_row_without_paper",
            ),
        ]
        indexes = [models.Index(fields=["paper"])]

    def __str__(self):
        return f"{self.model} on {self.leaderboard}"


class ResultSource(models.Model):
    """One source that states a result row (a paper document, an evaluation-tables dump): one
    row whichever sources give it, kept while any of them states it."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="sources")
    document = models.ForeignKey("SourceDocument", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["result", "document"], name="resultsource_unique")]
        indexes = [models.Index(fields=["document"], name="resultsource_by_document")]

    def __str__(self):
        return f"{self.result} from {self.document}"
