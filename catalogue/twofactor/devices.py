"""Staff members' TOTP devices: at most one confirmed (the one their codes come from)."""

import base64
import io
import math

import qrcode
import qrcode.image.svg
from django.db import transaction
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

DEVICE_NAME = "Authenticator app"


def confirmed_device(user) -> TOTPDevice | None:
    if not user.is_authenticated:
        return None
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("-pk").first()


def has_confirmed_device(user) -> bool:
    return user.is_authenticated and TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def is_verified(request) -> bool:
    """Whether this session gave a code from one of the user's devices (django-otp's middleware)."""
    check = getattr(request.user, "is_verified", None)
    return bool(check and check())


def has_device(request) -> bool:
    """Whether the user has a confirmed TOTP device (asked once per request)."""
    if not hasattr(request, "_has_totp_device"):
        request._has_totp_device = has_confirmed_device(request.user)
    return request._has_totp_device


def pending_device(user) -> TOTPDevice:
    """The user's device being set up (unconfirmed: no code from it is accepted at login yet)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return device or TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)


def confirm(device: TOTPDevice, token: str) -> bool:
    """Confirm ``device`` if ``token`` is its current code; it then replaces every other device.

    The device's own check applies: a code is accepted once, and wrong codes slow further tries
    (django-otp's throttling).
    """
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
        if not device.verify_token(token):
            return False
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user_id=device.user_id).exclude(pk=device.pk).delete()
    return True


def seconds_to_wait(device: TOTPDevice) -> int:
    """How long django-otp's throttling holds off the next code (1, 2, 4… s after wrong ones)."""
    device.refresh_from_db()
    allowed, info = device.verify_is_allowed()
    if allowed:
        return 0
    until = (info or {}).get("locked_until")
    return max(1, math.ceil((until - timezone.now()).total_seconds())) if until else 1


def create_confirmed_device(user) -> TOTPDevice:
    """A confirmed device, for an operator to hand over (``create_curator --totp``)."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        return TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=True)


def secret(device: TOTPDevice) -> str:
    """The key as authenticator apps take it typed in: base32, in groups of four."""
    b32 = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(b32[i : i + 4] for i in range(0, len(b32), 4))


def qr_data_uri(device: TOTPDevice) -> str:
    """The ``otpauth://`` URI as a QR code: an SVG ``data:`` URI, which the CSP's img-src allows."""
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathFillImage)
    out = io.BytesIO()
    image.save(out)
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode()
