"""The address of the client that sent a request: the API's rate limit, the login lock-out
(django-axes) and the request log all ask this one function.

``X-Forwarded-For`` is a list anyone can start: each proxy appends the address it was reached
from to whatever the request already carried. So only the entries our own proxies appended
can be believed, counted from the right, and how many there are is configuration
(``TRUSTED_PROXIES``, read per request): with 0, the default, the header is ignored and the
client is the connection's peer (``REMOTE_ADDR``); with N, it is the N-th entry from the right,
the address the outermost of our proxies saw. Anything left of it is the client's own words.
"""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXIES
    if not hops:
        return remote
    forwarded = [entry.strip() for entry in request.headers.get("x-forwarded-for", "").split(",")]
    forwarded = [entry for entry in forwarded if entry]
    if len(forwarded) < hops:
        return remote  # the request did not come through all our proxies: nothing to believe
    candidate = forwarded[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote  # not an address (axes stores it in an address column): the proxy's then
