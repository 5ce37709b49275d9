"""Settings as a fresh process reads them from its environment (config.settings reads them once, at
start-up, so a test that varies a variable asks a new interpreter)."""

import os
import subprocess
import sys
from collections.abc import Callable

from tests.conftest import ROOT


def setting_in_a_fresh_process(name: str, leave_out: Callable[[str], bool], **env: str) -> str:
    """``settings.<name>`` as printed by a new process with this one's environment, less the
    variables ``leave_out`` names, plus ``env``."""
    code = f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    base = {k: v for k, v in os.environ.items() if not leave_out(k)}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip().splitlines()[-1]
