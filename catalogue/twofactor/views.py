import django_otp
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from catalogue.twofactor import devices
from catalogue.twofactor.forms import ConfirmDeviceForm

TEMPLATE = "admin/two_factor.html"


def _next_url(request, site) -> str:
    url = request.POST.get("next") or request.GET.get("next")
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return reverse("admin:index", current_app=site.name)


def two_factor(request, site):
    """GET: the state of the staff member's second factor, or a new key to add to an app.
    POST: the app's current code, which confirms the new key (and drops any older one)."""
    user = request.user
    login_url = reverse("admin:login", current_app=site.name)
    if not (user.is_active and user.is_staff):
        return redirect_to_login(request.get_full_path(), login_url)
    if devices.has_device(request) and not devices.is_verified(request):
        # Logged in without the device's code: only a login with it opens this page.
        return redirect_to_login(request.get_full_path(), login_url)

    current = devices.confirmed_device(user)
    context = {
        **site.each_context(request),
        "title": "Two-factor authentication",
        "subtitle": None,
        "current": current,
        "require_2fa": settings.ADMIN_REQUIRE_2FA,
        "next": _next_url(request, site),
    }
    request.current_app = site.name
    if current is not None and "replace" not in request.GET:
        return TemplateResponse(request, TEMPLATE, context)

    device = devices.pending_device(user)
    form = ConfirmDeviceForm(request.POST if request.method == "POST" else None)
    wait = devices.seconds_to_wait(device) if form.is_bound else 0
    if wait:
        form.add_error(
            "token", f"Wrong codes slow further tries down: wait {wait} s, then type the app's current code."
        )
    elif form.is_valid():
        if devices.confirm(device, form.cleaned_data["token"]):
            device.refresh_from_db()
            django_otp.login(request, device)  # this session gave a code: verified
            request.session.cycle_key()
            messages.success(
                request,
                "Two-factor authentication is on: from now on, log in with your password and the "
                "code from your app.",
            )
            return HttpResponseRedirect(context["next"])
        form.add_error(
            "token",
            "That is not the app's current code. Check that the phone's clock is right, wait for "
            "the next code and try again.",
        )
    context.update(
        form=form,
        device=device,
        secret=devices.secret(device),
        otpauth_uri=device.config_url,
        qr_code=devices.qr_data_uri(device),
    )
    return TemplateResponse(request, TEMPLATE, context)
