"""Papers: the title is curated here; everything else is the snapshot's, shown read-only."""

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from catalogue import curation, figures
from catalogue.admin.base import CuratedAdmin, ReadOnlyInline, admin_link, changelist_link
from catalogue.admin.filters import PaperUpstreamChangedFilter
from catalogue.admin.forms import PaperCurationForm
from catalogue.admin.history import history_inline
from catalogue.models import CodeLink, Paper, Result, Sample


class SampleInline(ReadOnlyInline):
    model = Sample
    fields = ["open", "entry", "body", "repo", "path", "status", "status_corrected", "licence", "inline_ok"]
    verbose_name_plural = "samples (open one to correct its status)"

    @admin.display(description="")
    def open(self, sample):
        return admin_link(sample, "open")

    def get_queryset(self, request):
        # paper too: a row's label (Sample.__str__) names it.
        related = super().get_queryset(request).select_related("paper", "entry", "body", "repo")
        return related.order_by("entry__name", "pk")


class ResultInline(ReadOnlyInline):
    model = Result
    fields = ["leaderboard", "model", "rank_in_archive_order", "of", "metrics", "uses_additional_data"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("leaderboard").order_by("leaderboard__slug", "pk")


class CodeLinkInline(ReadOnlyInline):
    model = CodeLink
    fields = ["repo", "repo_url", "is_official", "mentioned_in_paper", "mentioned_in_github", "framework"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("repo").order_by("-is_official", "repo_url", "pk")


@admin.register(Paper)
class PaperAdmin(CuratedAdmin):
    curated_field = "title"
    form = PaperCurationForm
    list_display = ["shown_title", "arxiv_id", "month", "title_source", "title_corrected", "samples_link"]
    list_filter = ["title_corrected", PaperUpstreamChangedFilter, "title_source"]
    search_fields = ["title", "arxiv_id", "slug"]
    search_help_text = "Title, arXiv id or slug (any part)."
    ordering = ["-id"]
    inlines = [history_inline("paper", "title"), SampleInline, ResultInline, CodeLinkInline]
    fieldsets = [
        ("Title", {"fields": ["title", "title_upstream", "title_corrected", "title_source"]}),
        ("Identity", {"fields": ["arxiv_id", "slug", "other_slugs", "related_lists"]}),
        (
            "Publication",
            {"fields": ["date", "month", "proceeding", "author_names", "abstract", "url_abs", "url_pdf"]},
        ),
        (
            "Classification",
            {"fields": ["tasks", "methods", "methods_introduced", "datasets_introduced"]},
        ),
        ("Syntology", {"fields": ["figures", "syntology_read_at", "syntology_claim", "syntology_links"]}),
        (
            "Provenance",
            {
                "classes": ["collapse"],
                "fields": [
                    "document",
                    "paper_document",
                    "stamp",
                    "paper_stamp",
                    "created_at",
                    "version",
                    "source",
                    "arxiv_metadata",
                    "syntology_extracted_results",
                ],
            },
        ),
    ]

    def correct(self, request, obj, form):
        curation.correct_title(
            obj,
            form.cleaned_data["title"],
            user=request.user,
            reason=form.cleaned_data["reason"].strip(),
            expected_version=form.cleaned_data["row_version"],
        )

    @admin.display(description="title", ordering="title")
    def shown_title(self, paper):
        title = paper.title or paper.slug
        if paper.title_corrected:
            return format_html('{} <span title="corrected by a curator">✎</span>', title)
        return title

    @admin.display(description="samples")
    def samples_link(self, paper):
        return changelist_link(Sample, "samples →", paper__id__exact=paper.pk)

    @admin.display(description="all related rows")
    def related_lists(self, paper):
        """Links to the full lists (the inlines below show at most 30 rows each)."""
        links = [
            changelist_link(
                model, f"{manager.count()} {model._meta.verbose_name_plural} →", paper__id__exact=paper.pk
            )
            for model, manager in (
                (Sample, paper.samples),
                (Result, paper.results),
                (CodeLink, paper.code_links),
            )
        ]
        return format_html_join(" · ", "{}", ((link,) for link in links))

    @admin.display(description="other addresses")
    def other_slugs(self, paper):
        slugs = [s.slug for s in paper.slugs.all() if s.slug != paper.slug]
        return ", ".join(slugs) or "-"

    @admin.display(description="authors")
    def author_names(self, paper):
        return ", ".join(a.name for a in paper.authors.all()) or "-"

    @admin.display(description="figures (live, curated statuses included)")
    def figures(self, paper):
        return figures_table(figures.paper_figures(paper).samples)


def figures_table(sample_figures: figures.SampleFigures):
    rows = [
        ("places", sample_figures.n_places),
        ("places pointer-only", sample_figures.n_places_pointer_only),
        ("samples (code bodies)", sample_figures.n_samples),
        ("samples ran", sample_figures.n_samples_ran),
        ("papers", sample_figures.n_papers),
        ("papers ran", sample_figures.n_papers_ran),
        *((f"by status: {status}", n) for status, n in sample_figures.by_status.items()),
        ("places whose status a curator corrected", sample_figures.n_places_corrected),
    ]
    return format_html(
        '<table class="figures">{}</table>',
        format_html_join("", '<tr><th scope="row">{}</th><td data-figure="{}">{}</td></tr>', (
            (label, label, value) for label, value in rows
        )),
    )  # fmt: skip
