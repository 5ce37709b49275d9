"""Top-level routes: the admin, the JSON API, health checks, and the public pages."""

import os

from django.contrib import admin
from django.urls import include, path

from catalogue.agents import views as agents
from config.observability import healthz, readyz

urlpatterns = [
    # The admin's path is configuration (a fixed, well-known path draws password guessing).
    path(os.environ.get("ADMIN_PATH", "admin/").strip("/") + "/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("api/", include("catalogue.api.urls")),
    # The MCP server, its discovery document and /llms.txt (catalogue.agents; docs/MCP.md).
    *agents.urls(),
    path("", include("catalogue.urls")),
]

# JSON errors under /api/, the site's error pages elsewhere (config/errors.py).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
