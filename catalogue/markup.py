"""A description (a method's, a task's, a dataset's) as Papers with Code rendered it.

The archive's descriptions are CommonMark with LaTeX math between dollars (``$…$`` inline,
``$$…$$`` displayed) and a little raw HTML (``10<sup>8</sup>``). :func:`render` is the one
renderer of them for pages: Markdown by markdown-it-py (CommonMark, plus tables and
strikethrough), math by mdit-py-plugins' dollarmath, typeset as MathML on the server by
latex2mathml (no script: the CSP stays as it is), and the whole sanitised by nh3 with the
allowlist below. :func:`plain_text` is the same text with its markup taken out, for a page's
``<meta name="description">``. The API serves the Markdown as given, as Papers with Code's did.

What the archive's text needs beyond that, each found in the real methods dump (1,924 methods):

- Its Markdown escapes reach into the math: ``S\\_{t}`` (3,396 times), ``\\left\\(``. In LaTeX
  ``\\_`` is a literal underscore; what was meant is what Markdown unescaping gives, so
  ``\\_ \\* \\( \\)`` are unescaped inside math (``\\\\``, ``\\{`` and LaTeX's other escapes stay).
- MathJax typeset ``\\begin{align}…\\end{align}`` where it stood, without dollars (80 times,
  ``equation`` 8 times): a line opening such an environment starts displayed math.
- ``$`` is also a currency sign: a ``$`` followed by a digit opens math only when its closing
  ``$`` hugs the math (no space before it, no digit after it), so ``costs $5 and $10`` stays
  prose while ``$2^n$`` and ``3$\\times$3`` are math.
- ``**FastMoE **``: a bold run with a space inside one end, which CommonMark leaves as stars
  (6 methods), is made bold.
- Math latex2mathml cannot convert is shown as its LaTeX source in ``<code class="math-source">``
  (1 formula of 4,233: an empty ``$ $``).
- Images: the CSP allows images only from this site (``img-src 'self' data:``) and the
  archive's point at Papers with Code's media host, so an image is a link to it, named by its
  alt text ("Image: …"); an image inside a link, or not at an http(s) address, is its alt text.
- Headings are demoted two levels (``#`` is ``<h3>``): a description sits under the page's
  ``<h1>`` and ``<h2>``.
- Raw HTML keeps only the tags and attributes allowed below: no ``style``, no event handler,
  no ``id``, no ``<img>``, no URL but http(s) and mailto; every link gets ``rel="nofollow
  noopener"``.

Rendering all 1,924 real descriptions takes 0.2 ms each at the median, 8 ms at most (the
longest, with the most math), so nothing is cached here: the pages that show a description
are cached whole, and lists show none.
"""

import html
import re
from xml.etree.ElementTree import tostring

import nh3
from django.utils.html import linebreaks
from django.utils.safestring import SafeString
from latex2mathml.converter import convert_to_element
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

from catalogue.addresses import web_url

HEADING_SHIFT = 2  # a description's "#" under the page's h1 and h2
# Longer texts (the longest real description is 5,744 characters) are shown as plain paragraphs:
# markdown-it takes seconds over a million characters of "![" (the loader accepts a million).
MAX_MARKDOWN = 50_000
# The most LaTeX one description has typeset (the real maximum is 1,377 characters in 27
# formulas; latex2mathml takes some 12 µs a character): formulas past it are shown as source.
MATH_BUDGET = 20_000

# --- what survives sanitising -----------------------------------------------------------------

HTML_TAGS = {
    "p", "br", "hr", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "var",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "caption",
    "a", "strong", "b", "em", "i", "u", "s", "del", "ins", "sub", "sup", "small", "mark", "abbr",
    "q", "cite", "span", "div",
}  # fmt: skip
# What latex2mathml writes, and the other presentation elements. Not <semantics> and
# <annotation(-xml)> (HTML inside MathML), <maction>, <mglyph> (it has a src), <malignmark>.
MATHML_TAGS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mmultiscripts", "mprescripts",
    "none", "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom", "menclose", "merror",
}  # fmt: skip
# Presentation only: no href (MathML's own links), no colour (the page's themes), no style.
MATHML_ATTRIBUTES = {
    "display", "mathvariant", "mathsize", "displaystyle", "scriptlevel", "stretchy", "fence",
    "separator", "form", "lspace", "rspace", "accent", "accentunder", "movablelimits", "largeop",
    "symmetric", "minsize", "maxsize", "linethickness", "linebreak", "width", "height", "depth",
    "voffset", "notation", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines",
    "rowlines", "columnspan", "rowspan", "frame", "framespacing", "align",
}  # fmt: skip
ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "ol": {"start"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
    **dict.fromkeys(MATHML_TAGS, MATHML_ATTRIBUTES),
}
CLASSES = {"code": {"math-source"}, "span": {"math-display"}}
LINK_REL = "nofollow noopener"
URL_SCHEMES = {"http", "https", "mailto"}
# Dropped with everything in them; any other tag not allowed is dropped and its text kept.
DROPPED_WITH_CONTENT = {"script", "style", "template", "textarea", "noscript", "iframe", "object", "svg"}

_CLEANER = nh3.Cleaner(
    tags=HTML_TAGS | MATHML_TAGS,
    clean_content_tags=DROPPED_WITH_CONTENT,
    attributes=ATTRIBUTES,
    allowed_classes=CLASSES,
    link_rel=LINK_REL,
    url_schemes=URL_SCHEMES,
    strip_comments=True,
)


def render(text: str) -> SafeString:
    """The description as HTML for a page: Markdown and math rendered, then sanitised."""
    if not text:
        return SafeString("")
    if len(text) > MAX_MARKDOWN:
        rendered = linebreaks(text, autoescape=True)
    else:
        rendered = _MARKDOWN.renderer.render(_shaped(text), _MARKDOWN.options, {"math_budget": MATH_BUDGET})
    return SafeString(_CLEANER.clean(rendered))


def plain_text(text: str) -> str:
    """The description's words without markup, for a ``<meta name="description">``: paragraphs,
    headings, list items and table cells, inline math as its LaTeX source (``x_{t}``); displayed
    math, code blocks and raw HTML blocks left out. Whitespace collapsed to single spaces."""
    if not text:
        return ""
    if len(text) > MAX_MARKDOWN:
        return " ".join(text.split())
    words = (_inline_text(t.children or []) for t in _MARKDOWN.parse(text) if t.type == "inline")
    return " ".join(" ".join(words).split())


# --- math -------------------------------------------------------------------------------------

_MARKDOWN_ESCAPE_IN_MATH = re.compile(r"\\(\\|[_*()])")
# What latex2mathml does not know, as what it does: equation numbering (which a description
# has no use for, and MathJax did not show) dropped; "aligned" (its "&" came out as text),
# "align" and "eqnarray" (numbered) as "align*"; \arg as an operator, \vert and \Vert as their
# characters (it printed "\arg", and "\vert" after \bigl).
_FOR_LATEX2MATHML = [
    (re.compile(r"\\(?:label\{[^{}]*\}|nonumber\b|notag\b)"), ""),
    (re.compile(r"\\(begin|end)\{(?:aligned|align|eqnarray)\*?\}"), r"\\\1{align*}"),
    (re.compile(r"\\arg(?![A-Za-z])"), r"\\operatorname{arg}"),
    (re.compile(r"\\vert(?![A-Za-z])"), "|"),
    (re.compile(r"\\Vert(?![A-Za-z])"), "\u2016"),
]
# latex2mathml keeps its entities (``&#x1D4B6;``) as text; ElementTree escapes their "&".
_ESCAPED_CHARACTER_REFERENCE = re.compile(r"&amp;(#x[0-9A-Fa-f]{1,6};)")


def math_source(latex: str) -> str:
    """The LaTeX of a formula as its author wrote it: the archive's Markdown escapes undone."""
    return _MARKDOWN_ESCAPE_IN_MATH.sub(lambda m: m[0] if m[1] == "\\" else m[1], latex).strip()


def _source_shown(source: str) -> str:
    return f'<code class="math-source">{html.escape(source)}</code>'


def mathml(latex: str, *, display: bool) -> str:
    """The formula as MathML, or its source in ``<code class="math-source">`` when latex2mathml
    cannot convert it. Not yet sanitised: :func:`render` cleans the whole description."""
    source = converted = math_source(latex)
    for pattern, replacement in _FOR_LATEX2MATHML:
        converted = pattern.sub(replacement, converted)
    try:
        element = convert_to_element(converted, display="block" if display else "inline")
    except Exception:  # its own errors, IndexError, RecursionError…: the source is shown instead
        return _source_shown(source)
    # tostring escapes text and attributes; latex2mathml's own convert() unescapes them all again
    # (\text{<b>} came out as a <b> element): this unescapes only its character references.
    return _ESCAPED_CHARACTER_REFERENCE.sub(r"&\1", tostring(element, encoding="unicode"))


def _budgeted_mathml(latex: str, env: dict, *, display: bool) -> str:
    env["math_budget"] -= len(latex)
    return mathml(latex, display=display) if env["math_budget"] >= 0 else _source_shown(math_source(latex))


def _math_inline(renderer, tokens, idx, options, env) -> str:
    return _budgeted_mathml(tokens[idx].content, env, display=False)


def _math_display(renderer, tokens, idx, options, env) -> str:
    # A span, not a div: $$…$$ may sit inside a paragraph. The stylesheet makes it a block.
    return f'<span class="math-display">{_budgeted_mathml(tokens[idx].content, env, display=True)}</span>'


# --- the parser's additions -------------------------------------------------------------------


def _currency(state: StateInline, silent: bool) -> bool:
    """A ``$`` before a digit whose closing ``$`` does not hug the math is a currency sign: it is
    taken as text here, before dollarmath would open math on it (``costs $5 and $10``)."""
    src, pos = state.src, state.pos
    if src[pos] != "$" or not src[pos + 1 : pos + 2].isdigit():
        return False
    end = src.find("$", pos + 1)
    while end != -1 and src[end - 1] == "\\":
        end = src.find("$", end + 1)
    if end != -1 and not src[end - 1].isspace() and not src[end + 1 : end + 2].isdigit():
        return False  # $2^n$: math
    if not silent:
        state.pending += "$"
    state.pos += 1
    return True


DISPLAY_ENVIRONMENTS = {"align", "aligned", "equation", "eqnarray", "gather", "gathered", "multline", "split"}
_BEGIN = re.compile(r"\\begin\{([A-Za-z]+)(\*?)\}")


def _math_environment(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A line that opens a display environment, through the line that ends with its ``\\end``:
    displayed math, even inside a paragraph ("can be written as:" then ``\\begin{align}``)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False  # an indented code block
    opening = _BEGIN.match(state.src, state.bMarks[start] + state.tShift[start], state.eMarks[start])
    if not opening or opening[1] not in DISPLAY_ENVIRONMENTS:
        return False
    closing = f"\\end{{{opening[1]}{opening[2]}}}"
    last = start
    while not state.src[state.bMarks[last] : state.eMarks[last]].rstrip().endswith(closing):
        last += 1
        if last >= end or state.isEmpty(last):
            return False  # not closed before a blank line: prose that mentions \begin
    if not silent:
        token = state.push("math_block", "math", 0)
        token.block = True
        token.content = state.getLines(start, last + 1, state.tShift[start], False)
        token.map = [start, last + 1]
        state.line = last + 1
    return True


# A space inside one end of the stars, not both (``a ** b ** c`` is not bold); no code, math,
# star or line end inside, no letter or digit outside (``**a**, or **b**`` is two bolds).
_LOOSE_STRONG = re.compile(
    r"(?<![\w*])\*\*(?:[ \t]+(?P<left>[^\s*`$](?:[^*`$\n]*[^\s*`$])?)"
    r"|(?P<right>[^\s*`$](?:[^*`$\n]*[^\s*`$])?)[ \t]+)\*\*(?![\w*])"
)


def _loose_strong(state: StateCore) -> None:
    """``**FastMoE **`` and ``** Sigmoid Linear Units**`` as the bold they mean."""
    for token in state.tokens:
        if token.type == "inline" and "**" in token.content:
            token.content = _LOOSE_STRONG.sub(lambda m: f"**{m['left'] or m['right']}**", token.content)


_MARKDOWN = (
    MarkdownIt("commonmark", {"html": True})
    .enable(["table", "strikethrough"])
    .use(dollarmath_plugin, allow_labels=False, allow_space=True, allow_digits=True, double_inline=True)
)
_INTERRUPTS = {"alt": ["paragraph", "reference", "blockquote", "list"]}  # as a fence does
_MARKDOWN.block.ruler.before("math_block", "math_environment", _math_environment, _INTERRUPTS)
_MARKDOWN.core.ruler.after("block", "loose_strong", _loose_strong)
_MARKDOWN.inline.ruler.before("math_inline", "currency", _currency)
_MARKDOWN.add_render_rule("math_inline", _math_inline)
_MARKDOWN.add_render_rule("math_inline_double", _math_display)
_MARKDOWN.add_render_rule("math_block", _math_display)


# --- the parsed description, shaped for a page --------------------------------------------------


def _shaped(text: str) -> list[Token]:
    """The description's tokens, headings demoted, images turned into links to them, code blocks
    without the language class that the sanitiser would leave empty."""
    tokens = _MARKDOWN.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + HEADING_SHIFT)}"
        elif token.type == "fence":
            token.info = ""
        elif token.type == "inline" and token.children:
            token.children = _images_as_links(token.children)
    return tokens


def _images_as_links(children: list[Token]) -> list[Token]:
    shaped, in_link = [], 0
    for token in children:
        in_link += {"link_open": 1, "link_close": -1}.get(token.type, 0)
        if token.type != "image":
            shaped.append(token)
            continue
        alt = _inline_text(token.children or [])
        src = web_url(token.attrGet("src"))
        if in_link or not src:
            shaped.append(Token("text", "", 0, content=alt))
            continue
        label = Token("text", "", 0, content=f"Image: {alt}" if alt else "Image")
        shaped += [Token("link_open", "a", 1, attrs={"href": src}), label, Token("link_close", "a", -1)]
    return shaped


_INLINE_WORDS = {"text", "code_inline"}
_INLINE_MATH = {"math_inline", "math_inline_double"}
_HTML_IN_WORDS = {"<sup>": "^", "<sub>": "_"}  # 10<sup>8</sup> is 10^8, not 108


def _inline_text(children: list[Token]) -> str:
    words = []
    for token in children:
        if token.type in _INLINE_WORDS:
            words.append(token.content)
        elif token.type in _INLINE_MATH:
            words.append(math_source(token.content))
        elif token.type in ("softbreak", "hardbreak"):
            words.append(" ")
        elif token.type == "html_inline":
            words.append(_HTML_IN_WORDS.get(token.content.lower(), ""))
        elif token.type == "image":
            words.append(_inline_text(token.children or []))
    return "".join(words)
