"""bench/generate.py's mess (issue 35): each switch makes its own kind, and only it; check_generated
counts each kind; a touched copy restates its figures. The benchmark's figures rest on these."""

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import check_generated  # noqa: E402
import generate  # noqa: E402

PAPERS = 1500  # enough for every kind of mess to occur on seed 0


def make(tmp_path: Path, name: str, mess: str = "", papers: int = PAPERS) -> Path:
    out = tmp_path / name
    generate.generate(papers, out, seed=0, mess=generate.Mess.parse(mess))
    return out


def check(folder: Path, touched: bool = False) -> tuple[list[str], dict]:
    checker = check_generated.Checker(touched=touched)
    for name, doc in check_generated.iter_documents(folder):
        checker.check(name, doc)
    checker.cross_check()
    return checker.problems, checker.report()["mess"]


def documents(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_bytes()) for p in sorted(folder.glob("*.json"))}


@pytest.fixture(scope="module")
def tidy(tmp_path_factory) -> Path:
    return make(tmp_path_factory.mktemp("tidy"), "tidy")


@pytest.fixture(scope="module")
def messy(tmp_path_factory) -> Path:
    return make(tmp_path_factory.mktemp("messy"), "messy", "all")


def test_the_tidy_snapshot_holds_none_of_the_mess(tidy):
    problems, mess = check(tidy)
    assert problems == []
    assert mess["names_that_slug_alike"]["all three"] == 0
    assert mess["code_entry_names_that_slug_alike"] == 0
    assert mess["papers_with_blank_author"] == 0
    assert mess["papers_in_several_documents"] == 0


def test_the_messy_snapshot_holds_every_kind_and_still_agrees_with_itself(messy):
    problems, mess = check(messy)
    assert problems == []
    assert mess["names_that_slug_alike"]["method"] > 0
    assert mess["names_that_slug_alike"]["task"] > 0
    assert mess["code_entry_names_that_slug_alike"] > 0
    # an entry's own address is the one another entry's name gives (issue 35's refused reload)
    assert mess["entries_whose_name_gives_another_entrys_address"] > 0
    assert mess["papers_with_blank_author"] > 0
    assert mess["papers_with_duplicate_author"] > 0
    assert mess["of_which_slug_and_slug-1"] > 0


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("blank-authors", {"authors"}),
        ("duplicate-authors", {"authors"}),
        ("name-variants", {"tasks", "methods", "results"}),
    ],
)
def test_a_switch_changes_its_own_mess_and_nothing_else(tmp_path, tidy, kind, fields):
    """Each kind draws from its own Random: every other field of every document is the tidy one."""
    tidy_docs, messy_docs = documents(tidy), documents(make(tmp_path, kind, kind))
    assert tidy_docs.keys() == messy_docs.keys()
    changed = 0
    for name, doc in messy_docs.items():
        before = tidy_docs[name]
        differing = {k for k in doc if doc[k] != before[k]}
        assert differing <= fields, (name, differing)
        changed += bool(differing)
    assert changed > 0


def test_a_touched_copy_changes_a_twentieth_of_the_files_and_restates_their_figures(tmp_path, messy):
    out = tmp_path / "touched"
    stats = generate.touch(messy, out, seed=0)
    before, after = documents(messy), documents(out)
    assert before.keys() == after.keys()
    touched = [name for name in before if before[name] != after[name]]
    assert len(touched) == stats["touched_paper"] + stats["touched_code_entry"]
    assert 0.03 < len(touched) / len(before) < 0.07
    for name in touched:
        if after[name]["url"].startswith("/code/"):
            assert after[name]["read_at"] > before[name]["read_at"]
        else:
            assert after[name]["title"] != before[name]["title"]
    # its own figures agree with its rows; only the two views of a place differ (the newer wins)
    problems, mess = check(out, touched=True)
    assert problems == []
    assert mess["places_whose_two_views_differ"] > 0
    assert check(out)[0] != []
