"""A code body's text on a page: highlighted on the server (Pygments), with CSS classes only.

The strict CSP allows no inline style, so the formatter writes classes and the colours live in
``static/css/site.css``, between the markers below, exactly as :func:`stylesheet` gives them
(``tests/web/test_code_text.py`` checks that they agree). Where a text appears at all is the
model's rule (``catalogue.models.code.SHOWS_CODE``); this module only draws it.
"""

from django.utils.safestring import SafeString, mark_safe
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

CSS_CLASS = "code-text"
LIGHT_STYLE, DARK_STYLE = "default", "github-dark"
# The marker as static/css/site.css carries it (written when this module was catalogue/code_text.py):
# the served stylesheet stays byte for byte what it was.
CSS_BEGIN = "/* code highlighting: catalogue.code_text.stylesheet() writes what follows; do not edit */"
CSS_END = "/* end of code highlighting */"

# Where Syntology serves a body's text (docs/SNAPSHOT-FORMAT.md: ``mcp_get_code`` on every place).
SYNTOLOGY_GET_CODE = "get_code"
SYNTOLOGY_DEVELOPERS = "https://syntology.ai/developers"


def _lexer(language: str):
    """The lexer of the language the document names; plain text for one Pygments does not know."""
    try:
        return get_lexer_by_name(language, stripnl=False) if language else TextLexer(stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def language_label(language: str) -> str:
    """The language's name as Pygments spells it ("Python"), or as given when it is unknown."""
    lexer = _lexer(language)
    return language if isinstance(lexer, TextLexer) else lexer.name


def highlight(code: str, language: str) -> SafeString:
    """The text as ``<div class="code-text"><pre><code>…``: every character of it escaped by Pygments."""
    formatter = HtmlFormatter(cssclass=CSS_CLASS, wrapcode=True)
    return mark_safe(pygments_highlight(code, _lexer(language), formatter))  # Pygments escapes the text


def stylesheet() -> str:
    """The token colours of each theme, each under its own ``prefers-color-scheme`` (so that no
    colour of one theme is left standing in the other)."""
    selector = f".{CSS_CLASS}"

    def rules(media: str, style: str) -> str:
        formatter = HtmlFormatter(style=style)
        lines = [*formatter.get_background_style_defs(selector), *formatter.get_token_style_defs(selector)]
        return f"@media {media} {{\n" + "".join(f"  {line}\n" for line in lines) + "}\n"

    return (
        CSS_BEGIN
        + "\n"
        + rules("not all and (prefers-color-scheme: dark)", LIGHT_STYLE)
        + rules("(prefers-color-scheme: dark)", DARK_STYLE)
        + CSS_END
        + "\n"
    )
