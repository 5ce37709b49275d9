"""Where the data comes from: the API's root, its data summary and the load history."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue.models import DocumentKind, LoadRun, LoadRunOutcome


class LicenceSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="CC BY-SA 4.0")
    title = serializers.CharField()
    url = serializers.URLField(help_text="The licence's deed; every response's Link header names it.")
    legal_code = serializers.URLField()


class AttributionSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The attribution page: sources, modifications, licences.")
    notice = serializers.CharField(help_text="The notice to keep with any reuse, in full.")
    source = serializers.CharField()
    non_affiliation = serializers.CharField()


class ApiRootSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()
    licence = LicenceSerializer()
    attribution = AttributionSerializer()
    resources = serializers.DictField(
        child=serializers.CharField(), help_text="Each list's address, by name."
    )
    schema = serializers.CharField(help_text="The OpenAPI schema.")
    docs = serializers.CharField(help_text="Interactive documentation.")


class LoadFileSerializer(serializers.Serializer):
    path = serializers.CharField(
        allow_null=True,
        help_text="The file's name within the folder the load was given; never a server path.",
    )
    sha256 = serializers.CharField(allow_null=True, help_text="SHA-256 of its bytes; '' if it was not read.")
    url = serializers.CharField(
        allow_null=True, help_text="The document it holds (/paper/…, /code/…, archive:…)."
    )
    status = serializers.CharField(
        allow_null=True,
        help_text="loaded, already_loaded, skipped (bad, with --keep-going) or error (it stopped the load).",
    )
    error = serializers.CharField(allow_null=True)


class LoadRunSerializer(serializers.Serializer):
    """One run of load_snapshot: a load that succeeded, one that failed (it changed nothing), a dry run."""

    id = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.ChoiceField(choices=LoadRunOutcome.choices)
    error = serializers.CharField(help_text="Why a failed load failed; '' otherwise.")
    n_files = serializers.SerializerMethodField()
    files_by_status = serializers.SerializerMethodField()
    files_shown = serializers.SerializerMethodField(
        help_text=f"The first {LoadRun.FILES_SHOWN} files, those skipped or in error first."
    )
    counts = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Per model: created, updated, unchanged, deleted (a dry run: what it would have done).",
    )
    warnings = serializers.ListField(child=serializers.CharField())

    def get_n_files(self, run) -> int:
        return (run.files_summary or {}).get("n_files", 0)

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"}})
    def get_files_by_status(self, run):
        return (run.files_summary or {}).get("by_status", {})

    @extend_schema_field(LoadFileSerializer(many=True))
    def get_files_shown(self, run):
        return LoadFileSerializer((run.files_summary or {}).get("shown", []), many=True).data


class LoadRunRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    finished_at = serializers.DateTimeField()


class SnapshotSourceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=DocumentKind.choices)
    stated = serializers.CharField(
        help_text="What the documents say they are: the archive snapshot, or Syntology's."
    )
    snapshot = serializers.CharField(help_text="The snapshot date they state; '' if none.")
    licence = serializers.CharField()
    licence_url = serializers.CharField()
    documents = serializers.IntegerField()
    newest_read_at = serializers.DateTimeField(
        allow_null=True, help_text="When Syntology read it (or the date a dump's name gives)."
    )


class CatalogueCountsSerializer(serializers.Serializer):
    papers = serializers.IntegerField()
    code_entries = serializers.IntegerField()
    code_bodies = serializers.IntegerField()
    places = serializers.IntegerField()
    repositories = serializers.IntegerField()
    results = serializers.IntegerField()
    leaderboards = serializers.IntegerField()


class DataSummarySerializer(serializers.Serializer):
    last_load = LoadRunRefSerializer(allow_null=True, help_text="The last load that succeeded; null if none.")
    sources = SnapshotSourceSerializer(many=True)
    counts = CatalogueCountsSerializer()
    loads = serializers.CharField(help_text="The load history: every run, newest first.")
    licence = LicenceSerializer()
    attribution = AttributionSerializer()
