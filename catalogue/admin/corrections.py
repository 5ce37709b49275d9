"""Corrections: every one ever made, the ones whose snapshot value moved since, and their removal."""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from catalogue import curation
from catalogue.admin.base import CatalogueAdmin, admin_link
from catalogue.admin.filters import ActiveCorrectionFilter, CorrectionUpstreamChangedFilter
from catalogue.admin.forms import PublicNameForm, RemoveCorrectionForm
from catalogue.models import Correction, CuratorProfile


@admin.register(Correction)
class CorrectionAdmin(CatalogueAdmin):
    """Read-only records; the one write is removing a correction (``curation.remove_correction``).

    Curators may remove when they hold ``change_correction``; the record itself is never
    edited, so the change form is view-only for everyone.
    """

    list_display = [
        "__str__",
        "field",
        "target",
        "value",
        "upstream_then",
        "upstream_now",
        "created_by",
        "curator_name",
        "created_at",
        "is_active",
        "reason",
    ]
    list_select_related = ["paper", "sample__paper", "sample__entry", "sample__body", "created_by"]
    list_filter = [CorrectionUpstreamChangedFilter, ActiveCorrectionFilter, "field"]
    search_fields = ["value", "reason", "paper__title", "paper__arxiv_id", "sample__entry__name"]
    search_help_text = "Corrected value, reason, paper title or arXiv id, entry name."
    actions = ["remove_selected"]
    fields = [
        "field",
        "target",
        "value",
        "previous_value",
        "upstream_then",
        "upstream_now",
        "reason",
        "created_by",
        "curator_name",
        "created_at",
        "is_active",
        "removed_by",
        "removed_by_name",
        "removed_at",
        "removal_reason",
    ]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_remove_permission(self, request, obj=None):
        return request.user.has_perm("catalogue.change_correction")

    @admin.display(description="of")
    def target(self, correction):
        return admin_link(correction.paper or correction.sample)

    @admin.display(description="snapshot value when corrected")
    def upstream_then(self, correction):
        return correction.upstream_value

    @admin.display(description="snapshot value now")
    def upstream_now(self, correction):
        if correction.paper_id:
            return correction.paper.title_upstream
        return correction.sample.status_upstream

    @admin.display(description="active", boolean=True, ordering="removed_at")
    def is_active(self, correction):
        return correction.active

    def get_urls(self):
        remove = path(
            "<path:object_id>/remove/",
            self.admin_site.admin_view(self.remove_view),
            name="catalogue_correction_remove",
        )
        public_name = path(
            "public-name/",
            self.admin_site.admin_view(self.public_name_view),
            name="catalogue_correction_public_name",
        )
        return [remove, public_name, *super().get_urls()]

    def public_name_view(self, request):
        """A curator chooses the name public pages show beside their corrections (or none)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        profile = CuratorProfile.objects.filter(user=request.user).first()
        profile = profile or CuratorProfile(user=request.user)
        form = PublicNameForm(request.POST or None, instance=profile)
        if request.method == "POST" and form.is_valid():
            form.save()
            messages.success(
                request,
                "Your corrections from now on show you as "
                f"{form.instance.public_name or 'a curator'!r}; earlier ones keep the name they were made "
                "under.",
            )
            return HttpResponseRedirect(reverse("admin:index"))
        context = {
            **self.admin_site.each_context(request),
            "title": "Your public name",
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(request, "admin/catalogue/correction/public_name.html", context)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["can_remove"] = obj is not None and obj.active and self.has_remove_permission(request, obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def remove_view(self, request, object_id):
        """Confirm, then withdraw one correction: the snapshot's value is shown again."""
        correction = get_object_or_404(Correction.objects.select_related("paper", "sample"), pk=object_id)
        if not self.has_remove_permission(request, correction):
            raise PermissionDenied
        target = correction.paper or correction.sample
        target_url = reverse(f"admin:catalogue_{target._meta.model_name}_change", args=[target.pk])
        if not correction.active:
            self.message_user(request, "That correction was already removed.", messages.WARNING)
            return HttpResponseRedirect(target_url)
        form = RemoveCorrectionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            curation.remove_correction(
                correction, user=request.user, reason=form.cleaned_data["reason"].strip()
            )
            self.message_user(
                request,
                f"Correction removed: the {correction.get_field_display()} is the snapshot's again.",
                messages.SUCCESS,
            )
            return HttpResponseRedirect(target_url)
        return self._confirm_removal(request, [correction], form, title="Remove this correction")

    @admin.action(
        description="Remove the selected corrections (show the snapshot's values again)…",
        permissions=["remove"],
    )
    def remove_selected(self, request, queryset):
        active = queryset.filter(removed_at__isnull=True)
        if "apply" in request.POST:
            form = RemoveCorrectionForm(request.POST)
            if form.is_valid():
                reason = form.cleaned_data["reason"].strip()
                corrections = list(active)
                for correction in corrections:
                    curation.remove_correction(correction, user=request.user, reason=reason)
                self.message_user(request, f"{len(corrections)} corrections removed.", messages.SUCCESS)
                return None
        else:
            form = RemoveCorrectionForm()
        return self._confirm_removal(
            request,
            list(active.select_related("paper", "sample")[:100]),
            form,
            title="Remove the selected corrections",
            action="remove_selected",
        )

    def _confirm_removal(self, request, corrections, form, *, title, action=None):
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            "form": form,
            "corrections": corrections,
            "action": action,
            "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
            "select_across": request.POST.get("select_across", "0"),
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/catalogue/correction/remove.html", context)
