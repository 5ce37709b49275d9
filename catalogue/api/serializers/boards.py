"""Papers-with-Code's leaderboards (evaluation tables), their metrics and rows."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue import metrics
from catalogue.api import ids
from catalogue.api.serializers.base import EmptyString, NullString


class EvaluationSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug", help_text="The leaderboard: <task>-on-<dataset>.")
    task = serializers.CharField(source="task.slug")
    dataset = serializers.CharField(source="dataset.name", help_text="The dataset's name (its id here).")
    description = serializers.CharField(
        help_text='What the archive\'s table says of its dataset, as given; "" when not known.'
    )
    mirror_url = NullString()


class MetricSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = EmptyString()
    is_loss = serializers.SerializerMethodField(
        help_text=(
            "True where lower is better, as the metric's name tells (errors, losses, distances, "
            "costs such as parameters or time). False where higher is better and also where the name "
            "does not tell (the archive never says): `direction` tells the two apart."
        )
    )
    # The catalogue's own.
    direction = serializers.SerializerMethodField(
        help_text=(
            '"higher" or "lower": which way the metric is better, read from its name by the rules '
            "of the site's leaderboards, which rank by it; null where the name does not tell (the "
            "archive never says), and a leaderboard ranked by it keeps the archive's order."
        )
    )

    def get_is_loss(self, metric) -> bool:
        return metrics.lower_is_better(metric["name"])

    @extend_schema_field({"type": "string", "enum": [metrics.HIGHER, metrics.LOWER], "nullable": True})
    def get_direction(self, metric) -> str | None:
        return metrics.direction(metric["name"])


class ResultSerializer(serializers.Serializer):
    """A leaderboard row. ``best_metric`` and ``best_rank`` are read for the page by the view
    (``catalogue.api.queries.best_ranks``, in the context as ``best``), never per row."""

    id = serializers.SerializerMethodField(help_text="Stable id of the row within its evaluation.")
    best_rank = serializers.SerializerMethodField(
        help_text="The row's place on its board ranked by best_metric, among the rows this catalogue "
        "holds, as the leaderboard page ranks them (the table's order where the metric's direction is "
        "not known); null where best_metric is. The archive's own position: rank_in_archive_order."
    )
    metrics = serializers.DictField(
        child=serializers.CharField(allow_null=True), help_text="As given: '84.4%'."
    )
    methodology = serializers.CharField(source="model")
    uses_additional_data = serializers.SerializerMethodField(
        help_text="false also where the archive does not say, as PwC served it and its client reads "
        "it (see uses_additional_data_stated)."
    )
    paper = serializers.CharField(
        source="paper.slug", allow_null=True, default=None, help_text="null for a row that names no paper."
    )
    best_metric = serializers.SerializerMethodField(
        help_text="The metric the row's board is ranked by (the first quality column of the archive's "
        "table, else the metric most of its rows state), where the row gives a number for it; else null."
    )
    evaluated_on = serializers.SerializerMethodField(help_text="The paper's date (YYYY-MM-DD), if known.")
    external_source_url = serializers.SerializerMethodField(
        help_text="For a row that names no paper of the catalogue: the address the row gives, if any."
    )
    evaluation = serializers.CharField(source="leaderboard.slug")
    task = serializers.CharField(source="leaderboard.task.slug")
    dataset = serializers.CharField(source="leaderboard.dataset.name")
    rank_in_archive_order = serializers.IntegerField(
        allow_null=True, help_text="The row's position in the archive's table (of rank_of), as given."
    )
    rank_of = serializers.IntegerField(source="of", allow_null=True, help_text="Rows on the leaderboard.")
    uses_additional_data_stated = serializers.BooleanField(
        source="uses_additional_data",
        allow_null=True,
        help_text="As the archive states it; null where it does not (not every vintage of its tables does).",
    )
    paper_title = serializers.CharField(help_text='The paper as the row names it ("" when not given).')

    def get_id(self, result) -> str:
        return ids.result_id(result)

    def get_best_rank(self, result) -> int | None:
        best = self.context["best"].get(result.pk)
        return best[1] if best else None

    def get_best_metric(self, result) -> str | None:
        best = self.context["best"].get(result.pk)
        return best[0] if best else None

    def get_uses_additional_data(self, result) -> bool:
        return bool(result.uses_additional_data)

    def get_evaluated_on(self, result) -> str | None:
        date = result.paper.date if result.paper else result.paper_date
        return date.isoformat() if date else None

    def get_external_source_url(self, result) -> str | None:
        return None if result.paper else (result.paper_url or None)
