"""``/api/v1/papers/<id>/related/``: the papers related to one by what only this catalogue knows
(``catalogue.reads.related``: a shared code body, then a repository, then a leaderboard), each with
its reason; at most ``reads.related.LIMIT``, in one query whatever the paper."""

from rest_framework import serializers

from catalogue import reads
from catalogue.api.views import DetailView, _PaperChild


class RelatedPaperSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug", help_text="The related paper's id (its slug).")
    title = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="Its page.")
    reason = serializers.ChoiceField(
        choices=["code_body", "repository", "leaderboard"],
        help_text="The strongest thing the two papers share: a code body (the same code harvested "
        "from both), a repository the archive links to both, or a leaderboard both have results on.",
    )
    reason_text = serializers.CharField(source="words", help_text='In words: "shares 3 code bodies".')
    n_shared = serializers.IntegerField(help_text="How many of those the two papers share.")
    example = serializers.CharField(
        source="example_label",
        help_text="One of them: a code body's sha256 prefix, a repository's owner/name, a leaderboard's id.",
    )

    def get_url(self, row) -> str:
        return self.context["request"].build_absolute_uri(row.url)


class RelatedPapersSerializer(serializers.Serializer):
    paper = serializers.CharField(help_text="The paper's id.")
    results = RelatedPaperSerializer(many=True)


class PaperRelatedList(_PaperChild, DetailView):
    """Papers related to this one: sharing a code body, then a repository, then a leaderboard
    (each paper once, by its strongest reason), at most 10."""

    serializer_class = RelatedPapersSerializer

    def get_object(self):
        return {"paper": self.paper.slug, "results": reads.related.related_papers(self.paper)}
