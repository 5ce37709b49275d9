"""The catalogue's data model, shaped around the identities in the snapshot data.

Identities (each enforced by a unique constraint, never by hope):

* a paper is its arXiv id (version suffix dropped) where it has one, else its slug;
  every slug it was published under is a ``PaperSlug`` and keeps working;
* a code entry is its name; a code body is its ``code_sha256_prefix``;
* a repository is ``host/owner/name``, case-insensitive (``Repo.key``);
* a sample (a *place*) is (paper, code body, entry);
* a leaderboard is task × dataset; a result is (paper, leaderboard, model).

Harvested rows carry their provenance: the ``SourceDocument`` they were last written
from and a ``stamp`` (that document's ``read_at`` and content hash) which the loader
compares so that the newest document wins whatever order files are read in.
Aggregate figures are never stored here: ``catalogue.queries`` derives them from rows.
"""

from django.db import models
from django.db.models import Q
from django.urls import reverse


class Status(models.TextChoices):
    RAN_HONOURS = "ran_honours", "ran, honoured the drafted contract"
    RAN_VIOLATES = "ran_violates", "ran, violated the drafted contract"
    RAN_DRAFT_WRONG = "ran_draft_wrong", "ran; the drafted contract was wrong, not the code"
    RAN_FIXTURE = "ran_fixture", "ran; the fixture could not drive it"
    RAN = "ran", "ran on a synthesized input"
    UNVERIFIED = "unverified", "unverified (harvested, no recorded run)"

    @classmethod
    def ran_values(cls) -> list[str]:
        """Every status that counts as 'ran' (all but unverified; not 'correct')."""
        return [s.value for s in cls if s != cls.UNVERIFIED]

    @classmethod
    def instrument_failures(cls) -> list[str]:
        """Statuses that are failures of Syntology's instrument, not of the code."""
        return [cls.RAN_DRAFT_WRONG.value, cls.RAN_FIXTURE.value]


class TitleSource(models.TextChoices):
    ARCHIVE = "archive", "Papers-with-Code archive"
    SYNTOLOGY = "syntology", "Syntology"


class RepoKind(models.TextChoices):
    OFFICIAL = "official", "official"
    NAMED_IN_PAPER = "named_in_paper", "named in paper"
    LISTED = "listed", "listed"
    FOUND_IN_TEXT = "found_in_text", "found in text"
    COMMUNITY = "community", "community"


class DocumentKind(models.TextChoices):
    PAPER = "paper", "paper document"
    CODE_ENTRY = "code_entry", "code-entry document"


def _in_choices(field: str, choices: type[models.TextChoices], *, nullable: bool = False) -> Q:
    check = Q(**{f"{field}__in": choices.values})
    return check | Q(**{f"{field}__isnull": True}) if nullable else check


class LoadRunOutcome(models.TextChoices):
    RUNNING = "running"
    SUCCEEDED = "succeeded"


class LoadRun(models.Model):
    """One successful run of ``load_snapshot``: what it read and what it changed.

    A failed load writes nothing, not even this record: the database stays exactly
    as it was, and the command's error output is the record of the failure.
    """

    Outcome = LoadRunOutcome

    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    # [{"path", "sha256", "url", "status": loaded|unchanged|skipped|error, "error"}]
    files = models.JSONField(default=list)
    # {"Paper": {"created": n, "updated": n, "unchanged": n}, …}
    counts = models.JSONField(default=dict)
    warnings = models.JSONField(default=list)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=_in_choices("outcome", LoadRunOutcome), name="loadrun_outcome_valid"
            )
        ]

    def __str__(self):
        return f"load {self.started_at:%Y-%m-%d %H:%M} ({self.outcome})"


class SourceDocument(models.Model):
    """A snapshot document, by its ``url``; the newest version loaded is kept."""

    url = models.CharField(max_length=500, unique=True)
    kind = models.CharField(max_length=16, choices=DocumentKind.choices)
    sha256 = models.CharField(max_length=64)
    file_name = models.CharField(max_length=500)
    read_at = models.DateTimeField(null=True, blank=True)
    source = models.JSONField(null=True, blank=True)  # a string or {archive, snapshot, …}
    about = models.JSONField(null=True, blank=True)  # licence, attribution, non-affiliation
    stamp = models.CharField(max_length=100)
    last_load = models.ForeignKey(LoadRun, null=True, on_delete=models.SET_NULL)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=_in_choices("kind", DocumentKind), name="doc_kind_valid")
        ]

    def __str__(self):
        return self.url


class Harvested(models.Model):
    """Fields every harvested row has: where it came from, and which version won.

    ``stamp`` orders competing versions of a row: the winning document's ``read_at``
    and content hash, sometimes preceded by a rank (a stated slug beats a derived
    one). The loader writes a row only from a version whose stamp is not older.
    """

    document = models.ForeignKey(SourceDocument, null=True, on_delete=models.SET_NULL, related_name="+")
    stamp = models.CharField(max_length=100, editable=False)

    class Meta:
        abstract = True


class Paper(Harvested):
    arxiv_id = models.CharField(max_length=40, null=True, blank=True, unique=True)
    slug = models.CharField(max_length=300, unique=True)  # current; old ones in PaperSlug
    # What pages and API show: the curator's correction if there is one, else the snapshot's.
    title = models.TextField(blank=True)
    title_upstream = models.TextField(blank=True, editable=False)  # the snapshot's, always
    title_corrected = models.BooleanField(db_default=False, editable=False)
    title_source = models.CharField(max_length=16, choices=TitleSource.choices, null=True, blank=True)
    date = models.DateField(null=True, blank=True)
    # "YYYY-MM" from ``date``, else inferred from the arXiv id: stored (not computed per
    # request) so that year filters and date sorts can use an index.
    month = models.CharField(max_length=7, blank=True)
    # Fields only a paper document states; ``paper_stamp`` is that document's stamp.
    proceeding = models.CharField(max_length=500, blank=True)
    abstract = models.TextField(blank=True)
    url_abs = models.URLField(max_length=1000, blank=True)
    url_pdf = models.URLField(max_length=1000, blank=True)
    source = models.JSONField(null=True, blank=True)
    syntology_read_at = models.DateTimeField(null=True, blank=True)
    syntology_claim = models.TextField(blank=True)
    syntology_links = models.JSONField(null=True, blank=True)  # syntology_url, atlas_url, mcp…
    arxiv_metadata = models.JSONField(null=True, blank=True)
    syntology_extracted_results = models.JSONField(null=True, blank=True)
    paper_document = models.ForeignKey(
        SourceDocument, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paper_stamp = models.CharField(max_length=100, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every write (curator or loader): a form saved from a stale version is refused.
    version = models.PositiveIntegerField(db_default=1, editable=False)
    # Distinct code bodies among its places, kept by catalogue.counters: /papers/?sort=samples.
    n_samples = models.PositiveIntegerField(db_default=0, editable=False)

    tasks = models.ManyToManyField("Task", related_name="papers", blank=True)
    methods = models.ManyToManyField("Method", related_name="papers", blank=True)
    methods_introduced = models.ManyToManyField("Method", related_name="introduced_by", blank=True)
    datasets_introduced = models.ManyToManyField("Dataset", related_name="introduced_by", blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=_in_choices("title_source", TitleSource, nullable=True),
                name="paper_title_source_valid",
            ),
            models.CheckConstraint(condition=~Q(slug=""), name="paper_slug_not_empty"),
        ]
        indexes = [
            models.Index(fields=["month", "id"]),
            models.Index(fields=["created_at"]),
            models.Index(fields=["-n_samples", "-id"], name="paper_by_samples"),
            # The orders the page and the API offer, each with its tie-break (keyset pages).
            models.Index(fields=["title", "slug"], name="paper_by_title"),
            models.Index(fields=["date", "slug"], name="paper_by_date"),
            # The API's default order is the slug; with the id in the index, a filtered list
            # (papers on a task, with official code) walks it without reading each paper's row.
            models.Index(fields=["slug", "id"], name="paper_slug_with_id"),
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


class Task(Harvested):
    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("task", args=[self.slug])


class Method(Harvested):
    slug = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=500)
    full_name = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("method", args=[self.slug])


class Dataset(models.Model):
    """A dataset by name, as results and ``datasets_introduced`` name it."""

    name = models.CharField(max_length=500, unique=True)

    def __str__(self):
        return self.name


class Leaderboard(Harvested):
    """A task × dataset pair (PwC's ``/sota/<task>-on-<dataset>``)."""

    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="leaderboards")
    dataset = models.ForeignKey(Dataset, on_delete=models.PROTECT, related_name="leaderboards")
    slug = models.CharField(max_length=600, unique=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "dataset"], name="leaderboard_unique_task_dataset")
        ]

    def __str__(self):
        return self.slug

    def get_absolute_url(self):
        return reverse("leaderboard", args=[self.slug])


class Result(Harvested):
    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="results")
    leaderboard = models.ForeignKey(Leaderboard, on_delete=models.CASCADE, related_name="results")
    model = models.CharField(max_length=500)
    rank_in_archive_order = models.PositiveIntegerField(null=True, blank=True)
    of = models.PositiveIntegerField(null=True, blank=True)
    metrics = models.JSONField(default=dict)  # name -> value as given ("84.4%")
    uses_additional_data = models.BooleanField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["paper", "leaderboard", "model"], name="result_unique_paper_board_model"
            )
        ]

    def __str__(self):
        return f"{self.model} on {self.leaderboard}"


class Repo(Harvested):
    """A code repository. ``key`` is ``host/owner/name`` lower-cased: the identity."""

    key = models.CharField(max_length=400, unique=True)
    host = models.CharField(max_length=200, default="github.com")
    owner = models.CharField(max_length=200)
    name = models.CharField(max_length=200)
    reach_status = models.CharField(max_length=50, blank=True)
    spdx = models.CharField(max_length=100, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "name"])]

    def __str__(self):
        return self.full_name

    def get_absolute_url(self):
        return reverse("repo", args=[self.owner, self.name])

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def url(self) -> str:
        return f"https://{self.host}/{self.owner}/{self.name}"


class CodeLink(Harvested):
    """The archive's paper → repository link (``code_links``), maybe to a sub-path."""

    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="code_links")
    repo = models.ForeignKey(Repo, on_delete=models.CASCADE, related_name="code_links")
    sub_path = models.CharField(max_length=1000, blank=True)  # "tree/develop/examples/pipeline"
    repo_url = models.URLField(max_length=1000)
    is_official = models.BooleanField(null=True)
    mentioned_in_paper = models.BooleanField(null=True)
    mentioned_in_github = models.BooleanField(null=True)
    framework = models.CharField(max_length=100, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["paper", "repo", "sub_path"], name="codelink_unique")]

    def __str__(self):
        return self.repo_url


class HarvestedRepo(Harvested):
    """A repository Syntology read for a paper (``syntology.repos``)."""

    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="harvested_repos")
    repo = models.ForeignKey(Repo, on_delete=models.CASCADE, related_name="harvested_for")
    sub_path = models.CharField(max_length=1000, blank=True)
    provenance = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["paper", "repo", "sub_path"], name="harvestedrepo_unique")
        ]

    def __str__(self):
        return f"{self.repo} for {self.paper}"


class CodeEntry(Harvested):
    """One routine name grouped across papers; same-named routines are not equivalent."""

    name = models.CharField(max_length=500, unique=True)
    slug = models.CharField(max_length=600, unique=True)
    claim = models.TextField(blank=True)
    # What /code/ sorts by, kept by catalogue.counters (the figures shown come from queries).
    n_places = models.PositiveIntegerField(db_default=0, editable=False)
    n_papers = models.PositiveIntegerField(db_default=0, editable=False)
    n_samples_ran = models.PositiveIntegerField(db_default=0, editable=False)

    class Meta:
        verbose_name_plural = "code entries"
        indexes = [
            models.Index(fields=["-n_places", "id"], name="entry_by_places"),
            models.Index(fields=["-n_papers", "id"], name="entry_by_papers"),
            models.Index(fields=["-n_samples_ran", "id"], name="entry_by_ran"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("code_entry", args=[self.slug])


class CodeBody(models.Model):
    """A body of code, by the first 16 hex digits of its SHA-256."""

    sha256_prefix = models.CharField(max_length=16, unique=True)

    class Meta:
        verbose_name_plural = "code bodies"
        constraints = [
            models.CheckConstraint(
                condition=Q(sha256_prefix__regex=r"^[0-9a-f]{16}$"), name="body_sha_is_hex16"
            )
        ]

    def __str__(self):
        return self.sha256_prefix

    def get_absolute_url(self):
        return reverse("code_body", args=[self.sha256_prefix])


class Sample(Harvested):
    """A place: one code body under one entry name in one paper, maybe in a repository."""

    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="samples")
    body = models.ForeignKey(CodeBody, on_delete=models.PROTECT, related_name="samples")
    entry = models.ForeignKey(CodeEntry, on_delete=models.PROTECT, related_name="samples")
    repo = models.ForeignKey(Repo, null=True, blank=True, on_delete=models.PROTECT, related_name="samples")
    path = models.CharField(max_length=1000, blank=True)
    file_url = models.URLField(max_length=1500, null=True, blank=True)
    # What pages, API and figures use: a curator's correction if any, else the snapshot's.
    status = models.CharField(max_length=20, choices=Status.choices)
    status_upstream = models.CharField(max_length=20, choices=Status.choices, editable=False)
    status_corrected = models.BooleanField(db_default=False, editable=False)
    verification_level = models.PositiveSmallIntegerField(default=0)
    contract_check = models.CharField(max_length=100, null=True, blank=True)
    metamorphic_tier = models.CharField(max_length=100, null=True, blank=True)
    behaviour_fingerprint = models.BooleanField(default=False)
    licence = models.CharField(max_length=100, null=True, blank=True)  # SPDX, NONE, NOASSERTION
    inline_ok = models.BooleanField(default=False)  # False: may only be pointed to
    # Only the paper document's view states these; ``paper_view_stamp`` says which version.
    repo_kind = models.CharField(max_length=20, choices=RepoKind.choices, null=True, blank=True)
    link_basis = models.CharField(max_length=100, blank=True)
    language = models.CharField(max_length=50, blank=True)
    paper_view_stamp = models.CharField(max_length=100, blank=True, editable=False)
    version = models.PositiveIntegerField(db_default=1, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["paper", "body", "entry"], name="sample_unique_place"),
            models.CheckConstraint(condition=_in_choices("status", Status), name="sample_status_valid"),
            models.CheckConstraint(
                condition=_in_choices("status_upstream", Status), name="sample_status_upstream_valid"
            ),
            models.CheckConstraint(
                condition=_in_choices("repo_kind", RepoKind, nullable=True),
                name="sample_repo_kind_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["entry", "status"]),
            models.Index(fields=["body"]),
            models.Index(fields=["repo"]),
        ]

    def __str__(self):
        return f"{self.entry} in {self.paper} ({self.body})"

    @property
    def pointer_only(self) -> bool:
        return not self.inline_ok


class Correction(models.Model):
    """A curator's correction of one field, kept with its history.

    The corrected row holds the value shown (``Paper.title``, ``Sample.status``) and the
    snapshot's value beside it (``title_upstream``, ``status_upstream``); the loader only
    ever writes the latter while a correction is active. Removing a correction keeps the
    record (``removed_*``) and puts the snapshot's value back. ``catalogue.curation`` is
    the one place that writes these.
    """

    class Field(models.TextChoices):
        TITLE = "title", "paper title"
        STATUS = "status", "sample status"

    field = models.CharField(max_length=10, choices=Field.choices)
    paper = models.ForeignKey(
        Paper, null=True, blank=True, on_delete=models.CASCADE, related_name="corrections"
    )
    sample = models.ForeignKey(
        Sample, null=True, blank=True, on_delete=models.CASCADE, related_name="corrections"
    )
    value = models.TextField()  # the curator's value
    previous_value = models.TextField()  # what was shown before this correction
    upstream_value = models.TextField()  # the snapshot's value when the correction was made
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="corrections_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    removed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections_removed"
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(field="title", paper__isnull=False, sample__isnull=True)
                    | Q(field="status", sample__isnull=False, paper__isnull=True, value__in=Status.values)
                ),
                name="correction_target_matches_field",
            ),
            models.UniqueConstraint(
                fields=["field", "paper"],
                condition=Q(removed_at__isnull=True, paper__isnull=False),
                name="correction_one_active_per_paper_field",
            ),
            models.UniqueConstraint(
                fields=["field", "sample"],
                condition=Q(removed_at__isnull=True, sample__isnull=False),
                name="correction_one_active_per_sample_field",
            ),
        ]
        indexes = [models.Index(fields=["removed_at", "field"])]

    def __str__(self):
        target = f"paper {self.paper_id}" if self.paper_id else f"sample {self.sample_id}"
        return f"{self.get_field_display()} of {target}: {self.value[:60]}"

    @property
    def active(self) -> bool:
        return self.removed_at is None


class SearchKind(models.TextChoices):
    PAPER = "paper"
    ENTRY = "entry"
    REPO = "repo"


class SearchDocument(models.Model):
    """What full-text search reads: one row per paper, code entry and repository.

    The loader rewrites the rows of whatever it changed. The index itself is the
    database's own: a weighted ``tsvector`` column with a GIN index on PostgreSQL, an
    FTS5 table kept in step by triggers on SQLite (migration 0002); ``catalogue.search``
    is the one interface over both.
    """

    Kind = SearchKind

    kind = models.CharField(max_length=8, choices=SearchKind.choices)
    object_id = models.BigIntegerField()
    title = models.TextField()  # weight A
    authors = models.TextField(blank=True)  # weight B
    body = models.TextField(blank=True)  # weight C

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id"], name="searchdoc_unique_object"),
            models.CheckConstraint(condition=_in_choices("kind", SearchKind), name="searchdoc_kind_valid"),
        ]

    def __str__(self):
        return f"{self.kind} {self.object_id}"
