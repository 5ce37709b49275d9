"""Papers, the addresses they were published under, and their authors."""

from django.db import models
from django.db.models import Q
from django.urls import reverse

from catalogue.models.base import present, related_exists, through_exists
from catalogue.models.provenance import Harvested, SourceDocument
from catalogue.models.vocabulary import TitleSource, in_choices, ran

# --- the query vocabulary of papers ---------------------------------------------------------
# Conditions are expressions (for filter() and annotate() alike); the QuerySet's methods read
# them as sentences: Paper.objects.with_official_code().on_task(task_id).


def has_code():
    """A code link from the archive, or a place Syntology harvested (either is "code")."""
    return related_exists(Paper, "code_links") | related_exists(Paper, "samples")


def has_official_code():
    """A code link the archive marks official (``is_official`` true; NULL is not official)."""
    return related_exists(Paper, "code_links", is_official=True)


def month_from(year: int, field: str = "month") -> Q:
    """From ``year`` on, by the stored month: the stated date's, else the one an arXiv id encodes.

    A range on the stored ``YYYY-MM`` text, so the (month, id) index serves it.
    """
    return Q(**{f"{field}__gte": f"{year:04d}-01"})


def month_until(year: int, field: str = "month") -> Q:
    """Up to the end of ``year`` (as :func:`month_from`); papers with no month at all are out."""
    return Q(**{f"{field}__lte": f"{year:04d}-12"}) & ~Q(**{field: ""})


class PaperQuerySet(models.QuerySet):
    def with_code(self, wanted: bool = True):
        return self.filter(present(has_code(), wanted))

    def with_official_code(self, wanted: bool = True):
        return self.filter(present(has_official_code(), wanted))

    def with_ran_samples(self, wanted: bool = True):
        """Papers with a place whose status counts as ran (``Status.ran_values()``), or with
        ``wanted=False`` those without one."""
        return self.filter(present(related_exists(Paper, "samples", ran()), wanted))

    def with_status(self, status: str):
        return self.filter(related_exists(Paper, "samples", status=status))

    def on_task(self, task_id: int | None):
        """Papers on the task with this id (none for None: an unknown task has no papers)."""
        return self.filter(through_exists(Paper.tasks, task_id=task_id))

    def using_method(self, method_id: int | None):
        return self.filter(through_exists(Paper.methods, method_id=method_id))

    def on_dataset(self, dataset):
        """A result on a leaderboard of the dataset, or the paper introduced it."""
        return self.filter(
            related_exists(Paper, "results", leaderboard__dataset=dataset)
            | through_exists(Paper.datasets_introduced, dataset=dataset)
        )

    def with_framework(self, framework: str):
        """A code link in this framework (``pytorch``, ``tf``…), case-insensitively."""
        return self.filter(related_exists(Paper, "code_links", framework__iexact=framework))

    def with_code_entry(self, entry):
        return self.filter(related_exists(Paper, "samples", entry=entry))

    def in_repository(self, repo):
        """Papers that link the repository (the archive's code links) or have places in it."""
        return self.filter(
            related_exists(Paper, "code_links", repo=repo) | related_exists(Paper, "samples", repo=repo)
        )

    def from_year(self, year: int):
        return self.filter(month_from(year))

    def until_year(self, year: int):
        return self.filter(month_until(year))

    def in_year(self, year: int):
        return self.filter(month_from(year) & month_until(year))

    def from_paper_documents(self):
        """Papers a paper document described (not only named by a code-entry document)."""
        return self.exclude(paper_stamp="")


class Paper(Harvested):
    arxiv_id = models.CharField(max_length=40, null=True, blank=True, unique=True)
    # A paper with neither an arXiv id nor a Papers-with-Code slug of its own is the paper its
    # landing page is (``identities.landing_key``: a DOI, an ACL Anthology id, a CVF file…).
    # Unique where set (Meta.constraints): most papers have none, and an index of their NULLs (and
    # the LIKE index ``unique=True`` adds on PostgreSQL) is work at every insert for nothing.
    landing_key = models.CharField(max_length=1100, null=True, blank=True)
    slug = models.CharField(max_length=300, unique=True)  # current; old ones in PaperSlug
    # What pages and API show: the curator's correction if there is one, else the snapshot's.
    title = models.TextField(blank=True)
    title_upstream = models.TextField(blank=True, editable=False)  # the snapshot's, always
    title_corrected = models.BooleanField(db_default=False, editable=False)
    title_source = models.CharField(max_length=16, choices=TitleSource.choices, null=True, blank=True)
    # The snapshot's title as titles are compared (``identities.title_key``, at most
    # TITLE_KEY_CHARS): how the loader finds one paper that two sources name differently.
    title_key = models.CharField(max_length=300, blank=True, editable=False)
    date = models.DateField(null=True, blank=True)
    # "YYYY-MM" from ``date``, else inferred from the arXiv id: stored (not computed per
    # request) so that year filters and date sorts can use an index.
    month = models.CharField(max_length=7, blank=True)
    # The archive's description of the paper, as its newest paper document or papers-dump
    # record states it (with its authors, tasks and methods); ``paper_stamp`` says which.
    proceeding = models.CharField(max_length=500, blank=True)
    abstract = models.TextField(blank=True)
    url_abs = models.URLField(max_length=1000, blank=True)
    url_pdf = models.URLField(max_length=1000, blank=True)
    conference = models.CharField(max_length=500, blank=True)  # the archive's conference id
    conference_url_abs = models.URLField(max_length=1000, blank=True)
    conference_url_pdf = models.URLField(max_length=1000, blank=True)
    nips_id = models.CharField(max_length=100, blank=True)
    openreview_id = models.CharField(max_length=100, blank=True)
    archive_stamp = models.CharField(max_length=100, blank=True, editable=False)  # the five above
    source = models.JSONField(null=True, blank=True)  # the archive snapshot, its licence
    paper_document = models.ForeignKey(
        SourceDocument, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paper_stamp = models.CharField(max_length=100, blank=True, editable=False)
    # What Syntology read, as its newest paper document states it; ``syntology_stamp`` says which.
    syntology_read_at = models.DateTimeField(null=True, blank=True)
    syntology_claim = models.TextField(blank=True)
    syntology_links = models.JSONField(null=True, blank=True)  # syntology_url, atlas_url, mcp…
    arxiv_metadata = models.JSONField(null=True, blank=True)
    syntology_extracted_results = models.JSONField(null=True, blank=True)
    syntology_stamp = models.CharField(max_length=100, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every write (curator or loader): a form saved from a stale version is refused.
    version = models.PositiveIntegerField(db_default=1, editable=False)
    # Distinct code bodies among its places, kept by catalogue.counters: /papers/?sort=samples.
    n_samples = models.PositiveIntegerField(db_default=0, editable=False)
    # Repositories the archive links to it (its code links), kept by catalogue.counters after a
    # load: /papers/?sort=code.
    n_code_links = models.PositiveIntegerField(db_default=0, editable=False)

    tasks = models.ManyToManyField("Task", related_name="papers", blank=True)
    methods = models.ManyToManyField("Method", related_name="papers", blank=True)
    methods_introduced = models.ManyToManyField("Method", related_name="introduced_by", blank=True)
    datasets_introduced = models.ManyToManyField("Dataset", related_name="introduced_by", blank=True)

    objects = PaperQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=in_choices("title_source", TitleSource, nullable=True),
                name="paper_title_source_valid",
            ),
            models.CheckConstraint(condition=~Q(slug=""), name="paper_slug_not_empty"),
            models.UniqueConstraint(
                fields=["landing_key"],
                condition=Q(landing_key__isnull=False),
                name="paper_landing_key_unique",
            ),
        ]
        indexes = [
            models.Index(fields=["month", "id"]),
            # Feeds list papers newest in the catalogue first (a whole load shares one created_at).
            models.Index(fields=["created_at", "id"], name="paper_by_created"),
            # A proceeding's papers, newest first (/proceeding/<id>, the API's proceeding papers).
            models.Index(fields=["proceeding", "month", "id"], name="paper_by_proceeding"),
            models.Index(fields=["-n_samples", "-id"], name="paper_by_samples"),
            models.Index(fields=["-n_code_links", "-id"], name="paper_by_code_links"),
            # The orders the page and the API offer, each with its tie-break (keyset pages).
            models.Index(fields=["title", "slug"], name="paper_by_title"),
            models.Index(fields=["date", "slug"], name="paper_by_date"),
            # The API's default order is the slug; with the id in the index, a filtered list
            # (papers on a task, with official code) walks it without reading each paper's row.
            models.Index(fields=["slug", "id"], name="paper_slug_with_id"),
            models.Index(fields=["title_key"], name="paper_by_title_key"),
        ]

    def __str__(self):
        return self.title or self.slug

    def get_absolute_url(self):
        return reverse("paper", args=[self.slug])

    @property
    def month_is_inferred(self) -> bool:
        """True when the paper's only date is the month its arXiv id encodes."""
        return self.date is None and bool(self.month)


class PaperSlug(models.Model):
    """Every slug a paper was published under; old ones redirect to ``Paper.slug``."""

    slug = models.CharField(max_length=300, unique=True)
    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="slugs")
    last_stamp = models.CharField(max_length=100)
    # Made here (``arxiv-<id>``, a landing page's ``<title>-<hash>``), not a Papers-with-Code
    # slug a source stated: a paper's address is a stated slug where it has one.
    derived = models.BooleanField(default=False)

    def __str__(self):
        return self.slug


class Author(models.Model):
    """An author name in its place on one paper (the data names people, it does not identify them)."""

    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="authors")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=500)

    class Meta:
        ordering = ["paper", "position"]
        constraints = [models.UniqueConstraint(fields=["paper", "position"], name="author_unique_position")]
        indexes = [models.Index(fields=["name"])]

    def __str__(self):
        return self.name


class AuthorName(models.Model):
    """Every author name once, kept by ``catalogue.counters`` after each load: what the API's author
    list pages through and searches (DISTINCT over every author place cost 150-750 ms a request at
    archive size)."""

    name = models.CharField(max_length=500, unique=True)
    # The name's slug (``catalogue.authors.slug``: ``Yanping Huang`` is ``yanping-huang``), the form
    # Papers with Code's author addresses took; "" for a name that gives none, NULL until
    # ``counters.slug_author_names`` has computed it. Several names may share one.
    slug = models.CharField(max_length=300, null=True, db_index=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name
