"""Papers-with-Code's paper shapes: papers, their repositories, authors, conferences, proceedings."""

from functools import cached_property

from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue.api.serializers.base import (
    BlankAsNull,
    EmptyString,
    PaperCorrectedSerializer,
    PlainRows,
    ZeroStars,
    corrected_mark,
)
from catalogue.api.serializers.figures import PaperFiguresSerializer
from catalogue.models import TitleSource
from catalogue.models.corrections import attach_title_corrections, title_correction


class _CorrectionsAttached(serializers.ListSerializer):
    """A list whose rows' active corrections are read in one query for the page (none if none)."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        self.child.attach_corrections(rows)
        return super().to_representation(rows)


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
        return corrected_mark(self, "title", title_correction(paper), paper.title_upstream, paper.slug)


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
