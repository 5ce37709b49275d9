"""Read replicas: the routing rules, without a replica (the router's logic is what is ours)."""

from django.contrib.auth.models import User
from django.test import RequestFactory, override_settings

from catalogue.models import Paper
from config.routers import PrimaryForRequestMiddleware, PrimaryReplicaRouter, pin_to_primary, unpin

router = PrimaryReplicaRouter()


def test_reads_go_to_the_replica_and_writes_to_the_primary():
    assert router.db_for_read(Paper) == "replica"
    assert router.db_for_write(Paper) == "default"
    assert router.db_for_write(User) == "default"


def test_a_pinned_context_reads_from_the_primary():
    token = pin_to_primary()
    try:
        assert router.db_for_read(Paper) == "default"
    finally:
        unpin(token)
    assert router.db_for_read(Paper) == "replica"


def test_related_reads_follow_the_object_they_start_from():
    paper = Paper(slug="x")
    paper._state.db = "default"
    assert router.db_for_read(Paper, instance=paper) == "default"


def test_migrations_run_on_the_primary_only():
    assert router.allow_migrate("default", "catalogue")
    assert not router.allow_migrate("replica", "catalogue")


@override_settings(ROOT_URLCONF="config.urls")
def test_middleware_pins_writes_admin_and_sessions_to_the_primary():
    seen = []

    def view(request):
        seen.append(router.db_for_read(Paper))
        from django.http import HttpResponse

        return HttpResponse()

    middleware = PrimaryForRequestMiddleware(view)
    factory = RequestFactory()
    middleware(factory.get("/paper/x"))
    middleware(factory.post("/api/v1/papers/"))
    middleware(factory.get("/admin/catalogue/paper/"))
    with_session = factory.get("/paper/x")
    with_session.COOKIES["sessionid"] = "abc"
    middleware(with_session)
    assert seen == ["replica", "default", "default", "default"]
    assert router.db_for_read(Paper) == "replica"  # the pin ends with the request
