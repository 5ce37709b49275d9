"""The registry of public pages (catalogue.web.public_pages) and each kind's example (tests/pages.py)."""

import pytest
from django.urls import resolve

from catalogue.web.public_pages import public_page_kinds
from catalogue.web.views.papers import paper_detail
from catalogue.web.views.site import robots_txt
from tests.pages import (
    FEEDS,
    OWN_FORMAT,
    SAVED_NOT_SHOWN,
    SEED_EXAMPLES,
    MissingExample,
    kind_names,
    seed_html_pages,
    seed_pages,
)


def test_every_view_cached_page_marks_is_a_kind_and_nothing_else_is():
    kinds = public_page_kinds()
    assert len(kinds) == len({kind.name for kind in kinds}) >= 33
    assert all(kind.view.public_page for kind in kinds)
    names = {kind.name for kind in kinds}
    assert {"home", "paper", "code_entry", "leaderboard", "author", "papers_feed", "data"} <= names
    # not public pages: the API, the admin, health checks, sitemaps, robots, the .json catch-all
    assert not {"healthz", "readyz", "sitemap", "robots_txt", "json_form"} & names
    assert not any(kind.route.startswith(("api/", "admin/")) for kind in kinds)


def test_every_public_page_kind_has_an_example_and_every_example_a_kind():
    assert set(SEED_EXAMPLES) == set(kind_names())
    assert len(seed_pages()) == len(kind_names())
    assert set(kind_names()) >= FEEDS | SAVED_NOT_SHOWN | set(OWN_FORMAT)
    assert len(seed_html_pages()) == len(kind_names()) - len(FEEDS | SAVED_NOT_SHOWN | set(OWN_FORMAT))


def test_a_kind_without_an_example_is_refused_by_name():
    examples = {name: url for name, url in SEED_EXAMPLES.items() if name != "task_feed"}
    with pytest.raises(MissingExample, match="task_feed"):
        seed_pages(examples)


@pytest.mark.parametrize("kind", public_page_kinds(), ids=lambda kind: kind.name)
def test_each_example_is_of_its_kind_and_answers_on_the_seeds(client, loaded_seeds, kind):
    url = SEED_EXAMPLES[kind.name]
    match = resolve(url.split("?")[0].replace("%20", " "))
    assert match.func is kind.view, url
    response = client.get(url)
    assert response.status_code == 200, url
    # what the browser tests may open as a page (tests/pages.py: seed_html_pages) is HTML
    shown_as = response["Content-Type"].split(";")[0]
    if kind.name in FEEDS:
        assert shown_as == "application/atom+xml", url
    elif kind.name in SAVED_NOT_SHOWN:
        assert response["Content-Disposition"].startswith("attachment"), url
    elif kind.name in OWN_FORMAT:
        assert shown_as == OWN_FORMAT[kind.name], url
    else:
        assert shown_as == "text/html", url


def test_a_view_marked_public_is_found_wherever_it_is_routed():
    import sys
    import types

    from django.urls import clear_url_caches, include, path

    inner = types.ModuleType("pages_registry_inner")  # included as a module, never imported
    inner.urlpatterns = [
        path("x/<slug:slug>", paper_detail, name="nested"),
        path("y", robots_txt),
    ]
    outer = types.ModuleType("pages_registry_outer")
    outer.urlpatterns = [path("deep/", include(inner))]
    sys.modules[outer.__name__] = outer
    try:
        kinds = public_page_kinds(outer.__name__)
    finally:
        del sys.modules[outer.__name__]
        clear_url_caches()
    assert [(kind.name, kind.route) for kind in kinds] == [("nested", "deep/x/<slug:slug>")]


def test_the_response_dump_addresses_every_kind_from_the_rows(loaded_seeds):
    import importlib.util

    from tests.conftest import ROOT

    spec = importlib.util.spec_from_file_location("response_dump", ROOT / "scripts" / "response_dump.py")
    dump = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dump)
    addresses = {name: build() for name, build in dump._kind_addresses().items()}
    assert set(addresses) == set(kind_names())
    assert [name for name, url in addresses.items() if url is None] == ["area"]  # the seeds name no area
    for kind in public_page_kinds():
        if url := addresses[kind.name]:
            assert resolve(url.split("?")[0].replace("%20", " ")).func is kind.view, url
