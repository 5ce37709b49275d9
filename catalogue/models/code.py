"""Code: repositories, the archive's code links, and Syntology's code entries, bodies and places."""

from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.urls import reverse

from catalogue.models.base import present, related_exists
from catalogue.models.leaderboards import Result
from catalogue.models.papers import Paper
from catalogue.models.provenance import Harvested, SourceDocument
from catalogue.models.vocabulary import RepoKind, Status, in_choices, ran


class RepoQuerySet(models.QuerySet):
    def with_framework(self, framework: str):
        """Repositories a paper links with code in this framework, case-insensitively."""
        return self.filter(related_exists(Repo, "code_links", framework__iexact=framework))

    def linked_by(self, paper):
        """Repositories the paper links (the archive's code links) or has places in."""
        return self.filter(
            related_exists(Repo, "code_links", paper=paper) | related_exists(Repo, "samples", paper=paper)
        )

    def with_official_links(self, wanted: bool = True):
        """Repositories some paper links as its official code (``is_official`` true)."""
        return self.filter(present(related_exists(Repo, "code_links", is_official=True), wanted))


class CodeEntryQuerySet(models.QuerySet):
    def with_places(self, **where):
        """Entries with a place matching ``where`` (``paper=``, ``repo=``, ``status=``)."""
        return self.filter(related_exists(CodeEntry, "samples", **where))

    def with_ran_places(self, wanted: bool = True):
        return self.filter(present(related_exists(CodeEntry, "samples", ran()), wanted))


# Where a body's text appears: only at a place whose licence lets its code be shown
# (``inline_ok``), and only if a snapshot gave the text. A pointer-only place never shows it,
# even when another place of the same body may.
SHOWS_CODE = Q(inline_ok=True) & ~Q(body__code="")


class SampleQuerySet(models.QuerySet):
    def ran(self, wanted: bool = True):
        """Places that ran (see :func:`ran`), or with ``wanted=False`` those that did not."""
        return self.filter(present(ran(), wanted))

    def on_dataset(self, dataset):
        """Places in papers with a result on this dataset."""
        return self.filter(
            Exists(Result.objects.filter(paper=OuterRef("paper"), leaderboard__dataset=dataset))
        )

    def with_framework(self, framework: str):
        """Places whose paper links their repository with code in this framework."""
        links = CodeLink.objects.filter(
            paper=OuterRef("paper"), repo=OuterRef("repo"), framework__iexact=framework
        )
        return self.filter(Exists(links))

    def in_official_repository(self, wanted: bool = True):
        """Places in a repository their paper links as its official code."""
        links = CodeLink.objects.filter(paper=OuterRef("paper"), repo=OuterRef("repo"), is_official=True)
        return self.filter(present(Exists(links), wanted))

    def showing_code(self):
        """Places that show their body's text (:data:`SHOWS_CODE`)."""
        return self.filter(SHOWS_CODE)

    def with_code_links(self):
        """Each place with ``code_shown``: its body's text is shown on the body's page (some place
        of the body shows it), which the place's row links to. The text itself is not read."""
        return (
            self.select_related("body")
            .defer("body__code")
            .annotate(code_shown=Exists(Sample.objects.showing_code().filter(body=OuterRef("body"))))
        )

    def with_shown_code(self):
        """Each place with ``shown_code``: its body's text where the place shows it, else "". Only
        that is read, so a pointer-only place's row never even holds the text."""
        return (
            self.select_related("body")
            .defer("body__code")
            .annotate(
                shown_code=Case(
                    When(SHOWS_CODE, then=F("body__code")), default=Value(""), output_field=models.TextField()
                )
            )
        )

    def described_by_paper_documents(self):
        """Places a paper document's ``syntology.samples`` listed (not only a code-entry document)."""
        return self.exclude(paper_view_stamp="")


class Repo(Harvested):
    """A code repository. ``key`` is ``host/owner/name`` lower-cased: the identity."""

    key = models.CharField(max_length=400, unique=True)
    host = models.CharField(max_length=200, default="github.com")
    owner = models.CharField(max_length=200)
    name = models.CharField(max_length=200)
    reach_status = models.CharField(max_length=50, blank=True)
    spdx = models.CharField(max_length=100, blank=True)

    objects = RepoQuerySet.as_manager()

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


class CodeLinkSource(models.Model):
    """One source that states a code link: a paper document, the links dump, or a row of an
    evaluation table (``leaderboard``: the board whose row gives the paper's code). A link is
    kept while any source states it: a new copy of one source takes only its own statements."""

    link = models.ForeignKey(CodeLink, on_delete=models.CASCADE, related_name="sources")
    document = models.ForeignKey(SourceDocument, on_delete=models.CASCADE, related_name="+")
    leaderboard = models.ForeignKey(
        "Leaderboard", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["link", "document", "leaderboard"], name="codelinksource_unique"),
            models.UniqueConstraint(
                fields=["link", "document"],
                condition=models.Q(leaderboard__isnull=True),
                name="codelinksource_unique_without_board",
            ),
        ]
        indexes = [models.Index(fields=["document"], name="codelinksource_by_document")]

    def __str__(self):
        return f"{self.link} from {self.document}"


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

    objects = CodeEntryQuerySet.as_manager()

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


class CodeBodyQuerySet(models.QuerySet):
    def with_code(self, wanted: bool = True):
        """Bodies whose text a snapshot gave (``code``), or with ``wanted=False`` those without."""
        return self.filter(present(~Q(code=""), wanted))


class CodeBody(models.Model):
    """A body of code, by the first 16 hex digits of its SHA-256.

    ``code`` is its text where a snapshot gave one (only a place whose licence lets it be
    shown may: ``inline_ok``), "" otherwise; ``code_document`` and ``code_stamp`` say which
    document gave it. The text is the body's, but only an ``inline_ok`` place shows it
    (``SHOWS_CODE``): a pointer-only place never does.
    """

    sha256_prefix = models.CharField(max_length=16, unique=True)
    code = models.TextField(blank=True, default="")
    code_language = models.CharField(max_length=50, blank=True, default="")  # as given ("python")
    code_document = models.ForeignKey(SourceDocument, null=True, on_delete=models.SET_NULL, related_name="+")
    code_stamp = models.CharField(max_length=100, blank=True, default="", editable=False)

    objects = CodeBodyQuerySet.as_manager()

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

    objects = SampleQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["paper", "body", "entry"], name="sample_unique_place"),
            models.CheckConstraint(condition=in_choices("status", Status), name="sample_status_valid"),
            models.CheckConstraint(
                condition=in_choices("status_upstream", Status), name="sample_status_upstream_valid"
            ),
            models.CheckConstraint(
                condition=in_choices("repo_kind", RepoKind, nullable=True),
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

    @property
    def shows_code(self) -> bool:
        """``SHOWS_CODE`` for one place whose body's text was read."""
        return self.inline_ok and bool(self.body.code)
