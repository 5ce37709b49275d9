"""catalogue/citations.py and the paper page's citation block, BibTeX download and meta tags."""

import datetime as dt
import html as html_lib
import re

import pytest

from catalogue import models as m
from catalogue.web import citations
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def _with_authors(paper, *names):
    for position, name in enumerate(names):
        m.Author.objects.create(paper=paper, position=position, name=name)
    return paper


def test_a_preprint_is_a_misc_entry_with_its_arxiv_eprint():
    paper = _with_authors(
        make_paper(
            arxiv_id="1811.06965",
            slug="gpipe",
            title="GPipe: Efficient Training of Giant Neural Networks",
            date=dt.date(2018, 11, 16),
            url_abs="https://arxiv.org/abs/1811.06965v5",
        ),
        "Yanping Huang",
        "Youlong Cheng",
    )
    entry = citations.bibtex(paper, ["Yanping Huang", "Youlong Cheng"], "https://example.org/paper/gpipe")
    assert entry.startswith("@misc{huang2018gpipe,\n")
    assert "  title = {{GPipe: Efficient Training of Giant Neural Networks}}," in entry
    assert "  author = {Yanping Huang and Youlong Cheng}," in entry
    assert "  year = {2018},\n  month = {nov}," in entry
    assert "  eprint = {1811.06965},\n  archivePrefix = {arXiv}," in entry
    assert "  url = {https://arxiv.org/abs/1811.06965v5}," in entry
    assert "  note = {Code and samples: https://example.org/paper/gpipe}\n}\n" in entry


def test_a_paper_with_its_proceeding_is_inproceedings():
    paper = make_paper(arxiv_id=None, slug="x", title="Deep Residual Learning", proceeding="CVPR 2016")
    entry = citations.bibtex(paper, [], "https://example.org/paper/x")
    assert entry.startswith("@inproceedings{")
    assert "  booktitle = {CVPR 2016}," in entry
    assert "eprint" not in entry
    assert "  url = {https://example.org/paper/x}\n}" in entry  # its own page when it has no link


def test_markup_characters_are_escaped_and_a_comma_name_is_braced():
    paper = _with_authors(
        make_paper(title="100% of {braces} & $maths$ #1_a\\b", month="2020-03"),
        "Smith, Jr., John",
        "Zoë Ångström",
    )
    entry = citations.bibtex(paper, ["Smith, Jr., John", "Zoë Ångström"], "https://example.org/p")
    assert r"title = {{100\% of \{braces\} \& \$maths\$ \#1\_a\textbackslash{}b}}" in entry
    assert "author = {{Smith, Jr., John} and Zoë Ångström}" in entry
    assert "year = {2020},\n  month = {mar}," in entry
    assert entry.startswith("@misc{john2020braces,")  # the last word of the first name as written


def test_a_paper_without_authors_title_or_date_still_cites():
    paper = make_paper(arxiv_id=None, slug="only-a-slug", title="", month="")
    entry = citations.bibtex(paper, [], "https://example.org/paper/only-a-slug")
    assert entry.startswith("@misc{onlyaslug,\n  title = {{only-a-slug}},")
    assert "year" not in entry
    assert "author" not in entry


def test_control_characters_and_line_breaks_never_break_the_entry():
    paper = make_paper(title="Line one\r\nline two\x0b\x07 end")  # PostgreSQL holds no NUL
    entry = citations.bibtex(paper, [], "https://example.org/p")
    assert "title = {{Line one line two end}}" in entry


def test_meta_tags_follow_google_scholar_s_names_and_order():
    paper = _with_authors(
        make_paper(
            arxiv_id="1811.06965",
            title="GPipe",
            date=dt.date(2018, 11, 16),
            url_abs="https://arxiv.org/abs/1811.06965",
            url_pdf="https://arxiv.org/pdf/1811.06965",
            proceeding="NeurIPS 2019",
        ),
        "Yanping Huang",
        "Youlong Cheng",
    )
    assert citations.meta_tags(paper, ["Yanping Huang", "Youlong Cheng"]) == [
        ("citation_title", "GPipe"),
        ("citation_author", "Yanping Huang"),
        ("citation_author", "Youlong Cheng"),
        ("citation_publication_date", "2018/11/16"),
        ("citation_conference_title", "NeurIPS 2019"),
        ("citation_arxiv_id", "1811.06965"),
        ("citation_abstract_html_url", "https://arxiv.org/abs/1811.06965"),
        ("citation_pdf_url", "https://arxiv.org/pdf/1811.06965"),
    ]


def test_the_paper_page_carries_meta_tags_a_copyable_block_and_a_download(client):
    paper = _with_authors(make_paper(title="A <b>bold</b> title", month="2024-01"), "Ada Lovelace")
    page = client.get(paper.get_absolute_url()).content.decode()
    assert '<meta name="citation_title" content="A &lt;b&gt;bold&lt;/b&gt; title">' in page
    assert '<meta name="citation_author" content="Ada Lovelace">' in page
    assert '<meta name="citation_publication_date" content="2024/01">' in page
    block = re.search(r'<pre class="bibtex"[^>]*><code>(.*?)</code></pre>', page, re.S)[1]
    assert "<b>" not in block  # escaped on the page
    assert html_lib.unescape(block) == citations.bibtex(
        paper, ["Ada Lovelace"], f"http://testserver{paper.get_absolute_url()}"
    )
    assert f'<a href="{paper.get_absolute_url()}/bibtex" download>' in page


def test_the_bibtex_download_is_the_same_entry_as_a_bib_file(client):
    paper = _with_authors(make_paper(slug="a-paper"), "Ada Lovelace")
    response = client.get("/paper/a-paper/bibtex")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="a-paper.bib"'
    assert response.content.decode() == citations.bibtex(
        paper, ["Ada Lovelace"], "http://testserver/paper/a-paper"
    )


def test_the_bibtex_download_follows_an_old_slug_and_is_404_for_no_paper(client):
    paper = make_paper(slug="new-slug")
    m.PaperSlug.objects.create(slug="old-slug", paper=paper, last_stamp="s")
    response = client.get("/paper/old-slug/bibtex")
    assert response.status_code == 301
    assert response["Location"] == "/paper/new-slug/bibtex"
    assert client.get("/paper/no-such-paper/bibtex").status_code == 404


def test_the_cached_bibtex_download_keeps_its_file_name(client, settings):
    settings.PAGE_CACHE_SECONDS = 60
    make_paper(slug="cached")
    first, second = client.get("/paper/cached/bibtex"), client.get("/paper/cached/bibtex")
    assert first.content == second.content
    assert second["Content-Disposition"] == 'attachment; filename="cached.bib"'


def test_a_proceedings_paper_is_dated_by_its_proceedings_not_its_preprint():
    paper = make_paper(proceeding="NeurIPS 2019 12", date=dt.date(2018, 11, 16))
    entry = citations.bibtex(paper, [], "https://example.org/p")
    assert entry.startswith("@inproceedings{2019paper,")  # no author: the year, the first long word
    assert "  booktitle = {NeurIPS 2019}," in entry
    assert "  year = {2019},\n  month = {dec}," in entry
