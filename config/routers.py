"""Reads to a replica, writes (and everything around them) to the primary.

Used only when ``DATABASE_REPLICA_URL`` is set (settings add the ``replica`` alias and this
router). The admin, the loader and any request that writes run on the primary: a request
that has written stays on the primary for its reads too, so a curator sees their own change
at once whatever the replica's lag. Anonymous reads of pages and the API go to the replica.
"""

from contextvars import ContextVar

from django.conf import settings

# Set by PrimaryForRequestMiddleware for requests that must read their own writes.
_pinned_to_primary: ContextVar[bool] = ContextVar("pinned_to_primary", default=False)


class PrimaryReplicaRouter:
    replica = "replica"
    primary = "default"

    def db_for_read(self, model, **hints):
        if _pinned_to_primary.get():
            return self.primary
        instance = hints.get("instance")
        if instance is not None and instance._state.db:
            return instance._state.db  # related lookups follow the object they start from
        return self.replica

    def db_for_write(self, model, **hints):
        return self.primary

    def allow_relation(self, obj1, obj2, **hints):
        return True  # both aliases hold the same database

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == self.primary


def pin_to_primary():
    """Route this context's reads to the primary; returns a token for :func:`unpin`."""
    return _pinned_to_primary.set(True)


def unpin(token) -> None:
    _pinned_to_primary.reset(token)


SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def is_public_read(request) -> bool:
    """A safe request outside the admin: what replicas and one-snapshot reads are for."""
    return request.method in SAFE_METHODS and not request.path.startswith(_admin_prefix())


class PrimaryForRequestMiddleware:
    """Pins the admin, logged-in users and every unsafe request to the primary."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        needs_primary = not is_public_read(request) or settings.SESSION_COOKIE_NAME in request.COOKIES
        if not needs_primary:
            return self.get_response(request)
        token = pin_to_primary()
        try:
            return self.get_response(request)
        finally:
            unpin(token)


def _admin_prefix() -> str:
    from django.urls import reverse

    return reverse("admin:index")
