"""Forms of the curation admin: change forms that write through ``catalogue.curation``."""

from django import forms
from django.core.exceptions import ValidationError

from catalogue.curation import StaleEdit
from catalogue.models import CuratorProfile, Paper, Sample, Status


class CurationForm(forms.ModelForm):
    """A change form for one curated field, carrying the row's version to refuse stale saves.

    ``row_version`` is the ``version`` the form was built from. ``clean()`` refuses the
    form when the row has moved on since (another curator, or a load), so the curator sees
    the conflict with their input still in the form; ``catalogue.curation`` checks again
    under a row lock when the admin saves, which catches a race between the two.
    """

    curated_field: str  # the one model field this form edits

    row_version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}),
        help_text="Why: kept in the correction's history (seen by curators, never on public pages).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["row_version"].initial = self.instance.version

    @property
    def corrects(self) -> bool:
        """Whether saving this form writes a correction."""
        return self.curated_field in self.changed_data

    def clean(self):
        cleaned = super().clean()
        expected = cleaned.get("row_version")
        if self.corrects and expected is not None:
            current = (
                type(self.instance).objects.filter(pk=self.instance.pk).values_list("version", flat=True)
            )
            current = current.first()
            if current != expected:
                raise ValidationError(str(StaleEdit(self.instance, expected, current)), code="stale")
        return cleaned


class PaperCurationForm(CurationForm):
    curated_field = "title"

    class Meta:
        model = Paper
        fields = ["title"]
        widgets = {"title": forms.Textarea(attrs={"rows": 2, "cols": 80})}

    def clean_title(self):
        title = (self.cleaned_data.get("title") or "").strip()
        if not title:
            raise ValidationError("A corrected title cannot be empty.", code="required")
        return title


class SampleCurationForm(CurationForm):
    curated_field = "status"

    class Meta:
        model = Sample
        fields = ["status"]

    def clean(self):
        cleaned = super().clean()
        if self.corrects and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", ValidationError("A status correction needs a reason.", code="required"))
        return cleaned


class BulkStatusForm(forms.Form):
    """The bulk action's confirmation: one status and one reason for every selected sample."""

    status = forms.ChoiceField(choices=Status.choices)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        error_messages={"required": "A status correction needs a reason."},
    )


class RemoveCorrectionForm(forms.Form):
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}),
        help_text="Why the snapshot's value should be shown again (optional).",
    )


class PublicNameForm(forms.ModelForm):
    class Meta:
        model = CuratorProfile
        fields = ["public_name"]

    def clean_public_name(self):
        return self.cleaned_data["public_name"].strip()
