"""The figures on the pages are the query module's, agree with what the seed documents state, move
with a corrected status; statuses explain themselves."""

import re

import pytest

from catalogue import models as m
from catalogue import reads
from catalogue.figures import catalogue_figures, code_entry_figures, code_entry_figures_for, paper_figures
from catalogue.templatetags.pages import status_explanation
from tests.pages import html
from tests.web.pages.conftest import GPIPE

pytestmark = pytest.mark.django_db


# --- figures come from the query module -----------------------------------------------


def test_figures_on_pages_are_the_query_modules(client, loaded_seeds):
    home = client.get("/")
    assert home.context["figures"] == catalogue_figures()
    assert home.context["counts"] == reads.papers.catalogue_counts()

    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    paper = client.get(GPIPE)
    assert paper.context["paper_figures"] == paper_figures(gpipe)

    entry = m.CodeEntry.objects.get(name="forward_step_func")
    entry_page = client.get("/code/forward-step-func")
    assert entry_page.context["figures"] == code_entry_figures(entry)

    listing = client.get("/code/")
    entries = [e for e, _ in listing.context["rows"]]
    assert {e.pk: f for e, f in listing.context["rows"]} == code_entry_figures_for(entries)

    papers = client.get("/papers/").context["page"].items
    for row in papers:
        assert row.figures == paper_figures(row).samples


def test_figures_match_what_the_seed_document_states(client, loaded_seeds, seed_docs):
    doc = next(d for d in seed_docs.values() if d.get("entry") == "forward_step_func")
    page = html(client, "/code/forward-step-func")
    figures = re.findall(r"<dt>([^<]+)</dt><dd>([\d,]+)</dd>", page)
    shown = {label: int(value.replace(",", "")) for label, value in figures}
    assert shown["Places"] == doc["n_places"]
    # a sub-count that is 0 is not shown as a tile (issue 37)
    assert shown.get("pointer-only places", 0) == doc["n_places_pointer_only"]
    assert shown["Code bodies (samples)"] == doc["n_samples"]
    assert shown["Samples ran"] == doc["n_samples_ran"]
    assert shown["Papers"] == doc["n_papers"]
    assert shown["Papers with a sample that ran"] == doc["n_papers_ran"]
    desc = re.search(r'<desc id="entry-status-d">(.*?)</desc>', page)[1]
    for status, count in doc["by_status"].items():
        assert f"{status}: {count}" in desc


def test_a_corrected_status_moves_the_figures_on_the_page(client, loaded_seeds):
    entry = m.CodeEntry.objects.get(name="forward_step_func")
    before = client.get("/code/forward-step-func").context["figures"]
    m.Sample.objects.filter(entry=entry, status="unverified").update(status="ran_honours")
    after = client.get("/code/forward-step-func").context["figures"]
    assert after.n_samples_ran > before.n_samples_ran
    assert after == code_entry_figures(entry)


# --- statuses explain themselves ----------------------------------------------------


def test_status_badges_explain_themselves_and_instrument_failures_say_so(client, loaded_seeds):
    page = html(client, GPIPE)
    assert f'title="{status_explanation("ran_draft_wrong")}"' in page.replace("&#x27;", "'")
    assert "not of the code" in status_explanation("ran_draft_wrong")
    assert "not of the code" in status_explanation("ran_fixture")
    assert "not of the code" not in status_explanation("ran_violates")
    assert "What the statuses mean" in page
    about = html(client, "/about")
    assert about.count("A failure of the instrument, not of the code") == 2
    for status in m.Status:
        assert status.value in about
    assert "CC BY-SA 4.0" in about
    assert "modified by Syntology" in about
    assert "not affiliated" in about
