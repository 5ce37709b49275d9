#!/usr/bin/env bash
# Build .venv-pwc: Papers-with-Code's own client (paperswithcode-client 0.3.1) in a venv of
# its own, for tests/api/test_pwc_client.py. Its pins (httpx ~=0.14.2, pydantic ~=1.6.1, typer
# 0.3.2) cannot live beside the project's, and need an older Python (3.8). It installs exactly
# scripts/pwc-client.lock (every package pinned, hashes checked), so the test does not change
# with what PyPI publishes.
#
#   bash scripts/pwc-client-venv.sh          idempotent: quick when the venv is already right
#   PWC_PYTHON=/path/to/python3.8 bash scripts/pwc-client-venv.sh
#
# Prints the venv's python on success; exits non-zero saying what is missing otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-pwc
VERSION=0.3.1
LOCK=scripts/pwc-client.lock
STAMP="$VENV/.installed-$(sha256sum "$LOCK" | cut -c1-16)"

if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ]; then
    echo "$PWD/$VENV/bin/python"
    exit 0
fi

python="${PWC_PYTHON:-}"
if [ -z "$python" ]; then
    root="$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")"
    for candidate in "$root"/versions/3.8.*/bin/python python3.8; do
        if command -v "$candidate" >/dev/null 2>&1; then
            python="$candidate"
            break
        fi
    done
fi
if [ -z "$python" ] || ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 8))' 2>/dev/null; then
    echo "pwc-client-venv: error: need Python 3.8 for paperswithcode-client $VERSION" \
        "(pyenv install 3.8.18, or set PWC_PYTHON)" >&2
    exit 1
fi

echo "pwc-client-venv: creating $VENV with $("$python" --version 2>&1)" >&2
rm -rf "$VENV"
"$python" -m venv "$VENV"
# Keep it out of git and of ruff (both read .gitignore files), whatever the top-level one says.
echo "*" >"$VENV/.gitignore"
log="$(mktemp)"
if ! "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input --quiet \
        --require-hashes -r "$LOCK" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "pwc-client-venv: error: pip install paperswithcode-client==$VERSION failed" >&2
    exit 1
fi
rm -f "$log"
touch "$STAMP"
echo "$PWD/$VENV/bin/python"
