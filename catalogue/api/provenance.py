"""The API's own root, and where its data comes from: ``/api/v1/`` (the resources, the licence and
the attribution), ``/api/v1/data/`` (what ``/data/`` shows) and ``/api/v1/loads/`` (every load).

The summary is its own endpoint rather than a header of the loads list: a list's answer is its
page of rows in both pagination modes (PwC's shape), and the summary is one object with its own
ETag. Both read ``catalogue.provenance``, as the page does.
"""

from django.urls import reverse

from catalogue import attribution, provenance, reads
from catalogue.api import filters
from catalogue.api.serializers.data import ApiRootSerializer, DataSummarySerializer, LoadRunSerializer
from catalogue.api.views import DetailView, ListView
from catalogue.models import LoadRun

# The lists of the API by name, as its root names them (api:<url name>).
RESOURCES = {
    "search": "search",
    "papers": "paper-list",
    "repositories": "repository-list",
    "tasks": "task-list",
    "areas": "area-list",
    "datasets": "dataset-list",
    "authors": "author-list",
    "conferences": "conference-list",
    "methods": "method-list",
    "evaluations": "evaluation-list",
    "code-entries": "code-entry-list",
    "samples": "sample-list",
    "data": "data",
    "loads": "load-list",
}


def _licence_block(request) -> dict:
    return attribution.licence_block(request.build_absolute_uri(reverse("attribution")))


class ApiRoot(DetailView):
    """What the API serves, under what licence, and the attribution any reuse must keep."""

    serializer_class = ApiRootSerializer

    def get_object(self):
        url = self.request.build_absolute_uri
        return {
            "name": "Code with Papers API",
            "version": "1",
            **_licence_block(self.request),
            "resources": {name: url(reverse(f"api:{route}")) for name, route in RESOURCES.items()},
            "schema": url(reverse("api:schema")),
            "docs": url(reverse("api:docs")),
        }


class DataSummary(DetailView):
    """When the catalogue was last loaded, the snapshot of each source and what it holds (as /data/)."""

    serializer_class = DataSummarySerializer

    def get_object(self):
        return {
            "last_load": provenance.last_successful_load(),
            "sources": provenance.snapshot_sources(),
            "counts": reads.papers.catalogue_counts(),
            "loads": self.request.build_absolute_uri(reverse("api:load-list")),
            **_licence_block(self.request),
        }


class LoadRunList(ListView):
    """Every run of load_snapshot, newest first: loads that succeeded, loads that failed (they
    changed nothing) and dry runs (they wrote nothing), with their files' names and checksums."""

    serializer_class = LoadRunSerializer
    filterset_class = filters.LoadRunFilter
    queryset = LoadRun.objects.none()  # the model, for the schema
    cursor_ordering = "-id"

    def get_queryset(self):
        return LoadRun.objects.order_by("-id")
