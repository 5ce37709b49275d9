"""/api/v1/conferences/ and their proceedings: derived from the proceeding each paper names
(catalogue.conferences says the rule)."""

import datetime
from urllib.parse import unquote, urlsplit

import pytest
from django.urls import resolve

from catalogue import conferences
from tests.api_helpers import (
    V1,
    assert_both_pagination_modes_walk,
    assert_queries_do_not_grow_with_page_size,
    get,
    ids,
    queries_and_rows,
    walk,
)
from tests.factories import make_paper

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_throttle_off")]

HOSTILE = "Workshop on <script>alert('x')</script> \"Quotes\" / Slashes"
HOSTILE_ID = "workshop-on-scriptalertxscript-quotes-slashes"
NEURIPS = f"{V1}/conferences/neurips"


# --- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NeurIPS 2019 12", ("NeurIPS", 2019, 12)),
        ("ICLR 2020", ("ICLR", 2020, None)),
        ("ACL 2020 13", ("ACL", 2020, None)),  # not a month
        ("ACL 2020 07", ("ACL", 2020, 7)),
        ("Findings of the ACL: EMNLP 2020 11", ("Findings of the ACL: EMNLP", 2020, 11)),
        ("  CVPR   2021  6 ", ("CVPR", 2021, 6)),
        ("ICML 2019 6 Workshop 2020", ("ICML", 2019, 6)),  # the first year
        ("2019 Workshop on Things", ("2019 Workshop on Things", None, None)),  # a year first names nothing
        ("Workshop on Things", ("Workshop on Things", None, None)),
        ("NeurIPS-2019 12", ("NeurIPS-2019 12", None, None)),  # no word of four digits
        ("ICML 20190 7", ("ICML 20190 7", None, None)),
        ("ICML ２０２０ 7", ("ICML ２０２０ 7", None, None)),  # ASCII digits only
        ("ICML 2020 ７", ("ICML", 2020, None)),
    ],
)
def test_a_proceeding_name_gives_conference_year_and_month(name, expected):
    assert conferences.parts(name) == expected


def test_derive_gathers_spellings_by_slug_and_names_by_most_papers():
    found = conferences.derive(
        [("Neurips 2019 12", 1), ("NeurIPS 2019 12", 2), ("NeurIPS  2019 12 ", 1), ("NEURIPS 2020 12", 5),
         ("ICLR 2021 5", 1), ("   ", 4), ("作者会议 2020 1", 1), ("!!! 2020", 1)]
    )  # fmt: skip
    assert list(found) == ["iclr", "neurips", "unnamed", "作者会议"]
    neurips = found["neurips"]
    assert neurips.name == "NEURIPS"  # its proceedings' names spell it so for 5 papers, NeurIPS for 4
    first = neurips.proceedings[0]
    assert (first.id, first.name, first.n_papers, first.year, first.month) == (
        "neurips-2019-12", "NeurIPS 2019 12", 4, 2019, 12,
    )  # fmt: skip
    assert first.spellings == ("NeurIPS  2019 12 ", "NeurIPS 2019 12", "Neurips 2019 12")
    assert [p.id for p in neurips.proceedings] == ["neurips-2019-12", "neurips-2020-12"]
    assert found["unnamed"].proceedings[0].id == "2020"
    assert found["unnamed"].name == "!!!"


def test_derive_is_the_same_in_any_order():
    rows = [("B 2020 1", 1), ("b 2020 1", 1), ("A 2019 2", 2), ("a 2021 3", 1)]
    assert conferences.derive(rows) == conferences.derive(reversed(rows))
    assert conferences.derive(rows)["a"].name == "A"
    assert conferences.derive(rows)["b"].proceedings[0].name == "B 2020 1"  # a tie: code-point order


# --- the API ----------------------------------------------------------------------------------


def dated_paper(slug: str, proceeding: str, date: datetime.date, **fields):
    return make_paper(slug=slug, proceeding=proceeding, date=date, month=date.isoformat()[:7], **fields)


@pytest.fixture
def catalogue(db):
    """NeurIPS 2019 under two spellings (three papers), NeurIPS 2020, CVPR, ICLR, a hostile
    workshop without a year, and a paper that names no proceeding."""
    dated_paper("gpipe", "NeurIPS 2019 12", datetime.date(2018, 11, 16), title="GPipe")
    dated_paper("xlnet", "NeurIPS 2019 12", datetime.date(2019, 6, 19), title="XLNet")
    dated_paper("adam-again", "Neurips 2019 12", datetime.date(2019, 1, 2), title="Adam again")
    dated_paper("gpt-3", "NeurIPS 2020 12", datetime.date(2020, 5, 28), title="GPT-3")
    dated_paper("simclr", "CVPR 2020 6", datetime.date(2020, 2, 13), title="SimCLR")
    dated_paper("vit", "ICLR 2021 1", datetime.date(2020, 10, 22), title="ViT")
    dated_paper("hostile", HOSTILE, datetime.date(2021, 1, 1), title="Hostile")
    dated_paper("no-proceeding", "", datetime.date(2021, 2, 2))


CONFERENCE_IDS = ["cvpr", "iclr", "neurips", HOSTILE_ID]


def test_conference_list_and_detail(api, catalogue):
    page = get(api, f"{V1}/conferences/")
    assert page["count"] == 4
    assert page["results"] == [
        {"id": "cvpr", "name": "CVPR"},
        {"id": "iclr", "name": "ICLR"},
        {"id": "neurips", "name": "NeurIPS"},
        {"id": HOSTILE_ID, "name": HOSTILE},
    ]
    assert get(api, f"{NEURIPS}/") == {"id": "neurips", "name": "NeurIPS"}


def test_unknown_ids_are_404(api, catalogue):
    assert "detail" in get(api, f"{V1}/conferences/no-such/", expect=404)
    get(api, f"{V1}/conferences/NeurIPS/", expect=404)  # the id is the slug
    get(api, f"{V1}/conferences/no-such/proceedings/", expect=404)
    get(api, f"{NEURIPS}/proceedings/neurips-2018-12/", expect=404)
    get(api, f"{NEURIPS}/proceedings/neurips-2018-12/papers/", expect=404)
    get(api, f"{V1}/conferences/iclr/proceedings/neurips-2019-12/", expect=404)  # another's
    get(api, f"{V1}/conferences/iclr/proceedings/neurips-2019-12/papers/", expect=404)


def test_proceedings_of_a_conference(api, catalogue):
    page = get(api, f"{NEURIPS}/proceedings/")
    assert page["count"] == 2
    assert page["results"][0] == {
        "id": "neurips-2019-12",
        "year": 2019,
        "month": 12,
        "name": "NeurIPS 2019 12",
        "conference": "neurips",
        "n_papers": 3,
        "url": "http://testserver/proceeding/neurips-2019-12",
    }
    assert ids(page) == ["neurips-2019-12", "neurips-2020-12"]
    assert get(api, f"{NEURIPS}/proceedings/neurips-2019-12/") == page["results"][0]


def test_a_proceeding_without_a_year_has_null_year_and_month(api, catalogue):
    (workshop,) = get(api, f"{V1}/conferences/{HOSTILE_ID}/proceedings/")["results"]
    assert workshop["id"] == HOSTILE_ID
    assert (workshop["year"], workshop["month"], workshop["name"]) == (None, None, HOSTILE)


def test_hostile_names_round_trip(api, catalogue):
    conference = next(c for c in walk(api, f"{V1}/conferences/") if c["name"] == HOSTILE)
    assert get(api, f"{V1}/conferences/{conference['id']}/")["name"] == HOSTILE
    proceeding = get(api, f"{V1}/conferences/{conference['id']}/proceedings/{HOSTILE_ID}/")
    assert resolve(unquote(urlsplit(proceeding["url"]).path)).kwargs == {"slug": HOSTILE_ID}
    papers = get(api, f"{V1}/conferences/{conference['id']}/proceedings/{HOSTILE_ID}/papers/")
    assert [(p["id"], p["proceeding"]) for p in papers["results"]] == [("hostile", HOSTILE)]
    assert ids(get(api, f"{V1}/conferences/", q="script")) == [HOSTILE_ID]


def test_proceeding_papers_are_those_naming_it_in_any_spelling(api, catalogue):
    url = f"{NEURIPS}/proceedings/neurips-2019-12/papers/"
    page = get(api, url)
    assert (page["count"], ids(page)) == (3, ["adam-again", "gpipe", "xlnet"])  # by id
    assert {p["proceeding"] for p in page["results"]} == {"NeurIPS 2019 12", "Neurips 2019 12"}
    assert ids(get(api, url, ordering="-published")) == ["xlnet", "adam-again", "gpipe"]
    assert ids(get(api, url, title="GPipe")) == ["gpipe"]
    assert ids(get(api, url, year_min=2019)) == ["adam-again", "xlnet"]
    assert ids(get(api, f"{NEURIPS}/proceedings/neurips-2020-12/papers/")) == ["gpt-3"]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "neurips"}, ["neurips"]),
        ({"q": "WORKSHOP slashes"}, [HOSTILE_ID]),
        ({"q": "iclr cvpr"}, []),
        ({"name": "cv"}, ["cvpr"]),
        ({"name": "<script>"}, [HOSTILE_ID]),
        ({"name": "zzz"}, []),
    ],
)
def test_conference_filters(api, catalogue, params, expected):
    assert [c["id"] for c in walk(api, f"{V1}/conferences/", **params)] == expected


def test_proceeding_filters(api, catalogue):
    assert ids(get(api, f"{NEURIPS}/proceedings/", year=2020)) == ["neurips-2020-12"]
    assert ids(get(api, f"{NEURIPS}/proceedings/", year=2018)) == []
    assert ids(get(api, f"{NEURIPS}/proceedings/", q="2019")) == ["neurips-2019-12"]
    assert list(get(api, f"{NEURIPS}/proceedings/", expect=400, year="soon")) == ["year"]


def test_both_pagination_modes(api, catalogue):
    assert_both_pagination_modes_walk(
        api, f"{V1}/conferences/", CONFERENCE_IDS, ["iclr", HOSTILE_ID], name="L"
    )
    assert list(get(api, f"{V1}/conferences/", expect=400, cursor="junk")) == ["cursor"]
    proceedings = walk(api, f"{NEURIPS}/proceedings/", pagination="cursor", items_per_page=1)
    assert [p["id"] for p in proceedings] == ["neurips-2019-12", "neurips-2020-12"]
    assert ids(get(api, f"{NEURIPS}/proceedings/", items_per_page=1, page=2)) == ["neurips-2020-12"]
    papers = f"{NEURIPS}/proceedings/neurips-2019-12/papers/"
    assert [p["id"] for p in walk(api, papers, pagination="cursor", items_per_page=2)] == [
        "adam-again", "gpipe", "xlnet",
    ]  # fmt: skip
    assert ids(get(api, papers, items_per_page=2, page=2)) == ["xlnet"]


def test_a_cursor_walk_goes_back_as_it_came(api, catalogue):
    first = get(api, f"{V1}/conferences/", pagination="cursor", items_per_page=2)
    second = api.get(first["next"]).json()
    assert ids(second) == CONFERENCE_IDS[2:]
    assert ids(api.get(second["previous"]).json()) == CONFERENCE_IDS[:2]


def test_conference_detail_has_an_etag(api, catalogue):
    response = api.get(f"{NEURIPS}/proceedings/neurips-2019-12/")
    again = api.get(f"{NEURIPS}/proceedings/neurips-2019-12/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


# --- the query count does not grow with the page --------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "conferences/",
        "conferences/?name=r",
        "conferences/neurips/proceedings/",
        "conferences/neurips/proceedings/neurips-2019-12/papers/",
    ],
)
@pytest.mark.parametrize("mode", ["page", "cursor"])
def test_query_count_does_not_grow_with_page_size(api, catalogue, url, mode):
    assert_queries_do_not_grow_with_page_size(api, url, mode)


def test_query_counts_are_pinned(api, catalogue):
    # one grouped read of the papers' proceedings gives every conference and proceeding
    assert queries_and_rows(api, f"{V1}/conferences/")[0] == 1
    assert queries_and_rows(api, f"{NEURIPS}/proceedings/")[0] == 1
    # that read, count, papers, their authors
    assert queries_and_rows(api, f"{NEURIPS}/proceedings/neurips-2019-12/papers/")[0] == 4
