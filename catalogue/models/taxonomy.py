"""The archive's vocabularies: areas, tasks (a tree), method collections, methods and datasets.

Each is identified by its slug, the address Papers with Code gave it. Names that differ only
by case, spaces or punctuation give the same slug and so are one thing: the name shown is the
winning spelling, the others are kept in ``aliases`` (the loader reports them).
"""

from django.db import connection, models
from django.db.models.functions import Coalesce
from django.urls import reverse

from catalogue.models.base import list_holds, related_exists, words_in
from catalogue.models.provenance import Harvested


class NamedQuerySet(models.QuerySet):
    """What every vocabulary (areas, tasks, methods, datasets) is searched by."""

    name_fields: tuple[str, ...] = ("name", "slug")

    def named_like(self, words: list[str]):
        """Rows in whose name (or id) every word occurs (``catalogue.search.words`` splits a query)."""
        return self.filter(words_in(words, *self.name_fields))


class FullNamedQuerySet(NamedQuerySet):
    name_fields = ("name", "full_name", "slug")


class DatasetQuerySet(FullNamedQuerySet):
    def with_modality(self, modality: str):
        return self.filter(list_holds("modalities", modality))

    def in_language(self, language: str):
        return self.filter(list_holds("languages", language))

    def of_task(self, task_id: int | None):
        """Datasets of the task with this id: named so by the dataset, or with a leaderboard of it."""
        named = Dataset.tasks.through.objects.filter(dataset=models.OuterRef("pk"), task=task_id)
        return self.filter(models.Exists(named) | related_exists(Dataset, "leaderboards", task=task_id))


class Area(Harvested):
    """A research area (Computer Vision, Natural Language Processing…): a task's categories."""

    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)

    objects = NamedQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("area", args=[self.slug])


MAX_TASK_DEPTH = 100  # the real task tree is a few levels deep; a longer chain is a cycle


class Task(Harvested):
    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)
    description = models.TextField(blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="subtasks"
    )
    areas = models.ManyToManyField(Area, related_name="tasks", blank=True)
    synonyms = models.JSONField(default=list, blank=True)
    source_link = models.JSONField(null=True, blank=True)  # {title, url}
    aliases = models.JSONField(default=list, blank=True)
    detail_stamp = models.CharField(max_length=100, blank=True, editable=False)
    # What /tasks/, /sota/ and area pages sort and show, kept by catalogue.counters: counting
    # 1.2 million paper-task rows per request cost 270 ms at archive size.
    n_papers = models.PositiveIntegerField(db_default=0, editable=False)
    n_leaderboards = models.PositiveIntegerField(db_default=0, editable=False)

    objects = NamedQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        indexes = [
            models.Index(fields=["-n_papers", "slug"], name="task_by_papers"),
            models.Index(fields=["-n_leaderboards", "slug"], name="task_by_leaderboards"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("task", args=[self.slug])

    def ancestors(self) -> list["Task"]:
        """The task's parent, its parent's parent… up to the root, nearest first, in two queries.

        One recursive query walks the chain (bounded: a cycle in the data cannot run forever),
        cut at the first task seen twice, so a cycle lists each of its tasks once and never the
        task itself.
        """
        table = connection.ops.quote_name(Task._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH RECURSIVE chain (id, depth) AS ("
                f" SELECT parent_id, 1 FROM {table} WHERE id = %s AND parent_id IS NOT NULL"
                f" UNION ALL"
                f" SELECT t.parent_id, c.depth + 1 FROM {table} t JOIN chain c ON t.id = c.id"
                f" WHERE t.parent_id IS NOT NULL AND c.depth < %s"
                f") SELECT id FROM chain ORDER BY depth",
                [self.pk, MAX_TASK_DEPTH],
            )
            chain, seen = [], {self.pk}
            for (pk,) in cursor.fetchall():
                if pk in seen:
                    break
                chain.append(pk)
                seen.add(pk)
        by_pk = Task.objects.in_bulk(chain) if chain else {}
        return [by_pk[pk] for pk in chain if pk in by_pk]


class MethodCollection(Harvested):
    """A collection methods belong to (Convolutional Neural Networks, Optimization…)."""

    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)
    area = models.ForeignKey(
        Area, null=True, blank=True, on_delete=models.SET_NULL, related_name="collections"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


# The methods dump's "not known" year: 1,866 of its 1,924 methods say 2000 (docs/PWC-ARCHIVE.md
# calls it a placeholder). The loader keeps it as given; pages show no year for it.
PLACEHOLDER_INTRODUCED_YEAR = 2000


class Method(Harvested):
    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)
    full_name = models.CharField(max_length=1000, blank=True)
    description = models.TextField(blank=True)  # markdown, as the archive gives it
    introduced_year = models.PositiveSmallIntegerField(null=True, blank=True)
    source_url = models.URLField(max_length=1000, blank=True)
    source_title = models.TextField(blank=True)
    code_snippet_url = models.URLField(max_length=1000, blank=True)
    num_papers = models.PositiveIntegerField(null=True, blank=True)  # as the archive counted them
    # The paper methods.json says introduced it; a paper document says so in its methods_introduced.
    introduced_in = models.ForeignKey(
        "Paper", null=True, blank=True, on_delete=models.SET_NULL, related_name="methods_introduced_here"
    )
    collections = models.ManyToManyField(MethodCollection, related_name="methods", blank=True)
    aliases = models.JSONField(default=list, blank=True)
    detail_stamp = models.CharField(max_length=100, blank=True, editable=False)

    objects = FullNamedQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["name"])]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("method", args=[self.slug])

    @property
    def introduced_year_known(self) -> int | None:
        """The year the archive says the method was introduced; None where it gives none or its
        placeholder (``PLACEHOLDER_INTRODUCED_YEAR``). What pages show as "Introduced"."""
        year = self.introduced_year
        return None if year == PLACEHOLDER_INTRODUCED_YEAR else year


class Dataset(Harvested):
    """A dataset: one of the archive's (``datasets.json``), or one a leaderboard or paper names."""

    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)
    full_name = models.CharField(max_length=1000, blank=True)
    description = models.TextField(blank=True)
    homepage = models.URLField(max_length=1000, blank=True)
    introduced_date = models.DateField(null=True, blank=True)
    modalities = models.JSONField(default=list, blank=True)
    languages = models.JSONField(default=list, blank=True)
    variants = models.JSONField(default=list, blank=True)
    num_papers = models.PositiveIntegerField(null=True, blank=True)
    data_loaders = models.JSONField(default=list, blank=True)  # [{url, repo, frameworks}]
    # The paper datasets.json says introduced it; a paper document says so in its datasets_introduced.
    introduced_in = models.ForeignKey(
        "Paper", null=True, blank=True, on_delete=models.SET_NULL, related_name="datasets_introduced_here"
    )
    # A table's subdataset ("CoNLL-2014 (Restricted)") is a dataset of its own, under its parent.
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="subdatasets"
    )
    tasks = models.ManyToManyField(Task, related_name="datasets", blank=True)
    aliases = models.JSONField(default=list, blank=True)
    detail_stamp = models.CharField(max_length=100, blank=True, editable=False)

    objects = DatasetQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["name"]),
            # /datasets/?sort=papers: the archive's paper count, none as 0, then the slug
            models.Index(
                Coalesce("num_papers", models.Value(0)).desc(),
                models.F("slug").asc(),
                name="dataset_by_papers",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("dataset", args=[self.slug])

    def introducing_paper(self):
        """The paper that introduced it: its own record's, else the first (by slug) of those paper
        documents name as introducing it. Bulk reads prefetch ``introduced_by``."""
        if self.introduced_in is not None:
            return self.introduced_in
        return min(self.introduced_by.all(), key=lambda paper: paper.slug, default=None)
