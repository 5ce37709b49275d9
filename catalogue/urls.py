"""Public pages (server-rendered).

Paper and code-entry paths are codewithpapers.app's own (``/paper/<slug>``,
``/code/<slug>``), so old links keep working; ``/paper/<arXiv id>`` and ``/abs/<arXiv id>``
find a paper by its arXiv id, as arxiv.org's own addresses do. A repository is
``/repo/<owner>/<name>``; one not on GitHub adds ``?host=<host>`` (``/repo/owner/name?host=gitlab.com``).
"""

from django.contrib.sitemaps import views as sitemap_views
from django.urls import path, re_path, register_converter

from catalogue import authors
from catalogue.web import feeds, pageframe
from catalogue.web.sitemaps import SITEMAPS
from catalogue.web.views import code, leaderboards, named, papers, site, taxonomy


class SegmentConverter:
    """One path segment with no NUL byte (a NUL can never name anything we store)."""

    regex = r"[^/\x00]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(SegmentConverter, "segment")


class AuthorConverter:
    """An author name that has a page (``catalogue.authors.has_page``): any other is a 404 before
    any query, and reversing one is a NoReverseMatch (the API's ``url`` is then null)."""

    regex = r"[^/]+"

    def to_python(self, value):
        if not authors.has_page(value):
            raise ValueError(value)
        return value

    def to_url(self, value):
        if not authors.has_page(value):
            raise ValueError(value)
        return value


register_converter(AuthorConverter, "author")

urlpatterns = [
    path("", site.home, name="home"),
    path("search", papers.search_view, name="search"),
    path("papers/", papers.paper_list, name="paper_list"),
    path("papers/feed", pageframe.feed(feeds.NewPapersFeed()), name="papers_feed"),
    path("paper/<segment:slug>", papers.paper_detail, name="paper"),
    path("paper/<segment:slug>/bibtex", papers.paper_bibtex, name="paper_bibtex"),
    # arXiv ids as arxiv.org writes them; an old-style id has a slash (hep-th/9901001v1)
    re_path(r"^abs/(?P<arxiv_id>[^\x00]+?)/?$", papers.paper_by_arxiv_id, name="arxiv_abs"),
    re_path(r"^paper/(?P<arxiv_id>[a-z-]+(?:\.[A-Za-z-]+)?/\d{7}(?:v\d+)?)$", papers.paper_by_arxiv_id),
    path("code/", code.code_entry_list, name="code_entry_list"),
    path("code/<segment:slug>", code.code_entry_detail, name="code_entry"),
    path("code/<segment:slug>/feed", pageframe.feed(feeds.CodeEntryFeed()), name="code_entry_feed"),
    path("body/<segment:prefix>", code.code_body_detail, name="code_body"),
    path("repo/<segment:owner>/<segment:name>", code.repo_detail, name="repo"),
    path("sota/", taxonomy.sota_index, name="sota"),
    path("sota/<segment:slug>", leaderboards.leaderboard_detail, name="leaderboard"),
    path("area/<segment:slug>", taxonomy.area_detail, name="area"),
    path("tasks/", taxonomy.task_list, name="task_list"),
    path("datasets/", taxonomy.dataset_list, name="dataset_list"),
    path("dataset/<segment:slug>", taxonomy.dataset_detail, name="dataset"),
    path("dataset/<segment:slug>/leaderboards", taxonomy.dataset_leaderboards, name="dataset_leaderboards"),
    # an author is an exact name, as the data gives it, if it makes an address (catalogue.authors)
    path("author/<author:name>", named.author_detail, name="author"),
    path("proceedings/", named.proceeding_list, name="proceeding_list"),
    path("conference/<segment:slug>", named.conference_detail, name="conference"),
    # a proceeding is its id (catalogue.conferences), as in the API
    path("proceeding/<segment:slug>", named.proceeding_detail, name="proceeding"),
    path("sota/<segment:slug>/feed", pageframe.feed(feeds.LeaderboardFeed()), name="leaderboard_feed"),
    # the board's rows as shown (its ?metric= and ?code=), every page of them: table.csv, table.json
    path("sota/<segment:slug>/table.<segment:fmt>", leaderboards.leaderboard_table, name="leaderboard_table"),
    # paperswithcode.com's badge addresses: shields.io endpoint JSON, and the badge as SVG
    path("badge/<segment:paper>/<segment:board>.svg", leaderboards.badge_svg, name="badge_svg"),
    path("badge/<segment:paper>/<segment:board>", leaderboards.badge_endpoint, name="badge"),
    path("task/<segment:slug>", taxonomy.task_detail, name="task"),
    path("task/<segment:slug>/feed", pageframe.feed(feeds.TaskPapersFeed()), name="task_feed"),
    path("task/<segment:slug>/leaderboards", taxonomy.task_leaderboards, name="task_leaderboards"),
    path("methods/", taxonomy.method_list, name="method_list"),
    path("method/<segment:slug>", taxonomy.method_detail, name="method"),
    path("corrections/", site.correction_list, name="corrections"),
    path("corrections/feed", pageframe.feed(feeds.CorrectionsFeed()), name="corrections_feed"),
    path("about", site.about, name="about"),
    # where every snapshot document's about.attribution points
    path("attribution", site.attribution_page, name="attribution"),
    path("data/", site.data_page, name="data"),
    path("robots.txt", site.robots_txt, name="robots_txt"),
    path("favicon.ico", site.favicon),
    path(
        "sitemap.xml",
        sitemap_views.index,
        {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap_section"},
        name="sitemap",
    ),
    path(
        "sitemap-<section>.xml",
        sitemap_views.sitemap,
        {"sitemaps": SITEMAPS},
        name="sitemap_section",
    ),
    # <page>.json for pages whose address has no argument to carry the suffix (lists, /about);
    # the others (/paper/<slug>.json) reach their own view, which sees the suffix. Keep it last.
    re_path(r"^(?P<address>[^\x00]+)\.json$", pageframe.json_form_of, name="json_form"),
    re_path(r"^(?P<address>[^\x00]+)\.md$", pageframe.json_form_of, name="markdown_form"),
]
