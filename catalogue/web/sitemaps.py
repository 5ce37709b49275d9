"""sitemap.xml: an index of per-section sitemaps, each split into pages of SITEMAP_LIMIT URLs.

The real archive holds about 576,000 papers; one sitemap may list 50,000 URLs at most,
and smaller pages are cheaper to build, so every section is paged.
"""

from django.contrib.sitemaps import Sitemap
from django.db.models import Model
from django.urls import reverse

from catalogue.addresses import repo_path
from catalogue.models import Area, CodeEntry, Dataset, Leaderboard, Method, Paper, Repo, Task
from catalogue.pagination.paginators import KeysFirstPaginator

SITEMAP_LIMIT = 5000


class _Section(Sitemap):
    limit = SITEMAP_LIMIT
    model: type[Model]  # each section says which
    fields: tuple[str, ...] = ("slug",)

    def items(self):
        return self.model.objects.only("id", *self.fields).order_by("id")

    @property
    def paginator(self):
        # The API's paginator: the total is remembered per data version (not a COUNT of
        # 576,000 papers per request) and a deep page skips rows on the id index alone.
        return KeysFirstPaginator(self._items(), self.limit)


def _section(model: type[Model]) -> type[_Section]:
    """A section of every ``model`` row at its own address (``get_absolute_url``), by slug."""
    return type(f"{model.__name__}Sitemap", (_Section,), {"model": model})


class PaperSitemap(_Section):
    model = Paper
    changefreq = "monthly"


class RepoSitemap(_Section):
    model = Repo
    fields = ("host", "owner", "name")

    def location(self, item):
        return repo_path(item)


class ConferenceSitemap(Sitemap):
    """Conference pages and their proceedings' pages (derived from papers, so a list, not a model)."""

    limit = SITEMAP_LIMIT

    def items(self):
        from catalogue import conferences

        found = conferences.conferences().values()
        return [("conference", c.id) for c in found] + [
            ("proceeding", p.id) for c in found for p in c.proceedings
        ]

    def location(self, item):
        return reverse(item[0], args=[item[1]])


class StaticSitemap(Sitemap):
    def items(self):
        return ["home", "paper_list", "code_entry_list", "sota", "task_list", "dataset_list", "method_list",
                "proceeding_list", "corrections", "about", "attribution", "data"]  # fmt: skip

    def location(self, item):
        return reverse(item)


SITEMAPS = {
    "pages": StaticSitemap,
    "papers": PaperSitemap,
    "code": _section(CodeEntry),
    "repositories": RepoSitemap,
    "leaderboards": _section(Leaderboard),
    "tasks": _section(Task),
    "methods": _section(Method),
    "datasets": _section(Dataset),
    "areas": _section(Area),
    "conferences": ConferenceSitemap,
}
