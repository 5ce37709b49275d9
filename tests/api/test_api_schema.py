"""catalogue.api.schema: the OpenAPI schema names every endpoint and its errors; the docs are local."""

import json

import pytest

from tests.api_helpers import V1

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


def test_schema_describes_every_endpoint_and_validates(api, db):
    from django.urls import get_resolver
    from drf_spectacular.validation import validate_schema

    response = api.get(f"{V1}/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)
    routes = {
        "/api/v1/"
        + str(p.pattern)
        .replace("<paper_id:", "{")
        .replace("<name:", "{")
        .replace("<str:", "{")
        .replace(">", "}")
        for p in get_resolver("catalogue.api.urls").url_patterns[0].url_patterns
        if p.name != "schema"
    }
    assert set(schema["paths"]) == routes
    for path, operations in schema["paths"].items():
        responses = operations["get"]["responses"]
        assert {"200", "404", "429"} <= set(responses), path
        assert "Retry-After" in responses["429"]["headers"], path
        assert ("304" in responses) or ("400" in responses), path
    stars = schema["components"]["schemas"]["Repository"]["properties"]["stars"]
    assert "Not known" in stars["description"]


def test_interactive_docs_are_served_from_our_static_files(api, db):
    from django.contrib.staticfiles import finders

    html = api.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert api.get("/api/redoc/").status_code == 200
