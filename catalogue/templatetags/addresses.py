"""``{% url %}`` for every template of the site (a builtin: ``TEMPLATES`` in config/settings.py).

Django's own tag, with one difference: an address without arguments (the header's, the footer's,
a dozen a page) is reversed once per name, application namespace, script prefix and URL
configuration, rather than on every render. Django's tag took ~14 µs for each, about a sixth of
the rendering of /about, a page that reads nothing (bench/README.md, issue 16). Anything else
(arguments, ``as var``, a name held in a variable) is Django's tag as it is.
"""

from functools import lru_cache

from django import template
from django.conf import settings
from django.template import defaulttags
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()


@register.tag
def url(parser, token):
    node = defaulttags.url(parser, token)
    name = node.view_name
    if node.args or node.kwargs or node.asvar or name.filters or not isinstance(name.var, str):
        return node
    return _PlainURLNode(name, [], {}, None)


class _PlainURLNode(defaulttags.URLNode):
    """``{% url 'name' %}``: a constant name and nothing else."""

    def render(self, context):
        # The application namespace, found as Django's tag finds it.
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url, escaped = _reversed(
            self.view_name.var, current_app, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF
        )
        return escaped if context.autoescape else url


@lru_cache(maxsize=256)
def _reversed(name: str, current_app: str | None, script_prefix: str, urlconf: str) -> tuple[str, str]:
    url = reverse(name, current_app=current_app, urlconf=urlconf)  # the prefix: get_script_prefix()
    return url, conditional_escape(url)
