"""The admin site (``admin.site``): the curators' admin, behind a second factor where due.

Everything is decided per request, from ``settings.ADMIN_REQUIRE_2FA`` and the user's devices,
so the setting can change without re-importing anything (and tests can override it).
"""

from functools import update_wrapper

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from catalogue.twofactor import views
from catalogue.twofactor.devices import has_device, is_verified
from catalogue.twofactor.forms import TokenLoginForm


class CuratorAdminSite(admin.AdminSite):
    """Staff get in when the session gave a TOTP code, or when the user has no device and
    ``ADMIN_REQUIRE_2FA`` is off. With it on, a staff member without a device who logged in with
    the password is sent to set one up (``two_factor``) and gets in once it is confirmed.
    """

    login_form = TokenLoginForm
    login_template = "admin/otp_login.html"

    def second_factor_ok(self, request) -> bool:
        if is_verified(request):
            return True
        if has_device(request):
            return False  # logged in without the device's code (a session older than the device)
        return not settings.ADMIN_REQUIRE_2FA

    def must_set_up(self, request) -> bool:
        """A staff member who must set up a device before the admin opens to them."""
        user = request.user
        return (
            settings.ADMIN_REQUIRE_2FA
            and user.is_active
            and user.is_staff
            and not is_verified(request)
            and not has_device(request)
        )

    def has_permission(self, request):
        return super().has_permission(request) and self.second_factor_ok(request)

    def admin_view(self, view, cacheable=False):
        guarded = super().admin_view(view, cacheable)
        logout = csrf_protect(never_cache(view))

        def inner(request, *args, **kwargs):
            if self.must_set_up(request):
                if request.path == reverse("admin:logout", current_app=self.name):
                    return logout(request, *args, **kwargs)  # leaving is always allowed
                setup = reverse("admin:two_factor", current_app=self.name)
                return redirect_to_login(request.get_full_path(), setup)
            return guarded(request, *args, **kwargs)

        return update_wrapper(inner, view)

    def get_urls(self):
        two_factor = csrf_protect(never_cache(self.two_factor))
        return [path("2fa/", two_factor, name="two_factor"), *super().get_urls()]

    def two_factor(self, request):
        """Setting up (or replacing) the staff member's authenticator: open without the admin's
        permission, since staff who must set one up have none until they have."""
        return views.two_factor(request, self)

    def each_context(self, request):
        return {**super().each_context(request), "otp_verified": is_verified(request)}
