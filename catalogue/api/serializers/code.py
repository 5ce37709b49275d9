"""The catalogue's own: code entries with their figures, and places (samples)."""

from functools import cached_property

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue.api.serializers.base import PlainRows, SampleCorrectedSerializer, corrected_mark
from catalogue.api.serializers.figures import FiguresSerializer
from catalogue.models import RepoKind, Status
from catalogue.models.corrections import active_status_corrections


def _figures(serializer, obj):
    return serializer.context["figures"][obj.pk]


class CodeEntrySerializer(PlainRows, serializers.Serializer):
    id = serializers.CharField(source="slug")
    name = serializers.CharField(
        help_text="The routine name; same-named routines are not claimed equivalent."
    )
    claim = serializers.CharField()
    figures = serializers.SerializerMethodField()

    @cached_property
    def _figures_shape(self) -> "FiguresSerializer":
        return FiguresSerializer(context=self.context)  # one for the page, not one per row

    @extend_schema_field(FiguresSerializer)
    def get_figures(self, entry):
        return self._figures_shape.to_representation(_figures(self, entry).as_dict())


class PaperRefSerializer(PlainRows, serializers.Serializer):
    id = serializers.CharField(source="slug")
    arxiv_id = serializers.CharField(allow_null=True)
    title = serializers.CharField()


class EntryRefSerializer(PlainRows, serializers.Serializer):
    id = serializers.CharField(source="slug")
    name = serializers.CharField()


class RepoRefSerializer(PlainRows, serializers.Serializer):
    owner = serializers.CharField()
    name = serializers.CharField()
    host = serializers.CharField()
    url = serializers.CharField()


class CodeTextSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The code, as the snapshot gives it.")
    language = serializers.CharField(help_text='As the snapshot names it ("python"); "" if not named.')


class _PlacesShaped(serializers.ListSerializer):
    """A page of place rows (``queries.place_rows``): their active corrections read in one query
    (none when no row on the page is corrected), then each row shaped by the child."""

    def to_representation(self, data):
        rows = list(data)
        self.child.corrections = active_status_corrections([r.id for r in rows if r.status_corrected])
        return [self.child.to_representation(row) for row in rows]


class SampleSerializer(serializers.Serializer):
    """A place: one code body under one routine name in one paper, maybe in a repository."""

    # The declared fields are the schema; a row (``reads.code.place_rows``: plain columns, no model
    # instance) is shaped by ``to_representation`` in one step, the fields' order and values as
    # DRF made them of the model (tests/api/test_api_serializers.py holds the bytes equal).
    paper = PaperRefSerializer()
    code_entry = EntryRefSerializer(source="entry")
    code_sha256_prefix = serializers.CharField(source="body.sha256_prefix")
    repository = RepoRefSerializer(source="repo", allow_null=True)
    path = serializers.CharField(help_text='"" when the place has no repository.')
    file_url = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(
        choices=Status.choices, help_text="'ran' never means 'correct'; ran_draft_wrong and ran_fixture "
        "are failures of the instrument, not of the code."
    )  # fmt: skip
    verification_level = serializers.IntegerField()
    contract_check = serializers.CharField(allow_null=True)
    metamorphic_tier = serializers.CharField(allow_null=True)
    behaviour_fingerprint = serializers.BooleanField()
    licence = serializers.CharField(
        allow_null=True, help_text="SPDX id, NONE or NOASSERTION; null if unknown."
    )
    inline_ok = serializers.BooleanField(help_text="false: the code may only be pointed to, never shown.")
    repo_kind = serializers.ChoiceField(choices=RepoKind.choices, allow_null=True)
    link_basis = serializers.CharField()
    language = serializers.CharField()
    code = serializers.SerializerMethodField(
        help_text="The code body's text, only where this place's licence lets it be shown (inline_ok "
        "true); null at a pointer-only place, even when another place of the body shows it, and "
        "where no text is known (then use file_url, or Syntology's get_code with code_sha256)."
    )
    corrected = serializers.SerializerMethodField(
        help_text="Fields a curator corrected, with the snapshot's value."
    )

    class Meta:
        list_serializer_class = _PlacesShaped

    corrections: dict | None = None  # place id -> active correction, read by the list for its page

    @extend_schema_field(CodeTextSerializer(allow_null=True))
    def get_code(self, row):
        # ``shown_code`` is "" wherever the place may not show the text (Sample.objects.with_shown_code).
        return {"text": row.shown_code, "language": row.body__code_language} if row.shown_code else None

    @extend_schema_field(SampleCorrectedSerializer)
    def get_corrected(self, row):
        corrections = self.corrections
        if corrections is None:  # one row on its own
            corrections = active_status_corrections([row.id] if row.status_corrected else [])
        return corrected_mark(self, "status", corrections.get(row.id), row.status_upstream, row.paper__slug)

    def to_representation(self, row):
        return {
            "paper": {"id": row.paper__slug, "arxiv_id": row.paper__arxiv_id, "title": row.paper__title},
            "code_entry": {"id": row.entry__slug, "name": row.entry__name},
            "code_sha256_prefix": row.body__sha256_prefix,
            "repository": None
            if row.repo_id is None
            else {
                "owner": row.repo__owner,
                "name": row.repo__name,
                "host": row.repo__host,
                "url": f"https://{row.repo__host}/{row.repo__owner}/{row.repo__name}",  # Repo.url
            },
            "path": row.path,
            "file_url": row.file_url,
            "status": row.status,
            "verification_level": row.verification_level,
            "contract_check": row.contract_check,
            "metamorphic_tier": row.metamorphic_tier,
            "behaviour_fingerprint": row.behaviour_fingerprint,
            "licence": row.licence,
            "inline_ok": row.inline_ok,
            "repo_kind": row.repo_kind,
            "link_basis": row.link_basis,
            "language": row.language,
            "code": self.get_code(row),
            "corrected": self.get_corrected(row),
        }
