"""Anonymous throttling whose rate is read per request, so settings overrides take effect."""

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle

from config.client_address import client_address

OFF = {"", "off", "none", "0"}


class AnonThrottle(AnonRateThrottle):
    """``settings.API_THROTTLE_ANON`` requests per client address ("60/minute"; "off" disables).

    DRF's own classes read their rates once, at import; this one reads the setting each
    time, which is what ``override_settings`` and an operator changing the environment need.
    Over the rate, DRF answers 429 with ``Retry-After``.
    """

    def allow_request(self, request, view):
        # An API read made by an MCP tool inside a request to /mcp that was counted already
        # (catalogue.agents): the environ key is the server's own, no header can set it.
        if getattr(request, "_request", request).META.get("cwp.mcp_counted"):
            return True
        return super().allow_request(request, view)

    def get_rate(self):
        rate = getattr(settings, "API_THROTTLE_ANON", None)
        return None if rate is None or str(rate).strip().lower() in OFF else rate

    def get_ident(self, request):
        # The site's one notion of the client (TRUSTED_PROXIES), not DRF's reading of
        # X-Forwarded-For, which without NUM_PROXIES takes the header whole: a made-up address
        # per request was a fresh allowance per request.
        return client_address(request)
