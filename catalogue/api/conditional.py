"""ETag and conditional GET for detail resources; the shared response cache for every resource."""

from functools import partial

from django.middleware.http import ConditionalGetMiddleware

from catalogue import caching

_conditional = ConditionalGetMiddleware(get_response=lambda request: None)  # only process_response is used


def _after_render(request, response):
    # Runs once the body exists: sets a strong ETag (a hash of the body) and answers a
    # matching If-None-Match with 304, exactly as Django's middleware would site-wide.
    return _conditional.process_response(request, response)


class ConditionalGetMixin:
    """Detail views: ETag on every 200, and 304 Not Modified when the client's copy is current."""

    etag = True

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        # A copy from the response cache (a plain HttpResponse) has its validators already.
        if request.method == "GET" and response.status_code == 200 and hasattr(response, "render"):
            response.add_post_render_callback(partial(_after_render, request._request))
        return response


class CachedResponseMixin:
    """Every list and detail: served from the shared response cache at the data's version.

    The same cache and key scheme as the pages (``catalogue.caching``): a load or a correction
    changes ``caching.data_version()`` and so every key, which holds only the parameters the view
    reads (``known_query_params``: a request with any other was refused before). Runs as the
    handler, after DRF's throttling, so a cached answer still counts against a client's rate.
    """

    def get(self, request, *args, **kwargs):
        if not caching.lifetime():
            return super().get(request, *args, **kwargs)
        key, copy = caching.lookup(request._request, "api", self.known_query_params())
        if copy is not None:
            return caching.respond(request._request, copy)
        response = super().get(request, *args, **kwargs)
        # Stored once rendered (DRF renders after this returns); only 200s are kept.
        response.add_post_render_callback(partial(caching.store, request._request, key))
        return response
