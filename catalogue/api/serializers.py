"""Representations. Serializers never query per row: views hand them prefetched rows and figures.

Two families:

* Papers-with-Code v1 shapes (``Paper``, ``Repository``, ``Task``, ``Method``, ``Area``,
  ``Dataset``, ``Author``, ``Conference``, ``Proceeding``, ``EvaluationTable``, ``Metric``,
  ``Result``, ``PaperRepo``) with that API's field names, so its clients parse them. Fields
  the catalogue does not hold are served empty in the form those clients accept and say "Not
  known" in the schema. The catalogue's own fields follow.
* The catalogue's own: code entries with their figures, samples (places).

Curator corrections (``catalogue.curation``): fields serve the corrected value (a paper's
``title``, a place's ``status``), and ``corrected`` names each corrected field with the
snapshot's value, when, why and by whom, and the record's public history page:
``{"status": {"snapshot": "unverified", "corrected_at": …, "reason": …, "by": "a curator",
"history": …}}``; ``{}`` where nothing is. A list reads its page's corrections in one query
(none when no row on it is corrected).
"""

from collections.abc import Mapping
from functools import cached_property
from types import FunctionType, MethodType
from urllib.parse import quote

from django.urls import NoReverseMatch, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue import metrics
from catalogue.api import ids
from catalogue.models import DocumentKind, LoadRun, LoadRunOutcome, RepoKind, Status, TitleSource
from catalogue.models.corrections import (
    active_status_corrections,
    attach_title_corrections,
    title_correction,
)

NOT_KNOWN = "Not known to this catalogue: always {}."


def _not_known(field, empty, **kwargs):
    return field(read_only=True, default=empty, help_text=NOT_KNOWN.format(repr(empty)), **kwargs)


class _Constant(serializers.Field):
    """A value the catalogue does not hold, served as the empty value PwC clients accept."""

    def __init__(self, value, **kwargs):
        self.value = value
        kwargs.setdefault("help_text", NOT_KNOWN.format("null" if value is None else repr(value)))
        super().__init__(read_only=True, source="*", **kwargs)

    def to_representation(self, obj):
        return self.value


@extend_schema_field({"type": "string", "nullable": True})
class NullString(_Constant):
    def __init__(self, **kwargs):
        super().__init__(None, **kwargs)


@extend_schema_field(OpenApiTypes.STR)
class EmptyString(_Constant):
    def __init__(self, **kwargs):
        super().__init__("", **kwargs)


@extend_schema_field(OpenApiTypes.INT)
class ZeroStars(_Constant):
    VALUE = 0

    def __init__(self, **kwargs):
        super().__init__(
            self.VALUE, help_text="Not known to this catalogue (stars are not in the archive): always 0."
        )


class BlankAsNull(serializers.CharField):
    """A text the catalogue stores as "" where the archive gives none, served as null (as PwC did)."""

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value):
        return str(value) if value else None


# --- plain rows: the hot lists without DRF's per-field machinery per row -------------------


class PlainRows:
    """A serializer whose rows are read by a plan made once per serializer, not field by field.

    DRF reads each field of each row through ``_readable_fields``, ``Field.get_attribute`` (a
    try per field, a Mapping check per step of its source) and a nested serializer's own pass:
    for a page of 50 places, about 1,000 such reads, a fifth of the request (bench/README.md,
    "Issue 16"). The plan holds, per declared field, the attributes its source follows and the
    bound ``to_representation`` that shapes the value (nested serializers: their own plan), so
    the output is the declared fields' own, in their order; the declared fields stay what the
    OpenAPI schema reads. A row the plan cannot read (an attribute missing on the way, where DRF
    would apply a default or skip the field) goes through DRF's own path.
    tests/test_api_serializers.py holds both paths equal over the seeds' rows.
    """

    # (This docstring is also the OpenAPI description of every subclass that has none of its
    # own: drf-spectacular inherits it. Changing it changes the published schema.)
    #
    # The plan is made once per class, from the one copy of the declared fields the class makes
    # for the process: each serializer made deep-copies its declared fields (``Serializer.fields``),
    # and for a paper's detail that was five serializers and ~120 field copies a request, a third
    # of its Python. Only what reads the serializer's ``context`` (the request, the page's names
    # and figures) is bound per serializer: a method field's method, a nested serializer's plan.

    @classmethod
    def _class_plan(cls) -> list[tuple]:
        """(name, source attributes, how, what) per readable field, made once per class: ``how``
        says whether ``what`` is a field's ``to_representation`` (shared: no field of these
        serializers reads the context there), a method's name or a nested serializer's class."""
        plan = cls.__dict__.get("_plan_of_class")  # the class's own: a subclass has more fields
        if plan is None:
            plan = []
            for name, field in cls().fields.items():  # the one deep copy of the declared fields
                if field.write_only:
                    continue
                if isinstance(field, serializers.SerializerMethodField):
                    how, what = _METHOD, field.method_name
                elif isinstance(field, PlainRows) and not getattr(field, "many", False):
                    how, what = _NESTED, type(field)
                else:
                    how, what = _FIELD, field.to_representation
                plan.append((name, tuple(field.source_attrs), how, what))
            cls._plan_of_class = plan  # two threads making it at once make the same plan
        return plan

    def _row_plan(self) -> list[tuple]:
        plan = self.__dict__.get("_plan")
        if plan is None:
            bound = {
                _FIELD: lambda what: what,
                _METHOD: lambda what: getattr(self, what),
                _NESTED: lambda what: what(context=self.context)._plain,  # its context is ours
            }
            plan = [(name, attrs, bound[how](what)) for name, attrs, how, what in self._class_plan()]
            self._plan = plan
        return plan

    def _plain(self, instance) -> dict:
        row = {}
        try:
            for name, attrs, convert in self._row_plan():
                value = instance
                for attr in attrs:  # as DRF's get_attribute: a key of a mapping, a method called
                    value = value[attr] if isinstance(value, Mapping) else getattr(value, attr)
                    if type(value) in _SIMPLE_CALLABLES:
                        value = value()
                row[name] = None if value is None else convert(value)
        except (AttributeError, KeyError):
            return serializers.Serializer.to_representation(self, instance)
        return row

    def to_representation(self, instance):
        return self._plain(instance)


_FIELD, _METHOD, _NESTED = "field", "method", "nested"
_SIMPLE_CALLABLES = (FunctionType, MethodType)


# --- figures (computed by catalogue.queries, handed in by the view) ------------------------


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


class CorrectionMarkSerializer(serializers.Serializer):
    snapshot = serializers.CharField(help_text="The value the snapshot states (shown before correction).")
    corrected_at = serializers.DateTimeField(help_text="When the curator made the correction.")
    reason = serializers.CharField(help_text="Why, in the curator's words ('' if none was given).")
    by = serializers.CharField(help_text='The public name the curator chose, or "a curator".')
    history = serializers.CharField(help_text="The record's public correction history (a page).")


class PaperCorrectedSerializer(serializers.Serializer):
    title = CorrectionMarkSerializer(required=False)


class SampleCorrectedSerializer(serializers.Serializer):
    status = CorrectionMarkSerializer(required=False)


def _corrected(serializer, name: str, correction, snapshot: str, paper_slug: str) -> dict:
    """``{name: the mark}`` for a corrected field: the snapshot's value, when, why, by whom, where."""
    if correction is None:
        return {}
    history = f"{reverse('corrections')}?paper={quote(paper_slug)}#correction-{correction.pk}"
    request = serializer.context.get("request")
    return {
        name: {
            "snapshot": snapshot,
            "corrected_at": correction.created_at.isoformat().replace("+00:00", "Z"),
            "reason": correction.reason,
            "by": correction.by,
            "history": request.build_absolute_uri(history) if request else history,
        }
    }


class _CorrectionsAttached(serializers.ListSerializer):
    """A list whose rows' active corrections are read in one query for the page (none if none)."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        self.child.attach_corrections(rows)
        return super().to_representation(rows)


def _figures(serializer, obj):
    return serializer.context["figures"][obj.pk]


# --- Papers-with-Code shapes ----------------------------------------------------------------


class PaperSerializer(PlainRows, serializers.Serializer):
    id = serializers.CharField(source="slug", help_text="The paper's id: its slug. arXiv ids work too.")
    arxiv_id = serializers.CharField(allow_null=True)
    nips_id = BlankAsNull(help_text="The paper's id at NeurIPS, as the archive gives it; null if none.")
    url_abs = serializers.CharField(help_text='"" when not known.')
    url_pdf = serializers.CharField(help_text='"" when not known.')
    title = serializers.CharField()
    abstract = serializers.CharField(help_text='"" when not known.')
    authors = serializers.SerializerMethodField()
    published = serializers.DateField(source="date", allow_null=True)
    conference = BlankAsNull(
        help_text="The id of the paper's conference version, as the archive's papers dump gives it; "
        "null if none."
    )
    conference_url_abs = BlankAsNull(help_text="The conference version's page; null if not known.")
    conference_url_pdf = BlankAsNull(help_text="The conference version's PDF; null if not known.")
    proceeding = serializers.SerializerMethodField(help_text="The proceeding as the archive names it.")
    # The catalogue's own fields.
    title_source = serializers.ChoiceField(choices=TitleSource.choices, allow_null=True)
    month = serializers.SerializerMethodField(
        help_text="YYYY-MM: of the date, else inferred from the arXiv id; null if neither."
    )
    month_inferred = serializers.BooleanField(source="month_is_inferred")
    corrected = serializers.SerializerMethodField(
        help_text="Fields a curator corrected, with the snapshot's value."
    )

    def get_authors(self, paper) -> list[str]:
        names = self.context.get("author_names")  # a page's, read in one query by the view
        return names[paper.pk] if names is not None else [a.name for a in paper.authors.all()]

    def get_proceeding(self, paper) -> str | None:
        return paper.proceeding or None

    def get_month(self, paper) -> str | None:
        return paper.month or None

    class Meta:
        list_serializer_class = _CorrectionsAttached

    attach_corrections = staticmethod(attach_title_corrections)

    @extend_schema_field(PaperCorrectedSerializer)
    def get_corrected(self, paper):
        return _corrected(self, "title", title_correction(paper), paper.title_upstream, paper.slug)


class PaperDetailSerializer(PaperSerializer):
    aliases = serializers.SerializerMethodField(help_text="Every other slug this paper is found under.")
    figures = serializers.SerializerMethodField()

    def get_aliases(self, paper) -> list[str]:
        aliases = self.context.get("aliases")  # read by the view in one query
        return aliases if aliases is not None else [s.slug for s in paper.slugs.all() if s.slug != paper.slug]

    @cached_property
    def _figures_shape(self) -> "PaperFiguresSerializer":
        return PaperFiguresSerializer(context=self.context)

    @extend_schema_field(PaperFiguresSerializer)
    def get_figures(self, paper):
        return self._figures_shape.to_representation(self.context["paper_figures"])


class RepositorySerializer(serializers.Serializer):
    url = serializers.CharField()
    owner = serializers.CharField()
    name = serializers.CharField()
    description = EmptyString()
    stars = ZeroStars()
    framework = serializers.CharField(help_text='As the papers\' code links state it; "" when none does.')
    is_official = serializers.SerializerMethodField(
        help_text="Official implementation of the paper: only in a paper's repository list."
    )
    host = serializers.CharField()
    licence = serializers.CharField(source="spdx", help_text='SPDX licence id, "" when not known.')
    reach_status = serializers.CharField()

    def get_is_official(self, repo) -> bool | None:
        return None


class CodeLinkSourceSerializer(serializers.Serializer):
    document = serializers.CharField(help_text="The source document's url.")
    leaderboard = serializers.CharField(allow_null=True, help_text="The board whose row gives the link.")


class PaperRepositorySerializer(PlainRows, serializers.Serializer):
    """A paper's code link, in PwC's Repository shape."""

    url = serializers.CharField(source="repo.url")
    owner = serializers.CharField(source="repo.owner")
    name = serializers.CharField(source="repo.name")
    description = EmptyString()
    stars = ZeroStars()
    framework = serializers.CharField(help_text='"" when not known.')
    is_official = serializers.BooleanField(allow_null=True)
    host = serializers.CharField(source="repo.host")
    licence = serializers.CharField(source="repo.spdx")
    reach_status = serializers.CharField(source="repo.reach_status")
    link_url = serializers.CharField(source="repo_url", help_text="The link as the archive gives it.")
    sub_path = serializers.CharField(help_text='Part of the repository the link points into; "" for all.')
    mentioned_in_paper = serializers.BooleanField(allow_null=True)
    mentioned_in_github = serializers.BooleanField(allow_null=True)


class PaperCodeLinkSerializer(PaperRepositorySerializer):
    """A paper's code link (``/papers/<id>/repositories/``): PwC's Repository shape, and every source
    that states the link."""

    sources = serializers.SerializerMethodField(
        help_text="Every source that states the link: its document (a paper document's /paper/…, "
        "archive:links-between-papers-and-code, archive:evaluation-tables…) and, for a leaderboard "
        "row's code link, the leaderboard."
    )

    @extend_schema_field(CodeLinkSourceSerializer(many=True))
    def get_sources(self, link) -> list[dict]:
        return sorted(
            (
                {"document": s.document.url, "leaderboard": s.leaderboard.slug if s.leaderboard_id else None}
                for s in link.sources.all()
            ),
            key=lambda s: (s["document"], s["leaderboard"] or ""),
        )


class PaperRepoSerializer(PlainRows, serializers.Serializer):
    """PwC's search result: a paper and its best repository (official first)."""

    paper = PaperSerializer(source="*")
    repository = serializers.SerializerMethodField()
    is_official = serializers.SerializerMethodField()

    def _best(self, paper):
        # Asked twice per row (repository, is_official): the prefetched links are read once.
        last = self.__dict__.get("_last_best")
        if last is None or last[0] is not paper:
            links = paper.code_links.all()
            last = self._last_best = (paper, links[0] if links else None)
        return last[1]

    @cached_property
    def _repository(self) -> "PaperRepositorySerializer":
        return PaperRepositorySerializer(context=self.context)  # one for the page, not one per row

    @extend_schema_field(PaperRepositorySerializer(allow_null=True))
    def get_repository(self, paper):
        link = self._best(paper)
        return self._repository.to_representation(link) if link else None

    def get_is_official(self, paper) -> bool:
        link = self._best(paper)
        return bool(link and link.is_official)


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
        # Both read with the page (catalogue.api.queries.methods): no query per row.
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
        return dataset.task_ids  # set for the page by catalogue.api.queries.with_task_ids

    @extend_schema_field(DataLoaderSerializer(many=True))
    def get_data_loaders(self, dataset):
        return [d for d in dataset.data_loaders or [] if isinstance(d, dict)]


class PaperDatasetSerializer(DatasetSerializer):
    """A dataset of one paper: one it introduced, one it has leaderboard results on, or both."""

    introduced = serializers.BooleanField(help_text="The paper introduced the dataset.")
    evaluated = serializers.BooleanField(help_text="The paper has results on a leaderboard of the dataset.")


def _site_url(serializer, name: str, *args) -> str | None:
    """The address of one of the site's pages, absolute; None where the site has none (a name
    holding a line break matches no page address)."""
    try:
        url = reverse(name, args=args)
    except NoReverseMatch:
        return None
    request = serializer.context.get("request")
    return request.build_absolute_uri(url) if request else url


class AuthorSerializer(serializers.Serializer):
    """PwC's Author. The data names people, it does not identify them: an author here is an exact
    name, which may be several people (and one person may go by several names)."""

    id = serializers.CharField(source="name", help_text="The author's id: the exact name, as papers give it.")
    full_name = serializers.CharField(source="name", help_text="The name, as papers give it.")
    url = serializers.SerializerMethodField(
        help_text="The name's page in this catalogue (its papers); null if the site has none."
    )

    def get_url(self, author) -> str | None:
        return _site_url(self, "author", author["name"])


class ConferenceSerializer(serializers.Serializer):
    """PwC's Conference, derived from the proceedings papers name (see /conferences/)."""

    id = serializers.CharField(help_text="The conference's id: the slug of its name.")
    name = serializers.CharField(help_text="As most of its papers' proceedings spell it.")


class ProceedingSerializer(serializers.Serializer):
    """PwC's Proceeding (``id``, ``year``, ``month``), derived from the proceedings papers name."""

    id = serializers.CharField(help_text="The proceeding's id: the slug of its name.")
    year = serializers.IntegerField(allow_null=True, help_text="As its name gives it; null if it gives none.")
    month = serializers.IntegerField(
        allow_null=True, help_text="1-12, as its name gives it after the year; null if it gives none."
    )
    # The catalogue's own.
    name = serializers.CharField(help_text="As papers name it (the spelling most of them give).")
    conference = serializers.CharField(help_text="The id of its conference.")
    n_papers = serializers.IntegerField(help_text="Papers that name it.")
    url = serializers.SerializerMethodField(
        help_text="Its page in this catalogue (by the same id); null if the site has none."
    )

    def get_url(self, proceeding) -> str | None:
        return _site_url(self, "proceeding", proceeding.id)


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


# --- the catalogue's own --------------------------------------------------------------------


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

    # The declared fields are the schema; a row (``queries.place_rows``: plain columns, no model
    # instance) is shaped by ``to_representation`` in one step, the fields' order and values as
    # DRF made them of the model (tests/test_api_serializers.py holds the bytes equal).
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
        return _corrected(self, "status", corrections.get(row.id), row.status_upstream, row.paper__slug)

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


# --- where the data comes from: the API's root, its data summary and the load history ---------


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
