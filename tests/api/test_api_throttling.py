"""catalogue.api.throttling: anonymous clients are limited per address, at the rate the settings say now."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.api_helpers import V1

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


def test_anonymous_clients_are_throttled_with_retry_after(api, loaded_seeds, settings):
    settings.API_THROTTLE_ANON = "3/minute"
    cache.clear()
    try:
        for _ in range(3):
            assert api.get(f"{V1}/tasks/").status_code == 200
        response = api.get(f"{V1}/tasks/")
        assert response.status_code == 429
        assert 0 < int(response.headers["Retry-After"]) <= 60
        assert "detail" in response.json()
        other = APIClient(REMOTE_ADDR="10.0.0.2")
        assert other.get(f"{V1}/tasks/").status_code == 200
    finally:
        cache.clear()


def test_throttle_off_means_unlimited(api, loaded_seeds, settings):
    settings.API_THROTTLE_ANON = "off"
    cache.clear()
    assert all(api.get(f"{V1}/tasks/").status_code == 200 for _ in range(70))
