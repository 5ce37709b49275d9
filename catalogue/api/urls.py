"""The JSON API under /api/: v1 resources, the OpenAPI schema, and interactive docs.

Paths under v1/ follow the Papers-with-Code API v1 (trailing slashes included) so its
clients and scripts work unchanged; ``repositories/<owner>`` is PwC's one path without.
"""

from functools import wraps

from django.conf import settings
from django.urls import include, path, register_converter
from django.urls.converters import StringConverter
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from catalogue.api import named, provenance, related, views

app_name = "api"


class PaperIdConverter(StringConverter):
    """A slug or arXiv id; old-style arXiv ids (cs/9301114) carry one slash."""

    regex = r"[^/]+(?:/\d{7}(?:v\d+)?)?"


register_converter(PaperIdConverter, "paper_id")


class NameConverter(StringConverter):
    """An exact name as the data gives it (an author): any characters, slashes and line breaks
    included. So ``authors/<name>/papers/`` reads a name ending in "/papers" as that one's list."""

    regex = r"[\s\S]+"


register_converter(NameConverter, "name")

# Redoc's bundle adds two <style> elements as it loads, before any nonce can reach it (an empty
# one and its own fixed rules): they are allowed by hash, on this page only. Its search index
# runs in a Worker made from a blob: address, and its sidebar shows Redocly's logo from their CDN
# (hard-coded, no option turns it off): that one image address is allowed, nothing else of
# theirs (Referrer-Policy same-origin: the request carries no page address). Scripts stay
# nonce-only. A new drf-spectacular-sidecar that changes these fails tests/web/browser/test_csp_browser.py.
REDOC_STYLE_HASHES = [
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
]


def redoc_policy(view):
    """The site's policy plus what Redoc's bundle needs (read per response, not at import)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        policy = settings.SECURE_CSP
        response._csp_config = {  # what django.views.decorators.csp.csp_override sets
            **policy,
            "style-src": [*policy["style-src"], *REDOC_STYLE_HASHES],
            "worker-src": ["'self'", "blob:"],
            "img-src": [*policy["img-src"], "https://cdn.redoc.ly/redoc/logo-mini.svg"],
        }
        return response

    return wrapper


v1 = [
    path("", provenance.ApiRoot.as_view(), name="root"),
    path("search/", views.SearchView.as_view(), name="search"),
    path("papers/", views.PaperList.as_view(), name="paper-list"),
    path("papers/<paper_id:paper_id>/", views.PaperDetail.as_view(), name="paper-detail"),
    path(
        "papers/<paper_id:paper_id>/repositories/",
        views.PaperRepositoryList.as_view(),
        name="paper-repositories",
    ),
    path("papers/<paper_id:paper_id>/related/", related.PaperRelatedList.as_view(), name="paper-related"),
    path("papers/<paper_id:paper_id>/tasks/", views.PaperTaskList.as_view(), name="paper-tasks"),
    path("papers/<paper_id:paper_id>/methods/", views.PaperMethodList.as_view(), name="paper-methods"),
    path("papers/<paper_id:paper_id>/results/", views.PaperResultList.as_view(), name="paper-results"),
    path("papers/<paper_id:paper_id>/datasets/", views.PaperDatasetList.as_view(), name="paper-datasets"),
    path("papers/<paper_id:paper_id>/samples/", views.PaperSampleList.as_view(), name="paper-samples"),
    path("repositories/", views.RepositoryList.as_view(), name="repository-list"),
    path("repositories/<str:owner>", views.RepositoryOwnerList.as_view(), name="repository-owner"),
    path("repositories/<str:owner>/<str:name>/", views.RepositoryDetail.as_view(), name="repository-detail"),
    path(
        "repositories/<str:owner>/<str:name>/papers/",
        views.RepositoryPaperList.as_view(),
        name="repository-papers",
    ),
    path(
        "repositories/<str:owner>/<str:name>/samples/",
        views.RepositorySampleList.as_view(),
        name="repository-samples",
    ),
    path("tasks/", views.TaskList.as_view(), name="task-list"),
    path("tasks/<str:task_id>/", views.TaskDetail.as_view(), name="task-detail"),
    path("tasks/<str:task_id>/papers/", views.TaskPaperList.as_view(), name="task-papers"),
    path("tasks/<str:task_id>/evaluations/", views.TaskEvaluationList.as_view(), name="task-evaluations"),
    path("tasks/<str:task_id>/parents/", views.TaskParentList.as_view(), name="task-parents"),
    path("tasks/<str:task_id>/children/", views.TaskChildList.as_view(), name="task-children"),
    path("areas/", views.AreaList.as_view(), name="area-list"),
    path("areas/<str:area_id>/", views.AreaDetail.as_view(), name="area-detail"),
    path("areas/<str:area_id>/tasks/", views.AreaTaskList.as_view(), name="area-tasks"),
    path("datasets/", views.DatasetList.as_view(), name="dataset-list"),
    path("datasets/<str:dataset_id>/", views.DatasetDetail.as_view(), name="dataset-detail"),
    path(
        "datasets/<str:dataset_id>/evaluations/",
        views.DatasetEvaluationList.as_view(),
        name="dataset-evaluations",
    ),
    path("authors/", named.AuthorList.as_view(), name="author-list"),
    path("authors/<name:author_id>/papers/", named.AuthorPaperList.as_view(), name="author-papers"),
    path("authors/<name:author_id>/", named.AuthorDetail.as_view(), name="author-detail"),
    path("conferences/", named.ConferenceList.as_view(), name="conference-list"),
    path("conferences/<str:conference_id>/", named.ConferenceDetail.as_view(), name="conference-detail"),
    path(
        "conferences/<str:conference_id>/proceedings/",
        named.ConferenceProceedingList.as_view(),
        name="conference-proceedings",
    ),
    path(
        "conferences/<str:conference_id>/proceedings/<str:proceeding_id>/",
        named.ConferenceProceedingDetail.as_view(),
        name="conference-proceeding-detail",
    ),
    path(
        "conferences/<str:conference_id>/proceedings/<str:proceeding_id>/papers/",
        named.ConferenceProceedingPaperList.as_view(),
        name="conference-proceeding-papers",
    ),
    path("methods/", views.MethodList.as_view(), name="method-list"),
    path("methods/<str:method_id>/", views.MethodDetail.as_view(), name="method-detail"),
    path("evaluations/", views.EvaluationList.as_view(), name="evaluation-list"),
    path("evaluations/<str:evaluation_id>/", views.EvaluationDetail.as_view(), name="evaluation-detail"),
    path(
        "evaluations/<str:evaluation_id>/metrics/",
        views.EvaluationMetricList.as_view(),
        name="evaluation-metrics",
    ),
    path(
        "evaluations/<str:evaluation_id>/metrics/<str:metric_id>/",
        views.EvaluationMetricDetail.as_view(),
        name="evaluation-metric-detail",
    ),
    path(
        "evaluations/<str:evaluation_id>/results/",
        views.EvaluationResultList.as_view(),
        name="evaluation-results",
    ),
    path(
        "evaluations/<str:evaluation_id>/results/<str:result_id>/",
        views.EvaluationResultDetail.as_view(),
        name="evaluation-result-detail",
    ),
    path("code-entries/", views.CodeEntryList.as_view(), name="code-entry-list"),
    path("code-entries/<str:entry_id>/", views.CodeEntryDetail.as_view(), name="code-entry-detail"),
    path(
        "code-entries/<str:entry_id>/samples/",
        views.CodeEntrySampleList.as_view(),
        name="code-entry-samples",
    ),
    path("samples/", views.SampleList.as_view(), name="sample-list"),
    path("data/", provenance.DataSummary.as_view(), name="data"),
    path("loads/", provenance.LoadRunList.as_view(), name="load-list"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
]

urlpatterns = [
    path("v1/", include(v1)),
    # Both docs pages run under the site's Content-Security-Policy: the split view serves Swagger
    # UI's start-up script from its own address (?script=), and the templates nonce what is inline.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema",
            template_name="api/swagger_ui.html",
            template_name_js="api/swagger_ui.js",
        ),
        name="docs",
    ),
    path(
        "redoc/",
        redoc_policy(SpectacularRedocView.as_view(url_name="api:schema", template_name="api/redoc.html")),
        name="redoc",
    ),
]
