from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate

TOKEN_WIDGET = forms.TextInput(
    attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autocapitalize": "none"}
)


class TokenLoginForm(AdminAuthenticationForm):
    """The admin's login form with the authenticator's code beside the password.

    The three are checked together (``PasswordAndTOTPBackend``), and any of them being wrong
    gives the one message below.
    """

    otp_token = forms.CharField(
        label="Authentication code",
        required=False,
        max_length=16,
        strip=True,
        widget=TOKEN_WIDGET,
        help_text="The six digits your authenticator app shows. Leave it empty if you have not set one up.",
    )

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_login": (
            "Please enter the correct %(username)s and password for a staff account, and the code "
            "from your authenticator app if you have set one up. Note that the fields may be "
            "case-sensitive."
        ),
    }

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = authenticate(
                self.request,
                username=username,
                password=password,
                otp_token=self.cleaned_data.get("otp_token") or "",
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class ConfirmDeviceForm(forms.Form):
    token = forms.CharField(
        label="Code from the app",
        max_length=16,
        strip=True,
        widget=TOKEN_WIDGET,
        help_text="Once the app shows codes for Code with Papers, type the current one.",
    )

    def clean_token(self):
        return self.cleaned_data["token"].replace(" ", "")
