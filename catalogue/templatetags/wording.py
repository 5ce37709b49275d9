"""Words the pages put on the data (issue 37): a proceeding as the field names it, a claim
with its formula set apart, whether a link is mentioned."""

import re

from django import template

register = template.Library()


@register.filter
def proceeding_label(name: str) -> str:
    """``NeurIPS 2019 12`` as the field names it: ``NeurIPS 2019`` (the month is the archive's
    filing, not part of the name). A name without a year is shown as given."""
    from catalogue import conferences  # the tag library loads before the models

    conference, year, _ = conferences.parts(name or "")
    return f"{conference} {year}" if year is not None else name


# Where a harvester's claim turns from what it means to how it is counted.
_FORMULA = re.compile(r"\s(?=n_samples_ran\s*=)")


@register.filter
def claim_parts(claim: str) -> tuple[str, str]:
    """(what the claim says, its formula): the formula ("n_samples_ran = sum of by_status…") goes
    behind a "how this is counted" disclosure; "" when the claim states none."""
    pieces = _FORMULA.split(claim or "", maxsplit=1)
    return (pieces[0].strip(), pieces[1].strip()) if len(pieces) == 2 else ((claim or "").strip(), "")


@register.filter
def mention(value: bool | None) -> str:
    return "yes" if value else "not stated" if value is None else "no"
