"""What every catalogue admin shares: cheap counts, read-only harvested rows, curation saves."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from catalogue.curation import StaleEdit
from catalogue.pagination.paginators import EstimatedCountPaginator


class CatalogueAdmin(admin.ModelAdmin):
    """A list that stays fast on a large table: no full-table COUNT(*), 50 rows a page."""

    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50


class HarvestedAdmin(CatalogueAdmin):
    """Rows that snapshots bring: nobody adds or deletes them here (the next load would undo it)."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(HarvestedAdmin):
    """Harvested rows with nothing curatable: viewed, never changed, in the admin.

    Every field it shows (``fields``, computed columns included) is read-only."""

    def has_change_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return self.fields


class CappedInlineFormSet(BaseInlineFormSet):
    """An inline formset showing at most ``cap`` rows (the first, in the inline's order).

    A paper can have hundreds of code links; the admin renders every inline row, so its
    page would grow without bound. The parent's page links to the full, paginated lists.
    """

    cap = 30

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            ids = list(self.queryset.values_list("pk", flat=True)[: self.cap])
            self.queryset = self.queryset.filter(pk__in=ids)


class ReadOnlyInline(admin.TabularInline):
    """Related harvested rows on their parent's page, read-only for everyone (at most 30): every
    field it shows (``fields``, computed columns included)."""

    formset = CappedInlineFormSet
    extra = 0
    can_delete = False
    show_change_link = False  # where a row is worth opening, a column links to it

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return self.fields


class CuratedAdmin(HarvestedAdmin):
    """A model with one curated field, saved only through ``catalogue.curation``.

    The change form edits ``curated_field`` (plus a reason and the hidden row version);
    every other field is read-only. ``save_model`` never calls ``obj.save()``: it calls
    ``correct()``, which subclasses point at ``curation.correct_title`` /
    ``correct_status``. A stale form is refused by the form itself (a form error); the
    race the form cannot see (a write between its check and the save) is refused by
    curation under a row lock, and answered with an error message and the change page
    again, not with "changed successfully".
    """

    curated_field: str

    def get_fieldsets(self, request, obj=None):
        """The declared fieldsets; the first (the curated field's) gains the reason and version."""
        (name, options), *rest = super().get_fieldsets(request, obj)
        if obj is not None and self.has_change_permission(request, obj):
            options = {**options, "fields": [*options["fields"], "reason", "row_version"]}
        return [(name, options), *rest]

    def get_readonly_fields(self, request, obj=None):
        shown = [f for _, options in self.fieldsets for f in options["fields"]]
        return [f for f in shown if f != self.curated_field]

    def correct(self, request, obj, form):
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        if not form.corrects:
            return
        try:
            self.correct(request, obj, form)
        except StaleEdit as exc:
            request.curation_refused = True
            self.message_user(request, str(exc), messages.ERROR)
        except ValidationError as exc:
            request.curation_refused = True
            self.message_user(request, " ".join(exc.messages), messages.ERROR)

    def log_change(self, request, obj, message):
        if not getattr(request, "curation_refused", False):
            return super().log_change(request, obj, message)
        return None

    def response_change(self, request, obj):
        if getattr(request, "curation_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["active_correction"] = self.active_correction(obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def active_correction(self, obj):
        if obj is None:
            return None
        return obj.corrections.filter(removed_at__isnull=True, field=self.curated_field).first()


def admin_link(obj, text=None):
    """A link to ``obj``'s admin change page."""
    if obj is None:
        return "-"
    opts = obj._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else str(obj))


def changelist_link(model, text, **filters):
    """A link to ``model``'s admin list, filtered."""
    opts = model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    query = "&".join(f"{k}={v}" for k, v in filters.items())
    return format_html('<a href="{}?{}">{}</a>', url, query, text)
