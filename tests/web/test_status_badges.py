"""Status badges say their status in visible words, instrument failures say so, and the legend is open."""

import re
from html.parser import HTMLParser

import pytest

from catalogue.models import Status
from catalogue.templatetags.pages import status_badge

pytestmark = pytest.mark.django_db

GPIPE = "/paper/gpipe-efficient-training-of-giant-neural"
_VOID = {"br", "wbr", "img", "input", "meta", "link", "hr", "col", "source"}


class _VisibleText(HTMLParser):
    """The text a sighted reader sees: none of what is only for screen readers, nor the title text."""

    def __init__(self):
        super().__init__()
        self.hidden_depth, self.depth, self.parts = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        self.depth += 1
        attrs = dict(attrs)
        if "visually-hidden" in (attrs.get("class") or "").split() or attrs.get("aria-hidden") == "true":
            self.hidden_depth.append(self.depth)

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if self.hidden_depth and self.hidden_depth[-1] == self.depth:
            self.hidden_depth.pop()
        self.depth -= 1

    def handle_data(self, data):
        if not self.hidden_depth:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join("".join(parser.parts).split())


def test_every_badge_shows_its_status_and_an_instrument_failure_says_so_in_words():
    for status in Status.values:
        shown = visible(status_badge(status))
        if status in Status.instrument_failures():
            assert shown == f"{status} instrument failure"
        else:
            assert shown == status
    # The gear stays, for the eye only: a screen reader hears the words.
    assert '<span aria-hidden="true">⚙ </span>' in status_badge("ran_fixture")


def test_a_page_s_instrument_failure_badges_say_so_in_visible_words(client, loaded_seeds):
    page = client.get(GPIPE).content.decode()
    badges = re.findall(
        r'<span class="badge status status-ran_draft_wrong status-instrument".*?</span></span>', page
    )
    assert badges, "the seed paper has places whose drafted contract was wrong"
    assert {visible(badge) for badge in badges} == {"ran_draft_wrong instrument failure"}


@pytest.mark.parametrize("url", ["/", "/code/forward-step-func"])
def test_the_status_legend_is_open_on_first_view(client, loaded_seeds, url):
    page = client.get(url).content.decode()
    assert '<details class="legend" open>' in page
    legend = page.split('<details class="legend" open>')[1].split("</details>")[0]
    assert "instrument failure" in visible(legend)
