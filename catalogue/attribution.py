"""The attribution the data asks for: its licence, who modified it, and that we are not affiliated.

**The** definition of every sentence of the notice. The footer of every page, ``/about``,
``/attribution``, the API (its root, its OpenAPI ``info``, the ``Link`` header of every
response) and the documents ``dump_snapshot`` and the archive loader write all read it
from here, so no copy can drift and drop a party (the footer once left out Syntology and
the pwc-archive mirror). The wording is the snapshot documents' own ``about`` block.

Plain constants, importable by ``config.settings`` (the OpenAPI description): no Django
import at module level.
"""

SITE = "https://codewithpapers.app"
ATTRIBUTION_PATH = "/attribution"

LICENCE = "CC BY-SA 4.0"
LICENCE_TITLE = "Creative Commons Attribution-ShareAlike 4.0 International"
# The deed (what rel="license" conventionally names) and the legal code (what documents state).
LICENCE_URL = "https://creativecommons.org/licenses/by-sa/4.0/"
LICENCE_LEGAL_CODE_URL = "https://creativecommons.org/licenses/by-sa/4.0/legalcode"

ARCHIVE = "the Papers-with-Code archive"
ARCHIVE_MIRROR = "the pwc-archive mirror (Hugging Face)"

# The notice, sentence by sentence: tests and pages assert and show these exact strings.
SOURCE = (
    f"Data from {ARCHIVE}, as published by {ARCHIVE_MIRROR}, licensed {LICENCE}; "
    "archive material modified by Syntology."
)
NON_AFFILIATION = (
    "Code with Papers and Syntology are not affiliated with, endorsed by, or sponsored by "
    "Papers with Code, Meta, or the pwc-archive mirror."
)
NOTICE = f"{SOURCE} {NON_AFFILIATION}"

# What a document's ``about`` says it is (dump_snapshot's documents, the archive loader's dumps).
DOCUMENT_ABOUT = {
    "site": SITE,
    "licence": LICENCE,
    "licence_url": LICENCE_LEGAL_CODE_URL,
    "attribution": SITE + ATTRIBUTION_PATH,
    "modified": "archive material modified by Syntology; see the attribution page",
    "non_affiliation": NON_AFFILIATION,
}


def licence_block(attribution_url: str) -> dict:
    """The licence and the notice as the API states them (its root and its data summary)."""
    return {
        "licence": {
            "name": LICENCE,
            "title": LICENCE_TITLE,
            "url": LICENCE_URL,
            "legal_code": LICENCE_LEGAL_CODE_URL,
        },
        "attribution": {
            "url": attribution_url,
            "notice": NOTICE,
            "source": SOURCE,
            "non_affiliation": NON_AFFILIATION,
        },
    }
