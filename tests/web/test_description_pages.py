"""Descriptions on the method, task and dataset pages (issue 33): rendered by catalogue.markup, plain
text in meta descriptions, the CSP as it was; and what the method pages say of their year and of
the archive's paper counts. On the real methods dump (../shared/pwc-archive-samples/methods/,
CC BY-SA 4.0, loaded from there) and on made rows."""

import gzip
import json
import re
import shutil

import pytest

from catalogue import models as m
from catalogue.pagination.keyset import encode_cursor
from tests.conftest import load
from tests.factories import make_dataset, make_method, make_paper, make_task
from tests.pages import html, text_outside_code
from tests.samples import METHODS_DUMP
from tests.xss_corpus import assert_inert

pytestmark = pytest.mark.django_db

# The policy as config/settings.py gives it: rendering descriptions needs nothing more.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
DESCRIPTION = (
    "A **GAN** is $\\frac{1}{2}$ of it (Image Source: [here](http://www.kdnuggets.com/2017/01/gans.html)), "
    'with <span style="color:red">a red word</span>.'
)


def meta_description(page: str) -> str:
    return re.search(r'<meta name="description" content="([^"]*)">', page)[1]


def assert_rendered(page: str) -> None:
    assert "<strong>GAN</strong>" in page
    assert '<math display="inline"><mrow><mfrac>' in page
    assert '<a href="http://www.kdnuggets.com/2017/01/gans.html" rel="nofollow noopener">here</a>' in page
    assert "<span>a red word</span>" in page
    for raw in ("**GAN", "$\\frac", "style=", "](http"):
        assert raw not in page, raw


@pytest.mark.parametrize("kind", ["method", "task", "dataset"])
def test_a_description_is_rendered_and_its_meta_description_is_its_text(client, kind):
    make = {"method": make_method, "task": make_task, "dataset": make_dataset}[kind]
    thing = make(name="GAN", slug="gan", description=DESCRIPTION)
    response = client.get(thing.get_absolute_url())
    assert response["Content-Security-Policy"] == CSP
    page = response.content.decode()
    assert_rendered(page)
    assert '<div class="description"><p>A <strong>GAN</strong>' in page
    assert meta_description(page) == ("A GAN is \\frac{1}{2} of it (Image Source: here), with a red word.")


def test_without_a_description_the_meta_description_says_what_the_page_holds(client):
    method = make_method(name="Adam", full_name="Adam optimiser")
    assert meta_description(html(client, method.get_absolute_url())) == (
        "Papers that use or introduce the method Adam optimiser, and their leaderboards."
    )
    assert '<div class="description">' not in html(client, method.get_absolute_url())


HOSTILE_DESCRIPTION = (
    "{{ settings.SECRET_KEY }} {% debug %} shown as text.\n\n"
    "<script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:alert(3)) "
    '<a href="javascript:alert(4)">a</a> <span onmouseover=alert(5) style="x">s</span> '
    '<math><mi href="javascript:alert(6)">x</mi></math> $\\href{javascript:alert(7)}{y}$ '
    "<svg onload=alert(8)><text>t</text></svg> after"
)


@pytest.mark.parametrize("kind", ["method", "task", "dataset"])
def test_a_hostile_description_is_inert_on_its_page(client, kind):
    make = {"method": make_method, "task": make_task, "dataset": make_dataset}[kind]
    thing = make(name="Evil", slug="evil", description=HOSTILE_DESCRIPTION)
    response = client.get(thing.get_absolute_url())
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == CSP
    page = response.content.decode()
    assert_inert(page, where=kind)
    for tag in ("<svg", "<img", "<script>alert"):
        assert tag not in page, tag
    assert "<" not in meta_description(page)


# --- the real methods dump ---------------------------------------------------------------------


@pytest.fixture
def real_methods(tmp_path):
    if not METHODS_DUMP.is_file():
        pytest.skip(f"{METHODS_DUMP} is not on this machine")
    shutil.copy(METHODS_DUMP, tmp_path / "methods.json.gz")
    load(tmp_path / "methods.json.gz")
    with gzip.open(METHODS_DUMP) as dump:
        return {r["url"].rsplit("/", 1)[1]: r for r in json.load(dump)}


# Pages whose descriptions hold each kind of markup the dump has: headings, a table, a code block and
# <sup> (sm3); Markdown escapes in math (td-lambda); "$ $" (svpg); \begin{align} without dollars
# (srm); "**FastMoE **"; unclosed "$" (lapgan, bort); "<query concept, …>" as text (taxoexpan);
# "<l" inside math (residual-normal-distribution); \label and arrays (large-scale-spectral-clustering).
MARKUP_KINDS = [
    "gan", "sm3", "td-lambda", "svpg", "srm", "fastmoe", "lapgan", "bort", "taxoexpan",
    "residual-normal-distribution", "large-scale-spectral-clustering", "relic", "weight-decay",
]  # fmt: skip


def test_the_real_methods_pages_render_their_descriptions(client, real_methods):
    assert m.Method.objects.count() == 1924
    gan = html(client, "/method/gan")
    for shown in ("<strong>GAN</strong>", "<strong>Generative Adversarial Network</strong>", "<mfrac>"):
        assert shown in gan, shown
    assert (
        '<a href="http://www.kdnuggets.com/2017/01/generative-adversarial-networks-hot-topic-machine-learning'
        '.html" rel="nofollow noopener">here</a>'
    ) in gan
    for slug in MARKUP_KINDS:
        response = client.get(f"/method/{slug}")
        assert response.status_code == 200, slug
        assert response["Content-Security-Policy"] == CSP
        page = response.content.decode()
        description = page.split('<div class="description">', 1)[1].split("</div>", 1)[0]
        words = text_outside_code(description)
        for raw in ("**", "\\frac", "\\begin", "\\_", "style="):
            assert raw not in words, (slug, raw)
        if "$" in real_methods[slug]["description"] and slug not in {"bort", "svpg"}:
            assert "<math" in description, slug
        meta = meta_description(page)
        assert "&lt;" not in meta.replace("&lt;query", "").replace("&lt;l", ""), (slug, meta)


def test_the_placeholder_year_of_the_real_dump_is_not_shown(client, real_methods):
    gan, leaky_relu = real_methods["gan"], real_methods["leaky-relu"]
    assert (gan["introduced_year"], leaky_relu["introduced_year"]) == (2000, 2014)
    assert m.Method.objects.filter(introduced_year=2000).count() == 1866  # stored as given
    assert "Introduced 2000" not in html(client, "/method/gan")
    assert "<span>Introduced 2014</span>" in html(client, "/method/leaky-relu")
    listed = html(client, "/methods/?q=gan")
    assert '<td class="num">2000</td>' not in listed
    assert '<a href="/method/gan">GAN</a>' in listed


def test_the_real_gan_page_says_what_each_paper_count_is(client, real_methods):
    page = html(client, "/method/gan")
    assert "<span>The archive counts 1,183 papers using it</span>" in page
    assert "None of the 1,183 papers the archive counts is in this catalogue." in page
    assert "No papers." not in page


# --- the placeholder year --------------------------------------------------------------------------


def test_the_placeholder_year_is_not_a_year():
    assert make_method(introduced_year=2000).introduced_year_known is None
    assert make_method(introduced_year=2017).introduced_year_known == 2017
    assert make_method(introduced_year=None).introduced_year_known is None


def test_a_method_page_and_the_list_show_a_known_year_only(client):
    placeholder = make_method(slug="placeholder", name="Placeholder", introduced_year=2000)
    known = make_method(slug="known", name="Known", introduced_year=2017)
    assert "Introduced 2000" not in html(client, placeholder.get_absolute_url())
    assert "<span>Introduced 2017</span>" in html(client, known.get_absolute_url())
    listed = html(client, "/methods/")
    assert '<td class="num">2017</td>' in listed
    assert '<td class="num">2000</td>' not in listed


# --- the archive's paper counts and the catalogue's papers ------------------------------------------


def test_a_method_page_says_the_archive_counts_papers_the_catalogue_does_not_hold(client):
    method = make_method(slug="gan", name="GAN", num_papers=1183)
    page = html(client, method.get_absolute_url())
    assert "<span>The archive counts 1,183 papers using it</span>" in page
    assert '<p class="empty">None of the 1,183 papers the archive counts is in this catalogue.</p>' in page
    assert "No papers." not in page
    assert "Filter and sort these papers" not in page


def test_a_method_page_lists_the_catalogues_papers_as_those_of_the_archives_count(client):
    method = make_method(slug="gan", name="GAN", num_papers=1)
    paper = make_paper(title="Generative Adversarial Networks")
    paper.methods.add(method)
    page = html(client, method.get_absolute_url())
    assert "<span>The archive counts 1 paper using it</span>" in page
    assert "Those in this catalogue, of the 1 the archive counts." in page
    assert ">Generative Adversarial Networks</a>" in page
    assert "None of" not in page
    # A page of them that is empty (a cursor past the last) does not say the catalogue has none.
    past_the_end = html(client, method.get_absolute_url() + "?after=" + encode_cursor(["0000-00", 0]))
    assert "None of" not in past_the_end
    assert "No paper in this catalogue" not in past_the_end


def test_a_method_the_archive_counts_no_papers_for(client):
    page = html(client, make_method(slug="rare", name="Rare").get_absolute_url())
    assert '<p class="empty">No paper in this catalogue uses it.</p>' in page
    assert "The archive counts" not in page


def test_a_dataset_page_says_the_catalogue_has_no_results_on_it_beside_the_archives_count(client):
    page = html(client, make_dataset(name="CelebA", num_papers=2047).get_absolute_url())
    assert "<span>The archive counts 2,047 papers using it</span>" in page
    assert '<li class="empty">No paper in this catalogue has results on it.</li>' in page
