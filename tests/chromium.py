"""How every browser test starts Chromium: Debian's package, never a downloaded browser.

Without the networking flags Chromium keeps trying to reach Google's hosts, which this
machine's closed network refuses.
"""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
