"""/data/ and the API's /data/ and /loads/: every load in public, failed ones and dry runs included."""

import datetime as dt
import json
import re
import shutil

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from catalogue import models as m
from tests.api_helpers import V1, get, queries_and_rows, walk
from tests.conftest import CODE_SEEDS, ROOT, SEEDS, load
from tests.dump import catalogue_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

FIXTURES = ROOT / "fixtures"


def _runs_shown(page: str) -> list[tuple[int, str]]:
    return [(int(n), outcome) for n, outcome in re.findall(r"<h3>Load (\d+): ([a-z ]+)</h3>", page)]


def test_a_failed_load_is_recorded_in_public_and_loses_nothing(client, api, loaded_seeds, tmp_path):
    newer = {**json.loads(CODE_SEEDS[0].read_text()), "read_at": "2027-01-01T00:00:00+00:00"}
    (tmp_path / "000_newer.json").write_text(json.dumps({**newer, "entry": "renamed"}))
    (tmp_path / "001_bad.json").write_text('{"url": "/code/x", "entry": ')
    before = catalogue_state()
    with pytest.raises(CommandError, match=r"001_bad\.json: invalid JSON"):
        load(tmp_path)
    assert catalogue_state() == before  # the newer document merged nothing either

    (loaded, failed) = m.LoadRun.objects.order_by("id")
    assert (loaded.outcome, failed.outcome) == ("succeeded", "failed")
    assert failed.error.startswith("001_bad.json: invalid JSON at line 1")
    assert failed.files_summary["by_status"] == {"loaded": 1, "error": 1}
    assert failed.files_summary["shown"][0]["path"] == "001_bad.json"  # the problem first

    page = client.get("/data/").content.decode()
    assert _runs_shown(page) == [(failed.pk, "failed"), (loaded.pk, "succeeded")]
    assert escape(failed.error) in page
    assert f"(load {loaded.pk})." in page  # still the last load: a failure changed nothing
    (shown,) = get(api, f"{V1}/loads/", outcome="failed")["results"]
    assert (shown["id"], shown["error"]) == (failed.pk, failed.error)
    assert get(api, f"{V1}/data/")["last_load"]["id"] == loaded.pk


def test_a_dry_run_is_recorded_as_one_and_the_catalogue_stays_empty(client, api, db):
    load(*SEEDS, dry_run=True)
    (run,) = m.LoadRun.objects.all()
    assert run.outcome == "dry_run"
    page = client.get("/data/").content.decode()
    assert _runs_shown(page) == [(run.pk, "dry run")]
    assert "It would have changed: " in page
    assert "The catalogue has not been loaded yet." in page
    assert get(api, f"{V1}/data/")["last_load"] is None
    assert get(api, f"{V1}/loads/")["results"][0]["counts"]["Paper"]["created"] == 13


def test_no_page_or_answer_says_where_the_files_sit_on_the_server(client, api, db, tmp_path):
    # Files from two places: their names relative to what they share ("/") would hold both paths.
    shutil.copy(SEEDS[2], tmp_path / SEEDS[2].name)
    load(*SEEDS[:2], tmp_path / SEEDS[2].name)
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(CommandError):
        load(SEEDS[0], tmp_path / "bad.json", force=True)
    with pytest.raises(CommandError, match="no such file"):
        load(tmp_path / "missing.json")

    loaded = m.LoadRun.objects.get(outcome="succeeded")
    assert sorted(loaded.files.values_list("path", flat=True)) == sorted(seed.name for seed in SEEDS)
    assert m.LoadRun.objects.filter(error__startswith="bad.json: expected an object").exists()
    assert m.LoadRun.objects.filter(error="missing.json: no such file or directory").exists()
    public = [
        client.get("/data/").content.decode(),
        client.get("/attribution").content.decode(),
        api.get(f"{V1}/loads/").content.decode(),
        api.get(f"{V1}/data/").content.decode(),
    ]
    for folder in (str(FIXTURES), str(tmp_path)):
        for text in public:
            assert folder.lstrip("/") not in text, folder  # not even relative to "/"


def test_the_load_history_costs_the_same_queries_for_one_run_or_many_and_walks_them_all(client, api, db):
    def add_runs(n):
        files = [
            {"path": f"{i:03}.json", "sha256": "ab" * 32, "url": "", "status": "loaded", "error": ""}
            for i in range(m.LoadRun.FILES_SHOWN)
        ]
        for _ in range(n):
            run = m.LoadRun.objects.create(
                started_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
                finished_at=dt.datetime(2026, 1, 1, 0, 1, tzinfo=dt.UTC),
                outcome=m.LoadRun.Outcome.SUCCEEDED,
                files_summary={"n_files": len(files), "by_status": {"loaded": len(files)}, "shown": files},
            )
            m.LoadRunFile.objects.bulk_create(
                m.LoadRunFile(run=run, seq=i, **file) for i, file in enumerate(files, 1)
            )

    def page_queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/data/").status_code == 200
        return [q["sql"] for q in captured]

    add_runs(1)
    one, one_api = page_queries(), queries_and_rows(api, f"{V1}/loads/")[0]
    add_runs(44)
    many, many_api = page_queries(), queries_and_rows(api, f"{V1}/loads/")[0]
    assert len(one) == len(many), many
    assert one_api == many_api
    assert not any("loadrunfile" in sql for sql in many)  # never a run's list of files
    with CaptureQueriesContext(connection) as api_queries:
        assert api.get(f"{V1}/loads/").status_code == 200
    assert not any("loadrunfile" in q["sql"] for q in api_queries)

    ids, url = [], "/data/"
    while url:
        page = client.get(url).content.decode()
        ids += [n for n, _ in _runs_shown(page)]
        after = re.search(r'rel="next" href="([^"]+)"', page)
        url = "/data/" + after[1].replace("&amp;", "&") if after else None
    everyone = list(m.LoadRun.objects.order_by("-id").values_list("id", flat=True))
    assert ids == everyone  # newest first, each once, over three pages
    assert [r["id"] for r in walk(api, f"{V1}/loads/", items_per_page=7)] == everyone
    assert [r["id"] for r in walk(api, f"{V1}/loads/", pagination="cursor", items_per_page=7)] == everyone
