"""List filters of the curation admin."""

from django.contrib import admin
from django.core.cache import cache
from django.db.models import Q

from catalogue import curation
from catalogue.models import Sample


class UpstreamChangedFilter(admin.SimpleListFilter):
    """Rows whose snapshot value changed after a curator corrected them: to review."""

    title = "upstream changed since correction"
    parameter_name = "upstream_changed"
    target: str  # the Correction field naming the row: "paper" or "sample"; "" for corrections

    def lookups(self, request, model_admin):
        return [("yes", "yes: review"), ("no", "no")]

    def queryset(self, request, queryset):
        if self.value() not in {"yes", "no"}:
            return queryset
        changed = curation.upstream_changed().values(f"{self.target}_id" if self.target else "pk")
        if self.value() == "yes":
            return queryset.filter(pk__in=changed)
        return queryset.exclude(pk__in=changed)


class PaperUpstreamChangedFilter(UpstreamChangedFilter):
    target = "paper"


class SampleUpstreamChangedFilter(UpstreamChangedFilter):
    target = "sample"


class CorrectionUpstreamChangedFilter(UpstreamChangedFilter):
    target = ""


class ActiveCorrectionFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "active"

    def lookups(self, request, model_admin):
        return [("yes", "active"), ("no", "removed or superseded")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(removed_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(removed_at__isnull=False)
        return queryset


class LicenceFilter(admin.SimpleListFilter):
    """The licences that occur, listed from a query cached for a few minutes.

    Django's own filter for a plain field runs ``SELECT DISTINCT`` over the whole table on
    every list page; the set of licences changes only with a load.
    """

    title = "licence"
    parameter_name = "licence"
    cache_key = "admin:sample-licences"
    cache_seconds = 300
    unknown = "(none stated)"

    def lookups(self, request, model_admin):
        licences = cache.get(self.cache_key)
        if licences is None:
            licences = sorted(
                {
                    value or self.unknown
                    for value in Sample.objects.values_list("licence", flat=True).distinct()
                }
            )
            cache.set(self.cache_key, licences, self.cache_seconds)
        return [(value, value) for value in licences]

    def queryset(self, request, queryset):
        value = self.value()
        if value is None:
            return queryset
        if value == self.unknown:
            return queryset.filter(Q(licence__isnull=True) | Q(licence=""))
        return queryset.filter(licence=value)
