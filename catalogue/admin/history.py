"""A row's correction history, read-only on its change page."""

from django.contrib import admin
from django.forms.models import BaseInlineFormSet

from catalogue.admin.base import ReadOnlyInline
from catalogue.models import Correction


class CorrectionHistoryInline(ReadOnlyInline):
    """Every correction of the row, newest first: who, when, from what to what, and why."""

    model = Correction
    formset = BaseInlineFormSet  # the whole history, however long
    fields = ["created_at", "created_by", "previous_value", "value", "upstream_value", "reason", "state"]
    ordering = ["-created_at", "-id"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("created_by", "removed_by")

    @admin.display(description="state")
    def state(self, correction):
        if correction.active:
            return "active"
        who = correction.removed_by.get_username() if correction.removed_by else "someone"
        reason = f": {correction.removal_reason}" if correction.removal_reason else ""
        return f"removed {correction.removed_at:%Y-%m-%d %H:%M} by {who}{reason}"


def history_inline(fk_name: str, field: str) -> type[CorrectionHistoryInline]:
    """The history inline of a curated model: the corrections of ``field`` of the row ``fk_name``."""
    return type(
        f"{field.title()}HistoryInline",
        (CorrectionHistoryInline,),
        {"fk_name": fk_name, "verbose_name_plural": f"{field} corrections (history)", "__module__": __name__},
    )
