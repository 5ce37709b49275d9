"""A bounded schemathesis run against /api/v1/schema/: no server error, no response off the schema.

Every operation of the schema gets generated requests (valid and invalid parameters), half
of them on objects that exist (path ids drawn from the seeds) so that real responses, not
only 404s, are checked against their documented shapes, status codes and headers. The
app is called in-process through WSGI, so it sees the test's database. Bounded: about
``EXAMPLES`` requests per operation and mode.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from catalogue import models as m
from tests.conftest import SEEDS, load

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

# 12 requests per operation and mode (derandomized: the same ones every run): the schema has 48
# operations since issue 13, and at 20 this one test took a tenth of the whole suite's time.
EXAMPLES = 12
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def real_ids() -> dict[str, list[str]]:
    """Path parameters that name objects in the seeds."""
    boards = list(m.Leaderboard.objects.all())
    repos = list(m.Repo.objects.all())
    return {
        "paper_id": [*m.Paper.objects.values_list("slug", flat=True), "1811.06965", "arxiv-2510-16415"],
        "owner": [r.owner for r in repos],
        "name": [r.name for r in repos],
        "task_id": list(m.Task.objects.values_list("slug", flat=True)),
        "method_id": list(m.Method.objects.values_list("slug", flat=True)),
        "evaluation_id": [b.slug for b in boards],
        "metric_id": ["accuracy"],
        "result_id": [],
        "entry_id": list(m.CodeEntry.objects.values_list("slug", flat=True)),
    }


@pytest.fixture
def api_schema(db, settings):
    settings.API_THROTTLE_ANON = "off"
    load(*SEEDS)
    # As Django's test client does: a request must not close the connection that holds the
    # test's transaction (PostgreSQL would lose the seeds and the test's connection).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_no_server_error_and_no_response_off_the_schema(api_schema):
    ids = real_ids()
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 29
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _exercise(operation, mode, ids)


def _exercise(operation, mode, ids):
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case, data):
        if case.path_parameters and data.draw(st.booleans(), label="existing object"):
            for name in case.path_parameters:
                if ids.get(name):
                    case.path_parameters[name] = data.draw(st.sampled_from(ids[name]), label=name)
        case.call_and_validate(checks=CHECKS)

    try:
        run()
    except Unsatisfiable:
        # Nothing in this operation can be made invalid (a string path id, no query).
        assert mode == GenerationMode.NEGATIVE, f"{operation.path}: no valid request could be generated"
    except Exception as exc:
        raise AssertionError(f"{operation.method.upper()} {operation.path} ({mode}): {exc}") from exc
