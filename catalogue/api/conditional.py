"""ETag and conditional GET for detail resources."""

from functools import partial

from django.middleware.http import ConditionalGetMiddleware

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
        if request.method == "GET" and response.status_code == 200:
            response.add_post_render_callback(partial(_after_render, request._request))
        return response
