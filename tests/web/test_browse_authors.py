"""catalogue/browse/: /author/<name>, /proceedings/, /conference/<slug> and /proceeding/<id>: an
author is an exact name, proceedings gather their spellings, names stay text."""

import pytest

from catalogue import models as m
from catalogue import reads
from tests.factories import make_paper, reindex_search
from tests.pages import html
from tests.web.browsing import PROBE, assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


# --- authors and proceedings -------------------------------------------------------------------


def _by(paper, *names):
    for position, name in enumerate(names):
        m.Author.objects.create(paper=paper, position=position, name=name)
    return paper


def test_an_author_page_lists_the_papers_of_that_exact_name_newest_first(client):
    older = _by(make_paper(title="Older work", month="2019-01"), "Yanping Huang", "Someone Else")
    newer = _by(make_paper(title="Newer work", month="2023-05"), "Yanping Huang")
    _by(make_paper(title="Another person", month="2024-01"), "Yanping  Huang", "yanping huang")
    page = html(client, "/author/Yanping%20Huang")
    assert page.index("Newer work") < page.index("Older work")
    assert "Another person" not in page
    assert "2 papers" in page
    assert "two people may share one name" in page
    paper_page = html(client, newer.get_absolute_url())
    assert '<a href="/author/Yanping%20Huang">Yanping Huang</a>' in paper_page
    assert [p.pk for p in reads.named.author_page("Yanping Huang").papers.items] == [newer.pk, older.pk]
    html(client, "/author/Nobody%20Here", status=404)


def test_an_author_name_with_a_slash_or_a_question_mark_is_shown_without_a_page(client):
    # "/", "?", "#" and "%" make no address that reaches the name's page through every browser
    # and proxy (catalogue.authors): the name is text, and what would be its address is a 404.
    paper = _by(make_paper(title="Odd names"), "A/B Team?", "#1 author", "Ada Lovelace")
    page = html(client, paper.get_absolute_url())
    linked = '<a href="/author/Ada%20Lovelace">Ada Lovelace</a>'
    assert f'<p class="authors">A/B Team?, #1 author, {linked}</p>' in page
    for address in ("/author/A/B%20Team%3F", "/author/%231%20author"):
        html(client, address, status=404)


def test_proceedings_are_listed_by_conference_and_gather_their_spellings(client):
    in_neurips = make_paper(title="A NeurIPS paper", proceeding="NeurIPS 2019 12")
    make_paper(title="Another spelling", proceeding="neurips 2019 12")
    make_paper(title="An ICML paper", proceeding="ICML 2020")
    make_paper(title="No proceeding")
    make_paper(title="A later NeurIPS paper", proceeding="NeurIPS 2021 12")
    listing = html(client, "/proceedings/")
    neurips_row = '<td><a href="/conference/neurips">NeurIPS</a></td>\n      <td>2019–2021</td>\n'
    assert neurips_row + '      <td class="num">2</td>\n      <td class="num">3</td>' in listing
    assert '<td><a href="/conference/icml">ICML</a></td>\n      <td>2020</td>' in listing
    conference = html(client, "/conference/neurips")
    assert (
        '<a href="/proceeding/neurips-2019-12">NeurIPS 2019 12</a> <span class="muted small">2 papers'
        in conference
    )
    assert conference.index("/proceeding/neurips-2021-12") < conference.index("/proceeding/neurips-2019-12")
    assert "/proceeding/icml-2020" not in conference
    html(client, "/conference/no-such-conference", status=404)
    page = html(client, "/proceeding/neurips-2019-12")
    assert '<a href="/conference/neurips">NeurIPS</a>' in page
    assert "A NeurIPS paper" in page
    assert "Another spelling" in page
    assert "An ICML paper" not in page
    paper_page = html(client, in_neurips.get_absolute_url())
    # the paper page names it as the field does (issue 37); the conference's list keeps the
    # archive's spelling, where two proceedings of one year differ by their month
    assert '<a href="/proceeding/neurips-2019-12">NeurIPS 2019</a>' in paper_page
    html(client, "/proceeding/no-such-conference", status=404)
    # the page and the API name a proceeding alike
    assert client.get("/api/v1/conferences/neurips/proceedings/neurips-2019-12/").status_code == 200


def test_the_conference_list_is_paged_by_id(client, monkeypatch):
    from catalogue.pagination.keyset import keyset_page_of_rows
    from catalogue.web.views import named as views

    for venue in ("AAAI", "CVPR", "ICML", "NeurIPS", "proceedings-of-the-27th-international"):
        make_paper(proceeding=f"{venue} 2020")
    monkeypatch.setattr(views, "CONFERENCES_PER_PAGE", 2)
    first = html(client, "/proceedings/")
    assert first.count('href="/conference/') == 2
    assert '"/conference/aaai"' in first
    assert '"/conference/cvpr"' in first
    rows = [m.Paper(slug=x) for x in "abcde"]  # any rows with a unique text field
    pages, cursor = [], None
    while True:
        page = keyset_page_of_rows(rows, "slug", after=cursor, size=2)
        pages.append([r.slug for r in page.items])
        if not (cursor := page.next_cursor):
            break
    assert pages == [["a", "b"], ["c", "d"], ["e"]]
    back = keyset_page_of_rows(rows, "slug", before=page.prev_cursor, size=2)
    assert [r.slug for r in back.items] == ["c", "d"]
    assert back.prev_cursor
    assert back.next_cursor
    assert keyset_page_of_rows(rows, "slug", after="forged", size=2).items == rows[:2]


def test_search_finds_authors_among_its_paper_hits(client):
    _by(make_paper(title="Pipeline parallelism"), "Yanping Huang", "Quoc Le")
    _by(make_paper(title="Giant networks"), "Yanping Huang")
    _by(make_paper(title="Unrelated"), "Ada Lovelace")
    reindex_search()
    assert reads.site_search.authors_matching("yanping huang") == [("Yanping Huang", 2)]
    assert reads.site_search.authors_matching("lovelace") == [("Ada Lovelace", 1)]
    assert reads.site_search.authors_matching("!!!") == []
    page = html(client, "/search?q=yanping")
    assert 'Authors named so: <a href="/author/Yanping%20Huang">Yanping Huang</a>' in page


@pytest.mark.parametrize("url", ["/author/Ada%20Lovelace", "/proceeding/neurips-2019"])
def test_author_and_proceeding_pages_take_the_same_queries_for_1_or_50_papers(client, url):
    def grow(n):
        for _ in range(n):
            _by(make_paper(proceeding="NeurIPS 2019"), "Ada Lovelace", "Charles Babbage")

    grow(1)
    assert_queries_do_not_grow(client, url, lambda: grow(49))


def test_hostile_author_and_proceeding_names_stay_text(client):
    with_a_page = "<img src=x onerror=alert(1)>"  # PROBE holds a "/": it has no page of its own
    paper = _by(make_paper(proceeding=PROBE), PROBE, with_a_page)
    probe_id = "scriptalertxscript"
    for url in (
        paper.get_absolute_url(),
        "/proceedings/",
        f"/author/{with_a_page}",
        f"/proceeding/{probe_id}",
    ):
        page = html(client, url)
        assert PROBE not in page, url
        assert with_a_page not in page, url
