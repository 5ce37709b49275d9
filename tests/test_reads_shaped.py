

def test_each_filterset_has_its_own_filters_and_one_form_class(db):
    """FilterSets copy their declared filters shallowly and make their form class once: each
    still has its own filters, whose method filters call that FilterSet, and its own form."""
    from catalogue.api import filters

    a = filters.PaperFilter({"q": "zebra"}, queryset=m.Paper.objects.all())
    b = filters.PaperFilter({"q": "lion"}, queryset=m.Paper.objects.all())
    assert a.filters["q"] is not b.filters["q"]
    assert filters.PaperFilter.base_filters["q"] not in (a.filters["q"], b.filters["q"])
    assert (a.filters["q"].parent, b.filters["q"].parent) == (a, b)
    assert a.filters["q"].filter.method.__self__ is a
    assert b.filters["q"].filter.method.__self__ is b
    assert a.get_form_class() is b.get_form_class()
    assert a.form.fields["q"] is not b.form.fields["q"]
    assert (a.is_valid(), b.is_valid()) == (True, True)
    assert (a.form.cleaned_data["q"], b.form.cleaned_data["q"]) == ("zebra", "lion")
