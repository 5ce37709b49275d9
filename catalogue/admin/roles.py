"""The curator role: staff in the ``Curators`` group (made by migration 0005), never superusers."""

from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

CURATORS = "Curators"


def curators_group() -> Group:
    try:
        return Group.objects.get(name=CURATORS)
    except Group.DoesNotExist:
        raise ImproperlyConfigured(
            f"There is no {CURATORS!r} group: run `manage.py migrate` (migration catalogue 0005 makes it)."
        ) from None


@transaction.atomic
def create_curator(username: str, *, password: str, email: str = "") -> User:
    """A new staff account in the Curators group.

    The username and email are checked as the admin's user form would check them, and the
    password by the project's AUTH_PASSWORD_VALIDATORS; any failure raises ValidationError
    and creates nothing.
    """
    group = curators_group()
    user = User(username=username, email=email, is_staff=True, is_superuser=False)
    user.full_clean(exclude=["password"])
    validate_password(password, user)
    user.set_password(password)
    user.save()
    user.groups.add(group)
    return user
