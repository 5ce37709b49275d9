"""catalogue.api.filterset: every API FilterSet's form is django-filter's own, made once per class,
and a request's filters are its own (their parent is the request's FilterSet, never another's)."""

import django_filters as df
import pytest
from django.http import QueryDict

import catalogue.api.urls  # noqa: F401  (imports every FilterSet the API serves)
from catalogue.api.filters import SampleFilter
from catalogue.api.filterset import _FORM_CLASSES, FilterSet
from catalogue.api.rows import Rows

pytestmark = pytest.mark.django_db


def _served_filtersets() -> list[type[FilterSet]]:
    found, todo = [], [FilterSet]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.__name__.startswith("_") and cls is not FilterSet:
            found.append(cls)
    return sorted(found, key=lambda cls: cls.__name__)


def _queryset(cls):
    model = cls._meta.model
    return model._default_manager.all() if model is not None else Rows([])


def _field_facts(form_class) -> list[tuple]:
    form = form_class()
    return [
        (
            name,
            type(field).__name__,
            field.label,
            field.help_text,
            field.required,
            type(field.widget).__name__,
            list(getattr(field, "choices", ())),
        )
        for name, field in form.fields.items()
    ]


def test_every_served_filterset_derives_from_the_base():
    names = {cls.__name__ for cls in _served_filtersets()}
    assert {"PaperFilter", "SampleFilter", "TaskFilter", "ConferenceFilter", "LoadRunFilter"} <= names


@pytest.mark.parametrize("cls", _served_filtersets(), ids=lambda cls: cls.__name__)
def test_the_form_is_the_one_django_filter_builds(cls):
    ours = cls(QueryDict(), queryset=_queryset(cls)).get_form_class()
    # django-filter's own construction, per request, on an instance of the same class, from
    # declared filters as declared: a field the OpenAPI schema made on one (no label) would be
    # deep-copied into django-filter's form, not into ours (see the test below)
    made = {name: f.__dict__.pop("_field") for name, f in cls.base_filters.items() if "_field" in f.__dict__}
    try:
        reference = df.FilterSet.__new__(cls)
        df.FilterSet.__init__(reference, QueryDict(), queryset=_queryset(cls))
        theirs = df.FilterSet.get_form_class(reference)
    finally:
        for name, field in made.items():
            cls.base_filters[name]._field = field
    assert ours.__name__ == theirs.__name__
    assert _field_facts(ours) == _field_facts(theirs)


def test_the_form_class_is_made_once_per_class():
    first = SampleFilter(QueryDict("status=ran")).get_form_class()
    assert SampleFilter(QueryDict("status=unverified")).get_form_class() is first


def test_each_request_filters_with_its_own_filters(loaded_seeds):
    one = SampleFilter(QueryDict("ran=true"))
    two = SampleFilter(QueryDict("ran=false"))
    for name, declared in SampleFilter.base_filters.items():
        assert one.filters[name] is not declared
        assert one.filters[name] is not two.filters[name]
        assert one.filters[name].parent is one
        assert two.filters[name].parent is two
    # a method filter calls its own request's FilterSet (``filter_ran``), not the declared filter's
    assert one.filters["ran"].filter.method.__self__ is one
    assert two.filters["ran"].filter.method.__self__ is two
    assert not hasattr(SampleFilter.base_filters["ran"], "parent")
    ran, not_ran = set(one.qs), set(two.qs)
    assert ran
    assert not_ran
    assert not ran & not_ran


def test_a_field_made_on_a_declared_filter_does_not_reach_the_form():
    # drf-spectacular reads ``.field`` on the declared filters when it makes the schema: a field
    # made there has no model, so no label; a request's form still labels every field.
    _FORM_CLASSES.clear()
    expected = _field_facts(SampleFilter(QueryDict()).get_form_class())
    _FORM_CLASSES.clear()
    declared = SampleFilter.base_filters.values()
    try:
        for f in declared:
            assert f.field.label is None
        assert _field_facts(SampleFilter(QueryDict()).get_form_class()) == expected
    finally:
        for f in declared:
            f.__dict__.pop("_field", None)
        _FORM_CLASSES.clear()
