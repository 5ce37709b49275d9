"""Fixtures the admin's test modules share: a curator made the supported way, and a client logged
in as them."""

import pytest
from django.test import Client

from tests.admin_client import make_curator


@pytest.fixture
def curator(db):
    return make_curator("cora")


@pytest.fixture
def curator_client(curator):
    client = Client()
    client.force_login(curator)
    return client
