"""Every answer under /api/, and every JSON or Markdown form of a page, names its licence: CC BY-SA
4.0 reuse happens mostly through the API and those forms.

``Link: <deed>; rel="license", </attribution>; rel="describedby"`` (RFC 8288) on every response,
errors included, added to any Link the view set. The attribution page is a relative reference
(resolved against the request's own address), so no Host header is read here.
"""

from catalogue import attribution

LICENCE_LINKS = (
    f'<{attribution.LICENCE_URL}>; rel="license", <{attribution.ATTRIBUTION_PATH}>; rel="describedby"'
)


# A page's JSON and Markdown forms (``<page>.json``, ``<page>.md``, Accept) and /llms.txt carry the
# same data as the API: they name its licence too.
DATA_FORMS = frozenset({"application/json", "text/markdown"})


def _is_data_form(response) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip().lower() in DATA_FORMS


class LicenceLinkMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/api/") or _is_data_form(response):
            existing = response.get("Link")
            response["Link"] = f"{existing}, {LICENCE_LINKS}" if existing else LICENCE_LINKS
        return response
