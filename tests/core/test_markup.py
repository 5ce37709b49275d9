"""Descriptions rendered as Papers with Code rendered them (catalogue.markup): Markdown, math as
MathML, sanitised. Checked on every description of the real methods dump
(../shared/pwc-archive-samples/methods/, CC BY-SA 4.0, read from there, never copied here) and on
hostile markup."""

import gzip
import json
import re

import pytest
from django.utils.safestring import SafeString

from catalogue import markup
from tests.pages import text_outside_code
from tests.samples import METHODS_DUMP
from tests.xss_corpus import EVIL, EVIL_SHORT, Markup


@pytest.fixture(scope="module")
def real_descriptions() -> dict[str, str]:
    """Every description of the real methods dump, by the method's slug."""
    if not METHODS_DUMP.is_file():
        pytest.skip(f"{METHODS_DUMP} is not on this machine")
    with gzip.open(METHODS_DUMP) as dump:
        records = json.load(dump)
    return {r["url"].rsplit("/", 1)[1]: r["description"] or "" for r in records}


def assert_sanitised(html: str) -> Markup:
    """Only the allowlist's tags and attributes (so no handler, no style, no id); no script; no
    URL with a scheme but http(s) and mailto; every link nofollow."""
    parsed = Markup(html)
    for tag, attrs in parsed.tags:
        assert tag in markup.HTML_TAGS | markup.MATHML_TAGS, (tag, html[:200])
        for name, value in attrs.items():
            allowed = markup.ATTRIBUTES.get(tag, set()) | {"rel" if tag == "a" else "", "class"}
            assert name in allowed, (tag, name, html[:200])
            if name == "class":
                assert value, tag
                assert set(value.split()) <= markup.CLASSES.get(tag, set()), (tag, value)
            if name == "href" and re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", value):  # relative: as given
                assert re.match(r"(https?|mailto):", value), (tag, value)
        if tag == "a":
            assert attrs.get("rel") == "nofollow noopener", attrs
    assert not parsed.scripts
    return parsed


# --- the archive's Markdown and math ----------------------------------------------------------


def test_markdown_math_links_and_inline_html_render_as_the_archive_meant():
    html = markup.render(
        '**GAN** is $\\frac{1}{2}$ of it, see [here](https://arxiv.org/abs/1406.2661) and '
        '<span style="color:red">this</span>.'
    )  # fmt: skip
    assert isinstance(html, SafeString)
    assert "<strong>GAN</strong>" in html
    assert (
        '<math display="inline"><mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac>' in html
    )
    assert '<a href="https://arxiv.org/abs/1406.2661" rel="nofollow noopener">here</a>' in html
    assert "<span>this</span>" in html
    for raw in ("**", "$", "\\frac", "style=", "]("):
        assert raw not in html, raw
    assert_sanitised(html)


def test_every_real_description_renders_within_the_allowlist(real_descriptions):
    assert len(real_descriptions) == 1924
    shown_as_source, n_math = [], 0
    for slug, description in real_descriptions.items():
        html = markup.render(description)
        assert_sanitised(html)
        words = text_outside_code(html)
        # Only a code block's "**" (sm3: ``x ** p``) and two unclosed "$" (a price, a
        # "$G_{k}:" cut short) are left as the text gave them.
        assert "**" not in words, slug
        for latex in ("\\frac", "\\begin", "\\_"):
            assert latex not in words, (slug, latex)
        n_math += html.count("<math")
        shown_as_source += [slug] * html.count('class="math-source"')
        plain = markup.plain_text(description)
        assert not re.search(r"</?(sup|sub|strong|em|a|p|math)\b|\*\*", plain), slug
    assert n_math == 4233
    assert shown_as_source == ["svpg"]  # its "$ $" holds nothing to typeset


def test_the_archives_markdown_escapes_inside_math_are_undone():
    # S\_{t} is S with subscript t (3,396 escaped underscores in the methods dump), \left\( a paren.
    html = markup.render("$S\\_{t+1} = \\left\\(x\\right\\)$")
    assert "<msub><mi>S</mi><mrow><mi>t</mi><mo>+</mo><mn>1</mn></mrow></msub>" in html
    assert 'form="prefix">(</mo>' in html
    assert "_" not in html
    assert "\\" not in html
    assert markup.math_source("a \\\\ b\\_{c}") == "a \\\\ b_{c}"  # LaTeX's own \\ stays


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        ("It costs $5 and $10 a month.", "It costs $5 and $10 a month."),
        ("Between $5-$10.", "Between $5-$10."),
        ("A $1M prize; and a $2M one.", "A $1M prize; and a $2M one."),
        ("Save $5 when $x$ is small.", "Save $5 when <math"),
    ],
)
def test_a_dollar_before_a_number_is_a_currency_sign(text, prose):
    assert prose in markup.render(text)


@pytest.mark.parametrize("text", ["a 3$\\times$3 convolution", "for $2^n$ layers", "$1$-Lipschitz"])
def test_math_that_starts_or_ends_by_a_digit_is_still_math(text):
    html = markup.render(text)
    assert "<math" in html
    assert "$" not in html


def test_math_latex2mathml_cannot_convert_is_shown_as_its_source():
    html = markup.render("Broken $\\frac{1}{$ and fine $x$.")
    assert '<code class="math-source">\\frac{1}{</code>' in html
    assert "<math" in html


def test_text_inside_math_is_text_not_markup():
    # latex2mathml's convert() unescapes what it writes: \text{<b>} would have become a <b> element.
    html = markup.render("$\\text{<b>x</b> & <i>y</i>}$")
    assert "<b>" not in html
    assert "<i>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "&amp;" in html


def test_environments_without_dollars_are_displayed_math():
    html = markup.render(
        "The block can be written as:\n\\begin{align}\ns &= F\\_\\text{se}(X) \\label{eq:1} \\\\\n"
        "z &= s + 1\n\\end{align}\nwhere $s$ is its output.\n\nA sentence about \\begin{align} alone."
    )
    assert html.startswith(
        '<p>The block can be written as:</p>\n<span class="math-display"><math display="block">'
    )
    assert "<mtable" in html
    assert "eq:1" not in html
    assert "(1)" not in html
    assert "&amp;" not in html
    assert "<p>where <math" in html
    assert "<p>A sentence about \\begin{align} alone.</p>" in html


def test_displayed_math_inside_a_paragraph_keeps_the_paragraph_whole():
    html = markup.render("Before $$x^2$$ after.")
    assert html == (
        '<p>Before <span class="math-display"><math display="block"><mrow><msup><mi>x</mi><mn>2</mn>'
        "</msup></mrow></math></span> after.</p>\n"
    )


def test_images_become_links_to_them_since_the_csp_allows_no_other_host():
    html = markup.render(
        "![The architecture](https://production-media.paperswithcode.com/methods/gan.png) "
        "![](https://example.org/b.png) [![c](https://example.org/c.png)](https://example.org/) "
        "![d](data:image/png;base64,AAAA) ![e](/media/e.png)"
    )
    assert (
        '<a href="https://production-media.paperswithcode.com/methods/gan.png" rel="nofollow noopener">'
        "Image: The architecture</a>"
    ) in html
    assert '<a href="https://example.org/b.png" rel="nofollow noopener">Image</a>' in html
    assert '<a href="https://example.org/" rel="nofollow noopener">c</a>' in html  # no link in a link
    assert html.endswith(" d e</p>\n")
    assert "<img" not in html


def test_headings_are_demoted_under_the_pages_own():
    html = markup.render("# One\n\n## Two\n\n#### Four\n\n###### Six")
    assert html == "<h3>One</h3>\n<h4>Two</h4>\n<h6>Four</h6>\n<h6>Six</h6>\n"


def test_a_bold_run_with_a_space_inside_its_stars_is_bold():
    html = markup.render("**FastMoE ** and ** Sigmoid Linear Units**, but a ** b ** c and **a**, or **b**.")
    assert html == (
        "<p><strong>FastMoE</strong> and <strong>Sigmoid Linear Units</strong>, but a ** b ** c and "
        "<strong>a</strong>, or <strong>b</strong>.</p>\n"
    )


def test_tables_code_and_lists_render():
    html = markup.render("| a | b |\n|---|---:|\n| 1 | 2 |\n\n```python\nx ** 2\n```\n\n* one\n* two")
    assert "<table>" in html
    assert "<td>2</td>" in html
    assert "<pre><code>x ** 2\n</code></pre>" in html
    assert "<ul>\n<li>one</li>" in html


# --- hostile markup -------------------------------------------------------------------------------

HOSTILE = [
    EVIL,
    EVIL_SHORT,
    f"Intro.\n\n{EVIL}\n\nOutro with $x$.",
    f"${EVIL}$",
    "<script>alert(1)</script><img src=x onerror=alert(2)><svg onload=alert(3)><text>t</text></svg>",
    '<a href="javascript:alert(1)">a</a> <a href="jav&#x09;ascript:alert(1)">b</a>',
    '<a href=" JaVaScRiPt:alert(1)">c</a> <a href="data:text/html,x">d</a>',
    "[x](javascript:alert(1)) [y](<javascript:alert(1)>) [z](vbscript:x) <javascript:alert(1)>",
    "[d](data:text/html,<script>alert(1)</script>) ![i](javascript:alert(1))",
    '![j" onerror="alert(1)](https://x.org/a.png)',
    '<math href="javascript:alert(1)"><mi href="javascript:alert(1)">x</mi></math>',
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    "$\\href{javascript:alert(1)}{x}$ $\\style{color:red}{x}$ $\\color{red}{x}$ $\\class{evil}{x}$",
    '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    "<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>",
    '<iframe srcdoc="<script>alert(1)</script>"></iframe><object data=x></object><embed src=x>',
    '<base href="//evil.example"><meta http-equiv="refresh" content="0;url=//evil">',
    "<link rel=stylesheet href=//evil.example>",
    '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">b</button></form>',
    "<details open ontoggle=alert(1)>d</details><input autofocus onfocus=alert(1)>",
    '<span style="background:url(javascript:alert(1))" id="x" class="math-display evil">s</span>',
    '<a href="https://example.org" rel="opener" target="_blank">opener</a>',
    "<h1>A heading as tall as the page's</h1><h2>and its sections'</h2>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_markup_never_survives(text):
    html = markup.render(text)
    assert_sanitised(html)
    lowered = html.lower()  # what is left of the hostile markup is text: "onerror=" may be read
    for tag in ("script", "svg", "img", "iframe", "object", "embed", "base", "meta", "link", "form",
                "input", "style", "h1", "h2"):  # fmt: skip
        assert f"<{tag}" not in lowered, (tag, html)
    for attribute in ('href="javascript', 'href="data', "xlink"):
        assert attribute not in lowered, (attribute, html)


def test_template_syntax_in_a_description_stays_text():
    assert markup.render("{{ settings.SECRET_KEY }} {% debug %}") == (
        "<p>{{ settings.SECRET_KEY }} {% debug %}</p>\n"
    )


# --- as plain text, for meta descriptions ---------------------------------------------------------


def test_plain_text_has_the_words_without_markup():
    text = (
        "# Generative *adversarial*\n\n**GAN** is $\\frac{1}{2}$ of [it](https://x.org), with "
        "10<sup>8</sup> `params` and ![a figure](https://x.org/f.png).\n\n$$\nE = mc^2\n$$\n\n"
        "```\ncode()\n```\n\n* a\n* b"
    )
    assert markup.plain_text(text) == (
        "Generative adversarial GAN is \\frac{1}{2} of it, with 10^8 params and a figure. a b"
    )
    assert markup.plain_text("") == ""


# --- bounded work -------------------------------------------------------------------------------


def test_a_text_too_long_for_markdown_is_shown_as_plain_paragraphs():
    text = "**not bold** <b>x</b> $y$\n\n" + "word " * markup.MAX_MARKDOWN
    html = markup.render(text)
    assert html.startswith("<p>**not bold** &lt;b&gt;x&lt;/b&gt; $y$</p>")
    assert markup.plain_text(text).startswith("**not bold** <b>x</b> $y$ word word")


def test_math_past_the_budget_is_shown_as_source():
    formula = "x_{i}+" * 1000 + "x"  # 6,001 characters a formula
    html = markup.render(" ".join(f"${formula}$" for _ in range(5)))
    assert html.count("<math") == markup.MATH_BUDGET // len(formula)
    assert html.count('class="math-source"') == 5 - markup.MATH_BUDGET // len(formula)


@pytest.mark.parametrize(
    "latex",
    [
        "{" * 3000 + "x" + "}" * 3000,
        "\\frac{1}{" * 2000 + "1" + "}" * 2000,
        "\\left(" * 3000,
    ],
)
def test_latex_that_breaks_the_converter_is_shown_as_source(latex):
    html = markup.render(f"${latex}$")
    assert html.startswith('<p><code class="math-source">')
