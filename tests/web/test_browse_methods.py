"""catalogue/browse/: /methods/ grouped by collection and area, and a method's page."""

import pytest

from catalogue import models as m
from catalogue import reads
from tests.factories import make_paper
from tests.pages import html
from tests.web.browsing import assert_queries_do_not_grow, make_area

pytestmark = pytest.mark.django_db


# --- methods ------------------------------------------------------------------------------------


def _collection(slug, name, area=None):
    return m.MethodCollection.objects.create(slug=slug, name=name, area=area, stamp="s")


def test_the_method_list_groups_collections_by_area_and_filters_by_collection(client):
    vision = make_area("computer-vision", "Computer Vision")
    convs = _collection("convolutions", "Convolutions", vision)
    loose = _collection("loose", "Loose ends")
    conv = m.Method.objects.create(slug="conv", name="Convolution", num_papers=900, stamp="s")
    depthwise = m.Method.objects.create(
        slug="depthwise", name="Depthwise Convolution", num_papers=40, stamp="s"
    )
    adam = m.Method.objects.create(slug="adam", name="Adam", full_name="Adam optimizer", stamp="s")
    conv.collections.add(convs)
    depthwise.collections.add(convs)
    adam.collections.add(loose)
    areas = reads.taxonomy.method_areas()
    assert [(a.name, [(c.slug, c.n_methods) for c in a.collections]) for a in areas] == [
        ("Computer Vision", [("convolutions", 2)]),
        ("Other collections", [("loose", 1)]),
    ]
    assert [x.slug for x in reads.taxonomy.methods_page("", "convolutions", "papers").items] == [
        "conv",
        "depthwise",
    ]
    assert [x.slug for x in reads.taxonomy.methods_page("optim", "", "name").items] == ["adam"]
    page = html(client, "/methods/?collection=convolutions")
    assert '<a href="/method/conv">Convolution</a>' in page
    assert '<a href="/method/adam">' not in page
    assert '<option value="convolutions" selected>Convolutions (2)</option>' in page


def test_a_method_page_shows_its_collections_description_and_introducing_paper(client):
    paper = make_paper(title="Adam: A Method for Stochastic Optimization")
    optimizers = _collection("optimizers", "Stochastic Optimization", make_area("general", "General"))
    adam = m.Method.objects.create(
        slug="adam", name="Adam", full_name="Adam", description="Adaptive *moments*.", introduced_year=2014,
        introduced_in=paper, source_url="javascript:alert(1)", stamp="s",
    )  # fmt: skip
    adam.collections.add(optimizers)
    page = html(client, "/method/adam")
    assert '<a class="chip" href="/methods/?collection=optimizers">Stochastic Optimization</a>' in page
    assert "<p>Adaptive <em>moments</em>.</p>" in page  # the archive's Markdown, rendered
    assert "Introduced 2014" in page
    assert f'<a href="{paper.get_absolute_url()}">Adam: A Method for Stochastic Optimization</a>' in page
    assert "javascript:" not in page


@pytest.mark.parametrize("url", ["/methods/", "/methods/?collection=c-0", "/method/m-0"])
def test_method_pages_take_the_same_queries_for_1_or_50_methods(client, url):
    def grow(start, n):
        area = m.Area.objects.get_or_create(slug="a", defaults={"name": "A", "stamp": "s"})[0]
        for i in range(start, start + n):
            collection = _collection(f"c-{i}", f"C {i}", area)
            method = m.Method.objects.create(slug=f"m-{i}", name=f"M {i}", stamp="s")
            method.collections.add(collection, m.MethodCollection.objects.get(slug="c-0"))
            m.Method.objects.get(slug="m-0").collections.add(collection)

    grow(0, 1)
    assert_queries_do_not_grow(client, url, lambda: grow(1, 49))
