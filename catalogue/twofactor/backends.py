from django.contrib.auth.backends import ModelBackend
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice


class PasswordAndTOTPBackend(ModelBackend):
    """The password, then, for a user with a confirmed TOTP device, its current code.

    Returning None for a wrong or missing code makes ``authenticate()`` send
    ``user_login_failed``, so django-axes counts it as it counts a wrong password, and the login
    form says the same thing for both: the form does not tell a password guesser that the
    password was right. On success the device goes on ``user.otp_device``; django-otp's
    ``user_logged_in`` handler then marks the session verified.
    """

    def authenticate(self, request, username=None, password=None, otp_token=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            return None
        devices = TOTPDevice.objects.filter(user=user, confirmed=True)
        if not devices.exists():
            return user  # no second factor set up (the admin site decides whether that will do)
        token = (otp_token or "").replace(" ", "")
        if not token:
            return None
        with transaction.atomic():
            for device in devices.select_for_update():
                if device.verify_token(token):
                    user.otp_device = device
                    return user
        return None
