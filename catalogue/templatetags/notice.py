"""``{% attribution_notice as notice %}``: the notice of ``catalogue.attribution``, for any template.

A tag rather than a context processor: the error pages (500, 503) are rendered without a
request context, and they carry the notice too.
"""

from django import template

from catalogue import attribution

register = template.Library()


@register.simple_tag
def attribution_notice() -> dict[str, str]:
    return {
        "source": attribution.SOURCE,
        "non_affiliation": attribution.NON_AFFILIATION,
        "licence": attribution.LICENCE,
        "licence_title": attribution.LICENCE_TITLE,
        "licence_url": attribution.LICENCE_URL,
        "legal_code_url": attribution.LICENCE_LEGAL_CODE_URL,
        "archive_mirror": attribution.ARCHIVE_MIRROR,
    }
