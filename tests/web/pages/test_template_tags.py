"""The template tags that replaced template loops write what the loops wrote (the *_loop.html files
beside this module), and addresses are what reverse() gives under any script prefix."""

from pathlib import Path

import pytest

from catalogue import models as m
from catalogue import reads
from tests import factories
from tests.factories import make_body, make_entry, make_leaderboard, make_paper, make_repo, make_result

pytestmark = pytest.mark.django_db


# The rows of includes/places_table.html as its {% for %} wrote them before the place_rows tag.
PLACE_ROWS_AS_A_LOOP = (Path(__file__).parent / "places_table_loop.html").read_text()


@pytest.mark.parametrize("hidden", ["", "hide_paper", "hide_entry", "hide_repo", "hide_body"])
def test_place_rows_write_what_the_template_loop_wrote(loaded_seeds, hidden):
    from django.contrib.auth import get_user_model
    from django.template import Context, Template

    from catalogue import curation

    curator = get_user_model().objects.create(username="curator")
    corrected = m.Sample.objects.filter(status="unverified").order_by("id").first()
    curation.correct_status(corrected, "ran", user=curator, reason="<b>ran</b> it", expected_version=None)
    odd = make_paper(slug="odd", title="", month="")  # no title, no month
    factories.make_sample(paper=odd, repo=None, path="", inline_ok=False, licence=None)
    factories.make_sample(paper=odd, repo=make_repo(host="gitlab.com"), path="a/b.py", file_url=None)
    factories.make_sample(
        paper=odd, entry=make_entry(name="<script>x</script>"), path="x/<y>.py", file_url='https://e"x'
    )
    places = [
        *reads.code.places_page(m.Sample.objects.all()).items,
        *reads.code.places_page(m.Sample.objects.filter(pk=corrected.pk)).items,
        *reads.code.places_page(m.Sample.objects.filter(paper=odd)).items,
    ]
    assert any(s.status_corrected for s in places)
    context = {"places": places, hidden: True} if hidden else {"places": places}
    table = Template("{% include 'includes/places_table.html' %}").render(Context(context))
    rows = table.split("<tbody>\n", 1)[1].split("\n  </tbody>", 1)[0]
    assert rows == Template(PLACE_ROWS_AS_A_LOOP).render(Context(context))
    empty = Template("{% include 'includes/places_table.html' %}").render(Context({"places": []}))
    assert empty.split("<tbody>\n", 1)[1].split("\n  </tbody>", 1)[0] == Template(
        PLACE_ROWS_AS_A_LOOP
    ).render(Context({"places": []}))


@pytest.mark.parametrize("script_prefix", ["/", "/mounted/", "/a&b'c/"])
def test_place_row_addresses_are_what_reverse_gives(script_prefix):
    """``url_to`` is ``reverse``, and ``href_to`` its escaped text, under any script prefix
    (one that HTML escaping changes too)."""
    from django.urls import get_script_prefix, reverse, set_script_prefix
    from django.utils.html import conditional_escape

    from catalogue.addresses import href_to, url_to

    before = get_script_prefix()
    set_script_prefix(script_prefix)
    try:
        segments = ("gpipe-1", "a.b_c~d", "0123abcdef", "with space", "ünï", "a%2Fb", "x?y#z", "a&b", "..")
        for name in ("paper", "code_entry", "code_body"):
            for segment in segments:
                url = reverse(name, args=[segment])
                assert url_to(name, segment) == url, (name, segment)
                assert href_to(name, segment) == conditional_escape(url), (name, segment)
        for owner in segments:  # a repository's page: two segments
            for repo in ("torchgpipe", owner[::-1]):
                url = reverse("repo", args=[owner, repo])
                assert url_to("repo", owner, repo) == url, (owner, repo)
                assert href_to("repo", owner, repo) == conditional_escape(url), (owner, repo)
    finally:
        set_script_prefix(before)


@pytest.mark.parametrize("script_prefix", ["/", "/mounted/", "/a&b'c/"])
def test_url_tag_without_arguments_is_djangos_under_any_script_prefix(script_prefix):
    """``{% url %}`` (catalogue.templatetags.addresses, a builtin) reverses an address without
    arguments once and keeps it; what it writes is still Django's tag's, under every script prefix
    (asked for in turn, so a kept address of one prefix must not answer for another), escaped or
    not, and with arguments, a name in a variable or ``as var`` it is Django's tag itself."""
    from django.template import Context, Template
    from django.urls import get_script_prefix, reverse, set_script_prefix
    from django.utils.html import conditional_escape

    before = get_script_prefix()
    try:
        for prefix in ("/", script_prefix, "/other/"):
            set_script_prefix(prefix)
            for name in ("home", "about", "search", "paper_list"):
                url = reverse(name)
                assert prefix in url
                assert Template(f"{{% url '{name}' %}}").render(Context()) == conditional_escape(url)
                off = f"{{% autoescape off %}}{{% url '{name}' %}}{{% endautoescape %}}"
                assert Template(off).render(Context()) == url
                assert Template("{% url name %}").render(Context({"name": name})) == conditional_escape(url)
                assert Template(f"{{% url '{name}' as u %}}[{{{{ u }}}}]").render(Context()) == (
                    f"[{conditional_escape(url)}]"
                )
            paper = reverse("paper", args=["gpipe"])
            assert Template("{% url 'paper' 'gpipe' %}").render(Context()) == conditional_escape(paper)
    finally:
        set_script_prefix(before)


# The paper page's places as its two {% for %} wrote them, from Sample instances grouped by Repo,
# before the paper_place_groups tag wrote them from reads.paper_page.PaperPlace rows.
PAPER_PLACES_AS_LOOPS = (Path(__file__).parent / "paper_places_loop.html").read_text()


def test_paper_place_groups_write_what_the_template_loops_wrote(loaded_seeds):
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model
    from django.db.models import F
    from django.template import Context, Template

    from catalogue import curation
    from catalogue.models.corrections import attach_status_corrections

    curator = get_user_model().objects.create(username="curator")
    gpipe = m.Paper.objects.get(arxiv_id="1811.06965")
    corrected = m.Sample.objects.filter(paper=gpipe).order_by("id").first()
    curation.correct_status(corrected, "ran", user=curator, reason="<b>ran</b> it", expected_version=None)
    odd = make_paper(slug="odd")
    shown = make_body(code="print(1)")
    factories.make_sample(paper=odd, repo=None, path="", inline_ok=False, licence=None, body=shown)
    factories.make_sample(paper=odd, repo=None, path="", file_url="https://e/x", licence="NONE", body=shown)
    factories.make_sample(
        paper=odd,
        repo=make_repo(host="gitlab.com", owner="<i>o", name="a&b", spdx="NOASSERTION"),
        entry=make_entry(name="<script>x</script>"),
        path="x/<y>.py",
        file_url='https://e"x',
        contract_check="<b>passed</b>",
        metamorphic_tier="tier & 2",
        verification_level=3,
    )
    groups = Template("{% load pages %}{% paper_place_groups groups slug %}")
    loops = Template(PAPER_PLACES_AS_LOOPS)
    seen = []
    for paper in (gpipe, odd):
        samples = list(
            m.Sample.objects.filter(paper=paper)
            .with_code_links()
            .select_related("repo", "entry")
            .order_by(F("repo__key").asc(nulls_last=True), "entry__name", "body__sha256_prefix")
        )
        attach_status_corrections(samples)
        by_repo = {}
        for sample in samples:
            by_repo.setdefault(sample.repo_id, (sample.repo, []))[1].append(sample)
        page = reads.paper_page.paper_page(reads.papers.paper_by_address(paper.slug)[0])
        assert [[p.pk for p in places] for _, places in page.samples_by_repo] == [
            [s.pk for s in group] for _, group in by_repo.values()
        ]
        seen += samples
        written = groups.render(Context({"groups": page.samples_by_repo, "slug": paper.slug}))
        as_loops = loops.render(
            Context({"data": SimpleNamespace(samples_by_repo=list(by_repo.values())), "paper": paper})
        )
        assert written == as_loops
    # the cases the rows tell apart: code shown or not, a corrected status, no path, no file link,
    # a repository or none, one place in a repository or several
    assert {s.code_shown for s in seen} == {s.status_corrected for s in seen} == {True, False}
    assert {bool(s.path) for s in seen} == {bool(s.file_url) for s in seen} == {True, False}
    assert {s.repo is None for s in seen} == {True, False}
    assert {len(group) for _, group in by_repo.values()} == {1, 2}


# A leaderboard's rows as its template's {% for %} wrote them before the board_rows tag.
BOARD_ROWS_AS_A_LOOP = (Path(__file__).parent / "board_rows_loop.html").read_text()


def test_board_rows_write_what_the_template_loop_wrote(db):
    import datetime

    from django.template import Context, Template

    board = make_leaderboard(slug="rows-board")
    titled = make_paper(slug="titled", title="A <b>title</b> & more", month="2020-03")
    untitled = make_paper(slug="untitled", title="", month="")
    rows = [
        {
            "paper": titled,
            "metrics": {"Accuracy": "90.1%", "Top-5": 97, "Error": 0.000012},
            "rank_in_archive_order": 1,
            "of": 4,
        },
        {
            "paper": untitled,
            "metrics": {"Accuracy": None, "Error": 1e21},
            "uses_additional_data": True,
            "rank_in_archive_order": 2,
        },
        {
            "paper": None,
            "paper_url": "https://example.org/p?a=1&b=<2>",
            "paper_title": "",
            "paper_date": datetime.date(2019, 5, 1),
            "metrics": {},
            "uses_additional_data": False,
        },
        {
            "paper": None,
            "paper_url": "https://example.org/q",
            "paper_title": 'Named "paper"',
            "paper_date": None,
            "metrics": {"Top-5": "n/a"},
        },
        {
            "paper": None,
            "paper_title": "Only a <title>",
            "paper_date": datetime.date(2018, 1, 2),
            "metrics": {"Accuracy": 12.5},
        },
        {
            "paper": None,
            "paper_title": "",
            "metrics": {"Accuracy": "<script>"},
            "rank_in_archive_order": 0,
            "of": 3,
        },
    ]
    results = [make_result(leaderboard=board, model=f"Model <{n}>", **row) for n, row in enumerate(rows)]
    results = reads.leaderboards.results_on(board)
    for metric in ("Accuracy", "Error", ""):
        context = {"results": results, "metric_names": ["Accuracy", "Top-5", "Error"], "metric": metric}
        tag = Template("{% load pages %}  {% board_rows results metric_names metric %}").render(
            Context(context)
        )
        assert tag == Template(BOARD_ROWS_AS_A_LOOP).render(Context(context))
    empty = {"results": [], "metric_names": ["Accuracy"], "metric": "Accuracy"}
    assert Template("{% load pages %}  {% board_rows results metric_names metric %}").render(
        Context(empty)
    ) == Template(BOARD_ROWS_AS_A_LOOP).render(Context(empty))
