"""The base of every API FilterSet: django-filter's, with what it rebuilt per request made once.

For every request django-filter deep-copies each declared filter, then builds a form class
from the copies' fields: each field made again, its label looked up in the model's fields.
At the places list's 24 filters that was about 3 of the 4 ms its FilterSet took, the
largest part of a places request outside its SQL (bench/README.md, issue 35). Here a request gets
shallow copies of the declared filters, bound to it (their parent FilterSet and model: all
django-filter sets on them per request), and the form class is made once per FilterSet
class and model. The form itself is still made per request, and deep-copies its fields as
every Django form does, so no field is shared between requests.
"""

import copy

import django_filters as df
from django.http import QueryDict

# (FilterSet class, model) -> its form class; made by the first request, read by the rest.
_FORM_CLASSES: dict[tuple[type, type], type] = {}


def _bound(declared: df.Filter, model, parent: "FilterSet") -> df.Filter:
    """A request's copy of a declared filter: its own parent and model, the rest shared."""
    bound = copy.copy(declared)
    # A field made on the declared filter (drf-spectacular does, for the schema) has no label.
    bound.__dict__.pop("_field", None)
    if bound.method is not None:
        # Re-set, so that its FilterMethod calls this copy's parent, not the declared filter's.
        bound.method = bound.method
    bound.model = model
    bound.parent = parent
    return bound


class FilterSet(df.FilterSet):
    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        # django-filter's __init__ but for the copies (``_bound``, not copy.deepcopy).
        if queryset is None:
            queryset = self._meta.model._default_manager.all()
        self.is_bound = data is not None
        self.data = data or QueryDict()
        self.queryset = queryset
        self.request = request
        self.form_prefix = prefix
        model = queryset.model
        self.filters = {name: _bound(f, model, self) for name, f in self.base_filters.items()}

    def get_form_class(self):
        key = (type(self), self.queryset.model)
        form_class = _FORM_CLASSES.get(key)
        if form_class is None:
            form_class = _FORM_CLASSES.setdefault(key, super().get_form_class())
        return form_class
