"""What every shape is made of: the fields for what the catalogue does not hold, the plain-row plan
of the hot lists, and a curator's correction mark."""

from collections.abc import Mapping
from types import FunctionType, MethodType
from urllib.parse import quote

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

NOT_KNOWN = "Not known to this catalogue: always {}."


class _Constant(serializers.Field):
    """A value the catalogue does not hold, served as the empty value PwC clients accept."""

    def __init__(self, value, **kwargs):
        self.value = value
        kwargs.setdefault("help_text", NOT_KNOWN.format("null" if value is None else repr(value)))
        super().__init__(read_only=True, source="*", **kwargs)

    def to_representation(self, obj):
        return self.value


@extend_schema_field({"type": "string", "nullable": True})
class NullString(_Constant):
    def __init__(self, **kwargs):
        super().__init__(None, **kwargs)


@extend_schema_field(OpenApiTypes.STR)
class EmptyString(_Constant):
    def __init__(self, **kwargs):
        super().__init__("", **kwargs)


@extend_schema_field(OpenApiTypes.INT)
class ZeroStars(_Constant):
    VALUE = 0

    def __init__(self, **kwargs):
        super().__init__(
            self.VALUE, help_text="Not known to this catalogue (stars are not in the archive): always 0."
        )


class BlankAsNull(serializers.CharField):
    """A text the catalogue stores as "" where the archive gives none, served as null (as PwC did)."""

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value):
        return str(value) if value else None


# --- plain rows: the hot lists without DRF's per-field machinery per row -------------------


class PlainRows:
    """A serializer whose rows are read by a plan made once per serializer, not field by field.

    DRF reads each field of each row through ``_readable_fields``, ``Field.get_attribute`` (a
    try per field, a Mapping check per step of its source) and a nested serializer's own pass:
    for a page of 50 places, about 1,000 such reads, a fifth of the request (bench/README.md,
    "Issue 16"). The plan holds, per declared field, the attributes its source follows and the
    bound ``to_representation`` that shapes the value (nested serializers: their own plan), so
    the output is the declared fields' own, in their order; the declared fields stay what the
    OpenAPI schema reads. A row the plan cannot read (an attribute missing on the way, where DRF
    would apply a default or skip the field) goes through DRF's own path.
    tests/test_api_serializers.py holds both paths equal over the seeds' rows.
    """

    # (This docstring is also the OpenAPI description of every subclass that has none of its
    # own: drf-spectacular inherits it. Changing it changes the published schema.)
    #
    # The plan is made once per class, from the one copy of the declared fields the class makes
    # for the process: each serializer made deep-copies its declared fields (``Serializer.fields``),
    # and for a paper's detail that was five serializers and ~120 field copies a request, a third
    # of its Python. Only what reads the serializer's ``context`` (the request, the page's names
    # and figures) is bound per serializer: a method field's method, a nested serializer's plan.

    @classmethod
    def _class_plan(cls) -> list[tuple]:
        """(name, source attributes, how, what) per readable field, made once per class: ``how``
        says whether ``what`` is a field's ``to_representation`` (shared: no field of these
        serializers reads the context there), a method's name or a nested serializer's class."""
        plan = cls.__dict__.get("_plan_of_class")  # the class's own: a subclass has more fields
        if plan is None:
            plan = []
            for name, field in cls().fields.items():  # the one deep copy of the declared fields
                if field.write_only:
                    continue
                if isinstance(field, serializers.SerializerMethodField):
                    how, what = _METHOD, field.method_name
                elif isinstance(field, PlainRows) and not getattr(field, "many", False):
                    how, what = _NESTED, type(field)
                else:
                    how, what = _FIELD, field.to_representation
                plan.append((name, tuple(field.source_attrs), how, what))
            cls._plan_of_class = plan  # two threads making it at once make the same plan
        return plan

    def _row_plan(self) -> list[tuple]:
        plan = self.__dict__.get("_plan")
        if plan is None:
            bound = {
                _FIELD: lambda what: what,
                _METHOD: lambda what: getattr(self, what),
                _NESTED: lambda what: what(context=self.context)._plain,  # its context is ours
            }
            plan = [(name, attrs, bound[how](what)) for name, attrs, how, what in self._class_plan()]
            self._plan = plan
        return plan

    def _plain(self, instance) -> dict:
        row = {}
        try:
            for name, attrs, convert in self._row_plan():
                value = instance
                for attr in attrs:  # as DRF's get_attribute: a key of a mapping, a method called
                    value = value[attr] if isinstance(value, Mapping) else getattr(value, attr)
                    if type(value) in _SIMPLE_CALLABLES:
                        value = value()
                row[name] = None if value is None else convert(value)
        except (AttributeError, KeyError):
            return serializers.Serializer.to_representation(self, instance)
        return row

    def to_representation(self, instance):
        return self._plain(instance)


_FIELD, _METHOD, _NESTED = "field", "method", "nested"
_SIMPLE_CALLABLES = (FunctionType, MethodType)


class CorrectionMarkSerializer(serializers.Serializer):
    snapshot = serializers.CharField(help_text="The value the snapshot states (shown before correction).")
    corrected_at = serializers.DateTimeField(help_text="When the curator made the correction.")
    reason = serializers.CharField(help_text="Why, in the curator's words ('' if none was given).")
    by = serializers.CharField(help_text='The public name the curator chose, or "a curator".')
    history = serializers.CharField(help_text="The record's public correction history (a page).")


class PaperCorrectedSerializer(serializers.Serializer):
    title = CorrectionMarkSerializer(required=False)


class SampleCorrectedSerializer(serializers.Serializer):
    status = CorrectionMarkSerializer(required=False)


def corrected_mark(serializer, name: str, correction, snapshot: str, paper_slug: str) -> dict:
    """``{name: the mark}`` for a corrected field: the snapshot's value, when, why, by whom, where."""
    if correction is None:
        return {}
    history = f"{reverse('corrections')}?paper={quote(paper_slug)}#correction-{correction.pk}"
    request = serializer.context.get("request")
    return {
        name: {
            "snapshot": snapshot,
            "corrected_at": correction.created_at.isoformat().replace("+00:00", "Z"),
            "reason": correction.reason,
            "by": correction.by,
            "history": request.build_absolute_uri(history) if request else history,
        }
    }
