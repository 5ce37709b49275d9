"""Untrusted snapshot text on the pages: shown as text everywhere, and never breaks out of JSON-LD."""

import json
import re

import pytest

from catalogue import models as m
from tests import factories
from tests.pages import assert_only_json_ld_scripts, html
from tests.web.pages.conftest import make_sample

pytestmark = pytest.mark.django_db


# --- untrusted text -------------------------------------------------------------------

EVIL = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


@pytest.fixture
def evil_catalogue(db):
    task = m.Task.objects.create(slug="evil-task", name=EVIL, stamp="s")
    method = m.Method.objects.create(slug="evil-method", name=EVIL, full_name=EVIL, stamp="s")
    paper = factories.make_paper(
        title=f"Evil {EVIL}",
        abstract=f"</script><script>alert(3)</script> {EVIL}",
        proceeding=EVIL,
        slug="evil",
        date=None,
    )
    paper.tasks.add(task)
    paper.methods.add(method)
    paper.methods_introduced.add(method)
    m.Author.objects.create(paper=paper, position=0, name=EVIL)
    repo = factories.make_repo(owner="evil", name="repo", spdx=EVIL)
    m.CodeLink.objects.create(paper=paper, repo=repo, repo_url=repo.url, framework=EVIL, stamp="s")
    entry = factories.make_entry(name=f"evil_{EVIL}", slug="evil-entry")
    body = factories.make_body(sha256_prefix="00000000000000ee")
    make_sample(paper=paper, entry=entry, body=body, repo=repo, path=EVIL, licence=EVIL, contract_check=EVIL)
    board = factories.make_leaderboard(task=task, slug="evil-board")
    factories.make_result(paper=paper, leaderboard=board, model=EVIL, metrics={EVIL: EVIL, "Accuracy": "9%"})
    factories.reindex_search()
    return paper


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/search?q=evil",
        "/search?q=evil&task=evil-task",
        "/papers/",
        "/paper/evil",
        "/code/",
        "/code/evil-entry",
        "/body/00000000000000ee",
        "/repo/evil/repo",
        "/sota/evil-board",
        "/task/evil-task",
        "/method/evil-method",
    ],
)
def test_snapshot_text_is_shown_as_text_everywhere(client, evil_catalogue, url):
    page = html(client, url)
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "alert(" in page  # the text is there, escaped
    assert_only_json_ld_scripts(page)
    for content in re.findall(r'content="([^"]*)"', page):
        assert "<" not in content
        assert ">" not in content


def test_json_ld_cannot_be_broken_out_of(client, evil_catalogue):
    page = html(client, "/paper/evil")
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1  # the abstract's </script> did not close it early
    data = json.loads(blocks[0])
    assert data["headline"] == f"Evil {EVIL}"
    assert data["abstract"].startswith("</script><script>alert(3)")
    assert data["author"] == [{"@type": "Person", "name": EVIL}]
