"""What every module of the public pages' tests shares: the paper they open most, settings that
build each page afresh from the finders' static files, and a sample with its snapshot status."""

import pytest

from catalogue import models as m
from tests import factories

GPIPE = "/paper/gpipe-efficient-training-of-giant-neural"


@pytest.fixture(autouse=True)
def page_settings(settings):
    # WhiteNoise warns (an error here) when STATIC_ROOT was never collected; serve from finders.
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True
    # Pages are built afresh in every test but the cache's own (test_page_cache_*).
    settings.PAGE_CACHE_SECONDS = 0


def make_sample(**fields):
    # The snapshot's status goes beside the shown one (curation); the shared builder predates it.
    fields.setdefault("status", m.Status.UNVERIFIED)
    fields.setdefault("status_upstream", fields["status"])
    return factories.make_sample(**fields)
