"""catalogue.api.conditional: detail resources carry an ETag and answer a matching If-None-Match with 304."""

import pytest

from catalogue import models as m
from tests.api_helpers import GPIPE, V1

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]


@pytest.mark.parametrize(
    "path",
    [
        f"papers/{GPIPE}/",
        "repositories/pytorch/pippy/",
        "tasks/image-classification/",
        "methods/adam/",
        "evaluations/fine-grained-image-classification-on-birdsnap/",
        "evaluations/fine-grained-image-classification-on-birdsnap/metrics/accuracy/",
        "code-entries/forward-step-func/",
    ],
)
def test_detail_resources_answer_conditional_gets(api, loaded_seeds, path):
    first = api.get(f"{V1}/{path}")
    etag = first.headers["ETag"]
    assert etag.startswith('"')
    again = api.get(f"{V1}/{path}", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    stale = api.get(f"{V1}/{path}", HTTP_IF_NONE_MATCH='"something-else"')
    assert stale.status_code == 200


def test_an_etag_changes_with_the_object(api, loaded_seeds):
    url = f"{V1}/code-entries/forward-step-func/"
    etag = api.get(url).headers["ETag"]
    m.Sample.objects.filter(entry__name="forward_step_func", status="ran").update(status="ran_honours")
    response = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.headers["ETag"] != etag
