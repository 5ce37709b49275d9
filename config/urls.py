"""Top-level routes: the admin, the JSON API, health checks, and the public pages."""

import os

from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path


def healthz(request):
    """The process is up. Touches no database: also the 'trivial view' of the benchmarks."""
    return HttpResponse("ok\n", content_type="text/plain")


urlpatterns = [
    # The admin's path is configuration (a fixed, well-known path draws password guessing).
    path(os.environ.get("ADMIN_PATH", "admin/").strip("/") + "/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/", include("catalogue.api.urls")),
    path("", include("catalogue.urls")),
]
