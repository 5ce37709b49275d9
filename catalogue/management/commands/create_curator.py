"""manage.py create_curator USERNAME [--email E] [--totp]: a staff account in the Curators group.

The password is read from the environment variable named by ``--password-env``
(``CURATOR_PASSWORD`` by default) when it is set, else asked for twice at the terminal.
``--totp`` also gives the curator a TOTP device and prints its key and ``otpauth://`` URI, for
the operator to hand over: the curator's first login then already needs its code.
"""

import getpass
import os
import sys

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from catalogue.admin import roles
from catalogue.twofactor import devices


class Command(BaseCommand):
    help = "Create a curator: a staff user in the Curators group, who may correct titles and statuses."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--password-env",
            default="CURATOR_PASSWORD",
            metavar="NAME",
            help="environment variable holding the password (default: CURATOR_PASSWORD)",
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="never prompt: fail unless the password is in the environment",
        )
        parser.add_argument(
            "--totp",
            action="store_true",
            help="also set up a TOTP device; print its key and otpauth:// URI to hand to the curator",
        )

    def handle(self, *args, username, email, password_env, interactive, totp, **options):
        password = os.environ.get(password_env) or self._ask_password(interactive, password_env)
        try:
            with transaction.atomic():
                user = roles.create_curator(username, password=password, email=email)
                device = devices.create_confirmed_device(user) if totp else None
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Curator {user.username!r} created (staff, group Curators)."))
        if device is not None:
            self.stdout.write(
                "TOTP device set up: logging in needs its code from now on. Hand this to the curator "
                "privately, for their authenticator app (it is shown only now):\n"
                f"  key: {devices.secret(device)}\n"
                f"  URI: {device.config_url}"
            )

    def _ask_password(self, interactive: bool, password_env: str) -> str:
        if not interactive or not sys.stdin.isatty():
            raise CommandError(f"No password: set {password_env} or run at a terminal to be asked for one.")
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ.")
        if not password:
            raise CommandError("The password cannot be empty.")
        return password
