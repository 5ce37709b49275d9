#!/usr/bin/env bash
# Install the Debian packages the test suite needs, if any is missing.
#
#   postgresql              server binaries (initdb, pg_ctl) for scripts/pgcluster.py
#   chromium                real browser for the `browser` tests (Playwright drives /usr/bin/chromium)
#   chromium-driver         /usr/bin/chromedriver, matching that Chromium
#   fonts-liberation        so pages render real text in headless Chromium
#   redis-server            the shared cache (CACHE_URL) for `make serve` and the scale-out test
#
# Idempotent and fast when everything is there: apt is not touched at all then.
# Installing needs root (as on CI); otherwise it says what to install and fails.
set -euo pipefail

PACKAGES=(postgresql chromium chromium-driver fonts-liberation redis-server)

installed() {
    dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian: accept the tools if they are there, whatever installed them.
    if { command -v initdb >/dev/null || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; } \
        && command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
        echo "system-deps: no dpkg here, but PostgreSQL and Chromium are present"
        exit 0
    fi
    echo "system-deps: error: not a Debian system and PostgreSQL/Chromium are missing;" \
        "install the equivalents of: ${PACKAGES[*]}" >&2
    exit 1
fi

missing=()
for package in "${PACKAGES[@]}"; do
    installed "$package" || missing+=("$package")
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "system-deps: all present (${PACKAGES[*]})"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: error: missing Debian packages: ${missing[*]}" >&2
    echo "system-deps: run as root: sudo bash scripts/system-deps.sh" \
        "(or: sudo apt-get install -y ${missing[*]})" >&2
    exit 1
fi

echo "system-deps: installing ${missing[*]} (apt-get; takes a minute or two)"
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp -t system-deps.XXXXXX.log)"
trap 'rm -f "$log"' EXIT
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "system-deps: error: apt-get failed (last lines above)" >&2
    exit 1
fi

for package in "${missing[@]}"; do
    if ! installed "$package"; then
        echo "system-deps: error: $package still not installed after apt-get" >&2
        exit 1
    fi
done
echo "system-deps: installed ${missing[*]}"
