"""Papers-with-Code's tasks, methods, areas and datasets."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

MARKDOWN = 'Markdown, as the archive gives it (PwC served it so, not as HTML); "" when not known.'


class TaskSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug")
    name = serializers.CharField()
    description = serializers.CharField(help_text=MARKDOWN)


class MethodSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug")
    name = serializers.CharField()
    full_name = serializers.CharField(help_text='"" when not known.')
    description = serializers.CharField(help_text=MARKDOWN)
    paper = serializers.SerializerMethodField(
        help_text="Id of the paper that introduced the method: the one the archive's methods dump "
        "names, else the first (by id) of those paper documents say introduced it; null if none."
    )

    def get_paper(self, method) -> str | None:
        # Both read with the page (catalogue.reads.taxonomy.methods): no query per row.
        if method.introduced_in is not None:
            return method.introduced_in.slug
        papers = method.introduced_by.all()
        return papers[0].slug if papers else None


class AreaSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug", help_text="The area's id: its slug.")
    name = serializers.CharField()


class DatasetPaperSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug", help_text="The paper's id.")
    title = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="The paper's page in this catalogue.")

    def get_url(self, paper) -> str:
        url = paper.get_absolute_url()
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url


class DataLoaderSerializer(serializers.Serializer):
    url = serializers.CharField(help_text='Where the loader is documented; "" when not known.')
    repo = serializers.CharField(help_text='Its repository; "" when not known.')
    frameworks = serializers.ListField(child=serializers.CharField())


class DatasetSerializer(serializers.Serializer):
    """PwC's Dataset (``id``, ``name``, ``full_name``, ``url``) and what its datasets dump held."""

    id = serializers.CharField(source="slug", help_text="The dataset's id: its slug.")
    name = serializers.CharField()
    full_name = serializers.CharField(help_text='"" when not known.')
    url = serializers.SerializerMethodField(
        help_text="Where the dataset is found: its homepage; null if none."
    )
    description = serializers.CharField(help_text='"" when not known.')
    homepage = serializers.CharField(help_text='"" when not known.')
    paper = serializers.SerializerMethodField(
        help_text="The paper that introduced it: the dataset's own record's, else the first a paper "
        "document names; null if none."
    )
    introduced_date = serializers.DateField(allow_null=True)
    modalities = serializers.ListField(child=serializers.CharField())
    languages = serializers.ListField(child=serializers.CharField())
    variants = serializers.ListField(child=serializers.CharField())
    num_papers = serializers.IntegerField(
        allow_null=True, help_text="Papers using it, as the archive counted them; null if not stated."
    )
    tasks = serializers.SerializerMethodField(
        help_text="Ids of its tasks: those its record names and those of its leaderboards."
    )
    data_loaders = serializers.SerializerMethodField(help_text="As the archive gives them.")
    # The catalogue's own.
    parent = serializers.CharField(
        source="parent.slug", allow_null=True, default=None, help_text="Id of the dataset this is a part of."
    )

    def get_url(self, dataset) -> str | None:
        return dataset.homepage or None

    @extend_schema_field(DatasetPaperSerializer(allow_null=True))
    def get_paper(self, dataset):
        paper = dataset.introducing_paper()
        return DatasetPaperSerializer(paper, context=self.context).data if paper else None

    def get_tasks(self, dataset) -> list[str]:
        return dataset.task_ids  # set for the page by catalogue.reads.taxonomy.with_task_ids

    @extend_schema_field(DataLoaderSerializer(many=True))
    def get_data_loaders(self, dataset):
        return [d for d in dataset.data_loaders or [] if isinstance(d, dict)]


class PaperDatasetSerializer(DatasetSerializer):
    """A dataset of one paper: one it introduced, one it has leaderboard results on, or both."""

    introduced = serializers.BooleanField(help_text="The paper introduced the dataset.")
    evaluated = serializers.BooleanField(help_text="The paper has results on a leaderboard of the dataset.")
