from django.contrib.admin.apps import AdminConfig


class CuratorAdminConfig(AdminConfig):
    """django.contrib.admin, whose ``admin.site`` is the site that asks staff for a TOTP code."""

    default_site = "catalogue.twofactor.site.CuratorAdminSite"
