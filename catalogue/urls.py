"""Public pages (server-rendered)."""

urlpatterns = []
