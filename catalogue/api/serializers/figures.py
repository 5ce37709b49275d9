"""Figures (computed by ``catalogue.figures``, handed in by the view)."""

from rest_framework import serializers

from catalogue.api.serializers.base import PlainRows


class ByStatusSerializer(PlainRows, serializers.Serializer):
    ran_honours = serializers.IntegerField()
    ran_violates = serializers.IntegerField()
    ran_draft_wrong = serializers.IntegerField()
    ran_fixture = serializers.IntegerField()
    ran = serializers.IntegerField()
    unverified = serializers.IntegerField()


class FiguresSerializer(PlainRows, serializers.Serializer):
    """docs/SNAPSHOT-FORMAT.md's figures: samples count distinct code bodies, places count rows."""

    n_places = serializers.IntegerField(help_text="Places (sample rows).")
    n_places_pointer_only = serializers.IntegerField(help_text="Places whose code may only be pointed to.")
    n_samples = serializers.IntegerField(help_text="Distinct code bodies.")
    n_samples_ran = serializers.IntegerField(help_text="Bodies counted under any status but unverified.")
    n_samples_fingerprinted = serializers.IntegerField()
    n_papers = serializers.IntegerField()
    n_papers_ran = serializers.IntegerField()
    n_places_corrected = serializers.IntegerField(help_text="Places whose status a curator corrected.")
    by_status = ByStatusSerializer(help_text="Distinct bodies per status; every status, zeros included.")


class RepoKindFiguresSerializer(PlainRows, serializers.Serializer):
    samples = serializers.IntegerField()
    ran = serializers.IntegerField()
    repositories = serializers.IntegerField()


class PaperFiguresSerializer(PlainRows, serializers.Serializer):
    samples = FiguresSerializer(help_text="The figures of this paper's places.")
    summary = serializers.DictField(
        child=serializers.IntegerField(), help_text="Status -> distinct bodies, zero statuses left out."
    )
    by_repo_kind = serializers.DictField(
        child=RepoKindFiguresSerializer(), help_text="Repository kind ('unknown' if unstated) -> figures."
    )
    n_pointer_only_for_licence = serializers.IntegerField()
