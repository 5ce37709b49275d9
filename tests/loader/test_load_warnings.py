"""A load's warnings are grouped by kind: the command prints one line per kind with its count and
first files, then a few of them word for word; the run's record keeps them, and every count."""

import json

import pytest

import catalogue.loader as loader
from catalogue.loader.warnings import LoadWarning, as_warning
from catalogue.models import LoadRun
from tests.conftest import CODE_SEEDS, load

N_DOCUMENTS = 12


def _documents_stating_a_wrong_figure(tmp_path):
    seed = json.loads(CODE_SEEDS[-1].read_text())
    for i in range(N_DOCUMENTS):
        doc = {**seed, "url": f"/code/entry-{i:02d}", "entry": f"entry_{i:02d}", "n_places": 99}
        (tmp_path / f"e{i:02d}.json").write_text(json.dumps(doc))
    return tmp_path


def test_a_warning_reads_as_before_and_a_plain_one_is_of_kind_other():
    warning = LoadWarning("left_out", "a.json", "samples[0].repo: expected owner/name (left out)")
    assert str(warning) == "a.json: samples[0].repo: expected owner/name (left out)"
    assert as_warning(warning) is warning
    plain = as_warning("a.json: n_places: document states 99, its rows give 5", "a.json")
    assert (plain.kind, plain.file, str(plain)) == (
        "other",
        "a.json",
        "a.json: n_places: document states 99, its rows give 5",
    )
    assert as_warning("3 result rows were identical", "b.json").file == ""


@pytest.mark.django_db
def test_warnings_are_grouped_by_kind_and_kept_in_the_record(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "WARNINGS_KEPT", N_DOCUMENTS - 1)
    _, err = load(_documents_stating_a_wrong_figure(tmp_path))
    lines = err.splitlines()
    # a stated figure against the rows is a kind of its own, not lost among others
    assert f"figures_disagree: {N_DOCUMENTS} (first: e00.json, e01.json, e02.json)" in lines
    shown = [line for line in lines if line.startswith("  warning: ") and "n_places: document states" in line]
    assert shown == [
        f"  warning: e{i:02d}.json: n_places: document states 99, its rows give 8" for i in range(10)
    ]
    run = LoadRun.objects.get()
    assert run.warning_kinds == {
        "figures_disagree": {"count": N_DOCUMENTS, "files": ["e00.json", "e01.json", "e02.json"]}
    }
    assert run.warnings[: N_DOCUMENTS - 1] == [
        f"e{i:02d}.json: n_places: document states 99, its rows give 8" for i in range(N_DOCUMENTS - 1)
    ]
    assert run.warnings[N_DOCUMENTS - 1 :] == ["… and 1 more warnings (counted by kind)"]
