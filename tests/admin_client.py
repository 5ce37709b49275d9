"""Driving the admin as a browser would: submit a page's form with what the page holds."""

import time
from html.parser import HTMLParser

from django.contrib.auth.models import User
from django_otp.oath import TOTP

from catalogue.admin import roles


def make_curator(username: str = "cora") -> User:
    """A curator made the supported way: staff, in the migration's Curators group."""
    return roles.create_curator(
        username, password=f"{username}-curates-papers-2026", email=f"{username}@example.org"
    )


class _FormFields(HTMLParser):
    """The successful controls of each POST form of a page, as a browser would send them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, dict[str, list[str]]]] = []  # (form id, fields)
        self.data: dict[str, list[str]] = {}
        self._in_form = False
        self._textarea = self._select = None
        self._option_value = None
        self._text: list[str] = []

    def _add(self, name, value):
        self.data.setdefault(name, []).append(value)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._in_form, self.data = True, {}
            self.forms.append((a.get("id") or "", self.data))
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type", "text") not in {"submit", "button", "image", "file"}:
            if a.get("type") in {"checkbox", "radio"} and "checked" not in a:
                return
            self._add(name, a.get("value", "on" if a.get("type") == "checkbox" else ""))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self._add(self._select, a.get("value", ""))

    def handle_data(self, data):
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "textarea" and self._textarea:
            self._add(self._textarea, "".join(self._text).removeprefix("\n"))
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def form_data(response, **changes) -> dict:
    """The POST data of the page's main form (not the header's log-out form), with ``changes``
    made as a person would type them."""
    parser = _FormFields()
    parser.feed(response.content.decode())
    forms = [fields for form_id, fields in parser.forms if form_id != "logout-form"]
    assert len(forms) == 1, f"expected one form besides log-out, found {len(forms)}"
    data = {name: values if len(values) > 1 else values[0] for name, values in forms[0].items()}
    data.update(changes)
    return data


def code(device, steps_ahead: int = 0) -> str:
    """The device's code now (or ``steps_ahead`` time steps on, which its tolerance of one step
    accepts: a code is accepted once, so a test that logs in twice uses the next step's)."""
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"
