"""Samples (places): the status is curated here, one at a time or in bulk."""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils.html import format_html

from catalogue import curation
from catalogue.admin.base import CuratedAdmin, admin_link
from catalogue.admin.filters import LicenceFilter, SampleUpstreamChangedFilter
from catalogue.admin.forms import BulkStatusForm, SampleCurationForm
from catalogue.admin.history import history_inline
from catalogue.models import Sample

BULK_PREVIEW = 20


@admin.register(Sample)
class SampleAdmin(CuratedAdmin):
    curated_field = "status"
    form = SampleCurationForm
    list_display = [
        "__str__",
        "paper_link",
        "entry_link",
        "body",
        "repo",
        "shown_status",
        "status_corrected",
        "licence",
        "inline_ok",
        "repo_kind",
    ]
    list_display_links = ["__str__"]
    list_select_related = ["paper", "entry", "body", "repo"]
    list_filter = [
        "status",
        "status_corrected",
        SampleUpstreamChangedFilter,
        LicenceFilter,
        "inline_ok",
        "repo_kind",
    ]
    search_fields = [
        "entry__name",
        "paper__title",
        "paper__arxiv_id",
        "repo__owner",
        "repo__name",
        "^body__sha256_prefix",
    ]
    search_help_text = "Entry name, paper title or arXiv id, repository owner or name, code body prefix."
    ordering = ["-id"]
    actions = ["set_status"]
    inlines = [history_inline("sample", "status")]
    fieldsets = [
        ("Status", {"fields": ["status", "status_upstream", "status_corrected"]}),
        (
            "Place",
            {"fields": ["paper", "entry", "body", "repo", "path", "file_url", "repo_kind", "link_basis"]},
        ),
        (
            "Verification",
            {"fields": ["verification_level", "contract_check", "metamorphic_tier", "behaviour_fingerprint"]},
        ),
        ("Licence", {"fields": ["licence", "inline_ok", "language"]}),
        (
            "Provenance",
            {"classes": ["collapse"], "fields": ["document", "stamp", "paper_view_stamp", "version"]},
        ),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("paper", "entry", "body", "repo")

    def correct(self, request, obj, form):
        curation.correct_status(
            obj,
            form.cleaned_data["status"],
            user=request.user,
            reason=form.cleaned_data["reason"],
            expected_version=form.cleaned_data["row_version"],
        )

    @admin.display(description="paper", ordering="paper__title")
    def paper_link(self, sample):
        return admin_link(sample.paper, sample.paper.arxiv_id or sample.paper.slug)

    @admin.display(description="entry", ordering="entry__name")
    def entry_link(self, sample):
        return admin_link(sample.entry)

    @admin.display(description="status", ordering="status")
    def shown_status(self, sample):
        if sample.status_corrected:
            return format_html(
                '{} <span title="corrected by a curator; the snapshot says {}">✎</span>',
                sample.status,
                sample.status_upstream,
            )
        return sample.status

    @admin.action(description="Set the status of the selected samples…", permissions=["change"])
    def set_status(self, request, queryset):
        """Asks for one status and one reason on a confirmation page, then corrects them all."""
        if "apply" in request.POST:
            form = BulkStatusForm(request.POST)
            if form.is_valid():
                # A plain queryset of the chosen rows: the list's joins (an outer join to repo)
                # cannot be locked FOR UPDATE on PostgreSQL.
                chosen = Sample.objects.filter(pk__in=queryset.values("pk"))
                n = curation.bulk_correct_status(
                    chosen, form.cleaned_data["status"], user=request.user, reason=form.cleaned_data["reason"]
                )
                self.message_user(
                    request, f"Status set to {form.cleaned_data['status']} on {n} samples.", messages.SUCCESS
                )
                return None  # back to the list
        else:
            form = BulkStatusForm()
        context = {
            **self.admin_site.each_context(request),
            "title": "Set the status of the selected samples",
            "opts": self.model._meta,
            "form": form,
            "count": queryset.count(),
            "preview": list(queryset.select_related("paper", "entry", "body")[:BULK_PREVIEW]),
            "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
            "select_across": request.POST.get("select_across", "0"),
            "action": "set_status",
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "media": self.media,
        }
        return TemplateResponse(request, "admin/catalogue/sample/set_status.html", context)
