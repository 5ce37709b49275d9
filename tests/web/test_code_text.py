"""A code body's text: given by a place that may show it, shown only there, never at a pointer-only place.

One body sits in two places: ``open`` (MIT, ``inline_ok``) gives its text, ``closed`` (no
licence, pointer only) does not. The text holds a marker no page, API answer, feed or dump
may carry for the closed place.
"""

import json

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import export
from catalogue import models as m
from catalogue.web import code_text
from tests.api_helpers import V1, get
from tests.code_bodies import BARE, BARE_SHA, CLOSED, CODE, MARKER, OPEN, SHA, entry_document, place, write
from tests.conftest import ROOT, load
from tests.dump import wipe
from tests.factories import make_body, make_entry, make_repo, make_sample
from tests.pages import html

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_places(tmp_path):
    load(write(tmp_path, "entry.json", entry_document([OPEN, CLOSED, BARE])))


def closed_row(page: str) -> str:
    """The table row of the closed place (its repository's name is in no other row)."""
    start = page.rindex("<tr", 0, page.index("bob/closed-repo"))
    return page[start : page.index("</tr>", start)]


# --- the format ---------------------------------------------------------------------


def test_a_place_that_may_show_code_gives_its_text_and_a_dump_gives_it_back(two_places, tmp_path):
    body = m.CodeBody.objects.get(sha256_prefix=SHA)
    assert (body.code, body.code_language, body.code_document.url) == (CODE, "python", "/code/probe-routine")
    assert m.CodeBody.objects.get(sha256_prefix=BARE_SHA).code == ""

    export.dump_snapshot(tmp_path / "dump")
    (dumped,) = (tmp_path / "dump" / "code").glob("*.json")
    rows = {row["repo"]: row for row in json.loads(dumped.read_text())["samples"]}
    assert (rows["alice/open-repo"]["code"], rows["alice/open-repo"]["language"]) == (CODE, "python")
    assert "code" not in rows["bob/closed-repo"]
    assert "code" not in rows["carol/bare-repo"]
    assert MARKER not in json.dumps(rows["bob/closed-repo"])

    wipe()
    _out, err = load(tmp_path / "dump")
    assert "warning" not in err, err
    body = m.CodeBody.objects.get(sha256_prefix=SHA)
    assert (body.code, body.code_language, body.code_document.url) == (CODE, "python", "/code/probe-routine")


def test_a_text_that_cannot_be_taken_is_left_out_naming_file_record_and_field(tmp_path):
    doc = entry_document(
        [
            {**CLOSED, "code": CODE},  # a pointer-only place may not give it
            place(4, "dave/r", True, sha="c0debeef00000004", code=42),
            place(5, "erin/r", True, sha="c0debeef00000005", code="x" * 100_001),
            place(6, "fred/r", True, sha="c0debeef00000006", code="bad\x00byte"),
        ]
    )
    _out, err = load(write(tmp_path, "bad.json", doc))
    assert "bad.json: samples[0].code: a pointer-only place (inline_ok false) may not give" in err
    assert "bad.json: samples[1].code: expected a string, got a int" in err
    assert "bad.json: samples[2].code: longer than 100000 characters (100001)" in err
    assert "bad.json: samples[3].code: holds a NUL character at position 3" in err
    # The places load; no text does.
    assert m.Sample.objects.count() == 4
    assert not m.CodeBody.objects.with_code().exists()


def test_a_body_has_one_text_two_are_a_clash_in_a_load_or_against_the_catalogue(tmp_path):
    first = write(tmp_path, "first.json", entry_document([OPEN]))
    other = {**place(7, "gina/fork", True), "code": CODE + "# changed\n", "language": "python"}
    second = write(tmp_path, "second.json", entry_document([other], entry="probe_routine_fork"))
    with pytest.raises(CommandError) as error:
        load(first, second)
    assert f"code body {SHA} is given different texts by first.json, second.json" in str(error.value)
    assert not m.CodeBody.objects.exists()

    load(first)
    with pytest.raises(CommandError) as error:
        load(second)
    assert "the catalogue holds another, from first.json" in str(error.value)
    _out, err = load(second, keep_going=True)
    assert "second.json" in err
    assert m.CodeBody.objects.get(sha256_prefix=SHA).code == CODE


# --- where the text appears -----------------------------------------------------------


def test_the_body_page_shows_the_text_highlighted_and_attributed_to_the_place_that_may_show_it(
    client, two_places
):
    page = html(client, f"/body/{SHA}")
    shown = page[page.index('<figure class="code-figure">') : page.index("</figure>")]
    assert '<div class="code-text"><pre>' in shown
    assert '<span class="k">def</span>' in shown
    assert MARKER in shown
    assert page.count(MARKER) == 2  # the two lines that hold it, shown once
    file_url = "https://github.com/alice/open-repo/blob/HEAD/src/probe.py"
    for attribution in ("alice/open-repo", file_url, "MIT"):
        assert attribution in shown
    assert "bob/closed-repo" not in shown
    assert MARKER not in closed_row(page)
    assert "pointer only" in closed_row(page)
    # Escaped by the highlighter, and coloured by classes only (the CSP allows no inline style).
    assert "<script>alert(1)" not in page
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in shown
    assert "style=" not in page


def test_a_pointer_only_place_never_shows_the_text_on_any_page_feed_or_api_answer(client, api, two_places):
    closed_paper = m.Paper.objects.get(arxiv_id="2401.00002")
    for url in (
        closed_paper.get_absolute_url(),
        "/repo/bob/closed-repo",
        "/code/probe-routine",  # lists both places: a list links to the text, never holds it
        "/code/probe-routine/feed",
        m.Paper.objects.get(arxiv_id="2401.00001").get_absolute_url(),
    ):
        assert MARKER not in html(client, url), url
    # The closed place's row links to where the text may be shown; the open one's to its own text.
    entry_page = html(client, "/code/probe-routine")
    assert f'href="/body/{SHA}#code" title=' in closed_row(entry_page)
    assert "shown at another place</a>" in closed_row(entry_page)
    assert f'href="/body/{SHA}#code">show code</a>' in entry_page

    for url in (
        f"{V1}/samples/",
        f"{V1}/code-entries/probe-routine/samples/",
        f"{V1}/papers/{closed_paper.slug}/samples/",
        f"{V1}/repositories/bob/closed-repo/samples/",
    ):
        rows = {(r["repository"] or {}).get("name"): r for r in get(api, url)["results"]}
        assert rows["closed-repo"]["code"] is None, url
        assert MARKER not in json.dumps(rows["closed-repo"]), url
        if "open-repo" in rows:
            assert rows["open-repo"]["code"] == {"text": CODE, "language": "python"}


def test_a_body_no_place_may_show_keeps_its_text_hidden_and_says_where_to_get_code(client, api, tmp_path):
    load(write(tmp_path, "old.json", entry_document([OPEN])))
    # A newer reading: the only place that gave the text may no longer show it.
    newer = entry_document([{**OPEN, "inline_ok": False, "code": None}], read_at="2027-01-01T00:00:00+00:00")
    load(write(tmp_path, "new.json", newer))
    assert m.CodeBody.objects.get(sha256_prefix=SHA).code == CODE  # held, never shown

    page = html(client, f"/body/{SHA}")
    assert MARKER not in page
    assert "No place of this body lets its code be shown here" in page
    assert "https://github.com/alice/open-repo/blob/HEAD/src/probe.py" in page
    assert f'get_code</span> with <span class="mono">{{"code_sha256": "{SHA}"}}' in page
    assert MARKER not in json.dumps(get(api, f"{V1}/samples/"))
    export.dump_snapshot(tmp_path / "dump")
    assert not any(MARKER in p.read_text() for p in (tmp_path / "dump").rglob("*.json"))


def test_a_body_without_text_says_where_to_get_it(client, two_places):
    page = html(client, f"/body/{BARE_SHA}")
    assert "This catalogue holds no text of this body" in page
    assert "https://github.com/carol/bare-repo/blob/HEAD/src/probe.py" in page
    assert f'{{"code_sha256": "{BARE_SHA}"}}' in page
    assert "https://syntology.ai/developers" in page
    assert "code-text" not in page


# --- cost and style -------------------------------------------------------------------


def _queries(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_places_of_a_body_with_text(client, api):
    body = make_body(sha256_prefix="c0debeef000000aa", code=CODE, code_language="python")
    entry = make_entry(name="grown_probe", slug="grown-probe")
    urls = (f"/body/{body.sha256_prefix}", "/code/grown-probe", f"{V1}/code-entries/grown-probe/samples/")

    def add(n):
        make_sample(body=body, entry=entry, repo=make_repo(), inline_ok=n % 2 == 0)

    add(0)
    one = [_queries(client, url) for url in urls]
    for n in range(1, 50):
        add(n)
    assert [_queries(client, url) for url in urls] == one


def test_the_site_stylesheet_holds_the_highlighting_colours_of_both_themes():
    css = (ROOT / "static" / "css" / "site.css").read_text()
    assert code_text.stylesheet() in css
    assert "(prefers-color-scheme: dark)" in code_text.stylesheet()
