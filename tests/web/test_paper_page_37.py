"""Issue 37's paper page: each code link's mentions (in the paper, on GitHub) and no host
column; figure tiles only where they tell something; the harvester's formula behind "how this
is counted"; "Reach" explained; proceedings named as the field names them; corrections name the
paper by its title."""

import re

import pytest
from django.contrib.auth import get_user_model

from catalogue import curation
from catalogue import models as m
from catalogue.templatetags.wording import claim_parts, proceeding_label
from tests.factories import make_code_link, make_paper, make_repo

GPIPE = "/paper/gpipe-efficient-training-of-giant-neural"


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("NeurIPS 2019 12", "NeurIPS 2019"),
        ("ICLR 2018 1", "ICLR 2018"),
        ("CVPR 2016", "CVPR 2016"),
        ("ACL 2020 7", "ACL 2020"),
        ("Workshop on things", "Workshop on things"),
        ("", ""),
    ],
)
def test_a_proceeding_is_named_as_the_field_names_it(name, label):
    assert proceeding_label(name) == label


def test_a_claim_sets_its_formula_apart():
    claim = "Ran means executed. n_samples_ran = sum of by_status over every status except 'unverified'."
    assert claim_parts(claim) == (
        "Ran means executed.",
        "n_samples_ran = sum of by_status over every status except 'unverified'.",
    )
    assert claim_parts("No formula here.") == ("No formula here.", "")


@pytest.mark.django_db
def test_the_paper_page_shows_each_links_mentions_and_no_host_column(client, loaded_seeds):
    page = client.get(GPIPE).content.decode()
    assert '<th scope="col">Link</th>' not in page
    assert 'Mentioned in the paper</th><th scope="col">Mentioned on GitHub</th>' in page
    # torchgpipe: mentioned_in_paper 0, mentioned_in_github 1 in the seed
    row = re.search(r"<tr>\s*<td><a href=\"/repo/KakaoBrain/torchgpipe\">.*?</tr>", page, re.S)[0]
    cells = [_text(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
    assert cells[1:3] == ["no", "yes"]
    assert "NeurIPS 2019</a>" in page
    assert "NeurIPS 2019 12" not in page.split('<main id="main"')[1]  # its JSON-LD keeps the data's string
    assert "Reach: whether the repository’s address answered" in page


@pytest.mark.django_db
def test_a_link_whose_mentions_are_not_stated_says_so(client):
    paper = make_paper(title="Quiet")
    make_code_link(paper=paper, repo=make_repo(), mentioned_in_paper=True, mentioned_in_github=None)
    page = client.get(paper.get_absolute_url()).content.decode()
    row = re.search(r"<tbody>\s*<tr>.*?</tr>", page, re.S)[0]
    cells = [_text(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
    assert cells[1:3] == ["yes", "not stated"]


@pytest.mark.django_db
def test_figure_tiles_are_only_those_that_tell_something(client, loaded_seeds):
    page = client.get(GPIPE).content.decode()
    tiles = dict(
        re.findall(r"<dt>([^<]+)</dt><dd>([\d,]+)</dd>", page.split('class="figures"')[1].split("</dl>")[0])
    )
    assert "Papers" not in tiles  # its own page: always 1
    assert "Papers with a sample that ran" not in tiles
    assert "pointer-only places" not in tiles or tiles["pointer-only places"] != "0"
    assert "Samples fingerprinted" not in tiles or tiles["Samples fingerprinted"] != "0"
    assert tiles["Samples ran"] == "1"
    assert tiles["of them instrument failures"] == "1"


@pytest.mark.django_db
def test_the_harvesters_formula_is_behind_how_this_is_counted(client, loaded_seeds):
    page = client.get("/code/forward-step-func").content.decode()
    claim = re.search(r'<p class="claim">(.*?)</p>', page, re.S)[1]
    assert "n_samples_ran =" not in claim
    counted = re.search(
        r"<details class=\"counted\"><summary>How this is counted</summary>(.*?)</details>", page, re.S
    )[1]
    assert "n_samples_ran = sum of by_status" in counted


@pytest.mark.django_db
def test_the_corrections_log_names_a_paper_by_its_title(client, loaded_seeds):
    paper = m.Paper.objects.get(arxiv_id="1811.06965")
    curator = get_user_model().objects.create(username="curator")
    curation.correct_title(paper, "GPipe, corrected", user=curator, expected_version=None)
    page = client.get("/corrections/").content.decode()
    assert f'Title of <a href="/paper/{paper.slug}">GPipe, corrected</a>' in page
    assert f">{paper.slug}</a>" not in page
