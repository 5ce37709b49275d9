"""Fixtures the browser tests share."""

import pytest
from django.test import override_settings


@pytest.fixture(scope="module")
def static_from_finders():
    """WhiteNoise serves from the finders while a module runs: the live server must not need a
    collected STATIC_ROOT (tests/web/browser/test_browser.py holds it for the whole session)."""
    with override_settings(WHITENOISE_AUTOREFRESH=True, WHITENOISE_USE_FINDERS=True):
        yield
