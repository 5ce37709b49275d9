"""The JSON API under /api/."""

urlpatterns = []
